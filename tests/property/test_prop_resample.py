"""The core resampler as a property: from every seat's view of any reachable state, a world it cannot tell apart.

For random reachable states of every variant and table size (with random
house rules), from every seat: the resample succeeds, shows the seat the
same view (its cards, shown cards, voids, passes, exchanged and drawn
counts, kopilka takes: §4, C7-C8, C14, C22, MI9, K7-K16), replays from its
own deck and picks (N4) to a state with the same information-state key, and
depends on nothing but the view (§4: the same seed on two states the seat
cannot tell apart gives the same world).
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from propkit import tables

from mushka.engine import new_deal
from mushka.engine.steps import StepDeal
from mushka.rules import Rules
from mushka.worlds.resample import resample_deal

SEEDS = st.integers(0, 2**32 - 1)
RESAMPLE = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def reachable(rules: Rules, seed: int, stop: int) -> StepDeal:
    """A state reached by uniformly random chance and actions, stopped at a decision (or the end)."""
    rng = random.Random(seed)
    state = StepDeal(rules, seed % rules.players)
    while True:
        if state.is_chance():
            outcomes = state.chance_outcomes()
            state.apply_chance(outcomes[rng.randrange(len(outcomes))][0])
        elif state.is_over() or stop <= 0:
            return state
        else:
            ids = state.legal_action_ids()
            state.apply_id(ids[rng.randrange(len(ids))])
            stop -= 1


@RESAMPLE
@given(tables(), SEEDS, st.integers(0, 80), SEEDS)
def test_n4_k7_c14_every_seat_gets_a_world_it_cannot_tell_apart(rules, seed, stop, sample_seed):
    state = reachable(rules, seed, stop)
    real = state.deal
    assert real is not None
    for seat in range(rules.players):
        world = resample_deal(real, seat, random.Random(sample_seed + seat))
        # Everything the seat saw: its events, hand, public counts, legal moves.
        assert world.events(seat) == real.events(seat)
        assert world.view(seat) == real.view(seat)
        # N4/K7: the world replays from its own deck and picks.
        again = new_deal(rules, real.dealer, deck=world.deck, picks=world.picks, **real.initial_state)
        for action in world.actions:
            again.apply(action)
        assert again.events() == world.events()
        assert StepDeal.from_deal(world).info_state_key(seat) == state.info_state_key(seat)
        # §4: nothing but the view is read: the seat's twin state gives the same world from the same seed.
        a = resample_deal(real, seat, random.Random(sample_seed))
        b = resample_deal(world, seat, random.Random(sample_seed))
        assert (a.deck, a.picks, a.actions) == (b.deck, b.picks, b.actions)
