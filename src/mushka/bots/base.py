"""The bot protocol, the random bot, the registry and a driver.

A :class:`Bot` receives only its seat's :class:`~mushka.match.GameView`
(never the state) and a :class:`random.Random`, and returns a legal action
(STYLE 7: a bot that only gets a view cannot cheat).  Bots are found by name
in :data:`BOTS` (``random``, and the others as their modules register).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from mushka.engine import Action, Deal
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


def register_bot(name: str, factory: BotFactory) -> None:
    """Make a bot available by ``name`` (to the CLI, simulations, the server)."""
    BOTS[name] = factory


def make_bot(spec: str) -> Bot:
    """A bot from a spec such as ``random`` or ``search:iterations=200``."""
    name, _, args = spec.partition(":")
    _load_builtin()
    factory = BOTS.get(name.strip())
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(sorted(BOTS))}")
    kwargs: dict[str, object] = {}
    for part in filter(None, (p.strip() for p in args.split(","))):
        key, _, value = part.partition("=")
        kwargs[key.strip()] = _number(value.strip())
    return factory(**kwargs)


def _number(text: str) -> object:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _load_builtin() -> None:
    """Import the bot modules that register themselves (if present)."""
    import importlib

    for module in ("mushka.bots.heuristic", "mushka.bots.search", "mushka.bots.oracle"):
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
