"""§4 as properties over random legal playouts of every variant and table size."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from propkit import (
    allowed_cards,
    assert_conserved,
    assert_views_hide_what_they_must,
    cards_in,
    deal_for,
    play_out,
    snapshot,
    tables,
)

from mushka import new_game
from mushka.engine import Action
from mushka.engine.actions import DISCARDS, DRAW, PASS, PLAYS, TAKES, stand_mask
from mushka.errors import IllegalActionError, MushkaError
from mushka.records import Record, record_of_deal, record_of_game, replay

SEEDS = st.integers(0, 2**32 - 1)
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOWER = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def bound(deal):
    """Actions a deal can take at most: declarations and five tricks, or kopilka's
    discards (12 at most), and its tricks and take-backs (K19)."""
    n = deal.n
    if deal.rules.variant == "kopilka":
        return 12 + 32 * 4 + 17 * 4 * 4
    return n + 1 + 5 * n


@FAST
@given(rules=tables(), seed=SEEDS)
def test_cards_conserved_legal_actions_non_empty_every_deal_ends(rules, seed):
    deal = deal_for(rules, seed)
    assert_conserved(deal)
    steps = play_out(deal, random.Random(seed), limit=bound(deal), each=assert_conserved)
    assert deal.result is not None and deal.legal_actions() == ()
    assert steps == len(deal.actions)


@FAST
@given(rules=tables(), seed=SEEDS)
def test_kopilka_money_is_conserved_and_results_agree(rules, seed):
    deal = deal_for(rules, seed)
    start = deal.initial_state

    def money(d):
        if rules.variant == "kopilka":
            assert d.pot + sum(d.balances) == 0  # K24
            assert d.pot >= 0

    play_out(deal, random.Random(seed), each=money)
    result = deal.result
    if rules.variant == "kopilka":
        assert sum(result.money) + (result.pot - start["pot"]) == 0
        assert [b - s for b, s in zip(deal.balances, start["balances"], strict=True)] == list(result.money)
        paid = [0] * 4
        for e in deal.events(None):
            if e.name == "Paid":
                paid[e.seat] -= e.amount
        assert paid == list(result.money)
        assert result.tricks == tuple(sum(1 for t in result.trick_log if t.winner == s) for s in range(4))
    else:
        assert sum(result.side) == 0
        assert sum(result.tricks) in (0, 5)
        for s in range(deal.n):
            if not result.standing[s]:
                assert result.record_delta[s] == 0 and result.tricks[s] == 0


@SLOWER
@given(rules=tables(), seed=SEEDS)
def test_partie_and_session_money_and_records(rules, seed):
    game = new_game(rules, rng=seed, **({} if rules.variant == "kopilka" else {"max_deals": 12}))
    rng = random.Random(seed)

    def check(g):
        if rules.variant == "kopilka":
            assert sum(g.money) + g.current_pot == 0
        else:
            assert sum(g.money) == 0

    play_out(game, rng, each=check, limit=5000)
    result = game.result
    assert sum(result.money) == 0
    if rules.variant == "kopilka":
        # K23: the settlement pays out exactly the pot left after game 4.
        assert sum(result.settlement) == game.finished[-1].result.pot
        assert all(p >= 0 for p in result.settlement)
        assert game.current_pot == 0 and len(game.finished) == 4
        assert result.money == tuple(game.balances)
    else:
        assert sum(result.settlement) == 0
        records = [rules.initial_record] * rules.players
        for d in game.finished:
            if d.result.mushka is None:
                records = [r + x for r, x in zip(records, d.result.record_delta, strict=True)]
        assert list(result.records) == records == game.records
        assert list(result.side) == [sum(d.result.side[s] for d in game.finished) for s in range(rules.players)]
        if not result.truncated and not result.ended_by_mushka:
            assert min(records) <= 0


@FAST
@given(rules=tables(), seed=SEEDS)
def test_replaying_the_record_of_a_deal_reproduces_every_state(rules, seed):
    deal = deal_for(rules, seed)
    rng = random.Random(seed)
    states = [snapshot(deal)]
    play_out(deal, rng, each=lambda d: states.append(snapshot(d)))
    text = record_of_deal(deal).dumps()
    record = Record.loads(text)
    assert record.dumps() == text
    again = replay(record)
    assert snapshot(again) == states[-1]
    # Step by step from the stacked deck and the chance outcomes.
    from mushka import new_deal
    step = new_deal(rules, deal.dealer, deck=deal.deck, picks=deal.picks, **deal.initial_state)
    assert snapshot(step) == states[0]
    for i, action in enumerate(deal.actions, 1):
        step.apply(Action.parse(str(action)))
        assert snapshot(step) == states[i]


@SLOWER
@given(rules=tables(), seed=SEEDS)
def test_replaying_the_record_of_a_game_reproduces_it(rules, seed):
    game = new_game(rules, rng=seed, **({} if rules.variant == "kopilka" else {"max_deals": 6}))
    play_out(game, random.Random(seed), limit=5000)
    if game.result.truncated:
        return  # the safety limit is not a rule: such a partie has no end to replay
    record = Record.loads(record_of_game(game, seats=[f"p{i}" for i in range(rules.players)]).dumps())
    again = replay(record)
    assert again.result == game.result
    assert [d.result for d in again.finished] == [d.result for d in game.finished]
    assert snapshot(again) == snapshot(game)


@FAST
@given(rules=tables(), seed=SEEDS)
def test_no_view_holds_a_hidden_card(rules, seed):
    deal = deal_for(rules, seed)
    rng = random.Random(seed)
    assert_views_hide_what_they_must(deal)
    while not deal.is_over:
        deal.apply(rng.choice(list(deal.legal_actions())))
        if rng.random() < 0.4 or deal.is_over:
            assert_views_hide_what_they_must(deal)


@SLOWER
@given(rules=tables(), seed=SEEDS)
def test_no_game_view_holds_a_hidden_card(rules, seed):
    game = new_game(rules, rng=seed, **({} if rules.variant == "kopilka" else {"max_deals": 4}))
    rng = random.Random(seed)
    while not game.is_over:
        if rng.random() < 0.15:
            for seat in [*range(rules.players), None]:
                view = game.view(seat)
                assert not cards_in(view.deal) - allowed_cards(game.deal, seat)
                for past, result in zip(game.finished, view.history, strict=True):
                    assert not cards_in(result) - allowed_cards(past, None)
                assert not cards_in(view.events)
        game.apply(rng.choice(list(game.legal_actions())))


@FAST
@given(rules=tables(), seed=SEEDS, data=st.data())
def test_a_refused_action_changes_nothing(rules, seed, data):
    deal = deal_for(rules, seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(0, 30)):
        if deal.is_over:
            break
        deal.apply(rng.choice(list(deal.legal_actions())))
    before = snapshot(deal)
    legal = set(deal.legal_actions())
    pool = [PASS, DRAW, *PLAYS, *TAKES, *DISCARDS,
            *(stand_mask(m) for m in data.draw(st.lists(st.integers(0, (1 << 52) - 1), max_size=5)))]
    for action in data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=20)):
        seat = data.draw(st.none() | st.integers(-2, rules.players + 1))
        if action in legal and (seat is None or seat == deal.to_act):
            continue
        try:
            deal.apply(action, seat)
        except IllegalActionError as err:
            assert str(err)
        except MushkaError:
            raise AssertionError("an illegal action must raise IllegalActionError") from None
        else:
            raise AssertionError(f"{action} by {seat} was accepted")
        assert snapshot(deal) == before


@FAST
@given(rules=tables(), seed=SEEDS)
def test_copy_is_independent_of_the_original(rules, seed):
    original = deal_for(rules, seed)
    twin = deal_for(rules, seed)
    rng = random.Random(seed)
    script: list[Action] = []
    for _ in range(rng.randrange(0, 25)):
        if original.is_over:
            break
        action = rng.choice(list(original.legal_actions()))
        script.append(action)
        original.apply(action)
        twin.apply(action)
    copy = original.copy()
    before = snapshot(original)
    assert snapshot(copy) == before
    play_out(copy, random.Random(seed + 1))
    assert snapshot(original) == before
    tail = random.Random(seed + 2)
    while not original.is_over:
        action = tail.choice(list(original.legal_actions()))
        original.apply(action)
        twin.apply(action)
    assert snapshot(original) == snapshot(twin)


@FAST
@given(rules=tables(), seed=SEEDS)
def test_fast_path_and_checked_path_reach_identical_states(rules, seed):
    fast = deal_for(rules, seed, record_events=False)
    checked = deal_for(rules, seed)
    rng = random.Random(seed)
    while not checked.is_over:
        legal = list(checked.legal_actions())
        assert list(fast.legal_actions()) == legal
        assert list(checked.view(checked.to_act).legal) == legal
        action = rng.choice(legal)
        fast.apply_unchecked(action)
        checked.apply(action)
    assert fast.is_over
    assert snapshot(fast) == snapshot(checked)


@SLOWER
@given(rules=tables(), seed=SEEDS)
def test_games_fast_and_checked_paths_agree(rules, seed):
    kwargs = {} if rules.variant == "kopilka" else {"max_deals": 5}
    fast = new_game(rules, rng=seed, record_events=False, **kwargs)
    checked = new_game(rules, rng=seed, **kwargs)
    rng = random.Random(seed)
    while not checked.is_over:
        legal = list(checked.legal_actions())
        assert list(fast.legal_actions()) == legal
        action = rng.choice(legal)
        fast.apply_unchecked(action)
        checked.apply(action)
    assert fast.result == checked.result


@FAST
@given(rules=tables(), seed=SEEDS)
def test_every_legal_action_round_trips_through_its_text(rules, seed):
    deal = deal_for(rules, seed)
    rng = random.Random(seed)
    while not deal.is_over:
        legal = list(deal.legal_actions())
        for action in legal:
            assert Action.parse(str(action)) == action
            assert eval(repr(action), {"Action": Action}) == action
        deal.apply(rng.choice(legal))


@SLOWER
@given(rules=tables(), seed=SEEDS)
def test_game_copy_is_independent_of_the_original(rules, seed):
    kwargs = {} if rules.variant == "kopilka" else {"max_deals": 4}
    original = new_game(rules, rng=seed, **kwargs)
    twin = new_game(rules, rng=seed, **kwargs)
    rng = random.Random(seed)
    for _ in range(rng.randrange(0, 60)):
        if original.is_over:
            break
        action = rng.choice(list(original.legal_actions()))
        original.apply(action)
        twin.apply(action)
    copy = original.copy()
    before = snapshot(original)
    play_out(copy, random.Random(seed + 1), limit=5000)
    assert snapshot(original) == before
    tail = random.Random(seed + 2)
    while not original.is_over:
        action = tail.choice(list(original.legal_actions()))
        original.apply(action)
        twin.apply(action)
    assert snapshot(original) == snapshot(twin) and original.result == twin.result
