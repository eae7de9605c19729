"""RLCard environments: registered ids, RLCard's state conventions, its random agent and
``tournament``, seeding, raw actions and step_back (N4 chance from the env's seed)."""

from __future__ import annotations

import numpy as np
import pytest

rlcard = pytest.importorskip("rlcard")

from rlcard.agents import RandomAgent  # noqa: E402
from rlcard.utils import tournament  # noqa: E402

from mushka.engine.utility import deal_utility_bounds  # noqa: E402
from mushka.game_steps import game_utility_bounds  # noqa: E402
from mushka.research.rlcard_env import ENV_IDS  # noqa: E402
from mushka.rules import make_rules  # noqa: E402

TABLES = [("classic", 3), ("classic", 5), ("mistigri", 4), ("kopilka", 4)]


def agents(env):
    return [RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)]


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_rlcard_tournament_of_random_agents_pays_within_the_bounds(variant, players):
    env = rlcard.make(ENV_IDS[variant], config={"seed": 1, "game_num_players": players})
    assert (env.num_players, env.game.rules.variant) == (players, variant)
    env.set_agents(agents(env))
    np.random.seed(1)  # RLCard's random agent draws from numpy's global generator
    payoffs = tournament(env, 40)
    low, high = deal_utility_bounds(make_rules(variant, players))
    assert len(payoffs) == players and all(low <= p <= high for p in payoffs)
    assert any(payoffs)  # 40 deals of money, not all zero
    trajectories, final = env.run(is_training=False)
    assert len(trajectories) == players and len(final) == players


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_rlcard_state_follows_its_conventions(variant, players):
    env = rlcard.make(ENV_IDS[variant], config={"seed": 2, "game_num_players": players})
    state, player = env.reset()
    steps = 0
    while not env.is_over():
        assert set(state) >= {"obs", "legal_actions", "raw_obs", "raw_legal_actions", "action_record"}
        assert state["obs"].shape == tuple(env.state_shape[player])
        legal = list(state["legal_actions"])
        assert legal == env.game.table.steps.legal_action_ids() and legal
        assert len(state["raw_legal_actions"]) == len(legal)
        assert state["raw_obs"]["seat"] == player
        # Another seat's state holds no legal actions and only what that seat may see.
        other = env.get_state((player + 1) % players)
        assert not other["legal_actions"] and other["raw_obs"]["seat"] == (player + 1) % players
        state, player = env.step(legal[steps % len(legal)])
        steps += 1
    assert steps > 0 and len(env.get_payoffs()) == players
    assert len(env.get_perfect_information()["hands"]) == players


def test_rlcard_seed_fixes_the_deals_and_raw_actions_step_the_same():
    def play(config, raw):
        env = rlcard.make(ENV_IDS["classic"], config=config)
        state, _ = env.reset()
        deck = [card for hand in env.get_perfect_information()["hands"] for card in hand]
        while not env.is_over():
            action = state["raw_legal_actions"][0] if raw else next(iter(state["legal_actions"]))
            state, _ = env.step(action, raw_action=raw)
        return deck, list(env.get_payoffs()), [str(a) for a in env.game.table.steps.deal.actions]

    first = play({"seed": 5}, raw=False)
    assert play({"seed": 5}, raw=True) == first
    assert play({"seed": 6}, raw=False)[0] != first[0]


def test_rlcard_step_back_restores_the_state():
    env = rlcard.make(ENV_IDS["mistigri"], config={"seed": 3, "allow_step_back": True})
    state, player = env.reset()
    before = (state["obs"].copy(), list(state["legal_actions"]), player)
    env.step(list(state["legal_actions"])[-1])
    again, player_again = env.step_back()
    assert (again["obs"].tolist(), list(again["legal_actions"]), player_again) == (
        before[0].tolist(), before[1], before[2])
    assert env.step_back() is False  # nothing left to undo


def test_rlcard_game_level_and_options():
    env = rlcard.make(ENV_IDS["kopilka"], config={"seed": 4, "game_level": "game",
                                                  "game_options": {"remiz": 7}})
    assert env.game.rules.remiz == 7
    env.set_agents(agents(env))
    np.random.seed(4)
    _, payoffs = env.run()
    low, high = game_utility_bounds(env.game.rules, 4)
    assert abs(sum(payoffs)) < 1e-9 and all(low <= p <= high for p in payoffs)  # K24: zero-sum
    assert len(env.game.table.steps.game.finished) == 4  # K4: a session of four games
