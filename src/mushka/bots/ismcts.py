"""Information-set Monte Carlo tree search (single observer, SO-ISMCTS).

The search bot (:mod:`mushka.bots.search`) looks one move ahead: it tries
each candidate in sampled worlds and finishes the deal by the rules of
thumb.  This bot grows a tree over the *information sets of its seat*
instead, so that the value of a move includes how well the seat (and the
others) can play on from it, and no choice is made with the cards of one
world in mind (no strategy fusion):

1. **Worlds.**  Deals consistent with everything the seat has seen
   (:class:`~mushka.bots.sampler.WorldSampler`), a pool of them drawn once
   per decision and cycled through, one per iteration.
2. **Selection.**  Each iteration descends the tree in its world.  A node
   is a history of public actions as the seat saw them; only the actions
   legal *in this world* are considered there, each chosen by UCB1 over its
   *availability* count (how often it could have been chosen), on the value
   of the seat to act (each seat maximises its own money).  The root's
   choices are the search bot's candidates (every legal action, or the
   declaration candidates of classic and mistigri, C6-C10).  The others'
   declarations (C6-C10) and kopilka's redistribution (K7) are taken by the
   rules of thumb for the hand they hold in the world, like chance.
3. **Expansion and playout.**  The first untried action is added and the
   deal finished by the rules of thumb on the engine's fast path
   (:class:`~mushka.bots.playout.Playout`, with ``epsilon`` random moves).
4. **Value.**  Every seat's expected money at the end of the partie or
   session (:class:`~mushka.bots.value.Outlook`: records, who is near zero,
   the мушка, the pot), backed up along the path.

The move played is the root's most visited candidate.  The declaration is
thus valued from the deal *and* the partie state, and the play after it is
searched rather than assumed.  Registered as ``ismcts``, e.g.
``make_bot("ismcts:iterations=1500,seconds=0")``.  The bot reads its seat's
view only (``tests/bots/test_ismcts.py`` proves it).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, replace
from typing import ClassVar, Final

from mushka.bots.base import Knob, register_bot
from mushka.bots.belief import BELIEF
from mushka.bots.declaring import win_chances
from mushka.bots.playout import Playout, Root, Score
from mushka.bots.policy import kopilka_discard
from mushka.bots.sampler import WorldSampler
from mushka.bots.search import BUDGET_KNOBS, Budget, Thinker, candidates
from mushka.bots.value import Outlook
from mushka.engine import Action, Deal, Kind, Phase
from mushka.engine.actions import DISCARDS
from mushka.engine.trump import TrumpDeal
from mushka.match import GameView
from mushka.worlds.trump import is_special

DEFAULT_ITERATIONS = 1500
"""Iterations per decision by default (each one world, one descent, one playout)."""


class _Node:
    """One information set of the tree: its children by action and their statistics."""

    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self, players: int) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = [0.0] * players
        """The sum of every seat's value over the iterations through this node."""


@dataclass(frozen=True, slots=True)
class IsmctsConfig(Budget):
    """The tree search's configuration."""

    BOT: ClassVar[str] = "ismcts"

    iterations: int = DEFAULT_ITERATIONS
    """Iterations per decision, each one world, one descent and one playout (0: no limit of that kind)."""
    explore: float = 0.7
    """The UCB1 constant, in units of the spread of the values seen."""
    worlds: int = 100
    """The size of the pool of sampled worlds cycled through."""
    chase: bool = True
    """Add the exchanges that chase a special hand to the declaration's candidates (C22, MI9, MI13)."""


ISMCTS_KNOBS: Final = (*BUDGET_KNOBS, Knob("explore", 0), Knob("worlds", 1, None, int), Knob("chase", 0, 1, bool))
"""What an ``ismcts`` spec may set (:class:`IsmctsConfig`)."""


class IsmctsBot(Thinker):
    """SO-ISMCTS with playouts by the rules of thumb; see the module docstring."""

    name = "ismcts"
    config: IsmctsConfig

    def __init__(self, config: IsmctsConfig = IsmctsConfig()) -> None:
        """A tree search of ``config`` (:class:`IsmctsConfig`)."""
        super().__init__(config)

    def decide(self, view: GameView, rng: random.Random, start: float) -> Action:
        """The root's most visited candidate after the search."""
        return self._search(view, rng, start)

    # --- the search ---------------------------------------------------------------------

    def _search(self, view: GameView, rng: random.Random, start: float) -> Action:
        c = self.config
        d = view.deal
        cands = candidates(view, self._fallback.choose(view, rng), chase=c.chase)
        if len(cands) == 1:
            return cands[0]
        rules = d.rules
        n = rules.players
        outlook = Outlook.of(view, c.tau)
        outlooks = [replace(outlook, seat=s) for s in range(n)]
        playout = Playout(rules, outlook.records, epsilon=c.epsilon, last_game=outlook.last_game)
        root_facts = Root.of(d)
        me = outlook.seat
        sampler = WorldSampler(d, records=view.records, model=BELIEF)
        pool: list[Deal] = []
        root = _Node(n)
        spread = _Spread()
        explore = c.explore
        iterations = 0
        begun = time.perf_counter() - start
        while True:
            if c.iterations and iterations >= c.iterations:
                break
            if c.seconds and iterations:
                elapsed = time.perf_counter() - start
                # Stop when one more iteration of the average cost would overrun the cap.
                if elapsed + (elapsed - begun) / iterations >= c.seconds:
                    break
            if len(pool) < c.worlds:
                world = sampler.sample(rng)
                if world is None:
                    if not pool:
                        break
                else:
                    pool.append(world)
            world = pool[iterations % len(pool)]
            seed = rng.getrandbits(32)
            x = world.copy(random.Random(seed))
            self._iterate(x, root, cands, playout, root_facts, outlooks, me, spread, explore, random.Random(seed + 1))
            iterations += 1
        self.worlds.append(iterations)
        best = max(range(len(cands)), key=lambda i: (_visits(root, cands[i]), -i))
        return cands[best]

    def _iterate(self, d: Deal, root: _Node, cands: list[Action], playout: Playout, facts: Root,
                 outlooks: list[Outlook], me: int, spread: _Spread, explore: float, rng: random.Random) -> None:
        """One descent, expansion and playout in world ``d``, backed up along the path."""
        path = [root]
        node = root
        f = Root(facts.played, facts.standing, facts.took, facts.holder, facts.special, facts.balances)
        first = True
        values: list[float] | None = None
        while True:
            if d.phase is Phase.OVER:
                result = d.result
                assert result is not None
                values = [o.utility(result) for o in outlooks]
                break
            seat = d.to_act
            if first:
                acts: list[Action] = cands
                first = False
            else:
                legal = d.legal_actions()
                if len(legal) == 1:
                    node = _child(node, legal[0], len(outlooks))
                    path.append(node)
                    _advance(d, legal[0], f)
                    continue
                if d.phase is not Phase.PLAY:
                    # The others' declarations and kopilka's giving up: the rules of thumb, like chance.
                    a = _policy(playout, d, f)
                    node = _child(node, a, len(outlooks))
                    path.append(node)
                    _advance(d, a, f)
                    continue
                acts = list(legal)
            a, fresh = _select(node, acts, seat, explore * spread.scale(), rng)
            node = _child(node, a, len(outlooks))
            path.append(node)
            if fresh:
                score = playout.run(d, a, rng, f, seat)
                if score is None:
                    result = d.result
                    assert result is not None
                    values = [o.utility(result) for o in outlooks]
                else:
                    values = _score_values(outlooks, score)
                break
            _advance(d, a, f)
        spread.add(values[me])
        for nd in path:
            nd.visits += 1
            tot = nd.total
            for s, v in enumerate(values):
                tot[s] += v


class _Spread:
    """The running spread (standard deviation) of the values seen, which scales exploration."""

    __slots__ = ("n", "s1", "s2")

    def __init__(self) -> None:
        self.n = 0
        self.s1 = 0.0
        self.s2 = 0.0

    def add(self, v: float) -> None:
        self.n += 1
        self.s1 += v
        self.s2 += v * v

    def scale(self) -> float:
        if self.n < 2:
            return 1.0
        mean = self.s1 / self.n
        return max(math.sqrt(max(self.s2 / self.n - mean * mean, 0.0)), 1.0)


def _score_values(outlooks: list[Outlook], score: Score) -> list[float]:
    """Every seat's :meth:`Outlook.utility_of` a playout's score, the partie's chances computed once."""
    o = outlooks[0]
    if not o.trumps or not score.delta:
        return [x.utility_of(score) for x in outlooks]
    records = [r + d for r, d in zip(o.records, score.delta, strict=True)]
    if min(records) <= 0:
        return [x.utility_of(score) for x in outlooks]
    p = win_chances(tuple(records), o.tau, o.mushka)
    held = [max(r, 0) for r in records]
    total = sum(held)
    return [o.stake * (p[s] * (total - held[s]) - (1 - p[s]) * held[s]) for s in range(o.players)]


def _visits(node: _Node, a: Action) -> int:
    child = node.children.get(a)
    return 0 if child is None else child.visits


def _child(node: _Node, a: Action, players: int) -> _Node:
    child = node.children.get(a)
    if child is None:
        child = node.children[a] = _Node(players)
    return child


def _select(node: _Node, acts: list[Action], seat: int, c: float, rng: random.Random) -> tuple[Action, bool]:
    """UCB1 over the actions available here (their availability counted); an untried one first."""
    children = node.children
    untried = []
    best_a = acts[0]
    best = -math.inf
    for a in acts:
        child = children.get(a)
        if child is None or child.visits == 0:
            untried.append(a)
            continue
        child.avail += 1
        v = child.total[seat] / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
        if v > best:
            best = v
            best_a = a
    if untried:
        # The first untried action in order: at the root the rules of thumb's choice comes first.
        a = untried[0] if node.visits == 0 else untried[rng.randrange(len(untried))]
        for b in untried:
            child = children.get(b)
            if child is not None:
                child.avail += 1
        return a, True
    return best_a, False


def _advance(d: Deal, a: Action, f: Root) -> None:
    """Apply ``a`` on the fast path and keep the public facts the playout starts from (as it does)."""
    seat = d.to_act
    d.apply_unchecked(a)
    kind = a.kind
    if kind is Kind.PLAY:
        f.played |= a.mask
        if isinstance(d, TrumpDeal) and a.mask >> d.rules.privileged.index & 1:
            f.holder = seat
    elif kind is Kind.STAND and isinstance(d, TrumpDeal):
        f.standing |= 1 << seat
        if (a.mask or (f.took and seat == d.dealer)) and is_special(d.rules, d.hands[seat]):
            f.special = True
    elif kind is Kind.TAKE:
        f.took = True


def _policy(playout: Playout, d: Deal, f: Root) -> Action:
    """The rules of thumb's action for the seat to act, from its hand and the public cards."""
    if not isinstance(d, TrumpDeal):
        return DISCARDS[kopilka_discard(playout.t, d.hands[d.to_act], d.rules.suit_values)]
    return playout.declare(d, f.played, 1 << d.turnup, f.standing.bit_count(), f.took)


register_bot("ismcts", IsmctsBot, config=IsmctsConfig, knobs=ISMCTS_KNOBS)
