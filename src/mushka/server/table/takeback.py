"""Taking back one's last card (P21): the misclick guard of a table.

A person who has just played a card may take it back while nobody has acted
after it: at a table where every other seat is a bot always, at a table with
other people only if its creator allowed it (``takeback``, which every seat
and spectator sees in the table's info).  Only a card (a declaration or an
exchange showed cards from the talon, which cannot be unseen) and only while
the deal goes on (its last card showed the deal's result to everybody).

The window is decided under the table's lock, as every change is (STYLE 13):
the take-back is accepted only while the table is still at the version the
card made.  A bot never acts before that window is over: the bot task waits
its usual ``bot_delay``, and after a card that may be taken back at least
``takeback_seconds`` counted from the card; then it applies its move only if
the version is still the one it waited at.  A take-back in the meantime moves
the version on, and the bot, finding it moved, thinks again from the new
position.  A person acting next closes the window the same way.

The taken-back card leaves the game as if never played: the game is rebuilt
from its record without the card (:func:`without_last`), the table's version
goes up by one, and the whole game is stored at once (a full save: every
deal's row, the journal of moves emptied), so that a process taking the table
over after a failover replays the record without it.  The record of the game
therefore never contains a taken-back card, and it replays as it was played.
Everybody at the table is told (``taken_back``, with a sentence naming the
player and the card) and gets the whole state again.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from mushka.engine import Action, Kind
from mushka.i18n import add_texts, tr
from mushka.match import Game
from mushka.records import FORMAT, Record, replay
from mushka.records import VERSION as RECORD_VERSION
from mushka.rules import Rules
from mushka.server.protocol import Lang, RequestId, SeatKind, State, TakenBack
from mushka.server.seating import LANGS, Client
from mushka.server.seatviews import ViewTracker
from mushka.server.table.host import TableBasics, TableProgress
from mushka.server.table.social import TableSocial
from mushka.server.table.storage import TableStorage, deal_json
from mushka.server.texts import ProtocolError

log = logging.getLogger("mushka.server")


class SeatLike(Protocol):
    """What deciding needs of a seat."""

    index: int
    kind: SeatKind


@dataclass(frozen=True, slots=True)
class Undoable:
    """The card a person may take back now, and what the table was before it."""

    seat: int
    version: int
    """The table's version the card made: the take-back is accepted only at that version."""
    action: Action
    picks: int
    """Chance picks of the deal before the card (the card drew none)."""
    at: float
    """When the card was applied (``time.monotonic``)."""


def bots_only_around(seats: Sequence[SeatLike], seat: int) -> bool:
    """Whether every seat but ``seat`` is a bot's (a practice table: take-backs always allowed)."""
    return all(s.kind == "bot" for s in seats if s.index != seat)


def allowed(seats: Sequence[SeatLike], seat: int, takeback: bool) -> bool:
    """P21: whether ``seat`` may take cards back at this table."""
    return takeback or bots_only_around(seats, seat)


def undoable(game: Game, seat: int, version: int, action: Action, *, picks: int, finished: int) -> Undoable | None:
    """The take-back ``seat`` may ask for after playing ``action`` (applied; the table now at
    ``version``), or None: not a card, a card that drew a chance pick, or that ended a deal."""
    if action.kind is not Kind.PLAY or game.is_over or len(game.finished) != finished:
        return None
    if len(game.deal.picks) != picks:
        return None
    return Undoable(seat=seat, version=version, action=action, picks=picks, at=time.monotonic())


def without_last(game: Game, rules: Rules, undo: Undoable) -> Game:
    """The game as it was before the card of ``undo``: replayed from its record without it.

    Replaying checks every action again, so the rebuilt game is the one the
    record of the game will describe; raises if the last action is not the card.
    """
    rows = [json.loads(deal_json(d)) for d in game.deals]
    actions = list(rows[-1]["actions"])
    if not actions or actions[-1] != str(undo.action):
        raise ValueError(f"the last action is {actions[-1:]}, not {undo.action}")
    rows[-1]["actions"] = actions[:-1]
    record = Record.from_json({
        "format": FORMAT, "version": RECORD_VERSION, "variant": rules.variant, "players": rules.players,
        "options": rules.options_text(), "level": "game", "first_dealer": game.first_dealer, "deals": rows,
    })
    rebuilt = replay(record)
    if not isinstance(rebuilt, Game):
        raise TypeError("a table's record is a whole game")
    return rebuilt


def wait_left(undo: Undoable | None, version: int, window: float) -> float:
    """Seconds a bot about to act at ``version`` still waits for the take-back window to end."""
    if undo is None or undo.version != version or window <= 0:
        return 0.0
    return max(0.0, window - (time.monotonic() - undo.at))


class TakeBackHost(TableBasics, TableProgress, Protocol):
    """What a take-back needs of its table besides its basics and progress: the actions
    applied (``ply``, moved back), its ``rules``, whether people may take back cards
    (``takeback``), its ``storage``, ``social`` side and ``views``, the event that wakes
    its bots (``wake``), and the messages it makes."""

    ply: int
    rules: Rules
    takeback: bool
    storage: TableStorage
    social: TableSocial
    views: ViewTracker
    wake: asyncio.Event

    def state(self, client: Client, request: RequestId | None = None) -> State:
        """The full state for ``client``."""
        ...

    def names_by_lang(self) -> list[list[str]]:
        """Each seat's name in English and in Russian."""
        ...


class TableTakeBack:
    """The take-backs of one table (see the module docstring)."""

    def __init__(self, table: TakeBackHost) -> None:
        """The take-backs of ``table``."""
        self.table = table
        self.undoable: Undoable | None = None
        """The card that may be taken back now."""

    async def take_back(self, client: Client, request: RequestId | None = None) -> None:
        """P21: take back the card ``client``'s seat has just played (see the module docstring)."""
        self.table.storage.check_storage()
        async with self.table.lock:
            if client.seat is None:
                raise ProtocolError("spectator", rule="P5")
            game = self.table.game
            if self.table.status != "playing" or game is None:
                raise ProtocolError("not_playing", rule="P5", status=self.table.status)
            if not allowed(self.table.seats, client.seat, self.table.takeback):
                raise ProtocolError("takeback_off", rule="P21")
            undo = self.undoable
            if undo is None or undo.seat != client.seat or undo.version != self.table.version:
                raise ProtocolError("takeback_none", rule="P21")
            rebuilt = without_last(game, self.table.rules, undo)
            self.table.game, self.undoable = rebuilt, None
            self.table.ply -= 1
            self.table.version += 1
            seat = self.table.seats[undo.seat]
            seat.own_moves = max(0, seat.own_moves - 1)
            # The journal's row of the card must not outlive it: the whole game is stored
            # again (every deal's row; the move rows of the table are dropped with it).
            await self.table.storage.store(self.table.storage.full_save())
            self.table.views.reset()  # every connection gets its whole view again
            told = self._taken_back_message(undo)
            for listener in list(self.table.clients):
                listener.send(told[listener.lang])
                listener.send(self.table.state(listener, request if listener is client else None).model_dump_json())
            self.table.announced = self.table.version
            log.info("table %s: seat %d took back %s", self.table.id, undo.seat, undo.action)
            self.table.social.retime()
            self.table.wake.set()

    def _taken_back_message(self, undo: Undoable) -> dict[Lang, str]:
        names = self.table.names_by_lang()
        out: dict[Lang, str] = {}
        for lang in LANGS:
            name = names[1 if lang == "ru" else 0][undo.seat]
            card = " ".join(c.display(lang) for c in undo.action.cards)
            text = tr("server.took_back", lang, name=name, card=card)
            out[lang] = TakenBack(version=self.table.version, seat=undo.seat, action=str(undo.action),
                                  text=text).model_dump_json()
        return out


add_texts({
    "server.took_back": ("{name} took back the card {card}", "{name} забирает назад карту {card}"),
    "server.error.takeback_off": (
        "at this table a card once played stays played: its creator did not allow taking cards back "
        "where other people play",
        "за этим столом сыгранная карта остаётся на столе: создатель стола не разрешил брать карты назад, "
        "когда играют другие люди"),
    "server.error.takeback_none": (
        "there is no card of yours to take back: only your last card can be, before anybody plays after it, "
        "and not the last card of a deal",
        "нет вашей карты, которую можно забрать: забрать можно только свою последнюю карту, пока после неё "
        "никто не сходил, и не последнюю карту сдачи"),
})
