"""Where a run's games were played, and the executor that plays them: what every engine returns.

:func:`mushka.sim.executors.open_backend` opens a :class:`Backend` for
``--cluster``: this process, this machine's cores, or a cluster
(:mod:`mushka.sim.cluster` for Ray, :mod:`mushka.sim.dask_cluster` for
Dask).  The engines build their backends from this module, so that none of
them imports the module that chooses among them.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from mushka.i18n import add_texts, tr


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


add_texts({
    "sim.where.inline": ("Played in this process.", "Сыграно в этом процессе."),
    "sim.where.local": ("Played on this machine: {cpus} worker processes.",
                        "Сыграно на этой машине: рабочих процессов: {cpus}."),
    "sim.where.ray": ("Played on the Ray cluster {address}: {nodes} node(s), {cpus} CPUs.",
                      "Сыграно на кластере Ray {address}: узлов: {nodes}, процессоров: {cpus}."),
})


__all__ = ["Backend", "Placement", "placement_text"]
