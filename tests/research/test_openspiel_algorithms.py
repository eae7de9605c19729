"""OpenSpiel's own Python code on mushka: its games sim test and the MCCFR solvers."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import external_sampling_mccfr, outcome_sampling_mccfr  # noqa: E402
from open_spiel.python.tests import games_sim_test  # noqa: E402  (the module: its TestCase is not ours to collect)

import mushka.research.openspiel  # noqa: E402,F401  (registers the games)


@pytest.mark.parametrize(("name", "params"), [("mushka_classic", {"players": 3}), ("mushka_mistigri", {"players": 3}),
                                              ("mushka_kopilka", {})])
def test_openspiel_python_games_sim_test(name, params):
    # open_spiel 2.0.2 ships python/tests/games_sim_test.py: its sim_game plays a game with
    # clones, pyspiel and pickle serialization, utilities in bounds and empty legal sets at the end.
    game = pyspiel.load_game(name, params)
    games_sim_test.GamesSimTest("sim_game").sim_game(game)


@pytest.mark.slow
@pytest.mark.parametrize("solver", [outcome_sampling_mccfr.OutcomeSamplingSolver,
                                    external_sampling_mccfr.ExternalSamplingSolver])
def test_openspiel_mccfr_learns_a_policy_over_legal_ids(solver):
    game = pyspiel.load_game("mushka_classic", {"players": 3})
    mccfr = solver(game)
    for _ in range(3):
        mccfr.iteration()
    policy = mccfr.average_policy()
    infostates = mccfr._infostates
    assert len(infostates) > 20  # information sets visited along the sampled deals
    rng = random.Random(5)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        probs = policy.action_probabilities(state)
        assert set(probs) == set(state.legal_actions())
        assert sum(probs.values()) == pytest.approx(1.0)
        checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 5
