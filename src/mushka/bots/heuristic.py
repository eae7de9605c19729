"""The heuristic bot: rules of thumb per variant, from the seat's view alone.

It reads its :class:`~mushka.match.GameView` (its hand, the cards seen, the
score sheet) and applies the rules of :mod:`mushka.bots.policy`, explained
in ``docs/bots.md``:

* classic and mistigri: stand when the expected tricks outweigh the risk of
  a ремиз (more readily near the end of a partie or against a rival near
  zero), exchange the cards worth less than an average draw, chase a flush
  when it is one or two cards away, take the turned-up trump when it helps;
  in play win cheaply and safely, duck with the least useful card, keep the
  privileged card for a trick it surely wins.
* kopilka: lead top cards of the dear suits, follow suit rather than pay a
  remiz, take dear tricks with the A♠, draw only when a trick is still
  needed, give up the cheapest card after a redistribution.

Registered as ``heuristic``; its one knob, ``style``, is :class:`HeuristicConfig`'s.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from mushka.bots.base import Knob, register_bot
from mushka.bots.declaring import CLUB, TUNED, Stakes, Style, stakes_for, trump_declare
from mushka.bots.policy import (
    kopilka_discard,
    kopilka_follow,
    kopilka_lead,
    tables,
    trump_play,
)
from mushka.engine import Action, DealView, Kind, Phase
from mushka.engine.actions import DISCARDS, DRAW, PASS, PLAYS, TAKES, stand_mask
from mushka.match import GameView


def _mask(cards: tuple[object, ...]) -> int:
    out = 0
    for c in cards:
        out |= 1 << c.index  # type: ignore[attr-defined]
    return out


def seen_mask(d: DealView) -> int:
    """Every card whose place the seat knows: its hand, its discards, the table, shown hands."""
    seen = _mask(d.hand) | _mask(d.own_discards)
    for tr in d.tricks:
        for _, c in tr.cards:
            seen |= 1 << c.index
    for _, c in d.trick:
        seen |= 1 << c.index
    for h in d.open_hands:
        if h is not None:
            seen |= _mask(h)
    if d.turnup is not None:
        seen |= 1 << d.turnup.index
    return seen


def play_mask(legal: tuple[Action, ...]) -> int:
    """The cards among the legal actions that play a card."""
    out = 0
    for a in legal:
        if a.kind is Kind.PLAY:
            out |= a.mask
    return out


def declaration(kind: str, cards: int) -> Action:
    """The action of a declaration the rules of thumb chose (:func:`~mushka.bots.declaring.trump_declare`'s
    kind and cards): a pass, the dealer's take of the turned card for ``cards``, or a stand throwing them."""
    if kind == "pass":
        return PASS
    if kind == "take":
        return TAKES[cards]
    return stand_mask(cards)


def trump_choice(view: GameView, unknown: int, eager: float = 0.0, style: Style = CLUB) -> Action:
    """The rules of thumb's action in classic or mistigri (C6-C15).

    ``unknown`` is the mask of the cards the seat takes for unseen (the
    heuristic bot passes the true one; a learner who forgets the played cards
    passes a larger one), ``eager`` is added to the eagerness to stand
    (:class:`mushka.bots.declaring.Stakes`), ``style`` says how boldly the seat
    declares (:class:`mushka.bots.declaring.Style`).
    """
    d = view.deal
    assert d.seat is not None and d.trump is not None and d.turnup is not None
    t = tables(d.rules)
    me = d.seat
    hand = _mask(d.hand)
    trump = int(d.trump)
    if d.phase == Phase.DECLARE:
        n = d.rules.players
        standing = sum(1 for x in d.declarations if x == "stand")
        after = (d.dealer - me) % n
        can_take = any(a.kind is Kind.TAKE for a in d.legal)
        stakes = stakes_for(d.rules, me, view.records, style)
        if eager:
            stakes = Stakes(stakes.flush, stakes.four, stakes.eagerness + eager, stakes.chase_need,
                            stakes.privileged_suit)
        kind, cards = trump_declare(
            t, hand, me, d.dealer, trump, d.turnup.index, d.turnup_taken, standing, after,
            d.talon_size, unknown, PASS in d.legal, can_take, stakes)
        return declaration(kind, cards)
    trick = [c.index for _, c in d.trick]
    after = len(d.playing) - len(trick) - 1
    card = trump_play(t, trump, hand, play_mask(d.legal), trick, unknown, after, d.tricks_won[me] == 0)
    return PLAYS[card]


def kopilka_choice(view: GameView, unknown: int) -> Action:
    """The rules of thumb's action in kopilka (K7-K23), ``unknown`` as in :func:`trump_choice`."""
    d = view.deal
    assert d.seat is not None
    t = tables(d.rules)
    me = d.seat
    hand = _mask(d.hand)
    values = d.rules.suit_values
    if d.phase == Phase.REDISTRIBUTE:
        return DISCARDS[kopilka_discard(t, hand, values)]
    racing = (bool(view.games) and view.number >= view.games) or len(d.hand) <= 2
    if not d.trick:
        return PLAYS[kopilka_lead(t, play_mask(d.legal), hand, unknown, values)]
    trick = [c.index for _, c in d.trick]
    after = 0
    seat = (me + 1) % d.rules.players
    while seat != d.trick[0][0]:
        after += 1
        seat = (seat + 1) % d.rules.players
    what = kopilka_follow(t, hand, trick[0], trick, unknown, values, after, d.tricks_won[me],
                          d.talon_size, DRAW in d.legal, racing)
    if what == "draw":
        return DRAW
    if what == "pass":
        return PASS
    assert isinstance(what, int)
    return PLAYS[what]


def _style(tuned: float) -> Style:
    return TUNED if tuned else CLUB


@dataclass(frozen=True, slots=True)
class HeuristicConfig:
    """The heuristic bot's configuration."""

    style: Style = CLUB
    """How boldly it declares: :data:`~mushka.bots.declaring.CLUB`, the club level's rules of thumb (spec
    ``style=0``, the default), or :data:`~mushka.bots.declaring.TUNED`, those tuned in self-play against
    them (``style=1``, classic and mistigri declarations)."""


HEURISTIC_KNOBS: Final = (Knob("style", 0, 1, _style),)
"""What a ``heuristic`` spec may set."""


class HeuristicBot:
    """Rules of thumb for every variant; see the module docstring."""

    name = "heuristic"

    def __init__(self, config: HeuristicConfig = HeuristicConfig()) -> None:
        """The rules of thumb of ``config`` (the club level's by default)."""
        self.config = config

    def choose(self, view: GameView, rng: random.Random) -> Action:
        """A legal action chosen by the rules of thumb (``rng`` is not needed)."""
        d = view.deal
        legal = d.legal
        if len(legal) == 1:
            return legal[0]
        unknown = d.rules.deck_bits & ~seen_mask(d)
        if d.rules.has_trumps:
            action = trump_choice(view, unknown, style=self.config.style)
        else:
            action = kopilka_choice(view, unknown)
        if action not in legal:
            # The rules of thumb never aim outside the rules; this is a safety net.
            return legal[0]
        return action


register_bot("heuristic", HeuristicBot, config=HeuristicConfig, knobs=HEURISTIC_KNOBS)
