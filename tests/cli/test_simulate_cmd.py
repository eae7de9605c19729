"""``mushka simulate``: JSON fields, files, reproducibility and errors in both languages."""

from __future__ import annotations

import csv
import json

import pytest
from typer.testing import CliRunner

from mushka.cli.main import app

runner = CliRunner()


def simulate(*args):
    return runner.invoke(app, ["simulate", "--no-progress", "--jobs", "1", *args])


def as_json(result):
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("variant", ["classic", "kopilka"])
def test_json_fields(variant):
    s = as_json(simulate("-n", "6", "-v", variant, "--bots", "random", "--seed", "3", "--json"))
    assert s["schema"] == "mushka-simulation/1"
    assert s["games"] == 6 and s["seed"] == 3 and s["variant"] == variant
    assert s["bots"] == ["random"] * 4
    assert s["money_balanced"] is True
    assert len(s["seats"]) == 4 and [b["bot"] for b in s["by_bot"]] == ["random"]
    assert sum(seat["wins"] for seat in s["seats"]) == 6 - s.get("pot_shared", 0)
    for seat in s["seats"]:
        m = seat["money"]
        assert m["low"] <= m["value"] <= m["high"] and m["n"] == 6
    assert s["games_per_s"] > 0 and s["jobs"] == 1
    assert ("unluckiest" in s) == (variant == "kopilka")


def test_reproducible_per_seed_and_start():
    def strip(summary):
        return {k: v for k, v in summary.items() if k not in ("seconds", "games_per_s", "jobs", "where")}

    a = as_json(simulate("-n", "5", "--seed", "9", "--json"))
    b = as_json(simulate("-n", "5", "--seed", "9", "--json", "--jobs", "2"))
    c = as_json(simulate("-n", "5", "--seed", "10", "--json"))
    assert strip(a) == strip(b)
    assert a["where"] == {"engine": "inline", "nodes": 1, "cpus": 1}
    assert b["where"] == {"engine": "local", "nodes": 1, "cpus": 2}
    assert strip(a) != strip(c)


def test_files_written(tmp_path):
    out = tmp_path / "out"
    result = simulate("-n", "4", "-v", "mistigri", "--bots", "random#a,random,random,random", "--csv",
                      str(out / "games.csv"), "--plots", str(out / "png"), "--records", str(out / "rec"))
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader((out / "games.csv").open(encoding="utf-8")))
    assert [int(r["index"]) for r in rows] == [0, 1, 2, 3]
    assert all(r["bot_0"] == "random#a" for r in rows)
    for name in ("results.png", "records.png"):
        assert (out / "png" / name).read_bytes()[:4] == b"\x89PNG"
    assert len(list((out / "rec").glob("game-*.json"))) == 4
    assert "games.csv" in result.stdout


def test_a_game_of_a_run_replays_alone(tmp_path):
    run = tmp_path / "run.csv"
    one = tmp_path / "one.csv"
    assert simulate("-n", "5", "--seed", "4", "--csv", str(run)).exit_code == 0
    assert simulate("-n", "1", "--seed", "4", "--start", "3", "--csv", str(one), "--records",
                    str(tmp_path)).exit_code == 0
    row3 = list(csv.DictReader(run.open(encoding="utf-8")))[3]
    (alone,) = csv.DictReader(one.open(encoding="utf-8"))
    assert row3 == alone
    replayed = runner.invoke(app, ["replay", str(tmp_path / "game-000003.json"), "--json"])
    assert replayed.exit_code == 0
    money = json.loads(replayed.stdout)["result"]["money"]
    assert money == [int(row3[f"money_{s}"]) for s in range(4)]


def test_text_summary_in_russian():
    result = simulate("-n", "3", "-v", "kopilka", "--lang", "ru")
    assert result.exit_code == 0
    assert "По местам" in result.stdout and "невезучий" in result.stdout


def test_truncated_games_are_reported():
    s = as_json(simulate("-n", "4", "--max-deals", "2", "--json"))
    assert s["max_deals"] == 2 and s["truncated"] >= 1
    assert s["deals_per_game"]["value"] <= 2


@pytest.mark.parametrize(
    ("args", "english", "russian"),
    [
        (["--bots", "nobody"], "unknown bot 'nobody'", "неизвестный бот 'nobody'"),
        (["--bots", "random,random"], "C1: 2 bots for a table of 4", "C1: 2 ботов на стол из 4"),
        (["-v", "kopilka", "--bots", "random,random,random"], "K1: 3 bots", "K1: 3 ботов"),
        (["--bots", "random:depth=2"], "no parameter 'depth'", "нет параметра 'depth'"),
        (["-o", "nonsense=1"], "unknown option 'nonsense'", "неизвестная настройка 'nonsense'"),
        (["-v", "poker"], "unknown variant 'poker'", "неизвестный вариант 'poker'"),
        (["-n", "0"], "--games must be at least 1", "--games: нужно не меньше 1"),
        (["--confidence", "1.5"], "--confidence must lie between", "--confidence: нужно значение от"),
        (["--max-deals", "0"], "--max-deals must be at least 1", "--max-deals: нужно не меньше 1"),
    ],
)
def test_bad_input_is_refused_in_both_languages(args, english, russian, tmp_path):
    csv_file = tmp_path / "never.csv"
    for lang, text in (("en", english), ("ru", russian)):
        result = simulate("-n", "2", *args, "--csv", str(csv_file), "--lang", lang)
        assert result.exit_code == 2
        assert text in result.stderr
        assert not csv_file.exists()  # nothing was played or written


def test_unwritable_output_fails_before_playing(tmp_path):
    result = simulate("-n", "2", "--csv", str(tmp_path))
    assert result.exit_code == 2
    assert "cannot write" in result.stderr
