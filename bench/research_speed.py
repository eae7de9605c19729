"""Speed of the research environments against the raw engine, with OpenSpiel's C++ oh_hell beside each.

A random classic 4-player deal (36 cards), every figure in deals per second
of the process's CPU time, measured in one process one after the other, for
the same CPU time each:

* ``raw``: the engine's fast path, ``deal.apply_unchecked(choice(deal.legal_actions()))``;
* ``checked``: the checked path with events, ``deal.apply(choice(deal.legal_actions()))``;
* ``openspiel``: the ``mushka_classic`` OpenSpiel game, chance steps and
  ``state.apply_action(choice(state.legal_actions()))``;
* ``openspiel+obs``: the same with ``state.observation_tensor()`` of the seat to act at every step;
* ``pettingzoo``: the AEC env with masks and observations, uniform random agents
  (``env.last()`` then a legal id drawn uniformly from ``mask.nonzero()[0].tolist()``),
  seeded at its first ``reset`` and then dealing on from its own generator, as the
  raw path does and as PettingZoo's own loops do; ``pettingzoo_reseed`` the same
  with ``env.reset(seed=...)`` at every deal (the driver of earlier runs);
  ``pettingzoo_flatnonzero`` the same with the agent of earlier runs
  (``np.flatnonzero(mask)``), ``pettingzoo_sample`` with Gymnasium's
  ``env.action_space(agent).sample(mask)``;
* ``openspiel+info``: the same with ``state.information_state_tensor()``;
* ``openspiel+observer``: the observation written by OpenSpiel's Python
  observer (``open_spiel.python.observation.make_observation``), the way
  Python algorithms read it without a copy through C++;
* ``openspiel_null``: the floor of the OpenSpiel rows: the same driver over a
  Python ``pyspiel.State`` whose methods do nothing, for as many chance steps and
  decisions per deal as ``mushka_classic`` takes (counted in the run).  Every
  ``apply_action`` of a Python game crosses into C++ and back twice (OpenSpiel
  asks the state for its current player, then applies), so this is the least
  any Python game can cost here;
* ``oh_hell`` and ``oh_hell+info``: OpenSpiel's C++
  ``oh_hell(players=4,num_suits=4,num_cards_per_suit=8,num_tricks_fixed=5)``
  driven from Python by the same loops (oh_hell has no observation tensor,
  only the information-state one).

Run with the research extra (``pip install -e '.[research]'``)::

    python bench/research_speed.py --seconds 3 [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

from mushka.engine import new_deal
from mushka.rules import make_rules

OH_HELL = "oh_hell(players=4,num_suits=4,num_cards_per_suit=8,num_tricks_fixed=5)"
RULES = make_rules("classic", 4)


def rate(run_one: Callable[[random.Random], None], seconds: float) -> float:
    """Deals per second of this process's CPU time (on a shared machine the wall
    clock also counts the time other processes held the cores)."""
    rng = random.Random(1)
    done = 0
    clock = time.process_time
    start = clock()
    end = start + seconds
    while clock() < end:
        for _ in range(20):
            run_one(rng)
        done += 20
    return done / (clock() - start)


def raw(rng: random.Random) -> None:
    deal = new_deal(RULES, 0, rng=rng, record_events=False)
    legal = deal.legal_actions
    apply = deal.apply_unchecked
    random_ = rng.random
    while not deal.is_over:
        options = legal()
        apply(options[int(random_() * len(options))])


def checked(rng: random.Random) -> None:
    deal = new_deal(RULES, 0, rng=rng)
    while not deal.is_over:
        options = deal.legal_actions()
        deal.apply(options[int(rng.random() * len(options))])


def spiel_driver(game_name: str, observe: str = "") -> Callable[[random.Random], None]:
    import pyspiel

    import mushka.research.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game(game_name)
    observer = None
    if observe == "observer":
        # OpenSpiel's Python-side observer, as open_spiel.python.observation uses it.
        from open_spiel.python.observation import make_observation
        observer = make_observation(game)

    def run(rng: random.Random) -> None:
        state = game.new_initial_state()
        random_ = rng.random
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(random_() * len(outcomes))][0])
            else:
                if observe == "obs":
                    state.observation_tensor(state.current_player())
                elif observe == "info":
                    state.information_state_tensor(state.current_player())
                elif observer is not None:
                    observer.set_from(state, state.current_player())
                actions = state.legal_actions()
                state.apply_action(actions[int(random_() * len(actions))])

    return run


def step_counts(deals: int = 300) -> tuple[int, int]:
    """Average chance steps and decisions of a random ``mushka_classic`` deal (rounded)."""
    import pyspiel

    import mushka.research.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game("mushka_classic(players=4)")
    rng = random.Random(2)
    chance = decisions = 0
    for _ in range(deals):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                chance += 1
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                decisions += 1
                actions = state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])
    return round(chance / deals), round(decisions / deals)


def null_spiel_driver(chance: int, decisions: int) -> Callable[[random.Random], None]:
    """The ``openspiel`` driver over a do-nothing Python OpenSpiel state (the floor)."""
    import pyspiel

    import mushka.research.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game("mushka_classic(players=4)")
    chance_id = int(pyspiel.PlayerId.CHANCE)
    terminal_id = int(pyspiel.PlayerId.TERMINAL)
    outcomes_ = [(0, 1.0)]
    ids_ = [0]

    class NullState(pyspiel.State):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__(game)
            self.chance = chance
            self.left = chance + decisions
            self.player = chance_id if chance else 0

        def current_player(self) -> int:
            return self.player

        def _legal_actions(self, player: int) -> list[int]:
            return ids_

        def legal_actions(self, player: int | None = None) -> list[int]:
            return ids_

        def is_chance_node(self) -> bool:
            return self.player == chance_id

        def chance_outcomes(self) -> list[tuple[int, float]]:
            return outcomes_

        def _apply_action(self, action: int) -> None:
            self.left -= 1
            if self.chance:
                self.chance -= 1
            self.player = chance_id if self.chance else terminal_id if self.left <= 0 else 0

        def is_terminal(self) -> bool:
            return self.player == terminal_id

        def returns(self) -> list[float]:
            return [0.0] * 4

    def run(rng: random.Random) -> None:
        state = NullState()
        random_ = rng.random
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(random_() * len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[int(random_() * len(actions))])

    return run


def pettingzoo_driver(agent: str = "list", *, reseed: bool = False) -> Callable[[random.Random], None]:
    """Uniform random agents over the AEC env's mask, reading the legal ids three ways:
    ``list`` ``mask.nonzero()[0].tolist()`` (the figure's agent), ``flatnonzero``
    ``np.flatnonzero(mask)`` (the agent of earlier runs) and ``sample``
    ``env.action_space(agent).sample(mask)`` (Gymnasium's masked sampling, as in
    PettingZoo's documentation; its own generator)."""
    from mushka.research.pettingzoo_env import env as make_env

    env = make_env("classic", 4)
    seeded = [False]

    def run(rng: random.Random) -> None:
        if reseed or not seeded[0]:
            env.reset(seed=rng.randrange(1 << 30))
            seeded[0] = True
        else:
            env.reset()
        last = env.last
        step = env.step
        random_ = rng.random
        for name in env.agent_iter():
            obs, _, term, trunc, _ = last()
            if term or trunc:
                step(None)
                continue
            mask = obs["action_mask"]
            if agent == "list":
                legal = mask.nonzero()[0].tolist()
                step(legal[int(random_() * len(legal))])
            elif agent == "flatnonzero":
                ids = np.flatnonzero(mask)
                step(int(ids[int(random_() * len(ids))]))
            else:
                step(int(env.action_space(name).sample(mask)))

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--pettingzoo-benchmark", action="store_true",
                        help="also run PettingZoo's own performance_benchmark on the classic 4p env")
    args = parser.parse_args()
    if args.pettingzoo_benchmark:
        from pettingzoo.test import performance_benchmark

        from mushka.research.pettingzoo_env import env as make_env

        performance_benchmark(make_env("classic", 4))
    chance, decisions = step_counts()
    drivers = {
        "raw": raw,
        "checked": checked,
        "openspiel": spiel_driver("mushka_classic(players=4)"),
        "openspiel+obs": spiel_driver("mushka_classic(players=4)", "obs"),
        "openspiel+info": spiel_driver("mushka_classic(players=4)", "info"),
        "openspiel+observer": spiel_driver("mushka_classic(players=4)", "observer"),
        "pettingzoo": pettingzoo_driver(),
        "pettingzoo_reseed": pettingzoo_driver(reseed=True),
        "pettingzoo_flatnonzero": pettingzoo_driver("flatnonzero"),
        "pettingzoo_sample": pettingzoo_driver("sample"),
        "openspiel_null": null_spiel_driver(chance, decisions),
        "oh_hell": spiel_driver(OH_HELL),
        "oh_hell+info": spiel_driver(OH_HELL, "info"),
    }
    rows: dict[str, list[float]] = {k: [] for k in drivers}
    for _ in range(args.rounds):
        for name, run in drivers.items():
            rows[name].append(rate(run, args.seconds))
    med = {k: statistics.median(v) for k, v in rows.items()}
    with open("/proc/loadavg") as f:
        load = f.read().split()[0]
    result = {
        "deals_per_s": {k: round(v) for k, v in med.items()},
        "openspiel_vs_checked": round(med["checked"] / med["openspiel"], 2),
        "observation_on_top": round(med["openspiel"] / med["openspiel+obs"], 2),
        "pettingzoo_vs_raw": round(med["raw"] / med["pettingzoo"], 2),
        "pettingzoo_reseed_vs_raw": round(med["raw"] / med["pettingzoo_reseed"], 2),
        "pettingzoo_flatnonzero_vs_raw": round(med["raw"] / med["pettingzoo_flatnonzero"], 2),
        "pettingzoo_sample_vs_raw": round(med["raw"] / med["pettingzoo_sample"], 2),
        "oh_hell_vs_openspiel": round(med["oh_hell"] / med["openspiel"], 2),
        "floor_vs_checked": round(med["checked"] / med["openspiel_null"], 2),
        "steps_per_deal": {"chance": chance, "decisions": decisions},
        "info_state_on_top": round(med["openspiel"] / med["openspiel+info"], 2),
        "python_observer_on_top": round(med["openspiel"] / med["openspiel+observer"], 2),
        "load_average": load,
        "rounds": args.rounds,
        "seconds_each": args.seconds,
    }
    if args.json:
        print(json.dumps(result))
        return
    print(f"{'driver':<24}{'deals/s':>10}   beside it: OpenSpiel oh_hell (C++) from Python")
    beside = {"openspiel": "oh_hell", "openspiel+obs": "oh_hell+info", "openspiel+info": "oh_hell+info",
              "raw": "oh_hell", "checked": "oh_hell", "pettingzoo": "oh_hell+info", "openspiel_null": "oh_hell",
              "pettingzoo_reseed": "oh_hell+info",
              "pettingzoo_flatnonzero": "oh_hell+info", "pettingzoo_sample": "oh_hell+info"}
    beside["openspiel+observer"] = "oh_hell+info"
    for name in ("raw", "checked", "openspiel", "openspiel+obs", "openspiel+info", "openspiel+observer",
                 "pettingzoo", "pettingzoo_reseed", "pettingzoo_flatnonzero", "pettingzoo_sample", "openspiel_null"):
        other = beside[name]
        print(f"{name:<24}{med[name]:>10,.0f}   {other}: {med[other]:,.0f}")
    print(f"OpenSpiel adapter: {result['openspiel_vs_checked']}x slower than the checked path (goal <= 2); "
          f"a do-nothing Python state with the same {chance} chance steps and {decisions} decisions: "
          f"{result['floor_vs_checked']}x")
    print(f"observation every step: {result['observation_on_top']}x on top through C++, "
          f"{result['python_observer_on_top']}x with the Python observer (goal <= 2)")
    print(f"PettingZoo AEC: {result['pettingzoo_vs_raw']}x slower than the raw fast path (goal <= 10); "
          f"{result['pettingzoo_reseed_vs_raw']}x reseeded at every deal, "
          f"{result['pettingzoo_flatnonzero_vs_raw']}x with the np.flatnonzero agent of earlier runs, "
          f"{result['pettingzoo_sample_vs_raw']}x with action_space(agent).sample(mask)")
    print(f"load average {load}")


if __name__ == "__main__":
    main()
