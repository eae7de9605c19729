"""Mass simulation: many games between bots, statistics, plots, tournaments.

An application over the rules core and the bots (it never imports the
terminal or web applications).  The pieces:

* :mod:`mushka.sim.play`: reproducible batch play (one seed per game,
  derived from the run's seed);
* :mod:`mushka.sim.executors`: where batches are played: this process, the
  local cores, or (:mod:`mushka.sim.cluster`, ``[cluster]`` extra) a Ray
  cluster;
* :mod:`mushka.sim.stats` (``[sim]`` extra, as are the summaries, plots and
  ratings): means and rates with confidence intervals,
  bootstrap, Bradley-Terry;
* :mod:`mushka.sim.summary`: per-seat and per-bot summaries, JSON and CSV;
* :mod:`mushka.sim.plots`: PNG plots (matplotlib);
* :mod:`mushka.sim.tournament`: round-robin, mixed and gauntlet tournaments
  with duplicate deals and ratings;
* :mod:`mushka.sim.study`: the kopilka study (does the unluckiest player
  recoup what he paid in over four deals?).

Used by ``mushka simulate`` and ``mushka tournament``; see ``docs/simulation.md``
and ``docs/cluster.md``.
"""

from typing import TYPE_CHECKING, Any

from mushka.sim.errors import SimulationError
from mushka.sim.play import (
    GameJob,
    GameStats,
    SimTable,
    game_seed,
    play_job,
    run_jobs,
    seat_bots,
    simulation_jobs,
    split_bot_specs,
)

if TYPE_CHECKING:
    from mushka.sim.summary import summarise_run
    from mushka.sim.tournament import Plan, plan_tournament, rate

# Statistics and ratings need the [sim] extra (numpy, scipy): imported on first use, so that
# playing games (here, or on a cluster's workers) needs nothing beyond the rules core and the bots.
_LAZY = {"summarise_run": "mushka.sim.summary", "Plan": "mushka.sim.tournament",
         "plan_tournament": "mushka.sim.tournament", "rate": "mushka.sim.tournament"}


def __getattr__(name: str) -> Any:
    """The names that need the statistics modules, imported when first asked for."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'mushka.sim' has no attribute {name!r}")

__all__ = [
    "GameJob",
    "GameStats",
    "Plan",
    "SimTable",
    "SimulationError",
    "game_seed",
    "plan_tournament",
    "play_job",
    "rate",
    "run_jobs",
    "seat_bots",
    "simulation_jobs",
    "split_bot_specs",
    "summarise_run",
]
