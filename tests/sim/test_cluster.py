"""Simulations, tournaments and the kopilka study on Ray give the local run's games.

All on the loopback Ray of the ``ray_cluster`` fixture (2 CPUs, this
machine); slow, as Ray takes seconds to start, and kept in one xdist group
so that one Ray serves them all.
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mushka.cli.main import app
from mushka.rules import make_rules
from mushka.sim.backend import Backend, Placement
from mushka.sim.cluster import RayExecutor, package_env, ray_backend
from mushka.sim.errors import SimulationError
from mushka.sim.play import SimTable, run_jobs, seat_bots, simulation_jobs
from mushka.sim.study import Config, measure
from mushka.sim.tournament import plan_tournament, rate

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("ray")]

ROOT = Path(__file__).resolve().parents[2]


def test_the_ray_tests_share_one_worker_and_one_cluster_at_a_time(ray_cluster, request):
    # Under xdist the group must hold (`--dist load`, what `-n` alone gives, ignores groups:
    # tests/conftest.py makes it `loadgroup`), and the cluster holds this checkout's Ray lock,
    # so that no other worker or session of it starts a second Ray meanwhile.
    assert request.config.getoption("dist", "no") in ("no", "loadgroup")
    with ray_cluster["lock"].open("a") as other, pytest.raises(BlockingIOError):
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)


def test_simulation_on_ray_is_the_local_run_game_by_game(ray_cluster):
    rules = make_rules("classic", 4)
    jobs = simulation_jobs(seat_bots(["heuristic", "random", "random", "random"], rules), 48, seed=11, rotate=True)
    local = run_jobs(SimTable.of(rules), jobs)
    seen = []
    with ray_backend("auto") as backend:
        assert backend.placement == Placement("ray", nodes=1, cpus=2, address=ray_cluster["address"],
                                              version=ray_cluster["ray"].__version__)
        remote = run_jobs(SimTable.of(rules), jobs, backend=backend, track=8, progress=seen.append)
    assert [g.index for g in remote] == list(range(48))
    # Every field of every game, the course of the tracked ones aside (asked only on Ray).
    assert [(g.seed, g.bots, g.money, g.deals, g.tricks, g.remizes, g.mushkas) for g in remote] == \
        [(g.seed, g.bots, g.money, g.deals, g.tricks, g.remizes, g.mushkas) for g in local]
    assert all(g.course for g in remote[:8]) and not any(g.course for g in remote[8:])
    assert sum(seen) == 48 and len(seen) > 1  # progress per batch, every game once


def test_tournament_and_kopilka_study_on_ray_match_the_local_ones(ray_cluster):
    rules = make_rules("classic", 3)
    plan = plan_tournament(["heuristic", "random"], rules, fmt="round-robin", seatings="rotate", seeds=5,
                           base_seed=4)
    local = run_jobs(SimTable.of(rules), plan.jobs())
    with ray_backend("auto") as backend:
        remote = run_jobs(SimTable.of(rules), plan.jobs(), backend=backend)
        row, games = measure(Config("heuristic + random ×3", ("heuristic", "random", "random", "random")), 24,
                             seed=2, backend=backend)
    assert remote == local
    assert rate(plan, remote, resamples=200, seed=4) == rate(plan, local, resamples=200, seed=4)
    here, here_games = measure(Config("heuristic + random ×3", ("heuristic", "random", "random", "random")), 24,
                               seed=2)
    assert games == here_games
    assert {k: v for k, v in row.items() if k != "seconds"} == {k: v for k, v in here.items() if k != "seconds"}


def _busy_workers(ray):
    """Pids of this cluster's workers that are playing a batch now (children of its raylet)."""
    node = ray._private.worker._global_node
    raylet = node.all_processes[ray._private.ray_constants.PROCESS_TYPE_RAYLET][0].process.pid
    busy = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            cmdline = (entry / "cmdline").read_bytes().decode(errors="replace")
        except (OSError, IndexError, ValueError):
            continue
        if ppid == raylet and cmdline.startswith("ray::_play_batch"):
            busy.append(int(entry.name))
    return busy


def test_a_worker_killed_mid_run_loses_no_game_and_counts_none_twice(ray_cluster):
    rules = make_rules("classic", 4)
    jobs = simulation_jobs(("heuristic",) * 4, 64, seed=21)
    local = run_jobs(SimTable.of(rules), jobs)
    killed = []
    counted = []

    def kill_one(k):
        counted.append(k)
        if not killed:
            for _ in range(200):  # the next batches start within moments
                pids = _busy_workers(ray_cluster["ray"])
                if pids:
                    os.kill(pids[0], signal.SIGKILL)
                    killed.append(pids[0])
                    return
                time.sleep(0.01)

    with ray_backend("auto") as backend:
        remote = run_jobs(SimTable.of(rules), jobs, backend=backend, progress=kill_one)
    assert killed, "no worker was found playing a batch"
    assert remote == local
    assert sum(counted) == 64


def test_ctrl_c_cancels_the_remote_tasks(ray_cluster):
    ray = ray_cluster["ray"]
    rules = make_rules("classic", 4)
    jobs = simulation_jobs(("heuristic",) * 4, 400, seed=5)
    executor = RayExecutor()

    def interrupt(k):
        raise KeyboardInterrupt

    backend = Backend(executor, 2, Placement("ray", cpus=2))
    began = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        run_jobs(SimTable.of(rules), jobs, backend=backend, progress=interrupt)
    # Nothing keeps the cluster busy afterwards: every CPU is free again soon, long
    # before the 400 games could have been played out.
    while ray.available_resources().get("CPU", 0) < 2 and time.monotonic() - began < 20:
        time.sleep(0.1)
    assert ray.available_resources().get("CPU", 0) == 2
    assert executor.pending == 0


SHIPPED = """
import json
from mushka.rules import make_rules
from mushka.sim.cluster import ray_backend, worker_facts
from mushka.sim.play import SimTable, run_jobs, simulation_jobs

rules = make_rules("mistigri", 4)
jobs = simulation_jobs(("random",) * 4, 12, seed=8)
with ray_backend("auto", ship=True) as backend:
    facts = backend.executor.submit(worker_facts).result(timeout=120)
    games = run_jobs(SimTable.of(rules), jobs, backend=backend)
print(json.dumps({"facts": facts, "env": backend.extra["runtime_env"], "money": [g.money for g in games]}))
"""


def test_runtime_env_ships_mushka_to_the_workers(ray_cluster):
    # A driver of its own (as a user's program is) ships this checkout's package; the workers
    # import the copy Ray unpacked in its session directory, not the installed one.
    env = dict(os.environ, RAY_ADDRESS=ray_cluster["address"])
    done = subprocess.run([sys.executable, "-c", SHIPPED], env=env, capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["env"] == package_env()
    assert out["facts"]["pid"] != os.getpid()
    assert Path(out["facts"]["mushka"]).is_relative_to(ray_cluster["temp"].resolve())
    rules = make_rules("mistigri", 4)
    assert out["money"] == [list(g.money) for g in run_jobs(SimTable.of(rules), simulation_jobs(("random",) * 4, 12,
                                                                                              seed=8))]
    with pytest.raises(SimulationError) as refused, ray_backend("auto", runtime_env={"working_dir": "."}):
        pass
    assert "runtime_env" in refused.value.message("en") and "runtime_env" in refused.value.message("ru")


def test_simulate_with_cluster_auto_says_where_it_ran(ray_cluster):
    runner = CliRunner()
    args = ["simulate", "-n", "30", "-b", "heuristic,random,random,random", "--seed", "3", "--json"]
    here = json.loads(runner.invoke(app, [*args, "-j", "1"]).output)
    there = json.loads(runner.invoke(app, [*args, "--cluster", "auto"]).output)
    assert there["where"] == {"engine": "ray", "nodes": 1, "cpus": 2, "address": ray_cluster["address"],
                              "ray": ray_cluster["ray"].__version__}
    assert here["where"]["engine"] == "inline"
    assert there["seats"] == here["seats"] and there["by_bot"] == here["by_bot"]
    text = runner.invoke(app, ["tournament", "-b", "heuristic,random", "-n", "3", "--cluster", "auto",
                               "--lang", "ru"]).output
    assert f"Сыграно на кластере Ray {ray_cluster['address']}: узлов: 1, процессоров: 2." in text


def test_the_example_job_runs_as_a_ray_job_would(ray_cluster, tmp_path):
    # `ray job submit` runs the entry point on the head with RAY_ADDRESS set; so does this.
    env = dict(os.environ, RAY_ADDRESS=ray_cluster["address"])
    out = tmp_path / "study.json"
    done = subprocess.run([sys.executable, str(ROOT / "examples" / "cluster_job.py"), "--sessions", "16",
                           "--only", "heuristic ×4", "--save", str(out)],
                          env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    rows = json.loads(out.read_text(encoding="utf-8"))
    assert rows[0]["where"]["engine"] == "ray" and rows[0]["where"]["address"] == ray_cluster["address"]
    here, _ = measure(Config("heuristic ×4", ("heuristic",) * 4), 16, seed=1)
    assert rows[0]["unluckiest"] == here["unluckiest"]
    assert rows[0]["player_recoup_rate"] == here["player_recoup_rate"]


NOISY = """
import json, os
from mushka.sim.cluster import ray_backend, worker_facts

with ray_backend("auto") as backend:
    # What Ray's C++ core does when a raylet dies: it writes to the process's descriptor 1.
    os.write(1, b"(raylet) Raylet is terminated [state-dump]\\n")
    print("a print while connected")
    facts = backend.executor.submit(worker_facts).result(timeout=120)
    where = backend.played().to_json()
print(json.dumps({"where": where, "pid": facts["pid"]}))
"""


def test_standard_output_carries_only_what_is_printed_after_ray(ray_cluster):
    env = dict(os.environ, RAY_ADDRESS=ray_cluster["address"])
    done = subprocess.run([sys.executable, "-c", NOISY], env=env, capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)  # the whole of standard output is the one JSON object
    assert out["where"]["engine"] == "ray" and out["where"]["nodes"] == 1
    assert "Raylet is terminated" in done.stderr and "a print while connected" in done.stderr


def test_simulate_json_on_ray_is_json_alone(ray_cluster):
    env = dict(os.environ, RAY_ADDRESS=ray_cluster["address"])
    done = subprocess.run([sys.executable, "-c", "from mushka.cli.main import main; main()", "simulate", "-n", "8",
                           "-b", "random", "--seed", "2", "--json", "--cluster", "auto"],
                          env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["where"]["engine"] == "ray"


def test_the_where_block_counts_the_nodes_whose_batches_came_back(ray_cluster):
    ray = ray_cluster["ray"]
    rules = make_rules("classic", 3)
    with ray_backend("auto") as backend:
        run_jobs(SimTable.of(rules), simulation_jobs(("random",) * 3, 12, seed=4), backend=backend)
        alive = {n["NodeID"] for n in ray.nodes() if n.get("Alive")}
        assert backend.executor.nodes_played == alive
        assert backend.played() == backend.placement  # one node, alive throughout
    # A placement of two nodes at the start, one of which never returned a batch, reports one.
    two = Backend(backend.executor, 2, Placement("ray", nodes=2, cpus=4),
                  report=lambda: Placement("ray", nodes=len(backend.executor.nodes_played), cpus=4))
    assert two.played().nodes == 1 and two.placement.nodes == 2


def test_an_address_where_nothing_listens_is_refused_at_once(tmp_path):
    # Ray itself retries such an address for minutes; mushka refuses it after one try.
    import socket

    with socket.socket() as spare:
        spare.bind(("127.0.0.1", 0))
        port = spare.getsockname()[1]  # closed again below: nothing listens there
    env = dict(os.environ, RAY_ADDRESS=f"127.0.0.1:{port}")
    for lang, words in (("en", f"no Ray cluster at 127.0.0.1:{port}: nothing answers there"),
                        ("ru", f"кластер Ray по адресу 127.0.0.1:{port} не найден: там ничего не отвечает")):
        done = subprocess.run([sys.executable, "-c", "from mushka.cli.main import main; main()", "simulate",
                               "-n", "10", "--cluster", "auto", "--lang", lang],
                              env=env, capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode != 0
        assert words in " ".join(done.stderr.split()), done.stderr


def test_the_probe_reads_the_address_ray_would_use(monkeypatch):
    from mushka.sim.cluster import _target

    assert _target("ray://head.example:10001") == ("head.example", 10001)
    monkeypatch.setenv("RAY_ADDRESS", "10.0.0.5:6379")
    assert _target("auto") == ("10.0.0.5", 6379)
    monkeypatch.setenv("RAY_ADDRESS", "http://10.0.0.5:8265")
    assert _target("auto") is None  # a dashboard address: Ray says what it makes of it
