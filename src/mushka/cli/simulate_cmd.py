"""``mushka simulate``: many games between bots, with statistics and plots.

Plays N parties (classic, mistigri) or four-deal sessions (kopilka) on all
cores, each game seeded from ``--seed`` so that a run, or any single game of
it (``--start I --games 1``), plays again identically; then prints per seat
and per bot the mean money per game with its confidence interval, the win
rate, remizes and tricks per deal played, and the counts that apply to the
variant.  See ``docs/simulation.md``.
"""

from __future__ import annotations

import json
import sys
import time
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from mushka.cli.common import (
    JsonOpt,
    LangOpt,
    OptionArgs,
    PlayersOpt,
    VariantOpt,
    build_rules,
    command,
    console,
    err_console,
    pick_lang,
    seed_option,
)
from mushka.i18n import add_texts, tr
from mushka.sim.backend import Placement
from mushka.sim.errors import SimulationError, at_least, require_extra, within
from mushka.sim.executors import CLUSTER_HELP, check_cluster, open_backend
from mushka.sim.play import (
    GameJob,
    GameStats,
    SimTable,
    default_jobs,
    run_jobs,
    seat_bots,
    simulation_jobs,
    split_bot_specs,
)

STATS_MODULES = ("numpy", "scipy")
"""What the statistics of a run need: the [sim] extra (plots add matplotlib)."""

PLOT_GAMES = 5000
"""The course plots follow at most this many games (enough for quartiles)."""

# The options of the commands that play many games (simulate, tournament).
BotsOpt = Annotated[
    list[str] | None,
    typer.Option("--bots", "-b", help="Bots: one for every seat, or one per seat in order "
                 "(heuristic,random,random,random); name:key=value passes settings."),
]
JobsOpt = Annotated[int | None, typer.Option("--jobs", "-j", help="Worker processes of this machine (default: "
                                             "every core; a cluster uses all its CPUs).")]
ClusterOpt = Annotated[str, typer.Option("--cluster", help=f"Where to play: {CLUSTER_HELP} (needs the "
                                         "\\[cluster] extra); see docs/cluster.md.")]
RuntimeEnvOpt = Annotated[
    str | None,
    typer.Option("--runtime-env", help="Ray runtime_env for the workers, as JSON or a JSON file "
                 "(e.g. '{\"working_dir\": \".\"}'); with ray:// mushka ships itself by default."),
]
ProgressOpt = Annotated[
    bool | None, typer.Option("--progress/--no-progress", help="Show a progress bar (default: on a terminal).")
]
MaxDealsOpt = Annotated[
    int | None, typer.Option("--max-deals", help="Stop a partie after this many deals (reported as truncated).")
]
ConfidenceOpt = Annotated[float, typer.Option("--confidence", help="Level of the intervals.")]


def progress_bar(enabled: bool | None, total: int, label: str) -> tuple[AbstractContextManager[Any], Any]:
    """A Rich progress bar on standard error (or nothing) and its advance function."""
    if enabled is None:
        enabled = err_console.is_terminal
    if not enabled:
        return nullcontext(), lambda k: None
    bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                   console=err_console, transient=True)
    task = bar.add_task(label, total=total)
    return bar, lambda k: bar.advance(task, k)


def parse_runtime_env(text: str | None) -> dict[str, Any] | None:
    """``--runtime-env``: a JSON object, given inline or as the path of a JSON file."""
    if text is None:
        return None
    source = text
    path = Path(text)
    if not text.lstrip().startswith("{") and path.is_file():
        source = path.read_text(encoding="utf-8")
    try:
        value = json.loads(source)
    except json.JSONDecodeError as exc:
        raise SimulationError("bad_runtime_env", value=text, problem=exc.msg) from None
    if not isinstance(value, dict):
        raise SimulationError("bad_runtime_env", value=text, problem="not a JSON object")
    return value


def play_plan(table: SimTable, plan: list[GameJob], *, cluster: str, workers: int, runtime_env: dict[str, Any] | None,
              progress: bool | None, lang: str, **options: Any) -> tuple[list[GameStats], float, Placement]:
    """Play ``plan`` where ``--cluster`` says, with a progress bar of the games done.

    Returns the games, the seconds of play (connecting to a cluster left
    out) and where they were played.  Ctrl-C cancels what is queued or
    running (on a cluster too) and ends the command with status 130.
    """
    with open_backend(cluster, workers, runtime_env=runtime_env) as backend:
        bar, advance = progress_bar(progress, len(plan), tr("sim.playing", lang))
        done = 0

        def step(k: int) -> None:
            nonlocal done
            done += k
            advance(k)

        began = time.perf_counter()
        try:
            with bar:
                stats = run_jobs(table, plan, backend=backend, progress=step, **options)
        except KeyboardInterrupt:
            err_console.print(tr("sim.interrupted", lang, done=done, total=len(plan)))
            sys.exit(130)
        return stats, time.perf_counter() - began, backend.played()


def checked_run(name: str, lang: str | None, *, games: int, jobs: int | None, max_deals: int | None,
                confidence: float, start: int = 0, resamples: int | None = None) -> str:
    """The output language of ``mushka <name>``, once its counts and levels are possible and
    the statistics it needs are installed: an impossible run is refused before anything is played."""
    lang_ = pick_lang(lang)
    at_least("--games", games, 1)
    at_least("--start", start, 0)
    at_least("--jobs", jobs, 1)
    at_least("--max-deals", max_deals, 1)
    at_least("--bootstrap", resamples, 100)
    within("--confidence", confidence, 0.5, 0.999)
    require_extra("sim", f"mushka {name}", STATS_MODULES)
    return lang_


def prepare_outputs(csv_file: Path | None, plots: Path | None, records: Path | None) -> None:
    """Create the output directories before any game is played, so that a
    path that cannot be written fails at once instead of after a long run."""
    try:
        if csv_file is not None:
            if csv_file.is_dir():
                raise IsADirectoryError(21, "is a directory", str(csv_file))
            csv_file.parent.mkdir(parents=True, exist_ok=True)
            with csv_file.open("a", encoding="utf-8"):
                pass
        for directory in (plots, records):
            if directory is not None:
                directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SimulationError("cannot_write", path=str(exc.filename or csv_file), problem=exc.strerror) from None


def register(app: typer.Typer) -> None:
    """Add ``simulate`` to the app."""

    @command(app)
    def simulate(
        games: Annotated[int, typer.Option("--games", "-n", help="Games to play.")] = 1000,
        bots: BotsOpt = None,
        variant: VariantOpt = "classic",
        players: PlayersOpt = None,
        option: OptionArgs = None,
        seed: Annotated[int, seed_option("Seed of the run; game i has its own seed derived from it.")] = 1,
        start: Annotated[int, typer.Option("--start", help="Index of the first game (to play "
                                           "again part of a run).")] = 0,
        rotate: Annotated[bool, typer.Option("--rotate", help="Move the bots one seat on every game.")] = False,
        max_deals: MaxDealsOpt = None,
        jobs: JobsOpt = None,
        cluster: ClusterOpt = "local",
        runtime_env: RuntimeEnvOpt = None,
        confidence: ConfidenceOpt = 0.95,
        as_json: JsonOpt = False,
        csv_file: Annotated[Path | None, typer.Option("--csv", help="Write one row per game to this file.")] = None,
        plots: Annotated[Path | None, typer.Option("--plots", help="Write PNG plots into this directory.")] = None,
        records: Annotated[Path | None, typer.Option("--records", help="Write every game's record (JSON) "
                                                     "into this directory.")] = None,
        progress: ProgressOpt = None,
        lang: LangOpt = None,
    ) -> None:
        """Play many games between bots and print statistics with confidence intervals."""
        lang_ = checked_run("simulate", lang, games=games, jobs=jobs, max_deals=max_deals, confidence=confidence,
                            start=start)
        if plots is not None:
            require_extra("sim", "mushka simulate --plots", ("matplotlib",))
        from mushka.sim.summary import render_summary, summarise_run, write_csv

        cluster = check_cluster(cluster)
        env = parse_runtime_env(runtime_env)
        rules = build_rules(variant, players, option)
        seats = seat_bots(split_bot_specs(bots or ["random"]), rules)
        plan = simulation_jobs(seats, games, seed, start=start, rotate=rotate)
        prepare_outputs(csv_file, plots, records)
        stats, elapsed, where = play_plan(SimTable.of(rules), plan, cluster=cluster, workers=jobs or default_jobs(),
                                          runtime_env=env, progress=progress, lang=lang_, max_deals=max_deals,
                                          track=start + PLOT_GAMES if plots is not None else 0,
                                          records=records, base_seed=seed)
        summary = summarise_run(stats, rules, seed=seed, start=start, max_deals=max_deals,
                                confidence=confidence, seconds=elapsed, workers=where.cpus, where=where.to_json())
        files: list[str] = []
        if csv_file is not None:
            write_csv(csv_file, stats, rules)
            files.append(str(csv_file))
        if plots is not None:
            from mushka.sim.plots import write_plots

            files += [str(p) for p in write_plots(stats, plots, kopilka=not rules.has_trumps, lang=lang_)]
        if records is not None:
            files.append(str(records))
        summary["files"] = files
        if as_json:
            sys.stdout.write(json.dumps(summary, ensure_ascii=False) + "\n")
            return
        render_summary(summary, lang_, console)
        for f in files:
            console.print(tr("sim.wrote", lang_, path=f))


add_texts({
    "sim.playing": ("playing", "игра идёт"),
    "sim.wrote": ("Wrote {path}", "Записано: {path}"),
    "sim.interrupted": ("Interrupted after {done} of {total} games; the games not yet played were cancelled.",
                        "Прервано после {done} игр из {total}; ещё не сыгранные игры отменены."),
    "error.bad_runtime_env": (
        "--runtime-env {value!r} is not a JSON object or a JSON file ({problem}); "
        "e.g. '{{\"working_dir\": \".\"}}'",
        "--runtime-env {value!r}: нужен объект JSON или файл JSON ({problem}); "
        "например '{{\"working_dir\": \".\"}}'",
    ),
})
