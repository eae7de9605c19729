"""Budgets per address and for bots: tables of bots only are few and capped per address
(their bounded pool of worker processes: ``test_server_thinkers.py``), and all the
connections of one address share one budget of messages, of full states and of sockets
(P6, P12)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from serverkit import Player, create, running

from mushka.server.app import lobby_of
from mushka.server.bodies import CreateTable

# No special hand ends these parties at the deal (C22): each table of bots stays one that counts.
BOTS = {"variant": "classic", "players": 3, "seats": ["bot:random"] * 3, "start": True,
        "options": {"flush": "none", "privileged_four": "none"}}


def test_p12_tables_of_bots_only_are_capped_per_address_and_in_all(tmp_path: Path) -> None:
    with running(tmp_path, bot_tables=2, bot_tables_per_address=1, bot_delay=30.0) as client:
        limits = client.get("/api/meta").json()["limits"]
        assert (limits["bot_tables"], limits["bot_tables_per_address"]) == (2, 1)
        assert client.post("/api/tables", json=BOTS).status_code == 201
        mine = client.post("/api/tables", json=BOTS)
        assert mine.status_code == 429 and mine.json()["error"]["code"] == "bot_tables_yours"
        assert mine.json()["error"]["rule"] == "P12" and "1" in mine.json()["error"]["message"]
        # A table where a person plays is not limited by it.
        create(client, variant="classic", players=3, seats=["me", "bot:random", "bot:random"], start=True)
        lobby = lobby_of(client.app)  # type: ignore[arg-type]
        request = CreateTable.model_validate(BOTS)
        assert client.portal is not None
        client.portal.call(lobby.create, request, "en", "192.0.2.7")  # another address: the second one
        with pytest.raises(Exception) as full:
            client.portal.call(lobby.create, request, "en", "192.0.2.8")
        assert getattr(full.value, "code", None) == "bot_tables"
        assert client.get("/api/meta").json()["limits"]["bot_tables_now"] == 2


def test_p6_the_connections_of_one_address_share_one_budget_of_messages(tmp_path: Path) -> None:
    with running(tmp_path, address_rate=2.0, address_burst=10) as client:
        table = create(client, variant="classic", players=3, seats=["me", "bot", "bot"])
        players = [Player(client, table["table"]["id"]) for _ in range(3)]
        for n in range(30):
            players[n % 3].send({"type": "ping", "id": n})
        # A refusal for rate comes before the message is read, so it carries no id: count answers.
        answers = [p.until(lambda m: m["type"] in ("pong", "error")) for p in players for _ in range(10)]
        refused = [a for a in answers if a["type"] == "error"]
        assert all(a["code"] == "rate_limited" and a["rule"] == "P6" for a in refused)
        assert all("at most 2.0 a second" in a["message"] for a in refused)
        # Each connection alone is far inside its own budget; together they pass the address's
        # (10 at once, 3 of them taken by the hellos, and 2 a second more).
        assert 18 <= len(refused) <= 23, len(refused)


def test_p6_full_states_are_budgeted_per_address(tmp_path: Path) -> None:
    with running(tmp_path, state_rate=0.5, state_burst=6) as client:
        table = create(client, variant="classic", players=3, seats=["me", "bot", "bot"])
        players = [Player(client, table["table"]["id"]) for _ in range(2)]  # two hellos: two states
        for n in range(20):
            players[n % 2].send({"type": "resync", "id": n})
        answers = [players[n % 2].until(lambda m, n=n: m["type"] in ("state", "error") and m.get("id") == n)
                   for n in range(20)]
        states = sum(1 for a in answers if a["type"] == "state")
        assert 4 <= states <= 5, states
        assert all(a["code"] == "rate_limited" for a in answers if a["type"] == "error")


def test_p12_one_address_holds_a_bounded_number_of_websockets(tmp_path: Path) -> None:
    with running(tmp_path, ws_per_address=2) as client:
        table = create(client, variant="classic", players=3, seats=["me", "bot", "bot"])
        held = [Player(client, table["table"]["id"]) for _ in range(2)]
        extra = Player(client, table["table"]["id"], hello=False)
        error = extra.recv()
        assert (error["code"], error["rule"], error["fatal"]) == ("too_many_connections", "P12", True)
        assert extra.closed() == 4429
        extra.close()
        held[0].close()
        time.sleep(0.2)
        again = Player(client, table["table"]["id"])  # a socket given back is free again
        assert again.welcome["type"] == "welcome"


def test_p6_records_and_replays_are_budgeted_per_address(tmp_path: Path) -> None:
    with running(tmp_path, read_rate=0.5, read_burst=3) as client:
        codes = [client.get(path).status_code for path in
                 ("/api/records", "/api/records/nosuch", "/api/records/nosuch/replay", "/api/records",
                  "/api/records", "/api/records")]
        assert codes[:3] == [200, 404, 404] and codes[3:] == [429, 429, 429]
        reply = client.get("/api/records")
        assert reply.json()["error"]["code"] == "rate_limited" and reply.json()["error"]["rule"] == "P6"
        assert client.get("/api/health").status_code == 200  # the cheap reads are not counted
