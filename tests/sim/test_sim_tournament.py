"""Tournaments: table plans, duplicate seatings and ratings."""

from __future__ import annotations

import pytest

from mushka import make_rules
from mushka.errors import MushkaError
from mushka.sim import SimulationError
from mushka.sim.play import SimTable, run_jobs
from mushka.sim.tournament import plan_tournament, rate, seatings_of, tables_for


def test_round_robin_tables():
    assert tables_for(["a", "b", "c"], 4, "round-robin") == [
        ("a", "a", "b", "b"), ("a", "a", "c", "c"), ("b", "b", "c", "c")]
    # Odd tables play both splits.
    assert tables_for(["a", "b"], 3, "round-robin") == [("a", "a", "b"), ("a", "b", "b")]


def test_gauntlet_and_mixed_tables():
    assert tables_for(["h", "x", "y"], 4, "gauntlet") == [("h", "x", "x", "x"), ("h", "y", "y", "y")]
    mixed = tables_for(["a", "b", "c", "d", "e"], 4, "mixed")
    assert len(mixed) == 5 and all(len(set(t)) == 4 for t in mixed)
    with pytest.raises(SimulationError, match="at least 4"):
        tables_for(["a", "b", "c"], 4, "mixed")
    with pytest.raises(SimulationError, match="at least 2"):
        tables_for(["a"], 4, "round-robin")
    with pytest.raises(SimulationError, match="unknown tournament format"):
        tables_for(["a", "b"], 4, "swiss")


def test_seatings_give_every_bot_every_seat():
    rotated = seatings_of(("a", "a", "b", "b"), "rotate")
    assert len(rotated) == 4
    for seat in range(4):
        assert sorted(s[seat] for s in rotated) == ["a", "a", "b", "b"]
    assert len(seatings_of(("a", "a", "b", "b"), "all")) == 6
    assert len(seatings_of(("a", "b", "c"), "all")) == 6
    with pytest.raises(SimulationError):
        seatings_of(("a", "b"), "random")


def test_plan_names_copies_and_shares_seeds():
    rules = make_rules("classic", 4)
    plan = plan_tournament(["random", "random"], rules, seeds=3, base_seed=7)
    assert plan.entrants == ("random", "random#2")
    jobs = plan.jobs()
    assert len(jobs) == 3 * 4
    # Every seating of a deal set has the same seed; deal sets differ.
    for group in range(3):
        assert len({j.seed for j in jobs if j.group == group}) == 1
    assert len({j.seed for j in jobs}) == 3
    with pytest.raises(MushkaError, match="nobody"):
        plan_tournament(["random", "nobody"], rules)
    with pytest.raises(SimulationError):
        plan_tournament(["random", "random"], rules, seeds=0)


def test_identical_bots_rate_exactly_equal_on_duplicate_deals():
    """Two copies of one bot play the same games in every seating: luck cancels exactly."""
    rules = make_rules("mistigri", 4)
    plan = plan_tournament(["random", "random"], rules, seeds=4, base_seed=1)
    games = run_jobs(SimTable.of(rules), plan.jobs())
    report = rate(plan, games, resamples=200)
    a, b = report["ratings"]
    assert a["money"]["value"] == pytest.approx(0.0) and b["money"]["value"] == pytest.approx(0.0)
    assert a["score"]["value"] == pytest.approx(0.5)
    assert a["elo"]["value"] == pytest.approx(b["elo"]["value"])


def test_ratings_of_two_different_bots(first_bot):
    rules = make_rules("kopilka")
    plan = plan_tournament(["random", first_bot], rules, seeds=8, base_seed=3)
    games = run_jobs(SimTable.of(rules), plan.jobs())
    report = rate(plan, games, resamples=300, seed=1)
    assert report["schema"] == "mushka-tournament/1"
    assert report["games"] == len(games) == 8 * 4
    assert report["money_balanced"]
    rows = {r["bot"]: r for r in report["ratings"]}
    assert set(rows) == {"random", "first"}
    # Two bots sharing every table: what one wins the other loses.
    assert rows["random"]["money"]["value"] == pytest.approx(-rows["first"]["money"]["value"], abs=1e-3)
    assert rows["random"]["score"]["value"] + rows["first"]["score"]["value"] == pytest.approx(1.0, abs=1e-3)
    assert rows["random"]["elo"]["value"] == pytest.approx(-rows["first"]["elo"]["value"], abs=0.2)
    for r in rows.values():
        assert r["seat_games"] == 8 * 4 * 2
        for key in ("money", "score", "elo"):
            assert r[key]["low"] <= r[key]["value"] <= r[key]["high"]
    # The ratings are sorted best first, and the pairwise table is consistent.
    assert report["ratings"][0]["elo"]["value"] >= report["ratings"][1]["elo"]["value"]
    pair = {(p["bot"], p["opponent"]): p for p in report["pairwise"]}
    assert pair[("random", "first")]["score"]["value"] == pytest.approx(rows["random"]["score"]["value"])
