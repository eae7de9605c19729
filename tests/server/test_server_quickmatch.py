"""Quick match (``POST /api/quickmatch``): strangers who ask for the same kind of table within a
few seconds sit at one table, bots of the level they chose fill the other seats; the queue
lives in the store, so two processes of one server seat their people together."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serverkit import OPEN, Player, config
from starlette.testclient import TestClient

from mushka.server import create_app
from mushka.server.quickmatch import WINDOW


def ask(client: TestClient, **body: Any) -> dict[str, Any]:
    reply = client.post("/api/quickmatch", json=body)
    assert reply.status_code == 201, reply.text
    data: dict[str, Any] = reply.json()
    return data


def seated(client: TestClient, asked: dict[str, Any], seconds: float = WINDOW + 5) -> tuple[dict[str, Any], float]:
    """Ask about the ticket of ``asked`` (the queue's first answer) until it is seated; the answer
    and how long that took (the first answer may be the seat already: a table it filled)."""
    if asked["status"] == "seated":
        return asked, 0.0
    ticket = asked["ticket"]
    began = time.monotonic()
    while True:
        reply = client.get(f"/api/quickmatch/{ticket}")
        assert reply.status_code == 200, reply.text
        data: dict[str, Any] = reply.json()
        if data["status"] == "seated":
            return data, time.monotonic() - began
        assert data["wait"] <= WINDOW
        assert time.monotonic() - began < seconds, "never seated"
        time.sleep(0.1)


def token_of(url: str) -> str:
    return url.split("#token=", 1)[1]


@contextlib.contextmanager
def server(tmp_path: Path, **overrides: object) -> Iterator[TestClient]:
    with TestClient(create_app(config(tmp_path, **overrides))) as client:
        try:
            yield client
        finally:
            for player in OPEN.pop(id(client), []):
                player.close()


def test_two_strangers_two_seconds_apart_sit_at_one_table_with_bots_of_their_level(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        first = ask(client, variant="mistigri", players=4, level="random", name="Anna", lang="en")
        assert first["status"] == "waiting" and 0 < first["wait"] <= WINDOW and first["waiting"] == 1
        time.sleep(2)
        second = ask(client, variant="mistigri", players=4, level="club", name="Boris", lang="ru")
        assert second["status"] == "waiting" and second["waiting"] == 2
        assert second["wait"] <= WINDOW - 1.5  # the first one's time counts for both
        a, took_a = seated(client, first)
        b, _ = seated(client, second)
        assert took_a <= WINDOW + 1
        assert a["table"] == b["table"]
        info = client.get(f"/api/tables/{a['table']}").json()
        assert info["status"] == "playing" and info["variant"] == "mistigri" and info["listed"] is True
        kinds = [(s["kind"], s["name"], s["bot"]) for s in info["seats"]]
        assert kinds[:2] == [("human", "Anna", None), ("human", "Boris", None)]
        assert [k[2] for k in kinds[2:]] == ["random", "random"]  # the first one's level
        # Several people: a turn timer (P15), so that nobody waits for an absent stranger for ever.
        assert info["turn_seconds"] == 60
        # Each one's address holds his own seat's token.
        anna = Player(client, a["table"], token_of(a["url"]))
        boris = Player(client, b["table"], token_of(b["url"]))
        assert (anna.seat, boris.seat) == (0, 1)
        # The ticket is spent once its seat was given.
        again = client.get(f"/api/quickmatch/{first['ticket']}")
        assert again.status_code == 404 and again.json()["error"]["code"] == "no_ticket"


def test_a_lone_person_is_seated_with_bots_when_nobody_comes(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        mine = ask(client, variant="classic", players=3, level="random", name="Vera")
        answer, took = seated(client, mine)
        assert WINDOW - 0.5 <= took <= WINDOW + 1.5
        info = client.get(f"/api/tables/{answer['table']}").json()
        assert [s["kind"] for s in info["seats"]] == ["human", "bot", "bot"]
        assert info["turn_seconds"] == 0  # practice against bots: no timer


def test_different_kinds_of_table_are_matched_apart_and_a_full_table_goes_at_once(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        three = [ask(client, variant="classic", players=3, name=f"P{n}") for n in range(3)]
        assert three[-1]["status"] == "seated"  # the third one filled the table: seated at once
        other = ask(client, variant="classic", players=4, name="Q")
        began = time.monotonic()
        tables = {seated(client, t)[0]["table"] for t in three}
        assert len(tables) == 1 and time.monotonic() - began < WINDOW - 1  # full: no waiting
        (table,) = tables
        assert all(s["kind"] == "human" for s in client.get(f"/api/tables/{table}").json()["seats"])
        alone, _ = seated(client, other)
        assert alone["table"] != table


def test_a_person_may_leave_the_queue_and_bad_requests_are_refused(tmp_path: Path) -> None:
    with server(tmp_path) as client:
        mine = ask(client, variant="kopilka", players=4)
        assert client.delete(f"/api/quickmatch/{mine['ticket']}").status_code == 204
        assert client.get(f"/api/quickmatch/{mine['ticket']}").status_code == 404
        assert client.delete(f"/api/quickmatch/{mine['ticket']}").status_code == 404
        bad = client.post("/api/quickmatch", json={"variant": "kopilka", "players": 5})
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_players"
        bot = client.post("/api/quickmatch", json={"variant": "classic", "players": 3, "level": "grandmaster"})
        assert bot.status_code == 400 and bot.json()["error"]["code"] == "bad_bot"
        extra = client.post("/api/quickmatch", json={"variant": "classic", "seats": ["me"]})
        assert extra.status_code == 400 and extra.json()["error"]["rule"] == "P2"


@pytest.mark.slow
def test_people_who_asked_two_processes_are_seated_together(tmp_path: Path) -> None:
    values = {"lease": 2.0, "join": True, "bot_delay": 0.05}
    with TestClient(create_app(config(tmp_path, node="a", **values))) as a, \
            TestClient(create_app(config(tmp_path, node="b", **values))) as b:
        one = ask(a, variant="classic", players=4, name="Anna")
        time.sleep(1)
        two = ask(b, variant="classic", players=4, name="Boris")
        first, _ = seated(a, one)
        second, _ = seated(b, two)
        assert first["table"] == second["table"] and first["node"] == second["node"]
        owner = a if first["node"] == "a" else b
        names = [s["name"] for s in owner.get(f"/api/tables/{first['table']}").json()["seats"][:2]]
        assert names == ["Anna", "Boris"]


@pytest.mark.parametrize("name", ["Mitya", "  глаша ", "EXPERT", "клубный игрок", "bot"])
def test_a_person_may_not_take_a_bots_name_anywhere(tmp_path: Path, name: str) -> None:
    with server(tmp_path) as client:
        for path, body in (("/api/tables", {"variant": "classic", "name": name}),
                           ("/api/quickmatch", {"variant": "classic", "players": 3, "name": name}),
                           ("/api/tutorial", {"name": name})):
            reply = client.post(path, json=body)
            assert reply.status_code == 400, (path, reply.text)
            error = reply.json()["error"]
            assert error["code"] == "name_reserved" and error["rule"] == "P10", error
        made = client.post("/api/tables", json={"variant": "classic", "players": 3, "seats": ["me", "open", "bot"],
                                                "name": "Anna"}).json()
        joined = client.post(f"/api/tables/{made['table']['id']}/join", json={"name": name, "lang": "ru"})
        assert joined.status_code == 400 and "имя бота" in joined.json()["error"]["message"]
        # A name that only contains a bot's name is a person's own.
        own = client.post("/api/tables", json={"variant": "classic", "name": f"{name.strip()}s mum"})
        assert own.status_code == 201
