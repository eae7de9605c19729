"""Playing over the WebSocket: a whole deal, refusals, resync, reconnection, spectators,
the bot that stands in for an absent player, restarts and the protocol's limits."""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from serverkit import Msg, Player, create, running
from starlette.testclient import TestClient

from mushka.server import PROTOCOL_VERSION

# No special hand ends these games early (C22, MI13), so that a test's few moves always find a game.
CALM = {"flush": "none", "privileged_four": "none"}


def table_of(client: TestClient, seats: list[str], **body: object) -> tuple[str, list[str]]:
    if body.get("variant") in ("classic", "mistigri"):
        body["options"] = {**CALM, **body.get("options", {})}  # type: ignore[dict-item]
    made = create(client, seats=seats, **body)
    return made["table"]["id"], [t["token"] for t in made["tokens"]]


def test_a_seat_plays_a_whole_deal_against_bots(client: TestClient) -> None:
    table_id, (token,) = table_of(client, ["me", "bot:random", "bot:random", "bot:random"],
                                  variant="classic", start=True)
    me = Player(client, table_id, token)
    assert me.welcome["seat"] == 0 and me.welcome["host"] is True
    assert me.state["table"]["status"] == "playing" and me.view is not None
    assert len(me.view["deal"]["hand"]) == 5
    rng = random.Random(5)
    versions = [me.version]
    seen: list[str] = [e["event"] for e in me.state["log"]]
    acted = -1
    while True:
        if me.my_turn() and acted != me.version:
            acted = me.version
            me.act(rng.choice(me.view["deal"]["legal"]))
        message = me.recv()
        if message["type"] == "error":
            raise AssertionError(message)
        if message["type"] in ("update", "table"):
            versions.append(message["version"])
        if message["type"] == "update":
            seen += [e["event"] for e in message["events"]]
            if "DealEnded" in seen:
                break
    # P7: one version per stored change, no gaps.
    assert versions == list(range(versions[0], versions[0] + len(versions)))
    assert "DealStarted" in seen and seen.index("DealEnded") < len(seen)
    assert me.view["number"] in (1, 2) and me.view["history"], "the finished deal is in the history"
    me.close()


def test_an_illegal_action_is_refused_with_its_rule_and_changes_nothing(client: TestClient) -> None:
    table_id, (token,) = table_of(client, ["me", "bot:random", "bot:random"], variant="classic", start=True)
    me = Player(client, table_id, token, lang="ru")
    view = me.wait_turn()
    deal = view["deal"]
    assert deal["phase"] == "declare"
    card = deal["hand"][0]
    wrong = f"take {card}" if deal["dealer"] != me.seat else f"discard {card}"
    before = (me.version, me.view)
    me.act(wrong)
    error = me.until(lambda m: m["type"] == "error")
    assert error["code"] == "illegal" and error["rule"] in ("C6", "C7")
    assert error["message"].startswith(error["rule"] + ": ") and "нельзя" in error["message"]
    me.act("stand KS KS")
    assert me.until(lambda m: m["type"] == "error")["code"] == "duplicate_cards"
    me.act("dance")
    error = me.until(lambda m: m["type"] == "error")
    # §4: the rule of the phase that asked for an action (C7: declaring), or N2 for a card code.
    assert error["code"] == "bad_action" and error["rule"] in ("C7", "N2") and "dance" in error["message"]
    me.act("stand ZZ")
    error = me.until(lambda m: m["type"] == "error")
    assert error["code"] == "bad_action" and error["rule"] == "N2" and error["message"].startswith("N2: ")
    me.send({"type": "resync", "id": 9})
    state = me.until(lambda m: m["type"] == "state")
    assert state["id"] == 9 and (state["version"], state["view"]) == before
    me.act(deal["legal"][0])
    update = me.until(lambda m: m["type"] == "update")
    assert update["seat"] == me.seat and update["version"] == before[0] + 1
    me.close()


def test_out_of_turn_and_stale_actions_are_refused(client: TestClient) -> None:
    table_id, tokens = table_of(client, ["me", "me", "me"], variant="classic", start=True)
    players = [Player(client, table_id, t) for t in tokens]
    to_act = players[0].view["deal"]["to_act"]
    idle = players[(to_act + 1) % 3]
    idle.act("pass")
    error = idle.until(lambda m: m["type"] == "error")
    assert error["code"] == "out_of_turn" and error["rule"] == "C7"
    actor = players[to_act]
    actor.send({"type": "act", "action": "pass", "version": actor.version - 1})
    error = actor.until(lambda m: m["type"] == "error")
    assert error["code"] == "stale" and error["rule"] == "P9"
    actor.send({"type": "act", "action": actor.view["deal"]["legal"][-1], "version": actor.version})
    assert actor.until(lambda m: m["type"] == "update")["seat"] == to_act
    for p in players:
        p.close()


def test_p7_a_client_that_misses_a_message_resyncs_to_the_current_state(client: TestClient) -> None:
    # Every seat is driven from here, so nothing moves unless the test acts.
    table_id, tokens = table_of(client, ["me", "me", "me"], variant="classic", start=True)
    players = [Player(client, table_id, t) for t in tokens]
    watcher = Player(client, table_id)
    steady = Player(client, table_id)  # a spectator that misses nothing

    def step() -> None:
        view = players[0].view
        actor = players[view["deal"]["to_act"]]
        actor.act(actor.view["deal"]["legal"][-1])
        for p in [*players, steady]:
            p.until(lambda m: m["type"] == "update")

    step()
    assert watcher.until(lambda m: m["type"] == "update")["version"] == watcher.version
    last = watcher.version
    step()
    lost = watcher.recv_raw()  # this update never reaches the client's logic
    assert lost["type"] == "websocket.send"
    step()
    arrived = watcher.until(lambda m: m["type"] == "update")
    assert arrived["version"] == last + 2, "the client sees a gap of one version"
    # P7: a ping tells the current version too, so a client can see that it is behind.
    watcher.send({"type": "ping", "id": 2})
    assert watcher.until(lambda m: m["type"] == "pong") == {"type": "pong", "version": arrived["version"], "id": 2}
    watcher.send({"type": "resync", "id": 3})
    state = watcher.until(lambda m: m["type"] == "state")
    assert state["id"] == 3 and state["version"] == arrived["version"] == players[0].version
    assert state["view"] == steady.view and state["ply"] == 3
    step()
    assert watcher.until(lambda m: m["type"] == "update")["version"] == state["version"] + 1
    assert watcher.view == steady.view


def test_a_player_comes_back_to_the_same_seat(client: TestClient) -> None:
    table_id, (token,) = table_of(client, ["me", "bot:random", "bot:random"], variant="mistigri", start=True)
    first = Player(client, table_id, token)
    view = first.wait_turn()
    first.close()
    again = Player(client, table_id, token, lang="ru")
    assert again.welcome["seat"] == 0 and again.state["view"] == view
    assert again.state["table"]["seats"][0]["connected"] is True
    assert all(any(ch in e["text"] for ch in "абвгдеёжзийклмнопрстуфхцчшщыьэюя") for e in again.state["log"])
    again.act(view["deal"]["legal"][0])
    assert again.until(lambda m: m["type"] == "update")["seat"] == 0
    again.close()


def test_p4_a_wrong_token_is_refused_and_the_connection_closed(client: TestClient) -> None:
    table_id, _ = table_of(client, ["me", "bot", "bot"], variant="classic", start=True)
    intruder = Player(client, table_id, hello=False)
    intruder.send({"type": "hello", "protocol": PROTOCOL_VERSION, "token": "guessed-token-guessed-token"})
    error = intruder.recv()
    assert error["type"] == "error" and error["code"] == "bad_token" and error["rule"] == "P4"
    assert error["fatal"] is True
    assert intruder.closed() == 4401


def test_a_spectator_sees_no_hidden_card_and_cannot_act(client: TestClient) -> None:
    table_id, (token,) = table_of(client, ["me", "bot:random", "bot:random", "bot:random"],
                                  variant="classic", start=True)
    me = Player(client, table_id, token)
    watcher = Player(client, table_id)
    assert watcher.welcome["seat"] is None and watcher.view is not None
    assert watcher.view["deal"]["hand"] == [] and watcher.view["deal"]["legal"] == []
    dealt = next(e for e in watcher.state["log"] if e["event"] == "Dealt")
    assert dealt["data"]["hands"] == [None] * 4
    mine = next(e for e in me.state["log"] if e["event"] == "Dealt")
    assert mine["data"]["hands"][0] == me.view["deal"]["hand"]
    assert watcher.state["table"]["spectators"] == 1
    watcher.act("pass")
    error = watcher.until(lambda m: m["type"] == "error")
    assert error["code"] == "spectator" and error["rule"] == "P5"
    rng = random.Random(3)
    declared = []
    while len(declared) < 4:
        view = me.wait_turn()
        if view["result"] is not None or view["deal"]["phase"] != "declare":
            break
        me.act(rng.choice([a for a in view["deal"]["legal"] if a.startswith("stand ")] or view["deal"]["legal"]))
        update = me.until(lambda m: m["type"] == "update")
        declared += [e for e in update["events"] if e["event"] == "Declared"]
    for message in watcher.received[2:]:
        assert '"discards":["' not in message and '"drawn":["' not in message
    watcher.close()
    me.close()


def playing_until(player: Player, predicate: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Receive until ``predicate`` holds, playing ``player``'s seat whenever it is to act."""
    for _ in range(100_000):
        message = player.recv()
        if predicate(message):
            return message
        if message["type"] in ("state", "update") and player.my_turn():
            assert player.view is not None
            player.act(player.view["deal"]["legal"][0])
    raise AssertionError("the expected message never came")


def pump(player: Player) -> None:
    """Read what waits for ``player`` and play its seat if it is to act."""
    with contextlib.suppress(TimeoutError):
        while True:
            player.recv(timeout=0.05)
    if player.my_turn():
        assert player.view is not None
        player.act(player.view["deal"]["legal"][0])


def turn_beside(player: Player, other: Player) -> Msg:
    """Wait for ``player``'s turn while ``other`` plays his seat; ``player``'s view then."""
    deadline = time.monotonic() + 60
    while not player.my_turn():
        assert time.monotonic() < deadline, "the player's turn never came"
        pump(other)
        with contextlib.suppress(TimeoutError):
            player.recv(timeout=0.2)
    assert player.view is not None
    return player.view


def test_a_bot_plays_for_an_absent_player_and_hands_the_seat_back(tmp_path: Path) -> None:
    # Another person stays at the table: the game goes on for him, a bot in the absent seat.
    with running(tmp_path, grace=0.2, bot_delay=0.02) as client:
        table_id, (token, friend) = table_of(client, ["me", "me", "bot:random"], variant="classic",
                                             start=True, options={"initial_record": 200})
        watcher = Player(client, table_id, friend)
        me = Player(client, table_id, token)
        turn_beside(me, watcher)
        me.close()
        stood_in = playing_until(watcher, lambda m: m["type"] == "presence" and m["seats"][0]["substitute"])
        assert stood_in["seats"][0]["connected"] is False
        acted = playing_until(watcher, lambda m: m["type"] == "update" and m["seat"] == 0)
        assert acted["events"], "the substitute bot acted for seat 0"
        back = Player(client, table_id, token)
        assert back.state["table"]["seats"][0]["substitute"] is False
        returned = playing_until(watcher, lambda m: m["type"] == "presence" and m["seats"][0]["connected"])
        view = turn_beside(back, watcher)
        assert view is not None
        back.act(view["deal"]["legal"][0])
        update = back.until(lambda m: m["type"] == "update" and m["seat"] == 0)
        assert update["events"][0]["data"].get("seat") == 0
        assert returned["seats"][0]["substitute"] is False
        back.close()
        watcher.close()


def test_a_restart_loses_no_game(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        table_id, (token,) = table_of(client, ["me", "bot:random", "bot:random", "bot:random"],
                                      variant="kopilka", start=True)
        waiting_id, _ = table_of(client, ["me", "open", "bot", "bot"], variant="kopilka")
        me = Player(client, table_id, token)
        rng = random.Random(11)
        for _ in range(6):
            view = me.wait_turn()
            me.act(rng.choice(view["deal"]["legal"]))
            me.until(lambda m: m["type"] == "update" and m["seat"] == 0)
        view = me.wait_turn()
        version, ply, log = me.version, me.ply, me.state
        me.close()
    with running(tmp_path) as client:
        health = client.get("/api/health").json()
        assert health["tables"] == 2 and health["playing"] == 1
        again = Player(client, table_id, token)
        assert again.state["version"] == version and again.state["ply"] == ply
        assert again.state["view"] == view
        assert log["table"]["id"] == again.state["table"]["id"]
        again.act(view["deal"]["legal"][0])
        update = again.until(lambda m: m["type"] == "update")
        assert update["version"] == version + 1 and update["ply"] == ply + 1
        joined = client.post(f"/api/tables/{waiting_id}/join", json={"name": "Late"})
        assert joined.status_code == 200 and joined.json()["token"]["seat"] == 1
        again.close()


def test_bots_go_on_playing_after_a_restart(tmp_path: Path) -> None:
    with running(tmp_path, bot_delay=0.01) as client:
        table_id, _ = table_of(client, ["bot:random"] * 4, variant="classic", start=True,
                               options={"initial_record": 500})
        watcher = Player(client, table_id)
        watcher.until(lambda m: m["type"] == "update" and m["ply"] >= 5)
        watcher.close()
    with running(tmp_path, bot_delay=0.01) as client:
        watcher = Player(client, table_id)
        start = watcher.version
        update = watcher.until(lambda m: m["type"] == "update")
        assert update["version"] == start + 1 and update["seat"] is not None
        watcher.close()


BAD_MESSAGES: list[tuple[str, str, str]] = [
    ("x" * 5000, "too_large", "P1"),
    ("{nope", "not_json", "P1"),
    ("[1, 2]", "not_object", "P1"),
    ('{"type": "fly"}', "unknown_type", "P2"),
    ('{"action": "pass"}', "unknown_type", "P2"),
    ('{"type": "act"}', "bad_message", "P2"),
    ('{"type": "act", "action": "pass", "seat": 2}', "bad_message", "P2"),
    ('{"type": "act", "action": 7}', "bad_message", "P2"),
    ('{"type": "hello", "protocol": 1}', "hello_again", "P3"),
]


def test_bad_messages_get_clear_errors_and_change_nothing(client: TestClient) -> None:
    table_id, (token,) = table_of(client, ["me", "bot", "bot"], variant="classic", start=True)
    me = Player(client, table_id, token)
    me.wait_turn()
    version, view = me.version, me.view
    for text, code, rule in BAD_MESSAGES:
        me.send_raw(text)
        error = me.until(lambda m: m["type"] == "error")
        assert (error["code"], error["rule"]) == (code, rule), text
        assert error["message"].startswith(rule + ": ") and not error["fatal"]
    me.ws.send_bytes(b'{"type": "ping"}')
    assert me.until(lambda m: m["type"] == "error")["code"] == "not_json"
    me.send({"type": "act", "action": 42})
    problem = me.until(lambda m: m["type"] == "error")["message"]
    assert "action" in problem
    me.send({"type": "resync"})
    state = me.until(lambda m: m["type"] == "state")
    assert state["version"] == version and state["view"] == view
    me.close()


def test_p3_hello_comes_first_and_speaks_this_protocol(client: TestClient) -> None:
    table_id, _ = table_of(client, ["me", "bot", "bot"], variant="classic", start=True)
    early = Player(client, table_id, hello=False)
    early.send({"type": "ping"})
    error = early.recv()
    assert error["code"] == "hello_first" and error["rule"] == "P3"
    early.send({"type": "hello", "protocol": 1, "lang": "ru"})  # the first version, before updates were changes
    error = early.recv()
    assert error["code"] == "protocol" and error["fatal"] and "протокол" in error["message"]
    assert early.closed() == 4400
    lost = Player(client, "no-such-table", hello=False)
    error = lost.recv()
    assert error["code"] == "no_table" and error["rule"] == "P12"
    assert lost.closed() == 4404


def test_p6_connections_are_rate_limited(tmp_path: Path) -> None:
    with running(tmp_path, rate=0.01, burst=4, strikes=3) as client:
        table_id, _ = table_of(client, ["me", "bot", "bot"], variant="classic")
        watcher = Player(client, table_id)  # the hello took one message of the burst
        replies = []
        for n in range(3):
            watcher.send({"type": "ping", "id": n})
            replies.append(watcher.until(lambda m: m["type"] in ("pong", "error")))
        assert [r["type"] for r in replies] == ["pong", "pong", "pong"]
        watcher.send({"type": "ping", "id": 3})
        error = watcher.until(lambda m: m["type"] == "error")
        assert error["code"] == "rate_limited" and error["rule"] == "P6" and error["id"] is None
        assert not error["fatal"]
        watcher.send({"type": "ping"})
        watcher.send({"type": "ping"})
        final = watcher.until(lambda m: m["type"] == "error" and m["fatal"])
        assert final["code"] == "rate_limited"
        assert watcher.closed() == 4429


def test_p8_the_host_fills_seats_and_starts(client: TestClient) -> None:
    made = create(client, variant="classic", players=4, seats=["me", "open", "open", "open"], name="Host",
                  options=CALM)
    table_id = made["table"]["id"]
    host = Player(client, table_id, made["tokens"][0]["token"])
    joined = client.post(f"/api/tables/{table_id}/join", json={"name": "Guest"}).json()
    guest = Player(client, table_id, joined["token"]["token"])
    assert host.until(lambda m: m["type"] == "table")["table"]["seats"][1]["name"] == "Guest"
    guest.send({"type": "start"})
    error = guest.until(lambda m: m["type"] == "error")
    assert error["code"] == "not_host" and error["rule"] == "P8"
    host.send({"type": "set_seat", "seat": 1, "bot": "random"})
    assert host.until(lambda m: m["type"] == "error")["code"] == "seat_taken"
    host.send({"type": "set_seat", "seat": 2, "bot": "nobody"})
    assert host.until(lambda m: m["type"] == "error")["code"] == "bad_bot"
    host.send({"type": "set_seat", "seat": 2, "bot": "random"})
    changed = host.until(lambda m: m["type"] == "table")
    assert changed["table"]["seats"][2] == {**changed["table"]["seats"][2], "kind": "bot", "bot": "random"}
    guest.send({"type": "leave"})
    assert guest.until(lambda m: m["type"] == "welcome")["seat"] is None
    left = host.until(lambda m: m["type"] == "table")
    assert left["table"]["seats"][1]["kind"] == "open"
    host.send({"type": "leave"})
    assert host.until(lambda m: m["type"] == "error")["code"] == "host_leaves"
    host.send({"type": "start", "fill": "random"})
    table = host.until(lambda m: m["type"] == "table")["table"]
    assert table["status"] == "playing"
    assert [s["kind"] for s in table["seats"]] == ["human", "bot", "bot", "bot"]
    start = host.until(lambda m: m["type"] == "update")
    assert start["seat"] is None and start["ply"] == 0 and start["events"][0]["event"] == "DealStarted"
    host.send({"type": "start"})
    assert host.until(lambda m: m["type"] == "error")["code"] == "not_waiting"
    host.close()
    guest.close()


def test_switching_language_resends_the_state(client: TestClient) -> None:
    table_id, (token,) = table_of(client, ["me", "bot", "bot"], variant="kopilka" if False else "classic",
                                  start=True)
    me = Player(client, table_id, token)
    me.send({"type": "lang", "lang": "ru", "id": 4})
    state: Msg = me.until(lambda m: m["type"] == "state")
    assert state["id"] == 4 and state["table"]["variant_title"] == "Обычная мушка"
    me.send({"type": "ping", "id": 5})
    assert me.until(lambda m: m["type"] == "pong")["id"] == 5
    me.close()


@pytest.mark.parametrize("variant", ["classic", "mistigri", "kopilka"])
def test_every_variant_starts_and_plays(client: TestClient, variant: str) -> None:
    table_id, (token,) = table_of(client, ["me", "bot:random", "bot:random", "bot:random"], variant=variant,
                                  start=True)
    me = Player(client, table_id, token)
    rng = random.Random(variant)
    for _ in range(3):
        view = me.wait_turn()
        if view["result"] is not None:
            break
        me.act(rng.choice(view["deal"]["legal"]))
        assert me.until(lambda m: m["type"] in ("update", "error"))["type"] == "update"
    assert me.view["deal"]["variant"] == variant
    me.close()


def test_c22_a_game_won_by_the_first_deal_ends_the_table_at_once(client: TestClient,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from mushka.match import new_game
    from mushka.rules import make_rules

    # Seat 1 (the eldest) is dealt four hearts and the A♠: C22, the мушка is won before anybody acts.
    hearts = ["AS", "7H", "8H", "9H", "TH"]
    rest = [c.code for c in make_rules("classic", 3).deck_cards if c.code not in hearts]
    deck = [hearts[k // 3] if k % 3 == 0 and k < 15 else rest.pop(0) for k in range(32)]
    monkeypatch.setattr("mushka.server.table.actor.new_game",
                        lambda rules, rng: new_game(rules, first_dealer=0, decks=[deck]))
    made = create(client, seats=["me", "bot", "bot"], variant="classic", start=True)  # C22 as by default
    table_id, token = made["table"]["id"], made["tokens"][0]["token"]
    me = Player(client, table_id, token)
    assert me.state["table"]["status"] == "over"
    assert me.view["result"]["winner"] == 1 and me.view["result"]["ended_by_mushka"] is True
    shown = next(e for e in me.state["log"] if e["event"] == "Shown")
    assert shown["data"]["cards"] == hearts
    assert client.get(f"/api/records/{table_id}").status_code == 200
    me.close()


def test_updates_carry_only_what_changed_and_name_the_players(client: TestClient,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from mushka.match import new_game

    # Seat 2 deals, so seat 0 is the eldest and declares first: his declaration cannot end the
    # deal (C7, C9, C10), and only then are the records and history unchanged by it.
    monkeypatch.setattr("mushka.server.table.actor.new_game",
                        lambda rules, rng: new_game(rules, rng=rng, first_dealer=2))
    table_id, (token,) = table_of(client, ["me", "bot:random", "bot:random"], variant="classic", start=True,
                                  name="Anna")
    me = Player(client, table_id, token)
    view = me.wait_turn()
    me.act(view["deal"]["legal"][0])
    update = me.until(lambda m: m["type"] == "update" and m["seat"] == 0)
    changed = update["view"]
    # The records and the history did not change with one declaration, so they are not sent again.
    assert "records" not in changed and "history" not in changed and "deal" in changed
    assert set(changed["deal"]) < set(me.view["deal"])
    mine = update["events"][0]
    assert mine["data"]["seat"] == 0 and mine["text"].startswith("Anna ")
    me.until(lambda m: m["type"] == "update" and m["seat"] in (1, 2))
    texts = [e["text"] for m in map(json.loads, me.received) for e in m.get("events", m.get("log", []))]
    assert any(t.startswith(("Glasha · plays at random ", "Mitya · plays at random ")) for t in texts)
    assert not any(t.startswith("Seat ") for t in texts)  # every seat of the table has a name
    assert len(json.dumps(changed)) < len(json.dumps(me.view)) / 2
    me.close()
