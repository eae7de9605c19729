"""A Gymnasium environment: one seat of a deal, the other seats played by mushka's bots.

::

    import gymnasium as gym
    import mushka.research.gymnasium_env  # registers mushka/Classic-v0, mushka/Mistigri-v0, mushka/Kopilka-v0
    env = gym.make("mushka/Classic-v0", players=4, opponents="heuristic")
    obs, info = env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(int(info["action_mask"].argmax()))

The observation is the seat's tensor (:mod:`mushka.engine.encode`); the
action is an id of :mod:`mushka.engine.ids`; ``info["action_mask"]`` marks
the legal ids.  An id that is not legal is replaced by the lowest legal one
and ``info["illegal"]`` says so, with ``illegal_penalty`` taken off the reward
(RL code samples from the whole space; a crash would help nobody).  The
reward comes at the end: the seat's money of the deal
(:func:`mushka.engine.utility.deal_utility`).

A deal in which the seat has no decision (C22: a special hand wins the мушка
at the deal; or the bots' play ends it first, C9/C10) is not redealt, which
would change the distribution of deals: its episode is one *no-decision
step*.  The action space has one id more than the engine's,
``NO_DECISION = num_distinct_actions``, the only legal id in that state;
stepping it ends the episode with the deal's reward.

Importing the module registers one Gymnasium id a variant (:data:`ENV_IDS`);
``gym.make("mushka.research.gymnasium_env:mushka/Kopilka-v0")`` imports it
on the way.  Keyword arguments of ``gym.make`` go to :class:`MushkaEnv`.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from mushka.bots import Bot, make_bot
from mushka.bots.base import deal_game_view
from mushka.game_steps import DEFAULT_MAX_DEALS, StepGame
from mushka.research.table import ResearchTable
from mushka.rules import make_rules


class MushkaEnv(gym.Env[np.ndarray[Any, np.dtype[np.float32]], np.int64]):
    """One seat of a deal against bots; see the module docstring."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"]}  # noqa: RUF012 (Gymnasium's own field)

    def __init__(self, variant: str = "classic", players: int | None = None, *, seat: int = 0,
                 opponents: str = "random", render_mode: str | None = None, illegal_penalty: float = 0.0,
                 information_state: bool = False, level: str = "deal", max_deals: int = DEFAULT_MAX_DEALS,
                 **options: object) -> None:
        """The env of ``seat`` at a table of ``variant``; ``opponents`` is a bot spec
        (``random``, ``heuristic``, ``search:worlds=8`` …) for every other seat; ``level="game"``
        makes an episode a whole partie (at most ``max_deals`` deals) or kopilka session."""
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        self.rules = make_rules(variant, players, **options)
        if not 0 <= seat < self.rules.players:
            raise ValueError(f"seat {seat} is not a seat of {self.rules.players}")
        self.seat = seat
        self.table = ResearchTable(self.rules, history=information_state, record_events=True, level=level,
                           max_deals=max_deals)
        self.bots: list[Bot] = [make_bot(opponents) for _ in range(self.rules.players)]
        self.illegal_penalty = illegal_penalty
        self.bot_rng = random.Random()
        self.observation_space = spaces.Box(self.table.obs_low, self.table.obs_high, dtype=np.float32)
        self.no_decision = self.table.num_actions
        self.action_space = spaces.Discrete(self.table.num_actions + 1)

    def _mask(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        mask = np.zeros(self.no_decision + 1, np.int8)
        if self.table.steps.is_over():
            mask[self.no_decision] = 1
        else:
            mask[: self.no_decision] = self.table.mask()
        return mask

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"action_mask": self._mask(), **extra}

    def _others(self) -> None:
        """Let the bots act until it is the seat's turn or the deal is over."""
        table = self.table
        steps = table.steps
        while not steps.is_over() and steps.current_player != self.seat:
            deal = steps.deal
            assert deal is not None
            seat = deal.to_act
            # At the game level the bots see the score sheet too (records, money).
            game = steps.game if isinstance(steps, StepGame) else None
            view = game.view(seat) if game is not None else deal_game_view(deal, seat)
            action = self.bots[seat].choose(view, self.bot_rng)
            table.apply(steps.id_of(action))
            steps = table.steps

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray[Any, np.dtype[np.float32]], dict[str, Any]]:
        """Deal (seeded), let the bots play up to the seat's first decision."""
        super().reset(seed=seed)
        if seed is not None:
            self.bot_rng = random.Random(seed ^ 0x5EED)
        dealer = None if not options else options.get("dealer")
        self.table.reset(seed, dealer)
        self._others()
        return self.table.observe(self.seat), self._info(no_decision=self.table.steps.is_over())

    def step(self, action: np.int64 | int
             ) -> tuple[np.ndarray[Any, np.dtype[np.float32]], float, bool, bool, dict[str, Any]]:
        """Apply the seat's id, let the bots answer; the reward comes at the end."""
        steps = self.table.steps
        if steps.is_over():
            # The no-decision step of a deal that ended before the seat's turn.
            illegal = int(action) != self.no_decision
        else:
            legal = steps.legal_action_ids()
            illegal = int(action) not in legal
            self.table.apply(legal[0] if illegal else int(action))
            self._others()
            steps = self.table.steps
        done = steps.is_over()
        reward = steps.returns()[self.seat] if done else 0.0
        if illegal:
            reward -= self.illegal_penalty
        obs = self.table.observe(self.seat)
        if self.render_mode == "human":
            self.render()
        return obs, float(reward), done, False, self._info(illegal=illegal)

    def render(self) -> str | None:
        """The deal in text: printed (``human``) or returned (``ansi``)."""
        return self.table.render_as(self.render_mode)


ENV_IDS: dict[str, str] = {"classic": "mushka/Classic-v0", "mistigri": "mushka/Mistigri-v0",
                           "kopilka": "mushka/Kopilka-v0"}
"""The Gymnasium id of each variant (``gym.make(ENV_IDS["kopilka"], level="game")``)."""


def register_envs() -> None:
    """Register :data:`ENV_IDS` with Gymnasium (done on import; again is harmless)."""
    for variant, env_id in ENV_IDS.items():
        if env_id not in gym.registry:
            gym.register(id=env_id, entry_point=f"{__name__}:MushkaEnv", kwargs={"variant": variant})


register_envs()
