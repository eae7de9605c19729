"""RLCard environments for the three variants: ``mushka-classic``, ``mushka-mistigri``, ``mushka-kopilka``.

Importing this module registers them with RLCard's registry (which takes entry
points outside RLCard's own package)::

    import rlcard
    import mushka.research.rlcard_env  # registers the ids
    from rlcard.agents import RandomAgent
    from rlcard.utils import tournament
    env = rlcard.make("mushka-classic", config={"seed": 1, "game_num_players": 4})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    print(tournament(env, 100))          # each seat's mean money a deal

RLCard's conventions hold: every seat is an agent; a state is a dict with
``obs`` (the seat's tensor, :mod:`mushka.engine.encode`), ``legal_actions``
(an ordered dict of the legal ids of :mod:`mushka.engine.ids`),
``raw_obs`` (the seat's view, :meth:`mushka.engine.views.DealView.to_json`),
``raw_legal_actions`` (the actions in the text notation, which ``step(…,
raw_action=True)`` takes) and ``action_record``; ``get_payoffs`` gives the
money (:mod:`mushka.engine.utility`; a whole game's at ``game_level="game"``).
Chance (the deck, K7 picks) is drawn from the env's generator, seeded by
``config["seed"]`` (N4).  The game keys of ``config``: ``game_num_players``,
``game_level`` (``deal`` or ``game``), ``game_max_deals``, ``game_options``
(house rules by name, as in ``-o name=value``).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, ClassVar

import numpy as np
from rlcard.envs import Env
from rlcard.envs.registration import register, registry

from mushka.engine.actions import Action
from mushka.engine.steps import StepDeal
from mushka.game_steps import DEFAULT_MAX_DEALS, StepGame
from mushka.research.table import ResearchTable
from mushka.rules import make_rules

VARIANTS = ("classic", "mistigri", "kopilka")
"""The variants registered, as ``mushka-<variant>``."""


class MushkaRLCardGame:
    """The game object RLCard's :class:`~rlcard.envs.Env` drives: a :class:`ResearchTable` whose seats
    are all agents."""

    np_random: np.random.RandomState

    def __init__(self, variant: str, config: dict[str, Any]) -> None:
        """The table of ``variant`` that ``config``'s ``game_*`` keys describe."""
        options = dict(config.get("game_options") or {})
        self.rules = make_rules(variant, config.get("game_num_players"), **options)
        self.table = ResearchTable(self.rules, record_events=True, level=str(config.get("game_level", "deal")),
                           max_deals=int(config.get("game_max_deals", DEFAULT_MAX_DEALS)))
        self.allow_step_back = False
        self.np_random = np.random.RandomState()
        self._back: list[StepDeal | StepGame] = []

    def get_num_players(self) -> int:
        """The seats at the table."""
        return self.rules.players

    def get_num_actions(self) -> int:
        """Ids of :mod:`mushka.engine.ids` for these rules."""
        return self.table.num_actions

    def init_game(self) -> tuple[dict[str, Any], int]:
        """A new deal (or game), chance drawn from ``np_random``; the seat to act and its state."""
        self.table.reset(int(self.np_random.randint(2**31)))
        self._back = []
        player = self.get_player_id()
        return self.get_state(player), player

    def step(self, action: int) -> tuple[dict[str, Any], int]:
        """Apply the seat's id (and the chance after it); the next seat and its state."""
        if self.allow_step_back:
            self._back.append(self.table.steps.clone())
        self.table.apply(action)
        player = self.get_player_id()
        return self.get_state(player), player

    def step_back(self) -> bool:
        """Undo the last step (with ``allow_step_back``); ``False`` at the start."""
        if not self._back:
            return False
        self.table.steps = self._back.pop()
        return True

    def is_over(self) -> bool:
        """Whether the deal (or game) has ended."""
        return self.table.steps.is_over()

    def get_player_id(self) -> int:
        """The seat to act; seat 0 once it is over (RLCard indexes its trajectories by it)."""
        player = self.table.steps.current_player
        return player if player >= 0 else 0

    def get_state(self, player: int) -> dict[str, Any]:
        """What ``player`` may know now, and the legal ids if it is his turn."""
        steps = self.table.steps
        deal = steps.deal
        # At the game level the view is the game's: the score sheet as well as the deal.
        game = steps.game if isinstance(steps, StepGame) else None
        view = game.view(player).to_json() if game is not None else deal.view(player).to_json() if deal else {}
        mine = not steps.is_over() and steps.current_player == player
        ids = steps.legal_action_ids() if mine else []
        return {"obs": self.table.observe(player), "ids": ids,
                "raw": [str(steps.action_of(i)) for i in ids], "view": view}

    def payoffs(self) -> np.ndarray[Any, np.dtype[np.float64]]:
        """Each seat's money (zeros before the end)."""
        return np.array(self.table.steps.returns(), dtype=np.float64)


class MushkaRLCardEnv(Env):  # type: ignore[misc]
    """An RLCard environment of one variant (the subclasses below fix which); see the module docstring."""

    variant: ClassVar[str] = "classic"
    game: MushkaRLCardGame

    def __init__(self, config: dict[str, Any]) -> None:
        """The env ``rlcard.make`` builds from ``config`` (``seed``, ``allow_step_back``, ``game_*``)."""
        self.name = f"mushka-{self.variant}"
        self.default_game_config: dict[str, Any] = {}
        self.game = MushkaRLCardGame(self.variant, config)
        super().__init__(config)
        self.state_shape = [[self.game.table.obs_size] for _ in range(self.num_players)]
        self.action_shape = [None for _ in range(self.num_players)]

    def step(self, action: int | str, raw_action: bool = False) -> tuple[dict[str, Any], int]:
        """RLCard's step; a raw action is a text of the notation (``stand 7H``, ``KC``)."""
        if raw_action:
            action = self.game.table.steps.id_of(Action.parse(str(action)))
            raw_action = False
        return super().step(action, raw_action)  # type: ignore[no-any-return]

    def _extract_state(self, state: dict[str, Any]) -> dict[str, Any]:
        return {
            "obs": state["obs"],
            "legal_actions": OrderedDict((i, None) for i in state["ids"]),
            "raw_obs": state["view"],
            "raw_legal_actions": state["raw"],
            "action_record": self.action_recorder,
        }

    def _decode_action(self, action_id: int) -> int:
        # The ids are the engine's own: nothing to decode (an illegal one is refused by it).
        return int(action_id)

    def _get_legal_actions(self) -> list[int]:
        return self.game.table.steps.legal_action_ids()

    def get_payoffs(self) -> np.ndarray[Any, np.dtype[np.float64]]:
        """Each seat's money at the end (:mod:`mushka.engine.utility`)."""
        return self.game.payoffs()

    def get_perfect_information(self) -> dict[str, Any]:
        """Everything, hidden cards included (for analysis, never for an agent): every hand,
        the talon, the trick and the actions so far."""
        deal = self.game.table.steps.deal
        if deal is None:
            return {"hands": [], "talon": [], "trick": [], "actions": []}
        return {"hands": [[c.code for c in deal.hand(s)] for s in range(deal.n)],
                "talon": [c.code for c in deal.talon()],
                "trick": [[s, c.code] for s, c in deal.current_trick],
                "actions": [str(a) for a in deal.actions]}


class ClassicEnv(MushkaRLCardEnv):
    """``mushka-classic``: classic Мушка (C1-C22)."""

    variant = "classic"


class MistigriEnv(MushkaRLCardEnv):
    """``mushka-mistigri``: Мушка-мистигри (MI1-MI14)."""

    variant = "mistigri"


class KopilkaEnv(MushkaRLCardEnv):
    """``mushka-kopilka``: Мушка-копилка (K1-K24)."""

    variant = "kopilka"


ENV_IDS: dict[str, str] = {v: f"mushka-{v}" for v in VARIANTS}
"""The RLCard id of each variant."""

_CLASSES = {"classic": "ClassicEnv", "mistigri": "MistigriEnv", "kopilka": "KopilkaEnv"}


def register_envs() -> None:
    """Register :data:`ENV_IDS` with RLCard (done on import; again is harmless)."""
    for variant, env_id in ENV_IDS.items():
        if env_id not in registry.env_specs:
            register(env_id, f"{__name__}:{_CLASSES[variant]}")


register_envs()
