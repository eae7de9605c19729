"""The levels at every table: a spec for each variant and size, the one a table's bot plays, the order measured."""

from __future__ import annotations

import itertools
import json
import math
import random
import statistics
from pathlib import Path

import pytest
from scipy import stats

from mushka import make_rules, new_game
from mushka.bots import BOTS, LEVELS, RESEARCH_ONLY, Level, make_bot, play_game, register_bot, strongest_bot
from mushka.bots.levels import (
    LevelBot,
    level_table,
    make_table_bot,
    measured_spec,
    offered_tables,
)
from mushka.errors import OptionsError
from mushka.rules.variants import VARIANTS

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "bench" / "results" / "levels-2026-12-07.jsonl"
FIELD = "heuristic"


def test_every_offered_table_has_a_spec_for_every_level():
    every = {(v.name, p) for v in VARIANTS.values() for p in v.players}
    table = level_table()
    assert set(offered_tables()) == set(table) == every
    assert ("kopilka", 4) in every and ("classic", 6) in every and ("mistigri", 3) in every
    for specs in table.values():
        assert list(specs) == [lv.id for lv in LEVELS]  # every level, weakest first
        for spec in specs.values():
            assert spec.partition(":")[0] not in RESEARCH_ONLY
            assert hasattr(make_bot(spec), "choose")


def test_a_level_differs_only_at_tables_that_exist():
    every = set(offered_tables())
    for lv in LEVELS:
        places = [(v, p) for v, p, _ in lv.tables]
        assert len(places) == len(set(places)), lv.id
        assert set(places) <= every, lv.id
        for v, p, spec in lv.tables:
            assert lv.spec_for(v, p) == spec and spec != lv.spec


@pytest.mark.parametrize(("variant", "players"), offered_tables())
def test_strongest_bot_of_a_table_is_the_top_levels_spec_there_and_builds(variant, players):
    spec = strongest_bot(variant, players)
    assert spec == level_table()[(variant, players)][LEVELS[-1].id]
    bot = make_bot(spec)
    assert hasattr(bot, "choose")
    built = make_table_bot(LEVELS[-1].id, variant, players)
    assert built.name == LEVELS[-1].id and type(built) is type(bot)


def test_strongest_bot_without_a_table_is_the_top_levels_own_spec():
    assert strongest_bot() == LEVELS[-1].spec


def test_tables_are_named_as_the_rules_name_them():
    assert strongest_bot("копилка", 4) == strongest_bot("kopilka", 4)
    assert LEVELS[3].spec_for("Mistigri", 5) == LEVELS[3].spec_for("mistigri", 5)


@pytest.mark.parametrize(("variant", "players", "rule"),
                         [("kopilka", 5, "K1"), ("classic", 8, "C1"), ("mistigri", 2, "C1")])
def test_a_table_no_variant_offers_is_refused_naming_the_rule(variant, players, rule):
    with pytest.raises(OptionsError) as caught:
        strongest_bot(variant, players)
    assert caught.value.code == "bad_players"
    assert rule in caught.value.message("en") and rule in caught.value.message("ru")
    with pytest.raises(OptionsError):
        LEVELS[0].spec_for(variant, players)


def test_an_unknown_variant_is_refused():
    with pytest.raises(OptionsError) as caught:
        strongest_bot("poker", 4)
    assert caught.value.code == "unknown_variant"


# A level of its own for the mechanism: budgets in playouts (no time cap), so the choices are exact.
TOY = Level("toy", "search:iterations=12,seconds=0", None,
            tables=(("kopilka", 4, "search:iterations=40,seconds=0,epsilon=0.2"), ("classic", 3, "heuristic")))


def first_views(variant: str, players: int, count: int, seed: int):
    """Views of the seats that need a choice, in a game played by the club level."""
    game = new_game(make_rules(variant, players), rng=seed)
    club = make_bot("heuristic")
    rng = random.Random(seed)
    got = []
    while not game.is_over and len(got) < count:
        seat = game.to_act
        view = game.view(seat)
        if len(view.deal.legal) > 1:
            got.append(view)
        game.apply(club.choose(view, rng), seat)
    return got


@pytest.mark.parametrize(("variant", "players"), [("kopilka", 4), ("classic", 3), ("mistigri", 4)])
def test_a_levels_bot_plays_the_spec_of_the_table_it_is_shown(variant, players):
    bot = TOY.make()
    assert isinstance(bot, LevelBot) and bot.spec is None and bot.name == "toy"
    for k, view in enumerate(first_views(variant, players, 4, seed=7)):
        alone = make_bot(TOY.spec_for(variant, players))
        assert bot.choose(view, random.Random(k)) == alone.choose(view, random.Random(k))
        assert bot.spec == TOY.spec_for(variant, players)
    assert type(make_table_bot("heuristic", variant, players)).__name__ == "HeuristicBot"


def test_one_levels_bot_shown_two_tables_plays_each_ones_spec():
    bot = TOY.make()
    kopilka = first_views("kopilka", 4, 1, seed=3)[0]
    classic = first_views("classic", 3, 1, seed=3)[0]
    bot.choose(kopilka, random.Random(1))
    assert bot.spec == TOY.spec_for("kopilka", 4)
    bot.choose(classic, random.Random(1))
    assert bot.spec == "heuristic"
    bot.choose(kopilka, random.Random(2))
    assert bot.spec == TOY.spec_for("kopilka", 4)


@pytest.mark.parametrize(("variant", "players"), [("mistigri", 3), ("classic", 5), ("kopilka", 4)])
def test_a_game_of_levels_is_the_game_of_their_specs_at_that_table(variant, players):
    # Where a level's spec is that of the table, a game goes exactly as it went before levels knew tables.
    fast = [lv for lv in LEVELS if lv.spec_for(variant, players).partition(":")[0] in ("novice", "heuristic")]
    ids = [fast[k % len(fast)].id for k in range(players)]
    results = []
    for make in (make_bot, lambda lid: make_bot(next(lv for lv in LEVELS if lv.id == lid).spec_for(variant, players))):
        game = new_game(make_rules(variant, players), rng=11, max_deals=6) if variant != "kopilka" else \
            new_game(make_rules(variant, players), rng=11)
        play_game(game, [make(lid) for lid in ids], random.Random(11))
        assert game.result is not None
        results.append(game.result.money)
    assert results[0] == results[1]


def test_the_servers_thinker_plays_the_levels_spec_for_the_tables_view():
    from mushka.server.thinkers import BotJob, think

    register_bot("toy", TOY.make, level_spec=TOY.spec)
    try:
        for view in first_views("kopilka", 4, 2, seed=5) + first_views("classic", 3, 2, seed=5):
            table = (view.deal.rules.variant, view.deal.rules.players)
            expected = make_bot(TOY.spec_for(*table)).choose(view, random.Random(99))
            assert think(BotJob("toy", view, 99)).action == expected
    finally:
        del BOTS["toy"]


def test_a_simulation_seats_the_levels_bot_for_its_table():
    from mushka.sim.play import GameJob, SimTable, play_job

    register_bot("toy", TOY.make, level_spec=TOY.spec)
    try:
        stats_ = play_job(SimTable("classic", 3), GameJob(index=0, seed=21, bots=("toy", "heuristic", "heuristic")),
                          max_deals=3)
        plain = play_job(SimTable("classic", 3), GameJob(index=0, seed=21, bots=("heuristic",) * 3), max_deals=3)
        assert stats_.money == plain.money  # the toy level plays the rules of thumb at classic 3
    finally:
        del BOTS["toy"]


# --- the order, as measured ------------------------------------------------------------


def measured() -> dict[tuple[str, int, str], dict[int, float]]:
    """Per table and measured spec, each seed's money over the club field (new seeds and earlier pooled ones)."""
    out: dict[tuple[str, int, str], dict[int, float]] = {}
    for text in RESULTS.read_text(encoding="utf-8").splitlines():
        r = json.loads(text) if text.strip() else {}
        if r.get("field") != FIELD or r.get("kind") not in ("seed", "earlier"):
            continue
        got = out.setdefault((r["variant"], r["players"], r["test"]), {})
        if r["kind"] == "seed":
            got[r["seed"]] = float(r["diff"])
        else:
            got.update({r["first_seed"] + k: float(d) for k, d in enumerate(r["per_seed"])})
    return out


def paired(data: dict[tuple[str, int, str], dict[int, float]], table: tuple[str, int], upper: str,
           lower: str) -> list[float]:
    """``upper`` − ``lower`` (measured specs) seed by seed at ``table``: on the seeds both played, the club field 0."""
    up = data.get((*table, upper), {}) if upper != FIELD else None
    low = data.get((*table, lower), {}) if lower != FIELD else None
    if up is None:
        up = dict.fromkeys(low or {}, 0.0)
    if low is None:
        low = dict.fromkeys(up, 0.0)
    return [up[s] - low[s] for s in sorted(set(up) & set(low))]


def interval(diffs: list[float]) -> tuple[float, float, float]:
    mean = statistics.mean(diffs)
    half = float(stats.t.ppf(0.975, len(diffs) - 1)) * statistics.stdev(diffs) / math.sqrt(len(diffs))
    return mean, mean - half, mean + half


TABLES_OF_FOUR = {("classic", 4), ("mistigri", 4), ("kopilka", 4)}


def test_no_level_measures_weaker_than_the_one_below_it_wherever_it_is_offered():
    data = measured()
    checked = 0
    for table, specs in level_table().items():
        for lower, upper in itertools.pairwise(list(specs)):
            low, up = measured_spec(specs[lower]), measured_spec(specs[upper])
            if low == up:
                continue  # the same spec: as strong by construction
            diffs = paired(data, table, up, low)
            if table in TABLES_OF_FOUR or "novice" in up or "novice" in low:
                # Measured on many seeds: the novices at every table, every step at the tables of four.
                assert len(diffs) >= 24, f"{table} {upper} − {lower}: {len(diffs)} seeds"
            if len(diffs) < 2:
                continue  # not measured (the docs' table says so, checked below)
            mean, _, high = interval(diffs)
            # The rule the levels were set by: a level keeps its spec at a table only if its mean over the
            # level below is not below zero there; so no interval is wholly below zero either.
            assert mean >= 0, f"{table} {upper} − {lower}: {mean:+.2f} over {len(diffs)} seeds"
            assert high >= 0
            checked += 1
    # at least the two novice steps everywhere, and strong's step at each table of four
    assert checked >= 2 * len(level_table()) + len(TABLES_OF_FOUR)


def shown(diffs: list[float]) -> str:
    """A difference as the docs' table writes it."""
    if len(diffs) < 2:
        return "—"
    # the summary rows keep two decimals, and the table shows one of those
    mean, low, high = (round(x, 2) for x in interval(diffs))
    return f"{mean:+.1f} [{low:+.1f}, {high:+.1f}]".replace("-", "−")


def test_the_docs_table_of_the_order_is_the_one_the_results_give():
    text = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    section = text.split("### The levels' order at every table", 1)[1].split("\n### ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and cells[0].rsplit(" ", 1)[0] in VARIANTS and cells[0].rsplit(" ", 1)[-1].isdigit():
            variant, players = cells[0].rsplit(" ", 1)
            rows[(variant, int(players))] = cells
    assert set(rows) == set(offered_tables())
    data = measured()
    spec = {lv.id: measured_spec(lv.spec) for lv in LEVELS}
    for table, cells in rows.items():
        # the steps as measured, each level's own spec (the choice of a table's spec rests on them)
        assert cells[5] == shown(paired(data, table, spec["casual"], spec["beginner"])), table
        assert cells[6] == shown(paired(data, table, spec["strong"], FIELD)), table
        assert cells[7] == shown(paired(data, table, spec["expert"], spec["strong"])), table
