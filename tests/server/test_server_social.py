"""The table's social side: the turn timer and its bot (P15), the chat (P16) and the
suggested move (P17) over the WebSocket."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from serverkit import Msg, Player, create, running
from starlette.testclient import TestClient

CALM = {"flush": "none", "privileged_four": "none", "initial_record": 300}


def practice(client: TestClient, **body: object) -> tuple[str, str]:
    made = create(client, variant="classic", seats=["me", "bot:random", "bot:random"], start=True,
                  options=CALM, name="Anna", **body)
    return made["table"]["id"], made["tokens"][0]["token"]


# --- P15: the turn timer ---------------------------------------------------------------------


def test_p15_a_timed_out_seat_is_played_by_a_bot_and_handed_back(tmp_path: Path) -> None:
    with running(tmp_path, turn_choices=(0, 1), bot_delay=0.05) as client:
        table_id, token = practice(client, turn_seconds=1)
        watcher = Player(client, table_id)
        me = Player(client, table_id, token)
        assert me.state["table"]["turn_seconds"] == 1
        me.wait_turn()
        # The clock of my move is in the state or comes right after, counted by the server.
        clock = me.state["clock"] if me.state["clock"]["seat"] == 0 else me.until(
            lambda m: m["type"] == "clock" and m["seat"] == 0)
        assert 0 < clock["remaining"] <= 1 and clock["deadline"]
        version = me.version
        # Nobody moves: when the second is up a bot plays for seat 0, and everybody is told.
        timed = watcher.until(lambda m: m["type"] == "presence" and m["seats"][0]["substitute"])
        assert timed["seats"][0]["timed_out"] is True and timed["seats"][0]["connected"] is True
        played = watcher.until(lambda m: m["type"] == "update" and m["seat"] == 0)
        assert played["version"] == version + 1, "exactly one move was made for the seat"
        # The player takes the seat back; the bot stops, and his next move is timed again.
        me.send({"type": "back"})
        back = me.until(lambda m: m["type"] == "presence" and not m["seats"][0]["substitute"])
        assert back["seats"][0]["timed_out"] is False
        view = me.wait_turn()
        if not me.over():
            me.act(view["deal"]["legal"][0])
            mine = me.until(lambda m: m["type"] == "update" and m["seat"] == 0)
            assert mine["version"] == me.version
        me.close()
        watcher.close()


def test_p15_a_move_in_time_stops_the_clock_and_no_bot_moves_twice(tmp_path: Path) -> None:
    with running(tmp_path, turn_choices=(0, 2), bot_delay=0.0) as client:
        table_id, token = practice(client, turn_seconds=2)
        me = Player(client, table_id, token)
        view = me.wait_turn()
        before = me.version
        me.act(view["deal"]["legal"][0])
        update = me.until(lambda m: m["type"] == "update" and m["seat"] == 0)
        assert update["version"] == before + 1
        stopped = me.until(lambda m: m["type"] == "clock" and m["seat"] != 0)
        assert stopped["seat"] is None or stopped["remaining"] > 1.5
        me.close()
        watcher = Player(client, table_id)
        assert all(not s["substitute"] for s in watcher.state["table"]["seats"])
        watcher.close()


def test_p15_the_timer_is_off_for_practice_and_on_for_friends_and_checked(client: TestClient) -> None:
    solo = create(client, variant="classic", seats=["me", "bot", "bot"])
    assert solo["table"]["turn_seconds"] == 0
    friends = create(client, variant="classic", seats=["me", "open", "bot"])
    assert friends["table"]["turn_seconds"] == 60
    chosen = create(client, variant="classic", seats=["me", "open", "bot"], turn_seconds=15)
    assert chosen["table"]["turn_seconds"] == 15
    bad = client.post("/api/tables", json={"variant": "classic", "seats": ["me", "bot", "bot"], "turn_seconds": 7})
    assert bad.status_code == 400
    assert bad.json()["error"]["code"] == "bad_timer" and bad.json()["error"]["rule"] == "P15"
    assert "15" in bad.json()["error"]["message"]
    meta = client.get("/api/meta").json()
    assert meta["limits"]["turn_choices"] == [0, 15, 30, 60, 120]


def test_p15_back_without_a_bot_is_refused(client: TestClient) -> None:
    table_id, token = practice(client)
    me = Player(client, table_id, token)
    me.send({"type": "back", "id": 3})
    error = me.until(lambda m: m["type"] == "error")
    assert error["code"] == "not_substituted" and error["rule"] == "P15" and error["id"] == 3
    me.close()


def test_p15_the_timer_is_kept_across_a_restart(tmp_path: Path) -> None:
    with running(tmp_path, turn_choices=(0, 30)) as client:
        made = create(client, variant="classic", seats=["me", "me", "me"], turn_seconds=30, name="Anna",
                      start=True, options=CALM)
        table_id = made["table"]["id"]
        tokens = [t["token"] for t in made["tokens"]]
    with running(tmp_path, turn_choices=(0, 30)) as client:
        table = client.get(f"/api/tables/{table_id}").json()
        assert table["turn_seconds"] == 30 and table["status"] == "playing"
        player = Player(client, table_id, tokens[0])
        clock = player.state["clock"]
        # Every seat is a person's: the one to act has a fresh deadline of the table's time.
        assert clock["seconds"] == 30 and clock["seat"] == player.view["deal"]["to_act"]
        assert 25 < clock["remaining"] <= 30
        player.close()


# --- P16: chat ----------------------------------------------------------------------------------


def chat_lines(player: Player, count: int) -> list[Msg]:
    return [player.until(lambda m: m["type"] == "chat") for _ in range(count)]


def test_p16_chat_text_arrives_as_plain_text_unchanged(client: TestClient) -> None:
    table_id, token = practice(client)
    me = Player(client, table_id, token)
    watcher = Player(client, table_id)
    hostile = '<script>alert("x")</script> &amp; <b>bold</b>'
    me.send({"type": "chat", "text": hostile})
    for receiver in (me, watcher):
        line = receiver.until(lambda m: m["type"] == "chat")
        # The server neither runs nor rewrites markup: it is text, for the page to show as text.
        assert line["text"] == hostile and line["channel"] == "players"
        assert line["seat"] == 0 and line["name"] == "Anna"
    me.send({"type": "chat", "text": "  two\u0000 words\u202e\n  "})
    assert me.until(lambda m: m["type"] == "chat")["text"] == "two words"
    me.close()
    watcher.close()


@pytest.mark.parametrize(("message", "code"), [
    ({"type": "chat", "text": "x" * 201}, "chat_too_long"),
    ({"type": "chat", "text": " \u0007 "}, "chat_empty"),
    ({"type": "chat", "phrase": "insult"}, "chat_phrase"),
    ({"type": "chat"}, "chat_one"),
    ({"type": "chat", "text": "hi", "phrase": "hello"}, "chat_one"),
])
def test_p16_hostile_chat_lines_are_refused_naming_the_rule(client: TestClient, message: Msg, code: str) -> None:
    table_id, token = practice(client)
    me = Player(client, table_id, token, lang="ru")
    me.send(message)
    error = me.until(lambda m: m["type"] in ("error", "chat"))
    assert error["type"] == "error" and error["code"] == code and error["rule"] == "P16"
    assert error["message"].startswith("P16: ") and any("а" <= ch <= "я" for ch in error["message"])
    me.close()


def test_p16_quick_phrases_are_read_in_each_receivers_language(client: TestClient) -> None:
    table_id, token = practice(client)
    me = Player(client, table_id, token, lang="en")
    russian = Player(client, table_id, lang="ru")
    me.send({"type": "chat", "phrase": "good_game"})
    assert me.until(lambda m: m["type"] == "chat")["text"] == "Good game!"
    line = russian.until(lambda m: m["type"] == "chat")
    assert line["text"] == "Хорошая игра!" and line["phrase"] == "good_game"
    me.close()
    russian.close()


def test_p16_chat_is_rate_limited_per_connection_and_per_address(tmp_path: Path) -> None:
    with running(tmp_path, chat_rate=0.01, chat_burst=3) as client:
        table_id, token = practice(client)
        me = Player(client, table_id, token)
        for n in range(3):
            me.send({"type": "chat", "text": f"line {n}"})
        me.send({"type": "chat", "text": "one too many"})
        got = [me.until(lambda m: m["type"] in ("chat", "error")) for _ in range(4)]
        assert [m["type"] for m in got] == ["chat", "chat", "chat", "error"]
        assert got[3]["code"] == "chat_rate" and got[3]["rule"] == "P16"
        me.close()
    with running(tmp_path, chat_address_rate=0.01, chat_address_burst=2) as client:
        table_id, token = practice(client)
        first, second = Player(client, table_id, token), Player(client, table_id)
        first.send({"type": "chat", "text": "a"})
        second.send({"type": "chat", "text": "b"})
        first.send({"type": "chat", "text": "c"})  # the address's budget is shared by both
        error = first.until(lambda m: m["type"] == "error")
        assert error["code"] == "chat_rate"
        first.close()
        second.close()


def test_p16_spectators_talk_apart_unless_a_player_listens(client: TestClient) -> None:
    table_id, token = practice(client)
    me = Player(client, table_id, token)
    fan = Player(client, table_id)
    other = Player(client, table_id)
    fan.send({"type": "chat", "text": "go Anna"})
    for spectator in (fan, other):
        line = spectator.until(lambda m: m["type"] == "chat")
        assert line["channel"] == "spectators" and line["seat"] is None and line["name"] == "Spectator 1"
    me.send({"type": "chat", "phrase": "thanks"})
    mine = me.until(lambda m: m["type"] == "chat")
    assert mine["channel"] == "players", "the player never heard the spectator"
    assert fan.until(lambda m: m["type"] == "chat")["text"] == "Thanks!", "spectators hear the players"
    me.send({"type": "listen", "spectators": True})
    before = me.until(lambda m: m["type"] == "chat")
    assert before["text"] == "go Anna" and before["past"] is True, "B7: what they said before comes first"
    fan.send({"type": "chat", "text": "now you hear me"})
    assert me.until(lambda m: m["type"] == "chat")["text"] == "now you hear me"
    # A newcomer gets the recent lines he may hear, marked as past.
    late = Player(client, table_id, token)
    past = chat_lines(late, 1)[0]
    assert past["past"] is True and past["channel"] == "players" and past["text"] == "Thanks!"
    for p in (me, fan, other, late):
        p.close()


# --- P17: suggest a move ---------------------------------------------------------------------------


def test_p17_a_hint_at_a_practice_table_names_a_legal_move_and_why(client: TestClient) -> None:
    table_id, token = practice(client)
    for lang in ("en", "ru"):
        me = Player(client, table_id, token, lang=lang)
        view = me.wait_turn()
        me.send({"type": "hint", "id": 9})
        hint = me.until(lambda m: m["type"] in ("hint", "error"))
        assert hint["type"] == "hint" and hint["id"] == 9, hint
        assert hint["action"] in view["deal"]["legal"] and hint["version"] == me.version
        assert hint["reason"] and hint["words"]
        if lang == "ru":
            assert any("а" <= ch <= "я" for ch in hint["reason"])
        me.close()


def test_p17_no_hint_where_other_people_play_or_out_of_turn(client: TestClient) -> None:
    made = create(client, variant="classic", seats=["me", "me", "bot:random"], start=True, options=CALM)
    table_id = made["table"]["id"]
    one, two = (Player(client, table_id, t["token"]) for t in made["tokens"])
    one.send({"type": "hint"})
    error = one.until(lambda m: m["type"] == "error")
    assert error["code"] == "hint_humans" and error["rule"] == "P17"
    one.close()
    two.close()
    table_id, token = practice(client)
    me = Player(client, table_id, token)
    spectator = Player(client, table_id)
    spectator.send({"type": "hint"})
    assert spectator.until(lambda m: m["type"] == "error")["code"] == "spectator"
    me.close()
    spectator.close()


# --- ratings and the default opponent ---------------------------------------------------------------


def play_out(player: Player) -> None:
    deadline = time.monotonic() + 120
    while not player.over():
        assert time.monotonic() < deadline, "the game did not end"
        view = player.wait_turn()
        if player.over():
            break
        player.act(view["deal"]["legal"][0])
        player.until(lambda m: m["type"] == "update" and m["seat"] == player.seat)


def test_a_finished_game_moves_the_board_and_a_restart_rebuilds_it(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        made = create(client, variant="classic", seats=["me", "bot:random", "bot:random"], start=True,
                      name="Anna", options={"initial_record": 10, "flush": "none", "privileged_four": "none"})
        me = Player(client, made["table"]["id"], made["tokens"][0]["token"])
        play_out(me)
        result = me.view["result"] if me.view else None
        assert result is not None
        me.close()
        board = client.get("/api/ratings", params={"name": "anna"}).json()
        assert board["games"] == 1
        you = board["you"]
        assert you["name"] == "Anna" and you["games"] == 1 and you["wins"] == (result["winner"] == 0)
        assert you["classic_games"] == 1 and you["classic_record"] == result["records"][0]
        assert you["money"] == result["money"][0]
        (bot,) = board["bots"]
        assert bot["name"] == "random" and bot["games"] == 2
        # Rated by the finishing order (the winner, then by money): the library's own
        # Plackett-Luce update of three fresh ratings in that order gives Anna's rating.
        from openskill.models import PlackettLuce

        money = result["money"]
        places = sorted({(0 if result["winner"] == s else 1, -money[s]) for s in range(3)})
        ranks = [float(places.index((0 if result["winner"] == s else 1, -money[s])) + 1) for s in range(3)]
        model = PlackettLuce()
        # The two bots are one level: it takes the mean of its two seats' updates.
        rated = model.rate([[model.rating()] for _ in range(3)], ranks=ranks)
        expected = rated[0][0]
        # Shown on the familiar scale: 1500 for a newcomer, 48 points per unit of μ.
        shown = round(1500 + (expected.mu - 25) * 48)
        assert you["rating"] == shown and you["ratings"]["classic"] == {"rating": shown, "games": 1,
                                                                         "provisional": True}
        assert you["provisional"] is True and you["variant_games"] == 1 and you["forfeits"] == 0
        assert bot["rating"] == round(1500 + ((rated[1][0].mu + rated[2][0].mu) / 2 - 25) * 48)
        # A winner rises, a player alone in last place falls (a middle place can go either way).
        if result["winner"] == 0:
            assert you["rating"] > 1500
        elif ranks[0] == max(ranks) and ranks.count(ranks[0]) == 1:
            assert you["rating"] < 1500
        # The other variants' boards do not list a game of classic.
        assert client.get("/api/ratings", params={"variant": "kopilka"}).json()["players"] == []
        bad = client.get("/api/ratings", params={"variant": "poker"})
        assert bad.status_code == 400 and bad.json()["error"]["rule"] == "P2"
    with running(tmp_path) as client:
        again = client.get("/api/ratings", params={"name": "ANNA"}).json()
        assert again["games"] == 1 and again["you"] == you


def test_meta_describes_every_level_offered_in_both_languages(client: TestClient) -> None:
    from mushka.bots import describe_levels

    meta = client.get("/api/meta").json()
    offered = [lv for lv in describe_levels("en") if lv["id"] in meta["bots"]]
    assert [lv["id"] for lv in meta["levels"]] == [lv["id"] for lv in offered] and offered
    by_id = {lv["id"]: lv for lv in describe_levels("ru")}
    for got, en in zip(meta["levels"], offered, strict=True):
        assert (got["name_en"], got["blurb_en"]) == (en["name"], en["blurb"])
        assert (got["name_ru"], got["blurb_ru"]) == (by_id[en["id"]]["name"], by_id[en["id"]]["blurb"])
        assert got["blurb_en"] != got["blurb_ru"]


def test_the_default_opponent_is_the_strongest_fair_level(client: TestClient) -> None:
    from mushka.bots import LEVELS, strongest_bot

    meta = client.get("/api/meta").json()
    strongest = next(lv.id for lv in LEVELS if lv.spec == strongest_bot())
    assert meta["default_bot"] == strongest
    made = create(client, variant="classic", seats=["me", "bot", "bot"])
    assert {s["bot"] for s in made["table"]["seats"][1:]} == {strongest}
