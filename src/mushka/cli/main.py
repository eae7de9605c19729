"""The ``mushka`` command: one Typer app, subcommands registered by module."""

from __future__ import annotations

import importlib
from typing import Annotated

import typer
import typer.core

from mushka import __version__

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
    "mushka.cli.review_cmd",
    "mushka.cli.rules_cmd",
    "mushka.cli.bench_cmd",
    "mushka.cli.play_cmd",
    "mushka.cli.simulate_cmd",
    "mushka.cli.tournament_cmd",
    "mushka.cli.serve_cmd",
    "mushka.cli.db_cmd",
    "mushka.cli.reports_cmd",
]

for _name in COMMAND_MODULES:
    importlib.import_module(_name).register(app)

_display_type = typer.core.TyperOption.display_type_rich


def _flag_without_type(self: typer.core.TyperOption, ctx: typer.Context) -> str | None:
    """A flag (--help, --json, --events/--summary) takes no value: no ``<bool>`` beside it in --help."""
    return None if self.is_flag else _display_type(self, ctx)


typer.core.TyperOption.display_type_rich = _flag_without_type  # type: ignore[method-assign,assignment]


def _print_version(value: bool) -> None:
    if value:
        print(f"mushka {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool | None, typer.Option("--version", callback=_print_version, is_eager=True,
                                                 help="Print the version and exit.")] = None,
) -> None:
    """Мушка: classic, mistigri and kopilka. Play, replay, simulate and study."""


def main() -> None:
    """Entry point of the ``mushka`` console script."""
    app()
