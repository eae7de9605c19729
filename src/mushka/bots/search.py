"""The search bot: determinized sampling with playouts.

For each decision the bot

1. samples worlds consistent with everything its seat has seen
   (:class:`~mushka.bots.sampler.WorldSampler`: voids, passes, exchanges,
   shown hands, the redistribution of kopilka…);
2. in each world, tries every candidate action and plays the deal out with
   the rules of thumb (:class:`~mushka.bots.playout.Playout`), the same
   random numbers for every candidate so that they are compared on equal
   terms;
3. values each finished deal by the money it is expected to bring at the end
   of the partie or session (:class:`~mushka.bots.value.Outlook`), and plays
   the candidate with the best total.

Candidates are every legal action, except when declaring in classic and
mistigri (up to 38 choices) where they are: pass, stand pat, exchanging the
1..5 weakest cards, the rules-of-thumb choice (which may chase a flush), and
the dealer's takes of the turned-up card for one of his two weakest cards.

The budget is ``iterations`` playouts (reproducible: the same seed gives the
same choice) and/or ``seconds`` of thinking per decision.  Registered as
``search``; e.g. ``make_bot("search:iterations=400")`` or
``make_bot("search:seconds=0.2,iterations=0")``.  Every knob is a field of
:class:`SearchConfig`; the modes are enums (:class:`Evidence`,
:class:`Factors`, :class:`Phases`) whose numbers the spec gives.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum, IntFlag
from typing import ClassVar, Final

from mushka.bots.base import Knob, register_bot
from mushka.bots.belief import BELIEF, SELF_PLAY, BeliefModel
from mushka.bots.declaring import card_power
from mushka.bots.heuristic import HeuristicBot, seen_mask
from mushka.bots.playout import Playout, Root
from mushka.bots.policy import bit_list, tables
from mushka.bots.sampler import WorldSampler
from mushka.bots.value import Outlook, world_values
from mushka.cards import SUIT_MASKS
from mushka.engine import Action, Deal, Phase
from mushka.engine.actions import PASS, STAND_PAT, TAKES, stand_mask
from mushka.errors import OptionsError
from mushka.match import GameView

DEFAULT_ITERATIONS = 600
"""Playouts per decision by default: 0.05-0.11 s on average on a 2-core machine (docs/bots.md)."""
DEFAULT_SECONDS = 0.3
"""The default cap on thinking time per decision (interactive play)."""

WorldSource = Callable[[random.Random], Deal | None]


class Evidence(IntEnum):
    """What of the others' public actions a believed world must explain (spec ``believe``)."""

    NOTHING = 0
    """Every world consistent with the facts alike (uniform worlds)."""
    DECLARATIONS = 1
    """Worlds weighed by the others' declarations (C6-C10), as the rules of thumb would make them."""
    PLAYS = 2
    """By their declarations and their plays in the tricks (C13-C15) too."""


class Factors(IntEnum):
    """The likelihood factors the believed worlds are weighed with (spec ``belief``)."""

    SHIPPED = 0
    """The mild factors shipped for people (:data:`~mushka.bots.belief.BELIEF`)."""
    SELF_PLAY = 1
    """Those fitted on self-play of the rules of thumb (:data:`~mushka.bots.belief.SELF_PLAY`), as the expert reads."""

    @property
    def model(self) -> BeliefModel:
        """The belief model of these factors."""
        return SELF_PLAY if self is Factors.SELF_PLAY else BELIEF


class Phases(IntFlag):
    """Where a bot searches (spec ``phases``, ``believe_phases``: 1, 2 or 3); the rules of thumb elsewhere.

    Kopilka's redistribution (K6-K8) counts as declaring: it is the decision
    made before the first trick, as the declarations are in classic and
    mistigri (C6-C8).
    """

    DECLARING = 1
    """Declaring (C6-C10) and kopilka's redistribution (K6-K8)."""
    TRICKS = 2
    """The tricks (C13-C15, K10-K19)."""
    BOTH = 3
    """Every decision (the default)."""


@dataclass(frozen=True, slots=True)
class Budget:
    """What every search bot's configuration holds: its budget per decision and its playouts."""

    BOT: ClassVar[str] = "search"
    """The bot's name in the configuration's errors."""

    iterations: int = DEFAULT_ITERATIONS
    """Playouts (or iterations) per decision (0: no limit of that kind)."""
    seconds: float = DEFAULT_SECONDS
    """The cap on thinking time per decision (0: no limit of that kind)."""
    epsilon: float = 0.05
    """The share of random moves in playouts."""
    tau: float = 0.0
    """The temperature of the partie outlook (:class:`Outlook`; 0 picks the variant's fitted value)."""

    def __post_init__(self) -> None:
        if not self.iterations and not self.seconds:
            raise OptionsError("bot_needs_budget", bot=self.BOT)


@dataclass(frozen=True, slots=True)
class SearchConfig(Budget):
    """The search bot's configuration: only the knobs a level or a measurement still uses (docs/bots.md)."""

    margin: float = 1.0
    """How many standard errors a candidate must gain over the rules-of-thumb choice to be played instead."""
    declare: float = 1.0
    """A multiple of the playouts for a declaration (the decision that matters most; ``seconds`` still caps it)."""
    chase: bool = False
    """Add the exchanges that chase a special hand to the declaration's candidates (C22, MI9, MI13)."""
    believe: Evidence = Evidence.NOTHING
    """What the believed worlds must explain of the others' actions (rejecting or redrawing the others)."""
    belief: Factors = Factors.SHIPPED
    """The likelihood factors of :attr:`believe`."""
    seatwise: bool = False
    """With :attr:`believe`: draw the believed worlds seat by seat (one sweep) instead of rejecting whole
    worlds: about a third of the time per world, much the same posterior (docs/bots.md)."""
    phases: Phases = Phases.BOTH
    """Where the bot searches (the rules of thumb elsewhere), so that each phase can be measured apart."""
    believe_phases: Phases = Phases.BOTH
    """Where :attr:`believe` applies (uniform worlds elsewhere)."""


BUDGET_KNOBS: Final = (Knob("iterations", 0, None, int), Knob("seconds", 0), Knob("epsilon", 0, 1), Knob("tau", 0))
"""The knobs of a search's budget and playouts, shared by the search bots."""

SEARCH_KNOBS: Final = (*BUDGET_KNOBS, Knob("margin", 0), Knob("declare", 1, 20), Knob("chase", 0, 1, bool),
                       Knob("believe", 0, 2, lambda x: Evidence(int(x))),
                       Knob("belief", 0, 1, lambda x: Factors(int(x))), Knob("seatwise", 0, 1, bool),
                       Knob("phases", 1, 3, lambda x: Phases(int(x))),
                       Knob("believe_phases", 1, 3, lambda x: Phases(int(x))))
"""What a ``search`` spec may set (:class:`SearchConfig`)."""


class Thinker:
    """What the search bots share: their budget, what each decision they thought about cost, and the
    rules of thumb they play where they do not think."""

    name = "thinker"
    config: Budget

    def __init__(self, config: Budget) -> None:
        """A bot of ``config``'s budget."""
        self.config = config
        self.times: list[float] = []
        """Seconds spent on each decision that needed thought."""
        self.worlds: list[int] = []
        """Worlds (or iterations) searched for each such decision."""
        self._fallback = HeuristicBot()

    @property
    def seconds(self) -> float:
        """The cap on thinking time per decision (0: none)."""
        return self.config.seconds

    def choose(self, view: GameView, rng: random.Random) -> Action:
        """The only legal action; else :meth:`decide`'s where the bot thinks, the rules of thumb's elsewhere."""
        d = view.deal
        if len(d.legal) == 1:
            return d.legal[0]
        if not self.thinks(d.phase):
            return self._fallback.choose(view, rng)
        start = time.perf_counter()
        action = self.decide(view, rng, start)
        self.times.append(time.perf_counter() - start)
        return action

    def thinks(self, phase: Phase) -> bool:
        """Whether the bot thinks in ``phase`` (every phase unless a bot says otherwise)."""
        return True

    def decide(self, view: GameView, rng: random.Random, start: float) -> Action:
        """The bot's choice at ``view`` after thinking (begun at ``start``, ``time.perf_counter``'s)."""
        raise NotImplementedError


class SearchBot(Thinker):
    """Determinized sampling with playouts; see the module docstring."""

    name = "search"
    config: SearchConfig

    def __init__(self, config: SearchConfig = SearchConfig()) -> None:
        """A search of ``config`` (:class:`SearchConfig`)."""
        super().__init__(config)
        self.last: list[tuple[Action, float]] = []
        """The last searched decision's candidates still in contention, with their mean values (for benchmarks)."""

    def thinks(self, phase: Phase) -> bool:
        """Whether :attr:`SearchConfig.phases` has the bot search in ``phase``."""
        return thinks(phase, self.config.phases)

    def decide(self, view: GameView, rng: random.Random, start: float) -> Action:
        """The candidate with the best total over the worlds of :meth:`source`."""
        return self.search(view, self.source(view), rng)

    def source(self, view: GameView) -> WorldSource:
        """Where the worlds of a decision at ``view`` come from: :meth:`sampler`'s draws."""
        return self.sampler(view).sample

    def sampler(self, view: GameView) -> WorldSampler:
        """The worlds this search draws at ``view``: believed where :attr:`SearchConfig.believe_phases` says."""
        c = self.config
        d = view.deal
        believe = c.believe if thinks(d.phase, c.believe_phases) else Evidence.NOTHING
        return WorldSampler(d, believe=int(believe), records=view.records, model=c.belief.model,
                            seatwise=int(c.seatwise))

    # --- shared with the oracle -------------------------------------------------------

    def search(self, view: GameView, source: WorldSource, rng: random.Random) -> Action:
        """Evaluate the candidates of ``view`` on worlds drawn from ``source``."""
        c = self.config
        start = time.perf_counter()
        d = view.deal
        cands = candidates(view, self._fallback.choose(view, rng), chase=c.chase)
        if len(cands) == 1:
            return cands[0]
        outlook = Outlook.of(view, c.tau)
        playout = Playout(d.rules, outlook.records, epsilon=c.epsilon, last_game=outlook.last_game)
        root = Root.of(d)
        k = len(cands)
        iterations = c.iterations
        if d.phase == Phase.DECLARE:
            iterations = int(iterations * c.declare)
        totals = [0.0] * k
        # Paired differences with the rules-of-thumb choice (candidate 0), world by world.
        diff_sum = [0.0] * k
        diff_sq = [0.0] * k
        worlds = 0
        active = list(range(k))
        spent = 0
        moves = random.Random()  # the playouts' generator, seeded again for every world
        while True:
            if iterations and spent >= iterations and worlds:
                break
            if c.seconds and worlds and time.perf_counter() - start >= c.seconds:
                break
            world = source(rng)
            if world is None:
                break
            seed = rng.getrandbits(32)
            values = world_values(world, cands, active, seed, moves, playout, root, outlook)
            spent += k
            base = values[0]
            for i in active:
                u = values[i]
                totals[i] += u
                diff_sum[i] += u - base
                diff_sq[i] += (u - base) ** 2
            worlds += 1
        self.worlds.append(worlds)
        if not worlds:
            return cands[0]
        n = float(worlds)
        self.last = [(cands[i], totals[i] / n) for i in active]
        best = max(active, key=lambda i: (totals[i], -i))
        # Leave the rules of thumb only for a gain clear of the sampling noise.
        if best and c.margin and n > 1 and diff_sum[best] / n <= c.margin * standard_error(
                diff_sum[best], diff_sq[best], n, n):
            best = 0
        return cands[best]


def thinks(phase: Phase, phases: Phases) -> bool:
    """Whether a bot told to think in ``phases`` thinks in ``phase`` (see :class:`Phases`)."""
    bit = Phases.TRICKS if phase == Phase.PLAY else Phases.DECLARING
    return bool(phases & bit)


def standard_error(total: float, squares: float, w_sum: float, ess: float) -> float:
    """The standard error of a weighted mean difference from its sums (``ess`` effective worlds, > 1)."""
    mean = total / w_sum
    var = max(0.0, squares / w_sum - mean * mean) * ess / (ess - 1)
    return math.sqrt(var / ess)


def candidates(view: GameView, preferred: Action, *, chase: bool = False) -> list[Action]:
    """The actions worth searching, ``preferred`` (the rules of thumb's choice) first.

    With ``chase`` a declaration also tries, for every suit, throwing all but
    that suit (five of a suit, C22/MI9) and all but that suit and the
    privileged card (four and the privileged card, C22/MI13), when at most
    three cards are missing.
    """
    d = view.deal
    legal = d.legal
    out = [preferred] if preferred in legal else []
    if d.phase != Phase.DECLARE:
        out += [a for a in legal if a != preferred]
        return out
    assert d.seat is not None and d.trump is not None
    t = tables(d.rules)
    rules = d.rules
    hand = 0
    for card in d.hand:
        hand |= 1 << card.index
    unknown = rules.deck_bits & ~seen_mask(d)
    trump = int(d.trump)
    order = sorted(bit_list(hand), key=lambda i: card_power(t, i, trump, unknown, 2))
    if not rules.can_discard_privileged and hand & t.priv_bit:
        order.remove(t.priv)
    wanted: list[Action] = [PASS, STAND_PAT]
    disc = 0
    for i in order:
        disc |= 1 << i
        wanted.append(stand_mask(disc))
    for i in order[:2]:
        wanted.append(TAKES[i])
    if chase:
        wanted += chases(hand, t.priv_bit, rules.can_discard_privileged)
    for a in wanted:
        if a in legal and a not in out:
            out.append(a)
    return out or [legal[0]]


def chases(hand: int, priv_bit: int, can_discard_priv: bool) -> list[Action]:
    """Exchanges that keep one suit (and the privileged card) and throw the rest, 1 to 3 cards."""
    out: list[Action] = []
    for sm in SUIT_MASKS:
        for keep in (hand & sm, hand & (sm | priv_bit)):
            disc = hand & ~keep
            if not 1 <= disc.bit_count() <= 3 or (disc & priv_bit and not can_discard_priv):
                continue
            a = stand_mask(disc)
            if a not in out:
                out.append(a)
    return out


register_bot("search", SearchBot, config=SearchConfig, knobs=SEARCH_KNOBS)
