"""Side-by-side speed: random 4-player classic deals, both builds of mushka, vs OpenSpiel's oh_hell.

Every figure is deals (games) per second of uniformly random play driven from
Python, each measured in a fresh process for the same time, interleaved and
repeated (``--rounds``), with the load average beside each round (the machine
may be shared: the ratios taken within a round mean more than the rates).

mushka, a classic 4-player deal (36 cards: shuffle, declarations with
exchanges, five tricks), in the compiled (mypyc) and the pure-Python build
(``MUSHKA_PURE=1``, docs/build.md):

* ``ids``: the research API, dealt by chance steps and played by numeric ids
  (:class:`mushka.engine.steps.StepDeal`: ``apply_chance`` of a random outcome,
  ``apply_id(choice(legal_action_ids()))``, checked);
* ``api``: the per-action API, ``deal.apply_unchecked(choice(deal.legal_actions()))``;
* ``playout``: ``deal.playout(rng)``, the same random policy run inside the engine.

OpenSpiel's C++ ``oh_hell(players=4,num_suits=4,num_cards_per_suit=8,num_tricks_fixed=5)``
(5 cards each, a trump card, bids instead of declarations, five tricks):

* ``lean``: the leanest Python driver, ``apply(choice(legal()))`` at every node
  (chance nodes too: their outcomes are equally likely), methods bound once per state;
* ``evaluate_bots``: OpenSpiel's own C++ loop, ``pyspiel.evaluate_bots`` with
  uniform random bots (chance sampled in C++).

Run with the bench extra installed (``pip install -e '.[bench]'``)::

    python bench/openspiel_compare.py --seconds 3 --rounds 5 [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time

OH_HELL = "oh_hell(players=4,num_suits=4,num_cards_per_suit=8,num_tricks_fixed=5)"
MUSHKA_KINDS = ("ids", "api", "playout")
OPENSPIEL_KINDS = ("lean", "evaluate_bots")


def _timed(run_batch, seconds: float) -> float:
    done = 0
    start = time.perf_counter()
    end = start + seconds
    while True:
        done += run_batch()
        if time.perf_counter() >= end:
            break
    return done / (time.perf_counter() - start)


def mushka_rate(kind: str, seconds: float, seed: int = 1) -> float:
    from mushka.engine.steps import StepDeal
    from mushka.engine.trump import TrumpDeal
    from mushka.rules import make_rules

    rules = make_rules("classic", 4)
    rng = random.Random(seed)
    choice = rng.choice
    count = [0]

    def ids() -> int:
        for _ in range(50):
            s = StepDeal(rules, count[0] & 3, record_events=False)
            is_over = s.is_over
            is_chance = s.is_chance
            outcomes = s.chance_outcomes
            chance = s.apply_chance
            legal = s.legal_action_ids
            apply = s.apply_id
            while not is_over():
                if is_chance():
                    chance(choice(outcomes())[0])
                else:
                    apply(choice(legal()))
            count[0] += 1
        return 50

    def api() -> int:
        for _ in range(100):
            deal = TrumpDeal(rules, count[0] & 3, rng=rng, record_events=False)
            legal = deal.legal_actions
            apply = deal.apply_unchecked
            while not deal.is_over:
                apply(choice(legal()))
            count[0] += 1
        return 100

    def playout() -> int:
        for _ in range(100):
            TrumpDeal(rules, count[0] & 3, rng=rng, record_events=False).playout(rng)
            count[0] += 1
        return 100

    return _timed({"ids": ids, "api": api, "playout": playout}[kind], seconds)


def openspiel_rate(kind: str, seconds: float, seed: int = 1) -> float:
    import pyspiel

    game = pyspiel.load_game(OH_HELL)
    rng = random.Random(seed)
    choice = rng.choice

    def lean() -> int:
        for _ in range(100):
            state = game.new_initial_state()
            legal = state.legal_actions
            apply = state.apply_action
            terminal = state.is_terminal
            while not terminal():
                apply(choice(legal()))
        return 100

    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(game.num_players())]
    evaluate = pyspiel.evaluate_bots
    seeds = [seed]

    def evaluate_bots() -> int:
        for _ in range(100):
            seeds[0] += 1
            evaluate(game.new_initial_state(), bots, seeds[0])
        return 100

    return _timed({"lean": lean, "evaluate_bots": evaluate_bots}[kind], seconds)


def child(kind: str, seconds: float) -> None:
    if kind in MUSHKA_KINDS:
        from mushka import _build

        rate = mushka_rate(kind, seconds)
        print(json.dumps({"rate": rate, "build": _build.imported_build(), "reason": _build.REASON}))
    else:
        print(json.dumps({"rate": openspiel_rate(kind, seconds)}))


def measure(kind: str, seconds: float, *, pure: bool = False) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != "MUSHKA_PURE"}
    if pure:
        env["MUSHKA_PURE"] = "1"
    out = subprocess.run([sys.executable, __file__, "--child", kind, "--seconds", str(seconds)],
                         env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def load() -> float:
    with open("/proc/loadavg", encoding="ascii") as f:
        return float(f.read().split()[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (min and median reported)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.seconds)
        return
    rows: dict[str, list[float]] = {}
    ratios: dict[str, list[float]] = {}
    loads: list[float] = []
    builds: dict[str, str] = {}
    for _ in range(args.rounds):
        loads.append(load())
        this: dict[str, float] = {}
        for kind in OPENSPIEL_KINDS:
            this[f"openspiel_{kind}"] = float(measure(kind, args.seconds)["rate"])  # type: ignore[arg-type]
        for build, pure in (("compiled", False), ("pure", True)):
            for kind in MUSHKA_KINDS:
                got = measure(kind, args.seconds, pure=pure)
                builds[build] = f"{got['build']} ({got['reason']})"
                this[f"mushka_{build}_{kind}"] = float(got["rate"])  # type: ignore[arg-type]
        loads.append(load())
        for key, value in this.items():
            rows.setdefault(key, []).append(value)
        for build in ("compiled", "pure"):
            for kind in MUSHKA_KINDS:
                for peer in OPENSPIEL_KINDS:
                    name = f"{build}_{kind}_vs_openspiel_{peer}"
                    ratios.setdefault(name, []).append(this[f"mushka_{build}_{kind}"] / this[f"openspiel_{peer}"])
            for kind in MUSHKA_KINDS:
                if build == "compiled":
                    name = f"compiled_vs_pure_{kind}"
                    ratios.setdefault(name, []).append(this[f"mushka_compiled_{kind}"] / this[f"mushka_pure_{kind}"])
    result = {
        "rates": {k: {"min": round(min(v)), "median": round(statistics.median(v))} for k, v in rows.items()},
        "ratios": {k: {"min": round(min(v), 2), "median": round(statistics.median(v), 2)} for k, v in ratios.items()},
        "builds": builds,
        "load_average": {"min": min(loads), "max": max(loads)},
        "rounds": args.rounds,
        "seconds_each": args.seconds,
        "python": sys.version.split()[0],
    }
    if args.json:
        print(json.dumps(result))
        return
    print(f"{args.rounds} interleaved rounds of {args.seconds:g} s per figure; load average "
          f"{min(loads):.1f}-{max(loads):.1f}; builds: {builds}")
    print(f"{'deals (games) per second':52} {'min':>9} {'median':>9}")
    for key, value in result["rates"].items():
        print(f"  {key:50} {value['min']:>9,} {value['median']:>9,}")
    print(f"{'ratios, within each round':52} {'min':>9} {'median':>9}")
    for key, value in result["ratios"].items():
        print(f"  {key:50} {value['min']:>9} {value['median']:>9}")
    print("goals (issue 13): compiled ids >= 2x OpenSpiel lean, compiled api >= 1.5x lean, "
          "compiled playout >= 1x evaluate_bots, pure no slower than before")


if __name__ == "__main__":
    main()
