"""Dask as a cluster engine of simulations, tournaments and studies.

Needs the ``[dask]`` extra (``pip install 'mushka[dask]'``); nothing else in
mushka imports Dask.  ``--cluster dask://HOST:PORT`` connects a
:class:`distributed.Client` to the scheduler there and plays the batches
through the client's :class:`concurrent.futures.Executor`
(``Client.get_executor()``): the same executor seam as the local pool and Ray
(:mod:`mushka.sim.executors`), so the games are the same, game by game.

The workers need mushka installed (Dask ships the calls, not the package).  A
batch whose worker is lost is played again by the scheduler (Dask's own
``allowed-failures``, 3 by default); a batch's result is placed by game index,
so nothing is counted twice.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from mushka.i18n import add_texts
from mushka.sim.backend import Backend, Placement
from mushka.sim.errors import SimulationError, require_extra

CONNECT_SECONDS = 10
"""How long ``--cluster dask://…`` waits for the scheduler to answer."""


def _distributed() -> Any:
    """The ``distributed`` module, or a clear error naming the extra that brings it."""
    require_extra("dask", "--cluster dask://", ("distributed",))
    import distributed

    return distributed


@contextmanager
def dask_backend(address: str) -> Iterator[Backend]:
    """A :class:`~mushka.sim.backend.Backend` on the Dask scheduler at ``address``
    (``dask://HOST:PORT`` or ``tcp://HOST:PORT``), its CPUs the workers' threads."""
    distributed = _distributed()
    target = "tcp://" + address.removeprefix("dask://").removeprefix("tcp://")
    try:
        client = distributed.Client(target, timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise SimulationError("no_dask", address=target, problem=str(exc).splitlines()[0]) from None
    try:
        workers = client.scheduler_info(n_workers=-1)["workers"]
        threads = sum(int(w.get("nthreads", 1)) for w in workers.values())
        hosts = {w.get("host") for w in workers.values()}
        where = Placement("dask", nodes=max(len(hosts), 1), cpus=max(threads, 1), address=target,
                          version=distributed.__version__)
        executor = client.get_executor(pure=False)
        try:
            yield Backend(executor, where.cpus, where)
        finally:
            executor.shutdown(wait=False)
    finally:
        client.close()


add_texts({
    "error.no_dask": (
        "no Dask scheduler at {address}: {problem} (start one with `dask scheduler` and workers with "
        "`dask worker {address}`)",
        "планировщик Dask по адресу {address} не найден: {problem} (запустите его командой `dask scheduler`, "
        "а рабочие — командой `dask worker {address}`)",
    ),
    "sim.where.dask": ("Played on the Dask cluster {address}: {nodes} machine(s), {cpus} worker threads.",
                       "Сыграно на кластере Dask {address}: машин: {nodes}, рабочих потоков: {cpus}."),
})


__all__ = ["CONNECT_SECONDS", "dask_backend"]
