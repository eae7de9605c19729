"""The novice: the rules of thumb as a learner plays them, with a learner's mistakes.

People who learn a trick-taking game do not misplay at random.  They lose
track of the cards already played, so they take a card for the top of its
suit when a higher one is gone, or lead into an ace that is still out (C13,
C14); they like to play rather than pass (C7), which costs them ремизы
(C18); and when they slip, they slip to the nearest wrong move: the wrong end
of the suit they meant to play, a stand where a pass was due or the reverse.
:class:`NoviceBot` models these three kinds of error on top of the heuristic
bot's rules of thumb (``mushka.bots.heuristic``), each with its own knob,
plus a share of plain guesses (any legal action) for the early stages:

``memory``
    the chance that the seat remembers each card of a trick already taken
    (1: every card, as the heuristic bot; the cards of the trick on the
    table, its own hand and discards and the turned-up card it always sees);
``eager``
    added to its eagerness to stand (``mushka.bots.declaring.Stakes``; the
    rules of thumb stand when a hand's worth, in tricks, reaches 0.25 less
    the eagerness);
``slips``
    the chance that a decision with a choice goes to the nearest wrong move
    instead of the rules of thumb's: in play, the other end of the same suit
    among the legal cards (the highest instead of the lowest or the
    reverse; a void player ruffs instead of discarding or the reverse); when
    declaring, a pass instead of a stand or a stand instead of a pass; in
    kopilka, a draw instead of a pass or the reverse (K11);
``mistakes``
    the chance of a plain guess: any legal action at random.

Which cards are forgotten is drawn at every decision from the ``rng`` the
bot is given, so a game stays reproducible by its seeds.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from mushka.bots.base import Knob, register_bot
from mushka.bots.heuristic import HeuristicBot, kopilka_choice, seen_mask, trump_choice
from mushka.engine import Action, DealView, Kind, Phase
from mushka.match import GameView


@dataclass(frozen=True, slots=True)
class NoviceConfig:
    """The novice's knobs, each as in the module docstring."""

    mistakes: float = 0.3
    """The chance of a plain guess (0 to 1)."""
    slips: float = 0.0
    """The chance of a slip to the nearest wrong move (0 to 1)."""
    memory: float = 1.0
    """The chance of remembering each card of a trick already taken (0 to 1)."""
    eager: float = 0.0
    """Added to the eagerness to stand, in tricks of a hand's worth (0 to 2)."""


NOVICE_KNOBS: Final = (Knob("mistakes", 0, 1), Knob("slips", 0, 1), Knob("memory", 0, 1), Knob("eager", 0, 2))
"""What a ``novice`` spec may set."""


class NoviceBot:
    """The rules of thumb with a learner's mistakes (see the module docstring).

    Registered as ``novice``; the ``beginner`` and ``casual`` levels are
    played by it.  With ``mistakes=0, slips=0, memory=1, eager=0`` it plays
    exactly as the heuristic bot.
    """

    name = "novice"

    def __init__(self, config: NoviceConfig = NoviceConfig()) -> None:
        """A learner with the knobs of ``config``."""
        self.config = config
        self.mistakes = config.mistakes
        self.slips = config.slips
        self.memory = config.memory
        self.eager = config.eager
        self._rules = HeuristicBot()

    def choose(self, view: GameView, rng: random.Random) -> Action:
        """The learner's action: a guess, a slip, or the rules of thumb on what it remembers."""
        d = view.deal
        legal = d.legal
        if len(legal) == 1:
            return legal[0]
        if self.mistakes and rng.random() < self.mistakes:
            return rng.choice(legal)
        if self.memory >= 1 and not self.eager:
            meant = self._rules.choose(view, rng)
        else:
            unknown = d.rules.deck_bits & ~self._remembered(d, rng)
            meant = (trump_choice(view, unknown, self.eager) if d.rules.has_trumps
                     else kopilka_choice(view, unknown))
            if meant not in legal:
                meant = self._rules.choose(view, rng)
        if self.slips and rng.random() < self.slips:
            return slip(d, meant)
        return meant

    def _remembered(self, d: DealView, rng: random.Random) -> int:
        """The cards whose place the seat still has in mind: all it sees now, and each card
        of an earlier trick with chance ``memory``."""
        seen = seen_mask(d)
        if self.memory >= 1:
            return seen
        for trick in d.tricks:
            for _, card in trick.cards:
                if rng.random() >= self.memory:
                    seen &= ~(1 << card.index)
        if d.turnup is not None:  # the turned-up card stays in view all the deal (C5)
            seen |= 1 << d.turnup.index
        return seen


def slip(d: DealView, meant: Action) -> Action:
    """The nearest wrong move to ``meant`` among the legal actions (``meant`` when there is none)."""
    legal = d.legal
    if meant.kind is Kind.PLAY:
        return _other_end(d, meant)
    if d.phase is Phase.DECLARE:
        if meant.kind is Kind.PASS:
            stands = [a for a in legal if a.kind is Kind.STAND]
            # A learner who should pass plays his hand as it is.
            return min(stands, key=lambda a: len(a.cards), default=meant)
        return next((a for a in legal if a.kind is Kind.PASS), meant)
    if meant.kind in (Kind.DRAW, Kind.PASS):
        other = Kind.PASS if meant.kind is Kind.DRAW else Kind.DRAW
        return next((a for a in legal if a.kind is other), meant)
    return meant


def _other_end(d: DealView, meant: Action) -> Action:
    """The legal card at the other end of ``meant``'s suit by trick strength (C3, MI2, K2);
    with one legal card of that suit, the weakest legal card of another suit."""
    strength = d.rules.strength
    card = meant.cards[0]
    plays = [a for a in d.legal if a.kind is Kind.PLAY]
    same = [a for a in plays if a.cards[0].suit == card.suit]
    if len(same) > 1:
        ranked = sorted(same, key=lambda a: strength[a.cards[0].index])
        return ranked[-1] if ranked[0] == meant else ranked[0]
    others = [a for a in plays if a.cards[0].suit != card.suit]
    return min(others, key=lambda a: strength[a.cards[0].index], default=meant)


register_bot("novice", NoviceBot, config=NoviceConfig, knobs=NOVICE_KNOBS)
