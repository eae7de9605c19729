"""Ray as the cluster engine of simulations, tournaments and studies.

Needs the ``[cluster]`` extra (``pip install 'mushka[cluster]'``); nothing
else in mushka imports Ray.  :class:`RayExecutor` is a
:class:`concurrent.futures.Executor` whose calls run as Ray tasks, so a run
on a cluster takes the same code path as a run on the local process pool
(:mod:`mushka.sim.executors`).

* A task is a batch of games (tens of milliseconds to a second of work), so
  Ray's per-task cost of a few milliseconds stays small.
* A task whose worker dies (a node lost, a process killed) is retried by
  Ray up to ``max_retries`` times; a batch's result arrives exactly once and
  is placed by game index, so nothing is counted twice.  An exception raised
  *by a game* is not retried: the same seed would fail the same way.
* :meth:`RayExecutor.shutdown` with ``cancel_futures`` (Ctrl-C) cancels
  every task not yet finished, running ones included.
* Getting mushka onto the workers: a ``runtime_env`` (``py_modules``,
  ``working_dir`` or ``pip``, see ``docs/cluster.md``).  With
  ``ship=True`` mushka sends its own package (pure Python) as
  ``py_modules``, so workers need only Python and Ray.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import os
import socket
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final, ParamSpec, TypeVar

from mushka.i18n import LocalText, add_texts
from mushka.sim.backend import Backend, Placement
from mushka.sim.errors import SimulationError, require_extra

P = ParamSpec("P")
T = TypeVar("T")

RETRIES = 3
"""How often Ray plays a batch again whose worker was lost."""


def _ray() -> Any:
    """The ``ray`` module, or a clear error naming the extra that brings it."""
    require_extra("cluster", "--cluster", ("ray",))
    import ray

    return ray


def package_env() -> dict[str, Any]:
    """A ``runtime_env`` that ships this installation's ``mushka`` package to the workers."""
    import mushka

    return {"py_modules": [str(Path(mushka.__file__).parent)]}


class RayExecutor(Executor):
    """Runs submitted calls as Ray tasks on the connected cluster.

    ``fn`` must be importable by the workers: a module-level function of a
    package installed there or shipped by the job's ``runtime_env``.
    """

    def __init__(self, *, max_retries: int = RETRIES) -> None:
        self._ray = _ray()
        self._max_retries = max_retries
        self._on_node = self._ray.remote(on_node)
        self._remote: dict[Callable[..., Any], Any] = {}
        self._pending: dict[Any, Future[Any]] = {}
        self._closed = False
        self.nodes_played: set[str] = set()
        """The Ray nodes whose results came back: the nodes that played (a node lost after
        its batches finished among them, one lost before never)."""

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        """Start ``fn(*args, **kwargs)`` as a Ray task; its future is done when the task is."""
        if self._closed:
            raise RuntimeError("cannot submit after shutdown")
        remote = self._remote.get(fn)
        if remote is None:
            # The task keeps the name of what it plays (Ray's dashboard, the workers' process titles).
            remote = self._remote[fn] = self._on_node.options(
                name=getattr(fn, "__name__", "task"), max_retries=self._max_retries, retry_exceptions=False)
        ref = remote.remote(fn, *args, **kwargs)
        inner: Future[tuple[str, T]] = ref.future()
        future: Future[T] = Future()
        self._pending[ref] = future

        def done(task: Future[tuple[str, T]]) -> None:
            self._pending.pop(ref, None)
            try:
                node, result = task.result()
            except BaseException as exc:  # a game's error, a cancelled or lost task: the caller sees it
                future.set_exception(exc)
                return
            self.nodes_played.add(node)
            future.set_result(result)

        inner.add_done_callback(done)
        return future

    @property
    def pending(self) -> int:
        """Tasks submitted and not yet finished."""
        return len(self._pending)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop taking tasks; with ``cancel_futures`` cancel every unfinished one on the cluster."""
        self._closed = True
        if cancel_futures:
            for ref in list(self._pending):
                # force=False interrupts a running batch in its worker (KeyboardInterrupt there)
                # and drops a queued one; either way Ray does not retry a cancelled task.
                self._ray.cancel(ref, force=False, recursive=True)
        if wait:
            for future in list(self._pending.values()):
                # A cancelled task's future raises; it is finished all the same.
                with contextlib.suppress(BaseException):
                    future.exception()


def on_node(fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> tuple[str, T]:
    """Run ``fn`` in a Ray worker and say on which node (for the ``where`` block)."""
    import ray

    return ray.get_runtime_context().get_node_id(), fn(*args, **kwargs)


def placement() -> Placement:
    """Where tasks of the connected Ray cluster run: its address, live nodes and CPUs."""
    ray = _ray()
    nodes = [n for n in ray.nodes() if n.get("Alive")]
    cpus = int(ray.cluster_resources().get("CPU", 0))
    address = ray.get_runtime_context().gcs_address
    return Placement("ray", nodes=len(nodes), cpus=max(cpus, 1), address=address, version=ray.__version__)


@contextmanager
def ray_backend(address: str, *, runtime_env: dict[str, Any] | None = None, ship: bool | None = None,
                max_retries: int = RETRIES) -> Iterator[Backend]:
    """A :class:`~mushka.sim.backend.Backend` on the Ray cluster at ``address``.

    ``address`` is ``auto`` (the cluster of this machine: ``$RAY_ADDRESS``,
    or the one ``ray start`` set up here, as inside a ``ray job submit``
    job) or ``ray://HOST:PORT`` (Ray Client, from outside the cluster).  An
    already connected driver (``ray.init`` called by the caller) is used as
    it is and left connected (its job's ``runtime_env`` holds).  ``ship``
    (default: for Ray Client addresses) adds :func:`package_env` to
    ``runtime_env``, which applies to the whole connection (Ray uploads
    local directories only for a job, at ``ray.init``).

    Inside the ``with`` block the process's standard output (descriptor 1)
    goes to standard error, so that nothing Ray writes there mixes with what
    the program prints after it (``--json``); an address where nothing
    listens is refused at once (:data:`PROBE_SECONDS`).
    """
    ray = _ray()
    env = dict(runtime_env or {})
    if ship is None:
        ship = address.startswith("ray://")
    if ship and "py_modules" not in env and "working_dir" not in env and "pip" not in env:
        env.update(package_env())
    with _stdout_to_stderr():
        owned = False
        if not ray.is_initialized():
            _probe(address)
            try:
                # A copy: Ray replaces the local paths of the one it gets by the URIs it uploaded them to.
                ray.init(address=address, runtime_env=copy.deepcopy(env) or None, logging_level="WARNING",
                         log_to_driver=False)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise SimulationError("no_cluster", address=address, problem=str(exc).splitlines()[0]) from None
            owned = True
        elif runtime_env:
            raise SimulationError("ray_connected", what="--runtime-env")
        executor = RayExecutor(max_retries=max_retries)
        try:
            where = placement()

            def played() -> Placement:
                # The nodes whose batches came back, not those alive at the start (one may
                # have died, and its lost batches were played again elsewhere).
                nodes = len(executor.nodes_played) or where.nodes
                return dataclasses.replace(where, nodes=nodes)

            yield Backend(executor, where.cpus, where, {"runtime_env": env}, played)
        finally:
            executor.shutdown(wait=False, cancel_futures=True)
            if owned:
                ray.shutdown()


PROBE_SECONDS: Final = 5.0
"""How long :func:`ray_backend` waits for the cluster's address to answer at all."""


def _target(address: str) -> tuple[str, int] | None:
    """The host and port ``ray.init(address)`` connects to first, where it can be told."""
    if address.startswith("ray://"):
        target = address
    else:
        target = os.environ.get("RAY_ADDRESS", "")
        if target in ("", "auto"):
            try:
                # Ray's own reading of "auto": $RAY_ADDRESS, else the cluster `ray start` recorded.
                from ray._private.services import canonicalize_bootstrap_address

                target = canonicalize_bootstrap_address(address) or ""
            except Exception:  # no cluster recorded, or Ray's lookup changed: ray.init says why
                return None
    target = target.removeprefix("ray://")
    host, sep, port = target.rpartition(":")
    if not sep or not port.isdigit() or "/" in target:
        return None
    return host.strip("[]"), int(port)


def _probe(address: str) -> None:
    """Refuse at once an address where nothing listens: Ray would retry it for minutes."""
    target = _target(address)
    if target is None:
        return
    host, port = target
    try:
        with socket.create_connection((host, port), timeout=PROBE_SECONDS):
            pass
    except OSError as exc:
        raise SimulationError("no_cluster", address=f"{host}:{port}", problem=LocalText(
            "sim.nothing_listens", seconds=int(PROBE_SECONDS), reason=exc.strerror or type(exc).__name__)) from None


@contextmanager
def _stdout_to_stderr() -> Iterator[None]:
    """Send whatever is written to file descriptor 1 to 2 while Ray is connected.

    Ray's C++ core and its threads write some messages (a raylet that died, with its state
    dump) to the process's standard output whatever ``log_to_driver`` says; a run's
    ``--json`` is printed after the cluster is left, on the real standard output."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        os.dup2(2, 1)
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def worker_facts() -> dict[str, Any]:
    """Facts about the worker that runs this call (for tests: where mushka was imported from)."""
    import mushka

    return {"pid": os.getpid(), "mushka": str(Path(mushka.__file__).resolve())}


add_texts({
    "sim.nothing_listens": (
        "nothing answers there within {seconds} s ({reason})",
        "там ничего не отвечает в течение {seconds} с ({reason})",
    ),
    "error.ray_connected": (
        "{what} cannot apply: this program is connected to Ray already; give the runtime_env "
        "to its ray.init or to `ray job submit`",
        "{what} не применить: программа уже подключена к Ray; задайте runtime_env в её ray.init "
        "или в `ray job submit`",
    ),
    "error.no_cluster": (
        "no Ray cluster at {address}: {problem} (start one with `ray start --head`, or give "
        "--cluster ray://HOST:PORT)",
        "кластер Ray по адресу {address} не найден: {problem} (запустите его командой `ray start --head` "
        "или укажите --cluster ray://ХОСТ:ПОРТ)",
    ),
})


__all__ = ["PROBE_SECONDS", "RETRIES", "RayExecutor", "on_node", "package_env", "placement", "ray_backend",
           "worker_facts"]
