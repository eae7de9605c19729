"""§4: the record reader refuses what it cannot read faithfully, with a clear error naming
the field or the rule, never a traceback (deep nesting, bytes that are not UTF-8, a bad
``meta.max_deals``, a starting ``state`` in a game record)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mushka import new_game
from mushka.cli.main import app
from mushka.errors import RecordError
from mushka.records import Record, record_of_game, replay


def game_record(variant: str = "classic", players: int = 4) -> dict:
    from mushka.rules import Rules

    game = new_game(Rules.make(variant, players), rng=3)
    for _ in range(6):
        game.apply(game.legal_actions()[0])
    return record_of_game(game).to_json()


def test_s4_deeply_nested_json_is_a_record_error():
    with pytest.raises(RecordError) as caught:
        Record.loads("[" * 100_000 + "]" * 100_000)
    assert "nested" in caught.value.message("en") and "вложены" in caught.value.message("ru")


def test_s4_bytes_that_are_not_utf8_are_a_record_error():
    data = json.dumps(game_record()).encode("utf-8").replace(b'"classic"', b'"cl\xffssic"')
    with pytest.raises(RecordError) as caught:
        Record.loads(data)
    assert "UTF-8" in caught.value.message("en")


@pytest.mark.parametrize("value", ["5", 0, -3, True, 2.5, None, [1]])
def test_s4_a_bad_max_deals_is_refused_naming_the_field(value):
    data = game_record()
    data["meta"] = {"max_deals": value}
    with pytest.raises(RecordError) as caught:
        Record.from_json(data)
    assert "meta.max_deals" in caught.value.message("en")
    assert "meta.max_deals" in caught.value.message("ru")


def test_s4_a_good_max_deals_still_replays():
    data = game_record()
    data["meta"] = {"max_deals": 40}
    assert replay(Record.from_json(data)) is not None


def test_s4_max_deals_on_a_kopilka_session_is_refused():
    data = game_record("kopilka", 4)
    data["meta"] = {"max_deals": 10}
    with pytest.raises(RecordError) as caught:
        replay(Record.from_json(data))
    assert "meta.max_deals" in caught.value.message("en")


def test_k24_a_starting_state_in_a_game_record_is_refused():
    data = game_record("kopilka", 4)
    data["deals"][0]["state"] = {"pot": 4, "balances": [-1, -1, -1, -1]}
    with pytest.raises(RecordError) as caught:
        Record.from_json(data)
    message = caught.value.message("en")
    assert "state" in message and "K24" in message and "deal 1" in message


@pytest.mark.parametrize("content", [b"[" * 50_000, b'{"format": "mushka-record", "variant": "cl\xff"}'])
def test_s4_replay_command_reports_unreadable_input_without_a_traceback(tmp_path: Path, content: bytes):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    result = CliRunner().invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    out = json.loads(result.stdout)
    assert out["valid"] is False and out["error"] == "RecordError"
