"""Gymnasium ids for every variant, and observation spaces with finite bounds that every
observation of every level stays within (K3, K12, K22-K24 money; C16-C20 records)."""

from __future__ import annotations

import random

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")

from mushka.research.gymnasium_env import ENV_IDS, MushkaEnv  # noqa: E402
from mushka.research.pettingzoo_env import env as aec_env  # noqa: E402


@pytest.mark.parametrize("variant", sorted(ENV_IDS))
def test_gymnasium_make_builds_each_variant_by_its_id(variant):
    env = gym.make(ENV_IDS[variant], opponents="random")
    assert env.unwrapped.rules.variant == variant
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs) and info["action_mask"].any()
    # Keywords reach the env: a table size and a house rule.
    other = gym.make(ENV_IDS[variant], players=4, remiz=7, level="game", max_deals=2)
    assert (other.unwrapped.rules.players, other.unwrapped.rules.remiz, other.unwrapped.table.level) == (4, 7, "game")


def test_gymnasium_make_imports_the_module_by_its_prefix():
    env = gym.make("mushka.research.gymnasium_env:mushka/Mistigri-v0")
    assert env.unwrapped.rules.variant == "mistigri"


CASES = [("classic", 3, "deal", {}), ("kopilka", 4, "deal", {}), ("kopilka", 4, "game", {}),
         ("classic", 3, "game", {"max_deals": 4}), ("mistigri", 4, "game", {"max_deals": 3}),
         ("kopilka", 4, "deal", {"remiz": 50, "ante": 1}),
         ("classic", 4, "game", {"initial_record": 5, "max_deals": 6})]


@pytest.mark.parametrize(("variant", "players", "level", "extra"), CASES)
def test_observations_have_finite_bounds_and_stay_within_them(variant, players, level, extra):
    env = MushkaEnv(variant, players, level=level, **extra)
    space = env.observation_space
    assert np.isfinite(space.low).all() and np.isfinite(space.high).all()
    rng = random.Random(1)
    seen = 0
    for seed in range(12 if level == "deal" else 3):
        obs, info = env.reset(seed=seed)
        done = False
        while True:
            assert space.contains(obs), np.flatnonzero((obs < space.low) | (obs > space.high))
            seen += 1
            if done:
                break
            legal = np.flatnonzero(info["action_mask"])
            obs, _, done, _, info = env.step(int(rng.choice(legal.tolist())))
    assert seen > 20
    # The AEC env shares the bounds.
    aec = aec_env(variant, players, level=level, **extra)
    assert np.array_equal(aec.observation_space(aec.possible_agents[0])["observation"].low, space.low)
