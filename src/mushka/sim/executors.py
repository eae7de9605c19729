"""Where the games of a run are played: one executor seam for every engine.

A run plays batches of games through a :class:`concurrent.futures.Executor`:

* :class:`InlineExecutor` plays each batch in this process as it is
  submitted (``--jobs 1``; for tests and debugging, a plain traceback);
* :class:`~concurrent.futures.ProcessPoolExecutor` spreads batches over the
  cores of this machine (``--cluster local``, the default);
* :class:`mushka.sim.cluster.RayExecutor` sends them to a Ray cluster as
  Ray tasks (``--cluster auto`` or ``--cluster ray://HOST:PORT``, with the
  ``[cluster]`` extra);
* a Dask client's executor (``Client.get_executor()``) sends them to a Dask
  scheduler (``--cluster dask://HOST:PORT``, with the ``[dask]`` extra).

Every engine runs the same batch function on the same batches, and every
game carries its own seed, so the games of a run do not depend on where
they were played.  :class:`Backend` bundles an executor with how many
batches it plays at once and a :class:`Placement` that says where it ran.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, ParamSpec, TypeVar

from mushka.i18n import add_texts, tr
from mushka.sim.errors import SimulationError

P = ParamSpec("P")
T = TypeVar("T")

CLUSTER_HELP = ("local (this machine's cores), auto (the Ray cluster this machine belongs to), ray://HOST:PORT "
                "or dask://HOST:PORT (a Dask scheduler)")
"""What ``--cluster`` takes, for the commands' help."""

_RAY_CLIENT = re.compile(r"^ray://[^\s/:]+:\d{1,5}$")
_DASK = re.compile(r"^dask://[^\s/:]+:\d{1,5}$")


class InlineExecutor(Executor):
    """Plays every submitted call at once, in this process.

    The returned future is already done; an exception of the call is kept in
    it, as a pool would keep it, and raised by :meth:`Future.result`.
    """

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        """Run ``fn(*args, **kwargs)`` now and return its finished future."""
        future: Future[T] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as exc:  # kept in the future, as a pool keeps it; Ctrl-C goes straight up
            future.set_exception(exc)
        return future


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a run was played: the engine, its address, nodes and CPUs."""

    engine: str
    """``inline`` (this process), ``local`` (a process pool), ``ray`` or ``dask``."""
    nodes: int = 1
    cpus: int = 1
    """CPUs (worker processes of a pool) the run could use."""
    address: str | None = None
    """The cluster's address, if any."""
    version: str | None = None
    """The version of Ray (or of Dask's ``distributed``) the cluster runs, if any."""

    def to_json(self) -> dict[str, Any]:
        """The ``where`` block of a summary."""
        out: dict[str, Any] = {"engine": self.engine, "nodes": self.nodes, "cpus": self.cpus}
        if self.address is not None:
            out["address"] = self.address
        if self.version is not None:
            out[self.engine] = self.version  # "ray": "2.60.0", "dask": "2026.8.0"
        return out

    def text(self, lang: str) -> str:
        """One line for people: where the games were played."""
        return placement_text(self.to_json(), lang)


def placement_text(where: dict[str, Any], lang: str) -> str:
    """The line of a summary's ``where`` block in ``lang``."""
    if where["engine"] == "dask":
        return tr("sim.where.dask", lang, address=where.get("address") or "?", nodes=where["nodes"],
                  cpus=where["cpus"])
    if where["engine"] == "ray":
        return tr("sim.where.ray", lang, address=where.get("address") or "?", nodes=where["nodes"],
                  cpus=where["cpus"])
    if where["engine"] == "local":
        return tr("sim.where.local", lang, cpus=where["cpus"])
    return tr("sim.where.inline", lang)


@dataclass(slots=True)
class Backend:
    """An executor, how many batches it plays at once, and where that is."""

    executor: Executor
    slots: int
    placement: Placement
    extra: dict[str, Any] = field(default_factory=dict)
    """Engine-specific facts for tests and benchmarks."""
    report: Callable[[], Placement] | None = None
    """Where the run was played, asked after it (a cluster counts the nodes that played)."""

    def played(self) -> Placement:
        """Where the games were played: the placement at the start unless the engine knows better."""
        return self.placement if self.report is None else self.report()


def check_cluster(cluster: str) -> str:
    """Normalise a ``--cluster`` value; refuse anything else, naming what is accepted."""
    value = cluster.strip()
    if value in ("local", "auto") or _RAY_CLIENT.match(value) or _DASK.match(value):
        return value
    raise SimulationError("bad_cluster", value=cluster)


@contextmanager
def open_backend(cluster: str = "local", workers: int = 1, *,
                 runtime_env: dict[str, Any] | None = None) -> Iterator[Backend]:
    """The backend of ``--cluster`` for the span of a run, shut down after it.

    ``local`` uses ``workers`` processes of this machine (one: this process);
    ``auto`` and ``ray://HOST:PORT`` connect to a Ray cluster (see
    :func:`mushka.sim.cluster.ray_backend`) and use all its CPUs;
    ``dask://HOST:PORT`` a Dask scheduler (:func:`mushka.sim.dask_cluster.dask_backend`).
    """
    cluster = check_cluster(cluster)
    if cluster == "local":
        if workers <= 1:
            yield Backend(InlineExecutor(), 1, Placement("inline"))
            return
        pool = ProcessPoolExecutor(max_workers=workers)
        try:
            yield Backend(pool, workers, Placement("local", cpus=workers))
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown()
        return
    if cluster.startswith("dask://"):
        from mushka.sim.dask_cluster import dask_backend  # only with the [dask] extra

        with dask_backend(cluster) as backend:
            yield backend
        return
    from mushka.sim.cluster import ray_backend  # only with the [cluster] extra

    with ray_backend(cluster, runtime_env=runtime_env) as backend:
        yield backend


add_texts({
    "sim.where.inline": ("Played in this process.", "Сыграно в этом процессе."),
    "sim.where.local": ("Played on this machine: {cpus} worker processes.",
                        "Сыграно на этой машине: рабочих процессов: {cpus}."),
    "sim.where.ray": ("Played on the Ray cluster {address}: {nodes} node(s), {cpus} CPUs.",
                      "Сыграно на кластере Ray {address}: узлов: {nodes}, процессоров: {cpus}."),
    "error.bad_cluster": (
        "--cluster {value!r} is not understood; use local, auto, ray://HOST:PORT or dask://HOST:PORT",
        "--cluster {value!r} не распознан; используйте local, auto, ray://ХОСТ:ПОРТ или dask://ХОСТ:ПОРТ",
    ),
})


__all__ = [
    "CLUSTER_HELP",
    "Backend",
    "InlineExecutor",
    "Placement",
    "check_cluster",
    "open_backend",
    "placement_text",
]
