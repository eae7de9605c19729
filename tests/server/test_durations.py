"""The lobby's short-game presets and their expected minutes (server/durations.py)."""

from __future__ import annotations

import json

import pytest

from mushka.bots.levels import LEVELS
from mushka.rules import rules_from_text
from mushka.rules.variants import VARIANTS
from mushka.server import durations
from mushka.server.durations import PRESETS, minutes, presets

LEVEL_IDS = [lv.id for lv in LEVELS]


def test_every_preset_is_a_valid_table_at_every_size() -> None:
    for variant, offered in PRESETS.items():
        assert offered[0][0] == "full" and offered[0][1] == {}, "the full game comes first"
        for _, options in offered:
            for players in VARIANTS[variant].players:
                rules = rules_from_text(variant, players, options)
                if "initial_record" in options:
                    assert rules.initial_record == int(options["initial_record"])  # C16
                if "session_games" in options:
                    assert rules.session_games == int(options["session_games"])  # K4


def test_the_data_file_covers_every_offered_table_preset_and_level() -> None:
    data = json.loads(durations.DATA.read_text(encoding="utf-8"))
    assert "method" in data and "person" in data["method"]  # the model is stated with the figures
    for variant, offered in PRESETS.items():
        for _, options in offered:
            for players in VARIANTS[variant].players:
                for level in LEVEL_IDS:
                    m = minutes(variant, options, players, level)
                    assert m is not None and 0.5 < m < 120, (variant, options, players, level, m)


@pytest.mark.parametrize("variant", ["classic", "mistigri"])
def test_a_shorter_record_is_a_shorter_game(variant: str) -> None:
    """Measured, not assumed: from 10 takes less time than the full partie, at every size and level."""
    for players in VARIANTS[variant].players:
        for level in LEVEL_IDS:
            quick = minutes(variant, {"initial_record": "10"}, players, level)
            full = minutes(variant, {}, players, level)
            assert quick is not None and full is not None and quick < full, (players, level, quick, full)


def test_a_short_kopilka_session_is_two_games_and_a_shorter_one() -> None:
    """Measured, not assumed: two games (session_games=2) take less time than four, at every level."""
    assert ("session2", {"session_games": "2"}) in PRESETS["kopilka"]
    tables = durations._tables()
    for level in LEVEL_IDS:
        short = minutes("kopilka", {"session_games": "2"}, 4, level)
        full = minutes("kopilka", {}, 4, level)
        assert short is not None and full is not None and short < full, (level, short, full)
        assert tables["kopilka:2/4"][level]["deals"] == 2.0  # the sample played whole short sessions
    lobby = presets("kopilka", [4], ["club", "random"])
    assert [p.id for p in lobby] == ["full", "session2"]
    assert lobby[1].options == {"session_games": "2"} and set(lobby[1].minutes) == {"club"}


def test_a_level_measured_at_four_only_is_scaled_by_the_club_level() -> None:
    tables = durations._tables()
    at_four, at_six = tables["classic:20/4"], tables["classic:20/6"]
    assert "strong" in at_four and "strong" not in at_six  # the search levels are measured at four
    expected = at_six["club"]["minutes"] * at_four["strong"]["minutes"] / at_four["club"]["minutes"]
    assert minutes("classic", {"initial_record": "20"}, 6, "strong") == pytest.approx(expected)


def test_presets_for_the_lobby_leave_out_what_was_not_measured() -> None:
    out = presets("classic", [3, 4], ["club", "random"])
    assert [p.id for p in out] == ["full", "record20", "record15", "record10"]
    assert out[3].options == {"initial_record": "10"}
    assert set(out[0].minutes) == {"club"} and set(out[0].minutes["club"]) == {"3", "4"}
    assert presets("kopilka", [4], ["club"])[0].minutes["club"]["4"] > 0
    assert presets("no such variant", [4], ["club"]) == []
