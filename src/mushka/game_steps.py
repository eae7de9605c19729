"""A whole game step by step, chance included: a partie (C16-C22) or a kopilka session (K3-K4, K23).

:class:`StepGame` is to :class:`~mushka.match.Game` what
:class:`~mushka.engine.steps.StepDeal` is to a deal: the first dealer drawn
by lot (C4) is a chance step (outcome = seat), then every card of every
deal's deck and every K7 pick is one (outcome = deck position), and players
act by action ids.  A deal that ends at the deal (C22: a special hand wins
the мушка) simply ends the partie: at the game level such deals are ordinary.

The payoff is the game's money (C21 settlement and MI9 side payments; K23:
the balances), zero-sum.  No rule limits the length of a partie, so research
code gives ``max_deals`` (the partie is settled after that many deals as if a
record had reached zero, C20, and is marked truncated).
"""

from __future__ import annotations

from array import array
from typing import Any, Final, Self, cast

from mushka.engine.actions import Action
from mushka.engine.deal import Deal
from mushka.engine.deal_state import check_seat
from mushka.engine.ids import action_space
from mushka.engine.stepped import Stepped
from mushka.engine.steps import CHANCE, TERMINAL, StepDeal
from mushka.engine.utility import deal_utility_bounds, max_deal_length
from mushka.errors import ChanceError, MushkaError
from mushka.match import Game, Partie, new_game, planned_deals
from mushka.rules.model import Rules

DEFAULT_MAX_DEALS: Final = 30
"""Deals after which a partie is settled when the caller gives no limit (not a rule)."""
SESSION_DEALS: Final = 4
"""K4: four games in a kopilka session (the default of option ``session_games``)."""


class StepGame(Stepped):
    """A partie or a session dealt and played step by step; see the module docstring."""

    __slots__ = ("_game", "_history", "_record", "_step", "max_deals", "rules")

    rules: Rules
    max_deals: int
    _record: bool
    _game: Game | None
    _step: StepDeal | None
    _history: list[int]

    def __init__(self, rules: Rules, *, max_deals: object = DEFAULT_MAX_DEALS, record_events: bool = True) -> None:
        """A game of ``rules`` whose first dealer is still to be drawn (C4)."""
        # ``object``, not ``int``: planned_deals names anything but a limit (deal_limit).
        self.rules = rules
        self.max_deals = planned_deals(rules, max_deals)
        self._record = record_events
        self._game = None
        self._step = None
        self._history = []

    # --- where the game stands ---------------------------------------------------

    @property
    def game(self) -> Game | None:
        """The game underneath, once its first deal is dealt."""
        return self._game

    @property
    def step_deal(self) -> StepDeal | None:
        """The current deal, step by step (``None`` before the first dealer is drawn)."""
        return self._step

    @property
    def history(self) -> tuple[int, ...]:
        """Every step so far: chance outcomes and action ids, in order."""
        return tuple(self._history)

    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self._game is not None and self._game.is_over

    def is_chance(self) -> bool:
        """Whether a chance step is due (the first dealer, a card, a K7 pick)."""
        if self.is_over():
            return False
        return self._step is None or self._step.is_chance()

    @property
    def current_player(self) -> int:
        """The seat to act, :data:`~mushka.engine.steps.CHANCE` or :data:`~mushka.engine.steps.TERMINAL`."""
        if self.is_over():
            return TERMINAL
        if self._step is None or self._step.is_chance():
            return CHANCE
        return self._step.current_player

    # --- chance -------------------------------------------------------------------------

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of the chance step due with their probabilities."""
        if self._step is None:
            n = self.rules.players
            return [(s, 1.0 / n) for s in range(n)]  # C4: the first dealer by lot
        return self._step.chance_outcomes()

    def apply_chance(self, outcome: object) -> None:
        """Apply a chance outcome (a seat for the first dealer, else a deck position); anything
        else is refused with the rule it breaks (C4, N4, K7) and changes nothing."""
        # ``object``, not ``int``: compiled, an int parameter would refuse text with a bare
        # TypeError and take a bool for 0 or 1 before the rule could be named.
        if self._step is None:
            n = self.rules.players
            if type(outcome) is not int or not 0 <= outcome < n:
                raise ChanceError("chance_invalid", rule="C4", outcome=repr(outcome)[:20], choices=f"0-{n - 1}")
            self._step = StepDeal(self.rules, outcome, record_events=self._record,
                                  **self._initial_money())
            self._history.append(outcome)
            return
        self._step.apply_chance(outcome)
        self._history.append(cast(int, outcome))  # taken by the deal: an int
        self._hand_over()

    def _initial_money(self) -> dict[str, object]:
        return {}

    def _hand_over(self) -> None:
        """Give the game the deal once it exists (after its last chance step)."""
        step = self._step
        assert step is not None
        deal = step.deal
        if deal is None:
            return
        game = self._game
        if game is None:
            self._game = new_game(self.rules, first_dealer=step.dealer, chance_steps=True, first_deal=deal,
                                  record_events=self._record, max_deals=self.max_deals)
        elif game.waiting_dealer >= 0:
            game.start_deal(deal)
        else:
            game.continue_with(deal)
        self._next_deal()

    def _next_deal(self) -> None:
        """Start dealing the next deal if the game waits for one."""
        game = self._game
        if game is not None and not game.is_over and game.waiting_dealer >= 0:
            state: dict[str, Any] = game.next_deal_state()
            self._step = StepDeal(self.rules, game.waiting_dealer, record_events=self._record, **state)

    # --- players --------------------------------------------------------------------------

    def legal_action_ids(self) -> list[int]:
        """The legal ids of the seat to act (empty at chance and at the end)."""
        if self.is_over() or self._step is None:
            return []
        return self._step.legal_action_ids()

    def legal_action_mask(self) -> bytearray:
        """The legal ids as a mask: one byte per id, 1 where it is legal."""
        if self.is_over() or self._step is None:
            return bytearray(action_space(self.rules).num_distinct_actions)
        return self._step.legal_action_mask()

    def apply_id(self, action_id: object) -> None:
        """Check and apply ``action_id`` by the seat to act (errors name the rule; the id is
        an ``object`` for the deal's steps to refuse anything but an int by its rule)."""
        step = self._step
        if step is None or self.is_over():
            raise MushkaError("chance_due", rule="N4", action=action_id)
        step.apply_id(action_id)
        self._history.append(cast(int, action_id))  # taken by the deal: an int
        game = self._game
        assert game is not None
        if step.deal is not None:
            game.continue_with(step.deal)
            self._next_deal()

    def action_of(self, action_id: object) -> Action:
        """The action of ``action_id`` for the seat to act (a named error for anything else)."""
        if self._step is None:
            raise MushkaError("chance_due", rule="N4", action=action_id)
        return self._step.action_of(action_id)

    def id_of(self, action: object) -> int:
        """The id of ``action`` for the seat to act."""
        if self._step is None:
            raise MushkaError("chance_due", rule="N4", action=action)
        return self._step.id_of(action)

    @property
    def deal(self) -> Deal | None:
        """The current deal (``None`` while a chance step is due)."""
        return None if self._step is None else self._step.deal

    # --- what a seat knows -------------------------------------------------------------------

    def info_state_key(self, seat: object) -> tuple[object, ...]:
        """The seat's key: the game's public score sheet and the current deal's key."""
        at = check_seat(self.rules, seat)
        game = self._game
        sheet: tuple[object, ...] = ()
        if game is not None:
            sheet = (len(game.finished), tuple(_records(game)), game.money)
        if self._step is None:
            return (at, "lot")
        return (at, sheet, len(self._history) if self._step.is_chance() else 0, *self._step.info_state_key(at))

    def observation(self, seat: object) -> array[float]:
        """The deal's observation tensor followed by the score sheet (see :func:`score_size`)."""
        return self._tensor(check_seat(self.rules, seat), False)

    def information_state(self, seat: object) -> array[float]:
        """The deal's information-state tensor followed by the score sheet."""
        return self._tensor(check_seat(self.rules, seat), True)

    def _tensor(self, seat: int, history: bool) -> array[float]:
        rules = self.rules
        n = rules.players
        if self._step is None:
            probe = StepDeal(rules, 0, record_events=False)
            deal_part = probe.information_state(seat) if history else probe.observation(seat)
            return array("f", bytes(4 * (len(deal_part) + score_size(rules))))
        deal_part = self._step.information_state(seat) if history else self._step.observation(seat)
        sheet = array("f", bytes(4 * score_size(rules)))
        game = self._game
        if game is not None:
            records = _records(game)
            money = game.money
            scale = float(rules.initial_record if rules.has_trumps else max(1, rules.ante * n))
            for s in range(n):
                r = (s - seat) % n
                if rules.has_trumps:
                    sheet[r] = records[s] / scale
                sheet[n + r] = money[s] / scale
            sheet[2 * n] = len(game.finished) / self.max_deals
        return deal_part + sheet

    # --- payoffs ---------------------------------------------------------------------------------

    def returns(self) -> tuple[float, ...]:
        """Each seat's money at the end of the game (zeros before)."""
        game = self._game
        if game is None or game.result is None:
            return (0.0,) * self.rules.players
        return tuple(float(m) for m in game.result.money)

    # --- copies ----------------------------------------------------------------------------------

    def _settings(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (self.rules,), {"max_deals": self.max_deals, "record_events": self._record}

    def _steps_so_far(self) -> tuple[int, ...]:
        return tuple(self._history)

    def clone(self) -> Self:
        """An independent copy."""
        other = self._fresh()
        other._history = self._history[:]
        other._step = None if self._step is None else self._step.clone()
        other._game = None if self._game is None else self._game.copy()
        if other._game is not None and other._step is not None and other._step.deal is not None \
                and other._game.waiting_dealer < 0 and not other._game.is_over:
            other._game.deal = other._step.deal
        return other


def _records(game: Game) -> list[int]:
    """C16-C18: the records of a partie (none in kopilka)."""
    return game.records if isinstance(game, Partie) else []


def score_size(rules: Rules) -> int:
    """Entries of the score sheet after a deal tensor: records (n, / initial record; zeros in
    kopilka), money (n, / initial record or the antes of a game) and deals played (1, / max)."""
    return 2 * rules.players + 1


def game_utility_bounds(rules: Rules, max_deals: object) -> tuple[float, float]:
    """``(min, max)`` of the game's money: zero-sum; a seat loses at most what the
    others can win from it (C21 on a record grown by remizes, MI9; K3, K12, K22)."""
    n = rules.players
    deals = planned_deals(rules, max_deals)  # a limit of deals, or the named error
    if rules.has_trumps:
        remiz = max(rules.remiz, rules.effective_privileged_remiz)
        record = rules.initial_record + deals * remiz
        worst = record * rules.stake + deals * rules.flush_payment
    else:
        low, _ = deal_utility_bounds(rules)
        worst = rules.ante + rules.session_games * int(-low)
    return float(-worst), float((n - 1) * worst)


def max_game_length(rules: Rules, max_deals: object) -> int:
    """Decisions in a game at most: ``max_deals`` deals (kopilka: its session's games, K4)."""
    return planned_deals(rules, max_deals) * max_deal_length(rules)

