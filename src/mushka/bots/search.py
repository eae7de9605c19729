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
``make_bot("search:seconds=0.2,iterations=0")``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from mushka.bots.base import check_number, register_bot
from mushka.bots.belief import BELIEF, SELF_PLAY, SELF_PLAY_CARDS, SELF_PLAY_PLAYS
from mushka.bots.declare_model import shipped
from mushka.bots.heuristic import HeuristicBot, seen_mask
from mushka.bots.playout import Playout, Root
from mushka.bots.policy import bit_list, card_power, tables
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

BELIEFS = (BELIEF, SELF_PLAY, SELF_PLAY_CARDS, SELF_PLAY_PLAYS)
"""The factors of ``belief`` 0, 1, 2 and 3."""

WorldSource = Callable[[random.Random], Deal | None]


class SearchBot:
    """Determinized sampling with playouts; see the module docstring."""

    name = "search"

    def __init__(self, iterations: int = DEFAULT_ITERATIONS, seconds: float = DEFAULT_SECONDS,
                 epsilon: float = 0.05, tau: float = 0.0, believe: int = 0, margin: float = 1.0,
                 chase: int = 0, declare: float = 1.0, weigh: int = 0, race: float = 0.0,
                 belief: int = 0, learn: int = 0, phases: int = 3, believe_phases: int = 3,
                 seatwise: int = 0, style: int = 0) -> None:
        """``iterations`` playouts and/or ``seconds`` per decision (0: no limit of that kind).

        ``epsilon`` is the share of random moves in playouts, ``tau`` the
        temperature of the partie outlook (:class:`Outlook`; 0 picks the
        variant's fitted value), ``believe`` how worlds are weighed (0: all
        alike; 1: by the others' declarations; 2: by their plays too, as the
        rules of thumb would make them), ``margin`` how many standard
        errors a candidate must gain over the rules-of-thumb choice to be
        played instead.  ``chase`` (1) adds the exchanges that chase a special
        hand to the declaration's candidates (C22, MI9, MI13: keep a suit, or
        a suit and the privileged card, throw the rest); ``declare``
        multiplies the playouts of a declaration (the decision that matters
        most; ``seconds`` still caps it).  ``weigh`` (1: by the others'
        declarations, 2: and their plays) weighs each world by the likelihood
        of the others' public actions (:class:`~mushka.bots.belief.BeliefModel`,
        importance weights on uniform worlds, classic and mistigri) instead of
        rejecting worlds as ``believe`` does.  ``race`` (0: off) drops a
        candidate once it trails the leader by more than that many standard
        errors of their paired differences (from the 20th world on, checked
        every 10), so that the playouts left go to the candidates still in
        contention; the rules of thumb's choice is never dropped.  ``belief``
        chooses the likelihood factors of ``believe`` and ``weigh``: 0 the
        mild ones shipped for people (:data:`~mushka.bots.belief.BELIEF`), 1
        those fitted on self-play of the rules of thumb
        (:data:`~mushka.bots.belief.SELF_PLAY`), 2 the same weighing which
        cards each seat threw too (:data:`~mushka.bots.belief.SELF_PLAY_CARDS`), 3 the self-play factors
        with the plays weighed as sharply as the declarations
        (:data:`~mushka.bots.belief.SELF_PLAY_PLAYS`).  ``learn`` (1) corrects the
        values of a classic or mistigri declaration by the learned model of
        :mod:`mushka.bots.declare_model` (what the others' declarations say
        of their hands, which uniform worlds ignore).  ``phases`` says where
        the bot searches (1: declaring, kopilka's redistribution included;
        2: tricks; 3: both) and plays the rules of thumb elsewhere, so that
        the strength of each phase can be measured apart;
        ``believe_phases``, on the same scale, where ``believe`` applies
        (uniform worlds elsewhere).  ``seatwise`` (1-3, with ``believe``)
        draws the believed worlds seat by seat in that many sweeps instead
        of rejecting whole worlds (:class:`WorldSampler`): about a third of
        the time per world, much the same posterior (docs/bots.md).
        ``style`` (1) makes the seat's own rules of thumb, the choice a
        candidate must beat, those tuned in self-play
        (:data:`~mushka.bots.policy.TUNED`); 0, the default, the
        club level's.
        """
        name = type(self).name
        self.iterations = int(check_number(name, "iterations", iterations, 0))
        self.seconds = check_number(name, "seconds", seconds, 0)
        if not self.iterations and not self.seconds:
            raise OptionsError("bot_needs_budget", bot=name)
        self.epsilon = check_number(name, "epsilon", epsilon, 0, 1)
        self.tau = check_number(name, "tau", tau, 0)
        self.believe = int(check_number(name, "believe", believe, 0, 2))
        self.margin = check_number(name, "margin", margin, 0)
        self.chase = int(check_number(name, "chase", chase, 0, 1))
        self.declare = check_number(name, "declare", declare, 1, 20)
        self.weigh = int(check_number(name, "weigh", weigh, 0, 2))
        self.race = check_number(name, "race", race, 0, 10)
        self.belief = int(check_number(name, "belief", belief, 0, len(BELIEFS) - 1))
        self.learn = int(check_number(name, "learn", learn, 0, 1))
        self.phases = int(check_number(name, "phases", phases, 1, 3))
        self.believe_phases = int(check_number(name, "believe_phases", believe_phases, 1, 3))
        self.seatwise = int(check_number(name, "seatwise", seatwise, 0, 3))
        self.times: list[float] = []
        """Seconds spent on each decision that needed thought."""
        self.worlds: list[int] = []
        """Worlds searched for each such decision."""
        self.last: list[tuple[Action, float]] = []
        """The last searched decision's candidates still in contention, with their mean values (for benchmarks)."""
        self.style = int(check_number(name, "style", style, 0, 1))
        self._fallback = HeuristicBot(self.style)

    def choose(self, view: GameView, rng: random.Random) -> Action:
        """The candidate with the best total over the sampled worlds."""
        d = view.deal
        if len(d.legal) == 1:
            return d.legal[0]
        if not thinks(d.phase, self.phases):
            return self._fallback.choose(view, rng)
        start = time.perf_counter()
        believe = self.believe if thinks(d.phase, self.believe_phases) else 0
        sampler = WorldSampler(d, believe=believe, records=view.records,
                               model=BELIEFS[self.belief], seatwise=self.seatwise)
        weight = None
        if self.weigh and d.rules.has_trumps:
            plays = self.weigh >= 2

            def weight() -> float:
                args = sampler.last_belief_args
                return 1.0 if args is None else sampler.belief_weight(*args, plays=plays)

        action = self.search(view, sampler.sample, rng, weight)
        self.times.append(time.perf_counter() - start)
        return action

    # --- shared with the oracle -------------------------------------------------------

    def search(self, view: GameView, source: WorldSource, rng: random.Random,
               weight: Callable[[], float] | None = None) -> Action:
        """Evaluate the candidates of ``view`` on worlds drawn from ``source``.

        ``weight``, called after each world is drawn, gives its importance
        weight (1 for every world without it).
        """
        start = time.perf_counter()
        d = view.deal
        cands = candidates(view, self._fallback.choose(view, rng), chase=bool(self.chase))
        if len(cands) == 1:
            return cands[0]
        outlook = Outlook.of(view, self.tau)
        playout = Playout(d.rules, outlook.records, epsilon=self.epsilon, last_game=outlook.last_game)
        root = Root.of(d)
        k = len(cands)
        iterations = self.iterations
        if d.phase == Phase.DECLARE:
            iterations = int(iterations * self.declare)
        totals = [0.0] * k
        # Paired differences with the rules-of-thumb choice (candidate 0), world by world.
        diff_sum = [0.0] * k
        diff_sq = [0.0] * k
        worlds = 0
        w_sum = w_sq = 0.0
        active = list(range(k))
        # With racing, every world's values and weight, for the paired tests between candidates.
        rows: list[tuple[float, list[float]]] = []
        spent = 0
        moves = random.Random()  # the playouts' generator, seeded again for every world
        while True:
            if iterations and spent >= iterations and worlds:
                break
            if self.seconds and worlds and time.perf_counter() - start >= self.seconds:
                break
            world = source(rng)
            if world is None:
                break
            w = 1.0 if weight is None else weight()
            seed = rng.getrandbits(32)
            values = world_values(world, cands, active, seed, moves, playout, root, outlook)
            spent += len(active)
            base = values[0]
            for i in active:
                u = values[i]
                totals[i] += w * u
                diff_sum[i] += w * (u - base)
                diff_sq[i] += w * (u - base) ** 2
            worlds += 1
            w_sum += w
            w_sq += w * w
            if self.race and len(active) > 2:
                rows.append((w, values))
                if worlds >= 20 and worlds % 10 == 0:
                    active = _race(active, totals, rows, w_sum, w_sq, self.race)
        self.worlds.append(worlds)
        if not worlds:
            return cands[0]
        self.last = [(cands[i], totals[i] / w_sum if w_sum else 0.0) for i in active]
        best = max(active, key=lambda i: (totals[i], -i))
        ess = w_sum * w_sum / w_sq if w_sq else 0.0  # the effective number of worlds
        if self.learn and d.phase == Phase.DECLARE and d.rules.has_trumps and w_sum:
            return self._learned(view, cands, active, totals, diff_sum, diff_sq, w_sum, ess)
        if best and self.margin and ess > 1:
            # Leave the rules of thumb only for a gain clear of the sampling noise.
            if diff_sum[best] / w_sum <= self.margin * _standard_error(diff_sum[best], diff_sq[best], w_sum, ess):
                best = 0
        elif best and self.margin and weight is not None:
            best = 0  # one effectively weighed world is no evidence against the rules of thumb
        return cands[best]

    def _learned(self, view: GameView, cands: list[Action], active: list[int], totals: list[float],
                 diff_sum: list[float], diff_sq: list[float], w_sum: float, ess: float) -> Action:
        """The declaration by the learned correction of the playouts' means (C6-C8).

        The margin rule still applies: a candidate other than the rules of
        thumb's must gain more than ``margin`` standard errors of its
        playouts (scaled as the model scales them).
        """
        model = shipped(view.deal.rules.variant)
        values = model.corrected(view.deal, [cands[i] for i in active], [totals[i] / w_sum for i in active])
        pick = max(range(len(active)), key=lambda j: (values[j], -j))
        best = active[pick]
        if best and self.margin and ess > 1:
            noise = abs(model.search) * _standard_error(diff_sum[best], diff_sq[best], w_sum, ess)
            if values[pick] <= self.margin * noise:
                best = 0
        return cands[best]


def thinks(phase: Phase, phases: int) -> bool:
    """Whether a bot told to think in ``phases`` (1: declaring, 2: tricks, 3: both) thinks in ``phase``.

    Kopilka's redistribution (K6-K8) counts as declaring: it is the
    decision made before the first trick, as the declarations are in
    classic and mistigri (C6-C8).
    """
    bit = 2 if phase == Phase.PLAY else 1
    return bool(phases & bit)


def _standard_error(total: float, squares: float, w_sum: float, ess: float) -> float:
    """The standard error of a weighted mean difference from its sums (``ess`` effective worlds, > 1)."""
    mean = total / w_sum
    var = max(0.0, squares / w_sum - mean * mean) * ess / (ess - 1)
    return math.sqrt(var / ess)


def _race(active: list[int], totals: list[float], rows: list[tuple[float, list[float]]], w_sum: float,
          w_sq: float, z: float) -> list[int]:
    """The candidates of ``active`` not trailing the leader by more than ``z`` standard errors (paired).

    Candidate 0, the rules of thumb's choice, always stays: the final choice
    is measured against it.
    """
    ess = w_sum * w_sum / w_sq if w_sq else 0.0
    if ess <= 2:
        return active
    lead = max(active, key=lambda i: (totals[i], -i))
    keep = []
    for i in active:
        if i in (0, lead):
            keep.append(i)
            continue
        s1 = s2 = 0.0
        for w, values in rows:
            d = values[lead] - values[i]
            s1 += w * d
            s2 += w * d * d
        mean = s1 / w_sum
        var = max(0.0, s2 / w_sum - mean * mean) * ess / (ess - 1)
        if mean <= z * math.sqrt(var / ess):
            keep.append(i)
    return keep


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


register_bot("search", SearchBot)
