"""The summary of a run: documented fields with sane values, CSV and plots."""

from __future__ import annotations

import csv
import io

import pytest
from rich.console import Console

from mushka import make_rules
from mushka.sim.play import SimTable, run_jobs, simulation_jobs
from mushka.sim.plots import write_plots
from mushka.sim.summary import csv_header, render_summary, summarise_run, write_csv

PNG = b"\x89PNG\r\n\x1a\n"


def _run(variant, bots, games=30, seed=2, **kw):
    rules = make_rules(variant, len(bots))
    stats = run_jobs(SimTable.of(rules), simulation_jobs(bots, games, seed, **kw), track=games)
    return rules, stats


@pytest.mark.parametrize("variant", ["classic", "mistigri", "kopilka"])
def test_summary_fields_and_values(variant):
    bots = ("random#a", "random", "random", "random")
    rules, stats = _run(variant, bots)
    s = summarise_run(stats, rules, seed=2)
    assert s["games"] == 30 and s["variant"] == variant and s["players"] == 4
    assert s["money_balanced"] is True
    assert s["bots"] == list(bots)
    assert [b["bot"] for b in s["by_bot"]] == ["random#a", "random"]
    assert sum(seat["money"]["value"] for seat in s["seats"]) == pytest.approx(0.0, abs=1e-3)  # rounded to 4 places
    for seat in s["seats"]:
        for key in ("money", "win_rate"):
            est = seat[key]
            assert est["low"] <= est["value"] <= est["high"]
        assert seat["games"] == 30
    wins = sum(seat["wins"] for seat in s["seats"])
    shared = s.get("pot_shared", 0)
    assert wins == 30 - shared
    assert s["deals"] == sum(g.deals for g in stats)
    assert s["by_bot"][1]["seat_games"] == 90 and s["by_bot"][1]["seats"] == [1, 2, 3]
    # A bot alone in its seat is summed up exactly like that seat.
    assert s["by_bot"][0]["win_rate"] == s["seats"][0]["win_rate"]
    assert s["by_bot"][0]["money"] == s["seats"][0]["money"]
    # The mean of the three random seats equals the per-bot mean over the games.
    three = sum(s["seats"][k]["money"]["value"] for k in (1, 2, 3)) / 3
    assert s["by_bot"][1]["money"]["value"] == pytest.approx(three, abs=1e-3)
    if variant == "kopilka":
        assert s["deals_per_game"]["value"] == 4
        low = s["unluckiest"]
        assert low["recoup_rate"]["value"] == pytest.approx(sum(1 for g in stats if min(g.money) >= 0) / 30, abs=1e-4)
        assert low["balance"]["value"] <= 0
        for seat in s["seats"]:
            recouped = sum(1 for g in stats if g.money[seat["seat"]] >= 0)
            assert seat["recoup_rate"]["value"] == pytest.approx(recouped / 30, abs=1e-4)
            assert seat["received"] - seat["paid_in"] == pytest.approx(seat["money"]["value"], abs=1e-3)
    else:
        assert s["ended_by_mushka"] == sum(1 for g in stats if g.ended_by_mushka)
        for seat in s["seats"]:
            assert 0 <= seat["remiz_rate"] <= 1
            assert seat["deals_played"] == sum(g.played[seat["seat"]] for g in stats)


def test_render_summary_in_both_languages():
    rules, stats = _run("kopilka", ("random",) * 4, games=10)
    s = summarise_run(stats, rules, seed=2, seconds=1.0, workers=1)
    for lang, word in (("en", "By seat"), ("ru", "По местам")):
        out = io.StringIO()
        render_summary(s, lang, Console(file=out, width=160))
        assert word in out.getvalue()
        assert "K19" in out.getvalue()


def test_csv_has_one_row_per_game(tmp_path):
    rules, stats = _run("classic", ("random",) * 4, games=12)
    path = tmp_path / "games.csv"
    write_csv(path, stats, rules)
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    assert len(rows) == 12
    assert list(rows[0]) == csv_header(rules)
    for row, g in zip(rows, stats, strict=True):
        assert int(row["index"]) == g.index and int(row["game_seed"]) == g.seed
        assert sum(int(row[f"money_{s}"]) for s in range(4)) == 0
        assert row["winner_bot"] == g.bots[g.winner]


def test_plots_are_png_files(tmp_path):
    for variant, name in (("classic", "records.png"), ("kopilka", "kopilka.png")):
        _rules, stats = _run(variant, ("random#a", "random", "random", "random"), games=8)
        files = write_plots(stats, tmp_path / variant, kopilka=variant == "kopilka", lang="ru")
        assert sorted(f.name for f in files) == sorted(["results.png", name])
        for f in files:
            assert f.read_bytes()[:8] == PNG
            assert f.stat().st_size > 5000
