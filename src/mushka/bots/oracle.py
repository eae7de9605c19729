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
import time
from collections.abc import Callable

from mushka.bots.base import check_number, register_bot
from mushka.bots.search import DEFAULT_ITERATIONS, SearchBot, thinks
from mushka.engine import Action, Deal, new_deal
from mushka.engine.events import Paid
from mushka.engine.kopilka import KopilkaDeal
from mushka.errors import MushkaError
from mushka.i18n import add_texts
from mushka.match import GameView


class _OracleSearch(SearchBot):
    """The search, named as the oracle in its messages."""

    name = "oracle"


class OracleNotAttachedError(MushkaError):
    """The oracle was asked to play without being shown the true deal (or another deal)."""


class OracleBot:
    """Determinized search on the true deal (research only, see the module docstring)."""

    name = "oracle"

    def __init__(self, iterations: int = DEFAULT_ITERATIONS, seconds: float = 0.0,
                 epsilon: float = 0.05, tau: float = 0.0, talon: int = 1,
                 peek: Callable[[], Deal] | None = None, chase: int = 0, phases: int = 3) -> None:
        """Budget as for the search bot; ``peek`` returns the true current deal.

        ``talon=1`` (the default) sees the order of the talon too, every card;
        ``talon=0`` sees every hand and discard but treats the cards still in
        the talon as unknown, shuffling them afresh in each playout.  ``chase``
        as for the search bot (1: the exchanges chasing a special hand among
        the declaration's candidates), ``phases`` too (1: sees the cards only
        when declaring, 2: only in the tricks, 3: always; the rules of thumb
        elsewhere), to measure where the edge of seeing them lies.
        """
        self._search = _OracleSearch(iterations=iterations, seconds=seconds, epsilon=epsilon, tau=tau, chase=chase,
                                     phases=phases)
        self.talon = bool(check_number("oracle", "talon", talon, 0, 1))
        self._peek = peek
        self.times: list[float] = []
        """Seconds spent on each decision that needed thought."""

    def attach(self, peek: Callable[[], Deal]) -> OracleBot:
        """Show the oracle the true deal: ``peek()`` must return the deal being played."""
        self._peek = peek
        return self

    @property
    def last(self) -> list[tuple[Action, float]]:
        """The last decision's candidates with their mean values on the true deal (for benchmarks)."""
        return self._search.last

    def choose(self, view: GameView, rng: random.Random) -> Action:
        """The best candidate found by playouts of the true deal."""
        d = view.deal
        if len(d.legal) == 1:
            return d.legal[0]
        if not thinks(d.phase, self._search.phases):
            return self._search.choose(view, rng)  # the search's own rules of thumb there
        if self._peek is None:
            raise OracleNotAttachedError("oracle_not_attached")
        truth = self._peek()
        if truth.to_act != d.seat or truth.dealer != d.dealer or len(truth.actions) != _steps(view):
            raise OracleNotAttachedError("oracle_wrong_deal")
        start = time.perf_counter()
        source = (lambda r: truth.copy()) if self.talon else (lambda r: _reshuffled(truth, r))
        action = self._search.search(view, source, rng)
        self.times.append(time.perf_counter() - start)
        return action


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


register_bot("oracle", OracleBot, fair=False)

add_texts({
    "error.oracle_not_attached": (
        "the oracle sees every card: it is a research tool, not an opponent, and plays only when "
        "attached to the true deal (OracleBot.attach)",
        "оракул видит все карты: это инструмент для исследований, а не соперник; он играет, только "
        "когда ему показана настоящая сдача (OracleBot.attach)"),
    "error.oracle_wrong_deal": ("the deal attached to the oracle is not the one its view shows",
                                "сдача, показанная оракулу, не та, что видна в его обзоре"),
})
