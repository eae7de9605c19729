"""The game's value types: the game-level events, the result and a seat's view.

They are what :mod:`mushka.match` hands out (:class:`GameView` to a seat,
:class:`GameResult` at the end, :class:`DealStarted` / :class:`RecordsWritten` /
:class:`GameEnded` in the event log), kept apart from the game's state machine so
that front ends and bots can read them without the machinery that makes them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mushka._pickle import FrozenValue
from mushka.engine import DealResult, DealView, Event
from mushka.engine.wording import Names, per_seat, seat_params
from mushka.i18n import add_texts, tr

__all__ = ["DealStarted", "GameEnded", "GameResult", "GameView", "RecordsWritten"]


@dataclass(frozen=True, slots=True)
class DealStarted(Event):
    """A new deal of the game begins: its number (from 1) and dealer.

    ``of`` is the number of deals of a kopilka session (K4: a "game" of the
    session), 0 for a partie, whose length no rule fixes.
    """

    number: int
    dealer: int
    of: int = 0

    def _key(self) -> str:
        return "event.DealStarted.session" if self.of else "event.DealStarted"


@dataclass(frozen=True, slots=True)
class RecordsWritten(Event):
    """C17-C18: the records after a deal (partie only)."""

    records: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """The partie or session is over: the winner and each seat's money."""

    winner: int | None
    money: tuple[int, ...]

    def describe(self, lang: str = "en", names: Names = None) -> str:
        """One line for a human, in ``lang`` (money with signs, seats by ``names`` where given)."""
        money = per_seat(self.money, lang, names, signed=True)
        if self.winner is None:
            return tr("event.GameEnded.shared", lang, money=money)
        return tr("event.GameEnded", lang, money=money, **seat_params("winner", self.winner, lang, names))


@dataclass(frozen=True, slots=True)
class GameResult(FrozenValue):
    """How a partie or session ended."""

    winner: int | None
    """C20/K23: the winner (``None`` if a kopilka pot was shared, K23)."""
    money: tuple[int, ...]
    """Each seat's money at the end (sums to zero)."""
    records: tuple[int, ...] = ()
    """C20: the records at the end of a partie (before the settlement)."""
    settlement: tuple[int, ...] = ()
    """C21 / K23: the final payments (partie records taken, or the pot)."""
    side: tuple[int, ...] = ()
    """MI9: the side account of flush payments."""
    deals: int = 0
    ended_by_mushka: bool = False
    """C22/MI13: a special hand ended the partie."""
    truncated: bool = False
    """The partie hit the caller's ``max_deals`` safety limit (not a rule)."""

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return {
            "winner": self.winner, "money": list(self.money), "records": list(self.records),
            "settlement": list(self.settlement), "side": list(self.side), "deals": self.deals,
            "ended_by_mushka": self.ended_by_mushka, "truncated": self.truncated,
        }


@dataclass(frozen=True, slots=True)
class GameView(FrozenValue):
    """One seat's view of the whole game: the current deal and the score sheet."""

    deal: DealView
    number: int
    """The current deal's number, from 1."""
    history: tuple[DealResult, ...]
    """Results of the finished deals (public)."""
    money: tuple[int, ...]
    records: tuple[int, ...] = ()
    side: tuple[int, ...] = ()
    pot: int = 0
    games: int = 0
    """Kopilka: games in a session (K4)."""
    result: GameResult | None = None
    events: tuple[Event, ...] = field(default=(), repr=False)
    """Game-level events seen so far (deal starts, records, the end)."""

    @property
    def seat(self) -> int | None:
        """The viewer."""
        return self.deal.seat

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.result is not None

    def to_json(self, lang: str = "en") -> dict[str, object]:
        """A JSON-ready dict for clients."""
        return {
            "deal": self.deal.to_json(lang), "number": self.number,
            "history": [r.to_json() for r in self.history], "money": list(self.money),
            "records": list(self.records), "side": list(self.side), "pot": self.pot,
            "games": self.games,
            "result": None if self.result is None else self.result.to_json(),
        }


add_texts({
    "event.DealStarted": ("Deal {number}: {dealer} deals.", "Сдача {number}: сдаёт {dealer}."),
    "event.DealStarted.session": ("Game {number} of {of}: {dealer} deals.",
                                  "Игра {number} из {of}: сдаёт {dealer}."),
    "event.RecordsWritten": ("Records: {records}.", "Записи: {records}."),
    "event.GameEnded": ("Game over: {winner} wins; money: {money}.",
                        "Игра окончена, победа: {winner}; деньги: {money}."),
    "event.GameEnded.shared": ("Game over: the pot is shared; money: {money}.",
                               "Игра окончена: касса поделена; деньги: {money}."),
})
