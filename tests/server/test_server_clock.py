"""P15's chess clock: a time per move and a bank per seat for the whole game, over the API and
the WebSocket, and kept across a restart."""

from __future__ import annotations

import time
from pathlib import Path

from serverkit import Msg, Player, create, running
from starlette.testclient import TestClient

from mushka.server.timer import banks_of_text, banks_text

CALM = {"flush": "none", "privileged_four": "none", "initial_record": 300}
CHOICES = {"turn_choices": (0, 1, 15), "bank_choices": (0, 1, 60, 180)}


def practice(client: TestClient, **body: object) -> tuple[str, str]:
    made = create(client, variant="classic", seats=["me", "bot:random", "bot:random"], start=True,
                  options=CALM, name="Anna", **body)
    return made["table"]["id"], made["tokens"][0]["token"]


def my_clock(me: Player) -> Msg:
    """The clock of my move: in the state, or the first that times my seat."""
    clock: Msg = me.state["clock"]
    if clock["seat"] == me.seat and me.my_turn():
        return clock
    return me.until(lambda m: m["type"] == "clock" and m["seat"] == me.seat)


def test_p15_the_bank_runs_when_the_move_time_is_up_and_is_charged_to_the_seat(tmp_path: Path) -> None:
    with running(tmp_path, **CHOICES) as client:
        table_id, token = practice(client, turn_seconds=1, bank_seconds=60)
        me = Player(client, table_id, token)
        assert me.state["table"]["turn_seconds"] == 1 and me.state["table"]["bank_seconds"] == 60
        view = me.wait_turn()
        clock = my_clock(me)
        # Before anything is spent: every seat's whole bank, and the move's second on top of mine.
        assert clock["bank"] == 60 and clock["banks"] == [60, 60, 60]
        assert 60 < clock["remaining"] <= 61
        time.sleep(1.5)  # the move's own second is gone: half a second comes out of the bank
        me.act(view["deal"]["legal"][0])
        me.until(lambda m: m["type"] == "update" and m["seat"] == 0)
        later = me.until(lambda m: m["type"] == "clock" and m["seat"] != 0)
        assert later["banks"] is not None
        assert 0 < later["banks"][0] < 60, "the time taken from the bank stays taken"
        assert later["banks"][1:] == [60, 60], "the bots' banks are never touched"
        assert all(not s["substitute"] for s in me.state["table"]["seats"])
        me.close()


def test_p15_an_empty_bank_lets_the_bot_play_for_the_seat(tmp_path: Path) -> None:
    with running(tmp_path, bot_delay=0.05, **CHOICES) as client:
        table_id, token = practice(client, turn_seconds=1, bank_seconds=1)
        watcher = Player(client, table_id)
        me = Player(client, table_id, token)
        me.wait_turn()
        clock = my_clock(me)
        assert 1 < clock["remaining"] <= 2 and clock["banks"][0] == 1
        version = me.version
        # Nobody moves: after the second of the move and the second of the bank, a bot plays.
        timed = watcher.until(lambda m: m["type"] == "presence" and m["seats"][0]["substitute"])
        assert timed["seats"][0]["timed_out"] is True
        played = watcher.until(lambda m: m["type"] == "update" and m["seat"] == 0)
        assert played["version"] == version + 1, "exactly one move was made for the seat"
        # The bank is spent for the rest of the game: back at the table, he has the move's second only.
        me.send({"type": "back"})
        me.until(lambda m: m["type"] == "presence" and not m["seats"][0]["substitute"])
        again = me.until(lambda m: m["type"] == "clock" and m["seat"] == 0)
        assert again["banks"][0] == 0 and again["remaining"] <= 1
        me.close()
        watcher.close()


def test_p15_the_banks_left_survive_a_restart(tmp_path: Path) -> None:
    with running(tmp_path, **CHOICES) as client:
        made = create(client, variant="classic", seats=["me", "me", "me"], turn_seconds=1, bank_seconds=60,
                      name="Anna", start=True, options=CALM)
        table_id = made["table"]["id"]
        tokens = [t["token"] for t in made["tokens"]]
        players = [Player(client, table_id, t) for t in tokens]
        first = players[0].view["deal"]["to_act"]
        mover = players[first]
        view = mover.wait_turn()
        time.sleep(1.5)
        mover.act(view["deal"]["legal"][0])
        clock = mover.until(lambda m: m["type"] == "clock" and m["seat"] != first)
        spent = 60 - clock["banks"][first]
        assert spent > 0
        for p in players:
            p.close()
    time.sleep(1.5)  # the server is away longer than a move's own time
    with running(tmp_path, **CHOICES) as client:
        table = client.get(f"/api/tables/{table_id}").json()
        assert table["bank_seconds"] == 60 and table["turn_seconds"] == 1
        player = Player(client, table_id, tokens[0])
        banks = player.state["clock"]["banks"]
        assert banks is not None and len(banks) == 3
        # Stored with the move (a few milliseconds before the clock above charged it).
        assert banks[first] < 60 and abs(banks[first] - (60 - spent)) < 0.1, (
            "the bank taken from is restored as it was left")
        to_act = player.state["clock"]["seat"]
        for seat, bank in enumerate(banks):
            if seat == first:
                continue
            # The one to act has his move's own second gone while the server was away, so his
            # bank runs from now on; the second and a half the server was away is not taken from it.
            assert bank > 59 if seat == to_act else bank == 60, (seat, to_act, banks)
        player.close()


def test_p15_banks_are_offered_and_checked(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    assert meta["limits"]["bank_choices"] == [0, 60, 180, 300]
    chosen = create(client, variant="classic", seats=["me", "open", "bot"], turn_seconds=15, bank_seconds=180)
    assert chosen["table"]["turn_seconds"] == 15 and chosen["table"]["bank_seconds"] == 180
    for body, code in (({"turn_seconds": 15, "bank_seconds": 7}, "bad_bank"),
                       ({"turn_seconds": 0, "bank_seconds": 60}, "bank_without_timer")):
        bad = client.post("/api/tables", json={"variant": "classic", "seats": ["me", "bot", "bot"],
                                               "lang": "ru", **body})
        assert bad.status_code == 400, bad.text
        error = bad.json()["error"]
        assert error["code"] == code and error["rule"] == "P15"
        assert "запас" in error["message"]
    bad = client.post("/api/tables", json={"variant": "classic", "seats": ["me", "bot", "bot"],
                                           "turn_seconds": 15, "bank_seconds": 7})
    assert "60, 180, 300" in bad.json()["error"]["message"]
    tables = client.get("/api/tables").json()
    assert len(tables["tables"]) == 1, "a refused table is not made"


def test_p15_without_a_bank_the_clock_is_as_before(tmp_path: Path) -> None:
    with running(tmp_path, bot_delay=0.05, **CHOICES) as client:
        table_id, token = practice(client, turn_seconds=1)
        watcher = Player(client, table_id)
        me = Player(client, table_id, token)
        assert me.state["table"]["bank_seconds"] == 0
        me.wait_turn()
        clock = my_clock(me)
        assert clock["bank"] == 0 and clock["banks"] is None and 0 < clock["remaining"] <= 1
        timed = watcher.until(lambda m: m["type"] == "presence" and m["seats"][0]["substitute"])
        assert timed["seats"][0]["timed_out"] is True
        me.close()
        watcher.close()


def test_p15_stored_banks_read_back_and_bad_ones_give_whole_banks() -> None:
    assert banks_of_text(banks_text([59.5, 60.0, 0.0]), 3, 60) == [59.5, 60.0, 0.0]
    assert banks_of_text(None, 3, 180) == [180.0] * 3
    assert banks_of_text("[1000,2000]", 3, 60) == [60.0] * 3, "a list of the wrong length is not trusted"
    assert banks_of_text("[999999,-5]", 2, 60) == [60.0, 0.0], "kept within 0 and the table's bank"
