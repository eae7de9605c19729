"""Quality of single decisions: each bot's choice valued by the oracle on the true deal, paired by position.

Whole games (``bench/bots_strength.py``) are the measure of strength, but a
game's money varies so much that a few points of difference need hundreds
of seeds.  This benchmark looks at decisions instead.  It plays heuristic
self-play games; at every decision of the chosen kind (by default the
declaration, C6-C10) with more than ``--min-legal`` legal actions it asks
every test bot for its choice, from the seat's own view, and asks the
oracle (research only, ``talon=0``: every hand seen, the talon shuffled in
each playout, every declaration candidate including the chasing exchanges)
for the mean value of every candidate on the true deal with a large budget.
A bot's *regret* at a position is the oracle's best value less the oracle's
value of the bot's choice; two bots are compared by their regrets on the
same positions (Student's t over positions).  The oracle's evaluation is
itself the rules of thumb after the move, so this ranks decisions by the
same yardstick the search bot uses, with the hidden cards known: it
measures how much the seat's ignorance (and the sampling noise) costs, not
strength against people.

    python bench/bots_decisions.py --games 6 --bots search:iterations=600,seconds=0 \\
        search:iterations=600,seconds=0,chase=1,declare=4 --json decisions.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time

from scipy import stats

from mushka import make_rules, new_game
from mushka.bots import make_bot
from mushka.bots.heuristic import HeuristicBot
from mushka.bots.oracle import OracleBot, OracleConfig
from mushka.engine import Phase
from mushka.match import Game


def collect(variant: str, players: int, games: int, first: int, bots: list[str], oracle_iterations: int,
            phase: str, min_legal: int, repeats: int, max_positions: int,
            out: str | None = None, per_game: int = 0) -> list[dict[str, object]]:
    """Play heuristic games; at each position of interest, every bot's regret under the oracle.

    With ``out`` each position's row is appended to that file as soon as it is known;
    ``per_game`` (0: no limit) caps the positions taken from one game, so that they come from more games.
    """
    rules = make_rules(variant, players)
    rows: list[dict[str, object]] = []
    field = HeuristicBot()
    want = Phase.DECLARE if phase == "declare" else Phase.PLAY
    for g in range(first, first + games):
        game: Game = new_game(rules, rng=g, max_deals=200) if rules.has_trumps else new_game(rules, rng=g)
        rng = random.Random(g)
        oracle = OracleBot(OracleConfig(iterations=oracle_iterations, seconds=0, talon=False, chase=True))
        oracle.attach(lambda game=game: game.deal)
        taken = 0
        while not game.is_over and len(rows) < max_positions and (not per_game or taken < per_game):
            seat = game.to_act
            view = game.view(seat)
            d = view.deal
            if d.phase is want and len(d.legal) > min_legal:
                oracle.choose(view, random.Random(g * 7919 + len(rows)))
                values = dict(oracle.last)
                top = max(values.values())
                best = max(values, key=lambda a: values[a])
                row: dict[str, object] = {"game": g, "seat": seat, "legal": len(d.legal), "oracle": len(values),
                                          "best": str(best)}
                for spec in bots:
                    bot = make_bot(spec)
                    regrets = []
                    choices = []
                    start = time.perf_counter()
                    for r in range(repeats):
                        choice = bot.choose(view, random.Random(g * 104729 + len(rows) * 31 + r))
                        choices.append(str(choice))
                        # A choice outside the oracle's candidates is valued by a playout budget of its own.
                        regrets.append(top - values[choice] if choice in values else math.nan)
                    row[spec] = regrets
                    row[spec + " a"] = choices
                    row[spec + " s"] = (time.perf_counter() - start) / repeats
                rows.append(row)
                taken += 1
                if out:
                    with open(out, "a", encoding="utf-8") as f:
                        f.write(json.dumps({"variant": variant, "players": players, **row}) + "\n")
            game.apply(field.choose(view, rng), seat)
        if len(rows) >= max_positions:
            break
    return rows


def summary(rows: list[dict[str, object]], bots: list[str]) -> list[str]:
    """Mean regret per bot and paired differences with the first bot, 95% intervals over positions."""
    out = []
    per: dict[str, list[float]] = {}
    for spec in bots:
        per[spec] = [statistics.mean(x for x in r[spec] if not math.isnan(x)) for r in rows]  # type: ignore[attr-defined]
        secs = statistics.mean(float(r[spec + " s"]) for r in rows)  # type: ignore[arg-type]
        out.append(f"{spec:60} regret {_ci(per[spec])}  ({len(rows)} positions, {secs:.2f} s a choice)")
    base = bots[0]
    for spec in bots[1:]:
        d = [a - b for a, b in zip(per[spec], per[base], strict=True)]
        out.append(f"{spec} − {base}: regret {_ci(d)}")
    return out


def _ci(xs: list[float]) -> str:
    mean = statistics.mean(xs)
    if len(xs) < 2:
        return f"{mean:+.3f}"
    half = float(stats.t.ppf(0.975, len(xs) - 1)) * statistics.stdev(xs) / math.sqrt(len(xs))
    return f"{mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}]"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", "-v", default="classic")
    parser.add_argument("--players", "-p", type=int, default=4)
    parser.add_argument("--games", type=int, default=4, help="heuristic self-play games to take positions from")
    parser.add_argument("--first-game", type=int, default=5000, help="seeds apart from the strength runs'")
    parser.add_argument("--bots", nargs="+", help="bot specs; the first is the baseline")
    parser.add_argument("--oracle-iterations", type=int, default=6000)
    parser.add_argument("--phase", choices=["declare", "play"], default="declare")
    parser.add_argument("--min-legal", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=2, help="choices per bot and position (other seeds)")
    parser.add_argument("--positions", type=int, default=40, help="stop after this many positions")
    parser.add_argument("--per-game", type=int, default=0, help="at most this many positions from one game (0: any)")
    parser.add_argument("--json", help="append one JSON object per position to this file, as each is known")
    parser.add_argument("--summary", metavar="JSONL", help="only summarise the rows of an earlier run")
    parser.add_argument("--run", nargs="+", help="with --summary: only the rows of these runs (their \"run\" tag)")
    args = parser.parse_args(argv)
    if args.summary:
        with open(args.summary, encoding="utf-8") as lines:
            rows = [json.loads(x) for x in lines if x.strip()]
        if args.run:
            # A results file holds several runs with different bots: summarise one (or runs with the same bots).
            rows = [r for r in rows if r.get("run") in args.run]
            if not rows:
                parser.error(f"no rows of run {', '.join(args.run)} in {args.summary}")
        bots = args.bots or [k[:-2] for k in rows[0] if k.endswith(" s")]
    elif not args.bots:
        parser.error("--bots is needed (or --summary)")
    else:
        bots = args.bots
        rows = collect(args.variant, args.players, args.games, args.first_game, args.bots, args.oracle_iterations,
                       args.phase, args.min_legal, args.repeats, args.positions, args.json,
                       args.per_game)
    for text in summary(rows, bots):
        print(text)


if __name__ == "__main__":
    main()
