"""Honest ratings (docs/play.md, "Statistics and ratings"): only games people played to the
end count, a person who left loses by forfeit, tables of bots only, tutorials and tables left
at once are not rated, and a table whose only person left ends instead of being played out."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from openskill.models import PlackettLuce
from serverkit import Player, create, running

from mushka.server.ratings import CENTRE, MIN_OWN_MOVES, PROVISIONAL_GAMES, SCALE, Ratings, shown_rating
from mushka.server.sqlstore import SqlStore
from mushka.server.store import ABANDONED, GameRating, SeatSnapshot

CALM = {"initial_record": 200, "flush": "none", "privileged_four": "none"}


def seats(*kinds: str) -> list[SeatSnapshot]:
    """Seats by kind: ``anna`` (a person of that name) or ``bot:LEVEL``."""
    out = []
    for n, kind in enumerate(kinds):
        if kind.startswith("bot:"):
            out.append(SeatSnapshot(n, "bot", None, kind[4:]))
        else:
            out.append(SeatSnapshot(n, "human", kind))
    return out


def result(winner: int, money: list[int]) -> dict[str, object]:
    return {"winner": winner, "money": money, "records": [0] * len(money)}


# --- the ratings, game by game ------------------------------------------------------------------------


@pytest.mark.parametrize("why", ["bots_only", "tutorial", "left_at_once"])
def test_a_game_that_is_not_rated_moves_nobody(why: str) -> None:
    ratings = Ratings()
    ratings.add("t1", "classic", seats("anna", "boris", "bot:club"), result(0, [20, -10, -10]),
                GameRating(rated=False, why=why))
    assert ratings.games == 0 and ratings.lines == {}
    assert ratings.board("anna").you is None


def test_a_table_of_bots_only_stored_before_tables_decided_is_not_rated_either() -> None:
    ratings = Ratings()
    ratings.add("t1", "classic", seats("bot:club", "bot:expert", "bot:random"), result(1, [-5, 10, -5]))
    assert ratings.games == 0 and ratings.lines == {}


def test_a_forfeit_is_last_place_whatever_the_money_said() -> None:
    ratings = Ratings()
    # Anna left with the most money; the bots finished for her: she is last all the same.
    ratings.add("t1", "classic", seats("anna", "boris", "carl"), result(0, [30, -10, -20]),
                GameRating(rated=True, forfeit=(0,)))
    model = PlackettLuce()
    fresh = [[model.rating()] for _ in range(3)]
    expected = model.rate(fresh, ranks=[3.0, 1.0, 2.0])
    board = ratings.board("anna")
    you = board.you
    assert you is not None and you.forfeits == 1 and you.wins == 0 and you.money == 0
    assert you.rating == shown_rating(expected[0][0].mu) < CENTRE
    boris = next(p for p in board.players if p.name == "boris")
    assert boris.rating == shown_rating(expected[1][0].mu) and boris.wins == 0 and boris.money == -10


def test_a_game_a_forfeit_ended_rates_the_leaver_last_and_the_rest_as_equals() -> None:
    ratings = Ratings()
    ratings.add("t1", "mistigri", seats("bot:club", "anna", "bot:club"), None, GameRating(rated=True, forfeit=(1,)))
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in range(3)], ranks=[1.0, 2.0, 1.0])
    board = ratings.board("anna", variant="mistigri")
    assert board.you is not None and board.you.rating == shown_rating(expected[1][0].mu)
    assert board.you.forfeits == 1 and board.you.games == 1
    assert [b.name for b in board.bots] == ["club"]
    # Rated in mistigri only: the classic board does not list her.
    assert ratings.board("anna", variant="classic").you is not None
    assert ratings.board("anna", variant="classic").players == []


def test_the_scale_is_familiar_and_a_rating_is_provisional_for_its_first_games() -> None:
    assert shown_rating(25.0) == CENTRE == 1500
    assert shown_rating(25.0 + 25 / 3) - CENTRE == round(25 / 3 * SCALE) == 400
    ratings = Ratings()
    for n in range(PROVISIONAL_GAMES):
        ratings.add(f"t{n}", "kopilka", seats("anna", "bot:club", "bot:club", "bot:club"),
                    result(0, [30, -10, -10, -10]), GameRating(rated=True))
        you = ratings.board("anna", variant="kopilka").you
        assert you is not None and you.provisional == (n + 1 < PROVISIONAL_GAMES)
        assert you.variant_games == n + 1
    assert you.rating > CENTRE


def test_established_ratings_are_listed_before_provisional_ones() -> None:
    ratings = Ratings()
    for n in range(PROVISIONAL_GAMES):
        ratings.add(f"a{n}", "classic", seats("steady", "bot:club", "bot:club"), result(1, [-10, 20, -10]),
                    GameRating(rated=True))
    ratings.add("b", "classic", seats("lucky", "bot:club", "bot:club"), result(0, [20, -10, -10]),
                GameRating(rated=True))
    board = ratings.board(variant="classic")
    lucky, steady = (next(p for p in board.players if p.name == name) for name in ("lucky", "steady"))
    assert lucky.rating > steady.rating and lucky.provisional and not steady.provisional
    assert [p.name for p in board.players] == ["steady", "lucky"]


# --- the tables decide ----------------------------------------------------------------------------------


def wait_until(predicate: object, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():  # type: ignore[operator]
        assert time.monotonic() < deadline, "it never happened"
        time.sleep(0.05)


def test_a_table_whose_only_person_left_ends_and_he_loses_by_forfeit(tmp_path: Path) -> None:
    with running(tmp_path, grace=0.3, bot_delay=0.0) as client:
        made = create(client, variant="classic", seats=["me", "bot:random", "bot:random"], start=True, name="Anna",
                      options=CALM)
        table_id = made["table"]["id"]
        me = Player(client, table_id, made["tokens"][0]["token"])
        for _ in range(MIN_OWN_MOVES):
            view = me.wait_turn()
            me.act(view["deal"]["legal"][0])
            me.until(lambda m: m["type"] == "update" and m["seat"] == 0)
        watcher = Player(client, table_id)
        me.close()
        ended = watcher.until(lambda m: m["type"] == "table" and m["table"]["status"] == "over")
        assert ended["table"]["status"] == "over"
        ply = watcher.ply
        time.sleep(0.3)  # no bot plays the game out for nobody
        assert client.get(f"/api/tables/{table_id}").json()["status"] == "over"
        watcher.close()
        assert watcher.ply == ply
        board = client.get("/api/ratings", params={"name": "anna"}).json()
        assert board["games"] == 1 and board["you"]["forfeits"] == 1 and board["you"]["rating"] < 1500
    store = SqlStore(f"sqlite:///{tmp_path / 'mushka-test.db'}")
    try:
        snap = store.load(table_id)
        assert snap is not None and snap.status == ABANDONED and snap.finished is not None
        assert snap.rating is not None and GameRating.loads(snap.rating) == GameRating(rated=True, forfeit=(0,))
    finally:
        store.close()
    # A restart counts it again from storage, the same way.
    with running(tmp_path) as client:
        again = client.get("/api/ratings", params={"name": "anna"}).json()
        assert again["you"] == board["you"]


def test_a_table_its_only_person_left_at_once_ends_unrated(tmp_path: Path) -> None:
    with running(tmp_path, grace=0.3, bot_delay=0.0) as client:
        made = create(client, variant="classic", seats=["me", "bot:random", "bot:random"], start=True, name="Masha",
                      options=CALM)
        table_id = made["table"]["id"]
        me = Player(client, table_id, made["tokens"][0]["token"])
        me.close()
        wait_until(lambda: client.get(f"/api/tables/{table_id}").json()["status"] == "over")
        board = client.get("/api/ratings", params={"name": "masha"}).json()
        assert board["you"] is None and board["games"] == 0 and board["bots"] == []


def test_a_table_of_bots_only_played_to_its_end_is_not_rated(tmp_path: Path) -> None:
    with running(tmp_path, bot_delay=0.0) as client:
        made = create(client, variant="classic", seats=["bot:random"] * 3, start=True,
                      options={"initial_record": 5})
        table_id = made["table"]["id"]
        wait_until(lambda: client.get(f"/api/tables/{table_id}").json()["status"] == "over", 60)
        board = client.get("/api/ratings").json()
        assert board["games"] == 0 and board["bots"] == []
    store = SqlStore(f"sqlite:///{tmp_path / 'mushka-test.db'}")
    try:
        snap = store.load(table_id)
        assert snap is not None and snap.rating is not None
        assert GameRating.loads(snap.rating) == GameRating(rated=False, why="bots_only")
    finally:
        store.close()


def test_a_tutorial_table_says_from_its_start_that_it_is_not_rated(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        reply = client.post("/api/tutorial", json={"name": "Anna"})
        assert reply.status_code == 201, reply.text
        table_id = reply.json()["table"]["id"]
    store = SqlStore(f"sqlite:///{tmp_path / 'mushka-test.db'}")
    try:
        snap = store.load(table_id)
        assert snap is not None and snap.rating is not None and snap.finished is None
        assert GameRating.loads(snap.rating) == GameRating(rated=False, why="tutorial")
    finally:
        store.close()
