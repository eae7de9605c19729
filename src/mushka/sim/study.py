"""The kopilka study: does even the unluckiest player recoup what he paid in?

The source text of мушка-копилка ends: «в продолжение четырех сдач даже самый
невезучий, по крайней мере, может окупить взносы, сделанные им» (in the course
of four deals even the unluckiest can at least recoup what he paid in).  This
module measures it over many sessions (K4) for several tables:

* money paid in: the ante (K3), penalties for passing with the led suit
  (K12), remizes (K22.1) and the payments after each game (K22.3);
* money received: trick payments (K20-K22.2) and the pot after game 4 (K23);
* a player *recoups* when he received at least what he paid in, that is,
  when his final balance is >= 0 (K24).

It reports how often a player recoups, how often the unluckiest player of a
session (the lowest balance) does, how often the unluckiest gets back at
least the ante, and what share of his payments he gets back on average, all
with confidence intervals; and draws the plot of ``docs/kopilka-study.md``.

Run ``python -m mushka.sim.study --help``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mushka.bots import BOTS
from mushka.errors import MushkaError
from mushka.rules import make_rules
from mushka.sim.backend import Backend
from mushka.sim.executors import CLUSTER_HELP, check_cluster, open_backend
from mushka.sim.play import GameStats, SimTable, default_jobs, run_jobs, seat_bots, simulation_jobs
from mushka.sim.stats import mean_ci, proportion_ci
from mushka.sim.summary import unluckiest


@dataclass(frozen=True, slots=True)
class Config:
    """One table of the study: its bots (one per seat) and house rules."""

    label: str
    bots: tuple[str, ...]
    options: dict[str, str] = field(default_factory=dict)
    slow: bool = False
    """Played with fewer sessions (a searching bot thinks at every decision)."""


def default_configs(search_budget: int = 100) -> list[Config]:
    """The tables studied: random players (also under two house rules), and
    the heuristic and search bots when they are installed, four of a kind and
    one among three weaker players."""
    configs = [
        Config("random ×4", ("random",) * 4),
        Config("random ×4, renege=forbid", ("random",) * 4, {"renege": "forbid"}),
        Config("random ×4, game_payment=0", ("random",) * 4, {"game_payment": "0"}),
    ]
    if "heuristic" in BOTS:
        configs.append(Config("heuristic ×4", ("heuristic",) * 4))
        configs.append(Config("heuristic + random ×3", ("heuristic", "random", "random", "random")))
        configs.append(Config("heuristic ×4, game_payment=0", ("heuristic",) * 4, {"game_payment": "0"}))
    if "search" in BOTS:
        # A budget in playouts only (seconds=0): a time budget would make the runs irreproducible.
        spec = f"search:iterations={search_budget},seconds=0"
        configs.append(Config(f"search({search_budget}) ×4", (spec,) * 4, slow=True))
        other = "heuristic" if "heuristic" in BOTS else "random"
        configs.append(Config(f"search({search_budget}) + {other} ×3", (spec, other, other, other), slow=True))
    return configs


def measure(config: Config, sessions: int, *, seed: int = 1, workers: int = 1,
            confidence: float = 0.95, backend: Backend | None = None) -> tuple[dict[str, Any], list[GameStats]]:
    """Play ``sessions`` kopilka sessions of ``config`` and sum up the recoup rates.

    The sessions are played on ``backend`` if given (a Ray cluster, say),
    else on ``workers`` processes of this machine; the figures are the same.
    """
    rules = make_rules("kopilka", 4, **config.options)
    seats = seat_bots(config.bots, rules)
    # Rotation spreads an odd bot over every seat; a table of one bot is unchanged by it.
    jobs = simulation_jobs(seats, sessions, seed, rotate=len(set(seats)) > 1)
    began = time.perf_counter()
    games = run_jobs(SimTable.of(rules), jobs, workers=workers, backend=backend)
    seconds = time.perf_counter() - began
    per_session = [sum(1 for m in g.money if m >= 0) / g.players for g in games]
    seat_games = sum(g.players for g in games)
    recouped = sum(1 for g in games for m in g.money if m >= 0)
    row: dict[str, Any] = {
        "label": config.label,
        "bots": list(config.bots),
        "options": dict(config.options),
        "sessions": len(games),
        "seconds": round(seconds, 2),
        "player_recoup_rate": mean_ci(per_session, confidence).to_json(),
        "player_recoup_share": round(recouped / seat_games, 4),
        "unluckiest": unluckiest(games, rules.ante, confidence),
        "all_recoup": proportion_ci(sum(1 for g in games if min(g.money) >= 0), len(games), confidence).to_json(),
        "paid_in": mean_ci([p for g in games for p in g.paid_in], confidence).to_json(),
        "received": mean_ci([r for g in games for r in g.received], confidence).to_json(),
        "final_pot": mean_ci([sum(g.pot_taken) for g in games], confidence).to_json(),
        "pot_share_of_received": round(sum(sum(g.pot_taken) for g in games)
                                       / max(1, sum(sum(g.received) for g in games)), 4),
        "balanced": all(sum(g.money) == 0 for g in games),
    }
    if len(set(config.bots)) > 1:
        odd = config.bots[0]
        mine = [g.money[s] >= 0 for g in games for s, b in enumerate(g.bots) if b == odd]
        row["first_bot_recoup_rate"] = proportion_ci(sum(mine), len(mine), confidence).to_json()
    return row, games


def plot_study(rows: Sequence[dict[str, Any]], balances: Sequence[GameStats], path: Path, label: str = "") -> Path:
    """The study's figure: the final balances of one table, and the rates with intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.8), width_ratios=(1, 1.25))
    everyone = np.asarray([m for g in balances for m in g.money], dtype=float)
    lowest = np.asarray([min(g.money) for g in balances], dtype=float)
    bins = np.linspace(min(everyone.min(), lowest.min()) - 0.5, everyone.max() + 0.5, 60)
    left.hist(everyone, bins=bins, weights=np.full(len(everyone), 1 / len(everyone)), alpha=0.6,
              label="every player")
    left.hist(lowest, bins=bins, weights=np.full(len(lowest), 1 / len(lowest)), alpha=0.6,
              label="the unluckiest of the session")
    left.axvline(0, color="black", linewidth=1)
    left.set_xlabel("final balance of a session (K24); >= 0 means recouped")
    left.set_ylabel("share")
    left.set_title(f"{label or rows[0]['label']}: {len(balances)} sessions")
    left.legend()
    labels = [r["label"] for r in rows]
    y = np.arange(len(rows))
    series = (("player_recoup_rate", "a player recoups (balance >= 0)", "#1f77b4", -0.25),
              (("unluckiest", "ante_back_rate"), "the unluckiest gets the ante back", "#ff7f0e", 0.0),
              (("unluckiest", "recoup_rate"), "the unluckiest recoups", "#d62728", 0.25))
    for key, name, colour, dy in series:
        blocks = [r[key] if isinstance(key, str) else r[key[0]][key[1]] for r in rows]
        value = np.asarray([b["value"] for b in blocks], dtype=float)
        low = np.asarray([b["low"] if b["low"] is not None else b["value"] for b in blocks], dtype=float)
        high = np.asarray([b["high"] if b["high"] is not None else b["value"] for b in blocks], dtype=float)
        right.errorbar(value, y + dy, xerr=[value - low, high - value], fmt="o", color=colour, capsize=3,
                       label=name)
    right.set_yticks(y, labels)
    right.invert_yaxis()
    right.set_xlim(-0.02, 1.02)
    right.set_xlabel("share of sessions (95% intervals)")
    right.set_title("Recouping over a session of four deals (K3, K20-K24)")
    right.legend(fontsize="small", loc="upper center", bbox_to_anchor=(0.4, -0.12), ncols=2)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return path


def markdown(rows: Sequence[dict[str, Any]]) -> str:
    """The study's table in Markdown (rates in per cent with their intervals)."""

    def pct(block: dict[str, Any]) -> str:
        if block["low"] is None:
            return f"{100 * block['value']:.1f}"
        # A rate near zero needs more places to show how small its upper bound is.
        places = 2 if block["high"] < 0.01 else 1
        return f"{100 * block['value']:.1f} ({100 * block['low']:.1f}–{100 * block['high']:.{places}f})"

    def num(block: dict[str, Any], fmt: str) -> str:
        if block["low"] is None:
            return fmt.format(block["value"])
        return f"{fmt.format(block['value'])} ({fmt.format(block['low'])}, {fmt.format(block['high'])})"

    lines = [
        "| table | sessions | a player recoups, % | unluckiest recoups, % | unluckiest gets the ante back, % "
        "| unluckiest's balance | share of his payments he gets back | final pot (K23) | pot's share of all takings |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        low = r["unluckiest"]
        lines.append(
            f"| {r['label']} | {r['sessions']} | {pct(r['player_recoup_rate'])} | {pct(low['recoup_rate'])} "
            f"| {pct(low['ante_back_rate'])} | {num(low['balance'], '{:+.1f}')} "
            f"| {num(low['recouped_fraction'], '{:.3f}')} | {num(r['final_pot'], '{:.1f}')} "
            f"| {100 * r['pot_share_of_received']:.1f}% |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m mushka.sim.study``: run the study, print the table, draw the plot."""
    parser = argparse.ArgumentParser(prog="python -m mushka.sim.study", description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=20000, help="sessions per table (default 20000)")
    parser.add_argument("--slow-sessions", type=int, default=300,
                        help="sessions per table with the search bot (default 300)")
    parser.add_argument("--search-budget", type=int, default=100, help="playouts per decision of the search bot")
    parser.add_argument("--only", action="append", default=None, metavar="LABEL",
                        help="study only the table with this label (repeatable)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=default_jobs(), help="worker processes of this machine")
    parser.add_argument("--cluster", default="local", help=f"where to play: {CLUSTER_HELP}")
    parser.add_argument("--plot", type=Path, default=None, help="write the figure to this PNG file")
    parser.add_argument("--save", type=Path, default=None, help="also write the rows as JSON to this file")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON instead of Markdown")
    args = parser.parse_args(argv)
    try:
        check_cluster(args.cluster)
    except MushkaError as exc:
        parser.error(exc.message("en"))
    configs = default_configs(args.search_budget)
    if args.only:
        configs = [c for c in configs if c.label in args.only]
    rows = []
    shown: tuple[str, list[GameStats]] | None = None
    with open_backend(args.cluster, args.jobs) as backend:
        print(backend.placement.text("en"), file=sys.stderr)
        for config in configs:
            row, games = measure(config, args.slow_sessions if config.slow else args.sessions, seed=args.seed,
                                 backend=backend)
            row["where"] = backend.played().to_json()
            rows.append(row)
            # The histogram shows the most realistic fast table: the heuristic players if there are any.
            if shown is None or config.label == "heuristic ×4":
                shown = (config.label, games)
            print(f"{config.label}: {row['sessions']} sessions in {row['seconds']} s", file=sys.stderr)
    if args.plot is not None and shown is not None:
        plot_study(rows, shown[1], args.plot, shown[0])
    text = json.dumps(rows, ensure_ascii=False, indent=1)
    if args.save is not None:
        args.save.write_text(text + "\n", encoding="utf-8")
    print(text if args.json else markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
