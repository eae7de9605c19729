"""Games per second of `mushka simulate`'s play loop with bots at every seat, each build, interleaved.

Plays the same games as ``mushka simulate -n GAMES -b BOT`` (the same seeds and
jobs, :func:`mushka.sim.play.play_job`) in one process and reports the games
per second of CPU time spent playing them, the imports left out (they take
longer than a hundred games of kopilka and would hide the loop).  Every build
runs in a child process of its own, the builds interleaved round by round;
a build is ``compiled``, ``pure`` (``MUSHKA_PURE=1``) or ``NAME=PATH`` for the
``src`` directory of another checkout (a name ending in ``-pure`` runs it
pure), as in ``bench/search_speed.py``:

    python bench/bots_sim_speed.py                                 # heuristic tables, compiled and pure
    python bench/bots_sim_speed.py --builds compiled,pure,base=OLD/src,base-pure=OLD/src --rounds 3
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from search_speed import build_envs, interleaved


def child(args: argparse.Namespace) -> None:
    """One build's figures, as JSON lines on stdout."""
    from mushka import _build, make_rules
    from mushka.sim.play import SimTable, play_job, seat_bots, simulation_jobs, split_bot_specs

    for part in args.tables.split(","):
        variant, _, players = part.partition(":")
        rules = make_rules(variant, int(players or 4))
        seats = seat_bots(split_bot_specs([args.bot]), rules)
        jobs = simulation_jobs(seats, args.games, seed=1)
        table = SimTable.of(rules)
        start = time.process_time()
        for job in jobs:
            play_job(table, job, max_deals=200 if rules.has_trumps else None)
        cpu = time.process_time() - start
        print(json.dumps({"table": part, "games": len(jobs), "cpu_s": cpu, "build": _build.imported_build()}),
              flush=True)


def main(argv: list[str] | None = None) -> None:
    """Run the builds interleaved and report the median and best games/s."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--builds", default="compiled,pure", help="NAME or NAME=SRC, comma-separated")
    parser.add_argument("--tables", default="classic:4,mistigri:4,kopilka:4")
    parser.add_argument("--bot", default="heuristic", help="the bot at every seat")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args)
        return
    builds = build_envs(args.builds)
    rates: dict[tuple[str, str], list[float]] = {}
    loads = []
    cmd = [sys.executable, __file__, "--child", "--tables", args.tables, "--bot", args.bot, "--games", str(args.games)]
    for _, name, load, child_rows in interleaved(builds, args.rounds, cmd):
        loads.append(load)
        for row in child_rows:
            rates.setdefault((name, row["table"]), []).append(row["games"] / row["cpu_s"])
            print(f"{name:12} ({row['build']:8}) {row['table']:10} {row['games'] / row['cpu_s']:8.1f} games/s"
                  f"  load {load}", file=sys.stderr, flush=True)
    print(f"load average (1 min) after each child: {' '.join(loads)}")
    print(f"{'build':12} {'table':10} {'games/s med':>12} {'best':>8}")
    for (name, table), rs in rates.items():
        print(f"{name:12} {table:10} {statistics.median(rs):12.1f} {max(rs):8.1f}")


if __name__ == "__main__":
    main()
