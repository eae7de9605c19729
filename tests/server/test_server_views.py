"""The views a table sends: built the cheap way, they equal the engine's; updates carry only changes;
event sentences name the players."""

from __future__ import annotations

import json
import random

import pytest

from mushka.cards import Card
from mushka.engine.events import Declared, Played
from mushka.match import DealStarted, new_game
from mushka.rules import make_rules
from mushka.server.seatviews import ViewTracker, apply_changes, full_view
from mushka.server.wire import EventWriter, describe

GAMES = [
    ("classic", 3, {"initial_record": 8}),
    ("classic", 5, {"initial_record": 6, "flush": "side_payment", "must_head_trick": True}),
    ("mistigri", 4, {"initial_record": 8}),
    ("kopilka", 4, {}),
    ("kopilka", 4, {"redistribution": "old", "renege": "forbid"}),
]


@pytest.mark.parametrize(("variant", "players", "options"), GAMES)
def test_the_cheap_views_are_the_engine_views_and_the_changes_rebuild_them(
        variant: str, players: int, options: dict[str, object]) -> None:
    audiences = [None, *range(players)]
    for seed in range(4):
        game = new_game(make_rules(variant, players, **options), rng=seed)
        rng = random.Random(seed)
        tracker = ViewTracker()
        shown = {a: tracker.full(game, a) for a in audiences}
        steps = 0
        while True:
            for a in audiences:
                assert full_view(game, a) == game.view(a).to_json() == shown[a], (seed, steps, a)
            if game.is_over:
                break
            deals = len(game.finished)
            game.apply(rng.choice(list(game.legal_actions())))
            steps += 1
            changes = tracker.changes(game, set(audiences))
            for a in audiences:
                shown[a] = apply_changes(shown[a], changes[a])
                # Finished deals are sent once, when they finish; never the whole history again.
                assert len(changes[a].get("history", [])) == len(game.finished) - deals
        assert steps > 10


def test_an_update_is_far_smaller_than_the_whole_view() -> None:
    game = new_game(make_rules("classic", 4, initial_record=40), rng=3)
    rng = random.Random(3)
    tracker = ViewTracker()
    tracker.full(game, 0)
    sizes = []
    while len(game.finished) < 6:
        game.apply(rng.choice(list(game.legal_actions())))
        changes = tracker.changes(game, {0})
        sizes.append((len(json.dumps(changes[0])), len(json.dumps(game.view(0).to_json()))))
    sent, whole = map(sum, zip(*sizes, strict=True))
    assert sent * 3 < whole


def test_event_sentences_name_the_players_where_the_table_has_names() -> None:
    names = ["Anna", None, "bot random"]
    played = Played(seat=0, card=Card("KH"))
    assert describe(played, "en", names) == "Anna plays K♥."
    assert describe(played, "ru", names).startswith("Anna кладёт")
    # A seat without a name reads as the seat, never as a bare number.
    assert describe(Declared(seat=1, stand=False, count=0), "en", names) == "Seat 1 passes."
    assert describe(Declared(seat=1, stand=False, count=0), "ru", names) == "Игрок 1: пас."
    assert describe(DealStarted(number=2, dealer=2), "en", names) == "Deal 2: bot random deals."
    assert describe(played, "en", None) == played.describe("en") == "Seat 0 plays K♥."


def test_each_receiver_gets_the_events_as_his_seat_saw_them() -> None:
    game = new_game(make_rules("classic", 3), rng=11, first_dealer=0)
    events = [*game.game_events(), *(e for d in game.deals for e in d.events(omniscient=True))]
    writer = EventWriter(events, {lang: ["Anna", "Boris", "Vera"] for lang in ("en", "ru")})
    dealt = {a: next(e for e in json.loads(writer.json(a, "en")) if e["event"] == "Dealt") for a in (None, 0, 1, 2)}
    assert dealt[None]["data"]["hands"] == [None, None, None]
    for seat in range(3):
        hands = dealt[seat]["data"]["hands"]
        assert set(hands[seat]) == {c.code for c in game.deal.hand(seat)}
        assert [h is None for h in hands] == [s != seat for s in range(3)]
    assert dealt[1]["text"].startswith("Anna deals")
    assert json.loads(writer.json(None, "ru"))[0]["text"] == "Сдача 1: сдаёт Anna."
