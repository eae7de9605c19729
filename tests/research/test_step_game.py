"""A whole partie or session step by step (mushka.game_steps.StepGame)."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from mushka.game_steps import StepGame, game_utility_bounds, max_game_length
from mushka.match import Partie, Session
from mushka.rules import make_rules


def play(rules, seed, max_deals):
    rng = random.Random(seed)
    state = StepGame(rules, max_deals=max_deals)
    decisions = 0
    while not state.is_over():
        if state.is_chance():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            state.apply_chance(outcomes[rng.randrange(len(outcomes))][0])
        else:
            ids = state.legal_action_ids()
            assert ids
            if rng.random() < 0.03:
                again = pickle.loads(pickle.dumps(state))
                assert again.history == state.history and again.legal_action_ids() == ids
                assert copy.deepcopy(state).observation(0) == state.observation(0)
            hash(state.info_state_key(decisions % rules.players))
            state.apply_id(ids[rng.randrange(len(ids))])
            decisions += 1
    return state, decisions


@pytest.mark.parametrize(("variant", "players"), [("classic", 3), ("mistigri", 4), ("kopilka", 4)])
def test_c20_k23_a_stepped_game_replays_like_a_game_with_forced_decks(variant, players):
    rules = make_rules(variant, players)
    low, high = game_utility_bounds(rules, 6)
    for seed in range(6):
        state, decisions = play(rules, seed, 6)
        money = state.returns()
        assert sum(money) == 0
        assert all(low <= m <= high for m in money)
        assert decisions <= max_game_length(rules, 6)
        game = state.game
        cls, extra = (Partie, {"max_deals": 6}) if rules.has_trumps else (Session, {})
        again = cls(rules, first_dealer=game.first_dealer, decks=[d.deck for d in game.finished],
                    picks=[d.picks for d in game.finished], **extra)
        for deal in game.finished:
            for action in deal.actions:
                again.apply(action)
        assert again.result == game.result


def test_c4_the_first_dealer_is_a_chance_step():
    rules = make_rules("classic", 4)
    state = StepGame(rules)
    assert state.chance_outcomes() == [(s, 0.25) for s in range(4)]
    state.apply_chance(2)
    assert state.step_deal.dealer == 2
