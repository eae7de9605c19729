"""Worlds drawn seat by seat from the belief (``seatwise``), and the per-seat likelihood behind them.

A seatwise world must respect every hard fact exactly as a uniform one does
(replayed here step by step, C14 voids looked up in the world's hands, the
seat's own events compared); what changes is only which of those worlds
come up: the others' declarations (C6-C8), and with ``believe=2`` their plays
(C13-C15), explained as the rules of thumb would make them.
"""

from __future__ import annotations

import math
import random
import statistics

import pytest
from botkit import positions, replay_checking_voids, rules_of, table_id

from mushka.bots.belief import SELF_PLAY, SELF_PLAY_CARDS, SELF_PLAY_PLAYS, BeliefModel, SeatLikelihood, trump_belief
from mushka.bots.inference import self_play_positions
from mushka.bots.sampler import WorldSampler

TRUMP_TABLES = [("classic", 3), ("classic", 4), ("classic", 7), ("mistigri", 4), ("mistigri", 6)]


@pytest.mark.parametrize("table", TRUMP_TABLES, ids=table_id)
@pytest.mark.parametrize(("believe", "sweeps", "cards"), [(1, 1, False), (1, 2, False), (2, 1, False), (1, 1, True)])
def test_seatwise_worlds_respect_voids_and_everything_seen(table, believe, sweeps, cards):
    """``cards``: the model that weighs which cards each seat threw (C6-C7) as well."""
    rules = rules_of(table)
    rng = random.Random(3)
    worlds = voids = 0
    for deal in positions(rules, deals=6, seed=41, every=0.3):
        seat = deal.to_act
        model = {"model": SELF_PLAY_CARDS} if cards else {}
        sampler = WorldSampler(deal.view(seat), believe=believe, seatwise=sweeps, records=(10,) * rules.players,
                               **model)
        world = sampler.sample(rng)
        assert world is not None
        voids += replay_checking_voids(deal, world, seat)
        worlds += 1
    assert worlds > 30 and voids > 0


@pytest.mark.parametrize("variant", ["classic", "mistigri"])
def test_the_strict_sampler_accepts_every_seatwise_proposal(variant):
    """``strict`` compares every event the seat would have seen: nothing a seat redraws may contradict them."""
    rules = rules_of((variant, 4))
    rng = random.Random(8)
    tried = 0
    for deal in positions(rules, deals=5, seed=13, every=0.3):
        sampler = WorldSampler(deal.view(deal.to_act), believe=2, seatwise=2, strict=True)
        assert len(sampler.samples(rng, 3)) == 3
        tried += 3
    assert sampler.attempts >= 3 and tried > 30


def _rows(variant: str):
    return self_play_positions(variant, 4, range(2), worlds=3)


@pytest.mark.parametrize("variant", ["classic", "mistigri"])
def test_a_worlds_weight_is_the_product_of_its_seats_factors(variant):
    rows = _rows(variant)
    assert len(rows) > 20
    checked = 0
    for pos in rows:
        s = pos.sampler
        like = SeatLikelihood(SELF_PLAY, s.view, s.records, s.trump, True)
        for h0, take_d, start, dead in [pos.truth, *pos.worlds]:
            product = 1.0
            for j in like.players:
                product *= like.declare_factor(j, h0[j], take_d) * like.play_factor(j, start[j], dead[j])
                factor = like.seat_factor(j, h0[j], take_d, start[j], dead[j])
                assert SELF_PLAY.floor <= factor <= 1.0
            weight = like.weight(h0, take_d, start, dead)
            assert weight == pytest.approx(max(product, SELF_PLAY.floor))
            assert weight == pytest.approx(
                trump_belief(SELF_PLAY, s.view, s.records, s.trump, h0, take_d, start, dead, True))
            checked += 1
    assert checked > 50
    assert like.players and like.facts.me not in like.players


@pytest.mark.parametrize("model", [SELF_PLAY, SELF_PLAY_CARDS], ids=["self-play", "with the cards"])
@pytest.mark.parametrize("variant", ["classic", "mistigri"])
def test_seat_accepts_is_exactly_the_comparison_with_the_seat_factor(variant, model):
    """The early stop of ``seat_accepts`` changes no decision: for every seat and world, uniform numbers
    around the factor itself (where a rounding slip would show) and below the floor give the same answer."""
    rows = _rows(variant)
    rng = random.Random(5)
    kept = rejected = 0
    for pos in rows:
        s = pos.sampler
        like = SeatLikelihood(model, s.view, s.records, s.trump, True)
        for h0, take_d, start, dead in [pos.truth, *pos.worlds]:
            for j in like.players:
                factor = like.seat_factor(j, h0[j], take_d, start[j], dead[j])
                for u in (rng.random(), factor, math.nextafter(factor, 0.0), math.nextafter(factor, 1.0),
                          model.floor / 2, model.floor):
                    accepts = like.seat_accepts(j, h0[j], take_d, start[j], dead[j], u)
                    assert accepts == (u < factor), (j, u, factor)
                    kept += accepts
                    rejected += not accepts
    assert kept > 50 and rejected > 50


def _mean_log_factors(rows, **kw) -> tuple[float, float]:
    """The mean log declaration factor and log play factor of the others, over worlds drawn with ``kw``.

    The factors are always those of :data:`SELF_PLAY`, whatever model (``kw``'s ``model``) drew the worlds.
    """
    decl: list[float] = []
    play: list[float] = []
    model = kw.pop("model", SELF_PLAY)
    for k, pos in enumerate(rows):
        s = WorldSampler(pos.sampler.view, records=pos.sampler.records, model=model, **kw)
        like = SeatLikelihood(SELF_PLAY, s.view, s.records, s.trump, True)
        rng = random.Random(k)
        for _ in range(8):
            assert s.sample(rng) is not None
            h0, take_d, start, dead = s.last_belief_args
            decl.append(sum(math.log(like.declare_factor(j, h0[j], take_d)) for j in like.players))
            play.append(sum(math.log(like.play_factor(j, start[j], dead[j])) for j in like.players))
    return statistics.mean(decl), statistics.mean(play)


@pytest.mark.parametrize("variant", ["classic", "mistigri"])
def test_seatwise_worlds_explain_the_declarations_as_rejected_whole_worlds_do(variant):
    """C6-C8: against uniform worlds (about −8 in log weight on these games) both ways of believing gain
    most of the way to certainty; seat by seat, no seat's bad luck sends a whole world back."""
    rows = _rows(variant)
    uniform, _ = _mean_log_factors(rows, believe=0)
    whole, _ = _mean_log_factors(rows, believe=1)
    seatwise, _ = _mean_log_factors(rows, believe=1, seatwise=1)
    assert seatwise > uniform + 4.0
    assert seatwise > whole - 0.5


@pytest.mark.parametrize("variant", ["classic", "mistigri"])
def test_seatwise_worlds_explain_the_plays_too_with_believe_2(variant):
    """C13-C15: with ``believe=2`` the plays' factor (0.3 per departure from the rules of thumb) weighs
    each seat too; it is mild, so the gain is smaller than the declarations'."""
    rows = _rows(variant)
    decl1, play1 = _mean_log_factors(rows, believe=1, seatwise=1)
    decl2, play2 = _mean_log_factors(rows, believe=2, seatwise=1)
    assert play2 > play1 + 0.2
    assert decl2 > decl1 - 0.5  # the declarations still explained


@pytest.mark.parametrize("variant", ["classic", "mistigri"])
def test_the_sharp_plays_factor_draws_worlds_whose_plays_the_rules_of_thumb_explain(variant):
    """C13-C15: with ``other_play`` 0.02 (``belief=3``) instead of 0.3 a seat whose cards the rules of thumb
    would have played otherwise is dealt again far more often, so its worlds depart from the plays less."""
    rows = _rows(variant)
    decl_mild, play_mild = _mean_log_factors(rows, believe=2, seatwise=1)
    decl_sharp, play_sharp = _mean_log_factors(rows, model=SELF_PLAY_PLAYS, believe=2, seatwise=1)
    assert SELF_PLAY_PLAYS.other_play < SELF_PLAY.other_play
    assert play_sharp > play_mild + 0.2
    assert decl_sharp > decl_mild - 0.5  # the declarations still explained


def test_a_seat_no_cards_explain_keeps_its_last_cards():
    """A belief never makes a world impossible: with every factor 0 each seat tries its tries and keeps its last."""
    never = BeliefModel(other_kind=0.0, count_off_one=0.0, count_off_more=0.0, other_play=0.0, floor=0.0)
    rules = rules_of(("classic", 4))
    rng = random.Random(2)
    seen = 0
    for deal in positions(rules, deals=4, seed=5, every=0.3):
        seat = deal.to_act
        sampler = WorldSampler(deal.view(seat), believe=2, seatwise=1, model=never)
        world = sampler.sample(rng)
        assert world is not None
        replay_checking_voids(deal, world, seat)
        seen += 1
    assert seen > 10


def test_the_samplers_likelihood_follows_a_change_of_model():
    """``bench/bots_inference.py`` fits the factors by setting the sampler's model: the weights must follow."""
    from mushka.bots.belief import BELIEF

    rows = _rows("classic")
    changed = 0
    for pos in rows:
        s = pos.sampler
        for args in pos.worlds:
            s.model = BELIEF
            mild = s.belief_weight(*args)
            s.model = SELF_PLAY
            sharp = s.belief_weight(*args)
            assert sharp == pytest.approx(trump_belief(SELF_PLAY, s.view, s.records, s.trump, *args, True))
            assert mild == pytest.approx(trump_belief(BELIEF, s.view, s.records, s.trump, *args, True))
            changed += sharp != mild
    assert changed > 10


@pytest.mark.parametrize("variant", ["classic", "mistigri"])
def test_the_cards_thrown_are_weighed_only_when_they_differ_from_the_rules_choice(variant):
    """C6-C7: the rules of thumb threw the truth's discards, so it loses nothing; worlds keeping other cards do."""
    rows = _rows(variant)
    lowered = same = 0
    for pos in rows:
        s = pos.sampler
        plain = SeatLikelihood(SELF_PLAY, s.view, s.records, s.trump, False)
        cards = SeatLikelihood(SELF_PLAY_CARDS, s.view, s.records, s.trump, False)
        h0, take_d, start, dead = pos.truth
        for j in plain.players:
            assert cards.seat_factor(j, h0[j], take_d, start[j], dead[j]) == pytest.approx(
                plain.seat_factor(j, h0[j], take_d, start[j], dead[j]))
        for h0, take_d, start, dead in pos.worlds:
            for j in plain.players:
                a = plain.declare_factor(j, h0[j], take_d)
                b = cards.seat_factor(j, h0[j], take_d, start[j], dead[j])
                assert b <= max(a, SELF_PLAY.floor) + 1e-12
                if b < a - 1e-12:
                    # Once for the exchange's cards, and again for a dealer who took the turned card for another (C6).
                    c = SELF_PLAY_CARDS.other_cards
                    assert any(b == pytest.approx(max(a * c**k, SELF_PLAY_CARDS.floor)) for k in (1, 2))
                    lowered += 1
                else:
                    same += 1
    assert lowered > 5 and same > 5

