"""The deal's value types: its phase, a completed trick and its settlement.

They live apart from :mod:`mushka.engine.deal` so that the events, the views
and the deal itself all import them from one place without importing each
other (no import cycle).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

from mushka._pickle import FrozenValue
from mushka.cards import Card
from mushka.engine.wording import Names, per_seat, seat_params
from mushka.i18n import add_texts, tr


class Phase(IntEnum):
    """Where a deal stands."""

    DECLARE = 0
    """C6-C8: declarations and exchanges (classic, mistigri)."""
    REDISTRIBUTE = 1
    """K6-K8: groups of three or more of a suit are shared out (kopilka)."""
    PLAY = 2
    """C13-C15 / K10-K19: trick play."""
    OVER = 3
    """The deal is settled."""

    @property
    def key(self) -> str:
        """The i18n key of the phase name."""
        return ("phase.declare", "phase.redistribute", "phase.play", "phase.over")[self]

    def title(self, lang: str = "en") -> str:
        """The phase's name in ``lang``."""
        return tr(self.key, lang)

    def name_in(self, lang: str = "en") -> str:
        """The phase's name in ``lang`` (how error messages render a phase)."""
        return tr(self.key, lang)


@dataclass(frozen=True, slots=True)
class TrickRecord(FrozenValue):
    """A completed trick: who played what, the led suit, the winner (K17)."""

    leader: int
    cards: tuple[tuple[int, Card], ...]
    winner: int
    suit: int
    privileged: bool
    value: int = 0


@dataclass(frozen=True, slots=True)
class DealResult(FrozenValue):
    """The settlement of one deal.  Fields that do not apply to a variant stay at
    their neutral value (zeros, ``None``, ``False``)."""

    variant: str
    dealer: int
    tricks: tuple[int, ...]
    """Tricks taken by each seat."""
    standing: tuple[bool, ...] = ()
    """C7: who played the deal (classic, mistigri)."""
    record_delta: tuple[int, ...] = ()
    """C17-C18, MI6-MI7: change of each record (negative writes off)."""
    remiz: tuple[int, ...] = ()
    """C18/MI6: remiz written by each seat (K22: paid into the pot)."""
    bonus: tuple[int, ...] = ()
    """MI7: extra points written off by the holder of the privileged card."""
    side: tuple[int, ...] = ()
    """MI9: side-account money paid (negative) or received for a flush."""
    flush_seat: int | None = None
    """MI9-MI12: the seat paid for the best flush, if any."""
    mushka: int | None = None
    """C22/MI13: the seat that won the mushka with a special hand (deal stopped)."""
    all_passed: bool = False
    """C9: everybody passed."""
    lone: int | None = None
    """C10: the lone player who took all tricks without play."""
    privileged_holder: int | None = None
    """MI5: the standing seat that held the privileged card when play began."""
    out: int | None = None
    """K18: the kopilka player who went out first."""
    deadlock: bool = False
    """K19: the kopilka game ended in a deadlock."""
    money: tuple[int, ...] = ()
    """Kopilka: change of each balance in this deal (K12, K22)."""
    pot: int = 0
    """Kopilka: the pot after the deal."""
    trick_log: tuple[TrickRecord, ...] = field(default=(), repr=False)
    """Every counted trick in order."""

    def summary(self, lang: str = "en", names: Names = None) -> str:
        """A one-line human summary in ``lang``, seats by the players' ``names`` where given."""
        if self.mushka is not None:
            return tr("result.mushka", lang, **seat_params("seat", self.mushka, lang, names))
        if self.all_passed:
            return tr("result.all_passed", lang)
        tricks = per_seat(self.tricks, lang, names)
        if self.variant == "kopilka":
            money = per_seat(self.money, lang, names, signed=True)
            key = "result.deadlock" if self.deadlock else "result.kopilka"
            out = seat_params("out", self.out, lang, names) if self.out is not None else {"out": "—"}
            return tr(key, lang, tricks=tricks, money=money, pot=self.pot, **out)
        rec = per_seat(self.record_delta, lang, names, signed=True, only=self.standing)
        text = tr("result.trump", lang, tricks=tricks, records=rec)
        if self.flush_seat is not None:
            text += " " + tr("result.flush", lang, **seat_params("seat", self.flush_seat, lang, names))
        return text

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict (cards as codes, suits as letters)."""
        out: dict[str, object] = {"dealer": self.dealer, "tricks": list(self.tricks)}
        if self.variant == "kopilka":
            out.update(
                out=self.out, deadlock=self.deadlock, money=list(self.money), pot=self.pot,
                remiz=list(self.remiz),
                trick_log=[
                    {"winner": t.winner, "suit": "SCDH"[t.suit], "privileged": t.privileged,
                     "value": t.value}
                    for t in self.trick_log
                ],
            )
        else:
            out.update(
                standing=list(self.standing), record_delta=list(self.record_delta),
                remiz=list(self.remiz), bonus=list(self.bonus), side=list(self.side),
                flush_seat=self.flush_seat, mushka=self.mushka, all_passed=self.all_passed,
                lone=self.lone, privileged_holder=self.privileged_holder,
            )
        return out


add_texts({
    "result.mushka": ("{seat} won the mushka; the deal stopped.",
                      "{seat} выигрывает мушку; сдача остановлена."),
    "result.all_passed": ("everybody passed.", "все спасовали."),
    "result.trump": ("tricks: {tricks}; records: {records}.", "взятки: {tricks}; записи: {records}."),
    "result.flush": ("Flush paid to {seat}.", "За одномастные карты получает {seat}."),
    "result.kopilka": ("tricks: {tricks}; {out} went out first; money: {money}; pot {pot}.",
                       "взятки: {tricks}; без карт раньше всех: {out}; деньги: {money}; касса {pot}."),
    "result.deadlock": ("tricks: {tricks}; deadlock, nobody went out; money: {money}; pot {pot}.",
                        "взятки: {tricks}; тупик, никто не вышел; деньги: {money}; касса {pot}."),
})
