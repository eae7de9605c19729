"""Accounts over HTTP (P18-P20): claiming a name with a password, signing in and out, the
session cookie's flags, CSRF, the sign-in limits, session fixation, the names guests may
take, seats bound to the account, and deleting an account with its personal data."""

from __future__ import annotations

import json
import time
import warnings
from collections.abc import Iterator
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import pytest
from serverkit import Player, create, running
from softkey import SoftKey
from sqlalchemy import text
from storekit import snapshot

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="Using `httpx`")
    from starlette.testclient import TestClient

from mushka.server import PROTOCOL_VERSION, create_app
from mushka.server.accounts import SESSION_COOKIE, SESSION_DAYS, SESSION_MAX_DAYS, hash_session
from mushka.server.app import lobby_of
from mushka.server.passwords import NAME_FAILURES
from mushka.server.sqlstore import SqlStore
from mushka.server.store import GameRating, SeatSnapshot

PASSWORD = "a long enough secret"


def claim(client: TestClient, name: str = "Анна Ли", password: str = PASSWORD, **headers: str) -> dict[str, Any]:
    reply = client.post("/api/account/claim", json={"name": name, "password": password}, headers=headers)
    assert reply.status_code == 201, reply.text
    data: dict[str, Any] = reply.json()
    return data


def set_cookie(reply: Any) -> SimpleCookie:
    """The Set-Cookie header of a reply, parsed (the session cookie's attributes)."""
    cookie: SimpleCookie = SimpleCookie()
    for value in reply.headers.get_list("set-cookie"):
        cookie.load(value)
    return cookie


def sql(client: TestClient, query: str, **params: object) -> list[Any]:
    store = lobby_of(client.app).store  # type: ignore[arg-type]
    assert isinstance(store, SqlStore)
    with store.engine.connect() as conn:
        return list(conn.execute(text(query), params).all())


def second_client(client: TestClient, **kwargs: Any) -> TestClient:
    """Another browser on the same running server (its own cookies), on the first one's event
    loop (the server's tasks, its writer among them, live there)."""
    other = TestClient(client.app, **kwargs)
    other.portal = client.portal
    return other


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with running(tmp_path) as c:
        yield c


# --- claiming, signing in and out ---------------------------------------------------------------


def test_a_guest_claims_his_name_with_a_password_and_is_signed_in(client: TestClient) -> None:
    assert client.get("/api/account").json() == {"account": None, "csrf": None}
    reply = client.post("/api/account/claim", json={"name": "  Анна   Ли ", "password": PASSWORD})
    assert reply.status_code == 201, reply.text
    data = reply.json()
    assert data["account"]["name"] == "Анна Ли" and data["account"]["password"] is True
    assert data["account"]["passkeys"] == 0 and len(data["csrf"]) >= 40
    cookie = set_cookie(reply)[SESSION_COOKIE]
    assert cookie["httponly"] and cookie["samesite"] == "strict" and cookie["path"] == "/"
    assert not cookie["secure"], "plain http: a Secure cookie would never come back"
    me = client.get("/api/account").json()
    assert me["account"]["name"] == "Анна Ли" and me["csrf"] == data["csrf"]
    # Only the hashes are stored: neither the cookie nor the password is in the database.
    value = client.cookies[SESSION_COOKIE]
    assert sql(client, "SELECT count(*) FROM mushka_sessions WHERE id_hash = :h", h=hash_session(value))[0][0] == 1
    assert sql(client, "SELECT count(*) FROM mushka_sessions WHERE id_hash = :h", h=value)[0][0] == 0
    stored = sql(client, "SELECT hash FROM mushka_passwords")[0][0]
    assert stored.startswith("$argon2id$") and PASSWORD not in stored


def test_the_cookie_is_secure_over_https_and_behind_a_proxy_that_says_so(client: TestClient) -> None:
    reply = client.post("/api/account/claim", json={"name": "Вера", "password": PASSWORD},
                        headers={"x-forwarded-proto": "https"})
    assert reply.status_code == 201
    assert set_cookie(reply)[SESSION_COOKIE]["secure"]
    direct = second_client(client, base_url="https://testserver")
    reply = direct.post("/api/account/signin", json={"name": "вера", "password": PASSWORD})
    assert reply.status_code == 200, reply.text
    cookie = set_cookie(reply)[SESSION_COOKIE]
    assert cookie["secure"] and cookie["httponly"] and cookie["samesite"] == "strict"


def test_signing_in_on_a_second_device_and_signing_out_deletes_the_session(client: TestClient) -> None:
    claim(client, "Борис")
    other = second_client(client)
    assert other.get("/api/account").json()["account"] is None
    reply = other.post("/api/account/signin", json={"name": "БОРИС", "password": PASSWORD})
    assert reply.status_code == 200, reply.text
    csrf = reply.json()["csrf"]
    assert other.get("/api/account").json()["account"]["name"] == "Борис"
    assert sql(client, "SELECT count(*) FROM mushka_sessions")[0][0] == 2
    value = other.cookies[SESSION_COOKIE]
    out = other.post("/api/account/signout", json={}, headers={"x-csrf-token": csrf})
    assert out.status_code == 204
    assert sql(client, "SELECT count(*) FROM mushka_sessions WHERE id_hash = :h", h=hash_session(value))[0][0] == 0
    assert other.get("/api/account").json()["account"] is None
    # The old cookie, sent again (a copy kept somewhere), is nobody's any more.
    replay = second_client(client, cookies={SESSION_COOKIE: value})
    assert replay.get("/api/account").json()["account"] is None
    assert client.get("/api/account").json()["account"]["name"] == "Борис", "the first device is still in"


def test_a_wrong_password_and_an_unknown_name_get_the_same_answer(client: TestClient) -> None:
    claim(client, "Глеб")
    guest = second_client(client)
    wrong = guest.post("/api/account/signin", json={"name": "Глеб", "password": "not the password"})
    unknown = guest.post("/api/account/signin", json={"name": "Никто", "password": "not the password"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json()["error"]["code"] == unknown.json()["error"]["code"] == "signin_failed"
    assert wrong.json()["error"]["rule"] == "P20"
    assert SESSION_COOKIE not in guest.cookies


@pytest.mark.parametrize(("name", "password", "code", "rule"), [
    ("Fyodor", PASSWORD, "name_reserved", "P10"),
    ("Фёдор", PASSWORD, "name_reserved", "P10"),
    ("Deleted Player 12ab", PASSWORD, "name_deleted", "P18"),
    ("   ", PASSWORD, "name_missing", "P18"),
    ("Дина", "short", "weak_password", "P18"),
    ("Дина Ро", "дина ро", "weak_password", "P18"),
    ("Длинное Имя", "длинное имя", "password_is_name", "P18"),
])
def test_claims_that_are_refused_say_why_in_both_languages(client: TestClient, name: str, password: str,
                                                           code: str, rule: str) -> None:
    for lang in ("en", "ru"):
        reply = client.post("/api/account/claim", json={"name": name, "password": password, "lang": lang},
                            headers={"accept-language": lang})
        assert reply.status_code == 400, reply.text
        error = reply.json()["error"]
        assert error["code"] == code and error["rule"] == rule
        assert error["message"].startswith(f"{rule}: ") and code not in error["message"]
    assert sql(client, "SELECT count(*) FROM mushka_accounts")[0][0] == 0


def test_a_claimed_name_is_one_account_whatever_its_case_and_spaces(client: TestClient) -> None:
    claim(client, "Анна Ли")
    other = second_client(client)
    reply = other.post("/api/account/claim", json={"name": "анна  ли", "password": PASSWORD})
    assert reply.status_code == 409 and reply.json()["error"]["code"] == "name_claimed"
    signed = client.post("/api/account/claim", json={"name": "Ещё Одно", "password": PASSWORD},
                         headers={"x-csrf-token": client.get("/api/account").json()["csrf"]})
    assert signed.status_code == 409 and signed.json()["error"]["code"] == "signed_in"


# --- CSRF (P19) and session fixation -----------------------------------------------------------


def test_a_signed_in_change_without_the_csrf_token_is_refused_and_changes_nothing(client: TestClient) -> None:
    csrf = claim(client, "Дарья")["csrf"]
    before = len(client.get("/api/tables").json()["tables"])
    for headers in ({}, {"x-csrf-token": "forged" + csrf[6:]}):
        reply = client.post("/api/tables", json={"seats": ["me", "open", "bot"]}, headers=headers)
        assert reply.status_code == 403, reply.text
        assert reply.json()["error"]["code"] == "csrf" and reply.json()["error"]["rule"] == "P19"
        out = client.post("/api/account/signout", json={}, headers=headers)
        assert out.status_code == 403
    assert len(client.get("/api/tables").json()["tables"]) == before
    assert client.get("/api/account").json()["account"]["name"] == "Дарья"
    ru = client.post("/api/tables", json={}, headers={"accept-language": "ru"})
    assert "ключ" in ru.json()["error"]["message"]
    made = client.post("/api/tables", json={"seats": ["me", "open", "bot"]}, headers={"x-csrf-token": csrf})
    assert made.status_code == 201, made.text
    # A guest has no session to abuse: no token is asked of him.
    assert second_client(client).post("/api/tables", json={"seats": ["me", "open", "bot"]}).status_code == 201


def test_a_session_id_set_before_signing_in_is_never_made_a_session(client: TestClient) -> None:
    claim(client, "Ева")
    planted = "attacker-chosen-value-0123456789abcdef"
    victim = second_client(client, cookies={SESSION_COOKIE: planted})
    reply = victim.post("/api/account/signin", json={"name": "Ева", "password": PASSWORD})
    assert reply.status_code == 200
    given = set_cookie(reply)[SESSION_COOKIE].value
    assert given != planted and len(given) >= 40
    attacker = second_client(client, cookies={SESSION_COOKIE: planted})
    assert attacker.get("/api/account").json()["account"] is None
    assert sql(client, "SELECT count(*) FROM mushka_sessions WHERE id_hash = :h", h=hash_session(planted))[0][0] == 0
    # Signing in again makes yet another session and ends the one the browser had.
    again = victim.post("/api/account/signin", json={"name": "Ева", "password": PASSWORD},
                        headers={"x-csrf-token": reply.json()["csrf"]})
    assert set_cookie(again)[SESSION_COOKIE].value not in (given, planted)
    assert second_client(client, cookies={SESSION_COOKIE: given}).get("/api/account").json()["account"] is None


# --- sign-in limits (P20) ----------------------------------------------------------------------


def test_guessing_a_password_is_stopped_per_name_even_with_the_right_one(client: TestClient) -> None:
    claim(client, "Жанна")
    guesser = second_client(client)
    codes = [guesser.post("/api/account/signin", json={"name": "Жанна", "password": f"guess {n:04}"}).status_code
             for n in range(NAME_FAILURES + 1)]
    assert codes == [401] * NAME_FAILURES + [429]
    right = guesser.post("/api/account/signin", json={"name": "жанна", "password": PASSWORD},
                         headers={"accept-language": "ru"})
    assert right.status_code == 429
    error = right.json()["error"]
    assert error["code"] == "signin_limited" and error["rule"] == "P20" and "мин" in error["message"]
    assert SESSION_COOKIE not in guesser.cookies
    # Another name from the same address is not blocked by this one.
    claim(second_client(client), "Зоя")
    assert guesser.post("/api/account/signin", json={"name": "Зоя", "password": PASSWORD}).status_code == 200


def test_one_address_trying_many_names_is_stopped_too(client: TestClient) -> None:
    guesser = second_client(client)
    errors = [guesser.post("/api/account/signin", json={"name": f"name {n}", "password": "guess guess"}
                           ).json()["error"]["code"] for n in range(21)]
    assert errors == ["signin_failed"] * 20 + ["signin_limited"]
    assert sql(client, "SELECT count(*) FROM mushka_signin_limits WHERE key LIKE 'addr:%'")[0][0] == 1


# --- names at tables (P18) ---------------------------------------------------------------------


def test_a_guest_cannot_sit_under_a_claimed_name_but_its_owner_can(client: TestClient) -> None:
    csrf = claim(client, "Игорь")["csrf"]
    guest = second_client(client)
    for path, body in (("/api/tables", {"name": "игорь"}), ("/api/quickmatch", {"name": "ИГОРЬ"}),
                       ("/api/tutorial", {"name": "Игорь"})):
        reply = guest.post(path, json=body)
        assert reply.status_code == 409, (path, reply.text)
        assert reply.json()["error"]["code"] == "name_claimed" and reply.json()["error"]["rule"] == "P18"
    table = create(guest, name="Гость", seats=["me", "open", "bot"])
    refused = guest.post(f"/api/tables/{table['table']['id']}/join", json={"name": "Игорь"})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "name_claimed"
    # Signed in, a person sits under his account's name, whatever the body says.
    joined = client.post(f"/api/tables/{table['table']['id']}/join", json={"name": "Кто-то"},
                         headers={"x-csrf-token": csrf})
    assert joined.status_code == 200, joined.text
    names = [s["name"] for s in joined.json()["table"]["seats"]]
    assert "Игорь" in names and "Кто-то" not in names


# --- seats bound to the account (P18) -----------------------------------------------------------


def test_a_seat_taken_signed_in_is_played_only_by_its_account(client: TestClient) -> None:
    csrf = claim(client, "Кира")["csrf"]
    made = client.post("/api/tables", json={"seats": ["me", "open", "bot"]}, headers={"x-csrf-token": csrf})
    table_id, token = made.json()["table"]["id"], made.json()["tokens"][0]["token"]
    assert sql(client, "SELECT account_id FROM mushka_seats WHERE table_id = :t AND seat = 0",
               t=table_id)[0][0] == client.get("/api/account").json()["account"]["id"]
    # The owner plays it with its token.
    owner = Player(client, table_id, token)
    assert owner.seat == 0
    owner.close()
    # A copied token alone does not do: a guest is refused, and so is another account.
    thief = second_client(client)
    with thief.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_text(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION, "token": token}))
        refused = json.loads(ws.receive_text())
        assert refused["type"] == "error" and refused["code"] == "seat_account" and refused["rule"] == "P18"
    claim(thief, "Лев")
    with thief.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_text(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION, "token": token}))
        assert json.loads(ws.receive_text())["code"] == "seat_account"
        # Nor may he name the seat as an account's own.
    with thief.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_text(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION, "token": "seat:0"}))
        assert json.loads(ws.receive_text())["code"] == "bad_token"


def test_the_account_gets_its_seats_back_on_another_device(client: TestClient) -> None:
    csrf = claim(client, "Марк")["csrf"]
    made = client.post("/api/tables", json={"seats": ["open", "me", "bot"]}, headers={"x-csrf-token": csrf})
    table_id = made.json()["table"]["id"]
    device = second_client(client)
    assert device.get("/api/account/seats").status_code == 401
    device.post("/api/account/signin", json={"name": "Марк", "password": PASSWORD})
    seats = device.get("/api/account/seats").json()["seats"]
    assert seats == [{"table": table_id, "seat": 1, "url": f"/?table={table_id}#token=seat:1"}]
    player = Player(device, table_id, "seat:1")
    assert player.seat == 1 and player.welcome["host"] is True
    player.close()
    # A guest greeting with seat:N is a wrong token (P4), nothing more.
    with second_client(client).websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_text(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION, "token": "seat:1"}))
        assert json.loads(ws.receive_text())["code"] == "bad_token"


# --- deleting an account -----------------------------------------------------------------------


def finished_game(store: SqlStore, table_id: str, account_id: str, name: str) -> None:
    """A finished game stored as a table writes it: the account at seat 0, two bots."""
    record = {"seats": [name, "bot club", "bot club"], "meta": {"table": table_id},
              "result": {"game": {"winner": 0, "money": [30, -10, -20], "records": [0, 5, 9]}}}
    store.create(snapshot(table_id, status="over", winner=0, finished=snapshot().created,
                          record=json.dumps(record), names=(name, "bot club", "bot club"),
                          rating=GameRating(rated=True).dumps(),
                          seats=(SeatSnapshot(0, "human", name, None, "h0", account_id),
                                 SeatSnapshot(1, "bot", None, "heuristic"),
                                 SeatSnapshot(2, "bot", None, "heuristic"))))


def test_deleting_an_account_removes_its_personal_data(client: TestClient) -> None:
    data = claim(client, "Нина Орлова")
    csrf, account_id = data["csrf"], data["account"]["id"]
    other = second_client(client)
    other.post("/api/account/signin", json={"name": "Нина Орлова", "password": PASSWORD})
    store = lobby_of(client.app).store  # type: ignore[arg-type]
    assert isinstance(store, SqlStore)
    finished_game(store, "played1", account_id, "Нина Орлова")
    # Confirmation and CSRF first.
    assert client.request("DELETE", "/api/account", json={"name": "Нина Орлова"}).status_code == 403
    wrong = client.request("DELETE", "/api/account", json={"name": "Нина"}, headers={"x-csrf-token": csrf})
    assert wrong.status_code == 400 and wrong.json()["error"]["code"] == "confirm_name"
    # Seated at a table still waiting: finish or leave it first.
    made = client.post("/api/tables", json={"seats": ["me", "open", "bot"]}, headers={"x-csrf-token": csrf})
    busy = client.request("DELETE", "/api/account", json={"name": "нина орлова"}, headers={"x-csrf-token": csrf})
    assert busy.status_code == 409 and busy.json()["error"]["code"] == "account_playing"
    with store.engine.begin() as conn:  # the table is over (as if its game had ended)
        conn.execute(text("UPDATE mushka_tables SET status = 'over' WHERE id = :t"), {"t": made.json()["table"]["id"]})
    done = client.request("DELETE", "/api/account", json={"name": "нина орлова"}, headers={"x-csrf-token": csrf})
    assert done.status_code == 204, done.text
    for table in ("mushka_accounts", "mushka_passwords", "mushka_passkeys", "mushka_sessions"):
        assert sql(client, f"SELECT count(*) FROM {table}")[0][0] == 0, table
    assert sql(client, "SELECT count(*) FROM mushka_seats WHERE account_id IS NOT NULL")[0][0] == 0
    everything = json.dumps([list(r) for r in sql(client, "SELECT * FROM mushka_seats")]
                            + [list(map(str, r)) for r in sql(client, "SELECT names, record FROM mushka_tables")],
                            ensure_ascii=False)
    assert "Нина" not in everything
    record = json.loads(sql(client, "SELECT record FROM mushka_tables WHERE id = 'played1'")[0][0])
    assert record["seats"][0].startswith("deleted player ") and record["seats"][1] == "bot club"
    # Both devices are signed out; the name is free again, for anybody.
    assert client.get("/api/account").json()["account"] is None
    assert other.get("/api/account").json()["account"] is None
    assert client.post("/api/tables", json={"name": "Нина Орлова"}).status_code == 201


def test_the_ratings_show_a_deleted_player_under_the_neutral_name(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        data = claim(client, "Олег")
        store = lobby_of(client.app).store  # type: ignore[arg-type]
        assert isinstance(store, SqlStore)
        for n in range(2):
            finished_game(store, f"g{n}", data["account"]["id"], "Олег")
    with running(tmp_path) as client:  # the ratings are rebuilt from the stored games
        board = json.dumps(client.get("/api/ratings?variant=classic&limit=50").json(), ensure_ascii=False)
        assert "Олег" in board
        client.post("/api/account/signin", json={"name": "Олег", "password": PASSWORD})
        csrf = client.get("/api/account").json()["csrf"]
        assert client.request("DELETE", "/api/account", json={"name": "Олег"},
                              headers={"x-csrf-token": csrf}).status_code == 204
        board = json.dumps(client.get("/api/ratings?variant=classic&limit=50").json(), ensure_ascii=False)
        assert "Олег" not in board and "deleted player " in board


# --- several processes on one PostgreSQL database ------------------------------------------------


@pytest.mark.slow
def test_a_session_made_by_one_process_is_known_to_another_on_postgresql(tmp_path: Path) -> None:
    from pgkit import throwaway
    from serverkit import config

    with throwaway() as cluster:
        url = cluster.new_database()
        one = create_app(config(tmp_path, database_url=url, node="one"))
        two = create_app(config(tmp_path, database_url=url, node="two"))
        with TestClient(one) as a, TestClient(two) as b:
            data = claim(a, "Павел")
            b.cookies.set(SESSION_COOKIE, a.cookies[SESSION_COOKIE])
            me = b.get("/api/account").json()
            assert me["account"] == data["account"] and me["csrf"] == data["csrf"]
            # Signed out on the second process, the session is gone on the first too.
            assert b.post("/api/account/signout", json={}, headers={"x-csrf-token": me["csrf"]}).status_code == 204
            assert a.get("/api/account").json()["account"] is None
            # The limits are shared as well: failures on one process count on the other.
            for n in range(NAME_FAILURES):
                target = a if n % 2 else b
                assert target.post("/api/account/signin", json={"name": "Павел", "password": f"x{n:08}"}
                                   ).status_code == 401
            assert a.post("/api/account/signin", json={"name": "Павел", "password": "y" * 9}).status_code == 429


# --- passkeys (a software authenticator, tests/server/softkey.py) --------------------------------


def test_a_guest_claims_a_name_with_a_passkey_and_signs_in_with_it_elsewhere(client: TestClient) -> None:
    key = SoftKey()
    asked = client.post("/api/account/passkey/register/options", json={"name": "Роза"})
    assert asked.status_code == 200, asked.text
    options = asked.json()["options"]
    assert options["rp"]["id"] == "testserver" and options["authenticatorSelection"]["residentKey"] == "required"
    made = client.post("/api/account/passkey/register",
                       json={"challenge": asked.json()["challenge"], "credential": key.register(options)})
    assert made.status_code == 201, made.text
    assert made.json()["account"]["name"] == "Роза" and made.json()["account"]["passkeys"] == 1
    assert made.json()["account"]["password"] is False
    # The challenge was used: the same answer again is refused.
    again = client.post("/api/account/passkey/register",
                        json={"challenge": asked.json()["challenge"], "credential": key.register(options)},
                        headers={"x-csrf-token": made.json()["csrf"]})
    assert again.status_code == 409 and again.json()["error"]["code"] == "challenge_expired"
    # Another device signs in with the passkey, without a name.
    other = second_client(client)
    challenge = other.post("/api/account/passkey/signin/options", json={}).json()
    signed = other.post("/api/account/passkey/signin",
                        json={"challenge": challenge["challenge"], "credential": key.sign_in(challenge["options"])})
    assert signed.status_code == 200, signed.text
    assert other.get("/api/account").json()["account"]["name"] == "Роза"
    assert sql(client, "SELECT sign_count FROM mushka_passkeys")[0][0] == 1


def test_a_passkey_answer_that_does_not_verify_is_refused_and_counted(client: TestClient) -> None:
    key = SoftKey()
    asked = client.post("/api/account/passkey/register/options", json={"name": "Семён"}).json()
    made = client.post("/api/account/passkey/register",
                       json={"challenge": asked["challenge"], "credential": key.register(asked["options"])})
    csrf = made.json()["csrf"]
    client.post("/api/account/signout", json={}, headers={"x-csrf-token": csrf})
    challenge = client.post("/api/account/passkey/signin/options", json={}).json()
    answer = key.sign_in(challenge["options"])
    answer["response"]["signature"] = SoftKey().sign_in(challenge["options"])["response"]["signature"]  # wrong key
    refused = client.post("/api/account/passkey/signin",
                          json={"challenge": challenge["challenge"], "credential": answer})
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "signin_failed"
    assert client.get("/api/account").json()["account"] is None
    assert sql(client, "SELECT failures FROM mushka_signin_limits WHERE key LIKE 'addr:%'")[0][0] == 1
    # A page of another site cannot answer: its origin is not this server's.
    foreign = SoftKey(origin="https://evil.example", credential_id=key.credential_id, key=key.key, count=5)
    challenge = client.post("/api/account/passkey/signin/options", json={}).json()
    refused = client.post("/api/account/passkey/signin", json={
        "challenge": challenge["challenge"], "credential": foreign.sign_in(challenge["options"])})
    assert refused.status_code == 401
    # The claimed name cannot be asked for again, with a passkey or a password.
    taken = client.post("/api/account/passkey/register/options", json={"name": "семён"})
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "name_claimed"


def test_a_signed_in_account_adds_a_second_passkey(client: TestClient) -> None:
    csrf = claim(client, "Тимур")["csrf"]
    asked = client.post("/api/account/passkey/register/options", json={}, headers={"x-csrf-token": csrf}).json()
    assert asked["options"]["user"]["name"] == "Тимур"
    key = SoftKey()
    added = client.post("/api/account/passkey/register", json={
        "challenge": asked["challenge"], "credential": key.register(asked["options"])}, headers={"x-csrf-token": csrf})
    assert added.status_code == 200, added.text
    assert added.json()["account"]["passkeys"] == 1 and added.json()["account"]["password"] is True
    assert sql(client, "SELECT count(*) FROM mushka_accounts")[0][0] == 1


def test_a_session_ends_unused_and_is_pushed_back_when_used(client: TestClient) -> None:
    claim(client, "Ульяна")
    value = client.cookies[SESSION_COOKIE]
    now = int(time.time() * 1000)
    store = lobby_of(client.app).store  # type: ignore[arg-type]
    assert isinstance(store, SqlStore)
    with store.engine.begin() as conn:  # last renewed two hours ago, ending in a day
        conn.execute(text("UPDATE mushka_sessions SET seen_ms = :s, expires_ms = :e"),
                     {"s": now - 2 * 3_600_000, "e": now + 86_400_000})
    assert client.get("/api/account").json()["account"]["name"] == "Ульяна"
    expires = sql(client, "SELECT expires_ms FROM mushka_sessions WHERE id_hash = :h", h=hash_session(value))[0][0]
    assert expires >= now + (SESSION_DAYS - 1) * 86_400_000, "used, its end was pushed back"
    with store.engine.begin() as conn:  # never past the longest life of a session
        conn.execute(text("UPDATE mushka_sessions SET seen_ms = :s, created_ms = :c, expires_ms = :e"),
                     {"s": now - 2 * 3_600_000, "c": now - (SESSION_MAX_DAYS * 86_400_000 - 60_000),
                      "e": now + 30_000})
    client.get("/api/account")
    expires = sql(client, "SELECT expires_ms FROM mushka_sessions")[0][0]
    assert expires <= now + 61_000
    with store.engine.begin() as conn:  # and once its time is over, it is nobody's
        conn.execute(text("UPDATE mushka_sessions SET expires_ms = :e"), {"e": now - 1})
    reply = client.get("/api/account")
    assert reply.json()["account"] is None
    assert 'mushka_session=""' in reply.headers.get("set-cookie", "") or "max-age=0" in reply.headers.get(
        "set-cookie", "").lower()


def test_changing_the_password_asks_for_the_current_one_and_signs_out_the_other_devices(client: TestClient) -> None:
    csrf = claim(client, "Фёкла")["csrf"]
    other = second_client(client)
    other.post("/api/account/signin", json={"name": "Фёкла", "password": PASSWORD})
    wrong = client.post("/api/account/password", json={"password": "a brand new secret", "current": "not it at all"},
                        headers={"x-csrf-token": csrf})
    assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "signin_failed"
    done = client.post("/api/account/password", json={"password": "a brand new secret", "current": PASSWORD},
                       headers={"x-csrf-token": csrf})
    assert done.status_code == 200, done.text
    assert client.get("/api/account").json()["account"]["name"] == "Фёкла", "this device stays signed in"
    assert other.get("/api/account").json()["account"] is None, "the other device is signed out"
    guest = second_client(client)
    assert guest.post("/api/account/signin", json={"name": "Фёкла", "password": PASSWORD}).status_code == 401
    assert guest.post("/api/account/signin", json={"name": "Фёкла", "password": "a brand new secret"}
                      ).status_code == 200


def test_a_passkey_account_adds_a_password(client: TestClient) -> None:
    key = SoftKey()
    asked = client.post("/api/account/passkey/register/options", json={"name": "Хава"}).json()
    made = client.post("/api/account/passkey/register",
                       json={"challenge": asked["challenge"], "credential": key.register(asked["options"])}).json()
    added = client.post("/api/account/password", json={"password": "now with a password"},
                        headers={"x-csrf-token": made["csrf"]})
    assert added.status_code == 200 and added.json()["account"]["password"] is True
    assert second_client(client).post("/api/account/signin", json={"name": "хава", "password": "now with a password"}
                                      ).status_code == 200


def test_a_quick_match_seat_taken_signed_in_is_the_account_s(client: TestClient) -> None:
    csrf = claim(client, "Цветана")["csrf"]
    guests = [second_client(client), second_client(client)]
    asked = client.post("/api/quickmatch", json={"variant": "classic", "players": 3, "name": "Другое Имя"},
                        headers={"x-csrf-token": csrf})
    assert asked.status_code == 201, asked.text
    for n, guest in enumerate(guests):
        assert guest.post("/api/quickmatch", json={"variant": "classic", "players": 3, "name": f"Гость {n}"}
                          ).status_code == 201
    answer = client.get(f"/api/quickmatch/{asked.json()['ticket']}").json()
    for _ in range(100):  # the third one filled the table: it is made at once, or in a moment
        if answer["status"] == "seated":
            break
        time.sleep(0.1)
        answer = client.get(f"/api/quickmatch/{asked.json()['ticket']}").json()
    assert answer["status"] == "seated", answer
    table_id, token = answer["table"], answer["url"].split("#token=", 1)[1]
    me = client.get("/api/account").json()["account"]
    owned = sql(client, "SELECT seat, name FROM mushka_seats WHERE table_id = :t AND account_id = :a",
                t=table_id, a=me["id"])
    assert len(owned) == 1 and owned[0][1] == "Цветана"
    assert sql(client, "SELECT count(*) FROM mushka_seats WHERE table_id = :t AND account_id IS NULL"
               " AND kind = 'human'", t=table_id)[0][0] == 2
    with guests[0].websocket_connect(f"/ws/tables/{table_id}") as ws:  # the token alone does not do
        ws.send_text(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION, "token": token}))
        assert json.loads(ws.receive_text())["code"] == "seat_account"
