"""Side-by-side speed: a random 4-player classic deal vs OpenSpiel's oh_hell.

Both games are driven from Python with uniformly random actions, in one
process, one after the other, for the same time:

* mushka: a classic 4-player deal (36 cards) on the engine's fast path —
  shuffle, declarations with exchanges, five tricks — choosing with
  ``random.choice(deal.legal_actions())`` and ``deal.apply_unchecked``, and
  the same random policy run inside the engine by ``deal.playout(rng)``;
* OpenSpiel's C++ game ``oh_hell(players=4,num_suits=4,num_cards_per_suit=8,
  num_tricks_fixed=5)`` (also 5 cards each, a trump card, bids instead of
  declarations, five tricks), driven two ways:

  - ``example``: as OpenSpiel's own ``examples/example.py`` does it — chance
    outcomes sampled with ``numpy.random.choice(actions, p=probs)``;
  - ``lean``: chance outcomes (all equally likely in this game) chosen with
    ``random.choice``, the cheapest driver from Python.

Run with the bench extra installed (``pip install -e '.[bench]'``)::

    python bench/openspiel_compare.py --seconds 5 [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from mushka.engine.trump import TrumpDeal
from mushka.rules import make_rules

OH_HELL = "oh_hell(players=4,num_suits=4,num_cards_per_suit=8,num_tricks_fixed=5)"


def mushka_rate(seconds: float, seed: int = 1) -> float:
    rules = make_rules("classic", 4)
    rng = random.Random(seed)
    choice = rng.choice
    deals = 0
    start = time.perf_counter()
    end = start + seconds
    while True:
        for _ in range(200):
            deal = TrumpDeal(rules, deals & 3, rng=rng, record_events=False)
            legal = deal.legal_actions
            apply = deal.apply_unchecked
            while not deal.is_over:
                apply(choice(legal()))
            deals += 1
        if time.perf_counter() >= end:
            break
    return deals / (time.perf_counter() - start)


def mushka_playout_rate(seconds: float, seed: int = 1) -> float:
    rules = make_rules("classic", 4)
    rng = random.Random(seed)
    deals = 0
    start = time.perf_counter()
    end = start + seconds
    while True:
        for _ in range(200):
            TrumpDeal(rules, deals & 3, rng=rng, record_events=False).playout(rng)
            deals += 1
        if time.perf_counter() >= end:
            break
    return deals / (time.perf_counter() - start)


def openspiel_rate(seconds: float, style: str, seed: int = 1) -> float:
    import numpy as np
    import pyspiel

    game = pyspiel.load_game(OH_HELL)
    rng = random.Random(seed)
    np.random.seed(seed)
    choice = rng.choice
    games = 0
    start = time.perf_counter()
    end = start + seconds
    while True:
        for _ in range(100):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    if style == "example":
                        actions, probs = zip(*outcomes, strict=True)
                        state.apply_action(int(np.random.choice(actions, p=probs)))
                    else:
                        state.apply_action(choice(outcomes)[0])
                else:
                    state.apply_action(choice(state.legal_actions()))
            games += 1
        if time.perf_counter() >= end:
            break
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (median reported)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows: dict[str, list[float]] = {"mushka": [], "mushka_playout": [], "openspiel_example": [],
                                    "openspiel_lean": []}
    for _ in range(args.rounds):
        rows["mushka"].append(mushka_rate(args.seconds))
        rows["mushka_playout"].append(mushka_playout_rate(args.seconds))
        rows["openspiel_example"].append(openspiel_rate(args.seconds, "example"))
        rows["openspiel_lean"].append(openspiel_rate(args.seconds, "lean"))
    med = {k: statistics.median(v) for k, v in rows.items()}
    result = {
        "mushka_classic4_deals_per_s": round(med["mushka"]),
        "mushka_classic4_playout_deals_per_s": round(med["mushka_playout"]),
        "openspiel_oh_hell_example_driver_games_per_s": round(med["openspiel_example"]),
        "openspiel_oh_hell_lean_driver_games_per_s": round(med["openspiel_lean"]),
        "ratio_vs_example_driver": round(med["mushka"] / med["openspiel_example"], 2),
        "ratio_vs_lean_driver": round(med["mushka"] / med["openspiel_lean"], 2),
        "playout_ratio_vs_example_driver": round(med["mushka_playout"] / med["openspiel_example"], 2),
        "playout_ratio_vs_lean_driver": round(med["mushka_playout"] / med["openspiel_lean"], 2),
        "rounds": args.rounds,
        "seconds_each": args.seconds,
    }
    if args.json:
        print(json.dumps(result))
        return
    print(f"mushka classic 4p, per-action API:     {result['mushka_classic4_deals_per_s']:>8,} deals/s")
    print(f"mushka classic 4p, Deal.playout:       {result['mushka_classic4_playout_deals_per_s']:>8,} deals/s")
    example = result["openspiel_oh_hell_example_driver_games_per_s"]
    lean = result["openspiel_oh_hell_lean_driver_games_per_s"]
    print(f"OpenSpiel oh_hell, example.py driver:  {example:>8,} games/s")
    print(f"OpenSpiel oh_hell, lean driver:        {lean:>8,} games/s")
    print(f"per-action API: {result['ratio_vs_example_driver']}x the example driver, "
          f"{result['ratio_vs_lean_driver']}x the lean driver (target: at least 2x)")
    print(f"playout:        {result['playout_ratio_vs_example_driver']}x the example driver, "
          f"{result['playout_ratio_vs_lean_driver']}x the lean driver")


if __name__ == "__main__":
    main()
