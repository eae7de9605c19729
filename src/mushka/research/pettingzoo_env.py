"""A PettingZoo AEC environment: one deal of мушка, every seat an agent.

::

    from mushka.research.pettingzoo_env import env
    e = env("classic", players=4)
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are ``seat_0`` … ``seat_{n-1}``.  An observation is a dict with
``observation`` (the seat's tensor, :mod:`mushka.engine.encode`) and
``action_mask`` (1 for each legal id of :mod:`mushka.engine.ids`).  Chance is
drawn from the generator seeded by :meth:`reset`.  Rewards come at the end:
the deal's money (:func:`mushka.engine.utility.deal_utility`).  A deal that
ends at the deal (C22: a special hand wins the мушка at once) is an episode
whose agents are all terminated at reset, with their rewards: nothing is
redealt, so the distribution of deals is the true one.  With ``level="game"``
an episode is a whole partie or kopilka session (such a deal then simply ends
the partie, C22) and the rewards are the game's money (zero-sum, C21, K23).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from numpy import frombuffer
from pettingzoo import AECEnv

from mushka.game_steps import DEFAULT_MAX_DEALS
from mushka.research.table import ResearchTable
from mushka.rules import make_rules


class MushkaAEC(AECEnv):  # type: ignore[misc]
    """The AEC environment of one deal; see the module docstring."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"], "name": "mushka_v0", "is_parallelizable": False}

    def __init__(self, variant: str = "classic", players: int | None = None, *, render_mode: str | None = None,
                 information_state: bool = False, level: str = "deal", max_deals: int = DEFAULT_MAX_DEALS,
                 **options: object) -> None:
        """The env of ``variant`` with ``players`` seats and house-rule ``options``;
        ``information_state`` observes the information-state tensor; ``level="game"`` makes an
        episode a whole partie (at most ``max_deals`` deals) or kopilka session."""
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        self.rules = make_rules(variant, players, **options)
        self.table = ResearchTable(self.rules, history=information_state, level=level, max_deals=max_deals)
        self.possible_agents = [f"seat_{s}" for s in range(self.rules.players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        obs = spaces.Box(self.table.obs_low, self.table.obs_high, dtype=np.float32)
        mask = spaces.Box(0, 1, (self.table.num_actions,), np.int8)
        self._obs_space = {a: spaces.Dict({"observation": obs, "action_mask": mask}) for a in self.possible_agents}
        self._act_space = {a: spaces.Discrete(self.table.num_actions) for a in self.possible_agents}
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The dict space of ``agent``'s observation."""
        return self._obs_space[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The ids of ``agent``'s actions (most illegal at any moment: use the mask)."""
        return self._act_space[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new deal; ``options={"dealer": s}`` fixes the dealer (else drawn by lot, C4)."""
        dealer = None if not options else options.get("dealer")
        self.table.reset(seed, dealer)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._settle_or_select()

    def _settle_or_select(self) -> None:
        steps = self.table.steps
        if steps.is_over():
            for agent, value in zip(self.possible_agents, steps.returns(), strict=True):
                self.rewards[agent] = value
                self.terminations[agent] = True
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
            return
        self.agent_selection = self.possible_agents[steps.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        """``agent``'s observation and action mask (zeros when it is not to act)."""
        return self._observe(self._seat[agent])

    def _observe(self, seat: int) -> dict[str, np.ndarray[Any, Any]]:
        # ResearchTable.observe and ResearchTable.mask written out: this runs at every step of every
        # agent, and each Python call saved is a measurable part of a step (docs/research.md).
        table = self.table
        steps = table.steps
        values = steps.information_state(seat) if table.history else steps.observation(seat)
        if steps.current_player == seat:
            # The engine's bytearray viewed by numpy (writable, not shared: a new one each call).
            mask = frombuffer(steps.legal_action_mask(), np.int8)
        else:
            mask = np.zeros(table.num_actions, np.int8)
        # A copy of the engine's array viewed by numpy: about half the cost of numpy's own copy
        # of a view (the array module copies with one memcpy and no dtype machinery).
        return {"observation": frombuffer(values.__copy__(), np.float32), "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """What ``agent_selection`` sees now: observation (if ``observe``), cumulative reward,
        termination, truncation and info (PettingZoo's ``last``, one call less a step)."""
        agent = self.agent_selection
        return (self._observe(self._seat[agent]) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def step(self, action: int | None) -> None:
        """Apply ``agent_selection``'s action id (``None`` once it is terminated)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        # Rewards come only at the end, when every agent is terminated at once, so
        # while agents still act they are all zero already: no new dict a step.
        table = self.table
        steps = table.steps
        steps.apply_id(int(action) if action is not None else -1)
        if steps.is_chance():
            table.chance()  # K7: a pick after a discard; a new deal at the game level
        player = steps.current_player
        if player >= 0:
            # A seat acts next (the common case): no settlement to look at.
            self.agent_selection = self.possible_agents[player]
        else:
            self._settle_or_select()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The deal in text: printed (``human``) or returned (``ansi``)."""
        return self.table.render_as(self.render_mode)

    def close(self) -> None:
        """Nothing to release."""


def env(variant: str = "classic", players: int | None = None, **kwargs: Any) -> MushkaAEC:
    """The AEC environment (see :class:`MushkaAEC`)."""
    return MushkaAEC(variant, players, **kwargs)
