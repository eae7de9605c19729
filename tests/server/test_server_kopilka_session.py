"""A kopilka table of a short session (option session_games=2, K4/K23) through the server:
made by the lobby's preset, played to its end after two games, and stored as a record that
replays; a four-game table's record still carries no such option."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from serverkit import create, running

from mushka.match import Session
from mushka.records import Record, replay


def wait_until(predicate: Any, seconds: float = 60.0) -> None:
    """Poll ``predicate`` until it is true (bots-only tables play by themselves)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError("timed out")


@pytest.mark.parametrize("games", [2, 4])
def test_a_bots_only_session_ends_after_its_games_and_its_record_replays(tmp_path: Path, games: int) -> None:
    options = {"session_games": "2"} if games == 2 else {}
    with running(tmp_path, bot_delay=0.0) as client:
        made = create(client, variant="kopilka", seats=["bot:random"] * 4, start=True, options=options)
        table_id = made["table"]["id"]
        assert made["table"]["options"].get("session_games") == ("2" if games == 2 else None)
        wait_until(lambda: client.get(f"/api/tables/{table_id}").json()["status"] == "over")
        reply = client.get(f"/api/tables/{table_id}/record")
        assert reply.status_code == 200, reply.text
        record = Record.loads(reply.text)
        rules_en = client.get(f"/api/tables/{table_id}/rules").text
    assert ("session_games" in record.options) == (games == 2)
    assert len(record.deals) == games
    game = replay(record)
    assert isinstance(game, Session) and game.is_over and len(game.finished) == games
    assert game.result is not None and sum(game.result.money) == 0 and game.pot == 0  # K24
    assert ("two games" in rules_en) == (games == 2)
