"""Mutes, blocks and reported chat lines (see ``docs/friends.md``).

A signed-in player may *mute* another account: that account's chat lines are not sent
to any of his connections, at every table (the server filters per receiving connection,
:meth:`mushka.server.chat.TableChat.hears`).  A *block* hides the lines too, ends their
friendship, and keeps the blocked account from asking to be friends or inviting him (F4).
A guest has no account to mute: the page hides a name's lines in that browser (its own
list, kept in the browser), which is all a guest can do.

Anybody at a table, guest or signed in, may *report* a line of its chat (F5): the server
finds the line among the table's recent lines (in memory where the table is served, in the
store otherwise), so that a report always quotes what was really said, and keeps it with
who said it and who reported it for the operator (``mushka reports``).
"""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from typing import Final

from sqlalchemy import select
from sqlalchemy.engine import Engine
from starlette.requests import Request
from starlette.responses import Response

from mushka.i18n import add_texts, tr
from mushka.server.accounts import current_account
from mushka.server.chat import Said
from mushka.server.guards import client_address
from mushka.server.lobby import Lobby
from mushka.server.presence import rehide
from mushka.server.socialbodies import Done, HideBody, HideOut, HidesReply, ReportBody
from mushka.server.socialdb import Report, SocialBook, now_ms
from mushka.server.socialhttp import (
    body,
    book_of,
    endpoint,
    json_reply,
    limit,
    lobby_of,
    me_and_other,
    read,
    signed_in,
    write,
)
from mushka.server.sqlschema import Base
from mushka.server.texts import ProtocolError

_CHAT = Base.metadata.tables["mushka_chat"]

SEARCHED: Final = 200
"""Stored lines of a table searched for a reported one (the newest)."""


@endpoint
async def list_hides(request: Request) -> Response:
    """``GET /api/hides``: the accounts I muted or blocked."""
    me = await signed_in(request)
    book = book_of(request)
    found = await read(request, lambda: book.hides(me.id))
    return json_reply(HidesReply(hides=[HideOut(name=p.name, kind=k) for p, k in found]))


@endpoint
async def set_hide(request: Request) -> Response:
    """``POST /api/hides {name, kind}``: mute, block, or neither (F4); my connections on this
    process hide the lines at once, those on other processes within seconds."""
    me, wanted, book, other = await me_and_other(request, HideBody, rule="F4")
    kind = None if wanted.kind == "none" else wanted.kind
    await write(request, lambda: book.hide(me.id, other.id, kind))
    hidden = await read(request, lambda: book.hidden([me.id]))
    rehide(lobby_of(request), me.id, hidden.get(me.id, frozenset()))
    return json_reply(Done(changed=True))


def _matches(said: Said, given: ReportBody) -> bool:
    if said.at != given.at or said.seat != given.seat or given.name not in said.name:
        return False
    if said.phrase is not None:
        return given.text in (tr(f"chat.phrase.{said.phrase}", "en"), tr(f"chat.phrase.{said.phrase}", "ru"))
    return said.text == given.text


def _stored_lines(engine: Engine, table_id: str) -> list[Said]:
    with engine.connect() as conn:
        rows = conn.execute(select(_CHAT.c.data).where(_CHAT.c.table_id == table_id)
                            .order_by(_CHAT.c.number.desc()).limit(SEARCHED)).all()
    out = []
    for (data,) in rows:
        try:
            out.append(Said.from_json(data))
        except (ValueError, TypeError, AttributeError):
            continue
    return out


async def find_line(lobby: Lobby, book: SocialBook, given: ReportBody) -> Said | None:
    """The line ``given`` names, among the table's recent lines (memory first, then the store)."""
    table = lobby.tables.get(given.table)
    if table is not None:
        for said in reversed(table.social.chat.lines):
            if _matches(said, given):
                return said
    for said in await asyncio.to_thread(_stored_lines, book.engine, given.table):
        if _matches(said, given):
            return said
    return None


@endpoint
async def report_line(request: Request) -> Response:
    """``POST /api/reports {table, at, seat, name, text}``: report a chat line (F5); a guest may
    too.  ``changed`` is false when the same person reported the line already."""
    limit(request)
    given = await body(request, ReportBody)
    lobby = lobby_of(request)
    book = book_of(request)
    said = await find_line(lobby, book, given)
    if said is None:
        raise ProtocolError("no_line", rule="F5")
    try:
        reporter = await current_account(request)
    except RuntimeError:  # a store without accounts
        reporter = None
    text = said.text if said.phrase is None else tr(f"chat.phrase.{said.phrase}", "en")
    report = Report(id=0, table_id=given.table, line_at=said.at, seat=said.seat, speaker=said.name[0],
                    speaker_id=said.account, text=text or "", reporter_id=reporter.id if reporter else None,
                    reporter_address=client_address(request.scope)[:64], created_ms=now_ms())
    made = await write(request, lambda: book.report(report))
    return json_reply(Done(changed=made), 201 if made else 200)


def format_reports(reports: list[Report], names: dict[str, str]) -> str:
    """The operator's listing: one report a line, newest first, as ``mushka reports`` prints it."""
    lines = []
    for r in reports:
        when = datetime.fromtimestamp(r.created_ms / 1000, UTC).strftime("%Y-%m-%d %H:%M")
        speaker = r.speaker + (f" [account {names.get(r.speaker_id, r.speaker_id)}]" if r.speaker_id else " [guest]")
        reporter = names.get(r.reporter_id, r.reporter_id) if r.reporter_id else f"guest at {r.reporter_address}"
        lines.append(json.dumps({"id": r.id, "reported": when, "table": r.table_id, "said": r.line_at,
                                 "speaker": speaker, "text": r.text, "by": reporter}, ensure_ascii=False))
    return "\n".join(lines)


add_texts({
    "server.error.no_line": ("no such line in this table's recent chat", "такой строки в недавнем чате стола нет"),
})
