"""Tournaments between bots: duplicate deals, seat rotation and ratings.

Formats (a *table* is which bots sit down together):

* ``round-robin``: every pair of bots meets; the pair shares the seats as
  evenly as possible (2 + 2 at four seats; at an odd table both splits are
  played, 2 + 1 and 1 + 2).
* ``mixed``: every set of as many different bots as there are seats (needs at
  least that many bots).
* ``gauntlet``: the first bot against each of the others, alone against a
  full table of it.

Duplicate deals: every table plays the same game seeds, and each seed is
played once per *seating* of the table (``rotate``: the cyclic shifts of the
seats; ``all``: every distinct arrangement).  A game seed fixes all the
cards of the game (every deal's deck, whatever is played), so over a
seating group each bot gets every seat with the same cards: luck of the deal
and of the seat largely cancels.  All tables use the same seeds, so even
different pairings are played on the same cards.

Ratings, all with bootstrap intervals that resample whole seeds (the games
of one seed share their cards and are not independent):

* **money**: each bot's mean money per seat-game over the whole tournament;
* **score**: for every two seats of one game held by different bots, the one
  with more money wins the comparison (a tie is half each); a bot's score
  is the share of its comparisons it won, and ``pairwise`` gives it per
  opponent;
* **elo**: a Bradley-Terry fit of those comparisons on the Elo scale
  (differences of 400 points mean 10 : 1 odds in a comparison), centred on 0.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mushka.rules import Rules
from mushka.sim.errors import SimulationError
from mushka.sim.play import GameJob, GameStats, bot_spec, check_bot, derive_seed
from mushka.sim.stats import (
    bootstrap_means,
    bootstrap_weights,
    bradley_terry,
    percentile_interval,
    proportion_ci,
)

FORMATS = ("round-robin", "mixed", "gauntlet")
SEATINGS = ("rotate", "all")
SCHEMA = "mushka-tournament/1"
"""The ``schema`` field of ``mushka tournament --json``."""


def tournament_seed(base: int, number: int) -> int:
    """The game seed of deal set ``number`` of a tournament seeded with ``base``."""
    return derive_seed("mushka-tournament", base, number)


def tables_for(entrants: Sequence[str], players: int, fmt: str) -> list[tuple[str, ...]]:
    """The table compositions of a tournament, each in its first seating."""
    if fmt not in FORMATS:
        raise SimulationError("bad_tournament_format", name=fmt)
    k = len(entrants)
    shown = ", ".join(entrants)
    if fmt == "mixed":
        if k < players:
            raise SimulationError("tournament_entrants", format=fmt, need=players, count=k, bots=shown)
        return [tuple(c) for c in itertools.combinations(entrants, players)]
    if k < 2:
        raise SimulationError("tournament_entrants", format=fmt, need=2, count=k, bots=shown)
    if fmt == "gauntlet":
        hero = entrants[0]
        return [(hero, *([other] * (players - 1))) for other in entrants[1:]]
    tables = []
    half = players // 2
    for a, b in itertools.combinations(entrants, 2):
        tables.append((*([a] * (players - half)), *([b] * half)))
        if players % 2:
            tables.append((*([a] * half), *([b] * (players - half))))
    return tables


def seatings_of(table: tuple[str, ...], how: str) -> list[tuple[str, ...]]:
    """The seatings a table plays each seed in (distinct, in a fixed order)."""
    if how not in SEATINGS:
        raise SimulationError("bad_seatings", name=how)
    if how == "rotate":
        shifts = [table[-r:] + table[:-r] if r else table for r in range(len(table))]
    else:
        shifts = sorted(set(itertools.permutations(table)))
    out: list[tuple[str, ...]] = []
    for s in shifts:
        if s not in out:
            out.append(s)
    return out


@dataclass(frozen=True, slots=True)
class Plan:
    """What a tournament plays: entrants, tables, seatings and seeds."""

    entrants: tuple[str, ...]
    format: str
    seatings: str
    tables: tuple[tuple[str, ...], ...]
    seeds: int
    """Deal sets (game seeds) per table."""
    base_seed: int

    def jobs(self) -> list[GameJob]:
        """Every game of the tournament, numbered in a fixed order."""
        out: list[GameJob] = []
        index = 0
        for number in range(self.seeds):
            seed = tournament_seed(self.base_seed, number)
            for t, table in enumerate(self.tables):
                for seating in seatings_of(table, self.seatings):
                    out.append(GameJob(index=index, seed=seed, bots=seating, group=number, table=t))
                    index += 1
        return out


def plan_tournament(bots: Sequence[str], rules: Rules, *, fmt: str = "round-robin", seatings: str = "rotate",
                    seeds: int = 20, base_seed: int = 1) -> Plan:
    """Check the entrants and lay out the tournament."""
    if seeds < 1:
        raise SimulationError("bad_count", what="--games", least=1, value=seeds)
    entrants: list[str] = []
    for spec in bots:
        label = check_bot(spec)
        # The same bot twice is two entrants (a bot against itself shows the noise).
        number = 2
        while label in entrants:
            label = f"{bot_spec(label)}#{number}"
            number += 1
        entrants.append(label)
    tables = tables_for(entrants, rules.players, fmt)
    seatings_of(tables[0], seatings)
    return Plan(tuple(entrants), fmt, seatings, tuple(tables), seeds, base_seed)


def rate(plan: Plan, games: Sequence[GameStats], *, resamples: int = 1000, confidence: float = 0.95,
         seed: int = 0) -> dict[str, Any]:
    """Ratings of the entrants from the games of ``plan`` (see the module docstring)."""
    names = list(plan.entrants)
    k = len(names)
    pos = {b: i for i, b in enumerate(names)}
    groups = plan.seeds
    money = np.zeros((groups, k))
    seat_games = np.zeros((groups, k))
    wins = np.zeros((groups, k))
    beat = np.zeros((groups, k, k))
    for g in games:
        row = g.group
        for s, b in enumerate(g.bots):
            i = pos[b]
            money[row, i] += g.money[s]
            seat_games[row, i] += 1
            if g.winner == s:
                wins[row, i] += 1
        for s, t in itertools.combinations(range(g.players), 2):
            i, j = pos[g.bots[s]], pos[g.bots[t]]
            if i == j:
                continue
            if g.money[s] > g.money[t]:
                beat[row, i, j] += 1
            elif g.money[s] < g.money[t]:
                beat[row, j, i] += 1
            else:
                beat[row, i, j] += 0.5
                beat[row, j, i] += 0.5
    weights = bootstrap_weights(groups, resamples, seed)
    money_low, money_high = bootstrap_means(money, seat_games, weights, confidence)
    comparisons = beat + np.swapaxes(beat, 1, 2)
    score_low, score_high = bootstrap_means(beat.sum(axis=2), comparisons.sum(axis=2), weights, confidence)
    total_beat = beat.sum(axis=0)
    elo = bradley_terry(total_beat)
    boot_beat = np.tensordot(weights, beat, axes=(1, 0))
    elo_low, elo_high = percentile_interval(bradley_terry(boot_beat), confidence)
    total_games = seat_games.sum(axis=0)
    total_money = money.sum(axis=0)
    total_comp = comparisons.sum(axis=(0, 2))
    rows = []
    for i, b in enumerate(names):
        win = proportion_ci(int(wins[:, i].sum()), int(total_games[i]), confidence)
        rows.append({
            "bot": b,
            "seat_games": int(total_games[i]),
            "money": {"value": _r(total_money[i] / total_games[i]) if total_games[i] else None,
                      "low": _r(money_low[i]), "high": _r(money_high[i])},
            "score": {"value": _r(total_beat[i].sum() / total_comp[i]) if total_comp[i] else None,
                      "low": _r(score_low[i]), "high": _r(score_high[i])},
            "elo": {"value": _r(elo[i], 1), "low": _r(elo_low[i], 1), "high": _r(elo_high[i], 1)},
            "win_rate": win.to_json(),
        })
    order = sorted(range(k), key=lambda i: -elo[i])
    total_comparisons = comparisons.sum(axis=0)
    pairwise = []
    for i, j in itertools.permutations(range(k), 2):
        if total_comparisons[i, j] == 0:
            continue
        low, high = bootstrap_means(beat[:, i, j:j + 1], comparisons[:, i, j:j + 1], weights, confidence)
        pairwise.append({"bot": names[i], "opponent": names[j], "comparisons": _r(total_comparisons[i, j], 1),
                         "score": {"value": _r(total_beat[i, j] / total_comparisons[i, j]),
                                   "low": _r(low[0]), "high": _r(high[0])}})
    return {
        "schema": SCHEMA,
        "format": plan.format,
        "seatings": plan.seatings,
        "entrants": names,
        "tables": [list(t) for t in plan.tables],
        "seeds": plan.seeds,
        "seed": plan.base_seed,
        "games": len(games),
        "resamples": resamples,
        "confidence": confidence,
        "money_balanced": all(sum(g.money) == 0 for g in games),
        "truncated": sum(1 for g in games if g.truncated),
        "ratings": [rows[i] for i in order],
        "pairwise": pairwise,
    }


def _r(x: float, digits: int = 4) -> float | None:
    value = float(x)
    if np.isnan(value):
        return None
    return round(value, digits)
