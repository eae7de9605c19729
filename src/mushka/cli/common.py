"""Helpers shared by the subcommands: options, language, errors."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from functools import wraps
from typing import Annotated, ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from mushka.errors import MushkaError
from mushka.i18n import add_texts, tr
from mushka.rules import Rules, make_rules, parse_assignment

P = ParamSpec("P")
R = TypeVar("R")

console = Console(highlight=False, soft_wrap=True)
err_console = Console(stderr=True, highlight=False, soft_wrap=True)

OptionArgs = Annotated[
    list[str] | None,
    typer.Option("-o", "--option", help="House rule as name=value (repeatable); see `mushka rules`."),
]
VariantOpt = Annotated[
    str, typer.Option("--variant", "-v", help="classic/обычная, mistigri/мистигри, kopilka/копилка.")
]
PlayersOpt = Annotated[int | None, typer.Option("--players", "-p", help="Number of players (default: 4).")]
LangOpt = Annotated[
    str | None,
    typer.Option("--lang", "-l", help="Language of the output: en or ru (default: from $LANG)."),
]


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


def friendly_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Print a :class:`MushkaError` as one clear line (exit code 2) instead of a trace."""

    @wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except MushkaError as exc:
            lang = kwargs.get("lang")
            lang_ = pick_lang(lang if isinstance(lang, str) else None)
            message = exc.message(lang_)
            err_console.print(f"[bold red]{escape(tr('cli.error', lang_))}[/] {escape(message)}")
            sys.exit(2)

    return wrapper


add_texts({"cli.error": ("error:", "ошибка:")})
