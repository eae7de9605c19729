"""Speed of the search bot: playouts and decisions per second on fixed states, each build.

The states are fixed: the decisions of seat 0 that need thought in the first
deals of games played by the rules of thumb from fixed seeds (classic 4,
mistigri 4, kopilka 4), so every run and every build searches the same
positions with the same seeds.  Each state is searched with a fixed budget
(``search:iterations=N,seconds=0``: reproducible) and the report gives the
playouts per second (worlds × candidates searched, over the CPU time of the
decisions) and the decisions per second.

Every build is run in a child process of its own, the builds interleaved
round by round (``--rounds``), so that a change in the machine's load hits
them alike; the figures are per round (median and best) with the load
average beside them.  A build is ``compiled``, ``pure`` (``MUSHKA_PURE=1``),
or another source tree given as ``NAME=PATH`` (the ``src`` directory of
another checkout, e.g. an older commit, built or not; a name ending in
``-pure`` runs it with ``MUSHKA_PURE=1``):

    python bench/search_speed.py                                  # compiled and pure
    python bench/search_speed.py --builds compiled,pure,base=OLD/src,base-pure=OLD/src
    python bench/search_speed.py --profile kopilka                # cProfile one variant, pure build
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
from collections.abc import Iterator
from typing import Any

TABLES = [("classic", 4), ("mistigri", 4), ("kopilka", 4)]


def states(variant: str, players: int, count: int, seed: int = 7) -> list[object]:
    """``count`` views of seat 0 that need thought, from games of the rules of thumb."""
    from mushka import make_rules, new_game
    from mushka.bots import make_bot

    rules = make_rules(variant, players)
    out: list[object] = []
    bots = [make_bot("heuristic") for _ in range(players)]
    rng = random.Random(seed)
    game_seed = seed
    while len(out) < count:
        game = new_game(rules, rng=game_seed, max_deals=60) if rules.has_trumps else new_game(rules, rng=game_seed)
        game_seed += 1
        while not game.is_over and len(out) < count:
            seat = game.to_act
            view = game.view(seat)
            if seat == 0 and len(view.deal.legal) > 1:
                out.append(view)
            game.apply(bots[seat].choose(view, rng), seat)
    return out


def measure(variant: str, players: int, count: int, iterations: int) -> dict[str, object]:
    """Search every state once; CPU seconds, decisions and playouts."""
    from mushka.bots import make_bot

    views = states(variant, players, count)
    cpu = 0.0
    playouts = 0
    worlds = 0
    for i, view in enumerate(views):
        bot = make_bot(f"search:iterations={iterations},seconds=0")
        start = time.process_time()
        bot.choose(view, random.Random(1000 + i))  # type: ignore[arg-type]
        cpu += time.process_time() - start
        searched = getattr(bot, "worlds", [])
        if searched:
            worlds += searched[-1]
            playouts += searched[-1] * len(getattr(bot, "last", []))
    return {"variant": variant, "players": players, "decisions": len(views), "cpu_s": cpu,
            "playouts": playouts, "worlds": worlds}


def child(args: argparse.Namespace) -> None:
    """One build's measurements, as JSON lines on stdout."""
    from mushka import _build

    for variant, players in _tables(args.tables):
        row = measure(variant, players, args.states, args.iterations)
        row["build"] = _build.imported_build()
        print(json.dumps(row), flush=True)


def profile(args: argparse.Namespace) -> None:
    """cProfile the search of one variant's states (run it with MUSHKA_PURE=1 to see Python lines)."""
    import cProfile
    import pstats

    variant, players = _tables(args.profile)[0]
    from mushka import _build

    views = states(variant, players, args.states)
    from mushka.bots import make_bot

    prof = cProfile.Profile()
    for i, view in enumerate(views):
        bot = make_bot(f"search:iterations={args.iterations},seconds=0")
        prof.enable()
        bot.choose(view, random.Random(1000 + i))  # type: ignore[arg-type]
        prof.disable()
    print(f"{variant} {players}p, {len(views)} decisions, build {_build.imported_build()}")
    pstats.Stats(prof).sort_stats(args.sort).print_stats(args.lines)


def _tables(text: str) -> list[tuple[str, int]]:
    out = []
    for part in text.split(","):
        v, _, p = part.partition(":")
        out.append((v, int(p or 4)))
    return out


def build_envs(text: str) -> list[tuple[str, dict[str, str]]]:
    """``--builds``: each build's name and the environment of its child process (also bench/bots_sim_speed.py's)."""
    out = []
    for part in text.split(","):
        name, _, path = part.partition("=")
        env = dict(os.environ)
        if path:
            env["PYTHONPATH"] = path
        if name == "pure" or name.endswith("-pure"):
            env["MUSHKA_PURE"] = "1"
        else:
            env.pop("MUSHKA_PURE", None)
        out.append((name, env))
    return out


def interleaved(builds: list[tuple[str, dict[str, str]]], rounds: int,
                cmd: list[str]) -> Iterator[tuple[int, str, str, list[dict[str, Any]]]]:
    """Run ``cmd`` in a child process once per build and round, the builds interleaved round by
    round; yield the round, the build's name, the load average after the child and its JSON lines
    (also bench/bots_sim_speed.py's)."""
    for r in range(rounds):
        for name, env in builds:
            done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
            with open("/proc/loadavg", encoding="ascii") as f:
                load = f.read().split()[0]
            yield r, name, load, [json.loads(line) for line in done.stdout.splitlines()]


def main(argv: list[str] | None = None) -> None:
    """Run the builds interleaved and report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--builds", default="compiled,pure", help="NAME or NAME=SRC, comma-separated")
    parser.add_argument("--tables", default=",".join(f"{v}:{p}" for v, p in TABLES))
    parser.add_argument("--states", type=int, default=12, help="states per table")
    parser.add_argument("--iterations", type=int, default=600, help="playouts per decision")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", help="append one JSON object per figure to this file")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--profile", metavar="TABLE", help="cProfile this table (e.g. classic:4) instead")
    parser.add_argument("--sort", default="tottime")
    parser.add_argument("--lines", type=int, default=40)
    args = parser.parse_args(argv)
    if args.child:
        child(args)
        return
    if args.profile:
        profile(args)
        return
    builds = build_envs(args.builds)
    rows: dict[tuple[str, str], list[dict[str, object]]] = {}
    loads = []
    cmd = [sys.executable, __file__, "--child", "--tables", args.tables, "--states", str(args.states),
           "--iterations", str(args.iterations)]
    for r, name, load, child_rows in interleaved(builds, args.rounds, cmd):
        loads.append(load)
        for row in child_rows:
            row["name"] = name
            row["round"] = r
            rows.setdefault((name, f"{row['variant']}:{row['players']}"), []).append(row)
            print(f"round {r} {name:12} ({row['build']:8}) {row['variant']:8} {row['players']}p "
                  f"{row['playouts'] / row['cpu_s']:9.0f} playouts/s {row['decisions'] / row['cpu_s']:7.2f} "
                  f"decisions/s  load {load}", file=sys.stderr, flush=True)
    print(f"load average (1 min) after each child: {' '.join(loads)}")
    print(f"{'build':12} {'table':10} {'playouts/s med':>15} {'best':>9} {'decisions/s med':>16} {'best':>7}")
    for (name, table), rs in rows.items():
        pps = [float(x["playouts"]) / float(x["cpu_s"]) for x in rs]
        dps = [float(x["decisions"]) / float(x["cpu_s"]) for x in rs]
        print(f"{name:12} {table:10} {statistics.median(pps):15.0f} {max(pps):9.0f} "
              f"{statistics.median(dps):16.2f} {max(dps):7.2f}")
        if args.json:
            with open(args.json, "a", encoding="utf-8") as f:
                f.write(json.dumps({"build": name, "table": table, "playouts_per_s": statistics.median(pps),
                                    "decisions_per_s": statistics.median(dps), "rounds": len(rs),
                                    "states": args.states, "iterations": args.iterations,
                                    "load": loads}) + "\n")


if __name__ == "__main__":
    main()
