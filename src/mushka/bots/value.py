"""What the end of a deal is worth to a seat, for the search bots.

A deal is searched to its end, but money is made at the end of a partie
(C21: the winner takes the others' records) or of a kopilka session (K23:
the pot).  :class:`Outlook` turns a finished deal into an expected amount of
money for one seat:

* classic and mistigri: the records after the deal (C17-C18, MI6-MI7); if
  some record reached zero, or a special hand won the мушка (C20-C22, MI13),
  the settlement is exact; otherwise each seat's chance of winning the partie
  is estimated from the records (the lower, the likelier: a softmax with
  temperature ``tau``, mixed with the share of parties a мушка ends for
  anybody, both fitted to self-play per table) and the settlement is weighed
  by it.  Flush side payments (MI9) count as they are.
* kopilka: the money of the deal (K12, K22) plus a share of the pot: a
  quarter of it in games 1-3 (anybody may win it), all of it in game 4 to
  the seat that went out first (K23).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from mushka.bots.declaring import outlook_fit, win_chances
from mushka.bots.playout import Playout, Root, Score
from mushka.engine import Action, Deal, DealResult, Phase
from mushka.match import GameView

_REDISTRIBUTE: Final = Phase.REDISTRIBUTE


@dataclass(frozen=True, slots=True)
class Outlook:
    """How one seat values deal results at the current point of its game."""

    seat: int
    players: int
    trumps: bool
    records: tuple[int, ...] = ()
    """C16: the records before the current deal (classic, mistigri)."""
    stake: int = 1
    tau: float = 5.0
    mushka: float = 0.0
    """The share of parties a мушка ends whatever the records (see :func:`~mushka.bots.declaring.win_chances`)."""
    last_game: bool = False
    """K23: the current kopilka game is the last of the session."""
    dealer: int = 0

    @staticmethod
    def of(view: GameView, tau: float = 0.0) -> Outlook:
        """The outlook of ``view``'s seat (``tau`` 0: the fitted value of its table)."""
        rules = view.deal.rules
        assert view.seat is not None
        records = view.records or (rules.initial_record,) * rules.players
        last = bool(view.games) and view.number >= view.games
        fit_tau, share = outlook_fit(rules)
        return Outlook(view.seat, rules.players, rules.has_trumps, tuple(records), rules.stake, tau or fit_tau,
                       share, last, view.deal.dealer)

    def utility(self, result: DealResult) -> float:
        """The seat's expected money after a deal with this result."""
        me = self.seat
        if not self.trumps:
            gain = float(result.money[me])
            if self.last_game:
                if result.out == me:
                    gain += result.pot
                elif result.out is None:
                    gain += result.pot / self.players
            else:
                gain += result.pot / self.players
            return gain
        side = float(result.side[me]) if result.side else 0.0
        eldest = (result.dealer + 1) % self.players
        if result.mushka is not None:
            return side + self._settle(self.records, result.mushka)
        records = tuple(r + d for r, d in zip(self.records, result.record_delta, strict=True))
        if min(records) <= 0:
            n = self.players
            winner = min(range(n), key=lambda s: (records[s], (s - eldest) % n))
            return side + self._settle(records, winner)
        return side + self.partie_value(records)

    def utility_of(self, score: Score) -> float:
        """The seat's expected money after a playout scored cheaply (see :class:`Score`)."""
        if not self.trumps:
            gain = float(score.money)
            if self.last_game:
                if score.out == self.seat:
                    gain += score.pot
                elif score.out < 0:
                    gain += score.pot / self.players
            else:
                gain += score.pot / self.players
            return gain
        records = tuple(r + d for r, d in zip(self.records, score.delta, strict=True))
        if min(records) <= 0:
            n = self.players
            eldest = (self.dealer + 1) % n
            winner = min(range(n), key=lambda s: (records[s], (s - eldest) % n))
            return self._settle(records, winner)
        return self.partie_value(records)

    def _settle(self, records: tuple[int, ...], winner: int) -> float:
        """C21: the settlement of a partie won by ``winner`` at these records."""
        me = self.seat
        if winner == me:
            return float(sum(max(r, 0) for s, r in enumerate(records) if s != me) * self.stake)
        return float(-max(records[me], 0) * self.stake)

    def partie_value(self, records: tuple[int, ...]) -> float:
        """Expected settlement for the seat if the partie goes on from ``records``."""
        me = self.seat
        p = win_chances(records, self.tau, self.mushka)[me]
        others = sum(max(r, 0) for s, r in enumerate(records) if s != me)
        return self.stake * (p * others - (1 - p) * max(records[me], 0))


def world_values(world: Deal, cands: Sequence[Action], active: Sequence[int], seed: int, moves: random.Random,
                 playout: Playout, root: Root, outlook: Outlook) -> list[float]:
    """What each candidate of ``active`` is worth to the outlook's seat in one sampled world.

    Every candidate is played out on its own copy of ``world`` with the same
    random numbers (common random numbers: they are compared on equal terms):
    the chance still to come (K7 picks, only while kopilka's groups are shared
    out) from ``seed`` and the playout's from ``seed + 1``.  Each generator is
    seeded once per world and wound back for every candidate (a state is
    quicker to restore than a seed to expand), so each candidate sees the very
    numbers a fresh ``random.Random`` would give.  ``moves`` is the playouts'
    generator, reseeded here.  The list has a value for every candidate, 0 for
    those not in ``active``.
    """
    values = [0.0] * len(cands)
    chance = random.Random(seed) if world.phase is _REDISTRIBUTE else None
    chance_state = () if chance is None else chance.getstate()
    moves.seed(seed + 1)
    moves_state = moves.getstate()
    me = outlook.seat
    first = True
    for i in active:
        if not first:
            moves.setstate(moves_state)
            if chance is not None:
                chance.setstate(chance_state)
        first = False
        x = world.copy(chance)
        score = playout.run(x, cands[i], moves, root, me)
        if score is None:
            result = x.result
            assert result is not None
            values[i] = outlook.utility(result)
        else:
            values[i] = outlook.utility_of(score)
    return values
