"""Scale benchmark of the executor seam: in-process, the local pool and Ray on this machine.

Plays the same games (10,000 classic 4-player heuristic games, seed 1, by
default) three ways, one after the other in one run:

* ``inline``: one process (``--jobs 1``);
* ``local``: the local process pool of 2 workers (``--jobs 2``);
* ``ray``: Ray started here on 2 CPUs, loopback only (``--cluster`` would
  connect to a real cluster the same way).

The local pool and Ray take turns (``--rounds``, 2 by default: local, Ray on the
first half of the games, then Ray, local on the second), so that the other load
of a shared machine, which changes during a run, weighs on both alike.

For each it reports wall seconds, games/s, CPU seconds per game (this
process and every process it started, Ray's own included, over the play
alone: Ray's start-up is reported apart) and the ratio of Ray's wall time and
CPU per game to the local pool's (the issue's goal: at most 1.15).  It checks
that the three runs gave the same games.  Then it measures one kopilka
session of the study's tables in one process, from which ``docs/cluster.md``
estimates what 100 nodes would give.

    .venv/bin/python bench/cluster_scale.py [--games 10000] [--sessions 2000] [--json FILE]

Reported, never asserted.  Say the load average with any figure: it is
printed before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import sys
import tempfile
import time
from pathlib import Path

from mushka.rules import make_rules
from mushka.sim.executors import open_backend
from mushka.sim.play import SimTable, run_jobs, simulation_jobs

TICK = os.sysconf("SC_CLK_TCK")


def tree_cpu() -> float:
    """CPU seconds (user + system) of this process and every live descendant."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry.name)
        parents[pid] = int(fields[1])
        times[pid] = (int(fields[11]) + int(fields[12])) / TICK
    mine = {os.getpid()}
    grew = True
    while grew:
        grew = False
        for pid, ppid in parents.items():
            if ppid in mine and pid not in mine:
                mine.add(pid)
                grew = True
    return sum(times.get(p, 0.0) for p in mine)


def loadavg() -> str:
    return Path("/proc/loadavg").read_text().split(" ", 3)[:3].__str__()


def measure(label, backend, table, jobs):
    cpu0, t0 = tree_cpu(), time.perf_counter()
    games = run_jobs(table, jobs, backend=backend)
    wall, cpu = time.perf_counter() - t0, tree_cpu() - cpu0
    row = {"mode": label, "games": len(games), "wall_s": round(wall, 2), "games_per_s": round(len(games) / wall, 1),
           "cpu_s_per_game": round(cpu / len(games), 5), "cpus": backend.slots}
    print(f"  {label}: {row}", file=sys.stderr)
    return row, games


def start_ray(temp: Path, niceness: int) -> float:
    """Ray on 2 CPUs of this machine, loopback only (as the tests' fixture); seconds it took.

    Ray starts its workers at a scheduling priority 15 below normal (``RAY_worker_niceness``):
    on a machine shared with other work they then get what the others leave, while the local
    pool's workers compete at the normal priority.  ``niceness`` (0 by default) puts them on
    the same footing, so that the comparison is of Ray's own cost."""
    os.environ.update({"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_AUTH_MODE": "token",
                       "RAY_AUTH_TOKEN": secrets.token_hex(16), "RAY_USAGE_STATS_ENABLED": "0",
                       "RAY_worker_niceness": str(niceness)})
    import ray

    began = time.perf_counter()
    ray.init(num_cpus=2, _node_ip_address="127.0.0.1", include_dashboard=False, _temp_dir=str(temp),
             logging_level="WARNING", log_to_driver=False)

    @ray.remote
    def ready() -> int:
        return os.getpid()

    # Both workers up before the clock starts, as a pool's are after its first batch.
    ray.get([ready.remote() for _ in range(4)])
    return time.perf_counter() - began


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--bots", default="heuristic")
    parser.add_argument("--sessions", type=int, default=2000, help="kopilka sessions per study table")
    parser.add_argument("--skip", action="append", default=[], help="skip a mode: inline, local or ray")
    parser.add_argument("--ray-niceness", type=int, default=0,
                        help="the Ray workers' niceness (Ray's own default is 15: see start_ray)")
    parser.add_argument("--rounds", type=int, default=2,
                        help="turns the local pool and Ray take, each on its share of the games")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    out: dict = {"load_before": loadavg(), "rows": []}
    print(f"load average before: {out['load_before']}", file=sys.stderr)
    rules = make_rules("classic", 4)
    table = SimTable.of(rules)
    jobs = simulation_jobs((args.bots,) * 4, args.games, seed=1)
    results = {}
    if "inline" not in args.skip:
        with open_backend("local", 1) as backend:
            row, results["inline"] = measure("inline (1 process)", backend, table, jobs)
            out["rows"].append(row)
    # The local pool and Ray take turns (local, Ray, Ray, local, ...: each pass plays a share
    # of the games), so that a change in the machine's other load during the run weighs on
    # both alike; their rows sum the passes.
    modes = [m for m in ("local", "ray") if m not in args.skip]
    temp = Path(tempfile.mkdtemp(prefix="mushka-ray-"))
    passes: dict[str, list[dict]] = {m: [] for m in modes}
    try:
        if "ray" in modes:
            out["ray_start_s"] = round(start_ray(temp, args.ray_niceness), 2)
            out["ray_worker_niceness"] = args.ray_niceness
        share = -(-len(jobs) // args.rounds)
        for r in range(args.rounds):
            part = jobs[r * share:(r + 1) * share]
            for mode in (modes if r % 2 == 0 else modes[::-1]):
                if mode == "local":
                    with open_backend("local", 2) as backend:
                        row, games = measure("local pool (2 processes)", backend, table, part)
                else:
                    with open_backend("auto") as backend:
                        row, games = measure("Ray (2 local CPUs)", backend, table, part)
                row["load"] = loadavg()
                passes[mode].append(row)
                results.setdefault(mode, []).extend(games)
    finally:
        if "ray" in modes:
            import ray

            ray.shutdown()
        shutil.rmtree(temp, ignore_errors=True)
    for mode in modes:
        rows = passes[mode]
        games_n = sum(r["games"] for r in rows)
        wall = sum(r["wall_s"] for r in rows)
        cpu = sum(r["cpu_s_per_game"] * r["games"] for r in rows)
        out["rows"].append({"mode": rows[0]["mode"], "games": games_n, "wall_s": round(wall, 2),
                            "games_per_s": round(games_n / wall, 1), "cpu_s_per_game": round(cpu / games_n, 5),
                            "cpus": rows[0]["cpus"], "passes": rows})
    runs = list(results.values())
    out["identical"] = all(r == runs[0] for r in runs[1:])
    by = {r["mode"].split(" ")[0]: r for r in out["rows"]}
    if "local" in by and "Ray" in by:
        out["ray_over_local_wall"] = round(by["Ray"]["wall_s"] / by["local"]["wall_s"], 3)
        out["ray_over_local_cpu"] = round(by["Ray"]["cpu_s_per_game"] / by["local"]["cpu_s_per_game"], 3)
    # The kopilka study's per-session cost, in one process.
    study = []
    if args.sessions:
        kopilka = make_rules("kopilka", 4)
        with open_backend("local", 1) as backend:
            for bots in ("random", "heuristic"):
                row, _ = measure(f"kopilka {bots} ×4 (1 process)", backend, SimTable.of(kopilka),
                                 simulation_jobs((bots,) * 4, args.sessions, seed=1))
                study.append(row)
    out["kopilka"] = study
    out["load_after"] = loadavg()
    print(f"load average after: {out['load_after']}", file=sys.stderr)
    text = json.dumps(out, ensure_ascii=False, indent=1)
    if args.json is not None:
        args.json.write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
