"""The levels' order at every table: each level against a club field, the neighbours paired.

Every level is measured at every table it is offered at (classic and
mistigri at 3 to 7 players, kopilka at 4) against three, four … club
players, on duplicate deals, the way ``bench/bots_strength.py`` measures a
bot (its ``play_seed``: each seed once with the level in every seat, the
measure of a seed the level's money minus the field's mean).  Because
every level meets the same club field on the same seeds of a table, the
difference between two neighbours is paired seed by seed; the club level
is the field itself, 0 by definition.  Search budgets are in playouts with
``seconds=0`` (the levels' 0.3 s cap removed), so a row depends only on
its seed, not on the machine's load.

The plan, written down before the runs (2026-12-07, 16:42 UTC)
----------------------------------------------------------------

Seeds never used before by any measurement of the bots (the run log used
0-1239, 5000-6499, 10000-10199, 20000-20299 and 30000-31499): 40000 up for
the two novice levels, 41000 up for the two search levels.  One process
(``--jobs`` is not offered: one seed after another), the compiled build;
each seed's row is appended as soon as it is known.  Cost per seed,
measured first on seed 39999 (level and field, all rotations, one core):
the novices 0.01-0.05 s, ``strong`` 2.6-9 s, the expert 4.9-30 s.

A. ``beginner`` and ``casual`` at all eleven tables, seeds 40000-40239
   (240 seeds, both levels on each seed in turn).
B. ``strong`` and ``expert`` at kopilka 4, seeds 41000-41059, then at
   classic 4, seeds 41000-41039 (the tables where the order was questioned).
C. ``strong`` and ``expert`` at every other table: mistigri 4 24 seeds,
   classic 3 and mistigri 3 16 seeds, classic and mistigri 5, 6 and 7 8
   seeds each, all from 41000.
D. More of B, the two tables alternating seed by seed: kopilka 4 up to
   seed 41119 (120 in all), classic 4 up to 41079 (80 in all).

Added at 17:16 UTC, before stage C, on the time alone: the machine is
loaded 5-7 by other work, and a seed costs two to three times the estimate
(kopilka 4 took 15 minutes, classic 4 plays a seed of both levels in 45 s),
so C as written would not reach the tables of 5, 6 and 7.  So classic 4's
B stops at 24 seeds (41000-41023), D is dropped, and C plays its tables in
turn, one seed of each table a round (seeds 41000 up, at most the numbers
above), until the stop, so that every table is measured on a few seeds.

Added at 17:33 UTC, before any row of C: the load rose to 10-12 and C
will play only a few seeds a table.  So that `strong`'s step over the club
level does not rest on those few alone, at the tables where `strong` was
measured against the club field before (kopilka 4 and classic and
mistigri 3 on seeds 400-447 and 800-847, classic 5 on 400-447 and
800-847, mistigri 5 and classic and mistigri 7 on 400-447;
``bench/results/bots-2026-12-02.jsonl`` and ``-04``) its decision pools
those seeds with the new ones, as the expert's does at the tables of four.
One of those seeds is replayed after the runs to check that today's code
plays it as stored (else they are not pooled).

Every run stops at 18:10 UTC whatever it has played; a stopped run is
reported with the seeds it played, and since the stop depends only on the
clock, those seeds are a sample like any other.  No run is extended.

What decides a level's spec at a table, going up the order: a level keeps
its spec there unless its mean over the level below, paired on the same
seeds, is below zero; then it plays there the spec that measured best at
that table among its own and those below it (so a level is never measured
weaker than the one below it where it is offered, and a tie costs
nothing).  At classic 4 and mistigri 4, where ``strong`` and the expert
were measured before on seeds 600-647 and 1000-1239 (288 paired seeds,
``bench/results/bots-2026-12-04.jsonl`` and ``-05``), the expert's
decision pools those seeds with the new ones, as planned here; the rows
pooled are copied into the results file with their source.  Before the
runs, ``strong`` replays seed 1000 of classic 4 to check that today's code
gives the stored result (else nothing is pooled).

    python bench/levels_order.py --json bench/results/levels-2026-12-07.jsonl --until 18:10
    python bench/levels_order.py --summary bench/results/levels-2026-12-07.jsonl
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import json
import math
import os
import statistics
import sys
import time
from pathlib import Path

from scipy import stats

from bots_strength import play_seed
from mushka._build import imported_build
from mushka.bots.levels import LEVELS, measured_spec

FIELD = "heuristic"
NOVICES = ("beginner", "casual")
SEARCHES = ("strong", "expert")
TABLES = [("kopilka", 4), ("classic", 4), ("mistigri", 4), ("classic", 3), ("mistigri", 3),
          ("classic", 5), ("mistigri", 5), ("classic", 6), ("mistigri", 6), ("classic", 7), ("mistigri", 7)]

# (stage, variant, players, levels, first seed, seeds), in the order they run
PLAN: list[tuple[str, str, int, tuple[str, ...], int, int]] = [
    *[("A", v, p, NOVICES, 40000, 240) for v, p in TABLES],
    ("B", "kopilka", 4, SEARCHES, 41000, 60),
    ("B", "classic", 4, SEARCHES, 41000, 24),
    ("C", "mistigri", 4, SEARCHES, 41000, 24),
    ("C", "classic", 3, SEARCHES, 41000, 16),
    ("C", "mistigri", 3, SEARCHES, 41000, 16),
    *[("C", v, p, SEARCHES, 41000, 8) for p in (5, 6, 7) for v in ("classic", "mistigri")],
]
STAGE_D: list[tuple[str, int, int, int]] = []  # dropped at 17:16 UTC (the docstring)
POOLED = {("classic", 4), ("mistigri", 4)}
EARLIER = ["bench/results/bots-2026-12-04.jsonl", "bench/results/bots-2026-12-05.jsonl"]
EARLIER_STRONG = ["bench/results/bots-2026-12-02.jsonl", "bench/results/bots-2026-12-04.jsonl"]


def spec_of(level_id: str) -> str:
    """The spec a level is measured by: its default spec with ``seconds=0``."""
    return measured_spec(next(lv for lv in LEVELS if lv.id == level_id).spec)


def done(path: Path) -> set[tuple[str, int, str, int]]:
    """The (variant, players, level, seed) already in the file (a run resumed skips them)."""
    if not path.exists():
        return set()
    out = set()
    for text in path.read_text(encoding="utf-8").splitlines():
        r = json.loads(text) if text.strip() else {}
        if r.get("kind") == "seed":
            out.add((r["variant"], r["players"], r["level"], r["seed"]))
    return out


def play(path: Path, variant: str, players: int, levels: tuple[str, ...], seed: int, stage: str,
         have: set[tuple[str, int, str, int]]) -> None:
    """Play one seed of every level in ``levels`` at one table and append their rows (unless in ``have``)."""
    for lid in levels:
        if (variant, players, lid, seed) in have:
            continue
        began = time.perf_counter()
        r = play_seed((variant, players, spec_of(lid), FIELD, seed, 200))
        times = r["times"]
        assert isinstance(times, list)
        row = {"kind": "seed", "stage": stage, "variant": variant, "players": players, "level": lid,
               "test": spec_of(lid), "field": FIELD, "seed": seed, "diff": r["diff"], "deals": r["deals"],
               "decisions": len(times), "think_s": round(sum(times), 3),
               "wall_s": round(time.perf_counter() - began, 2), "load": [round(x, 2) for x in os.getloadavg()],
               "build": imported_build(), "utc": dt.datetime.now(dt.UTC).strftime("%H:%M:%S")}
        with path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(row) + "\n")
        have.add((variant, players, lid, seed))


def run(path: Path, until: dt.datetime) -> None:
    """Every stage of the plan, one seed after another, until the plan ends or the clock says stop."""
    def late() -> bool:
        return dt.datetime.now(dt.UTC) >= until

    have = done(path)

    for stage, variant, players, levels, first, seeds in [p for p in PLAN if p[0] != "C"]:
        for seed in range(first, first + seeds):
            if late():
                print(f"stopped by the clock at stage {stage}, {variant} {players}, seed {seed}", flush=True)
                return
            play(path, variant, players, levels, seed, stage, have)
        print(f"{stage} {variant} {players} {levels} {first}-{first + seeds - 1} done "
              f"{dt.datetime.now(dt.UTC):%H:%M:%S} load {os.getloadavg()[0]:.2f}", flush=True)
    rounds = [p for p in PLAN if p[0] == "C"]
    for k in range(max(p[5] for p in rounds)):
        for stage, variant, players, levels, first, seeds in rounds:
            if k < seeds:
                if late():
                    print(f"stopped by the clock at stage C, {variant} {players}, seed {first + k}", flush=True)
                    return
                play(path, variant, players, levels, first + k, stage, have)
        print(f"C round {k + 1} done {dt.datetime.now(dt.UTC):%H:%M:%S} load {os.getloadavg()[0]:.2f}", flush=True)
    for k in range(max((n for *_, n in STAGE_D), default=0)):
        for variant, players, first, seeds in STAGE_D:
            if k < seeds:
                if late():
                    print(f"stopped by the clock at stage D, {variant} {players}, seed {first + k}", flush=True)
                    return
                play(path, variant, players, SEARCHES, first + k, "D", have)
    print("the plan is done", flush=True)


def copy_earlier(path: Path, *, strong_elsewhere: bool = False) -> None:
    """Copy the earlier rows of ``strong`` and the expert at the pooled tables, with their source.

    With ``strong_elsewhere``, instead, ``strong``'s earlier rows at the other tables (seeds
    400-447 and 800-847, the amendment of 17:33 UTC).
    """
    wanted = {spec_of(lid): lid for lid in SEARCHES}
    for source in EARLIER_STRONG if strong_elsewhere else EARLIER:
        for text in Path(source).read_text(encoding="utf-8").splitlines():
            r = json.loads(text) if text.strip() else {}
            table = (r.get("variant"), r.get("players"))
            if strong_elsewhere:
                if (r.get("field") != FIELD or table in POOLED or r.get("test") != spec_of("strong")
                        or r.get("first_seed") not in (400, 424, 800)):
                    continue
            elif (r.get("field") != FIELD or table not in POOLED
                    or r.get("test") not in wanted or r.get("first_seed") not in (600, 1000)):
                continue
            row = {"kind": "earlier", "source": source, "variant": r["variant"], "players": r["players"],
                   "level": wanted[r["test"]], "test": r["test"], "field": FIELD, "first_seed": r["first_seed"],
                   "seeds": r["seeds"], "per_seed": r["per_seed"]}
            with path.open("a", encoding="utf-8") as out:
                out.write(json.dumps(row) + "\n")


def interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and 95% Student's t interval."""
    mean = statistics.mean(values)
    if len(values) < 2:
        return mean, math.nan, math.nan
    half = float(stats.t.ppf(0.975, len(values) - 1)) * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def summary(path: Path) -> list[dict[str, object]]:
    """One row per table and level (the new seeds), and one per neighbouring pair (paired, pooled where planned)."""
    rows = [json.loads(t) for t in path.read_text(encoding="utf-8").splitlines() if t.strip()]
    seeds: dict[tuple[str, int, str], dict[int, dict[str, object]]] = {}
    for r in rows:
        if r["kind"] == "seed":
            seeds.setdefault((r["variant"], r["players"], r["level"]), {})[r["seed"]] = r
    earlier: dict[tuple[str, int, str], dict[int, float]] = {}
    for r in rows:
        if r["kind"] == "earlier":
            got = earlier.setdefault((r["variant"], r["players"], r["level"]), {})
            got.update({r["first_seed"] + k: d for k, d in enumerate(r["per_seed"])})
    out: list[dict[str, object]] = []
    for (variant, players, lid), by in sorted(seeds.items()):
        diffs = [float(by[s]["diff"]) for s in sorted(by)]  # type: ignore[arg-type]
        mean, low, high = interval(diffs)
        decisions = sum(int(by[s]["decisions"]) for s in by)  # type: ignore[call-overload]
        think = sum(float(by[s]["think_s"]) for s in by)  # type: ignore[arg-type]
        loads = [float(by[s]["load"][0]) for s in by]  # type: ignore[index]
        out.append({"kind": "level", "variant": variant, "players": players, "level": lid, "test": spec_of(lid),
                    "field": FIELD, "seeds": len(diffs), "first_seed": min(by), "last_seed": max(by),
                    "games": len(diffs) * players, "mean": round(mean, 2), "ci95": [round(low, 2), round(high, 2)],
                    "decisions": decisions, "decisions_per_s": round(decisions / think, 1) if think else None,
                    "load": [min(loads), max(loads)], "per_seed": [round(d, 3) for d in diffs]})
    order = [lv.id for lv in LEVELS]
    for variant, players in TABLES:
        for lower, upper in itertools.pairwise(order):
            pair = paired(seeds, earlier, variant, players, lower, upper)
            if pair is not None:
                out.append(pair)
    return out


def paired(seeds: dict[tuple[str, int, str], dict[int, dict[str, object]]],
           earlier: dict[tuple[str, int, str], dict[int, float]], variant: str, players: int,
           lower: str, upper: str) -> dict[str, object] | None:
    """``upper`` − ``lower`` seed by seed on the seeds both played (the club level is 0 on every seed)."""
    def values(lid: str) -> dict[int, float]:
        got = dict(earlier.get((variant, players, lid), {}))
        got.update({s: float(r["diff"]) for s, r in seeds.get((variant, players, lid), {}).items()})  # type: ignore[arg-type]
        return got

    up, low = values(upper), values(lower)
    if lower == "club":
        low = dict.fromkeys(up, 0.0)
    if upper == "club":
        up = dict.fromkeys(low, 0.0)
    common = sorted(set(up) & set(low))
    if len(common) < 2:
        return None
    d = [up[s] - low[s] for s in common]
    mean, lo, hi = interval(d)
    return {"kind": "pair", "variant": variant, "players": players, "lower": lower, "upper": upper,
            "seeds": len(common), "pooled_earlier": sum(1 for s in common if s < 40000),
            "mean": round(mean, 2), "ci95": [round(lo, 2), round(hi, 2)], "per_seed": [round(x, 3) for x in d]}


def decide(path: Path) -> dict[tuple[str, int], dict[str, str]]:
    """The rule of the plan: per table, the spec each level plays (its own unless it measured below the one under it).

    Going up the order, a level whose mean over the spec the level below
    plays there, paired on the seeds both played (pooled where planned), is
    below zero takes that spec instead; a level not measured at a table
    keeps its own.  Returns the specs as the levels write them (with their
    time caps).
    """
    rows = [json.loads(t) for t in path.read_text(encoding="utf-8").splitlines() if t.strip()]
    values: dict[tuple[str, int, str], dict[int, float]] = {}
    for r in rows:
        if r["kind"] == "seed":
            values.setdefault((r["variant"], r["players"], r["test"]), {})[r["seed"]] = float(r["diff"])
        elif r["kind"] == "earlier":
            got = values.setdefault((r["variant"], r["players"], r["test"]), {})
            got.update({r["first_seed"] + k: float(d) for k, d in enumerate(r["per_seed"])})
    out = {}
    for variant, players in TABLES:
        chosen: dict[str, str] = {}
        below: str | None = None
        for lv in LEVELS:
            own = lv.spec
            if below is not None and measured_spec(own) != measured_spec(below):
                up = values.get((variant, players, measured_spec(own)))
                low = values.get((variant, players, measured_spec(below)))
                if measured_spec(below) == FIELD and up:
                    low = dict.fromkeys(up, 0.0)
                if measured_spec(own) == FIELD and low:
                    up = dict.fromkeys(low, 0.0)
                common = sorted(set(up or {}) & set(low or {}))
                if common and statistics.mean(up[s] - low[s] for s in common) < 0:  # type: ignore[index]
                    own = below
            chosen[lv.id] = below = own
        out[(variant, players)] = chosen
    return out


def markdown(rows: list[dict[str, object]]) -> list[str]:
    """The summary as the table of docs/bots.md: each level − club, and each step up the order, paired."""
    def cell(r: dict[str, object] | None) -> str:
        if r is None:
            return "—"
        low, high = r["ci95"]  # type: ignore[misc]
        return f"{r['mean']:+.1f} [{low:+.1f}, {high:+.1f}]".replace("-", "−")

    level = {(r["variant"], r["players"], r["level"]): r for r in rows if r["kind"] == "level"}
    pair = {(r["variant"], r["players"], r["upper"]): r for r in rows if r["kind"] == "pair"}
    out = ["| table | beginner | casual | strong | expert | casual − beginner | strong − club, pooled | "
           "expert − strong, paired | seeds: novices / searches (pooled) |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for variant, players in sorted(TABLES, key=lambda t: (["classic", "mistigri", "kopilka"].index(t[0]), t[1])):
        nov = level.get((variant, players, "beginner"))
        srch = level.get((variant, players, "strong"))
        mid = pair.get((variant, players, "strong"))
        top = pair.get((variant, players, "expert"))
        seeds = f"{nov['seeds'] if nov else 0} / {srch['seeds'] if srch else 0}"
        extra = [f"{name} {r['seeds']}" for name, r in (("strong − club", mid), ("expert − strong", top))
                 if r and r["pooled_earlier"]]
        if extra:
            seeds += " (" + ", ".join(extra) + ")"
        out.append(f"| {variant} {players} | " + " | ".join([
            cell(level.get((variant, players, "beginner"))), cell(level.get((variant, players, "casual"))),
            cell(srch), cell(level.get((variant, players, "expert"))),
            cell(pair.get((variant, players, "casual"))), cell(mid), cell(top)]) + f" | {seeds} |")
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", help="run the plan, appending each seed's rows to this file")
    parser.add_argument("--until", default="18:10", help="UTC time at which the runs stop (HH:MM, today)")
    parser.add_argument("--summary", help="append the rows of every level and pair of this file to it "
                        "(replacing those of an earlier summary)")
    args = parser.parse_args(argv)
    if args.summary:
        path = Path(args.summary)
        rows = summary(path)
        kept = [t for t in path.read_text(encoding="utf-8").splitlines() if t.strip() and '"summary": true' not in t]
        path.write_text("".join(t + "\n" for t in kept), encoding="utf-8")  # a summary replaces the last one
        with path.open("a", encoding="utf-8") as out:
            for row in rows:
                out.write(json.dumps({**row, "summary": True}) + "\n")
                shown = {k: v for k, v in row.items() if k != "per_seed"}
                print(json.dumps(shown, ensure_ascii=False))
        print("\n".join(markdown(rows)))
        for (variant, players), chosen in decide(path).items():
            for lv in LEVELS:
                if chosen[lv.id] != lv.spec:
                    print(f"{variant} {players}: {lv.id} plays {chosen[lv.id]}")
        return
    if not args.json:
        parser.error("--json or --summary")
    hour, minute = (int(x) for x in args.until.split(":"))
    until = dt.datetime.now(dt.UTC).replace(hour=hour, minute=minute, second=0, microsecond=0)
    path = Path(args.json)
    if not any(r.startswith('{"kind": "earlier"') for r in (path.read_text().splitlines() if path.exists() else [])):
        copy_earlier(path)
    run(path, until)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
