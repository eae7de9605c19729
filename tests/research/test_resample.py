"""The core resampler: deals a seat cannot tell from the real one (C6-C8, C14, C22, MI9)."""

from __future__ import annotations

import random

import pytest

from mushka.engine.resample import resample_deal, resample_steps
from mushka.engine.steps import StepDeal
from mushka.errors import MushkaError
from mushka.rules import make_rules


def partway(rules, seed):
    rng = random.Random(seed)
    state = StepDeal(rules, seed % rules.players)
    stop = rng.randrange(rules.players * 6)
    while not state.is_over() and stop:
        if state.is_chance():
            state.apply_chance(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_id(rng.choice(state.legal_action_ids()))
            stop -= 1
    return state, rng


@pytest.mark.parametrize(("variant", "players"), [("classic", 3), ("classic", 4), ("classic", 6), ("mistigri", 4)])
def test_resampled_deals_look_the_same_to_the_seat(variant, players):
    rules = make_rules(variant, players)
    differs = 0
    for seed in range(60):
        state, rng = partway(rules, seed)
        if state.deal is None:
            continue
        seat = rng.randrange(players)
        other = resample_deal(state.deal, seat, rng)
        assert other.events(seat) == state.deal.events(seat)
        assert other.hand(seat) == state.deal.hand(seat)
        assert [str(a) for a in other.legal_actions()] == [str(a) for a in state.deal.legal_actions()] or (
            other.to_act != seat)
        differs += other.hands != state.deal.hands
        again = resample_steps(state, seat, rng)
        assert again.info_state_key(seat) == state.info_state_key(seat)
    assert differs > 30  # the hidden cards really are drawn again


def test_k7_kopilka_resampling_is_refused_by_name(kopilka):
    state, rng = partway(kopilka, 3)
    with pytest.raises(MushkaError) as err:
        resample_deal(state.deal, 0, rng)
    assert err.value.code == "resample_unsupported"
    assert "копилка" in err.value.message("ru") or "kopilka" in err.value.message("ru")
