"""The tutorial deal: its stacked deck and scripted bots show each main rule once."""

from __future__ import annotations

import random
from pathlib import Path

from serverkit import Player, running

from mushka.engine.events import Declared, PlayStarted, TookTurnup, TrickTaken
from mushka.match import new_game
from mushka.server.tutorial import (
    BOT_SCRIPTS,
    DEALER,
    PLAYER_SCRIPT,
    ScriptBot,
    tutorial_deck,
    tutorial_rules,
)


def play_script() -> tuple[list[object], list[int]]:
    """The tutorial deal played by its scripts: the events and the records after it."""
    rules = tutorial_rules()
    game = new_game(rules, first_dealer=DEALER, decks=[tutorial_deck(rules)], rng=3)
    bots = {s: ScriptBot(script) for s, script in BOT_SCRIPTS.items()}
    mine = list(PLAYER_SCRIPT)
    events: list[object] = []
    while not game.finished:
        seat = game.to_act
        view = game.view(seat)
        if seat == 0:
            want = sorted(mine.pop(0).split())
            action = next(a for a in view.deal.legal if sorted(str(a).split()) == want)
        else:
            action = bots[seat].choose(view, random.Random(0))
        events += game.apply(action, seat)
    assert not mine, "the player's script was not used up"
    return events, list(game.records)


def test_the_script_holds_and_shows_each_rule_once() -> None:
    events, records = play_script()
    # C5: the turned-up 9♦; C6: the dealer takes it; C7: one pass, one exchange of two.
    took = [e for e in events if isinstance(e, TookTurnup)]
    assert [(e.seat, e.card.code) for e in took] == [(DEALER, "9D")]
    declared = [e for e in events if isinstance(e, Declared)]
    assert [(e.seat, e.stand, e.count) for e in declared] == [(0, True, 2), (1, False, 0), (2, True, 0), (3, True, 0)]
    started = next(e for e in events if isinstance(e, PlayStarted))
    assert started.leader == 0  # C13: the eldest standing player leads
    tricks = [e for e in events if isinstance(e, TrickTaken)]
    assert [e.seat for e in tricks] == [3, 0, 3, 0, 0]
    # C14: the dealer, void in hearts, trumps the first trick; the player trumps the second.
    assert dict(tricks[0].cards)[3].code == "9D" and dict(tricks[1].cards)[0].code == "TD"
    # C11, C12: the A♠ takes the fourth trick, of clubs.
    assert tricks[3].privileged and dict(tricks[3].cards)[0].code == "AS"
    # C16-C18: 30 less a point a trick; seat 2 stood, took nothing: ремиз of 5; seat 1 passed.
    assert records == [27, 30, 35, 28]


def test_script_bot_is_the_same_when_asked_twice() -> None:
    rules = tutorial_rules()
    game = new_game(rules, first_dealer=DEALER, decks=[tutorial_deck(rules)], rng=3)
    game.apply("stand 6C 7C", 0)
    bot = ScriptBot(BOT_SCRIPTS[1])
    view = game.view(1)
    assert str(bot.choose(view, random.Random(1))) == str(bot.choose(view, random.Random(2))) == "pass"


def test_tutorial_table_over_the_api(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        reply = client.post("/api/tutorial", json={"name": "Anna", "lang": "ru"})
        assert reply.status_code == 201, reply.text
        made = reply.json()
        table = made["table"]
        assert table["status"] == "playing" and table["players"] == 4
        me = Player(client, table["id"], made["tokens"][0]["token"])
        assert me.seat == 0
        for move in PLAYER_SCRIPT:
            view = me.wait_turn()
            assert view["deal"]["dealer"] == DEALER
            me.act(move)
            me.until(lambda m: m["type"] == "update" and m["seat"] == 0)
        # The bots finish the deal; the records are those of the script (C16-C18).
        while not (me.view and me.view["history"]):
            me.recv()
        assert me.view["records"] == [27, 30, 35, 28], me.view["history"]
