"""``mushka tournament``: bots against bots on duplicate deals, with ratings.

Round-robin (every pair of bots), mixed (every table of different bots) or
gauntlet (the first bot against each other one); every table plays the same
game seeds in every seating, and the ratings (money per seat-game, score in
pairwise comparisons, a Bradley-Terry Elo) come with bootstrap intervals over
the seeds.  See ``docs/simulation.md``.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer
from rich.table import Table as RichTable

from mushka.cli.common import (
    JsonOpt,
    LangOpt,
    OptionArgs,
    PlayersOpt,
    VariantOpt,
    build_rules,
    command,
    console,
    seed_option,
)
from mushka.cli.simulate_cmd import (
    BotsOpt,
    ClusterOpt,
    ConfidenceOpt,
    JobsOpt,
    MaxDealsOpt,
    ProgressOpt,
    RuntimeEnvOpt,
    checked_run,
    parse_runtime_env,
    play_plan,
)
from mushka.i18n import add_texts, tr
from mushka.sim.backend import placement_text
from mushka.sim.errors import SimulationError
from mushka.sim.executors import check_cluster
from mushka.sim.play import SimTable, default_jobs, split_bot_specs


def render_tournament(report: dict[str, Any], lang: str) -> None:
    """Print the ratings and the pairwise scores for people."""
    from mushka.sim.summary import interval_cell, rate_cell

    pct = round(100 * report["confidence"])
    console.print("[bold]" + tr("tour.header", lang, format=report["format"], games=report["games"],
                                seeds=report["seeds"], tables=len(report["tables"]),
                                seatings=report["seatings"]) + "[/]")
    if report.get("games_per_s") is not None:
        console.print(tr("sim.speed", lang, rate=report["games_per_s"], seconds=report["seconds"],
                         jobs=report["jobs"]))
    if report.get("where") is not None:
        console.print(placement_text(report["where"], lang))
    if report["truncated"]:
        console.print(f"[yellow]{tr('sim.truncated', lang, count=report['truncated'], limit=report['max_deals'])}[/]")
    table = RichTable(title=tr("tour.ratings", lang), title_justify="left", show_edge=False, pad_edge=False)
    table.add_column(tr("sim.col.bot", lang))
    table.add_column(tr("tour.col.elo", lang, pct=pct), justify="right")
    table.add_column(tr("tour.col.money", lang, pct=pct), justify="right")
    table.add_column(tr("tour.col.score", lang, pct=pct), justify="right")
    table.add_column(tr("sim.col.win", lang, pct=pct), justify="right")
    table.add_column(tr("tour.col.games", lang), justify="right")
    for row in report["ratings"]:
        table.add_row(row["bot"], interval_cell(row["elo"], "{:+.0f}"), interval_cell(row["money"], "{:+.2f}"),
                      interval_cell(row["score"], "{:.3f}"), rate_cell(row["win_rate"]), str(row["seat_games"]))
    console.print()
    console.print(table)
    pairs = RichTable(title=tr("tour.pairwise", lang), title_justify="left", show_edge=False, pad_edge=False)
    pairs.add_column(tr("sim.col.bot", lang))
    pairs.add_column(tr("tour.col.opponent", lang))
    pairs.add_column(tr("tour.col.score", lang, pct=pct), justify="right")
    pairs.add_column(tr("tour.col.comparisons", lang), justify="right")
    for row in report["pairwise"]:
        pairs.add_row(row["bot"], row["opponent"], interval_cell(row["score"], "{:.3f}"), f"{row['comparisons']:g}")
    console.print()
    console.print(pairs)


def register(app: typer.Typer) -> None:
    """Add ``tournament`` to the app."""

    @command(app)
    def tournament(
        bots: BotsOpt = None,
        fmt: Annotated[str, typer.Option("--format", "-f", help="round-robin (every pair), mixed (every "
                                         "table of different bots) or gauntlet (the first bot against "
                                         "each other one).")] = "round-robin",
        games: Annotated[int, typer.Option("--games", "-n", help="Deal sets (game seeds) per table; "
                                           "each is played in every seating.")] = 50,
        seatings: Annotated[str, typer.Option("--seatings", help="rotate (cyclic shifts of the seats) or all "
                                              "(every arrangement).")] = "rotate",
        variant: VariantOpt = "classic",
        players: PlayersOpt = None,
        option: OptionArgs = None,
        seed: Annotated[int, seed_option("Seed of the tournament.")] = 1,
        max_deals: MaxDealsOpt = None,
        resamples: Annotated[int, typer.Option("--bootstrap", help="Bootstrap resamples for "
                                               "the intervals.")] = 1000,
        confidence: ConfidenceOpt = 0.95,
        jobs: JobsOpt = None,
        cluster: ClusterOpt = "local",
        runtime_env: RuntimeEnvOpt = None,
        as_json: JsonOpt = False,
        progress: ProgressOpt = None,
        lang: LangOpt = None,
    ) -> None:
        """Play a tournament between bots on duplicate deals and rate them with intervals."""
        lang_ = checked_run("tournament", lang, games=games, jobs=jobs, max_deals=max_deals, confidence=confidence,
                            resamples=resamples)
        from mushka.sim.tournament import plan_tournament, rate

        cluster = check_cluster(cluster)
        env = parse_runtime_env(runtime_env)
        rules = build_rules(variant, players, option)
        if not bots:
            # Without --bots the entrants' list would be empty: say what to give instead.
            raise SimulationError("tournament_no_bots")
        plan = plan_tournament(split_bot_specs(bots or []), rules, fmt=fmt, seatings=seatings,
                               seeds=games, base_seed=seed)
        jobs_list = plan.jobs()
        stats, elapsed, where = play_plan(SimTable.of(rules), jobs_list, cluster=cluster,
                                          workers=jobs or default_jobs(), runtime_env=env, progress=progress,
                                          lang=lang_, max_deals=max_deals)
        report = rate(plan, stats, resamples=resamples, confidence=confidence, seed=seed)
        report.update(variant=rules.variant, players=rules.players, options=rules.options_text(changed_only=True),
                      max_deals=max_deals, seconds=round(elapsed, 3),
                      games_per_s=round(len(stats) / elapsed, 2) if elapsed > 0 else None, jobs=where.cpus,
                      where=where.to_json())
        if as_json:
            sys.stdout.write(json.dumps(report, ensure_ascii=False) + "\n")
            return
        render_tournament(report, lang_)


add_texts({
    "tour.header": ("{format} tournament: {games} games ({seeds} deal sets × {tables} table(s), seatings: "
                    "{seatings}).",
                    "Турнир {format}: {games} игр ({seeds} наборов сдач × столов: {tables}, рассадка: "
                    "{seatings})."),
    "tour.ratings": ("Ratings", "Рейтинги"),
    "error.tournament_no_bots": ("no bot given: a tournament needs at least 2 bots, e.g. --bots club,beginner",
                                 "не указан ни один бот: для турнира нужно не меньше 2 ботов, "
                                 "например --bots club,beginner"),
    "tour.pairwise": ("Pairwise scores (share of comparisons won)", "Попарный счёт (доля выигранных сравнений)"),
    "tour.col.elo": ("Elo ({pct}%)", "Эло ({pct}%)"),
    "tour.col.money": ("money ({pct}%)", "деньги ({pct}%)"),
    "tour.col.score": ("score ({pct}%)", "счёт ({pct}%)"),
    "tour.col.games": ("seat-games", "игр за местом"),
    "tour.col.opponent": ("opponent", "соперник"),
    "tour.col.comparisons": ("comparisons", "сравнений"),
})
