"""A player's profile: his name, rated games and rating per variant with its history, his
recent games with their replays, and his results against each of his friends (F6).

The ratings, their history and who finished ahead of whom come from the ratings every
process keeps (:mod:`mushka.server.ratings`, rebuilt from the stored games and moved on
as games end), so the profile costs no reading of records.  The recent games of an
account are the finished tables where its seat was taken signed in (``mushka_seats``
remembers the account); a name without an account has the games the ratings counted
under it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Final, Literal

from sqlalchemy import and_, select
from sqlalchemy.engine import Engine
from starlette.requests import Request
from starlette.responses import Response

from mushka.i18n import add_texts
from mushka.server.accounts import current_account
from mushka.server.identity import Account
from mushka.server.ratings import PROVISIONAL_GAMES, VARIANTS, Line, shown_rating
from mushka.server.socialbodies import GameOut, ProfileReply, RatingPoint, VariantProfile, VersusOut
from mushka.server.socialdb import Person, SocialBook, name_key
from mushka.server.socialhttp import book_of, endpoint, json_reply, limit_reads, lobby_of, read
from mushka.server.sqlschema import Base
from mushka.server.texts import ProtocolError

RECENT: Final = 20
"""Recent games a profile lists."""

REVIEW_ROUTE: Final = "/api/records/{table_id}/review"
"""The review endpoint: when the server has it, a game links to its review in the replay page
(``/?replay=ID&review=SEAT``, the owner's seat)."""

_TABLES = Base.metadata.tables["mushka_tables"]
_SEATS = Base.metadata.tables["mushka_seats"]

Row = tuple[str, str, datetime | None, str | None, int | None, int]
"""A recent game: table, variant, finished, names (JSON), winner, the owner's seat."""


def _when(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def account_games(engine: Engine, account: str, limit: int = RECENT) -> list[Row]:
    """The latest finished games in which ``account`` held a seat, newest first."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(_TABLES.c.id, _TABLES.c.variant, _TABLES.c.finished_at, _TABLES.c.names, _TABLES.c.winner,
                   _SEATS.c.seat)
            .join(_SEATS, _SEATS.c.table_id == _TABLES.c.id)
            .where(and_(_SEATS.c.account_id == account, _TABLES.c.status == "over",
                        _TABLES.c.record.is_not(None)))
            .order_by(_TABLES.c.finished_at.desc()).limit(limit * 2)).all()
    seen: set[str] = set()
    out: list[Row] = []
    for r in rows:
        if r[0] not in seen:  # one line per game, if the account held two seats
            seen.add(r[0])
            out.append((r[0], r[1], r[2], r[3], r[4], r[5]))
    return out[:limit]


def named_games(engine: Engine, tables: Sequence[str], key: str) -> list[Row]:
    """The finished games of ``tables`` (newest first), with the seat the name ``key`` held."""
    if not tables:
        return []
    with engine.connect() as conn:
        rows = conn.execute(
            select(_TABLES.c.id, _TABLES.c.variant, _TABLES.c.finished_at, _TABLES.c.names, _TABLES.c.winner)
            .where(and_(_TABLES.c.id.in_(list(tables)), _TABLES.c.record.is_not(None)))
            .order_by(_TABLES.c.finished_at.desc())).all()
    out: list[Row] = []
    for r in rows:
        names = _names(r[3])
        seat = next((i for i, n in enumerate(names) if name_key(n) == key), -1)
        out.append((r[0], r[1], r[2], r[3], r[4], seat))
    return out


def _names(text: str | None) -> list[str]:
    try:
        data: Any = json.loads(text or "[]")
    except ValueError:
        return []
    return [str(n) for n in data] if isinstance(data, list) else []


def _variants(line: Line | None) -> list[VariantProfile]:
    if line is None:
        return []
    out = []
    for variant in VARIANTS:
        standing = line.standings.get(variant)
        if standing is None:
            continue
        out.append(VariantProfile(
            variant=variant, games=standing.games, rating=shown_rating(standing.rating.mu),
            provisional=standing.games < PROVISIONAL_GAMES,
            history=[RatingPoint(table=t, rating=r) for t, r in standing.history]))
    return out


def _versus(line: Line | None, friends: Sequence[Person]) -> list[VersusOut]:
    out = []
    for friend in friends:
        met = line.together.get("p:" + name_key(friend.name)) if line is not None else None
        games, ahead, behind = met if met else (0, 0, 0)
        out.append(VersusOut(name=friend.name, games=games, ahead=ahead, behind=behind))
    return sorted(out, key=lambda v: (-v.games, v.name.casefold()))


async def _reader(request: Request, book: SocialBook, owner: Person | None) -> tuple[
        Literal["accepted", "incoming", "outgoing", "none", "self"] | None, Literal["mute", "block", "none"] | None]:
    try:
        me: Account | None = await current_account(request)
    except RuntimeError:  # a store without accounts
        me = None
    if me is None or owner is None:
        return None, None
    if me.id == owner.id:
        return "self", None
    found = await read(request, lambda: book.friendships(me.id))
    friend: Literal["accepted", "incoming", "outgoing", "none"] = next(
        (f.status for f in found if f.other.id == owner.id), "none")
    hides = await read(request, lambda: book.hides(me.id))
    hidden: Literal["mute", "block", "none"] = next((k for p, k in hides if p.id == owner.id), "none")
    return friend, hidden


@endpoint
async def profile(request: Request) -> Response:
    """``GET /api/profiles/{name}``: a player's profile (F6)."""
    limit_reads(request)
    name = " ".join(request.path_params["name"].split())[:64]
    lobby = lobby_of(request)
    book = book_of(request)
    owner = await read(request, lambda: book.person(name)) if name else None
    key = name_key(owner.name if owner else name)
    line = lobby.ratings.lines.get("p:" + key)
    if owner is None and line is None:
        raise ProtocolError("no_profile", rule="F6", name=name)
    engine = book.engine
    if owner is not None:
        account_id = owner.id
        rows = await read(request, lambda: account_games(engine, account_id))
    else:
        recent = list(reversed(line.recent))[:RECENT] if line is not None else []
        rows = await read(request, lambda: named_games(engine, recent, key))
    reviews = any(getattr(route, "path", None) == REVIEW_ROUTE for route in request.app.routes)
    games = [GameOut(table=t, variant=v, finished=_when(f), names=_names(n), won=w is not None and w == s,
                     replay=f"/?replay={t}", review=f"/?replay={t}&review={s}" if reviews and s >= 0 else None)
             for t, v, f, n, w, s in rows]
    friends: list[Person] = []
    if owner is not None:
        owner_id = owner.id
        found = await read(request, lambda: book.friendships(owner_id))
        friends = [f.other for f in found if f.status == "accepted"]
    friend, hidden = await _reader(request, book, owner)
    return json_reply(ProfileReply(
        name=owner.name if owner else (line.name if line else name), account=owner is not None,
        games=line.games if line else 0, wins=line.wins if line else 0, variants=_variants(line),
        recent=games, friends=_versus(line, friends), friend=friend, hidden=hidden))


add_texts({
    "server.error.no_profile": ("nobody called {name!r} has an account or a rated game",
                                "у игрока {name!r} нет ни учётной записи, ни рейтинговых игр"),
})
