"""The research environments pass their frameworks' own checks, on small tables."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import mushka.research.openspiel as mos  # noqa: E402
from mushka.engine.ids import action_space  # noqa: E402
from mushka.engine.layouts import information_state_layout, observation_layout  # noqa: E402
from mushka.engine.utility import deal_utility_bounds, max_deal_length  # noqa: E402
from mushka.errors import MushkaError  # noqa: E402
from mushka.research.gymnasium_env import MushkaEnv  # noqa: E402
from mushka.research.pettingzoo_env import env as aec_env  # noqa: E402
from mushka.rules import make_rules  # noqa: E402
from mushka.rules.options import options_for  # noqa: E402

SMALL = [("mushka_classic", {"players": 3}), ("mushka_mistigri", {"players": 3}), ("mushka_kopilka", {}),
         ("mushka_classic", {"players": 3, "level": "game", "max_deals": 2}),
         ("mushka_mistigri", {"players": 4, "level": "game", "max_deals": 2}),
         ("mushka_kopilka", {"level": "game"})]


@pytest.mark.parametrize(("name", "params"), SMALL)
def test_openspiel_random_sim_test_with_serialization(name, params):
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_openspiel_game_type_and_info_are_honest():
    game = pyspiel.load_game("mushka_classic", {"players": 4, "remiz": 7})
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert (kind.min_num_players, kind.max_num_players) == (3, 7)
    rules = make_rules("classic", 4, remiz=7)
    assert game.rules == rules
    assert game.num_players() == 4
    assert game.num_distinct_actions() == action_space(rules).num_distinct_actions
    assert game.max_chance_outcomes() == rules.deck_size
    assert game.observation_tensor_size() == observation_layout(rules).size
    assert game.information_state_tensor_size() == information_state_layout(rules).size
    assert (game.min_utility(), game.max_utility()) == deal_utility_bounds(rules)
    assert game.max_game_length() == max_deal_length(rules)


def test_c21_openspiel_game_level_is_zero_sum():
    game = pyspiel.load_game("mushka_classic", {"players": 3, "level": "game", "max_deals": 3})
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.utility_sum() == 0.0
    assert game.observation_tensor_size() == observation_layout(make_rules("classic", 3)).size + 7


def test_openspiel_every_option_is_a_parameter():
    for variant in mos.VARIANTS:
        spec = pyspiel.load_game(mos.short_name(variant)).get_type().parameter_specification
        assert {o.name for o in options_for(variant)} | {"players", "dealer", "level", "max_deals"} == set(spec)


def test_openspiel_bad_option_is_refused_by_the_rules():
    with pytest.raises(Exception, match="remiz"):
        pyspiel.load_game("mushka_classic", {"remiz": 100000})


def test_openspiel_observers_and_clone():
    game = pyspiel.load_game("mushka_classic", {"players": 3})
    state = game.new_initial_state()
    rng = random.Random(2)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert clone.history() != state.history()
    obs = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    obs.set_from(state, 0)
    assert obs.dict["hand"].sum() == 5
    public = game.make_py_observer(pyspiel.IIGObservationType(
        perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE))
    public.set_from(state, 0)
    assert public.dict["hand"].sum() == 0
    assert state.information_state_string(0) != state.information_state_string(1)


@pytest.mark.parametrize(("name", "params", "prefix"), [("mushka_classic", {"players": 4}, 36 + 9),
                                                      ("mushka_kopilka", {}, 32 + 20)])
def test_openspiel_resample_from_infostate_keeps_the_seat_view(name, params, prefix):
    game = pyspiel.load_game(name, params)
    rng = random.Random(4)
    done = 0
    for _ in range(8):
        state = game.new_initial_state()
        while not state.is_terminal() and (len(state.history()) < prefix or state.is_chance_node()):
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        player = state.current_player()
        try:
            other = state.resample_from_infostate(player, rng.random)
        except MushkaError as err:
            assert err.code == "resample_failed"  # K7: rare in kopilka, said by name
            continue
        done += 1
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.information_state_tensor(player) == state.information_state_tensor(player)
        assert other.legal_actions() == state.legal_actions()
    assert done >= 5


@pytest.mark.parametrize("variant", ["classic", "mistigri", "kopilka"])
def test_pettingzoo_api_and_seed(variant):
    players = 3 if variant != "kopilka" else None
    api_test(aec_env(variant, players), num_cycles=60)
    seed_test(lambda: aec_env(variant, players), num_cycles=30)


def test_pettingzoo_c22_deal_won_at_the_deal_terminates_at_reset():
    env = aec_env("classic", 3)
    for seed in range(400):
        env.reset(seed=seed)
        if all(env.terminations.values()):
            assert any(env._cumulative_rewards.values())
            for _ in env.agent_iter():
                env.step(None)
            assert not env.agents
            return
    pytest.fail("no deal won at the deal in 400 seeds")


@pytest.mark.parametrize("variant", ["classic", "kopilka"])
def test_gymnasium_check_env(variant):
    check_env(MushkaEnv(variant), skip_render_check=True)


def test_seeding_gives_the_same_trajectories():
    def run(seed):
        env = MushkaEnv("mistigri", 4, opponents="heuristic")
        obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        out = [obs.tobytes()]
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, reward, done, _, info = env.step(action)
            out.append((obs.tobytes(), reward))
        return out

    assert run(11) == run(11)
    assert run(11) != run(12)
    pz = [aec_env("kopilka") for _ in range(2)]
    traces = []
    for env in pz:
        env.reset(seed=5)
        trace = []
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            trace.append((agent, obs["observation"].tobytes(), reward))
            env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[-1]))
        traces.append(trace)
    assert traces[0] == traces[1]


def test_gymnasium_no_decision_step_keeps_the_deal():
    env = MushkaEnv("classic", 3)
    for seed in range(400):
        _, info = env.reset(seed=seed)
        if info["no_decision"]:
            assert info["action_mask"].sum() == 1 and info["action_mask"][env.no_decision] == 1
            _, reward, done, _, _ = env.step(env.no_decision)
            assert done and reward != 0
            return
    pytest.fail("no deal without a decision in 400 seeds")


def test_c21_game_level_environments():
    api_test(aec_env("classic", 3, level="game", max_deals=3), num_cycles=300)
    seed_test(lambda: aec_env("kopilka", level="game"), num_cycles=60)
    check_env(MushkaEnv("classic", 3, level="game", max_deals=3), skip_render_check=True)
    env = MushkaEnv("mistigri", 4, level="game", max_deals=3, opponents="heuristic")
    _, info = env.reset(seed=1)
    done = False
    while not done:
        _, reward, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    result = env.table.steps.game.result
    assert result is not None and reward == result.money[0] and sum(result.money) == 0


@pytest.mark.parametrize("name", ["mushka_classic(players=4)", "mushka_mistigri(players=3)", "mushka_kopilka",
                                  "mushka_classic(players=3,level=game)"])
def test_python_side_queries_equal_what_cpp_gives(name):
    # The state answers these in Python for speed; OpenSpiel's C++ wrapper (what its own
    # tests and algorithms call) must give the very same at every step, for every seat.
    game = pyspiel.load_game(name)
    rng = random.Random(7)
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal() and steps < 400:
        assert state.legal_actions() == pyspiel.State.legal_actions(state)
        assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
        for p in range(game.num_players()):
            assert state.legal_actions(p) == pyspiel.State.legal_actions(state, p)
            if not state.is_chance_node():
                assert state.observation_tensor(p) == pyspiel.State.observation_tensor(state, p)
                assert state.information_state_tensor(p) == pyspiel.State.information_state_tensor(state, p)
        if not state.is_chance_node():
            assert state.observation_tensor() == pyspiel.State.observation_tensor(state)
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    assert steps > 40
    with pytest.raises(ValueError):
        state.observation_tensor(game.num_players())


def test_pettingzoo_observations_are_the_callers_own_arrays():
    # Replay buffers keep observations: writing into one must not reach the env or a later one.
    env = aec_env("classic", 4)
    env.reset(seed=3)
    first = env.observe(env.agent_selection)
    kept = first["observation"].copy()
    first["observation"][:] = 7.0
    first["action_mask"][:] = 1
    again = env.observe(env.agent_selection)
    assert np.array_equal(again["observation"], kept)
    assert again["action_mask"].sum() < len(again["action_mask"])
    assert again["observation"].dtype == np.float32 and again["observation"].flags.writeable
