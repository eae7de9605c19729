"""Friends, presence, invitations, mutes, blocks, reports and profiles (docs/friends.md, rules
F1-F6), through the HTTP API and the table WebSockets of a running server; the last test runs
two server processes' apps on one PostgreSQL database."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from serverkit import config, running
from socialkit import Person, chat_lines, get, post, seated, sign_up
from sqlalchemy import text
from starlette.testclient import TestClient
from storekit import snapshot
from typer.testing import CliRunner

from mushka.cli.main import app
from mushka.i18n import tr
from mushka.server import presence, socialbodies
from mushka.server.app import create_app, lobby_of
from mushka.server.socialdb import SocialBook, now_ms
from mushka.server.sqlstore import SqlStore
from mushka.server.store import GameRating, SeatSnapshot


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """A running server on a fresh SQLite file."""
    with running(tmp_path) as c:
        yield c


def wait_until(check: Callable[[], bool], seconds: float = 10.0) -> None:
    """Wait for something the server does after a WebSocket closed (not a timing test)."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "never happened"
        time.sleep(0.02)


def book(client: TestClient) -> SocialBook:
    store = lobby_of(client.app).store
    assert isinstance(store, SqlStore)
    return SocialBook(store.engine)


def friends_of(client: TestClient, who: Person) -> dict[str, dict[str, object]]:
    return {f["name"]: f for f in get(client, who, "/api/friends")["friends"]}


def notices_of(client: TestClient, who: Person, table: str = "") -> list[dict[str, object]]:
    found: list[dict[str, object]] = get(client, who, f"/api/notices?table={table}")["notices"]
    return found


def table_for(client: TestClient, host: Person) -> tuple[str, str]:
    """A table of three for friends (two open seats) made by ``host``: its id and his token."""
    made = post(client, host, "/api/tables", {"seats": ["me", "open", "open"], "name": host.name}, 201)
    return made["table"]["id"], made["tokens"][0]["token"]


def test_f1_friends_notices_and_mutes_are_for_signed_in_players(client: TestClient) -> None:
    for path in ("/api/friends", "/api/notices", "/api/hides", "/api/friends/link"):
        reply = get(client, None, path, 401)
        assert reply["error"]["code"] == "sign_in_needed" and reply["error"]["rule"] == "F1"
    assert get(client, None, "/api/friends?lang=ru", 401)["error"]["message"].startswith("F1: сначала войдите")
    for path, body in (("/api/friends", {"name": "x"}), ("/api/invitations", {"name": "x", "table": "t"}),
                       ("/api/hides", {"name": "x", "kind": "mute"})):
        assert post(client, None, path, body, 401)["error"]["code"] == "sign_in_needed"


def test_f2_a_request_by_name_is_told_accepted_and_answered(client: TestClient) -> None:
    anna, boris = sign_up(client, "Anna"), sign_up(client, "Борис")
    assert post(client, anna, "/api/friends", {"name": "  БОРИС "}) == {"name": "Борис", "status": "asked"}
    assert friends_of(client, anna)["Борис"]["status"] == "outgoing"
    assert friends_of(client, boris)["Anna"]["status"] == "incoming"
    told = notices_of(client, boris)
    assert [(n["kind"], n["name"]) for n in told] == [("friend_request", "Anna")]
    assert told[0]["text"] == "Anna wants to be your friend"
    assert get(client, boris, "/api/notices?lang=ru")["notices"][0]["text"] == "Anna хочет добавить вас в друзья"
    # Asking again changes nothing; the other asking back accepts.
    assert post(client, anna, "/api/friends", {"name": "Борис"})["status"] == "asked"
    assert post(client, boris, "/api/friends", {"name": "anna"}) == {"name": "Anna", "status": "accepted"}
    assert friends_of(client, anna)["Борис"]["status"] == "accepted"
    assert friends_of(client, boris)["Anna"]["status"] == "accepted"
    assert notices_of(client, boris) == []  # the answered request is not shown again
    assert [n["kind"] for n in notices_of(client, anna)] == ["friend_accepted"]
    assert post(client, anna, "/api/friends", {"name": "Борис"})["status"] == "friends"
    # Removed: neither lists the other.
    assert post(client, boris, "/api/friends/remove", {"name": "Anna"}) == {"changed": True}
    assert friends_of(client, anna) == {} and friends_of(client, boris) == {}
    assert post(client, boris, "/api/friends/remove", {"name": "Anna"}) == {"changed": False}


def test_f2_unknown_names_oneself_and_bad_bodies_are_refused_and_change_nothing(client: TestClient) -> None:
    anna = sign_up(client, "Anna")
    unknown = post(client, anna, "/api/friends", {"name": "Nobody"}, 404)["error"]
    assert unknown["code"] == "no_player" and unknown["rule"] == "F2" and "'Nobody'" in unknown["message"]
    assert post(client, anna, "/api/friends", {"name": "anna"}, 400)["error"]["code"] == "yourself"
    assert post(client, anna, "/api/friends", {"name": 5}, 400)["error"]["code"] == "bad_body"
    assert post(client, anna, "/api/friends", {"name": "x" * 40}, 400)["error"]["code"] == "bad_body"
    assert post(client, anna, "/api/friends", {"name": "Boris", "extra": 1}, 400)["error"]["code"] == "bad_body"
    assert friends_of(client, anna) == {}


def test_f2_a_friend_link_makes_friends_at_once_and_a_new_one_replaces_it(client: TestClient) -> None:
    anna, boris, vera = sign_up(client, "Anna"), sign_up(client, "Boris"), sign_up(client, "Vera")
    link = get(client, anna, "/api/friends/link")
    assert link["url"] == f"/?friend={link['code']}" and get(client, anna, "/api/friends/link") == link
    assert post(client, boris, "/api/friends/link", {"code": link["code"]}) == {"name": "Anna", "status": "accepted"}
    assert friends_of(client, anna)["Boris"]["status"] == "accepted"
    assert [n["kind"] for n in notices_of(client, anna)] == ["friend_accepted"]
    assert post(client, boris, "/api/friends/link", {"code": link["code"]})["status"] == "friends"
    assert post(client, anna, "/api/friends/link", {"code": link["code"]}, 400)["error"]["code"] == "yourself"
    fresh = get(client, anna, "/api/friends/link?new=1")
    assert fresh["code"] != link["code"]
    gone = post(client, vera, "/api/friends/link", {"code": link["code"]}, 404)["error"]
    assert gone["code"] == "no_friend_link" and gone["rule"] == "F2"
    assert "Vera" not in friends_of(client, anna)
    assert post(client, vera, "/api/friends/link", {"code": fresh["code"]})["status"] == "accepted"


def test_f3_a_friend_is_invited_to_a_table_and_sees_where_his_friends_are(client: TestClient) -> None:
    anna, boris, vera = sign_up(client, "Anna"), sign_up(client, "Boris"), sign_up(client, "Vera")
    post(client, boris, "/api/friends/link", {"code": get(client, anna, "/api/friends/link")["code"]})
    table, token = table_for(client, anna)
    assert friends_of(client, anna)["Boris"]["online"] is False
    refused = post(client, anna, "/api/invitations", {"name": "Vera", "table": table}, 403)["error"]
    assert refused["code"] == "not_friends" and refused["rule"] == "F3"
    assert post(client, anna, "/api/invitations", {"name": "Boris", "table": "nosuchtable"}, 400)["error"][
        "code"] == "bad_invitation"
    assert notices_of(client, vera) == []
    with seated(client, anna, table, token):
        assert post(client, anna, "/api/invitations", {"name": "Boris", "table": table}) == {"changed": True}
        assert post(client, anna, "/api/invitations", {"name": "Boris", "table": table}) == {"changed": False}
        invites = [n for n in notices_of(client, boris) if n["kind"] == "invite"]
        assert [(n["name"], n["table"]) for n in invites] == [("Anna", table)]
        # Boris's page is open (his notices were asked for): he is online, at no table yet.
        assert friends_of(client, anna)["Boris"] == {"name": "Boris", "status": "accepted", "online": True,
                                                     "table": None}
        # Anna is at her table for as long as her WebSocket is open.
        assert friends_of(client, boris)["Anna"]["table"] == table
        post(client, boris, f"/api/notices/{invites[0]['id']}/seen")
        assert [n for n in notices_of(client, boris) if n["kind"] == "invite"] == []
        assert post(client, vera, f"/api/notices/{invites[0]['id']}/seen", status=404)["error"]["code"] == "no_notice"
        joined = post(client, boris, f"/api/tables/{table}/join", {"name": "Boris"})
        with seated(client, boris, table, joined["token"]["token"]):
            assert friends_of(client, anna)["Boris"]["table"] == table
    # Her connection closed: she is at no table any more (as soon as the server has seen it go).
    wait_until(lambda: friends_of(client, boris)["Anna"]["table"] is None)
    assert friends_of(client, boris)["Anna"]["online"] is False


def test_f4_a_mute_hides_an_accounts_lines_from_me_only_at_every_table(client: TestClient) -> None:
    anna, boris = sign_up(client, "Anna"), sign_up(client, "Boris")
    table, token = table_for(client, anna)
    joined = post(client, boris, f"/api/tables/{table}/join", {"name": "Boris"})
    guest = post(client, None, f"/api/tables/{table}/join", {"name": "Гость"})
    with (seated(client, anna, table, token) as a, seated(client, boris, table, joined["token"]["token"]) as b,
          seated(client, None, table, guest["token"]["token"]) as g):
        a.send_text(json.dumps({"type": "chat", "text": "before"}))
        assert [m["text"] for m in chat_lines(b, 1)] == ["before"]
        assert post(client, boris, "/api/hides", {"name": "anna", "kind": "mute"}) == {"changed": True}
        assert get(client, boris, "/api/hides") == {"hides": [{"name": "Anna", "kind": "mute"}]}
        a.send_text(json.dumps({"type": "chat", "text": "muted now"}))
        a.send_text(json.dumps({"type": "chat", "phrase": "hello"}))
        assert chat_lines(b, 2) == []
        assert [m["text"] for m in chat_lines(g, 3)] == ["before", "muted now", "Hello!"]
        assert [m["text"] for m in chat_lines(a, 4)] == ["before", "muted now", "Hello!"]
        b.send_text(json.dumps({"type": "chat", "text": "I still talk"}))
        assert [m["text"] for m in chat_lines(a, 5)] == ["I still talk"]
    # Coming back to the table: the lines kept for newcomers leave hers out too, even the earlier.
    with seated(client, boris, table, joined["token"]["token"]) as b:
        assert [m["text"] for m in chat_lines(b, 6)] == ["I still talk"]
    post(client, boris, "/api/hides", {"name": "Anna", "kind": "none"})
    with seated(client, boris, table, joined["token"]["token"]) as b:
        assert [m["text"] for m in chat_lines(b, 7)] == ["before", "muted now", "Hello!", "I still talk"]


def test_f4_a_block_ends_the_friendship_and_stops_requests_and_invitations(client: TestClient) -> None:
    anna, boris = sign_up(client, "Anna"), sign_up(client, "Boris")
    post(client, boris, "/api/friends/link", {"code": get(client, anna, "/api/friends/link")["code"]})
    post(client, anna, "/api/hides", {"name": "Boris", "kind": "block"})
    assert friends_of(client, anna) == {} and friends_of(client, boris) == {}
    assert notices_of(client, anna) == []  # the friendship's notice went with it
    # Boris may still ask, but Anna is not told, and his link does not work on her.
    assert post(client, boris, "/api/friends", {"name": "Anna"})["status"] == "asked"
    assert notices_of(client, anna) == [] and friends_of(client, anna) == {}
    code = get(client, boris, "/api/friends/link")["code"]
    assert post(client, anna, "/api/friends/link", {"code": code}, 403)["error"]["code"] == "blocked"
    assert post(client, anna, "/api/friends", {"name": "Boris"}, 403)["error"]["rule"] == "F2"
    assert get(client, anna, "/api/hides") == {"hides": [{"name": "Boris", "kind": "block"}]}
    assert post(client, anna, "/api/hides", {"name": "Anna", "kind": "mute"}, 400)["error"]["code"] == "yourself"
    assert post(client, anna, "/api/hides", {"name": "Nobody", "kind": "mute"}, 404)["error"]["rule"] == "F4"
    assert post(client, anna, "/api/hides", {"name": "Boris", "kind": "ban"}, 400)["error"]["code"] == "bad_body"


def test_f5_a_reported_line_is_kept_for_the_operator_once_per_reporter(client: TestClient, tmp_path: Path) -> None:
    anna, boris = sign_up(client, "Anna"), sign_up(client, "Boris")
    table, token = table_for(client, anna)
    guest = post(client, None, f"/api/tables/{table}/join", {"name": "Гость"})
    with seated(client, anna, table, token) as a, seated(client, None, table, guest["token"]["token"]) as g:
        a.send_text(json.dumps({"type": "chat", "text": "rude words"}))
        a.send_text(json.dumps({"type": "chat", "phrase": "oops"}))
        line, phrase = chat_lines(g, 1)
    body = {"table": table, "at": line["at"], "seat": line["seat"], "name": line["name"], "text": line["text"]}
    assert post(client, None, "/api/reports", body, 201) == {"changed": True}
    assert post(client, None, "/api/reports", body, 200) == {"changed": False}
    assert post(client, boris, "/api/reports", body, 201) == {"changed": True}
    # A line nobody said is refused: a report quotes only what was said.
    forged = post(client, boris, "/api/reports", {**body, "text": "something else"}, 404)["error"]
    assert forged["code"] == "no_line" and forged["rule"] == "F5"
    assert post(client, boris, "/api/reports", {**body, "table": "elsewhere"}, 404)["error"]["code"] == "no_line"
    # A quick phrase is found in the reader's language, whichever it is.
    ru = {"table": table, "at": phrase["at"], "seat": 0, "name": "Anna", "text": tr("chat.phrase.oops", "ru")}
    assert post(client, anna, "/api/reports", ru, 201)["changed"] is True
    assert post(client, anna, "/api/reports", {**ru, "text": phrase["text"]}, 200)["changed"] is False
    kept = book(client).reports()
    assert len(kept) == 3
    rude = [r for r in kept if r.text == "rude words"]
    assert {r.reporter_id is None for r in rude} == {True, False}
    assert all(r.speaker == "Anna" and r.speaker_id is not None and r.table_id == table for r in rude)
    # The operator reads them with `mushka reports`: one JSON object a line, newest first.
    listed = CliRunner().invoke(app, ["reports", "--database-url", f"sqlite:///{tmp_path / 'mushka-test.db'}"])
    assert listed.exit_code == 0, listed.output
    lines = [json.loads(line) for line in listed.output.splitlines()]
    assert [line["text"] for line in lines] == ["Oops, misclick.", "rude words", "rude words"]
    assert {line["by"] for line in lines[1:]} == {"Boris", "guest at testclient"}
    assert lines[1]["speaker"] == "Anna [account Anna]" and lines[1]["table"] == table


def finished(store: SqlStore, table_id: str, at: datetime, people: list[tuple[str, str]], money: list[int]) -> None:
    """A rated finished game of classic between ``people`` (name, account id), stored."""
    names = [n for n, _ in people]
    winner = max(range(len(money)), key=lambda i: money[i])
    record = {"seats": names, "result": {"game": {"winner": winner, "money": money, "records": [0] * len(money)}}}
    store.create(snapshot(table_id, status="over", winner=winner, finished=at, record=json.dumps(record),
                          names=tuple(names), rating=GameRating(rated=True).dumps(),
                          seats=tuple(SeatSnapshot(i, "human", n, None, f"h{i}", a)
                                      for i, (n, a) in enumerate(people))))


def test_f6_a_profile_has_ratings_with_history_recent_games_and_results_against_friends(client: TestClient) -> None:
    anna, boris = sign_up(client, "Anna"), sign_up(client, "Boris")
    post(client, boris, "/api/friends/link", {"code": get(client, anna, "/api/friends/link")["code"]})
    lobby = lobby_of(client.app)
    store = lobby.store
    assert isinstance(store, SqlStore)
    ids = {r["name"]: r["id"] for r in (get(client, p, "/api/account")["account"] for p in (anna, boris))}
    start = datetime(2026, 12, 1, tzinfo=UTC)
    outcomes = [[30, 10, 5], [5, 30, 10], [40, 0, 1]]  # Anna first, then second, then first
    for n, money in enumerate(outcomes):
        table_id = f"game{n}"
        finished(store, table_id, start + timedelta(hours=n),
                 [("Anna", ids["Anna"]), ("Boris", ids["Boris"]), ("Гость", None)], money)  # type: ignore[list-item]
        loaded = store.load(table_id)
        assert loaded is not None and lobby.ratings.add_snapshot(loaded)
    mine = get(client, anna, "/api/profiles/anna")
    assert mine["name"] == "Anna" and mine["account"] is True and mine["friend"] == "self"
    assert mine["games"] == 3 and mine["wins"] == 2
    (classic,) = mine["variants"]
    assert classic["variant"] == "classic" and classic["games"] == 3 and classic["provisional"] is True
    points = [p["rating"] for p in classic["history"]]
    assert [p["table"] for p in classic["history"]] == ["game0", "game1", "game2"]
    assert points[0] > 1500 and points[1] < points[0] and points[2] > points[1] and points[-1] == classic["rating"]
    assert [g["table"] for g in mine["recent"]] == ["game2", "game1", "game0"]
    assert [g["won"] for g in mine["recent"]] == [True, False, True]
    assert mine["recent"][0]["replay"] == "/?replay=game2"
    assert mine["recent"][0]["review"] == "/?replay=game2&review=0"
    assert mine["recent"][0]["names"] == ["Anna", "Boris", "Гость"]
    assert mine["friends"] == [{"name": "Boris", "games": 3, "ahead": 2, "behind": 1}]
    theirs = get(client, boris, "/api/profiles/Anna")
    assert theirs["friend"] == "accepted" and theirs["hidden"] == "none"
    assert get(client, None, "/api/profiles/Anna")["friend"] is None
    # A guest's name with rated games has a profile too (no friends, no account).
    guest = get(client, None, "/api/profiles/гость")
    assert guest["account"] is False and guest["games"] == 3 and [g["table"] for g in guest["recent"]] == [
        "game2", "game1", "game0"]
    unknown = get(client, None, "/api/profiles/nobody", 404)["error"]
    assert unknown["code"] == "no_profile" and unknown["rule"] == "F6"


@pytest.mark.slow
def test_presence_and_notices_cross_processes_on_one_postgresql_database(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from pgkit import throwaway

    # Every ping refreshes a connection's presence and mutes (the page's pings come every 5 s, the
    # refresh at most every 10 s): the test need not wait for it.
    monkeypatch.setattr(presence, "TOUCH_EVERY_MS", 0)
    monkeypatch.setattr(presence, "FLUSH_EVERY_MS", 0)
    with throwaway() as cluster:
        url = cluster.new_database()
        first = create_app(config(tmp_path, database_url=url, node="one"))
        second = create_app(config(tmp_path, database_url=url, node="two"))
        with TestClient(first) as one, TestClient(second) as two:
            anna, boris = sign_up(one, "Anna"), sign_up(two, "Boris")
            # A request made through one process is a notice read through the other.
            post(one, anna, "/api/friends", {"name": "Boris"})
            assert [n["kind"] for n in notices_of(two, boris)] == ["friend_request"]
            post(two, boris, "/api/friends", {"name": "Anna"})
            assert friends_of(one, anna)["Boris"]["status"] == "accepted"
            # Anna sits at a table of process one; Boris, on process two, sees her there.
            table, token = table_for(one, anna)
            with seated(one, anna, table, token) as a:
                assert friends_of(two, boris)["Anna"] == {"name": "Anna", "status": "accepted", "online": True,
                                                         "table": table}
                post(two, boris, "/api/invitations", {"name": "Anna", "table": table})
                assert [(n["kind"], n["table"]) for n in notices_of(one, anna, table)] == [
                    ("friend_accepted", None), ("invite", table)]
                # Boris watches Anna's table (process one serves it) and mutes her through process two:
                # his connection reads it at its next refresh, and her lines stop coming.
                joined = post(one, boris, f"/api/tables/{table}/join", {"name": "Boris"})
                with seated(one, boris, table, joined["token"]["token"]) as b:
                    a.send_text(json.dumps({"type": "chat", "text": "heard"}))
                    assert [m["text"] for m in chat_lines(b, 1)] == ["heard"]
                    post(two, boris, "/api/hides", {"name": "Anna", "kind": "mute"})
                    assert book_hidden(one, "Boris") == {"Anna"}
                    chat_lines(b, 2)  # a ping: the refresh, done before the connection reads on
                    chat_lines(b, 5)  # (its messages are handled in order: this pong comes after it)
                    a.send_text(json.dumps({"type": "chat", "text": "not heard"}))
                    assert chat_lines(b, 3) == []
                    assert [m["text"] for m in chat_lines(a, 4)] == ["heard", "not heard"]
            wait_until(lambda: friends_of(two, boris)["Anna"]["table"] is None)


def book_hidden(client: TestClient, owner: str) -> set[str]:
    """Whom ``owner`` hides, read through ``client``'s process."""
    social = book(client)
    person = social.person(owner)
    assert person is not None
    names = social.people(social.hidden([person.id])[person.id])
    return {p.name for p in names.values()}


DOC = Path(__file__).resolve().parents[2] / "docs" / "friends.md"
FENCE = re.compile(r"^```json social:(\S+)\n(.*?)^```", re.S | re.M)


@pytest.mark.parametrize(("model", "text"), FENCE.findall(DOC.read_text(encoding="utf-8")))
def test_every_example_of_the_document_is_a_body_of_the_api(model: str, text: str) -> None:
    kind = getattr(socialbodies, model)
    data = json.loads(text)
    parsed = kind.model_validate(data, strict=True)
    assert parsed.model_dump(exclude_unset=True).keys() == data.keys()


def test_presence_runs_out_by_itself_and_old_rows_are_purged(client: TestClient) -> None:
    anna, boris = sign_up(client, "Anna"), sign_up(client, "Boris")
    post(client, boris, "/api/friends/link", {"code": get(client, anna, "/api/friends/link")["code"]})
    notices_of(client, boris, "not a table!")  # his page is open; what it says of a table is checked
    assert friends_of(client, anna)["Boris"] == {"name": "Boris", "status": "accepted", "online": True,
                                                 "table": None}
    social = book(client)
    with social.engine.begin() as conn:  # as if his process had died 31 seconds ago
        conn.execute(text("UPDATE mushka_presence SET seen_ms = seen_ms - 31000"))
    assert friends_of(client, anna)["Boris"]["online"] is False
    assert len(notices_of(client, anna)) == 1
    social.purge(now_ms() + 1)
    with social.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM mushka_notices")).scalar_one() == 0
        assert conn.execute(text("SELECT count(*) FROM mushka_presence")).scalar_one() == 0


def test_p6_profiles_are_read_within_the_addresss_budget(tmp_path: Path) -> None:
    with running(tmp_path, read_rate=0.01, read_burst=2) as client:
        assert [client.get("/api/profiles/nobody").status_code for _ in range(3)] == [404, 404, 429]
        assert client.get("/api/profiles/nobody").json()["error"]["rule"] == "P6"


def test_deleting_an_account_takes_its_friends_mutes_presence_and_notices_with_it(client: TestClient) -> None:
    anna, boris = sign_up(client, "Anna"), sign_up(client, "Boris")
    post(client, boris, "/api/friends/link", {"code": get(client, anna, "/api/friends/link")["code"]})
    post(client, boris, "/api/hides", {"name": "Anna", "kind": "mute"})
    post(client, anna, "/api/hides", {"name": "Boris", "kind": "block"})
    post(client, anna, "/api/friends/link", {"code": get(client, boris, "/api/friends/link")["code"]}, 403)
    notices_of(client, anna)
    reply = client.request("DELETE", "/api/account", json={"name": "Anna"}, headers=anna.headers)
    assert reply.status_code == 204, reply.text
    with book(client).engine.connect() as conn:
        for table in ("mushka_friends", "mushka_hides", "mushka_presence", "mushka_notices"):
            assert conn.execute(text(f"SELECT count(*) FROM {table}")).scalar_one() == 0, table
        assert conn.execute(text("SELECT count(*) FROM mushka_friend_codes")).scalar_one() == 1  # Boris's
    assert friends_of(client, boris) == {} and get(client, boris, "/api/hides") == {"hides": []}
    assert post(client, boris, "/api/friends", {"name": "Anna"}, 404)["error"]["code"] == "no_player"


def test_the_presence_of_a_processs_connections_is_written_together(client: TestClient,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    anna, boris = sign_up(client, "Anna"), sign_up(client, "Boris")
    first, anna_token = table_for(client, anna)
    second, boris_token = table_for(client, boris)
    writes: list[list[tuple[str, str]]] = []
    touch = SocialBook.touch

    def recorded(self: SocialBook, node: str, places: list[tuple[str, str]]) -> None:
        writes.append([table for _, table in places])
        touch(self, node, places)

    monkeypatch.setattr(SocialBook, "touch", recorded)
    monkeypatch.setattr(presence, "TOUCH_EVERY_MS", 0)  # every ping makes the connection's row due
    with seated(client, anna, first, anna_token) as a, seated(client, boris, second, boris_token) as b:
        writes.clear()  # (each hello wrote its own row)
        monkeypatch.setattr(presence, "FLUSH_EVERY_MS", 10**9)  # due rows wait for the next flush
        presence._FLUSHED.clear()
        # (A connection handles its messages in order: a second ping's pong comes after the first's flush.)
        chat_lines(a, 1)  # the first flush of the process: Anna's row
        chat_lines(a, 2)
        chat_lines(b, 3)  # Boris's row is due, and waits for the next flush
        chat_lines(b, 4)
        assert writes == [[first]]
        monkeypatch.setattr(presence, "FLUSH_EVERY_MS", 0)
        chat_lines(a, 5)  # the next flush writes both rows in one transaction
        chat_lines(a, 6)
        assert writes[0] == [first] and sorted(writes[1]) == sorted([first, second])
