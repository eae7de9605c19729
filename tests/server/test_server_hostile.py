"""Hostile clients on loopback: oversized and slow requests, deep or loose JSON, foreign
pages.  Every loop is bounded and every socket has a timeout."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import pytest
from livekit import live, read_until_closed
from serverkit import Player, create, running
from starlette.testclient import TestClient

from mushka.server.guards import CSP


def chunked_post(s: socket.socket, path: str, chunks: int, size: int = 4096) -> None:
    s.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n"
              "transfer-encoding: chunked\r\n\r\n".encode("ascii"))
    piece = f"{size:x}\r\n".encode("ascii") + b" " * size + b"\r\n"
    for _ in range(chunks):
        try:
            s.sendall(piece)
        except (BrokenPipeError, ConnectionResetError):
            return  # the server has already answered and closed


# --- 1: request bodies ---------------------------------------------------------------------


def test_p1_a_chunked_body_is_cut_off_at_the_limit_before_it_ends(tmp_path: Path) -> None:
    with live(tmp_path) as server:
        for path in ("/api/tables", "/api/tables/nosuchtable/join"):
            s = server.connect()
            # 64 KiB sent of a body that never ends: the limit (16 KiB) is passed long before.
            chunked_post(s, path, chunks=16)
            reply = read_until_closed(s, timeout=5.0)
            s.close()
            assert reply.startswith(b"HTTP/1.1 413"), reply[:200]
            assert b"body_too_large" in reply


# --- 2: slow and idle connections ------------------------------------------------------------


def test_an_idle_connection_is_closed_after_the_request_timeout(tmp_path: Path) -> None:
    with live(tmp_path, request_timeout=0.5) as server:
        s = server.connect()
        began = time.monotonic()
        assert read_until_closed(s, timeout=5.0) == b""
        assert time.monotonic() - began < 3.0
        s.close()


@pytest.mark.parametrize("sent", [b"GET /api/health HTTP/1.1\r\nHost: x\r\n",
                                  b"POST /api/tables HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
                                  b"content-length: 100\r\n\r\n{\"variant\""])
def test_a_half_sent_request_is_closed_after_the_request_timeout(tmp_path: Path, sent: bytes) -> None:
    with live(tmp_path, request_timeout=0.5) as server:
        s = server.connect()
        s.sendall(sent[:10])
        time.sleep(0.2)
        s.sendall(sent[10:])  # a byte now and then does not buy more time
        began = time.monotonic()
        read_until_closed(s, timeout=5.0)
        assert time.monotonic() - began < 3.0
        s.close()


def test_a_keep_alive_connection_gets_a_new_deadline_per_request(tmp_path: Path) -> None:
    with live(tmp_path, request_timeout=0.5, keep_alive=30.0) as server:
        s = server.connect()
        s.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        s.settimeout(5.0)
        assert s.recv(65536).startswith(b"HTTP/1.1 200")
        s.sendall(b"GET /api/health HTTP/1.1\r\n")  # the second request never finishes
        began = time.monotonic()
        read_until_closed(s, timeout=5.0)
        assert time.monotonic() - began < 3.0
        s.close()


def test_one_address_holds_a_bounded_number_of_http_connections(tmp_path: Path) -> None:
    with live(tmp_path, http_per_address=4, request_timeout=30.0) as server:
        held = [server.connect() for _ in range(4)]
        time.sleep(0.2)
        extra = server.connect()
        reply = read_until_closed(extra, timeout=5.0)
        assert reply.startswith(b"HTTP/1.1 429"), reply
        extra.close()
        for s in held:
            s.close()
        time.sleep(0.2)
        with server.http() as http:
            assert http.get("/api/health").status_code == 200


# --- 9 and 10: JSON the server does not read -------------------------------------------------


def test_p1_deeply_nested_json_over_the_websocket_is_refused_by_rule(client: TestClient) -> None:
    table = create(client, seats=["me", "bot", "bot"], players=3)
    player = Player(client, table["table"]["id"], table["tokens"][0]["token"])
    for text in ("[" * 2000 + "]" * 2000, '{"type": "ping", "id": ' + "[" * 1900 + "]" * 1900 + "}"):
        player.send_raw(text)
        error = player.until(lambda m: m["type"] == "error")
        assert (error["code"], error["rule"]) == ("too_deep", "P1"), error


def test_p1_deeply_nested_json_over_http_is_refused_by_rule(client: TestClient) -> None:
    body = '{"options": ' + "[" * 5000 + "]" * 5000 + "}"
    reply = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert reply.status_code == 400
    assert reply.json()["error"]["code"] == "too_deep" and reply.json()["error"]["rule"] == "P1"


@pytest.mark.parametrize("message", [
    {"type": "act", "action": "pass", "version": "1"},
    {"type": "act", "action": "pass", "version": True},
    {"type": "ping", "id": 1.0},
    {"type": "ping", "id": "1"},
    {"type": "lang", "lang": "en", "id": False},
])
def test_p2_loose_types_are_refused(client: TestClient, message: dict[str, object]) -> None:
    table = create(client, seats=["me", "bot", "bot"], players=3)
    player = Player(client, table["table"]["id"], table["tokens"][0]["token"])
    player.send(message)
    error = player.until(lambda m: m["type"] == "error")
    assert (error["code"], error["rule"]) == ("bad_message", "P2"), error


def test_p2_a_field_given_twice_is_refused(client: TestClient) -> None:
    table = create(client, seats=["me", "bot", "bot"], players=3)
    player = Player(client, table["table"]["id"], table["tokens"][0]["token"])
    player.send_raw('{"type": "ping", "id": 1, "id": 2}')
    error = player.until(lambda m: m["type"] == "error")
    assert (error["code"], error["rule"]) == ("duplicate_key", "P2")
    assert "id" in error["message"]


@pytest.mark.parametrize(("path", "body"), [
    ("/api/tables", '{"players": "3"}'),
    ("/api/tables", '{"players": 3.0}'),
    ("/api/tables", '{"listed": 1}'),
    ("/api/tables", '{"variant": "classic", "variant": "kopilka"}'),
    ("/api/tables/{id}/join", '{"seat": "1"}'),
    ("/api/tables/{id}/join", '{"seat": 1, "seat": 2}'),
])
def test_p2_loose_http_bodies_are_refused(client: TestClient, path: str, body: str) -> None:
    table = create(client, seats=["me", "open", "open"], players=3)
    reply = client.post(path.format(id=table["table"]["id"]), content=body,
                        headers={"content-type": "application/json"})
    assert reply.status_code == 400, reply.text
    assert reply.json()["error"]["rule"] == "P2"
    # Nothing changed: both seats are still open.
    assert [s["kind"] for s in client.get(f"/api/tables/{table['table']['id']}").json()["seats"]] == [
        "human", "open", "open"]


# --- 13: foreign pages ------------------------------------------------------------------------


def test_every_response_has_the_security_headers(tmp_path: Path) -> None:
    web = tmp_path / "web"
    web.mkdir()
    (web / "index.html").write_text("<!doctype html><title>t</title>", encoding="utf-8")
    with running(tmp_path, web_dir=web) as c:
        for path in ("/", "/api/health", "/api/tables/nosuch"):
            reply = c.get(path)
            assert reply.headers["content-security-policy"] == CSP
            assert "frame-ancestors 'none'" in CSP
            assert reply.headers["x-frame-options"] == "DENY"
            assert reply.headers["referrer-policy"] == "no-referrer"
            assert reply.headers["x-content-type-options"] == "nosniff"


def test_p13_posts_must_be_json(client: TestClient) -> None:
    table = create(client, seats=["me", "open", "open"], players=3)
    for kind in ("text/plain", "application/x-www-form-urlencoded", None):
        headers = {} if kind is None else {"content-type": kind}
        for path in ("/api/tables", f"/api/tables/{table['table']['id']}/join"):
            reply = client.post(path, content=json.dumps({}), headers=headers)
            assert reply.status_code == 415, (kind, path)
            assert reply.json()["error"]["rule"] == "P13"
    assert [s["kind"] for s in client.get(f"/api/tables/{table['table']['id']}").json()["seats"]] == [
        "human", "open", "open"]


def test_p13_a_foreign_page_cannot_create_join_or_connect(tmp_path: Path) -> None:
    with running(tmp_path, allowed_origins=("https://cards.example.org",)) as c:
        table = create(c, seats=["me", "open", "open"], players=3)
        tid = table["table"]["id"]
        evil = {"origin": "https://evil.example.com"}
        assert c.post("/api/tables", json={}, headers=evil).status_code == 403
        reply = c.post(f"/api/tables/{tid}/join", json={}, headers=evil)
        assert reply.status_code == 403 and reply.json()["error"]["code"] == "bad_origin"
        assert c.post(f"/api/tables/{tid}/join", json={}, headers={"origin": "http://testserver"}).status_code == 200
        allowed = c.post(f"/api/tables/{tid}/join", json={}, headers={"origin": "https://cards.example.org"})
        assert allowed.status_code == 200
        from starlette.websockets import WebSocketDisconnect

        with pytest.raises(WebSocketDisconnect) as refused, \
                c.websocket_connect(f"/ws/tables/{tid}", headers=evil) as ws:
            ws.receive_text()
        assert refused.value.code == 4403
        with c.websocket_connect(f"/ws/tables/{tid}", headers={"origin": "http://testserver"}) as ws:
            ws.send_text(json.dumps({"type": "hello", "protocol": 2}))
            assert json.loads(ws.receive_text())["type"] == "welcome"


def test_p13_the_public_address_of_the_server_is_its_own_origin(tmp_path: Path) -> None:
    with running(tmp_path, public_url="https://cards.example.org:8443/") as c:
        table = create(c, seats=["me", "open", "open"], players=3)
        tid = table["table"]["id"]
        assert c.post(f"/api/tables/{tid}/join", json={},
                      headers={"origin": "https://cards.example.org:8443"}).status_code == 200
        assert c.post(f"/api/tables/{tid}/join", json={},
                      headers={"origin": "https://cards.example.org"}).status_code == 403
