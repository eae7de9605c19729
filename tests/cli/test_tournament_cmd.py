"""``mushka tournament``: JSON fields and errors."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from mushka.bots import BOTS, register_bot
from mushka.cli.main import app

runner = CliRunner()


def tournament(*args):
    return runner.invoke(app, ["tournament", "--no-progress", "--jobs", "1", *args])


class FirstBot:
    name = "first"

    def choose(self, view, rng):
        return view.deal.legal[0]


def test_json_fields_round_robin():
    register_bot("first", FirstBot)
    try:
        result = tournament("--bots", "random,first", "-n", "4", "-v", "mistigri", "--bootstrap", "200", "--json")
    finally:
        BOTS.pop("first", None)
    assert result.exit_code == 0, result.output
    r = json.loads(result.stdout)
    assert r["schema"] == "mushka-tournament/1"
    assert r["format"] == "round-robin" and r["seatings"] == "rotate"
    assert r["entrants"] == ["random", "first"]
    assert r["tables"] == [["random", "random", "first", "first"]]
    assert r["games"] == 4 * 4 and r["seeds"] == 4
    assert r["money_balanced"] is True
    assert {row["bot"] for row in r["ratings"]} == {"random", "first"}
    for row in r["ratings"]:
        assert row["seat_games"] == 32
        for key in ("money", "score", "elo", "win_rate"):
            assert row[key]["low"] <= row[key]["value"] <= row[key]["high"]
    assert len(r["pairwise"]) == 2


def test_gauntlet_text_output_in_russian():
    result = tournament("--bots", "random,random,random", "-f", "gauntlet", "-n", "2", "-v", "kopilka",
                        "--seatings", "all", "--lang", "ru")
    assert result.exit_code == 0, result.output
    assert "Рейтинги" in result.stdout and "random#3" in result.stdout


def test_errors():
    cases = [
        (["--bots", "random"], "at least 2 bots", "не меньше 2 ботов"),
        (["--bots", "random,random", "-f", "mixed"], "at least 4 bots", "не меньше 4 ботов"),
        (["--bots", "random,random", "-f", "swiss"], "unknown tournament format", "неизвестный вид турнира"),
        (["--bots", "random,random", "--seatings", "shuffle"], "unknown seatings", "неизвестная рассадка"),
        (["--bots", "random,ghost"], "unknown bot 'ghost'", "неизвестный бот 'ghost'"),
        (["--bots", "random,random", "--bootstrap", "5"], "--bootstrap must be at least 100",
         "--bootstrap: нужно не меньше 100"),
        ([], "at least 2 bots", "не меньше 2 ботов"),
    ]
    for args, english, russian in cases:
        for lang, text in (("en", english), ("ru", russian)):
            result = tournament("-n", "1", *args, "--lang", lang)
            assert result.exit_code == 2, (args, result.output)
            assert text in result.stderr
