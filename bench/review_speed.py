"""How long `mushka review` takes for a game of 15 deals (the goal: at most 10 seconds).

Plays a partie of classic Мушка for four between club players, stopped after
15 deals (a seeded game, so every run reviews the same record), then reviews
one seat against the expert exactly as ``mushka review`` does, and prints the
deals, the decisions, how many differed from the expert's, the seconds and
the build of the core that ran (compiled or pure, docs/build.md).

    python bench/review_speed.py                 # seat 0, one worker per core
    python bench/review_speed.py --seat 2 --workers 1 --seed 7 --json
"""

from __future__ import annotations

import argparse
import json
import random
import time

from mushka import _build
from mushka.bots import make_bot
from mushka.bots.review import review
from mushka.match import new_game
from mushka.records import Record, record_of_game
from mushka.rules import make_rules

GOAL_SECONDS = 10.0
"""Issue 35: a 15-deal game is reviewed in at most this many seconds."""


def game_record(seed: int, deals: int, variant: str) -> Record:
    """A game of ``deals`` deals between club players (a kopilka session has its own four).

    A partie may end sooner (a record reaches zero, a мушка): the seeds from
    ``seed`` on are tried in order and the first game that lasts is kept.
    """
    for tried in range(seed, seed + 1000):
        record = _play(tried, deals, variant)
        if len(record.deals) >= min(deals, 4 if variant == "kopilka" else deals):
            return record
    raise SystemExit(f"no game of {deals} deals among 1000 seeds from {seed}")


def _play(seed: int, deals: int, variant: str) -> Record:
    rules = make_rules(variant, 4)
    extra = {"max_deals": deals} if rules.has_trumps else {}
    game = new_game(rules, rng=random.Random(seed), **extra)
    bots = [make_bot("club") for _ in range(4)]
    rng = random.Random(seed + 1)
    while not game.is_over:
        seat = game.to_act
        game.apply(bots[seat].choose(game.view(seat), rng), seat)
    return record_of_game(game, seats=["club"] * 4, meta={"seed": seed})


def main() -> None:
    """Parse the arguments, review, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deals", type=int, default=15)
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--seat", type=int, default=0)
    parser.add_argument("--workers", type=int, default=0, help="processes (0: one per core, at most 4)")
    parser.add_argument("--json", action="store_true", help="one JSON line")
    args = parser.parse_args()
    record = game_record(args.seed, args.deals, args.variant)
    start = time.perf_counter()
    result = review(record, args.seat, workers=args.workers)
    seconds = time.perf_counter() - start
    row = {
        "variant": args.variant, "seed": record.meta["seed"], "deals": len(record.deals), "seat": args.seat,
        "decisions": len(result.decisions), "differ": sum(1 for d in result.decisions if not d.agrees),
        "workers": args.workers, "seconds": round(seconds, 2), "goal_seconds": GOAL_SECONDS,
        "build": _build.BUILD,
    }
    if args.json:
        print(json.dumps(row))
        return
    print(f"{row['variant']}, {row['deals']} deals, seat {row['seat']}: {row['decisions']} decisions "
          f"({row['differ']} unlike the expert's) reviewed in {row['seconds']} s "
          f"(goal: at most {GOAL_SECONDS:g} s; {row['build']} core)")


if __name__ == "__main__":
    main()
