"""Playouts: finishing a deal fast with the rules of thumb, for the search bots.

A playout takes a full deal (a sampled world, or the true deal for the
oracle), applies the action under study and plays the deal to its end on
the engine's fast path (:meth:`~mushka.engine.Deal.apply_unchecked`), every
seat choosing by the rules of :mod:`mushka.bots.policy` from its own hand and
the public cards only, with a little randomness (``epsilon``) so that the
search does not take one line of play for certain.

The score is read cheaply from public state (tricks taken, who stood,
balances and pot); only a deal in which a special hand appeared (C22, MI9,
MI13) falls back to the engine's full :class:`~mushka.engine.DealResult`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from mushka.bots.declaring import Stakes, stakes_for, trump_declare
from mushka.bots.heuristic import declaration
from mushka.bots.policy import (
    kopilka_discard,
    kopilka_follow,
    kopilka_lead,
    tables,
    trump_play,
)
from mushka.cards import card_count
from mushka.engine import Action, Deal, DealView, Kind, Phase
from mushka.engine.actions import DISCARDS, DRAW, PASS, PLAYS
from mushka.engine.events import Shown
from mushka.engine.kopilka import KopilkaDeal
from mushka.engine.trump import TrumpDeal
from mushka.rules import Rules
from mushka.worlds.trump import is_special

_PLAY: Final = Kind.PLAY
_STAND: Final = Kind.STAND
_TAKE: Final = Kind.TAKE
_PASS: Final = Kind.PASS
_OVER: Final = Phase.OVER
_DECLARE: Final = Phase.DECLARE
_REDISTRIBUTE: Final = Phase.REDISTRIBUTE


def _forced(legal: Sequence[Action], rng: random.Random, epsilon: float) -> Action | None:
    """A playout's next move where the rules of thumb are not asked: the only legal one, or
    (``epsilon`` of the time) one at random; ``None`` where they are."""
    if len(legal) == 1:
        return legal[0]
    if epsilon and rng.random() < epsilon:
        return legal[rng.randrange(len(legal))]
    return None


def _mask(actions: Sequence[Action]) -> int:
    """The cards of ``actions`` as one mask."""
    out = 0
    for x in actions:
        out |= x.mask
    return out


@dataclass(slots=True)
class Root:
    """Public facts of the position a search starts from (the same in every world)."""

    played: int
    """Cards on the table and in finished tricks."""
    standing: int = 0
    """C7: a mask of the seats that stood so far."""
    took: bool = False
    """C6: the dealer took the turned card."""
    holder: int = -1
    """MI5-MI7: the standing seat seen playing the privileged card, if any."""
    special: bool = False
    """C22/MI9/MI13: a special hand was shown in this deal."""
    balances: tuple[int, ...] = ()
    """Kopilka: the balances now."""

    @staticmethod
    def of(d: DealView) -> Root:
        """The root facts of a seat's view."""
        played = 0
        holder = -1
        priv = d.rules.privileged
        for tr in d.tricks:
            for s, c in tr.cards:
                played |= 1 << c.index
                if c is priv:
                    holder = s
        for s, c in d.trick:
            played |= 1 << c.index
            if c is priv:
                holder = s
        standing = 0
        for s, x in enumerate(d.declarations):
            if x == "stand":
                standing |= 1 << s
        special = any(isinstance(e, Shown) for e in d.events)
        return Root(played, standing, d.turnup_taken, holder, special, tuple(d.balances))


@dataclass(slots=True)
class Score:
    """What a playout ended with, read from public state."""

    delta: tuple[int, ...] = ()
    """Classic and mistigri: each record's change (C17-C18, MI6-MI7)."""
    money: int = 0
    """Kopilka: the seat's money in this deal (K12, K22)."""
    pot: int = 0
    out: int = -1
    """Kopilka: who went out first (K18), -1 after a deadlock (K19)."""


class Playout:
    """Plays deals of one table to their end (see the module docstring)."""

    def __init__(self, rules: Rules, records: tuple[int, ...] = (), *, epsilon: float = 0.05,
                 last_game: bool = False) -> None:
        """Playouts for ``rules``; ``records`` (C16) and ``last_game`` (K23) shape the players' eagerness."""
        self.rules = rules
        self.t = tables(rules)
        self.epsilon = epsilon
        self.last_game = last_game
        n = rules.players
        self.stakes: list[Stakes] = [stakes_for(rules, s, records) for s in range(n)]

    def run(self, deal: Deal, action: Action, rng: random.Random, root: Root, seat: int) -> Score | None:
        """Apply ``action`` to ``deal`` (a copy the playout may spoil), finish it and score it
        for ``seat``; ``None`` when only the engine's full result can tell (a special hand)."""
        if isinstance(deal, TrumpDeal):
            return self._run_trump(deal, action, rng, root)
        assert isinstance(deal, KopilkaDeal)
        return self._run_kopilka(deal, action, rng, root, seat)

    # --- classic and mistigri -----------------------------------------------------------

    def _run_trump(self, d: TrumpDeal, a: Action, rng: random.Random, root: Root) -> Score | None:
        t = self.t
        rules = self.rules
        deck = rules.deck_bits
        eps = self.epsilon
        trump = d.trump
        turn_bit = 1 << d.turnup
        priv = t.priv
        played = root.played
        standing = root.standing
        took = root.took
        holder = root.holder
        special = root.special
        apply = d.apply_unchecked
        while True:
            seat = d.to_act
            apply(a)
            kind = a.kind
            if kind is _PLAY:
                played |= a.mask
                if a.mask >> priv & 1:
                    holder = seat
            elif kind is _STAND:
                standing |= 1 << seat
                if (a.mask or (took and seat == d.dealer)) and is_special(rules, d.hands[seat]):
                    special = True
            elif kind is _TAKE:
                took = True
            if d.phase is _OVER:
                break
            legal = d.legal_actions()
            forced = _forced(legal, rng, eps)
            if forced is not None:
                a = forced
            elif d.phase is _DECLARE:
                a = self.declare(d, played, turn_bit, card_count(standing), took)
            else:
                seat = d.to_act
                hand = d.hands[seat]
                trick = d.trick_cards()
                after = card_count(standing) - len(trick) - 1
                unknown = deck & ~hand & ~played & ~turn_bit
                card = trump_play(t, trump, hand, _mask(legal), trick, unknown, after, d.tricks_won_by(seat) == 0)
                a = PLAYS[card]
        if special:
            return None
        won = d.tricks_won
        n = d.n
        if card_count(standing) == 1:
            lone = standing.bit_length() - 1
            if d.hands[lone] & t.priv_bit:
                holder = lone  # MI7: a lone holder of the privileged card gets the bonus too
        delta = [0] * n
        for s in range(n):
            if standing >> s & 1:
                if won[s] == 0:
                    delta[s] = rules.effective_privileged_remiz if s == holder else rules.remiz
                else:
                    delta[s] = -won[s] * rules.trick_value - (rules.privileged_bonus if s == holder else 0)
        return Score(delta=tuple(delta))

    def declare(self, d: TrumpDeal, played: int, turn_bit: int, standing: int, took: bool) -> Action:
        """The rules of thumb's declaration (C6-C10) for the seat to act, from its hand and the public
        cards (``played``, the turned card's bit ``turn_bit``), ``standing`` seats having stood so far."""
        seat = d.to_act
        rules = self.rules
        hand = d.hands[seat]
        after = (d.dealer - seat) % d.n
        unknown = rules.deck_bits & ~hand & ~played & ~turn_bit
        kind, cards = trump_declare(
            self.t, hand, seat, d.dealer, d.trump, d.turnup, took, standing, after, d.talon_size,
            unknown, d.is_legal(PASS), rules.dealer_takes_turnup and seat == d.dealer and not took,
            self.stakes[seat])
        return declaration(kind, cards)

    # --- kopilka -------------------------------------------------------------------------

    def _run_kopilka(self, d: KopilkaDeal, a: Action, rng: random.Random, root: Root, me: int) -> Score | None:
        t = self.t
        rules = self.rules
        deck = rules.deck_bits
        values = rules.suit_values
        eps = self.epsilon
        n = d.n
        played = root.played
        apply = d.apply_unchecked
        while True:
            apply(a)
            if a.kind is _PLAY:
                played |= a.mask
            if d.phase is _OVER:
                break
            legal = d.legal_actions()
            forced = _forced(legal, rng, eps)
            if forced is not None:
                a = forced
            else:
                seat = d.to_act
                hand = d.hands[seat]
                if d.phase is _REDISTRIBUTE:
                    a = DISCARDS[kopilka_discard(t, hand, values)]
                    continue
                trick = d.trick_cards()
                unknown = deck & ~hand & ~played
                racing = self.last_game or card_count(hand) <= 2
                if not trick:
                    a = PLAYS[kopilka_lead(t, _mask(legal), hand, unknown, values)]
                else:
                    after = (d.trick_leader() - seat - 1) % n
                    what = kopilka_follow(t, hand, trick[0], trick, unknown, values, after,
                                          d.tricks_won_by(seat), d.talon_size, DRAW in legal, racing)
                    if what == "draw":
                        a = DRAW
                    elif what == "pass":
                        a = PASS
                    else:
                        assert isinstance(what, int)
                        a = PLAYS[what]
        empty = [s for s in range(n) if not d.hands[s]]
        if len(empty) > 1:
            return None  # K18: several went out in one trick; the engine knows the order
        out = empty[0] if empty else -1
        return Score(money=d.balances[me] - root.balances[me], pot=d.pot, out=out)
