"""The page through a failover, as a player lives it: two ``mushka serve`` processes on one
SQLite file (``--join``) behind HAProxy with the shipped configuration, a game opened in
Chromium through the proxy, and the process that plays the table killed (``kill -9``) in
the middle of it.  The page must find the table on the other process by itself (``moved``,
jittered retries, ``hello`` with the version it has), keep what it showed, and play on."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from e2ekit import act_once, felt, wait_for_turn_or_end
from playwright.sync_api import expect

# The process rig of the server's tests (PostgreSQL-free here: one SQLite file).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from clusterkit import rig, serve_options

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

CALM = {"initial_record": 300, "flush": "none", "privileged_four": "none"}


def test_the_page_follows_its_table_to_the_other_process_when_its_own_is_killed(
        new_context: Any, tmp_path: Path, shot: Any) -> None:
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    options = serve_options(bot_delay=0.05, lease=3.0, extra=["--join"])
    with rig(tmp_path / "logs", url, count=2, options=options) as made:
        reply = httpx.post(made.url + "/api/tables", follow_redirects=True, timeout=30, json={
            "variant": "classic", "players": 3, "seats": ["me", "bot:random", "bot:random"], "start": True,
            "options": CALM, "name": "Anna"})
        assert reply.status_code == 201, reply.text
        created = reply.json()
        owner = created["node"]
        context = new_context()
        page = context.pages[0] if context.pages else context.new_page()
        script_errors: list[str] = []
        page.on("pageerror", lambda exc: script_errors.append(str(exc)))
        sockets: list[str] = []
        page.on("websocket", lambda ws: sockets.append(ws.url))
        page.goto(made.url + created["tokens"][0]["url"])
        rng = random.Random(5)
        wait_for_turn_or_end(page)
        act_once(page, rng)
        state = wait_for_turn_or_end(page)
        assert state["over"] == "false"
        hand_before = page.eval_on_selector_all("[data-testid=hand] button.card", "els => els.map(e => e.dataset.card)")
        ply_before = int(state["ply"])

        made.node(owner).kill()
        # The page notices, and comes back by itself at the other process.
        status = page.locator("#conn-status")
        expect(status).to_have_class("conn-status bad", timeout=10_000)
        expect(status).not_to_have_class("conn-status bad", timeout=30_000)
        after = felt(page)
        assert int(after["ply"]) >= ply_before
        if int(after["ply"]) == ply_before:
            # Nothing happened meanwhile: the page shows exactly what it showed.
            assert page.eval_on_selector_all(
                "[data-testid=hand] button.card", "els => els.map(e => e.dataset.card)") == hand_before
        shot(page, "after-failover")
        # And the game goes on there: the player's move is taken and answered.
        state = wait_for_turn_or_end(page)
        if state["over"] == "false":
            act_once(page, rng)
        survivor = next(n for n in made.nodes if n.name != owner)
        assert created["table"]["id"] in survivor.health()["owned_tables"]
        assert len(sockets) >= 2  # a new connection, made by the page itself
        assert script_errors == []
