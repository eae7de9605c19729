"""Simulations with the stronger bots of the registry, when they are installed."""

from __future__ import annotations

import random

import pytest

from mushka import make_rules, new_game
from mushka.bots import BOTS, make_bot, play_game
from mushka.sim.play import SimTable, derive_seed, run_jobs, seat_bots, simulation_jobs, split_bot_specs
from mushka.sim.summary import summarise_run


def needs(name: str) -> None:
    make_bot("random")  # loads the built-in bot modules
    if name not in BOTS:
        pytest.skip(f"the {name} bot is not installed")


@pytest.mark.parametrize("variant", ["mistigri", "kopilka"])
def test_heuristic_table_matches_play_game_and_sums_up(variant):
    needs("heuristic")
    rules = make_rules(variant, 4)
    seats = seat_bots(split_bot_specs(["heuristic,random,random,random"]), rules)
    games = run_jobs(SimTable.of(rules), simulation_jobs(seats, 4, seed=6, rotate=True))
    first = games[0]
    game = new_game(rules, rng=first.seed)
    play_game(game, [make_bot(b) for b in first.bots], random.Random(derive_seed("mushka-bots", first.seed)))
    assert game.result.money == first.money
    summary = summarise_run(games, rules, seed=6)
    assert summary["money_balanced"] and summary["rotate"]
    assert [b["bot"] for b in summary["by_bot"]] == ["heuristic", "random"]
    assert summary["by_bot"][0]["seat_games"] == 4


def test_search_with_a_playout_budget_is_reproducible():
    needs("search")
    rules = make_rules("kopilka")
    seats = seat_bots(split_bot_specs(["search:iterations=4,seconds=0,random,random,random"]), rules)
    assert seats[0] == "search:iterations=4,seconds=0"
    jobs = simulation_jobs(seats, 1, seed=2)
    a = run_jobs(SimTable.of(rules), jobs)
    b = run_jobs(SimTable.of(rules), jobs)
    assert a[0].money == b[0].money and sum(a[0].money) == 0
