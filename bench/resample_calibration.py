"""How well the core resampler's worlds match reality: marginals, calibration, Brier scores.

For each table, random reachable states are drawn by uniform random play
(uniform chance, uniform legal ids), and at each one the seat to act asks the
resampler (:func:`mushka.worlds.resample.resample_deal`) for ``--samples``
worlds.  For every card the seat has not seen played or held, the share of
worlds putting it in each other seat's hand is a predicted probability; the
real deal says where it is.  Reported:

* success: states where every resample came back (``resample_failed`` counts);
* calibration: predictions binned by tenths (binned by one half of the
  worlds, predicted by the other, so that sampling noise does not pass for
  miscalibration), mean predicted beside the frequency observed in the real deals (a sampler that were the exact
  posterior of random play would match up to noise; the resampler spreads
  hidden cards uniformly under the view's constraints and ignores how likely
  the random players' choices were in each world, so some gap is expected);
* Brier score of the resampler (its estimate's sampling variance taken off)
  against the uniform guess (each hidden card in
  a seat's hand with probability hand size / hidden cards);
* an exact small case: at the eldest's first decision in classic 4p the seat
  knows its five cards and the turned-up card, so each of the 30 others is in
  a given other hand with probability 5/30 (up to the C22 exclusion of
  special hands, which changes it by well under 0.1 %); the resampler's
  marginals are compared with that by a chi-square statistic.

    python bench/resample_calibration.py --states 150 --samples 40 [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import time

from mushka.engine.steps import StepDeal
from mushka.errors import MushkaError
from mushka.rules import Rules, make_rules
from mushka.worlds.resample import resample_deal

TABLES = [("classic", 4, {}), ("mistigri", 4, {}), ("kopilka", 4, {}), ("kopilka", 4, {"redistribution": "old"})]


def reachable(rules: Rules, seed: int, stop: int) -> StepDeal:
    """A state reached by uniform random play, stopped at a decision (or the end)."""
    rng = random.Random(seed)
    state = StepDeal(rules, seed % rules.players)
    while True:
        if state.is_chance():
            outcomes = state.chance_outcomes()
            state.apply_chance(outcomes[rng.randrange(len(outcomes))][0])
        elif state.is_over() or stop <= 0:
            return state
        else:
            ids = state.legal_action_ids()
            state.apply_id(ids[rng.randrange(len(ids))])
            stop -= 1


def calibration(variant: str, players: int, options: dict[str, object], states: int,
                samples: int) -> dict[str, object]:
    rules = make_rules(variant, players, **options)  # type: ignore[arg-type]
    bins = [[0.0, 0.0, 0] for _ in range(10)]  # predicted sum, observed sum, count
    brier = brier_uniform = 0.0
    points = failed = done = 0
    spent = 0.0
    for seed in range(states):
        stop = random.Random(seed).randrange(4 * players * 4)
        state = reachable(rules, seed, stop)
        real = state.deal
        if real is None or real.is_over:
            continue
        seat = real.to_act
        mine = real.hands[seat]
        played = 0
        for trick in real.tricks:
            for _, c in trick.cards:
                played |= c.bit
        for _, c in real.current_trick:
            played |= c.bit
        # Two halves: one bins a prediction, the other gives it (binning by the very
        # estimate that is reported would show noise as miscalibration).
        counts = [[[0] * players for _ in range(52)] for _ in range(2)]
        rng = random.Random(seed)
        try:
            start = time.perf_counter()
            for k in range(samples):
                world = resample_deal(real, seat, rng)
                for j in range(players):
                    hand = world.hands[j]
                    while hand:
                        low = hand & -hand
                        counts[k % 2][low.bit_length() - 1][j] += 1
                        hand ^= low
            spent += time.perf_counter() - start
        except MushkaError:
            failed += 1
            continue
        done += 1
        hidden = [c for c in rules.deck_indices if not (mine | played) >> c & 1]
        for j in range(players):
            if j == seat:
                continue
            size = real.hands[j].bit_count()
            half = samples // 2
            for c in hidden:
                p_bin = counts[0][c][j] / half
                p = counts[1][c][j] / half
                truth = 1.0 if real.hands[j] >> c & 1 else 0.0
                b = min(9, int(p_bin * 10))
                bins[b][0] += p
                bins[b][1] += truth
                bins[b][2] += 1
                # Brier score of the sampler's probability, the estimate's own variance taken off.
                both = (counts[0][c][j] + counts[1][c][j]) / (2 * half)
                brier += (both - truth) ** 2 - both * (1 - both) / (2 * half - 1)
                brier_uniform += (size / len(hidden) - truth) ** 2
                points += 1
    return {
        "table": f"{variant} {players}p {options or ''}".strip(),
        "states": done, "failed": failed,
        "ms_per_world": round(1000 * spent / max(1, done * samples), 2),
        "calibration": [(round(b[0] / b[2], 3), round(b[1] / b[2], 3), b[2]) for b in bins if b[2]],
        "brier": round(brier / max(1, points), 4),
        "brier_uniform": round(brier_uniform / max(1, points), 4),
    }


def first_decision_exact(deals: int, samples: int) -> dict[str, object]:
    """Classic 4p, the eldest's first decision: each unseen card in a given other hand with p = 5/30."""
    rules = make_rules("classic", 4)
    chi2 = 0.0
    cells = 0
    worst = 0.0
    for seed in range(deals):
        state = reachable(rules, seed, 0)
        real = state.deal
        assert real is not None
        seat = real.to_act
        known = real.hands[seat] | 1 << real.turnup  # type: ignore[attr-defined]
        counts = [[0] * 4 for _ in range(52)]
        rng = random.Random(seed)
        for _ in range(samples):
            world = resample_deal(real, seat, rng)
            for j in range(4):
                for c in rules.deck_indices:
                    if world.hands[j] >> c & 1:
                        counts[c][j] += 1
        expected = samples * 5 / 30
        for c in rules.deck_indices:
            if known >> c & 1:
                continue
            for j in range(4):
                if j != seat:
                    chi2 += (counts[c][j] - expected) ** 2 / expected
                    worst = max(worst, abs(counts[c][j] / samples - 5 / 30))
                    cells += 1
    return {"deals": deals, "samples": samples, "cells": cells, "chi2": round(chi2, 1),
            "chi2_per_cell": round(chi2 / cells, 3), "exact": round(5 / 30, 4), "largest_gap": round(worst, 4)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=150)
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with open("/proc/loadavg") as f:
        load = f.read().split()[0]
    rows = [calibration(v, n, o, args.states, args.samples) for v, n, o in TABLES]
    exact = first_decision_exact(20, 300)
    if args.json:
        print(json.dumps({"tables": rows, "first_decision": exact, "load_average": load}))
        return
    for r in rows:
        print(f"{r['table']}: {r['states']} states, {r['failed']} failed, {r['ms_per_world']} ms a world, "
              f"Brier {r['brier']} (uniform guess {r['brier_uniform']})")
        for pred, seen, count in r["calibration"]:  # type: ignore[attr-defined]
            print(f"    predicted {pred:.3f}  observed {seen:.3f}  ({count} card-seat pairs)")
    print(f"first decision, classic 4p: chi2 {exact['chi2']} over {exact['cells']} cells "
          f"({exact['chi2_per_cell']} a cell, 1 expected), largest gap {exact['largest_gap']} "
          f"from {exact['exact']}")
    print(f"load average {load}")


if __name__ == "__main__":
    main()
