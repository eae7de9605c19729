"""The oracle: a research-only bot that sees every card.

**Not a fair opponent.**  The oracle is given the true deal, every hand and
the order of the talon, through a callable handed to it explicitly
(:meth:`OracleBot.attach`); it never gets it from the view.  It runs the
search bot's algorithm (:class:`~mushka.bots.search.SearchBot`) on that one
true world instead of sampled ones, so its results are an upper bound for
what the search bot could reach with perfect information: the difference
between the two measures what hidden cards cost.

It is registered as ``oracle`` so that research tools can build it by name,
but an oracle made that way refuses to play until it is attached::

    oracle = make_bot("oracle:iterations=600")
    oracle.attach(lambda: game.deal)        # research only: the true deal
    play_game(game, [oracle, heuristic, heuristic, heuristic], rng)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Final

from mushka.bots.base import Knob, register_bot
from mushka.bots.search import BUDGET_KNOBS, Budget, Phases, SearchBot, SearchConfig, WorldSource
from mushka.engine import Deal, new_deal
from mushka.engine.events import Paid
from mushka.engine.kopilka import KopilkaDeal
from mushka.errors import MushkaError
from mushka.i18n import add_text_file
from mushka.match import GameView


class OracleNotAttachedError(MushkaError):
    """The oracle was asked to play without being shown the true deal (or another deal)."""


@dataclass(frozen=True, slots=True)
class OracleConfig(Budget):
    """The oracle's configuration: the search's budget and candidates, and what of the deal it sees."""

    BOT: ClassVar[str] = "oracle"

    seconds: float = 0.0
    """The cap on thinking time per decision (0, the default: none)."""
    talon: bool = True
    """Whether it sees the order of the talon too (every card); without, it sees every hand and discard
    but shuffles the cards still in the talon afresh in each playout."""
    chase: bool = False
    """As for the search bot: the exchanges chasing a special hand among the declaration's candidates."""
    phases: Phases = Phases.BOTH
    """Where it looks at the cards (the rules of thumb elsewhere), to measure where the edge of seeing them lies."""

    def search(self) -> SearchConfig:
        """The search the oracle runs on the true deal."""
        return SearchConfig(iterations=self.iterations, seconds=self.seconds, epsilon=self.epsilon, tau=self.tau,
                            chase=self.chase, phases=self.phases)


ORACLE_KNOBS: Final = (*BUDGET_KNOBS, Knob("talon", 0, 1, bool), Knob("chase", 0, 1, bool),
                       Knob("phases", 1, 3, lambda x: Phases(int(x))))
"""What an ``oracle`` spec may set (:class:`OracleConfig`)."""


class OracleBot(SearchBot):
    """Determinized search on the true deal (research only, see the module docstring)."""

    name = "oracle"

    def __init__(self, config: OracleConfig = OracleConfig(), peek: Callable[[], Deal] | None = None) -> None:
        """The search of ``config`` on the deal ``peek`` returns (the true current deal)."""
        super().__init__(config.search())
        self.talon = config.talon
        """Whether the oracle sees the order of the talon."""
        self._peek = peek

    def attach(self, peek: Callable[[], Deal]) -> OracleBot:
        """Show the oracle the true deal: ``peek()`` must return the deal being played."""
        self._peek = peek
        return self

    def source(self, view: GameView) -> WorldSource:
        """The true deal of ``view`` (its talon shuffled afresh for each world unless the oracle sees it)."""
        if self._peek is None:
            raise OracleNotAttachedError("oracle_not_attached")
        truth = self._peek()
        d = view.deal
        if truth.to_act != d.seat or truth.dealer != d.dealer or len(truth.actions) != _steps(view):
            raise OracleNotAttachedError("oracle_wrong_deal")
        return (lambda r: truth.copy()) if self.talon else (lambda r: _reshuffled(truth, r))


def _reshuffled(truth: Deal, rng: random.Random) -> Deal:
    """The true deal with the cards still in the talon in a new order (N4: the deck's tail)."""
    deck = [c.index for c in truth.deck]
    left = truth.talon_size
    if left > 1:
        tail = deck[len(deck) - left:]
        rng.shuffle(tail)
        deck[len(deck) - left:] = tail
    if isinstance(truth, KopilkaDeal):
        # K24: the game started from the pot and balances before this game's payments.
        paid = [0] * truth.n
        for e in truth.events(omniscient=True):
            if isinstance(e, Paid):
                paid[e.seat] += e.amount
        world: Deal = new_deal(truth.rules, truth.dealer, deck=deck, picks=truth.picks, record_events=False,
                               pot=truth.pot - sum(paid), balances=[b + p for b, p in zip(truth.balances, paid,
                                                                                         strict=True)])
    else:
        world = new_deal(truth.rules, truth.dealer, deck=deck, picks=truth.picks, record_events=False)
    for a in truth.actions:
        world.apply_unchecked(a)
    return world


def _steps(view: GameView) -> int:
    """How many actions the view's deal has seen (to check the attached deal)."""
    from mushka.worlds.facts import kopilka_facts, trump_facts

    d = view.deal
    facts = trump_facts(d) if d.rules.has_trumps else kopilka_facts(d)
    return len(facts.steps)


register_bot("oracle", OracleBot, config=OracleConfig, knobs=ORACLE_KNOBS, fair=False)

add_text_file("mushka.bots", "oracle.toml")
