"""How often one proposal of the core resampler is kept, over states met in play.

Plays deals with heuristic bots; at every ``--every``-th decision (default
3) it asks every seat's view for ``--proposals`` single proposals
(``resample_deal(..., tries=1)``) and records the share kept.  A
state whose share is p fails all 500 tries of :data:`TRIES` with
probability (1 - p) ** 500; the report gives the lowest shares met and the
share of states below 1 %, 5 % and 10 %.

    python bench/resample_acceptance.py --variant kopilka --deals 100 --proposals 100 [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics

from mushka.bots import make_bot
from mushka.bots.base import deal_game_view
from mushka.engine import new_deal
from mushka.errors import MushkaError
from mushka.rules import make_rules
from mushka.worlds.resample import TRIES, resample_deal


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", "-v", default="kopilka")
    parser.add_argument("--players", "-p", type=int, default=4)
    parser.add_argument("--option", action="append", default=[], help="an option of the rules, name=value")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--first-deal", type=int, default=0)
    parser.add_argument("--proposals", type=int, default=100, help="single proposals per state and seat")
    parser.add_argument("--every", type=int, default=3, help="look at every k-th decision")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    options = dict(o.split("=", 1) for o in args.option)
    rules = make_rules(args.variant, args.players, **options)
    shares: list[tuple[float, int, int, int]] = []
    for d in range(args.first_deal, args.first_deal + args.deals):
        rng = random.Random(f"deal {d}")
        deal = new_deal(rules, d % args.players, rng=rng)
        bots = [make_bot("heuristic") for _ in range(args.players)]
        step = 0
        while not deal.is_over:
            seat = deal.to_act
            if step % args.every == 0:
                for viewer in range(args.players):
                    kept = 0
                    for k in range(args.proposals):
                        try:
                            resample_deal(deal, viewer, random.Random(f"{d} {step} {viewer} {k}"), tries=1)
                            kept += 1
                        except MushkaError as err:
                            if err.code != "resample_failed":
                                raise
                    shares.append((kept / args.proposals, d, step, viewer))
            deal.apply(bots[seat].choose(deal_game_view(deal, seat), rng))
            step += 1
    values = sorted(s for s, *_ in shares)
    row = {
        "variant": args.variant, "players": args.players, "options": options, "deals": args.deals,
        "first_deal": args.first_deal, "states": len(values), "proposals": args.proposals,
        "min": values[0], "p01": values[len(values) // 100], "median": statistics.median(values),
        "below_1pct": sum(v < 0.01 for v in values) / len(values),
        "below_5pct": sum(v < 0.05 for v in values) / len(values),
        "below_10pct": sum(v < 0.10 for v in values) / len(values),
        "worst": [list(s) for s in sorted(shares)[:5]], "tries": TRIES,
    }
    print(json.dumps(row) if args.json else row)


if __name__ == "__main__":
    main()
