"""Strength of the bots: whole games, duplicate deals, seat rotation, 95% confidence intervals.

For one table (variant and players) and a pair of bots, a *test* bot and a
*field* bot, every seed is played ``players`` times: the test bot sits in
seat 0, then seat 1, … with the field bot in every other seat.  A game's
deals are fixed by its seed (``new_game(rules, rng=seed)`` deals the same
decks whatever is played), so each rotation replays the same cards with the
seats permuted.  The measure of a seed is the test seat's money minus the
mean money of the field seats (GameResult.money, whole parties or
sessions), averaged over the rotations; the report gives the mean over the
seeds with a 95% confidence interval (Student's t), and the thinking time
of the test bot per decision.

    python bench/bots_strength.py --variant classic --players 4 --test heuristic --field random --seeds 200
    python bench/bots_strength.py -v kopilka --test "search:iterations=600,seconds=0" --field heuristic
    python bench/bots_strength.py -v mistigri --test oracle --field heuristic      # research only: sees every card
    python bench/bots_strength.py --suite main --json results.jsonl                # every table of docs/bots.md
    python bench/bots_strength.py --share results.jsonl     # the search's share of the oracle's edge
    python bench/bots_strength.py --compare results.jsonl   # two test bots on the same seeds, paired
    python bench/bots_strength.py --interactions results.jsonl  # do the edges of the two phases add up?

Search budgets should be given in iterations with ``seconds=0`` so that a
run is reproducible; the decision times are then measurements, not limits.
The oracle is attached to the true deal of each game (it sees every card).
Runs in parallel (``--jobs``, default: every core).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from multiprocessing import Pool

from scipy import stats

from mushka import make_rules, new_game
from mushka._build import imported_build
from mushka.bots import make_bot, play_game

SEARCH = "search:iterations=600,seconds=0"
ORACLE = "oracle:iterations=600"
ORACLE_HANDS = "oracle:iterations=600,talon=0"

SUITES: dict[str, list[tuple[str, int, str, str, int]]] = {
    # (variant, players, test, field, seeds)
    "heuristic": [
        ("classic", 4, "heuristic", "random", 150),
        ("mistigri", 4, "heuristic", "random", 150),
        ("kopilka", 4, "heuristic", "random", 150),
        ("classic", 3, "heuristic", "random", 150),
        ("classic", 5, "heuristic", "random", 150),
        ("mistigri", 3, "heuristic", "random", 150),
        ("mistigri", 5, "heuristic", "random", 150),
    ],
    "search": [
        ("classic", 4, SEARCH, "heuristic", 150),
        ("mistigri", 4, SEARCH, "heuristic", 150),
        ("kopilka", 4, SEARCH, "heuristic", 80),
        ("classic", 3, SEARCH, "heuristic", 100),
        ("mistigri", 3, SEARCH, "heuristic", 100),
        ("classic", 5, SEARCH, "heuristic", 260),
        ("mistigri", 5, SEARCH, "heuristic", 60),
    ],
    "oracle": [
        ("classic", 4, ORACLE, "heuristic", 100),
        ("mistigri", 4, ORACLE, "heuristic", 100),
        ("kopilka", 4, ORACLE, "heuristic", 60),
        ("classic", 4, ORACLE_HANDS, "heuristic", 100),
        ("mistigri", 4, ORACLE_HANDS, "heuristic", 100),
        ("kopilka", 4, ORACLE_HANDS, "heuristic", 60),
    ],
}
SUITES["main"] = SUITES["heuristic"] + SUITES["search"] + SUITES["oracle"]


def play_seed(args: tuple[str, int, str, str, int, int]) -> dict[str, object]:
    """Every rotation of one seed: the test bot in each seat in turn."""
    variant, players, test, field, seed, max_deals = args
    rules = make_rules(variant, players)
    diffs = []
    times: list[float] = []
    deals = 0
    for seat in range(players):
        game = new_game(rules, rng=seed, max_deals=max_deals) if rules.has_trumps else new_game(rules, rng=seed)
        bot = make_bot(test)
        if hasattr(bot, "attach"):
            bot.attach(lambda game=game: game.deal)  # research only: the oracle sees the true deal
        bots = [bot if s == seat else make_bot(field) for s in range(players)]
        play_game(game, bots, random.Random(seed * 1009 + seat))
        assert game.result is not None
        money = game.result.money
        others = [money[s] for s in range(players) if s != seat]
        diffs.append(money[seat] - sum(others) / len(others))
        times.extend(getattr(bot, "times", []))
        deals += game.result.deals
    return {"seed": seed, "diff": statistics.mean(diffs), "times": times, "deals": deals / players}


def measure(variant: str, players: int, test: str, field: str, seeds: int, *, first: int = 0,
            jobs: int = 0, max_deals: int = 200, partial: str | None = None) -> dict[str, object]:
    """Play ``seeds`` seeds (from ``first``) and summarise.

    With ``partial`` each seed's result is appended to that file as soon as
    it is known (one JSON object a line), so that a long run stopped early
    still says what it measured.
    """
    start = time.perf_counter()
    work = [(variant, players, test, field, first + k, max_deals) for k in range(seeds)]
    rows = []
    with Pool(jobs or os.cpu_count() or 1) as pool:
        for r in pool.imap_unordered(play_seed, work, chunksize=1):
            rows.append(r)
            if partial:
                with open(partial, "a", encoding="utf-8") as out:
                    out.write(json.dumps({"variant": variant, "players": players, "test": test, "field": field,
                                          "seed": r["seed"], "diff": r["diff"], "deals": r["deals"],
                                          "decisions": len(r["times"]),  # type: ignore[arg-type]
                                          "time_s": sum(r["times"])}) + "\n")  # type: ignore[arg-type]
    rows.sort(key=lambda r: r["seed"])  # type: ignore[arg-type, return-value]
    diffs = [float(r["diff"]) for r in rows]  # type: ignore[arg-type]
    times = [t for r in rows for t in r["times"]]  # type: ignore[attr-defined]
    mean = statistics.mean(diffs)
    sd = statistics.stdev(diffs) if len(diffs) > 1 else math.nan
    half = float(stats.t.ppf(0.975, len(diffs) - 1)) * sd / math.sqrt(len(diffs)) if len(diffs) > 1 else math.nan
    return {
        "variant": variant, "players": players, "test": test, "field": field, "seeds": seeds,
        "games": seeds * players, "first_seed": first,
        "mean_diff": round(mean, 2), "ci95": [round(mean - half, 2), round(mean + half, 2)],
        "sd": round(sd, 2), "deals_per_game": round(statistics.mean(float(r["deals"]) for r in rows), 2),  # type: ignore[arg-type]
        "decisions": len(times),
        "decision_mean_s": round(statistics.mean(times), 4) if times else None,
        "decision_max_s": round(max(times), 4) if times else None,
        "wall_s": round(time.perf_counter() - start, 1), "build": imported_build(),
        "per_seed": [round(d, 3) for d in diffs],
    }


def line(row: dict[str, object]) -> str:
    """One human-readable line."""
    low, high = row["ci95"]  # type: ignore[misc]
    text = (f"{row['variant']:8} {row['players']}p  {row['test']:34} vs {row['field']:10} "
            f"{row['mean_diff']:+8.2f}  95% CI [{low:+.2f}, {high:+.2f}]  "
            f"({row['seeds']} seeds × {row['players']} seats, {row['deals_per_game']} deals/game)")
    if row["decision_mean_s"] is not None:
        text += f"  decision mean {row['decision_mean_s']:.3f} s, max {row['decision_max_s']:.3f} s"
    return text + f"  [{row['wall_s']} s]"


def share(path: str, boot: int = 4000) -> list[str]:
    """What share of the oracle's edge over the field the search bot captures, per table.

    Rows of the same table and field measured on the same seeds, searching
    in the same phases (``phases=``: declaring, tricks or both), are paired
    seed by seed; the 95% interval is a bootstrap over the seeds.
    """
    with open(path, encoding="utf-8") as lines:
        rows = [json.loads(x) for x in lines if x.strip()]
    out = []
    rng = random.Random(0)
    for row in rows:
        if not str(row["test"]).startswith("oracle"):
            continue
        for other in rows:
            if (other["variant"], other["players"], other["field"]) != (row["variant"], row["players"], row["field"]):
                continue
            if not str(other["test"]).startswith("search") or phases(other["test"]) != phases(row["test"]):
                continue
            n = min(len(row["per_seed"]), len(other["per_seed"]))
            if other["first_seed"] != row["first_seed"] or n < 10:
                continue
            o, s = row["per_seed"][:n], other["per_seed"][:n]
            ratio = statistics.mean(s) / statistics.mean(o)
            samples = []
            for _ in range(boot):
                idx = [rng.randrange(n) for _ in range(n)]
                mo = statistics.mean(o[i] for i in idx)
                if mo > 0:
                    samples.append(statistics.mean(s[i] for i in idx) / mo)
            samples.sort()
            low, high = samples[int(0.025 * len(samples))], samples[int(0.975 * len(samples)) - 1]
            out.append(f"{row['variant']:8} {row['players']}p  {other['test']} / {row['test']}: "
                       f"{ratio:.0%} of the edge (95% CI {low:.0%} to {high:.0%}, {n} paired seeds)")
    return out


def phases(spec: object) -> str:
    """The ``phases`` option of a bot spec ("3", both phases, when it has none)."""
    return _split(spec)[1]


def _split(spec: object) -> tuple[str, str]:
    """A spec without its ``phases`` option, and that option ("3" when absent)."""
    name, _, opts = str(spec).partition(":")
    kept, value = [], "3"
    for opt in filter(None, opts.split(",")):
        key, _, v = opt.partition("=")
        if key == "phases":
            value = v
        else:
            kept.append(opt)
    return name + (":" + ",".join(kept) if kept else ""), value


def interactions(path: str) -> list[str]:
    """Whether a bot's edges in declaring and in the tricks add up to its edge in both.

    For every bot measured with ``phases=1``, ``phases=2`` and in both
    phases against the same field on the same seeds, the seed-by-seed
    difference declaring + tricks − both (0 if the two edges simply add;
    Student's t interval over the seeds).
    """
    with open(path, encoding="utf-8") as lines:
        rows = [json.loads(x) for x in lines if x.strip()]
    groups: dict[tuple[object, ...], dict[str, dict[str, object]]] = {}
    for r in rows:
        base, value = _split(r["test"])
        key = (r["variant"], r["players"], r["field"], r["first_seed"], base)
        by = groups.setdefault(key, {})
        if value not in by or len(r["per_seed"]) > len(by[value]["per_seed"]):  # type: ignore[arg-type]
            by[value] = r  # the longest run of the same seeds (a 48-seed row over its first 24)
    out = []
    for (variant, players, field, _, base), by in groups.items():
        if not {"1", "2", "3"} <= set(by):
            continue
        seeds = [by[v]["per_seed"] for v in ("1", "2", "3")]
        n = min(len(x) for x in seeds)  # type: ignore[arg-type]
        if n < 2:
            continue
        d = [a + b - c for a, b, c in zip(*(x[:n] for x in seeds), strict=True)]  # type: ignore[index]
        mean = statistics.mean(d)
        half = float(stats.t.ppf(0.975, n - 1)) * statistics.stdev(d) / math.sqrt(n)
        out.append(f"{variant:8} {players}p  {base} (field {field}): declaring + tricks − both "
                   f"{mean:+.2f}, 95% CI [{mean - half:+.2f}, {mean + half:+.2f}] ({n} paired seeds)")
    return out


def compare(path: str) -> list[str]:
    """Every two test bots measured against the same field on the same seeds, paired seed by seed.

    The difference of their measures on a seed is how much more the first
    takes from the same field on the same cards; the interval is Student's t
    over the seeds.
    """
    with open(path, encoding="utf-8") as lines:
        rows = [json.loads(x) for x in lines if x.strip()]
    out = []
    for i, a in enumerate(rows):
        for b in rows[i + 1:]:
            same = all(a[k] == b[k] for k in ("variant", "players", "field", "first_seed"))
            n = min(len(a["per_seed"]), len(b["per_seed"]))
            if not same or a["test"] == b["test"] or n < 2:
                continue
            d = [x - y for x, y in zip(a["per_seed"][:n], b["per_seed"][:n], strict=True)]
            mean = statistics.mean(d)
            half = float(stats.t.ppf(0.975, n - 1)) * statistics.stdev(d) / math.sqrt(n)
            out.append(f"{a['variant']:8} {a['players']}p  {a['test']} − {b['test']} (field {a['field']}): "
                       f"{mean:+.2f}, 95% CI [{mean - half:+.2f}, {mean + half:+.2f}] ({n} paired seeds)")
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", "-v", default="classic")
    parser.add_argument("--players", "-p", type=int, default=4)
    parser.add_argument("--test", default="heuristic", help="the bot measured (one seat)")
    parser.add_argument("--field", default="random", help="the bot in every other seat")
    parser.add_argument("--seeds", type=int, default=100, help="seeds (each played once per seat)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=0, help="worker processes (default: every core)")
    parser.add_argument("--max-deals", type=int, default=200, help="safety limit of a partie's deals")
    parser.add_argument("--suite", choices=sorted(SUITES), help="run a whole suite of tables instead")
    parser.add_argument("--only", help="with --suite: only rows whose test bot starts with this")
    parser.add_argument("--json", help="append one JSON object per result to this file")
    parser.add_argument("--partial", help="append each seed's result to this file as soon as it is known")
    parser.add_argument("--share", metavar="JSONL", help="only report the search's share of the oracle's edge")
    parser.add_argument("--compare", metavar="JSONL", help="only report paired differences between test bots")
    parser.add_argument("--interactions", metavar="JSONL",
                        help="only report whether the edges of declaring and of the tricks add up")
    args = parser.parse_args(argv)
    if args.share:
        for text in share(args.share):
            print(text)
        return
    if args.compare or args.interactions:
        for text in (compare(args.compare) if args.compare else interactions(args.interactions)):
            print(text)
        return
    plan = SUITES[args.suite] if args.suite else [(args.variant, args.players, args.test, args.field, args.seeds)]
    if args.only:
        plan = [p for p in plan if p[2].startswith(args.only)]
    for variant, players, test, field, seeds in plan:
        row = measure(variant, players, test, field, seeds, first=args.first_seed, jobs=args.jobs,
                      max_deals=args.max_deals, partial=args.partial)
        print(line(row), flush=True)
        if args.json:
            with open(args.json, "a", encoding="utf-8") as out:
                out.write(json.dumps(row) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
