"""Helpers shared by the subcommands: options, language, errors.

Every option or argument that more than one subcommand takes is defined here once,
with its help text, so that the same flag reads the same in every ``--help``.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from functools import wraps
from pathlib import Path
from typing import Annotated, Any, NoReturn, ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from mushka.errors import MushkaError
from mushka.i18n import add_texts, tr
from mushka.records import MAX_RECORD_BYTES
from mushka.rules import Rules, make_rules, parse_assignment

P = ParamSpec("P")
R = TypeVar("R")

console = Console(highlight=False, soft_wrap=True)
err_console = Console(stderr=True, highlight=False, soft_wrap=True)

VARIANT_HELP = "classic/обычная, mistigri/мистигри, kopilka/копилка."
"""How a variant is named on the command line, as an option or as an argument."""

OptionArgs = Annotated[
    list[str] | None,
    typer.Option("-o", "--option", help="House rule as name=value (repeatable); see `mushka rules`."),
]
VariantOpt = Annotated[str, typer.Option("--variant", "-v", help=VARIANT_HELP)]
PlayersOpt = Annotated[int | None, typer.Option("--players", "-p", help="Number of players (default: 4).")]
LangOpt = Annotated[
    str | None,
    typer.Option("--lang", "-l", help="Language of the output: en or ru (default: from $LANG)."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object for machines.")]
RecordArg = Annotated[Path, typer.Argument(help="A game record (JSON); '-' reads standard input.")]


def seed_option(help: str | None = None) -> Any:
    """``--seed``/``-s`` with what the seed decides in this command (Typer's option object)."""
    return typer.Option("--seed", "-s", help=help)


def pick_lang(lang: str | None) -> str:
    """The output language: ``--lang``, else ``$MUSHKA_LANG`` or ``$LANG``, else English."""
    if lang:
        if lang not in ("en", "ru"):
            raise typer.BadParameter("use en or ru", param_hint="--lang")
        return lang
    env = os.environ.get("MUSHKA_LANG") or os.environ.get("LANG", "")
    return "ru" if env.lower().startswith("ru") else "en"


def build_rules(variant: str, players: int | None, options: Sequence[str] | None) -> Rules:
    """Rules from the command line (``--variant``, ``--players``, ``-o name=value``)."""
    pairs = dict(parse_assignment(o) for o in options or ())
    return make_rules(variant, players, **pairs)


def refuse(label: str, message: str, *, as_json: bool = False, payload: Mapping[str, object] | None = None) -> NoReturn:
    """End the command with exit code 2: with ``--json`` the ``payload`` as one JSON object on
    standard output, else ``label`` in red and ``message`` as one line on standard error."""
    if as_json:
        print(json.dumps(payload, ensure_ascii=False))
    else:
        err_console.print(f"[bold red]{escape(label)}[/] {escape(message)}")
    raise typer.Exit(2)


def friendly_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Print a :class:`MushkaError` as one clear line (exit code 2) instead of a trace."""

    @wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except MushkaError as exc:
            lang = kwargs.get("lang")
            lang_ = pick_lang(lang if isinstance(lang, str) else None)
            refuse(tr("cli.error", lang_), exc.message(lang_))

    return wrapper


def command(app: typer.Typer) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Register a subcommand on ``app`` whose :class:`MushkaError` is one line and exit code 2
    (:func:`friendly_errors`): ``@command(app)`` over the function Typer reads the options of."""

    def register(func: Callable[P, R]) -> Callable[P, R]:
        wrapped = friendly_errors(func)
        app.command()(wrapped)
        return wrapped

    return register


add_texts({"cli.error": ("error:", "ошибка:")})


def read_record_bytes(file: Path) -> bytes:
    """The bytes of ``file`` (``-``: standard input), at most one past the records' size
    limit: the reader then refuses them as too long, and an endless input (``/dev/zero``)
    is never held whole.  Bytes, so that the reader says clearly when they are not UTF-8."""
    if str(file) == "-":
        return sys.stdin.buffer.read(MAX_RECORD_BYTES + 1)
    with file.open("rb") as stream:
        return stream.read(MAX_RECORD_BYTES + 1)
