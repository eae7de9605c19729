"""mushka's bot against OpenSpiel's Python IS-MCTS, on the same deals, through the OpenSpiel adapter.

    python bench/openspiel_ismcts.py -v classic -p 4 --deals 24 --bot search:iterations=600,seconds=0 \\
        --simulations 300 --field heuristic

Each deal (level ``deal`` of ``mushka_<variant>``) is played once per seat with mushka's bot in
that seat and once with OpenSpiel's ``ISMCTSBot`` there (random-rollout evaluator, worlds from
the game's ``resample_from_infostate``, i.e. mushka's core resampler), the field bot in every
other seat.  Chance outcomes come from a generator seeded by the deal, so both sides get the
same cards; the field bots' generators are seeded by deal and seat.  A deal's measure is the
money (C17-C21, MI9, K22) of mushka's bot minus that of IS-MCTS in the same seat, averaged over
the seats; the interval is Student's t over the deals.  Each side's money against the field's
mean is reported too, with the mean thinking time per decision and the load average.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import time
from dataclasses import asdict, dataclass
from multiprocessing import Pool
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts
from scipy import stats

import mushka.research.openspiel  # noqa: F401  (registers the games)
from mushka.bots import make_bot
from mushka.bots.base import deal_game_view


@dataclass(frozen=True)
class Plan:
    """One table: the game, mushka's bot, IS-MCTS's budget and the field."""

    variant: str
    players: int
    bot: str
    simulations: int
    uct_c: float
    field: str


@dataclass
class Side:
    """What one side did in one seat of one deal."""

    money: float
    versus_field: float
    seconds: float
    decisions: int


def play(plan: Plan, deal: int, test: int, side: str) -> Side:
    """Deal ``deal`` with ``side`` (``mushka`` or ``ismcts``) in seat ``test``."""
    game = pyspiel.load_game(f"mushka_{plan.variant}", {"players": plan.players})
    chance = random.Random(f"chance {deal}")
    field = [make_bot(plan.field) for _ in range(plan.players)]
    field_rngs = [random.Random(f"field {deal} {seat}") for seat in range(plan.players)]
    if side == "mushka":
        mine = make_bot(plan.bot)
        mine_rng = random.Random(f"bot {deal} {test}")
    else:
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(deal))
        searcher = ismcts.ISMCTSBot(game, evaluator, uct_c=plan.uct_c, max_simulations=plan.simulations,
                                    random_state=np.random.RandomState(1000 * deal + test))
    state = game.new_initial_state()
    thinking = 0.0
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(chance.choices(outcomes, weights)[0])
            continue
        seat = state.current_player()
        view = deal_game_view(state.steps.deal, seat)
        if seat != test:
            state.apply_action(state.steps.id_of(field[seat].choose(view, field_rngs[seat])))
            continue
        started = time.perf_counter()
        if side == "mushka":
            action = state.steps.id_of(mine.choose(view, mine_rng))
        else:
            action = searcher.step(state)
        thinking += time.perf_counter() - started
        decisions += 1
        state.apply_action(action)
    money = state.returns()
    others = [m for seat, m in enumerate(money) if seat != test]
    return Side(money[test], money[test] - statistics.fmean(others), thinking, decisions)


def one_deal(task: tuple[Plan, int]) -> dict[str, Any]:
    """Both sides in every seat of one deal."""
    plan, deal = task
    sides = {side: [play(plan, deal, seat, side) for seat in range(plan.players)] for side in ("mushka", "ismcts")}
    return {"deal": deal,
            "difference": statistics.fmean(a.money - b.money for a, b in zip(sides["mushka"], sides["ismcts"],
                                                                              strict=True)),
            **{side: [asdict(s) for s in seats] for side, seats in sides.items()}}


def interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and 95% Student's t interval."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.nan, math.nan
    half = stats.t.ppf(0.975, len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def main() -> None:
    """Run the deals and print the paired difference and each side's figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", "-v", default="classic")
    parser.add_argument("--players", "-p", type=int, default=4)
    parser.add_argument("--bot", default="search:iterations=600,seconds=0", help="mushka's bot")
    parser.add_argument("--simulations", type=int, default=300, help="IS-MCTS simulations per decision")
    parser.add_argument("--uct-c", type=float, default=2.0)
    parser.add_argument("--field", default="heuristic", help="the bot in every other seat")
    parser.add_argument("--deals", type=int, default=24)
    parser.add_argument("--first-deal", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", help="append the result as one JSON line to this file")
    parser.add_argument("--partial", help="append each deal's result to this file as soon as it is known")
    args = parser.parse_args()
    plan = Plan(args.variant, args.players, args.bot, args.simulations, args.uct_c, args.field)
    load_before = os.getloadavg()[0]
    started = time.time()
    tasks = [(plan, d) for d in range(args.first_deal, args.first_deal + args.deals)]
    rows = []
    with Pool(args.jobs) as pool:
        for row in pool.imap_unordered(one_deal, tasks):
            rows.append(row)
            if args.partial:
                with open(args.partial, "a", encoding="utf-8") as out:
                    out.write(json.dumps(row) + "\n")
    load_after = os.getloadavg()[0]
    rows.sort(key=lambda r: r["deal"])
    result: dict[str, Any] = {"plan": asdict(plan), "deals": len(rows), "first_deal": args.first_deal,
                              "load": [round(load_before, 1), round(load_after, 1)],
                              "wall_seconds": round(time.time() - started, 1)}
    diff = interval([r["difference"] for r in rows])
    result["mushka_minus_ismcts"] = diff
    print(f"{plan.variant} {plan.players}, {len(rows)} deals x {plan.players} seats, field {plan.field}; "
          f"load {load_before:.1f}->{load_after:.1f}")
    print(f"  {plan.bot} - IS-MCTS({plan.simulations}): {diff[0]:+.2f} per deal [{diff[1]:+.2f}, {diff[2]:+.2f}]")
    for side, name in (("mushka", plan.bot), ("ismcts", f"IS-MCTS({plan.simulations})")):
        per_deal = [statistics.fmean(s["versus_field"] for s in r[side]) for r in rows]
        seconds = sum(s["seconds"] for r in rows for s in r[side])
        decisions = sum(s["decisions"] for r in rows for s in r[side])
        versus = interval(per_deal)
        result[side] = {"versus_field": versus, "seconds_per_decision": seconds / max(decisions, 1),
                        "decisions": decisions}
        print(f"  {name} - field: {versus[0]:+.2f} [{versus[1]:+.2f}, {versus[2]:+.2f}], "
              f"{seconds / max(decisions, 1):.3f} s per decision ({decisions} decisions)")
    if args.json:
        with open(args.json, "a", encoding="utf-8") as out:
            out.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
