"""Inference measured on its own: log-likelihood of the true deal under the belief, against uniform worlds.

See :mod:`mushka.bots.inference` for the measure.  Positions are taken from
heuristic self-play games (each seat at its first and third play of every
deal, after every declaration is public).  The factors of
:class:`~mushka.bots.belief.BeliefModel` are fitted by coordinate ascent
over a grid on the training seeds (maximum likelihood of the true deals) and
reported on held-out seeds (10000 on), with a 95% interval by Student's t
over the held-out games, next to the factors the search ships with.

    python bench/bots_inference.py --variant classic --players 4
    python bench/bots_inference.py -v mistigri --train 30 --test 30 --worlds 100
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from dataclasses import replace

from scipy import stats

from mushka.bots.belief import BELIEF
from mushka.bots.inference import per_game, self_play_positions

GRID = {
    "other_kind": [0.02, 0.05, 0.1, 0.25, 0.5],
    "count_off_one": [0.05, 0.1, 0.25, 0.5],
    "count_off_more": [0.02, 0.05, 0.25],
    "other_play": [0.05, 0.1, 0.3, 0.6],
    "floor": [0.0005, 0.002, 0.005, 0.02],
}


def summary(values: list[float], positions_n: int) -> dict[str, object]:
    """Mean per game and per position with a 95% interval over games."""
    n = len(values)
    mean = statistics.mean(values)
    half = float(stats.t.ppf(0.975, n - 1)) * statistics.stdev(values) / math.sqrt(n)
    per = sum(values) / positions_n
    return {"games": n, "positions": positions_n, "per_game": round(mean, 3),
            "ci95": [round(mean - half, 3), round(mean + half, 3)], "per_position": round(per, 4)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", "-v", default="classic")
    parser.add_argument("--players", "-p", type=int, default=4)
    parser.add_argument("--train", type=int, default=20, help="training games (seeds 0..)")
    parser.add_argument("--test", type=int, default=20, help="held-out games (seeds 10000..)")
    parser.add_argument("--worlds", type=int, default=60, help="uniform worlds per position")
    parser.add_argument("--json", help="append the result as one JSON line")
    args = parser.parse_args(argv)
    train = self_play_positions(args.variant, args.players, range(args.train), args.worlds)
    test = self_play_positions(args.variant, args.players, range(10000, 10000 + args.test), args.worlds)
    result: dict[str, object] = {"variant": args.variant, "players": args.players, "worlds": args.worlds}
    for plays in (False, True):
        keys = list(GRID) if plays else [k for k in GRID if k != "other_play"]
        # Coordinate ascent over the grid, two sweeps: each factor in turn at its likeliest value.
        best, best_ll = BELIEF, sum(per_game(train, BELIEF, plays))
        for _ in range(2):
            for key in keys:
                for value in GRID[key]:
                    model = replace(best, **{key: value})
                    ll = sum(per_game(train, model, plays))
                    if ll > best_ll:
                        best, best_ll = model, ll
        label = "declarations and plays" if plays else "declarations"
        fixed = summary(per_game(test, BELIEF, plays), len(test))
        fitted = summary(per_game(test, best, plays), len(test))
        result[label] = {"fitted": best.__dict__, "held_out_fitted": fitted, "held_out_shipped": fixed}
        print(f"{args.variant} {args.players}p, {label}: fitted {best}")
        print(f"  held out, fitted factors:  {fitted['per_game']:+.3f} nats per game, 95% CI "
              f"[{fitted['ci95'][0]:+.3f}, {fitted['ci95'][1]:+.3f}], {fitted['per_position']:+.4f} per position "  # type: ignore[index]
              f"({fitted['games']} games, {fitted['positions']} positions)")
        print(f"  held out, shipped factors: {fixed['per_game']:+.3f} nats per game, 95% CI "
              f"[{fixed['ci95'][0]:+.3f}, {fixed['ci95'][1]:+.3f}], {fixed['per_position']:+.4f} per position")  # type: ignore[index]
    if args.json:
        with open(args.json, "a", encoding="utf-8") as out:
            out.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
