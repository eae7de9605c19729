"""The replay viewer: positions rebuilt from records agree with the engine; the page steps through a game."""

from __future__ import annotations

import contextlib
import json
import random

import pytest
from playwright.sync_api import expect

from mushka.bots.base import RandomBot, play_game
from mushka.engine import new_deal
from mushka.match import new_game
from mushka.records.format import Record, record_of_game
from mushka.rules import make_rules

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("e2e")]

TABLES = [
    ("classic", 3, {"initial_record": 6}),
    ("classic", 4, {"initial_record": 6, "lone_player": "dealer_must_play"}),
    ("classic", 5, {"initial_record": 6, "flush": "side_payment"}),
    ("classic", 7, {"initial_record": 4, "flush": "none"}),
    ("mistigri", 4, {"initial_record": 6}),
    ("mistigri", 6, {"initial_record": 5, "must_head_trick": True}),
    ("kopilka", 4, {}),
    ("kopilka", 4, {"redistribution": "old"}),
    ("kopilka", 4, {"renege": "forbid"}),
]

BUILD = """async ([records]) => {
  const m = await import('./js/replay.js');
  return records.map((r) => m.buildFrames(r).map((frames) => frames.map((f) => ({
    hands: f.hands, applied: f.applied, won: f.won, end: f.end !== null, caption: f.caption }))));
}"""


def engine_positions(record: Record) -> list[list[list[set[str]]]]:
    """Per deal, the hands after 0, 1, … actions, replayed by the engine."""
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


def test_replayed_positions_agree_with_the_engine(open_page, live_server, page_errors):
    records = []
    for i, (variant, players, options) in enumerate(TABLES):
        for seed in range(3):
            rng = random.Random(100 * i + seed)
            game = new_game(make_rules(variant, players, **options), rng=rng.getrandbits(32))
            play_game(game, [RandomBot()] * players, rng)
            records.append(record_of_game(game, seats=[f"p{s}" for s in range(players)]))
    page = open_page(live_server.url)
    built = page.evaluate(BUILD, [[json.loads(r.dumps()) for r in records]])
    assert not page_errors
    checked = 0
    for record, deals in zip(records, built, strict=True):
        expected = engine_positions(record)
        assert len(deals) == len(expected)
        results = record.result["deals"]
        for number, (frames, steps, result) in enumerate(zip(deals, expected, results, strict=True), 1):
            # The last frame of each applied count is the position after that many actions.
            last_of: dict[int, dict] = {}
            for frame in frames:
                last_of[frame["applied"]] = frame
            assert sorted(last_of) == list(range(len(steps))), (record.variant, number)
            for k, hands in enumerate(steps):
                got = [set(h) for h in last_of[k]["hands"]]
                assert got == hands, f"{record.variant} deal {number} after {k} actions"
                checked += 1
            assert frames[-1]["end"]
            assert frames[-1]["won"] == result["tricks"]
            assert all(f["caption"] for f in frames)
    assert checked > 500


def finish_game_over_sockets(live_server, variant: str, players: int, options: dict) -> str:
    """Create a table whose every seat this test holds, and play it to the end over WebSockets."""
    from websockets.sync.client import connect

    made = live_server.api("POST", "api/tables", {
        "variant": variant, "players": players, "options": options, "seats": ["me"] * players,
        "start": True, "listed": True, "name": "Replayer"})
    ws_url = live_server.url.replace("http", "ws") + made["ws"].lstrip("/")
    views: list[dict] = [{} for _ in range(players)]
    versions = [0] * players
    rng = random.Random(21)
    with contextlib.ExitStack() as stack:
        socks = [stack.enter_context(connect(ws_url, open_timeout=10)) for _ in range(players)]
        for seat, (ws, token) in enumerate(zip(socks, made["tokens"], strict=True)):
            ws.send(json.dumps({"type": "hello", "protocol": 1, "token": token["token"]}))
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
                    msg = json.loads(ws.recv(timeout=10))
                    if msg["type"] in ("update", "table"):
                        versions[seat] = msg["version"]
                        if msg["type"] == "update":
                            views[seat] = msg["view"]
            view = views[0]
            if view is None or view.get("result"):
                return made["table"]["id"]
            seat = view["deal"]["to_act"]
            legal = views[seat]["deal"]["legal"]
            socks[seat].send(json.dumps({"type": "act", "action": rng.choice(legal)}))
            while versions[seat] <= target:
                msg = json.loads(socks[seat].recv(timeout=10))
                assert msg["type"] != "error", msg
                if msg["type"] in ("update", "table"):
                    versions[seat] = msg["version"]
                    if msg["type"] == "update":
                        views[seat] = msg["view"]
        raise AssertionError("the game did not end")


def test_replay_a_finished_game_from_the_lobby(open_page, live_server, shot, page_errors):
    table = finish_game_over_sockets(live_server, "classic", 3, {"initial_record": 3, "flush": "none"})
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
    assert not page_errors
