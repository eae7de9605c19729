"""Test tools for friends, presence, notices, mutes and reports: signed-in accounts and a
WebSocket player that carries its account's session cookie."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from starlette.testclient import TestClient, WebSocketTestSession

from mushka.server import PROTOCOL_VERSION
from mushka.server.accounts import SESSION_COOKIE

Msg = dict[str, Any]


@dataclass
class Person:
    """A signed-in account in a test: its name and its session cookie."""

    name: str
    cookie: str
    csrf: str

    @property
    def headers(self) -> dict[str, str]:
        """The headers of this person's requests (the session's CSRF token with them, P19)."""
        return {"cookie": f"{SESSION_COOKIE}={self.cookie}", "x-csrf-token": self.csrf}


def sign_up(client: TestClient, name: str, password: str = "correct horse battery 1") -> Person:
    """A new account with a password, signed in, through the accounts' own API."""
    reply = client.post("/api/account/claim", json={"name": name, "password": password})
    assert reply.status_code in (200, 201), reply.text
    cookie = reply.cookies.get(SESSION_COOKIE)
    assert cookie, reply.headers
    client.cookies.clear()  # each person sends his own cookie, never the client's
    return Person(name, cookie, reply.json()["csrf"])


def get(client: TestClient, who: Person | None, path: str, status: int = 200) -> Any:
    """A GET as ``who`` (None: a guest), checked for ``status``."""
    reply = client.get(path, headers=who.headers if who else {})
    assert reply.status_code == status, reply.text
    return reply.json()


def post(client: TestClient, who: Person | None, path: str, body: Msg | None = None, status: int = 200) -> Any:
    """A POST as ``who`` (None: a guest), checked for ``status``."""
    reply = client.post(path, json=body or {}, headers=who.headers if who else {})
    assert reply.status_code == status, reply.text
    return reply.json()


@contextlib.contextmanager
def seated(client: TestClient, who: Person | None, table_id: str, token: str | None) -> Iterator[WebSocketTestSession]:
    """A WebSocket to ``table_id`` of ``who`` (greeted, its state read)."""
    headers = who.headers if who else {}
    with client.websocket_connect(f"/ws/tables/{table_id}", headers=headers) as ws:
        ws.send_text(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION, "token": token, "lang": "en"}))
        until(ws, "state")
        yield ws


def until(ws: WebSocketTestSession, kind: str, limit: int = 200) -> Msg:
    """The next message of type ``kind`` (the others skipped)."""
    for _ in range(limit):
        message: Msg = json.loads(ws.receive_text())
        if message["type"] == kind:
            return message
        assert message["type"] != "error" or kind == "error", message
    raise AssertionError(f"no {kind} in {limit} messages")


def chat_lines(ws: WebSocketTestSession, marker: int) -> list[Msg]:
    """The chat lines received until a ``pong`` answering ``marker`` (a ping sent now)."""
    ws.send_text(json.dumps({"type": "ping", "id": marker}))
    lines = []
    for _ in range(200):
        message: Msg = json.loads(ws.receive_text())
        if message["type"] == "chat":
            lines.append(message)
        if message["type"] == "pong" and message.get("id") == marker:
            return lines
        assert message["type"] != "error", message
    raise AssertionError("no pong")
