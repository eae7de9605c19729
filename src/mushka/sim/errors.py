"""Errors of the simulation tools, in the project's one exception family.

Bad input to a simulation or a tournament (a value a bot refuses, the wrong number
of bots for the table, an impossible tournament) raises
:class:`SimulationError`, a :class:`~mushka.errors.MushkaError`, so the
command line prints it in English or Russian like every other error.
"""

from __future__ import annotations

from mushka.errors import MushkaError
from mushka.i18n import add_texts


class SimulationError(MushkaError):
    """A simulation or tournament that cannot be run as asked; nothing was played."""


def at_least(what: str, value: int | None, least: int) -> None:
    """Refuse a count below ``least`` (``None`` means not given and passes)."""
    if value is not None and value < least:
        raise SimulationError("bad_count", what=what, least=least, value=value)


def require_extra(extra: str, what: str, modules: tuple[str, ...]) -> None:
    """Refuse to start when a module of an optional extra is missing, naming the extra to install."""
    import importlib

    missing = []
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError:
            missing.append(module)
    if missing:
        raise SimulationError("needs_extra", extra=extra, what=what, modules=", ".join(missing))


def within(what: str, value: float, low: float, high: float) -> None:
    """Refuse a number outside ``[low, high]``."""
    if not low <= value <= high:
        raise SimulationError("bad_range", what=what, low=low, high=high, value=value)


add_texts({
    "error.needs_extra": (
        "{what} needs the optional '{extra}' part of mushka ({modules}): pip install 'mushka[{extra}]'",
        "для {what} нужна необязательная часть mushka «{extra}» ({modules}): pip install 'mushka[{extra}]'",
    ),
    "error.bad_bot_spec": (
        "bot {spec!r} cannot be built: {problem} (a bot is given as name or name:key=value,...)",
        "бота {spec!r} нельзя создать: {problem} (бот задаётся как имя или имя:ключ=значение,...)",
    ),
    "error.bot_count": (
        "{count} bots for a table of {players} ({variant} is played by {allowed}): "
        "give one bot for every seat or one bot for all",
        "{count} ботов на стол из {players} ({variant}: {allowed} игроков): "
        "укажите бота для каждого места или одного бота для всех",
    ),
    "error.no_bots": (
        "no bot given; use e.g. --bots random or --bots heuristic,random,random,random",
        "не указан ни один бот; например --bots random или --bots heuristic,random,random,random",
    ),
    "error.tournament_entrants": (
        "a {format} tournament needs at least {need} bots; got {count}: {bots}",
        "для турнира {format} нужно не меньше {need} ботов; дано {count}: {bots}",
    ),
    "error.bad_tournament_format": (
        "unknown tournament format {name!r}; use round-robin, mixed or gauntlet",
        "неизвестный вид турнира {name!r}; используйте round-robin, mixed или gauntlet",
    ),
    "error.bad_seatings": (
        "unknown seatings {name!r}; use rotate or all",
        "неизвестная рассадка {name!r}; используйте rotate или all",
    ),
    "error.bad_range": (
        "{what} must lie between {low} and {high}, not {value}",
        "{what}: нужно значение от {low} до {high}, а не {value}",
    ),
    "error.cannot_write": (
        "cannot write {path}: {problem}", "нельзя записать {path}: {problem}",
    ),
    "error.bad_count": (
        "{what} must be at least {least}, not {value}",
        "{what}: нужно не меньше {least}, а не {value}",
    ),
})
