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

The floor of each Python driver (``null_ids``, ``null_lean``): the same driver
loop run over a state whose methods do nothing (a plain Python class, no game
behind it), for as many steps per deal as the contender takes on average
(counted in the run, ``steps``).  No engine can make its driver faster than
this; ``null_ids`` against the lean driver says how far the ids goal is
attainable with that many steps per deal.

Run with the bench extra installed (``pip install -e '.[bench]'``)::

    python bench/openspiel_compare.py --seconds 3 --rounds 5 [--json] [--results FILE --label TEXT]

``--results`` appends the run as one JSON line (with the date, the commit and ``--label``)
to a file of results, ``bench/results/openspiel-compare-<date>.jsonl`` by convention.
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
NULL_KINDS = ("null_ids", "null_lean")


_NULL_OUTCOMES = [(0, 1.0)]
_NULL_IDS = [0]


class _NullSteps:
    """A state that does nothing, for the drivers' floor: ``chance`` chance steps,
    then ``decisions`` decisions, each method as cheap as a Python method can be."""

    __slots__ = ("chance", "left")

    def __init__(self, chance: int, decisions: int) -> None:
        self.chance = chance
        self.left = chance + decisions

    def is_over(self) -> bool:
        return self.left <= 0

    def is_terminal(self) -> bool:
        return self.left <= 0

    def is_chance(self) -> bool:
        return self.chance > 0

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return _NULL_OUTCOMES

    def apply_chance(self, outcome: int) -> None:
        self.chance -= 1
        self.left -= 1

    def legal(self) -> list[int]:
        return _NULL_IDS

    def apply(self, action: int) -> None:
        self.left -= 1


def step_counts(deals: int = 300, seed: int = 1) -> dict[str, float]:
    """Average steps per random deal: mushka's chance steps and decisions (ids
    driver), and the nodes of oh_hell (lean driver), chance nodes among them."""
    import pyspiel

    from mushka.engine.steps import StepDeal
    from mushka.rules import make_rules

    rules = make_rules("classic", 4)
    rng = random.Random(seed)
    chance = decisions = 0
    for d in range(deals):
        s = StepDeal(rules, d & 3, record_events=False)
        while not s.is_over():
            if s.is_chance():
                s.apply_chance(rng.choice(s.chance_outcomes())[0])
                chance += 1
            else:
                s.apply_id(rng.choice(s.legal_action_ids()))
                decisions += 1
    game = pyspiel.load_game(OH_HELL)
    nodes = chance_nodes = 0
    for _ in range(deals):
        state = game.new_initial_state()
        while not state.is_terminal():
            chance_nodes += state.is_chance_node()
            state.apply_action(rng.choice(state.legal_actions()))
            nodes += 1
    return {"mushka_chance": chance / deals, "mushka_decisions": decisions / deals,
            "oh_hell_nodes": nodes / deals, "oh_hell_chance": chance_nodes / deals}


def null_rate(kind: str, seconds: float, counts: dict[str, float], seed: int = 1) -> float:
    """The floor of a driver: its loop over :class:`_NullSteps` (see the module docstring)."""
    rng = random.Random(seed)
    choice = rng.choice
    chance = round(counts["mushka_chance"])
    decisions = round(counts["mushka_decisions"])
    nodes = round(counts["oh_hell_nodes"])

    def null_ids() -> int:
        for _ in range(50):
            s = _NullSteps(chance, decisions)
            is_over = s.is_over
            is_chance = s.is_chance
            outcomes = s.chance_outcomes
            apply_chance = s.apply_chance
            legal = s.legal
            apply = s.apply
            while not is_over():
                if is_chance():
                    apply_chance(choice(outcomes())[0])
                else:
                    apply(choice(legal()))
        return 50

    def null_lean() -> int:
        for _ in range(100):
            s = _NullSteps(0, nodes)
            legal = s.legal
            apply = s.apply
            terminal = s.is_terminal
            while not terminal():
                apply(choice(legal()))
        return 100

    return _timed({"null_ids": null_ids, "null_lean": null_lean}[kind], seconds)


def _timed(run_batch, seconds: float) -> float:
    """Deals per second of this process's CPU time: on a shared machine the wall
    clock also counts the time other processes held the cores."""
    clock = time.process_time
    done = 0
    start = clock()
    end = start + seconds
    while True:
        done += run_batch()
        if clock() >= end:
            break
    return done / (clock() - start)


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


def child(kind: str, seconds: float, counts: str) -> None:
    if kind in NULL_KINDS:
        print(json.dumps({"rate": null_rate(kind, seconds, json.loads(counts))}))
    elif kind in MUSHKA_KINDS:
        from mushka import _build

        rate = mushka_rate(kind, seconds)
        print(json.dumps({"rate": rate, "build": _build.imported_build(), "reason": _build.REASON}))
    else:
        print(json.dumps({"rate": openspiel_rate(kind, seconds)}))


def measure(kind: str, seconds: float, *, pure: bool = False, counts: str = "{}") -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != "MUSHKA_PURE"}
    if pure:
        env["MUSHKA_PURE"] = "1"
    out = subprocess.run([sys.executable, __file__, "--child", kind, "--seconds", str(seconds),
                          "--counts", counts],
                         env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def _commit() -> str:
    """The commit of the tree measured ("+" when it has changes), or "" outside a checkout."""
    try:
        here = os.path.dirname(os.path.abspath(__file__))
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              check=True, cwd=here).stdout.strip()
        # Changes to the rules core only (what this bench measures).
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "src/mushka/engine", "src/mushka/cards.py",
                                "src/mushka/rules"], capture_output=True, text=True, check=True,
                               cwd=here).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""
    return head + ("+" if dirty else "")


def load() -> float:
    with open("/proc/loadavg", encoding="ascii") as f:
        return float(f.read().split()[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (min and median reported)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--results", help="append the run as one JSON line to this file")
    parser.add_argument("--label", default="", help="what the run measured (kept with --results)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--counts", default="{}", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.seconds, args.counts)
        return
    counts = step_counts()
    counts_text = json.dumps(counts)
    rows: dict[str, list[float]] = {}
    ratios: dict[str, list[float]] = {}
    loads: list[float] = []
    builds: dict[str, str] = {}
    for _ in range(args.rounds):
        loads.append(load())
        this: dict[str, float] = {}
        for kind in OPENSPIEL_KINDS:
            this[f"openspiel_{kind}"] = float(measure(kind, args.seconds)["rate"])  # type: ignore[arg-type]
        for kind in NULL_KINDS:
            this[kind] = float(measure(kind, args.seconds, counts=counts_text)["rate"])  # type: ignore[arg-type]
        for build, pure in (("compiled", False), ("pure", True)):
            for kind in MUSHKA_KINDS:
                got = measure(kind, args.seconds, pure=pure)
                builds[build] = f"{got['build']} ({got['reason']})"
                this[f"mushka_{build}_{kind}"] = float(got["rate"])  # type: ignore[arg-type]
        loads.append(load())
        for key, value in this.items():
            rows.setdefault(key, []).append(value)
        # The floors: the fastest any engine could be under each driver, against the lean driver.
        ratios.setdefault("null_ids_vs_openspiel_lean", []).append(this["null_ids"] / this["openspiel_lean"])
        ratios.setdefault("null_lean_vs_openspiel_lean", []).append(this["null_lean"] / this["openspiel_lean"])
        ratios.setdefault("compiled_ids_vs_null_ids", []).append(this["mushka_compiled_ids"] / this["null_ids"])
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
        "steps_per_deal": {k: round(v, 1) for k, v in counts.items()},
        "load_average": {"min": min(loads), "max": max(loads)},
        "rounds": args.rounds,
        "seconds_each": args.seconds,
        "python": sys.version.split()[0],
    }
    if args.results:
        row = {"date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "commit": _commit(),
               "label": args.label, **result}
        with open(args.results, "a", encoding="utf-8") as out:
            out.write(json.dumps(row) + "\n")
    if args.json:
        print(json.dumps(result))
        return
    print(f"{args.rounds} interleaved rounds of {args.seconds:g} s per figure; load average "
          f"{min(loads):.1f}-{max(loads):.1f}; builds: {builds}")
    print("steps per deal: mushka {mushka_chance} chance + {mushka_decisions} decisions; "
          "oh_hell {oh_hell_nodes} nodes, {oh_hell_chance} of them chance".format(**result["steps_per_deal"]))
    print(f"{'deals (games) per second':52} {'min':>9} {'median':>9}")
    for key, value in result["rates"].items():
        print(f"  {key:50} {value['min']:>9,} {value['median']:>9,}")
    print(f"{'ratios, within each round':52} {'min':>9} {'median':>9}")
    for key, value in result["ratios"].items():
        print(f"  {key:50} {value['min']:>9} {value['median']:>9}")
    print("goals: compiled ids >= 1x OpenSpiel lean (issue 38; 2x in issue 13), compiled api >= 1.5x lean, "
          "compiled playout >= 1x evaluate_bots, pure no slower than before; "
          "null_ids_vs_openspiel_lean is the most the ids driver could reach with no engine at all")
    # What the goal asks of the engine: the ids driver's own cost is the null floor's, so the
    # engine may take at most 1 - null_ids/lean... of each deal's time to reach 1x lean.
    floor = result["ratios"]["null_ids_vs_openspiel_lean"]["median"]
    share = 1 - 1 / floor if floor > 1 else 0.0
    now = result["ratios"]["compiled_ids_vs_null_ids"]["median"]
    print(f"at 1x lean the engine may take at most {share:.0%} of an ids deal's time; it takes {1 - now:.0%} now")


if __name__ == "__main__":
    main()
