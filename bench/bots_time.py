"""Thinking time per decision of the search bot, as shipped, in one process.

Plays whole games with one search bot (the default budget unless
``--spec`` says otherwise) among heuristic bots and reports, per variant,
the time of every decision that needed thought: mean, 95th percentile,
maximum, and how many decisions stopped at the time cap.

    python bench/bots_time.py                       # default: search (600 playouts, 0.3 s cap)
    python bench/bots_time.py --spec "search:iterations=2000,seconds=0" --games 3
    python bench/bots_time.py --spec expert --tables classic:4,mistigri:4 --games 2
"""

from __future__ import annotations

import argparse
import json
import random
import statistics

from mushka import make_rules, new_game
from mushka._build import imported_build
from mushka.bots import make_bot, play_game

TABLES = [("classic", 4), ("mistigri", 4), ("kopilka", 4), ("classic", 3), ("classic", 5), ("mistigri", 7)]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--spec", default="search")
    parser.add_argument("--games", type=int, default=4, help="games per table")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument("--tables", help="only these tables, e.g. classic:4,mistigri:4")
    args = parser.parse_args(argv)
    tables = TABLES
    if args.tables:
        tables = [(v, int(p)) for v, _, p in (t.partition(":") for t in args.tables.split(","))]
    for variant, players in tables:
        rules = make_rules(variant, players)
        times: list[float] = []
        cap = 0.0
        for seed in range(args.games):
            game = new_game(rules, rng=seed, max_deals=60) if rules.has_trumps else new_game(rules, rng=seed)
            bot = make_bot(args.spec)
            cap = float(getattr(bot, "seconds", 0.0))
            bots = [bot] + [make_bot("heuristic") for _ in range(players - 1)]
            play_game(game, bots, random.Random(seed))
            times.extend(getattr(bot, "times", []))
        times.sort()
        row = {
            "variant": variant, "players": players, "spec": args.spec, "decisions": len(times),
            "mean_s": round(statistics.mean(times), 4), "p95_s": round(times[int(0.95 * (len(times) - 1))], 4),
            "max_s": round(times[-1], 4), "at_cap": sum(1 for t in times if cap and t >= cap),
            "build": imported_build(),  # a stale compiled core runs as the pure one, three times slower
        }
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            print(f"{variant:8} {players}p  {row['decisions']:4} decisions  mean {row['mean_s']:.3f} s  "
                  f"p95 {row['p95_s']:.3f} s  max {row['max_s']:.3f} s  at the cap: {row['at_cap']}", flush=True)


if __name__ == "__main__":
    main()
