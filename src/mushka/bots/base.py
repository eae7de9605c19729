"""The bot protocol, the random bot, the registry and a driver.

A :class:`Bot` receives only its seat's :class:`~mushka.match.GameView`
(never the state) and a :class:`random.Random`, and returns a legal action
(STYLE 7: a bot that only gets a view cannot cheat).  Bots are found by name
in :data:`BOTS` (``random``, and the others as their modules register; the
package imports every built-in module), each with the knobs its spec may set.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol, runtime_checkable

from mushka.engine import Action, Deal
from mushka.errors import OptionsError
from mushka.i18n import add_text_file
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


@dataclass(frozen=True, slots=True)
class Knob:
    """One parameter a bot's spec may set: its name, its range and what its number becomes."""

    name: str
    low: float
    high: float | None = None
    read: Callable[[float], object] = float
    """How the checked number becomes the setting (``int``, ``bool``, an enum of the bot's)."""

    def value(self, bot: str, given: object) -> object:
        """``given`` checked against the range (:func:`check_number`) and read."""
        return self.read(check_number(bot, self.name, given, self.low, self.high))


@dataclass(frozen=True, slots=True)
class BotKind:
    """A bot as registered: how it is built and what its spec may set.

    With ``config`` (a frozen dataclass whose fields are the ``knobs``) the
    bot is ``factory(config)``; without, ``factory(**options)`` with the
    ``params`` given, read as numbers where they are numbers (the factory
    checks them itself).  A ``level_spec`` marks a level: a name for people,
    with no parameters of its own.
    """

    factory: BotFactory
    config: Callable[..., object] | None = None
    knobs: tuple[Knob, ...] = ()
    params: tuple[str, ...] = ()
    level_spec: str | None = None

    def parameters(self) -> tuple[str, ...]:
        """The names a spec may set."""
        return tuple(k.name for k in self.knobs) if self.config is not None else self.params

    def configure(self, name: str, options: list[tuple[str, str]]) -> object:
        """The configuration a spec's ``options`` give (checked), or an :class:`OptionsError`."""
        known = self.parameters()
        for key, _ in options:
            if self.level_spec is not None:
                # A level is a name for people; its bot is tuned through the spec behind it.
                raise OptionsError("level_no_params", bot=name, param=key, spec=self.level_spec)
            if key not in known:
                raise OptionsError("bad_bot_param", bot=name, param=key, known=", ".join(known) or "—")
        if self.config is None:
            return {key: _number(text) for key, text in options}
        knobs = {k.name: k for k in self.knobs}
        return self.config(**{key: knobs[key].value(name, _number(text)) for key, text in options})

    def build(self, config: object) -> Bot:
        """A fresh bot of ``config`` (from :meth:`configure`)."""
        if self.config is None:
            assert isinstance(config, dict)
            return self.factory(**config)
        return self.factory(config)


BOTS: dict[str, BotKind] = {}
"""Every registered bot by name (``random``, and each bot module's own as it registers them)."""

RESEARCH_ONLY: set[str] = set()
"""Registered bots that are not fair opponents (the oracle sees every card)."""


def register_bot(name: str, factory: BotFactory, *, config: Callable[..., object] | None = None,
                 knobs: tuple[Knob, ...] = (), params: tuple[str, ...] = (), fair: bool = True,
                 level_spec: str | None = None) -> None:
    """Make a bot available by ``name`` (to the CLI, simulations, the server); see :class:`BotKind`.

    Each bot module registers its own bots where they are defined; the
    package imports the built-in modules, so every one is known once
    ``mushka.bots`` is.  ``fair=False`` marks a research tool that needs more
    than a view (the oracle): it stays buildable by name, but
    :func:`fair_bots` leaves it out.
    """
    BOTS[name] = BotKind(factory, config, knobs, params, level_spec)
    parse_spec.cache_clear()  # a spec read before may now name another bot
    if fair:
        RESEARCH_ONLY.discard(name)
    else:
        RESEARCH_ONLY.add(name)


def fair_bots() -> list[str]:
    """The names of the bots a person may be offered as opponents."""
    return sorted(name for name in BOTS if name not in RESEARCH_ONLY)


# Specs already read are kept (a worker that builds the bot of one spec move after move reads
# it once); a bounded cache, since specs may come from the network.
@lru_cache(maxsize=256)
def parse_spec(spec: str) -> tuple[BotKind, object]:
    """The kind and configuration of a spec such as ``search:iterations=200`` (read once, then kept).

    Raises :class:`~mushka.errors.OptionsError` naming the problem for an
    unknown bot, a parameter the bot does not take, or a bad value.
    """
    name = spec.partition(":")[0].strip()
    kind = BOTS.get(name)
    if kind is None:
        raise OptionsError("unknown_bot", name=name, known=", ".join(sorted(BOTS)))
    options: list[tuple[str, str]] = []
    for part in filter(None, (p.strip() for p in spec.partition(":")[2].split(","))):
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq or not key:
            raise OptionsError("bad_bot_syntax", bot=name, text=part)
        options.append((key, value.strip()))
    return kind, kind.configure(name, options)


def make_bot(spec: str) -> Bot:
    """A fresh bot from a spec such as ``random`` or ``search:iterations=200``.

    The spec is read once (:func:`parse_spec`); every call builds a new bot
    of that configuration, so a bot never carries one move's state into
    another's.  Raises :class:`~mushka.errors.OptionsError` naming the
    problem for an unknown bot, a parameter the bot does not take, or a bad
    value.
    """
    kind, config = parse_spec(spec)
    return kind.build(config)


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


register_bot("random", RandomBot)


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


add_text_file("mushka.bots", "base.toml")
