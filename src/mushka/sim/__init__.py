"""Mass simulation: many games between bots, statistics, plots, tournaments.

An application over the rules core and the bots (it never imports the
terminal or web applications).  The pieces:

* :mod:`mushka.sim.play`: reproducible batch play on all cores (one seed per
  game, derived from the run's seed);
* :mod:`mushka.sim.stats`: means and rates with confidence intervals,
  bootstrap, Bradley-Terry;
* :mod:`mushka.sim.summary`: per-seat and per-bot summaries, JSON and CSV;
* :mod:`mushka.sim.plots`: PNG plots (matplotlib);
* :mod:`mushka.sim.tournament`: round-robin, mixed and gauntlet tournaments
  with duplicate deals and ratings;
* :mod:`mushka.sim.study`: the kopilka study (does the unluckiest player
  recoup what he paid in over four deals?).

Used by ``mushka simulate`` and ``mushka tournament``; see ``docs/simulation.md``.
"""

from mushka.sim.errors import SimulationError
from mushka.sim.play import (
    GameJob,
    GameStats,
    Table,
    game_seed,
    play_job,
    run_jobs,
    seat_bots,
    simulation_jobs,
    split_bot_specs,
)
from mushka.sim.summary import summarise_run
from mushka.sim.tournament import Plan, plan_tournament, rate

__all__ = [
    "GameJob",
    "GameStats",
    "Plan",
    "SimulationError",
    "Table",
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
