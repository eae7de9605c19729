"""What the PettingZoo and Gymnasium environments share: a seeded deal driven by ids.

A :class:`ResearchTable` deals with its own :class:`random.Random` (so one seed fixes
every card and pick, N4/K7), hands out observations and action masks as
numpy arrays and applies action ids.  Chance steps never reach the agents:
the table plays them as soon as they are due.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from mushka.engine.deal import Deal, sample_order
from mushka.engine.ids import action_space
from mushka.engine.layouts import Layout, information_state_layout, observation_layout
from mushka.engine.steps import StepDeal
from mushka.engine.utility import TRICKS_PER_DEAL, deal_utility_bounds
from mushka.game_steps import DEFAULT_MAX_DEALS, StepGame, game_utility_bounds, score_size
from mushka.rules import Rules

Bounds = tuple[np.ndarray[Any, np.dtype[np.float32]], np.ndarray[Any, np.dtype[np.float32]]]


def observation_bounds(rules: Rules, layout: Layout, level: str, max_deals: int) -> Bounds:
    """Finite ``(low, high)`` of every entry of a tensor of ``layout`` (the score sheet last at
    ``level="game"``): 0..1 but the money and the records, bounded by what the rules let a
    seat lose or win (:mod:`mushka.engine.utility`, :func:`mushka.game_steps.game_utility_bounds`)."""
    n = rules.players
    low = np.zeros(layout.size, np.float32)
    high = np.ones(layout.size, np.float32)
    names = {name for name, _ in layout.segments}

    def put(name: str, start: int, stop: int, lo: float, hi: float) -> None:
        where = layout.slice(name)
        low[where][start:stop] = lo
        high[where][start:stop] = hi

    if level == "game":
        loss, gain = game_utility_bounds(rules, max_deals)
    else:
        loss, gain = deal_utility_bounds(rules)
    if not rules.has_trumps:
        # K3, K24: the tensors scale the money by the antes of a game.  A deal on its own starts
        # like game 1 (every ante paid); a session's balances are the game's money so far, its
        # pot what the seats paid in (never below zero, K22.2).
        money = float(max(1, rules.ante * n))
        if level == "game":
            balance = (loss, gain)
            pot = -n * loss
        else:
            balance = (loss - rules.ante, gain - rules.ante)
            pot = rules.ante * n - n * loss
        put("balances", 0, n, balance[0] / money, balance[1] / money)
        put("pot", 0, 1, 0.0, pot / money)
    if "score" in names:
        if rules.has_trumps:
            # C16-C20: a record is above zero before the partie's last deal, which writes off at
            # most five tricks and the MI7 bonus; remizes (C18, MI6) raise it once a deal.
            scale = float(rules.initial_record)
            lowest = min(0, 1 - (TRICKS_PER_DEAL * rules.trick_value + rules.privileged_bonus))
            remiz = max(rules.remiz, rules.effective_privileged_remiz)
            put("score", 0, n, lowest / scale, (rules.initial_record + max_deals * remiz) / scale)
        else:
            scale = float(max(1, rules.ante * n))
            # No records in kopilka: those entries stay 0 (in the space's 0..1).
        put("score", n, 2 * n, loss / scale, gain / scale)
    return low, high


class ResearchTable:
    """One deal after another at a table of ``rules``, chance drawn from a seeded generator."""

    rules: Rules
    rng: random.Random
    steps: StepDeal | StepGame
    level: str
    max_deals: int
    num_actions: int
    obs_size: int
    obs_low: np.ndarray[Any, np.dtype[np.float32]]
    obs_high: np.ndarray[Any, np.dtype[np.float32]]
    dealer: int
    history: bool
    record_events: bool

    def __init__(self, rules: Rules, *, history: bool = False, record_events: bool = False, level: str = "deal",
                 max_deals: int = DEFAULT_MAX_DEALS) -> None:
        """A table of ``rules``; ``history`` gives the information-state tensor instead of the observation;
        ``record_events`` keeps the event log (the bots' views need it); ``level="game"`` plays a whole
        partie (at most ``max_deals`` deals) or kopilka session instead of one deal."""
        if level not in ("deal", "game"):
            raise ValueError(f"level must be 'deal' or 'game', not {level!r}")
        self.rules = rules
        self.history = history
        self.record_events = record_events
        self.level = level
        self.max_deals = max_deals
        self.num_actions = action_space(rules).num_distinct_actions
        layout = information_state_layout(rules) if history else observation_layout(rules)
        if level == "game":
            # The score sheet follows the deal's tensor (mushka.game_steps.score_size).
            layout = Layout((*layout.segments, ("score", score_size(rules))))
        self.obs_size = layout.size
        self.obs_low, self.obs_high = observation_bounds(rules, layout, level, max_deals)
        self.rng = random.Random()
        self.dealer = 0
        self.steps = self._new_steps(0)

    def reset(self, seed: int | None, dealer: int | None = None) -> None:
        """A new deal: the generator is reseeded when ``seed`` is given; the dealer
        is ``dealer`` or drawn by lot (C4)."""
        if seed is not None:
            self.rng = random.Random(seed)
        self.dealer = self.rng.randrange(self.rules.players) if dealer is None else dealer
        old = self.steps
        self.steps = self._new_steps(self.dealer)
        if isinstance(old, StepDeal) and isinstance(self.steps, StepDeal):
            self.steps.adopt_encoders(old)  # reset, not made again, at every deal
        self.chance()

    def _new_steps(self, dealer: int) -> StepDeal | StepGame:
        if self.level == "game":
            # C4: the first dealer is the game's first chance step.
            return StepGame(self.rules, max_deals=self.max_deals, record_events=self.record_events)
        return StepDeal(self.rules, dealer, record_events=self.record_events)

    @property
    def deal(self) -> Deal | None:
        """The current deal (``None`` while chance is due)."""
        return self.steps.deal

    def chance(self) -> None:
        """Play every chance step now due (cards of the deck, K7 picks)."""
        steps = self.steps
        if not steps.is_chance():
            return  # most steps: a player acts next
        rng = self.rng
        if isinstance(steps, StepDeal) and steps.deal is None and not steps.history:
            # N4: a whole deck at once, a uniform order of its positions (the same law as
            # one uniform card at a time, without listing the outcomes at every card).
            # sample_order draws as rng.sample(range(size), size) does: the same deal for a seed.
            steps.apply_deck(sample_order(rng, self.rules.deck_size))
        while steps.is_chance():
            outcomes = steps.chance_outcomes()
            steps.apply_chance(outcomes[rng.randrange(len(outcomes))][0])

    def apply(self, action_id: int) -> None:
        """Apply a legal id of the seat to act, then any chance that follows."""
        self.steps.apply_id(int(action_id))
        self.chance()

    def mask(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        """1 where an id is legal for the seat to act."""
        # A bytearray filled by the engine and viewed by numpy (writable, no copy):
        # cheaper than a numpy fancy assignment from a list for the handful of legal ids.
        return np.frombuffer(self.steps.legal_action_mask(), np.int8)

    def observe(self, seat: int) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The seat's tensor as a fresh float32 array."""
        values = self.steps.information_state(seat) if self.history else self.steps.observation(seat)
        return np.frombuffer(values, np.float32).copy()

    def render(self) -> str:
        """A few lines for a human: the deal as the engine prints it, the trick, the scores."""
        deal = self.steps.deal
        if deal is None:
            return "dealing"
        lines = [repr(deal)]
        for s in range(deal.n):
            lines.append(f"seat {s}: {' '.join(c.code for c in deal.hand(s))}")
        lines.append("trick: " + " ".join(f"{s}:{c.code}" for s, c in deal.current_trick))
        if deal.result is not None:
            lines.append(deal.result.summary())
        return "\n".join(lines)

    def render_as(self, mode: str | None) -> str | None:
        """:meth:`render` as an environment's ``render_mode`` asks: printed (``human``, and
        ``None`` returned) or returned (``ansi``)."""
        text = self.render()
        if mode == "human":
            print(text)
            return None
        return text
