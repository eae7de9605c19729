"""Batch play: seeds, reproducibility, equivalence with the bot driver, money flows."""

from __future__ import annotations

import random

import pytest

from mushka import make_rules, new_game
from mushka.bots import make_bot, play_game
from mushka.errors import MushkaError
from mushka.records import Record, replay
from mushka.sim import SimulationError
from mushka.sim.play import (
    GameJob,
    SimTable,
    derive_seed,
    drive,
    game_seed,
    play_job,
    run_jobs,
    seat_bots,
    simulation_jobs,
    split_bot_specs,
)


def test_seeds_are_stable_and_distinct():
    assert game_seed(1, 0) == game_seed(1, 0)
    seeds = {game_seed(s, i) for s in range(3) for i in range(100)}
    assert len(seeds) == 300
    assert derive_seed("a", 1) != derive_seed("a1")
    assert 0 <= game_seed(5, 5) < 2**64


@pytest.mark.parametrize("variant", ["classic", "mistigri", "kopilka"])
def test_play_job_is_play_game_with_the_derived_seeds(variant):
    """The view-free path for random seats plays exactly the games RandomBot plays."""
    rules = make_rules(variant, 4)
    table = SimTable.of(rules)
    for i in range(4):
        seed = game_seed(11, i)
        stats = play_job(table, GameJob(i, seed, ("random",) * 4))
        game = new_game(rules, rng=seed)
        play_game(game, [make_bot("random")] * 4, random.Random(derive_seed("mushka-bots", seed)))
        assert game.result is not None
        assert stats.money == game.result.money
        assert stats.deals == game.result.deals
        assert stats.winner == game.result.winner
        assert sum(stats.money) == 0


def test_mixed_table_uses_views_and_matches_play_game(first_bot):
    rules = make_rules("classic", 3)
    seed = game_seed(2, 0)
    bots = ("first", "random", "random")
    stats = play_job(SimTable.of(rules), GameJob(0, seed, bots))
    game = new_game(rules, rng=seed)
    play_game(game, [make_bot(b) for b in bots], random.Random(derive_seed("mushka-bots", seed)))
    assert stats.money == game.result.money


def test_kopilka_money_flows_add_up():
    rules = make_rules("kopilka")
    jobs = simulation_jobs(("random",) * 4, 30, seed=4)
    for g in run_jobs(SimTable.of(rules), jobs):
        assert sum(g.money) == 0  # K24
        for s in range(4):
            assert g.received[s] - g.paid_in[s] == g.money[s]
            # K3, and K22.3 after every game the seat did not go out in first.
            assert g.paid_in[s] >= rules.ante + rules.effective_game_payment * (4 - g.outs[s])
        assert g.pot_taken[g.winner] > 0 if g.winner is not None else sum(g.pot_taken) > 0  # K23
        assert sum(g.outs) + g.deadlocks == 4
        assert g.deals == 4


def test_partie_counts_are_consistent():
    rules = make_rules("mistigri", 5)
    for g in run_jobs(SimTable.of(rules), simulation_jobs(("random",) * 5, 20, seed=9)):
        assert sum(g.money) == 0
        assert all(0 <= r <= p for r, p in zip(g.remizes, g.played, strict=True))
        assert all(p <= g.deals for p in g.played)
        assert sum(g.mushkas) == (1 if g.ended_by_mushka else 0)
        assert g.winner is not None


def test_runs_are_reproducible_and_independent_of_the_workers():
    rules = make_rules("classic", 4)
    table = SimTable.of(rules)
    jobs = simulation_jobs(("random",) * 4, 12, seed=3)
    one = run_jobs(table, jobs, workers=1)
    two = run_jobs(table, jobs, workers=2)
    assert [g.money for g in one] == [g.money for g in two]
    assert [g.index for g in two] == list(range(12))
    # Game 7 alone is game 7 of the run.
    again = run_jobs(table, simulation_jobs(("random",) * 4, 1, seed=3, start=7))
    assert again[0].money == one[7].money and again[0].seed == one[7].seed
    other = run_jobs(table, simulation_jobs(("random",) * 4, 12, seed=4))
    assert [g.money for g in other] != [g.money for g in one]


def test_max_deals_truncates():
    rules = make_rules("classic", 4)
    games = run_jobs(SimTable.of(rules), simulation_jobs(("random",) * 4, 10, seed=1), max_deals=3)
    assert all(g.deals <= 3 for g in games)
    assert any(g.truncated for g in games)
    assert all(sum(g.money) == 0 for g in games)


def test_rotation_moves_every_bot_round():
    jobs = simulation_jobs(("a", "b", "c", "d"), 4, seed=1, rotate=True)
    assert [j.bots for j in jobs] == [("a", "b", "c", "d"), ("d", "a", "b", "c"),
                                      ("c", "d", "a", "b"), ("b", "c", "d", "a")]
    fixed = simulation_jobs(("a", "b", "c", "d"), 2, seed=1)
    assert fixed[0].bots == fixed[1].bots


def test_course_is_tracked_on_request():
    table = SimTable.of(make_rules("classic", 4))
    g = run_jobs(table, simulation_jobs(("random",) * 4, 1, seed=1), track=1)[0]
    assert len(g.course) == g.deals + 1
    assert g.course[0] == (30, 30, 30, 30)  # C16
    k = run_jobs(SimTable.of(make_rules("kopilka")), simulation_jobs(("random",) * 4, 1, seed=1), track=1)[0]
    assert k.pot_course[0] == 40 and k.pot_course[-1] == 0
    assert k.course[0] == (-10,) * 4 and k.course[-1] == k.money
    untracked = run_jobs(table, simulation_jobs(("random",) * 4, 1, seed=1))[0]
    assert untracked.course == ()


def test_records_replay_to_the_same_money(tmp_path):
    rules = make_rules("kopilka")
    games = run_jobs(SimTable.of(rules), simulation_jobs(("random",) * 4, 2, seed=5), records=tmp_path, base_seed=5)
    files = sorted(tmp_path.glob("game-*.json"))
    assert [f.name for f in files] == ["game-000000.json", "game-000001.json"]
    for f, g in zip(files, games, strict=True):
        record = Record.loads(f.read_text(encoding="utf-8"))
        assert record.meta["game_seed"] == g.seed
        assert replay(record).result.money == g.money


def test_a_job_with_the_wrong_number_of_bots_is_refused():
    with pytest.raises(SimulationError, match="1 bots for a table of 4"):
        play_job(SimTable.of(make_rules("classic", 4)), GameJob(0, 1, ("random",)))


def test_a_value_the_bot_refuses_is_reported(picky_bot):
    rules = make_rules("kopilka")
    assert seat_bots([f"{picky_bot}:level=2"], rules)[0] == "picky:level=2"
    with pytest.raises(SimulationError) as err:
        seat_bots([f"{picky_bot}:level=0"], rules)
    assert "cannot be built: level must be at least 1" in str(err.value)
    assert "нельзя создать" in err.value.message("ru")


def test_split_bot_specs():
    assert split_bot_specs(["heuristic,random , random"]) == ["heuristic", "random", "random"]
    assert split_bot_specs(["search:iterations=100,depth=3,random"]) == ["search:iterations=100,depth=3", "random"]
    assert split_bot_specs(["a", "b,c"]) == ["a", "b", "c"]
    assert split_bot_specs([",,"]) == []


def test_seat_bots_errors():
    rules = make_rules("classic", 4)
    assert seat_bots(["random"], rules) == ("random",) * 4
    assert seat_bots(["random#x", "random", "random", "random"], rules)[0] == "random#x"
    with pytest.raises(SimulationError) as err:
        seat_bots(["random", "random"], rules)
    assert err.value.rule == "C1"
    assert "2 bots for a table of 4" in str(err.value)
    assert "ботов" in err.value.message("ru")
    with pytest.raises(MushkaError) as err:
        seat_bots(["nobody"], rules)
    assert "nobody" in str(err.value) and "random" in str(err.value)
    with pytest.raises(MushkaError, match="speed"):
        seat_bots(["random:speed=3"], rules)
    with pytest.raises(SimulationError):
        seat_bots([], rules)
    with pytest.raises(SimulationError) as err:
        seat_bots(["random"] * 3, make_rules("kopilka"))
    assert err.value.rule == "K1"


@pytest.mark.parametrize("variant", ["classic", "mistigri", "kopilka"])
def test_forced_actions_played_without_a_view_are_the_bots_own(variant):
    """drive() skips the view of a forced action for the rules of thumb and the search:
    the games are the ones the bots play through their views, action for action."""
    rules = make_rules(variant, 4)
    specs = ["heuristic", "search:iterations=12,seconds=0", "heuristic", "random"]
    for seed in range(2):
        fast = new_game(rules, rng=seed, max_deals=12) if rules.has_trumps else new_game(rules, rng=seed)
        drive(fast, [make_bot(s) for s in specs], random.Random(seed), fast=[False, False, False, True])
        slow = new_game(rules, rng=seed, max_deals=12) if rules.has_trumps else new_game(rules, rng=seed)
        play_game(slow, [make_bot(s) for s in specs], random.Random(seed))
        assert [d.actions for d in fast.finished] == [d.actions for d in slow.finished]
        assert fast.result == slow.result
        assert fast.finished and fast.result is not None


def test_records_of_bots_with_long_specs_read_back(tmp_path):
    # A seat's name in a record is at most MAX_SEAT_NAME characters; a longer bot spec is cut
    # in `seats` and kept whole in the meta.
    from mushka.records import MAX_SEAT_NAME

    long = "random#" + "a" * 80
    rules = make_rules("classic", 3)
    jobs = simulation_jobs((long, "random", "random"), 1, seed=2)
    [game] = run_jobs(SimTable.of(rules), jobs, records=tmp_path)
    record = Record.loads((tmp_path / "game-000000.json").read_text(encoding="utf-8"))
    assert len(record.seats[0]) == MAX_SEAT_NAME and record.seats[0].startswith("random#aaa")
    assert record.seats[1:] == ("random", "random")
    assert record.meta["bots"] == [long, "random", "random"]
    assert replay(record).result.money == game.money
