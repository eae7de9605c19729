"""§4: every result replays from the stacked deck, the chance outcomes and the actions;
a broken record names the deal, the action and the rule, and replay returns nothing half-built."""

from __future__ import annotations

import json
import random

import pytest
from rulekit import rules, snapshot, stacked_game

from mushka import new_deal, new_game
from mushka.errors import RecordError
from mushka.records import Record, record_of_deal, record_of_game, replay


def round_trip(record):
    return Record.loads(record.dumps())


def test_s4_a_game_ended_by_a_mushka_as_it_was_dealt_replays():
    game = stacked_game(rules("classic", 4), [(0, [None, "AS 7D 8D 9D TD", None, None], "7H", "")])
    assert game.is_over and len(game.finished) == 1 and not game.finished[0].actions
    again = replay(round_trip(record_of_game(game)))
    assert again.result == game.result


def test_s4_a_mushka_dealt_after_earlier_deals_replays():
    r = rules("mistigri", 4)
    flush = [None, None, "KC 7D 8D 9D TD", None]
    game = stacked_game(r, [(0, [None] * 4, "7H", ""), (1, flush, "7H", "")])
    while len(game.finished) < 1:
        game.apply(game.legal_actions()[0])
    assert game.is_over and game.result.ended_by_mushka and len(game.finished) == 2
    again = replay(round_trip(record_of_game(game)))
    assert again.result == game.result and len(again.finished) == 2


def test_s4_a_deal_of_a_kopilka_session_replays_on_its_own():
    game = new_game(rules("kopilka"), rng=5)
    rng = random.Random(2)
    while len(game.finished) < 2:
        game.apply(rng.choice(list(game.legal_actions())))
    second = game.finished[1]
    assert second.initial_state["pot"] != 40
    record = round_trip(record_of_deal(second))
    assert record.deals[0].state == second.initial_state
    again = replay(record)
    assert again.result == second.result
    assert "state" in json.loads(record.dumps())["deals"][0]
    # A deal that starts like game 1 stores no state.
    first = round_trip(record_of_deal(game.finished[0]))
    assert not first.deals[0].state and replay(first).result == game.finished[0].result


def _kopilka_game_with_picks(seed=0):
    for s in range(seed, seed + 200):
        game = new_game(rules("kopilka"), rng=s)
        while not game.is_over:
            game.apply(game.legal_actions()[0])
        if any(d.picks for d in game.finished):
            return game
    raise AssertionError("no redistribution in 200 sessions")


def test_s4_missing_chance_outcomes_are_an_error_naming_the_deal():
    game = _kopilka_game_with_picks()
    data = json.loads(record_of_game(game).dumps())
    number = next(i for i, d in enumerate(data["deals"], 1) if d.get("picks"))
    del data["deals"][number - 1]["picks"]
    with pytest.raises(RecordError) as info:
        replay(Record.loads(json.dumps(data)))
    assert f"deal {number}" in str(info.value)


def test_s4_extra_chance_outcomes_are_an_error_too():
    game = new_game(rules("kopilka"), rng=1)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    data = json.loads(record_of_game(game).dumps())
    number = next((i for i, d in enumerate(data["deals"], 1) if not d.get("picks")), None)
    if number is None:
        pytest.skip("every deal of this session had a redistribution")
    data["deals"][number - 1]["picks"] = "AS"
    with pytest.raises(RecordError) as info:
        replay(Record.loads(json.dumps(data)))
    assert info.value.rule == "N4" and f"deal {number}" in str(info.value)


def test_s4_a_bad_deck_is_reported_against_its_own_deal():
    game = new_game(rules("classic", 3), rng=4)
    while len(game.finished) < 2:
        game.apply(game.legal_actions()[0])
    data = json.loads(record_of_game(game).dumps())
    deck = data["deals"][1]["deck"].split()
    deck[3] = deck[4]
    data["deals"][1]["deck"] = " ".join(deck)
    with pytest.raises(RecordError) as info:
        replay(Record.loads(json.dumps(data)))
    assert info.value.rule == "N4" and "deal 2" in str(info.value) and "twice" in str(info.value)


@pytest.mark.parametrize("name", ["players", "variant"])
def test_s4_table_size_among_the_options_is_refused_not_a_crash(name):
    game = new_game(rules("classic", 3), rng=4)
    data = json.loads(record_of_game(game).dumps())
    data["options"][name] = "4"
    with pytest.raises(RecordError) as info:
        replay(Record.loads(json.dumps(data)))
    assert name in str(info.value)


def test_s4_an_illegal_action_names_the_deal_the_action_and_the_rule():
    deal = new_deal(rules("classic", 4), 0, rng=8)
    deal.apply("pass")
    data = json.loads(record_of_deal(deal).dumps())
    data["deals"][0]["actions"].append("draw")
    with pytest.raises(RecordError) as info:
        replay(Record.loads(json.dumps(data)))
    err = info.value
    assert err.rule == "C7" and "deal 1" in str(err) and "action 2" in str(err) and "draw" in str(err)


def test_s4_an_edited_result_is_caught():
    game = new_game(rules("classic", 3), rng=4)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    data = json.loads(record_of_game(game).dumps())
    data["result"]["game"]["winner"] = (data["result"]["game"]["winner"] + 1) % 3
    with pytest.raises(RecordError, match="disagrees"):
        replay(Record.loads(json.dumps(data)))


def test_s4_a_copy_does_not_share_the_chance_of_the_original():
    r = rules("kopilka")
    tested = 0
    for seed in range(60):
        original = new_deal(r, 0, rng=seed)
        if original.phase.name != "REDISTRIBUTE":
            continue
        twin = new_deal(r, 0, rng=seed)
        copy = original.copy()
        before = snapshot(original)
        while not copy.is_over:
            copy.apply(copy.legal_actions()[-1])
        assert snapshot(original) == before
        for deal in (original, twin):
            while not deal.is_over:
                deal.apply(deal.legal_actions()[0])
        assert original.picks == twin.picks and snapshot(original) == snapshot(twin)
        tested += 1
    assert tested >= 5


def test_s4_views_are_for_seats_of_the_table():
    from mushka.errors import MushkaError
    deal = new_deal(rules("classic", 4), 0, rng=8)
    for seat in (-1, 4, 7):
        with pytest.raises(MushkaError, match="does not exist"):
            deal.view(seat)
    game = new_game(rules("kopilka"), rng=3)
    with pytest.raises(MushkaError, match="does not exist"):
        game.view(-1)


@pytest.mark.parametrize(("variant", "state"), [
    ("classic", {"pot": 0, "balances": []}),
    ("kopilka", {"pot": 2, "balances": [-1, -1]}),
    ("kopilka", {"pot": 1, "balances": [0, 0, 0, 0]}),
    ("kopilka", {"pot": "40", "balances": [-10, -10, -10, -10]}),
    ("kopilka", {"pot": 40}),
    ("kopilka", {"money": 3}),
])
def test_s4_a_bad_starting_state_is_a_record_error(variant, state):
    deal = new_deal(rules(variant, 4), 0, rng=8)
    data = json.loads(record_of_deal(deal).dumps())
    data["deals"][0]["state"] = state
    with pytest.raises(RecordError):
        replay(Record.loads(json.dumps(data)))
