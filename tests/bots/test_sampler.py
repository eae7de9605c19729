"""The world sampler never contradicts what the seat has seen.

Each sampled world is checked here independently of the sampler: it is
replayed step by step from its own stacked deck and chance outcomes, every
void the public history shows (C14 in classic and mistigri; K11 draws and
passes in kopilka, K12 remiz passes) is looked up in the world's hands at that
very moment, and the events the seat would have seen in the world are
compared with the ones it did see.
"""

from __future__ import annotations

import random

import pytest
from botkit import TABLES, positions, replay_checking_voids, rules_of, table_id

from mushka.bots.policy import bit_list
from mushka.bots.sampler import WorldSampler
from mushka.cards import SUIT_MASKS
from mushka.engine import new_deal
from mushka.worlds.fill import assign


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_sampled_worlds_respect_voids_and_everything_seen(table):
    rules = rules_of(table)
    rng = random.Random(1)
    voids = worlds = 0
    for deal in positions(rules, deals=40, seed=31, every=0.35):
        seat = deal.to_act
        view = deal.view(seat)
        sampler = WorldSampler(view, believe=rng.random() < 0.5, records=())
        for _ in range(2):
            world = sampler.sample(rng)
            assert world is not None, "no world found"
            assert world.to_act == seat and world.phase == deal.phase
            assert world.talon_size == deal.talon_size
            assert [h.bit_count() for h in world.hands] == [h.bit_count() for h in deal.hands]
            voids += replay_checking_voids(deal, world, seat)
            worlds += 1
    assert worlds > 100
    assert voids > 20


@pytest.mark.parametrize("table", [("classic", 4), ("mistigri", 4), ("kopilka", 4)], ids=table_id)
def test_the_sampler_finds_worlds_in_every_position(table):
    rules = rules_of(table)
    rng = random.Random(2)
    found = total = 0
    for deal in positions(rules, deals=60, seed=41, every=0.5):
        total += 1
        found += WorldSampler(deal.view(deal.to_act)).sample(rng) is not None
    assert found == total


def test_k7_owner_worlds_give_each_taker_one_of_his_cards():
    rules = rules_of(("kopilka", 4))
    rng = random.Random(3)
    seen = 0
    for deal in positions(rules, deals=200, seed=51, every=0.2):
        seat = deal.to_act
        view = deal.view(seat)
        taken = [e for e in view.events if type(e).__name__ == "GroupSettled" and e.owner == seat]
        if not taken:
            continue
        world = WorldSampler(view).sample(rng)
        assert world is not None
        mine = {c.index for c in taken[0].taken}
        # K7: the world's picks for this group are exactly the cards the owner saw leave.
        world_taken = {e.card.index for e in world.events(omniscient=True)
                       if type(e).__name__ == "CardTaken" and e.owner == seat}
        assert world_taken == mine
        seen += 1
        if seen >= 15:
            break
    assert seen >= 15


def test_assign_respects_bans_caps_and_demands():
    rng = random.Random(4)
    cards = list(range(13)) + list(range(13, 23))  # 13 spades, 10 clubs
    spades = SUIT_MASKS[0]
    everything = (1 << 52) - 1
    bins = [(5, everything & ~spades, -1), (10, everything, 0), (8, everything, -1)]
    for _ in range(50):
        out = assign(cards, bins, rng, caps=[[8, 13, 13, 13]], musts=[([2], 1, 2)])
        assert out is not None
        assert [m.bit_count() for m in out] == [5, 10, 8]
        assert not out[0] & spades
        assert (out[1] & spades).bit_count() <= 8
        assert (out[2] & SUIT_MASKS[1]).bit_count() >= 2
        assert sorted(bit_list(out[0] | out[1] | out[2])) == cards


def test_assign_reports_an_impossible_filling():
    rng = random.Random(5)
    only_spades = SUIT_MASKS[0]
    assert assign([13, 14], [(2, only_spades, -1)], rng) is None


def test_a_spectator_view_cannot_be_sampled():
    deal = new_deal(rules_of(("classic", 4)), 0, rng=1)
    with pytest.raises(ValueError, match="spectator"):
        WorldSampler(deal.view(None))


HOUSE_RULES = [
    ("kopilka", 4, {"redistribution": "old"}),  # K8
    ("kopilka", 4, {"renege": "forbid"}),  # K12
    ("kopilka", 4, {"remiz": 0}),  # K12: a pass without a remiz shows nothing then
    ("classic", 4, {"must_head_trick": True}),  # C14, Loo style
    ("classic", 4, {"must_overtrump": True}),
    ("classic", 4, {"lone_player": "dealer_must_play"}),  # C10
    ("mistigri", 4, {"flush": "none", "privileged_four": "none"}),
    ("classic", 4, {"privileged_beats_trumps": True, "can_discard_privileged": False}),  # C12, MI5
    ("classic", 5, {"dealer_takes_turnup": False, "max_exchange": 3}),  # C6, C8
    ("mistigri", 4, {"privileged_free_play": False}),
]


@pytest.mark.parametrize(("variant", "players", "options"), HOUSE_RULES,
                         ids=[f"{v}-{'-'.join(o)}" for v, _, o in HOUSE_RULES])
def test_the_sampler_follows_house_rules(variant, players, options):
    from mushka import make_rules

    rules = make_rules(variant, players, **options)
    rng = random.Random(6)
    worlds = 0
    for deal in positions(rules, deals=12, seed=61, every=0.3):
        seat = deal.to_act
        world = WorldSampler(deal.view(seat)).sample(rng)
        assert world is not None
        replay_checking_voids(deal, world, seat)
        worlds += 1
    assert worlds > 20


@pytest.mark.slow
@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_many_more_sampled_worlds_respect_everything_seen(table):
    rules = rules_of(table)
    rng = random.Random(9)
    worlds = 0
    for deal in positions(rules, deals=250, seed=99, every=0.25):
        seat = deal.to_act
        world = WorldSampler(deal.view(seat)).sample(rng)
        assert world is not None
        replay_checking_voids(deal, world, seat)
        worlds += 1
    assert worlds > 500


@pytest.mark.parametrize("variant", ["classic", "mistigri"])
def test_the_belief_makes_the_true_deal_likelier_than_uniform_worlds(variant):
    """C6-C8, C13-C15: against players of the rules of thumb, their actions say something about their cards."""
    import math
    import statistics

    from mushka.bots.belief import BELIEF
    from mushka.bots.inference import log_ratio, self_play_positions

    rows = self_play_positions(variant, 4, range(2), worlds=20)
    assert len(rows) > 10
    ratios = [log_ratio(pos, BELIEF, plays=True) for pos in rows]
    assert all(math.isfinite(r) for r in ratios)
    assert statistics.mean(ratios) > 0.5
