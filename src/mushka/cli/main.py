"""The ``mushka`` command: one Typer app, subcommands registered by module."""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    name="mushka",
    help="Мушка: classic, mistigri and kopilka. Play, replay, simulate and study.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
)

# Each module defines ``register(app)``; keep this list in the order of `mushka --help`.
COMMAND_MODULES = [
    "mushka.cli.demo",
    "mushka.cli.replay_cmd",
    "mushka.cli.rules_cmd",
    "mushka.cli.bench_cmd",
    "mushka.cli.play_cmd",
    "mushka.cli.simulate_cmd",
    "mushka.cli.tournament_cmd",
    "mushka.cli.serve_cmd",
]

for _name in COMMAND_MODULES:
    importlib.import_module(_name).register(app)


def main() -> None:
    """Entry point of the ``mushka`` console script."""
    app()
