"""The HTTP API: health, meta, tables, joining, records, static files, limits (P1, P2, P6, P8, P10-P12)."""

from __future__ import annotations

from pathlib import Path

from serverkit import Player, create, running
from starlette.testclient import TestClient

from mushka.bots import strongest_level
from mushka.engine import new_deal
from mushka.match import Game
from mushka.records import Record, replay
from mushka.rules import make_rules
from mushka.rules.options import format_value, options_for
from mushka.rules.texts import render_rules
from mushka.server import PROTOCOL_VERSION
from mushka.server.bodies import CreateTableReply, Meta, Replay, RulesReply
from mushka.server.protocol import TableInfo

# No special hand ends these games at the deal (C22, MI13), so that they are surely still playing.
CALM = {"flush": "none", "privileged_four": "none"}


def test_health_reports_the_protocol_and_the_database(client: TestClient) -> None:
    reply = client.get("/api/health")
    assert reply.status_code == 200
    body = reply.json()
    assert body["status"] == "ok" and body["protocol"] == PROTOCOL_VERSION and body["database"] is True
    assert body["tables"] == 0


def test_meta_lists_every_variant_with_its_options_and_defaults(client: TestClient) -> None:
    meta = Meta.model_validate(client.get("/api/meta").json())
    assert [v.name for v in meta.variants] == ["classic", "mistigri", "kopilka"]
    for variant in meta.variants:
        expected = {o.name: format_value(o.name, o.default(variant.name)) for o in options_for(variant.name)}
        assert {o.name: o.default for o in variant.options} == expected
        assert all(o.help_en and o.help_ru for o in variant.options)
    kopilka = meta.variants[2]
    assert kopilka.players == [4] and kopilka.privileged == "AS"
    assert "random" in meta.bots and "oracle" not in meta.bots
    assert meta.default_bot == strongest_level() and strongest_level() in meta.bots


def test_create_a_table_against_bots_at_once(client: TestClient) -> None:
    reply = CreateTableReply.model_validate(create(client, variant="мистигри", players=5, start=True,
                                                         options=CALM))
    table = reply.table
    assert table.variant == "mistigri" and table.players == 5 and table.status == "playing"
    assert [s.kind for s in table.seats] == ["human", "bot", "bot", "bot", "bot"]
    assert [t.seat for t in reply.tokens] == [0] and len(reply.tokens[0].token) >= 32
    assert reply.tokens[0].url == f"/?table={table.id}#token={reply.tokens[0].token}"
    assert table.host == 0 and reply.ws == f"/ws/tables/{table.id}?node={reply.node}" and reply.node


def test_create_keeps_options_and_lists_only_the_changed_ones(client: TestClient) -> None:
    reply = create(client, variant="classic", players=3, options={"remiz": 7, "must_overtrump": True,
                                                                   "initial_record": "25"})
    assert reply["table"]["options"] == {"remiz": "7", "must_overtrump": "true", "initial_record": "25"}
    fetched = TableInfo.model_validate(client.get(f"/api/tables/{reply['table']['id']}").json())
    assert fetched.options == reply["table"]["options"] and fetched.status == "waiting"


def test_p10_bad_options_name_the_option_and_its_rule_in_both_languages(client: TestClient) -> None:
    reply = client.post("/api/tables", json={"variant": "classic", "players": 3, "options": {"remiz": "lots"}})
    assert reply.status_code == 400
    error = reply.json()["error"]
    assert error["code"] == "bad_options" and error["rule"] == "C18"
    assert error["message"].startswith("C18: ") and "remiz" in error["message"]
    reply = client.post("/api/tables", json={"variant": "classic", "players": 9, "lang": "ru"})
    error = reply.json()["error"]
    assert reply.status_code == 400 and error["code"] == "bad_players" and error["rule"] == "C1"
    assert "игроков" in error["message"]
    reply = client.post("/api/tables", json={"variant": "poker"})
    assert reply.json()["error"]["code"] == "bad_variant"
    assert client.get("/api/tables").json()["tables"] == []


def test_p10_seat_entries_and_bots_are_checked(client: TestClient) -> None:
    reply = client.post("/api/tables", json={"variant": "classic", "players": 3, "seats": ["me", "bot"]})
    assert reply.status_code == 400 and reply.json()["error"]["code"] == "bad_seats"
    assert "2" in reply.json()["error"]["message"] and "3" in reply.json()["error"]["message"]
    reply = client.post("/api/tables", json={"variant": "classic", "players": 3, "seats": ["me", "robot", "bot"]})
    assert reply.json()["error"]["code"] == "bad_seats" and "robot" in reply.json()["error"]["message"]
    reply = client.post("/api/tables", json={"variant": "classic", "players": 3,
                                             "seats": ["me", "bot:grandmaster", "bot"]})
    error = reply.json()["error"]
    assert error["code"] == "bad_bot" and error["rule"] == "P10" and "random" in error["message"]


def test_p2_bad_bodies_are_refused_naming_the_field(client: TestClient) -> None:
    reply = client.post("/api/tables", content=b"{not json", headers={"content-type": "application/json"})
    assert reply.status_code == 400 and reply.json()["error"]["code"] == "bad_body"
    reply = client.post("/api/tables", json=[1, 2])
    assert reply.status_code == 400 and reply.json()["error"]["code"] == "bad_body"
    reply = client.post("/api/tables", json={"variant": "classic", "colour": "red"})
    assert reply.status_code == 400 and "colour" in reply.json()["error"]["message"]
    reply = client.post("/api/tables", json={"players": "many"}, headers={"accept-language": "ru-RU"})
    assert "players" in reply.json()["error"]["message"] and "поля" in reply.json()["error"]["message"]


def test_p1_an_oversized_body_is_refused(client: TestClient) -> None:
    reply = client.post("/api/tables", json={"variant": "classic", "title": "x" * 40_000})
    assert reply.status_code == 413 and reply.json()["error"]["code"] == "body_too_large"


def test_the_lobby_lists_listed_tables_by_status(client: TestClient) -> None:
    waiting = create(client, variant="classic", players=3, seats=["me", "open", "bot"])
    create(client, variant="classic", players=3, seats=["me", "open", "bot"], listed=False)
    playing = create(client, variant="kopilka", start=True)
    ids = [t["id"] for t in client.get("/api/tables").json()["tables"]]
    assert ids == [playing["table"]["id"], waiting["table"]["id"]]
    only = client.get("/api/tables?status=waiting").json()["tables"]
    assert [t["id"] for t in only] == [waiting["table"]["id"]]
    assert client.get("/api/tables?status=lost").status_code == 400


def test_p8_join_takes_open_seats_until_there_is_none(client: TestClient) -> None:
    made = create(client, variant="classic", players=4, seats=["me", "open", "bot", "open"], name="Ann")
    table_id = made["table"]["id"]
    first = client.post(f"/api/tables/{table_id}/join", json={"name": "  Boris\n "})
    assert first.status_code == 200
    assert first.json()["token"]["seat"] == 1 and first.json()["table"]["seats"][1]["name"] == "Boris"
    taken = client.post(f"/api/tables/{table_id}/join", json={"name": "Vera", "seat": 1})
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "seat_taken"
    second = client.post(f"/api/tables/{table_id}/join", json={"name": "Vera", "seat": 3})
    assert second.json()["token"]["seat"] == 3
    assert second.json()["token"]["token"] != first.json()["token"]["token"]
    none = client.post(f"/api/tables/{table_id}/join", json={})
    assert none.status_code == 409 and none.json()["error"]["code"] == "no_open_seat"
    assert client.post("/api/tables/nosuchtable/join", json={}).status_code == 404
    assert client.get("/api/tables/nosuchtable").json()["error"]["code"] == "no_table"


def test_p8_a_table_without_a_host_starts_when_the_last_seat_is_taken(client: TestClient) -> None:
    made = create(client, variant="classic", players=3, seats=["open", "bot", "open"], options=CALM)
    table_id = made["table"]["id"]
    assert made["tokens"] == [] and made["table"]["host"] is None
    client.post(f"/api/tables/{table_id}/join", json={"name": "A"})
    assert client.get(f"/api/tables/{table_id}").json()["status"] == "waiting"
    client.post(f"/api/tables/{table_id}/join", json={"name": "B"})
    assert client.get(f"/api/tables/{table_id}").json()["status"] == "playing"
    late = client.post(f"/api/tables/{table_id}/join", json={"name": "C"})
    assert late.status_code == 409 and late.json()["error"]["code"] == "not_waiting"


def test_p11_records_are_served_only_after_the_game_and_replay_exactly(client: TestClient) -> None:
    # Bots only, so the game runs to its end by itself; a short partie keeps the test quick.
    made = create(client, variant="classic", players=3, seats=["bot:random"] * 3, start=True,
                  options={"initial_record": 3, "remiz": 0})
    table_id = made["table"]["id"]
    watcher = Player(client, table_id)
    if not watcher.over():
        early = client.get(f"/api/records/{table_id}")
        assert early.status_code in (200, 409)
        if early.status_code == 409:
            assert early.json()["error"]["code"] == "not_over" and early.json()["error"]["rule"] == "P11"
    if watcher.state["table"]["status"] != "over":
        watcher.until(lambda m: m["type"] == "table" and m["table"]["status"] == "over")
    reply = client.get(f"/api/records/{table_id}")
    assert reply.status_code == 200
    record = Record.loads(reply.text)
    game = replay(record)
    assert isinstance(game, Game) and game.is_over
    assert record.result is not None and record.result["game"] == watcher.view["result"]
    assert record.rules() == make_rules("classic", 3, initial_record=3, remiz=0)
    assert record.seats == ("bot random",) * 3
    assert client.get(f"/api/tables/{table_id}/record").text == reply.text
    listed = client.get("/api/records").json()["records"]
    assert [r["id"] for r in listed] == [table_id] and listed[0]["winner"] == game.result.winner
    assert client.get("/api/records/unknown").status_code == 404
    assert client.get("/api/records?limit=0").status_code == 400
    watcher.close()


def test_static_files_are_served_at_the_root_when_present(tmp_path: Path) -> None:
    web = tmp_path / "web"
    web.mkdir()
    (web / "index.html").write_text("<!doctype html><title>Мушка</title>", encoding="utf-8")
    with running(tmp_path, web_dir=web) as client:
        page = client.get("/")
        assert page.status_code == 200 and "Мушка" in page.text
        assert client.get("/api/health").json()["status"] == "ok"
    with running(tmp_path, web_dir=tmp_path / "nothing-here") as client:
        assert client.get("/").json()["api"] == "/api/meta"


def test_p6_creating_tables_is_rate_limited_per_address(tmp_path: Path) -> None:
    with running(tmp_path, http_rate=0.001, http_burst=3) as client:
        codes = [client.post("/api/tables", json={"variant": "classic"}).status_code for _ in range(5)]
        assert codes == [201, 201, 201, 429, 429]
        assert client.post("/api/tables", json={}).json()["error"]["code"] == "rate_limited"
        assert client.get("/api/tables").status_code == 200


def test_the_rules_of_a_table_by_id_in_both_languages(client: TestClient) -> None:
    made = create(client, variant="mistigri", players=4, options={"remiz": 7})
    table_id = made["table"]["id"]
    rules = make_rules("mistigri", 4, remiz=7)
    for lang in ("en", "ru"):
        reply = RulesReply.model_validate(client.get(f"/api/tables/{table_id}/rules?lang={lang}").json())
        assert reply.lang == lang and reply.variant == "mistigri"
        expected = render_rules(rules, lang)
        assert [r.id for r in reply.rules] == [r.id for r in expected]
        assert [r.text for r in reply.rules] == [r.text for r in expected]
        by_id = {r.id: r for r in reply.rules}
        # The table's own options are in the texts: a remiz of 7, changed from the default.
        assert "7" in by_id["C18"].text and by_id["C18"].changed and "remiz" in by_id["C18"].options
        assert "MI6" in by_id and by_id["C18"].modified_by
    assert client.get("/api/tables/nosuchtable/rules").status_code == 404


def test_p11_a_replay_is_served_after_the_game_with_the_engine_positions(client: TestClient) -> None:
    made = create(client, variant="kopilka", seats=["bot:random"] * 4, start=True, name="Bots")
    table_id = made["table"]["id"]
    watcher = Player(client, table_id)
    if not watcher.over():
        early = client.get(f"/api/records/{table_id}/replay")
        assert early.status_code in (200, 409)
        if early.status_code == 409:
            assert early.json()["error"]["rule"] == "P11"
    if watcher.state["table"]["status"] != "over":
        watcher.until(lambda m: m["type"] == "table" and m["table"]["status"] == "over")
    watcher.close()
    record = Record.loads(client.get(f"/api/records/{table_id}").text)
    replays = {lang: Replay.model_validate(client.get(f"/api/records/{table_id}/replay?lang={lang}").json())
               for lang in ("en", "ru")}
    replayed = replays["en"]
    assert replayed.seats == list(record.seats) and replayed.result == record.result["game"]
    rules = record.rules()
    assert len(replayed.deals) == len(record.deals) == 4
    assert record.result is not None
    for deal, recorded, result in zip(replayed.deals, record.deals, record.result["deals"], strict=True):
        engine = new_deal(rules, recorded.dealer, deck=recorded.deck, picks=recorded.picks)
        assert len(deal.steps) == len(recorded.actions) + 1
        for k, step in enumerate(deal.steps):
            if k:
                engine.apply(recorded.actions[k - 1])
                assert step.action == str(recorded.actions[k - 1])
            assert step.hands == [[c.code for c in engine.hand(s)] for s in range(4)]
            assert step.deal["talon_size"] == engine.talon_size and step.texts
        # The money depends on the session around the deal (K22): the record's own result says it.
        assert engine.result is not None and deal.result == result
        assert result["tricks"] == list(engine.result.tricks)
    # K3: the antes open the first game; sentences in the language asked for, with the seats' names.
    opening = {lang: r.deals[0].steps[0].texts for lang, r in replays.items()}
    assert opening["en"][0] == "bot random pays 10 into the pot (ante)."
    assert opening["en"][4].startswith("Game 1 of 4: bot random deals")
    assert opening["ru"][4].startswith("Игра 1 из 4: сдаёт bot random")
    assert client.get("/api/records/unknown/replay").status_code == 404
