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
they were played.  :func:`open_backend` gives a
:class:`~mushka.sim.backend.Backend`: an executor with how many batches it
plays at once and a :class:`~mushka.sim.backend.Placement` that says where
it ran.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, ParamSpec, TypeVar

from mushka.i18n import add_texts
from mushka.sim.backend import Backend, Placement
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
    "error.bad_cluster": (
        "--cluster {value!r} is not understood; use local, auto, ray://HOST:PORT or dask://HOST:PORT",
        "--cluster {value!r} не распознан; используйте local, auto, ray://ХОСТ:ПОРТ или dask://ХОСТ:ПОРТ",
    ),
})


__all__ = [
    "CLUSTER_HELP",
    "InlineExecutor",
    "check_cluster",
    "open_backend",
]
