"""Test tools for the server: an in-process app and a WebSocket player with timeouts."""

from __future__ import annotations

import contextlib
import json
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio

with warnings.catch_warnings():
    # Starlette's test client announces a move from httpx to httpx2; nothing to act on here.
    warnings.filterwarnings("ignore", message="Using `httpx`")
    from starlette.testclient import TestClient, WebSocketTestSession

from mushka.server import PROTOCOL_VERSION, ServerConfig, create_app
from mushka.server.protocol import SERVER_MESSAGE
from mushka.server.seatviews import apply_changes

Msg = dict[str, Any]


def config(tmp_path: Path, **overrides: Any) -> ServerConfig:
    """A test configuration: a SQLite file under ``tmp_path``, bots without delay."""
    values: dict[str, Any] = {
        "database_url": f"sqlite:///{tmp_path / 'mushka-test.db'}",
        "bot_delay": 0.0,
        "grace": 60.0,
        "web_dir": None,
        "rate": 1000.0,
        "burst": 1000,
        "http_rate": 1000.0,
        "http_burst": 1000,
        "tune_gc": False,  # many apps live in one test process
        # The budgets per address are tested on their own; elsewhere one test client plays many parts.
        "address_rate": 1e4, "address_burst": 10_000, "state_rate": 1e4, "state_burst": 10_000,
        "read_rate": 1e4, "read_burst": 10_000, "ws_per_address": 0,
        "bot_tables": 1000, "bot_tables_per_address": 1000,
        "takeback_seconds": 0.0,  # P21's wait for a take-back is tested on its own
    }
    values.update(overrides)
    return ServerConfig(**values)


@contextlib.contextmanager
def running(tmp_path: Path, **overrides: Any) -> Iterator[TestClient]:
    """A running app (its lifespan started) and a client for it."""
    app = create_app(config(tmp_path, **overrides))
    with TestClient(app) as client:
        try:
            yield client
        finally:
            # An open test WebSocket would keep the app from shutting down after a failure.
            for player in OPEN.pop(id(client), []):
                player.close()


OPEN: dict[int, list[Player]] = {}
"""The players still connected, by client, closed when the app stops."""


def create(client: TestClient, **body: Any) -> Msg:
    """``POST /api/tables``; fails the test unless the table was made."""
    reply = client.post("/api/tables", json=body)
    assert reply.status_code == 201, reply.text
    data: Msg = reply.json()
    return data


class Player:
    """One WebSocket connection to a table, with a receive timeout and version tracking."""

    def __init__(self, client: TestClient, table_id: str, token: str | None = None, *,
                 lang: str = "en", hello: bool = True) -> None:
        self._ctx = client.websocket_connect(f"/ws/tables/{table_id}")
        self.ws: WebSocketTestSession = self._ctx.__enter__()
        OPEN.setdefault(id(client), []).append(self)
        self._open = True
        self.table_id = table_id
        self.version = -1
        self.view: Msg | None = None
        self.ply = 0
        self.received: list[str] = []
        self.welcome: Msg = {}
        self.state: Msg = {}
        if hello:
            self.send({"type": "hello", "protocol": PROTOCOL_VERSION, "token": token, "lang": lang})
            self.welcome = self.recv()
            assert self.welcome["type"] == "welcome", self.welcome
            self.state = self.until(lambda m: m["type"] == "state")

    @property
    def seat(self) -> int | None:
        return self.welcome.get("seat")

    def send(self, message: Msg) -> None:
        self.ws.send_text(json.dumps(message))

    def send_raw(self, text: str) -> None:
        self.ws.send_text(text)

    def recv_raw(self, timeout: float = 20.0) -> dict[str, Any]:
        """The next ASGI message the server sent (text frame or close)."""
        async def get() -> dict[str, Any]:
            with anyio.fail_after(timeout):
                message: dict[str, Any] = await self.ws._send_rx.receive()
                return message

        result: dict[str, Any] = self.ws.portal.call(get)
        return result

    def recv(self, timeout: float = 20.0) -> Msg:
        """The next message, validated against the protocol and tracked (version, view, ply).

        An update's changes are applied to the view as a client does, so ``view``
        is always the whole view.
        """
        raw = self.recv_raw(timeout)
        assert raw["type"] == "websocket.send", f"the server closed the connection: {raw}"
        text = raw["text"]
        self.received.append(text)
        message: Msg = json.loads(text)
        SERVER_MESSAGE.validate_python(message)  # every message the server sends is well-formed
        kind = message["type"]
        if kind == "state":
            self.version = message["version"]
            self.view = message["view"]
            self.ply = message["ply"]
        elif kind in ("update", "table"):
            self.version = message["version"]
            if kind == "update":
                self.view = apply_changes(self.view, message["view"])
                self.ply = message["ply"]
        return message

    def until(self, predicate: Callable[[Msg], bool], limit: int = 100_000) -> Msg:
        """Receive until a message satisfies ``predicate``; return it."""
        for _ in range(limit):
            message = self.recv()
            if predicate(message):
                return message
        raise AssertionError("the expected message never came")

    def closed(self, timeout: float = 20.0) -> int:
        """Receive until the server closes the connection; return the close code."""
        for _ in range(10_000):
            raw = self.recv_raw(timeout)
            if raw["type"] == "websocket.close":
                code: int = raw.get("code", 1000)
                return code
        raise AssertionError("the connection stayed open")

    def my_turn(self) -> bool:
        view = self.view
        return bool(view is not None and view["result"] is None and view["deal"]["to_act"] == self.seat
                    and view["deal"]["legal"])

    def wait_turn(self) -> Msg:
        """Receive until this seat is to act (or the game is over); return the view."""
        while not (self.my_turn() or self.over()):
            self.recv()
        assert self.view is not None
        return self.view

    def over(self) -> bool:
        return self.view is not None and self.view["result"] is not None

    def act(self, action: str, *, version: bool = True) -> None:
        message: Msg = {"type": "act", "action": action}
        if version:
            message["version"] = self.version
        self.send(message)

    def close(self) -> None:
        if self._open:
            self._open = False
            with contextlib.suppress(Exception):
                self._ctx.__exit__(None, None, None)
