"""A table's seats and connections as the table sees them, and the seat tokens.

Kept apart from :mod:`mushka.server.table` so that the lobby, the storage side and the
tests can name seats and tokens without the table's machinery.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final, Protocol

from mushka.engine import Action
from mushka.i18n import tr
from mushka.match import GameView
from mushka.server.protocol import Lang, SeatInfo, SeatKind
from mushka.server.store import SeatSnapshot
from mushka.server.texts import BOT_LEVELS, BOT_NAMES, ProtocolError, bot_persona
from mushka.server.wire import clean_name

LANGS: tuple[Lang, ...] = ("en", "ru")
"""The languages every message is made in."""


class Scripted(Protocol):
    """A bot whose moves are fixed and cost nothing to choose (the tutorial's, server/tutorial.py)."""

    def choose(self, view: GameView, rng: random.Random) -> Action:
        """One of ``view.deal.legal``."""
        ...


class Client(Protocol):
    """What a table needs of a connection."""

    seat: int | None
    lang: Lang

    def send(self, text: str) -> None:
        """Queue one message (never blocks)."""
        ...

    def close(self, code: int) -> None:
        """Close after the queued messages have gone out."""
        ...


@dataclass(eq=False, slots=True)
class Seat:
    """A seat: stored facts (kind, name, bot, token hash) and live ones."""

    index: int
    kind: SeatKind
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    account: str | None = None
    """The id of the account that took the seat while signed in: only a connection signed in
    to it may play the seat, and it may greet with ``seat:N`` instead of the token (P18)."""
    connections: int = 0
    substitute: bool = False
    timed_out: bool = False
    """P15: the substitute plays because the turn timer ran out (not because the player left)."""
    away: asyncio.Task[None] | None = None
    own_moves: int = 0
    """Moves the person made himself (not his substitute): one who leaves before a few of them
    left at once, and the table is not rated (:mod:`mushka.server.ratings`)."""

    @property
    def gone(self) -> bool:
        """A person whose seat a bot plays because he left and did not come back in time (not
        because his turn timer ran out while he was there)."""
        return self.kind == "human" and self.substitute and not self.timed_out

    def info(self) -> SeatInfo:
        """What everybody may see of this seat."""
        return SeatInfo(seat=self.index, kind=self.kind, name=self.name, bot=self.bot,
                        connected=self.connections > 0, substitute=self.substitute,
                        timed_out=self.substitute and self.timed_out)

    def snapshot(self) -> SeatSnapshot:
        """The stored part."""
        return SeatSnapshot(self.index, self.kind, self.name, self.bot, self.token_hash, self.account)

    def shown_name(self, lang: str) -> str | None:
        """The name the page shows for this seat (a person's name, ``bot NAME``), if any."""
        if self.kind == "human":
            return self.name
        if self.kind == "bot" and self.bot:
            return bot_persona(self.index, self.bot, lang)
        return None


def reserved_names() -> frozenset[str]:
    """The names no person may play under (case-folded): the bots' names and levels, in both
    languages, so that nobody at a table passes for a bot, or a bot for a person."""
    words: set[str] = {"bot", "бот"}
    for names in BOT_NAMES.values():
        words.update(n.casefold() for n in names)
    for bot, level in BOT_LEVELS.items():
        words.add(bot.casefold())
        words.update(tr(f"server.level.{level}", lang).casefold() for lang in LANGS)
    return frozenset(words)


RESERVED_NAMES: Final = reserved_names()


def person_name(name: str | None) -> str | None:
    """A person's name as given, cleaned (:func:`~mushka.server.wire.clean_name`); P10
    ``name_reserved`` for a bot's name or level."""
    cleaned = clean_name(name)
    if cleaned is not None and cleaned.casefold() in RESERVED_NAMES:
        raise ProtocolError("name_reserved", rule="P10", name=cleaned)
    return cleaned


class TableMoved(Exception):
    """This table object was dropped from memory meanwhile; look the table up again."""


class OwnedElsewhere(Exception):
    """Another process (node) of this server owns the table: the client is sent there."""

    def __init__(self, table_id: str, node: str | None) -> None:
        """``table_id`` is ``node``'s (None: it waits for a new owner; try again shortly)."""
        super().__init__(f"table {table_id} is served by node {node or '?'}")
        self.table_id = table_id
        self.node = node


ACCOUNT_SEAT: Final = "seat:"
"""P18: a signed-in player greets a seat of his account with ``seat:N`` in place of its token
(a real token never has a colon)."""


def hash_token(token: str) -> str:
    """The stored form of a seat token (the token itself is never stored)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    """A fresh seat token: 32 URL-safe characters from the system's secure generator."""
    return secrets.token_urlsafe(24)


def now() -> datetime:
    """The present moment, in UTC."""
    return datetime.now(UTC)


def seat_kind(text: str) -> SeatKind:
    """A stored seat kind read back (anything unknown is an open seat)."""
    if text == "human":
        return "human"
    if text == "bot":
        return "bot"
    return "open"
