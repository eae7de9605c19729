"""The replay viewer: the server's positions agree with the engine; the page steps through a game."""

from __future__ import annotations

import contextlib
import json
import random
from datetime import UTC, datetime

import pytest
from e2ekit import NO_SPECIAL_HANDS
from playwright.sync_api import expect

from mushka.bots.base import RandomBot, play_game
from mushka.engine import new_deal
from mushka.match import new_game
from mushka.records.format import Record, record_of_game
from mushka.rules import make_rules
from mushka.server.store import SeatSnapshot, TableSnapshot

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("e2e")]

TABLES = [
    ("classic", 3, {"initial_record": 6}),
    ("classic", 4, {"initial_record": 6, "lone_player": "dealer_must_play"}),
    ("classic", 5, {"initial_record": 6, "flush": "side_payment"}),
    ("classic", 7, {"initial_record": 4, **NO_SPECIAL_HANDS}),
    ("mistigri", 4, {"initial_record": 6}),
    ("mistigri", 6, {"initial_record": 5, "must_head_trick": True}),
    ("kopilka", 4, {}),
    ("kopilka", 4, {"redistribution": "old"}),
    ("kopilka", 4, {"renege": "forbid"}),
]

FETCH = """async ([ids]) => {
  const api = await import('./js/api.js');
  const out = [];
  for (const id of ids) out.push(await api.getReplay(id));
  return out;
}"""

SEAT_CARDS = """() => [...document.querySelectorAll('[data-testid^=replay-seat-]')]
  .map((el) => [...el.querySelectorAll('.card')].map((c) => c.dataset.card))"""


def engine_positions(record: Record) -> list[list[list[set[str]]]]:
    """Per deal, every seat's hand after 0, 1, … actions, replayed deal by deal by the engine."""
    rules = record.rules()
    out = []
    for d in record.deals:
        deal = new_deal(rules, d.dealer, deck=d.deck, picks=d.picks)
        steps = [[{c.code for c in deal.hand(s)} for s in range(rules.players)]]
        for action in d.actions:
            deal.apply(action)
            steps.append([{c.code for c in deal.hand(s)} for s in range(rules.players)])
        out.append(steps)
    return out


def store_finished(live_server, record: Record, table_id: str) -> None:
    """Put a finished game in the server's storage, as if it had been played there."""
    now = datetime.now(UTC)
    live_server.store().create(TableSnapshot(
        id=table_id, variant=record.variant, players=record.players, options=dict(record.options),
        status="over", listed=True, host=None, autostart=False, version=1,
        ply=sum(len(d.actions) for d in record.deals),
        seats=tuple(SeatSnapshot(s, "bot", None, "random") for s in range(record.players)),
        created=now, record=record.dumps(indent=None), winner=record.result["game"]["winner"], finished=now,
    ))


def random_records() -> list[Record]:
    records = []
    for i, (variant, players, options) in enumerate(TABLES):
        for seed in range(3):
            rng = random.Random(100 * i + seed)
            game = new_game(make_rules(variant, players, **options), rng=rng.getrandbits(32))
            play_game(game, [RandomBot()] * players, rng)
            records.append(record_of_game(game, seats=[f"p{s}" for s in range(players)]))
    return records


def test_replayed_positions_agree_with_the_engine(open_page, live_server, page_errors):
    records = random_records()
    ids = [f"rp{i}-{random.getrandbits(30)}" for i in range(len(records))]
    for table_id, record in zip(ids, records, strict=True):
        store_finished(live_server, record, table_id)
    page = open_page(live_server.url)
    replays = page.evaluate(FETCH, [ids])
    assert not page_errors
    checked = 0
    for record, replay in zip(records, replays, strict=True):
        expected = engine_positions(record)
        assert len(replay["deals"]) == len(expected) == len(record.deals)
        for number, (deal, steps, recorded, result) in enumerate(
                zip(replay["deals"], expected, record.deals, record.result["deals"], strict=True), 1):
            assert [s["step"] for s in deal["steps"]] == list(range(len(steps))), (record.variant, number)
            for k, (step, hands) in enumerate(zip(deal["steps"], steps, strict=True)):
                assert [set(h) for h in step["hands"]] == hands, f"{record.variant} deal {number} after {k} actions"
                assert step["texts"], "every step says what happened"
                if k:
                    assert step["action"] == str(recorded.actions[k - 1])
                checked += 1
            assert deal["result"] == result
            assert deal["steps"][-1]["deal"]["tricks_won"] == result["tricks"]
        assert replay["result"] == record.result["game"]
    assert checked > 500


def test_the_page_shows_the_engine_positions_step_by_step(open_page, live_server, page_errors):
    rng = random.Random(7)
    game = new_game(make_rules("kopilka", 4), rng=rng.getrandbits(32))
    play_game(game, [RandomBot()] * 4, rng)
    record = record_of_game(game, seats=["Anna", "Boris", "Vera", "Gleb"])
    table_id = f"rpview-{rng.getrandbits(30)}"
    store_finished(live_server, record, table_id)
    expected = engine_positions(record)
    page = open_page(f"{live_server.url}?replay={table_id}")
    caption = page.locator("[data-testid=replay-caption]")
    expect(caption).to_contain_text("Game 1")
    for deal_index, steps in enumerate(expected[:2]):
        for k, hands in enumerate(steps):
            expect(page.locator("[data-testid=replay-step]")).to_contain_text(f"step {k} of {len(steps) - 1}")
            shown = page.evaluate(SEAT_CARDS)
            assert [set(h) for h in shown] == hands, f"deal {deal_index + 1} after {k} actions"
            page.keyboard.press("ArrowRight")
    assert not page_errors


def finish_game_over_sockets(live_server, variant: str, players: int, options: dict) -> str:
    """Create a table whose every seat this test holds, and play it to the end over WebSockets."""
    from websockets.sync.client import connect

    from mushka.server import PROTOCOL_VERSION
    from mushka.server.seatviews import apply_changes

    made = live_server.api("POST", "api/tables", {
        "variant": variant, "players": players, "options": options, "seats": ["me"] * players,
        "start": True, "listed": True, "name": "Replayer"})
    ws_url = live_server.url.replace("http", "ws") + made["ws"].lstrip("/")
    views: list[dict] = [{} for _ in range(players)]
    versions = [0] * players
    rng = random.Random(21)

    def take(seat: int, msg: dict) -> None:
        if msg["type"] in ("update", "table"):
            versions[seat] = msg["version"]
            if msg["type"] == "update":
                views[seat] = apply_changes(views[seat], msg["view"])

    with contextlib.ExitStack() as stack:
        socks = [stack.enter_context(connect(ws_url, open_timeout=10)) for _ in range(players)]
        for seat, (ws, token) in enumerate(zip(socks, made["tokens"], strict=True)):
            ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION, "token": token["token"]}))
            while True:
                msg = json.loads(ws.recv(timeout=10))
                if msg["type"] == "state":
                    views[seat] = msg["view"]
                    versions[seat] = msg["version"]
                    break
        for _ in range(5000):
            target = max(versions)
            for seat, ws in enumerate(socks):
                while versions[seat] < target:
                    take(seat, json.loads(ws.recv(timeout=10)))
            view = views[0]
            if view is None or view.get("result"):
                return made["table"]["id"]
            seat = view["deal"]["to_act"]
            legal = views[seat]["deal"]["legal"]
            socks[seat].send(json.dumps({"type": "act", "action": rng.choice(legal)}))
            while versions[seat] <= target:
                msg = json.loads(socks[seat].recv(timeout=10))
                assert msg["type"] != "error", msg
                take(seat, msg)
        raise AssertionError("the game did not end")


def test_replay_a_finished_game_from_the_lobby(open_page, live_server, shot, page_errors):
    table = finish_game_over_sockets(live_server, "classic", 3, {"initial_record": 3, **NO_SPECIAL_HANDS})
    page = open_page(live_server.url)
    item = page.locator(f"[data-testid=records] li[data-record='{table}']")
    expect(item).to_be_visible()
    item.locator("a").click()
    caption = page.locator("[data-testid=replay-caption]")
    expect(caption).to_contain_text("Deal 1")
    start = page.locator("[data-testid=replay-seat-0] .card").count()
    assert start == 5
    shot(page, "replay-start")
    page.locator("[data-key=replay-forward]").click()
    expect(page.locator("[data-testid=replay-step]")).to_contain_text("step 1 of")
    page.keyboard.press("End")
    expect(page.locator("[data-testid=replay-deal-result]")).to_be_visible()
    # Step on through every deal to the end of the game.
    for _ in range(200):
        if page.locator("[data-testid=replay-game-result]").count():
            break
        page.keyboard.press("PageDown")
        page.keyboard.press("End")
    expect(page.locator("[data-testid=replay-game-result]")).to_contain_text("Winner")
    shot(page, "replay-end")
    page.keyboard.press("Home")
    expect(page.locator("[data-testid=replay-step]")).to_contain_text("step 0 of")
    assert not page_errors


def test_kopilka_replay_in_russian(open_page, live_server, shot, page_errors):
    table = finish_game_over_sockets(live_server, "kopilka", 4, {})
    page = open_page(f"{live_server.url}?replay={table}&lang=ru")
    expect(page.locator("[data-testid=replay-caption]")).to_contain_text("Игра 1")
    for _ in range(300):
        if page.locator("[data-testid=replay-game-result]").count():
            break
        page.keyboard.press("ArrowRight")
    expect(page.locator("[data-testid=replay-game-result]")).to_contain_text("Игра окончена")
    shot(page, "replay-kopilka-ru")
    # Switching the language fetches the sentences again, in English.
    page.locator(".lang-btn[data-lang=en]").click()
    expect(page.locator("[data-testid=replay-game-result]")).to_contain_text("Game over")
    expect(page.locator("[data-testid=replay-caption]")).not_to_contain_text("Игра")
    assert not page_errors


def test_a_person_without_a_name_is_a_player_in_the_readers_language(open_page, live_server, page_errors):
    """The server records a nameless person as "seat 0"; the lobby and the replay call him
    "player 1" / "игрок 1", as the table did, never the record's English stand-in."""
    game = new_game(make_rules("classic", 3, **NO_SPECIAL_HANDS), rng=5)
    play_game(game, [RandomBot()] * 3, random.Random(5))
    record = record_of_game(game, seats=["seat 0", "bot random", "Anna"])
    now = datetime.now(UTC)
    table_id = f"nameless-{random.Random().getrandbits(30)}"
    live_server.store().create(TableSnapshot(
        id=table_id, variant="classic", players=3, options=dict(record.options), status="over", listed=True,
        host=None, autostart=False, version=1, ply=sum(len(d.actions) for d in record.deals),
        seats=(SeatSnapshot(0, "human", None, None), SeatSnapshot(1, "bot", None, "random"),
               SeatSnapshot(2, "human", "Anna", None)),
        created=now, record=record.dumps(indent=None), winner=record.result["game"]["winner"], finished=now,
        names=("seat 0", "bot random", "Anna")))
    page = open_page(f"{live_server.url}?lang=ru")
    item = page.locator(f"[data-testid=records] li[data-record='{table_id}']")
    expect(item).to_contain_text("игрок 1")
    expect(item).to_contain_text("Anna")
    assert "seat" not in item.inner_text(), item.inner_text()
    page.goto(f"{live_server.url}?replay={table_id}&lang=en")
    expect(page.locator("[data-testid=replay-caption]")).to_be_visible()
    expect(page.locator("main")).to_contain_text("player 1")
    assert not page_errors
