"""Simulations on a Dask scheduler (``--cluster dask://HOST:PORT``) give the local run's games,
game by game, through the same executor seam as the local pool and Ray."""

from __future__ import annotations

import json
import logging
import socket

import pytest
from typer.testing import CliRunner

distributed = pytest.importorskip("distributed")

from mushka.cli.main import app  # noqa: E402
from mushka.rules import make_rules  # noqa: E402
from mushka.sim.errors import SimulationError  # noqa: E402
from mushka.sim.executors import check_cluster, open_backend  # noqa: E402
from mushka.sim.play import SimTable, run_jobs, seat_bots, simulation_jobs  # noqa: E402

pytestmark = [pytest.mark.slow]


@pytest.fixture(scope="module")
def dask_address():
    """A Dask scheduler and two worker processes of one thread each, on loopback, for the module."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None, silence_logs=logging.ERROR) as cluster:
        yield "dask://" + cluster.scheduler_address.removeprefix("tcp://")


def test_simulation_on_dask_is_the_local_run_game_by_game(dask_address):
    rules = make_rules("mistigri", 4)
    jobs = simulation_jobs(seat_bots(["heuristic", "random", "random", "random"], rules), 40, seed=13, rotate=True)
    local = run_jobs(SimTable.of(rules), jobs)
    seen = []
    with open_backend(dask_address) as backend:
        assert backend.placement.engine == "dask" and backend.placement.cpus == 2
        remote = run_jobs(SimTable.of(rules), jobs, backend=backend, progress=seen.append)
    assert remote == local
    assert sum(seen) == 40


def test_simulate_with_a_dask_cluster_says_where_it_ran(dask_address):
    runner = CliRunner()
    args = ["simulate", "-n", "24", "-p", "3", "-b", "heuristic,random,random", "--seed", "5", "--json"]
    here = json.loads(runner.invoke(app, [*args, "-j", "1"]).output)
    there = json.loads(runner.invoke(app, [*args, "--cluster", dask_address]).output)
    assert there["seats"] == here["seats"] and there["by_bot"] == here["by_bot"]
    assert there["where"] == {"engine": "dask", "nodes": 1, "cpus": 2, "address": "tcp://" + dask_address[7:],
                              "dask": distributed.__version__}
    text = runner.invoke(app, ["tournament", "-b", "heuristic,random", "-n", "3", "--cluster", dask_address,
                               "--lang", "ru"]).output
    assert "Сыграно на кластере Dask" in text and "рабочих потоков: 2" in text


def test_a_dask_address_is_checked_and_an_absent_scheduler_refused():
    assert check_cluster("dask://10.0.0.5:8786") == "dask://10.0.0.5:8786"
    with pytest.raises(SimulationError) as bad:
        check_cluster("dask://nowhere")
    assert "dask://HOST:PORT" in bad.value.message("en") and "dask://ХОСТ:ПОРТ" in bad.value.message("ru")
    with socket.socket() as spare:
        spare.bind(("127.0.0.1", 0))
        port = spare.getsockname()[1]
    with pytest.raises(SimulationError) as absent, open_backend(f"dask://127.0.0.1:{port}"):
        pass
    assert absent.value.code == "no_dask"
    assert f"no Dask scheduler at tcp://127.0.0.1:{port}" in absent.value.message("en")
    assert "планировщик Dask" in absent.value.message("ru")
