"""The bot protocol, the random bot, the registry and a driver.

A :class:`Bot` receives only its seat's :class:`~mushka.match.GameView`
(never the state) and a :class:`random.Random`, and returns a legal action
(STYLE 7: a bot that only gets a view cannot cheat).  Bots are found by name
in :data:`BOTS` (``random``, and the others as their modules register).
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from mushka.engine import Action, Deal
from mushka.errors import OptionsError
from mushka.i18n import add_texts
from mushka.match import Game, GameView
from mushka.rules import Rules


@runtime_checkable
class Bot(Protocol):
    """Anything that picks an action from a seat's view."""

    name: str
    """A short name for reports (``random``, ``heuristic`` …)."""

    def choose(self, view: GameView, rng: random.Random) -> Action:
        """Return one of ``view.deal.legal`` (the seat is ``view.seat``)."""
        ...


class RandomBot:
    """Chooses uniformly among the legal actions."""

    name = "random"

    def choose(self, view: GameView, rng: random.Random) -> Action:
        """A uniformly random legal action."""
        return rng.choice(view.deal.legal)


BotFactory = Callable[..., Bot]

BOTS: dict[str, BotFactory] = {"random": RandomBot}
"""Bot factories by name; keyword arguments configure them (e.g. a budget)."""

RESEARCH_ONLY: set[str] = set()
"""Registered bots that are not fair opponents (the oracle sees every card)."""


def register_bot(name: str, factory: BotFactory, *, fair: bool = True) -> None:
    """Make a bot available by ``name`` (to the CLI, simulations, the server).

    ``fair=False`` marks a research tool that needs more than a view (the
    oracle): it stays buildable by name, but :func:`fair_bots` leaves it out.
    """
    BOTS[name] = factory
    if fair:
        RESEARCH_ONLY.discard(name)
    else:
        RESEARCH_ONLY.add(name)


def fair_bots() -> list[str]:
    """The names of the bots a person may be offered as opponents (every built-in one loaded)."""
    _load_builtin()
    return sorted(name for name in BOTS if name not in RESEARCH_ONLY)


def make_bot(spec: str) -> Bot:
    """A bot from a spec such as ``random`` or ``search:iterations=200``.

    Raises :class:`~mushka.errors.OptionsError` naming the problem for an
    unknown bot, a parameter the bot does not take, or a bad value.
    """
    name, _, args = spec.partition(":")
    name = name.strip()
    _load_builtin()
    factory = BOTS.get(name)
    if factory is None:
        raise OptionsError("unknown_bot", name=name, known=", ".join(sorted(BOTS)))
    accepted = _parameters(factory)
    kwargs: dict[str, object] = {}
    for part in filter(None, (p.strip() for p in args.split(","))):
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq or not key:
            raise OptionsError("bad_bot_syntax", bot=name, text=part)
        if accepted == [] and isinstance(getattr(factory, "level_spec", None), str):
            # A level is a name for people; its bot is tuned through the spec behind it.
            raise OptionsError("level_no_params", bot=name, param=key, spec=factory.level_spec)  # type: ignore[attr-defined]
        if accepted is not None and key not in accepted:
            raise OptionsError("bad_bot_param", bot=name, param=key,
                               known=", ".join(accepted) or "—")
        kwargs[key] = _number(value.strip())
    return factory(**kwargs)


def _parameters(factory: BotFactory) -> list[str] | None:
    """The keyword parameters a factory takes (``None`` if it takes any)."""
    try:
        params = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind is p.VAR_KEYWORD for p in params):
        return None
    return [p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
            and not p.name.startswith("_") and p.name != "peek"]


def _number(text: str) -> object:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def check_number(bot: str, param: str, value: object, low: float, high: float | None = None) -> float:
    """``value`` as a number within [low, high], or an :class:`OptionsError` naming it (for bot factories)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise OptionsError("bad_bot_number", bot=bot, param=param, value=value)
    if value < low or (high is not None and value > high):
        top = "∞" if high is None else f"{high:g}"
        raise OptionsError("bad_bot_range", bot=bot, param=param, value=value, low=f"{low:g}", high=top)
    return float(value)


def _load_builtin() -> None:
    """Import the bot modules that register themselves (if present)."""
    import importlib

    for module in ("mushka.bots.heuristic", "mushka.bots.novice", "mushka.bots.search", "mushka.bots.ismcts",
                   "mushka.bots.oracle", "mushka.bots.levels"):
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise


def deal_game_view(deal: Deal, seat: int | None) -> GameView:
    """A :class:`GameView` around a lone deal (for bots playing single deals)."""
    money: tuple[int, ...] = tuple(getattr(deal, "balances", (0,) * deal.n))
    return GameView(deal=deal.view(seat), number=1, history=(), money=money,
                    pot=int(getattr(deal, "pot", 0)))


def play_game(game: Game, bots: Sequence[Bot], rng: random.Random) -> Game:
    """Play ``game`` to its end, each seat choosing through its bot's view."""
    if len(bots) != game.n:
        raise ValueError(f"{len(bots)} bots for {game.n} seats")
    while not game.is_over:
        seat = game.to_act
        action = bots[seat].choose(game.view(seat), rng)
        game.apply(action, seat)
    return game


def play_deal(deal: Deal, bots: Sequence[Bot], rng: random.Random) -> Deal:
    """Play one deal to its end with ``bots``."""
    while not deal.is_over:
        seat = deal.to_act
        deal.apply(bots[seat].choose(deal_game_view(deal, seat), rng), seat)
    return deal


def rules_of(view: GameView) -> Rules:
    """The rules of the table a view belongs to."""
    return view.deal.rules


add_texts({
    "error.unknown_bot": ("unknown bot {name!r}; known: {known}", "неизвестный бот {name!r}; известны: {known}"),
    "error.bad_bot_syntax": ("bot {bot!r}: {text!r} is not of the form name=value",
                             "бот {bot!r}: {text!r} не имеет вид имя=значение"),
    "error.bad_bot_param": ("bot {bot!r} has no parameter {param!r}; its parameters: {known}",
                            "у бота {bot!r} нет параметра {param!r}; его параметры: {known}"),
    "error.level_no_params": ("{bot!r} is a level and takes no parameters ({param!r} was given); it is played by "
                              "{spec}: give that spec with your own parameters",
                              "{bot!r} — уровень, параметров у него нет (задан {param!r}); за него играет "
                              "{spec}: задайте эту строку со своими параметрами"),
    "error.bad_bot_number": ("bot {bot!r}: {param} must be a number, not {value!r}",
                             "бот {bot!r}: {param} должно быть числом, а не {value!r}"),
    "error.bad_bot_range": ("bot {bot!r}: {param} must be from {low} to {high}, not {value}",
                            "бот {bot!r}: {param} должно быть от {low} до {high}, а не {value}"),
    "error.bot_needs_budget": ("bot {bot!r} needs a budget: iterations > 0 or seconds > 0",
                               "боту {bot!r} нужен бюджет: iterations > 0 или seconds > 0"),
})
