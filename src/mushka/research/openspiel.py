"""OpenSpiel games for the three variants: ``mushka_classic``, ``mushka_mistigri``, ``mushka_kopilka``.

Importing this module registers them with :func:`pyspiel.register_game`::

    import pyspiel
    import mushka.research.openspiel  # registers the games
    game = pyspiel.load_game("mushka_classic", {"players": 3, "remiz": 7})
    game = pyspiel.load_game("mushka_kopilka(redistribution=old)")

Every house-rule option of the variant is a parameter of the type of its
default: booleans as bool, numbers as int (``-1`` for an option's word:
``privileged_remiz=-1`` is ``remiz``, ``deck=-1`` is ``auto``), other values
as their text form with ``;`` for commas
(``suit_values=H4;C3;D2;S1``).  ``players`` is the table size, ``dealer``
the dealer of the deal, ``level`` ``deal`` or ``game`` (with ``max_deals``).  A state is a
:class:`mushka.engine.steps.StepDeal`: explicit chance (each card of the deck,
kopilka's K7 picks), imperfect information, action ids of
:mod:`mushka.engine.ids`, tensors of :mod:`mushka.engine.encode`.  Payoffs are
the deal's money (:mod:`mushka.engine.utility`): general-sum.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from dataclasses import fields
from typing import Any

import numpy as np
import pyspiel

from mushka.cards import Card
from mushka.engine.deal import Deal
from mushka.engine.events import DealEnded, Event
from mushka.engine.ids import action_space
from mushka.engine.layouts import Layout, information_state_layout, observation_layout
from mushka.engine.steps import CHANCE, TERMINAL, StepDeal
from mushka.engine.utility import deal_utility_bounds, max_deal_length
from mushka.game_steps import DEFAULT_MAX_DEALS, StepGame, game_utility_bounds, max_game_length, score_size
from mushka.rules import Rules, make_rules
from mushka.rules.options import OPTION_BY_NAME, OptionSpec, format_value, options_for
from mushka.rules.variants import find_variant
from mushka.worlds.resample import resample_steps

VARIANTS = ("classic", "mistigri", "kopilka")
"""The variants registered, as ``mushka_<variant>``."""

_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
# The step objects use OpenSpiel's own player ids for chance and the end, so a step
# hands its current player straight on (one Python frame less at every step).
if (CHANCE, TERMINAL) != (_CHANCE, _TERMINAL):  # pragma: no cover (a change in OpenSpiel)
    raise ImportError(f"OpenSpiel's chance/terminal ids {(_CHANCE, _TERMINAL)} differ from mushka's")

_PRIVATE = ("hand", "own_discards", "own_dealt")
"""Segments that only their seat may see (left empty by a public observer)."""


def short_name(variant: str) -> str:
    """The OpenSpiel name of ``variant``."""
    return f"mushka_{variant}"


def _param_default(variant: str, option: OptionSpec) -> bool | int | str:
    """An option as an OpenSpiel parameter: a bool, an int (-1 for a word such
    as ``remiz`` or ``auto`` where the option takes one) or its text form."""
    value = option.default(variant)
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value
    if value is None:
        return -1
    # OpenSpiel's game strings split on commas; the option parsers take ';' as well.
    return format_value(option.name, value).replace(",", ";")


def _defaults(variant: str) -> dict[str, Any]:
    info = find_variant(variant)
    spec: dict[str, Any] = {"players": info.default_players, "dealer": 0, "level": "deal",
                            "max_deals": DEFAULT_MAX_DEALS}
    for option in options_for(variant):
        spec[option.name] = _param_default(variant, option)
    return spec


def rules_of(variant: str, params: dict[str, Any]) -> Rules:
    """The rules an OpenSpiel parameter dict describes (unknown names refused by the rules)."""
    options: dict[str, object] = {}
    for name, value in params.items():
        if name in ("players", "dealer", "level", "max_deals"):
            continue
        word = value == -1 and not isinstance(value, bool) and OPTION_BY_NAME.get(name) is not None
        # -1 stands for the option's word (remiz, ante, auto).
        options[name] = format_value(name, None) if word else value
    return make_rules(variant, int(params.get("players", find_variant(variant).default_players)), **options)


def _game_type(variant: str, level: str = "deal") -> pyspiel.GameType:
    players = find_variant(variant).players
    # A deal is general-sum (records are written, the pot pays); a whole game is
    # settled in money that sums to zero (C21, MI9; K23-K24).
    utility = pyspiel.GameType.Utility.ZERO_SUM if level == "game" else pyspiel.GameType.Utility.GENERAL_SUM
    return pyspiel.GameType(
        short_name=short_name(variant),
        long_name=f"Mushka ({variant})",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(players),
        min_num_players=min(players),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_defaults(variant),
    )


class MushkaGame(pyspiel.Game):  # type: ignore[misc]
    """One variant of мушка as an OpenSpiel game (one deal)."""

    rules: Rules
    dealer: int
    variant: str

    def __init__(self, params: dict[str, Any] | None = None, *, variant: str = "classic") -> None:
        """The game of ``variant`` with OpenSpiel ``params`` (see the module docstring)."""
        full = dict(_defaults(variant))
        full.update(params or {})
        self.variant = variant
        self.rules = rules_of(variant, full)
        self.dealer = int(full.get("dealer", 0))
        if not 0 <= self.dealer < self.rules.players:
            raise ValueError(f"dealer {self.dealer} is not a seat of {self.rules.players} (C4)")
        self.level = str(full.get("level", "deal"))
        if self.level not in ("deal", "game"):
            raise ValueError(f"level must be 'deal' or 'game', not {self.level!r}")
        self.max_deals = int(full.get("max_deals", DEFAULT_MAX_DEALS))
        if self.level == "game":
            low, high = game_utility_bounds(self.rules, self.max_deals)
            length = max_game_length(self.rules, self.max_deals)
            chance = (1 + self.max_deals * (self.rules.deck_size + (0 if self.rules.has_trumps else 12)))
        else:
            low, high = deal_utility_bounds(self.rules)
            length = max_deal_length(self.rules)
            chance = self.rules.deck_size + (0 if self.rules.has_trumps else 3 * self.rules.players)
        self._chance_nodes = chance
        info = pyspiel.GameInfo(
            num_distinct_actions=action_space(self.rules).num_distinct_actions,
            max_chance_outcomes=self.rules.deck_size,
            num_players=self.rules.players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if self.level == "game" else None,
            max_game_length=length,
        )
        super().__init__(_game_type(variant, self.level), info, full)

    def new_initial_state(self) -> MushkaState:
        """A deal with its deck still to be dealt."""
        return MushkaState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> MushkaObserver:
        """An observer: the information state with perfect recall, else the observation."""
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return MushkaObserver(self.rules, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
                              score=self.level == "game")

    def max_chance_nodes_in_history(self) -> int:
        """N4: every card of each deck, plus kopilka's picks (K7: three per seat at most), plus the lot (C4)."""
        return self._chance_nodes

    def new_steps(self) -> StepDeal | StepGame:
        """The step object of a new state: a deal, or a whole game at ``level=game``."""
        if self.level == "game":
            return StepGame(self.rules, max_deals=self.max_deals)
        # No event log until a view or an information-state string asks for one (then it
        # is built once and kept up): random play and tensors never need it.
        return StepDeal(self.rules, self.dealer, record_events=False)


class MushkaState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state over a :class:`~mushka.engine.steps.StepDeal`."""

    def __init__(self, game: MushkaGame, steps: StepDeal | StepGame | None = None) -> None:
        """The initial state of ``game`` (or one over ``steps``)."""
        super().__init__(game)
        self.steps = steps if steps is not None else game.new_steps()
        self._player = self.steps.current_player

    def current_player(self) -> int:
        """The seat to act, or OpenSpiel's chance or terminal id (kept up to date by each step:
        OpenSpiel asks for it several times a step)."""
        return self._player

    def _legal_actions(self, player: int) -> list[int]:
        return self.steps.legal_action_ids()

    # Python callers reach the queries below directly, not through C++ and back
    # (each crossing costs more than the engine's step); C++ callers (OpenSpiel's
    # own tests and algorithms) still go through ``_legal_actions`` and the
    # observer, and tests/research check both give the same.

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal ids of the seat to act (at chance the outcomes, whoever asks, as in C++;
        ``[]`` for another seat or at the end)."""
        current = self._player
        if current == _CHANCE:
            return [k for k, _ in self.steps.chance_outcomes()]
        if current == _TERMINAL or (player is not None and player != current):
            return []
        return self.steps.legal_action_ids()

    def is_chance_node(self) -> bool:
        """Whether a chance step is due (N4, K7)."""
        return self._player == _CHANCE

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """``player``'s observation tensor (default: the seat to act), as OpenSpiel's C++ side gives it."""
        return self._tensor(player, False)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """``player``'s information-state tensor (default: the seat to act)."""
        return self._tensor(player, True)

    def _tensor(self, player: int | None, history: bool) -> list[float]:
        seat = self._player if player is None else player
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.steps.rules.players:
            raise ValueError(f"player {seat} is not a seat of {self.steps.rules.players}")
        steps = self.steps
        if isinstance(steps, StepDeal):
            return steps.tensor_list(seat, history)
        return (steps.information_state(seat) if history else steps.observation(seat)).tolist()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Deck positions with their probabilities (N4, K7)."""
        return self.steps.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        steps = self.steps
        if self._player == _CHANCE:
            steps.apply_chance(action)
        else:
            steps.apply_id(action)
        self._player = steps.current_player

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            return f"Deal:{self.steps.rules.deck_cards[action].code}"
        try:
            return str(self.steps.action_of(action))
        except ValueError:
            return f"action {action}"

    def is_terminal(self) -> bool:
        """Whether the deal is settled."""
        return self._player == _TERMINAL

    def returns(self) -> list[float]:
        """The deal's payoffs (zeros until the end)."""
        return list(self.steps.returns())

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[..., Any]) -> MushkaState:
        """A state consistent with what ``player_id`` knows (the core resampler; deal level)."""
        if not isinstance(self.steps, StepDeal):
            raise ValueError("resampling is offered at the deal level (level=deal)")
        seed = int(probability_sampler() * 2**31) if callable(probability_sampler) else 0
        game: MushkaGame = self.get_game()
        out = game.new_initial_state()
        for step in resample_steps(self.steps, player_id, random.Random(seed)).history:
            out.apply_action(step)
        return out

    def __str__(self) -> str:
        deal = _deal_of(self.steps)
        if deal is None:
            return f"dealing: {len(self.steps.history)} steps"
        hands = " | ".join(" ".join(c.code for c in deal.hand(s)) for s in range(deal.n))
        trick = " ".join(f"{s}:{c.code}" for s, c in deal.current_trick)
        return f"{deal.phase.name.lower()} to_act={deal.to_act} hands {hands} trick [{trick}]"

    def __deepcopy__(self, memo: dict[int, Any]) -> MushkaState:
        # OpenSpiel clones a Python state by deep-copying its attributes; the
        # step deal copies cheaply (no rules tables, no event objects).
        return MushkaState(self.get_game(), copy.deepcopy(self.steps, memo))


class MushkaObserver:
    """OpenSpiel's Python observer: ``tensor``, named ``dict`` views, strings."""

    rules: Rules
    layout: Layout
    perfect_recall: bool
    public_only: bool
    tensor: np.ndarray[Any, np.dtype[np.float32]]
    dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]]

    def __init__(self, rules: Rules, iig_obs_type: Any, *, score: bool = False) -> None:
        """An observer of ``rules`` for the observation type asked for."""
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("every seat's private cards at once is not an observation of мушка (§4)")
        self.rules = rules
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.public_only = iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE
        layout = information_state_layout(rules) if self.perfect_recall else observation_layout(rules)
        if score:
            # level=game: the score sheet follows the deal (mushka.game_steps.score_size).
            layout = Layout((*layout.segments, ("score", score_size(rules))))
        self.layout = layout
        self.tensor = np.zeros(self.layout.size, np.float32)
        self.dict = {name: self.tensor[self.layout.slice(name)] for name, _ in self.layout.segments}
        self._initial: dict[int, np.ndarray[Any, np.dtype[np.float32]]] = {}

    def set_from(self, state: MushkaState, player: int) -> None:
        """Fill the tensor with what ``player`` knows in ``state``."""
        steps = state.steps
        if not steps.history:
            # OpenSpiel's C++ side learns the tensor's shape by observing a fresh
            # initial state at every ``observation_tensor()`` call: all fresh states
            # of a game look alike, so their tensor is computed once per seat.
            cached = self._initial.get(player)
            if cached is None:
                values = steps.information_state(player) if self.perfect_recall else steps.observation(player)
                cached = self._initial[player] = np.frombuffer(values, np.float32).copy()
            self.tensor[:] = cached
        else:
            values = steps.information_state(player) if self.perfect_recall else steps.observation(player)
            self.tensor[:] = np.frombuffer(values, np.float32)
        if self.public_only:
            for name in _PRIVATE:
                if name in self.dict:
                    self.dict[name][:] = 0.0

    def string_from(self, state: MushkaState, player: int) -> str:
        """A text form: the information-state key, or the seat's view now."""
        steps = state.steps
        if self.perfect_recall:
            return " ".join(_compact(item) for item in steps.info_state_key(player))
        deal = _deal_of(steps)
        if deal is None:
            return f"seat {player} dealing"
        view = deal.view(player)
        hand = "" if self.public_only else " ".join(c.code for c in view.hand)
        trick = " ".join(f"{s}:{c.code}" for s, c in view.trick)
        return (f"seat {player} {view.phase.name.lower()} to_act={view.to_act} hand {hand} trick [{trick}] "
                f"won {list(view.tricks_won)}")


class ClassicGame(MushkaGame):
    """``mushka_classic``: classic мушка (C1-C22)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        """The game with OpenSpiel ``params``."""
        super().__init__(params, variant="classic")


class MistigriGame(MushkaGame):
    """``mushka_mistigri``: мушка-мистигри (MI1-MI14)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        """The game with OpenSpiel ``params``."""
        super().__init__(params, variant="mistigri")


class KopilkaGame(MushkaGame):
    """``mushka_kopilka``: мушка-копилка, one game of a session (K1-K24)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        """The game with OpenSpiel ``params``."""
        super().__init__(params, variant="kopilka")


GAMES: dict[str, type[MushkaGame]] = {"classic": ClassicGame, "mistigri": MistigriGame, "kopilka": KopilkaGame}
"""The game class of each variant."""


def _deal_of(steps: StepDeal | StepGame) -> Deal | None:
    if isinstance(steps, StepDeal):
        return steps.deal
    inner = steps.step_deal
    return None if inner is None else inner.deal


def _compact(value: object) -> str:
    """An event (or a key item) in a short text: cards as codes, hidden ones as ``?``."""
    if value is None:
        return "?"
    if isinstance(value, Card):
        return value.code
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, tuple):
        return "(" + ",".join(_compact(v) for v in value) + ")"
    if isinstance(value, Event):
        if isinstance(value, DealEnded):
            return "DealEnded"
        return type(value).__name__ + "(" + ",".join(_compact(getattr(value, f.name)) for f in fields(value)) + ")"
    return str(value)


def register() -> None:
    """Register every variant with OpenSpiel (done on import; safe to call again)."""
    registered = set(pyspiel.registered_names())
    for variant, cls in GAMES.items():
        if short_name(variant) not in registered:
            pyspiel.register_game(_game_type(variant), cls)


register()
