"""Friends: asked for by name or made at once by a friend link, listed with who is online and
at which table; invitations to a table and the notices a page reads (see ``docs/friends.md``).

Every endpoint here is for a signed-in account (F1).  Friendships, notices and presence
are in the shared store (:mod:`mushka.server.socialdb`), so a request made through one
process is seen through every other.  The page asks for its notices every few seconds
(``GET /api/notices``): one indexed read of a few rows, and the same call says the page is
open (presence), so an account with the page open anywhere is online.
"""

from __future__ import annotations

from typing import Literal

from starlette.requests import Request
from starlette.responses import Response

from mushka.i18n import add_text_file, tr
from mushka.server.presence import PRESENCE
from mushka.server.socialbodies import (
    AskReply,
    CodeBody,
    Done,
    FriendOut,
    FriendsReply,
    InviteBody,
    LinkReply,
    NameBody,
    NoticeOut,
    NoticesReply,
)
from mushka.server.socialdb import Notice
from mushka.server.socialhttp import (
    body,
    book_of,
    endpoint,
    json_reply,
    lang_of,
    limit,
    lobby_of,
    me_and_other,
    read,
    same_site,
    signed_in,
    write,
)
from mushka.server.texts import Problem, ProtocolError


@endpoint
async def list_friends(request: Request) -> Response:
    """``GET /api/friends``: my friends (online, at which table), then requests either way."""
    me = await signed_in(request)
    book = book_of(request)
    found = await read(request, lambda: book.friendships(me.id))
    friends = [f.other.id for f in found if f.status == "accepted"]
    seen = await read(request, lambda: book.where(friends))
    out = []
    for f in found:
        where = seen.get(f.other.id)
        out.append(FriendOut(name=f.other.name, status=f.status, online=bool(where and where.online),
                             table=where.table_id if where and where.online else None))
    return json_reply(FriendsReply(friends=out))


@endpoint
async def ask_friend(request: Request) -> Response:
    """``POST /api/friends {name}``: ask to be friends, or accept the other's request (F2)."""
    me, _, book, other = await me_and_other(request, NameBody)
    if await read(request, lambda: book.blocks(me.id, other.id)):
        raise ProtocolError("blocked", rule="F2", name=other.name)
    status = await write(request, lambda: book.ask(me.id, other.id))
    return json_reply(AskReply(name=other.name, status=status))


@endpoint
async def remove_friend(request: Request) -> Response:
    """``POST /api/friends/remove {name}``: decline a request, withdraw mine, or end a friendship."""
    me, _, book, other = await me_and_other(request, NameBody)
    return json_reply(Done(changed=await write(request, lambda: book.decline(me.id, other.id))))


@endpoint
async def my_link(request: Request) -> Response:
    """``GET /api/friends/link``: my friend link; ``?new=1`` makes a new one (the old one stops working)."""
    me = await signed_in(request)
    new = request.query_params.get("new") == "1"
    book = book_of(request)
    if new:
        limit(request)
    code = await write(request, lambda: book.code(me.id, new=new))
    return json_reply(LinkReply(code=code, url=f"/?friend={code}"))


@endpoint
async def use_link(request: Request) -> Response:
    """``POST /api/friends/link {code}``: become friends with the link's owner at once (F2)."""
    limit(request)
    me = await signed_in(request)
    given = await body(request, CodeBody)
    book = book_of(request)
    owner = await read(request, lambda: book.owner_of(given.code))
    if owner is None:
        raise ProtocolError("no_friend_link", rule="F2")
    if owner.id == me.id:
        raise ProtocolError("yourself", rule="F2")
    if await read(request, lambda: book.blocks(me.id, owner.id) or book.blocks(owner.id, me.id)):
        raise ProtocolError("blocked", rule="F2", name=owner.name)
    if owner.id in await read(request, lambda: book.friend_ids(me.id)):
        return json_reply(AskReply(name=owner.name, status="friends"))
    await write(request, lambda: book.befriend(me.id, owner.id))
    return json_reply(AskReply(name=owner.name, status="accepted"))


@endpoint
async def invite(request: Request) -> Response:
    """``POST /api/invitations {name, table}``: invite a friend to a table that is waiting or
    being played (F3); the same unseen invitation is not made twice."""
    me, wanted, book, other = await me_and_other(request, InviteBody)
    if other.id not in await read(request, lambda: book.friend_ids(me.id)):
        raise ProtocolError("not_friends", rule="F3", name=other.name)
    store = lobby_of(request).store
    place = await read(request, lambda: store.placement(wanted.table))
    if place is None or place.status not in ("waiting", "playing"):
        raise ProtocolError("bad_invitation", rule="F3", problem=Problem("server.problem.invite_table"))
    if await read(request, lambda: book.blocks(other.id, me.id)):
        # Said as if sent: a block is not told to the one blocked.
        return json_reply(Done(changed=True))
    made = await write(request, lambda: book.invite(me.id, other.id, wanted.table))
    return json_reply(Done(changed=made))


def _text(notice: Notice, lang: str) -> str:
    return tr(f"server.notice.{notice.kind}", lang, name=notice.sender.name)


@endpoint
async def notices(request: Request) -> Response:
    """``GET /api/notices?after=ID&table=ID``: my unseen notices; also says my page is open
    (at ``table``, if given), which keeps me online for my friends."""
    me = await signed_in(request)
    book = book_of(request)
    after_text = request.query_params.get("after", "0")
    after = int(after_text) if after_text.isdigit() and len(after_text) < 16 else 0
    table = (request.query_params.get("table") or "")[:32]
    await PRESENCE.page(request, me.id, table)
    found = await read(request, lambda: book.notices(me.id, after))
    lang = lang_of(request)
    kinds: dict[str, Literal["invite", "friend_request", "friend_accepted"]] = {
        "invite": "invite", "friend_request": "friend_request", "friend_accepted": "friend_accepted"}
    out = [NoticeOut(id=n.id, kind=kinds[n.kind], name=n.sender.name, table=n.table_id, text=_text(n, lang),
                     at=n.created_ms) for n in found if n.kind in kinds]
    return json_reply(NoticesReply(notices=out))


@endpoint
async def notice_seen(request: Request) -> Response:
    """``POST /api/notices/{id}/seen``: answered or dismissed; it is not shown again."""
    me = await signed_in(request)
    text = request.path_params["notice_id"]
    if not text.isdigit() or len(text) > 15:
        raise ProtocolError("no_notice", rule="F3")
    same_site(request)
    book = book_of(request)
    if not await write(request, lambda: book.seen(me.id, int(text))):
        raise ProtocolError("no_notice", rule="F3")
    return json_reply(Done(changed=True))


add_text_file("mushka.server", "friends.toml")
