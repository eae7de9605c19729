"""Levels for people: named opponents from beginner to expert.

People choose an opponent by how well it plays, not by its algorithm.  A
:class:`Level` has a stable id (``beginner``, ``casual``, ``club``,
``strong``, ``expert``: what a front end stores and sends), a name and a
one-line description in English and Russian, and the bot spec that plays
it.  The spec behind a level may change from release to release as the bots
get stronger; the id and its place in the order do not.

Every level id is also a bot name: ``make_bot("expert")`` builds the level's
bot (named after the level, so that reports and score sheets say
``expert``).  :func:`strongest_bot` is the spec of the strongest fair level:
what benchmarks measure against and what a table seats when nobody chose.

A level may play another spec at some tables (a variant and a number of
players): where the measurement of the levels' order at that table
(``bench/levels_order.py``) found its spec no better than the one below
it, it plays there the spec that measured best, so that no level is
weaker than the one below it wherever it is offered.  :meth:`Level.spec_for`
says which spec plays at a table, :func:`level_table` lists them all, and a
level's bot (``make_bot("expert")``, :meth:`Level.make`) reads the table
from the first view it is shown and plays that table's spec, so the
server, the terminal and the simulations seat the right one without
knowing about it.

The ratings are measured (``docs/bots.md``, ``bench/bots_strength.py``):
a level's money per game at a classic table of four against three club
players, on duplicate deals (so ``club`` is 0 by definition, and a level
rated +3 takes 3 points a game more than a club player would in its seat).
The search levels were measured with their budget in playouts and
``seconds=0`` (reproducible): ``strong`` on 336 seeds (200-247, 600-647
and 1000-1239), ``expert`` on 288 (600-647 and 1000-1239).  ``None``
means not measured yet.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from mushka.bots.base import Bot, make_bot, register_bot
from mushka.engine import Action
from mushka.errors import OptionsError
from mushka.i18n import add_text_file, tr
from mushka.match import GameView
from mushka.rules import Rules
from mushka.rules.variants import VARIANTS, find_variant

Table = tuple[str, int]
"""A table: the variant's canonical name and the number of players."""


def offered_tables() -> list[Table]:
    """Every table a level is offered at: each variant at each number of players it allows (C1, K1)."""
    return [(v.name, p) for v in VARIANTS.values() for p in v.players]


def table_of(variant: object, players: object) -> Table:
    """``(variant, players)`` as a :data:`Table` (a variant's alias becomes its name).

    An unknown variant or a number of players the variant does not allow
    raises the rules' own :class:`OptionsError` (``unknown_variant``;
    ``bad_players`` naming C1 or K1).
    """
    info = find_variant(variant)
    if isinstance(players, bool) or not isinstance(players, int) or players not in info.players:
        Rules.make(info.name, players)  # raises the error the rules give for that table
        raise OptionsError("bad_players", rule=info.rule_prefix + "1", variant=info, players=players,
                           allowed=", ".join(map(str, info.players)))
    return info.name, players


@dataclass(frozen=True)
class Level:
    """One level of play offered to people."""

    id: str
    """The stable id (what front ends store and send; also a bot name)."""
    spec: str
    """The bot spec that plays this level today (may change between releases)."""
    rating: float | None = None
    """Money per game against three club players (classic, 4 players, duplicate deals); ``None`` until measured."""
    tables: tuple[tuple[str, int, str], ...] = ()
    """Where the level plays another spec than :attr:`spec`: ``(variant, players, spec)``, each
    chosen by the measurement of the levels' order at that table (docs/bots.md)."""

    def spec_for(self, variant: object, players: object) -> str:
        """The bot spec that plays this level at a table of ``variant`` with ``players`` players.

        Raises :class:`OptionsError` for a table no variant offers (C1, K1).
        """
        name, count = table_of(variant, players)
        return next((spec for v, p, spec in self.tables if (v, p) == (name, count)), self.spec)

    def title(self, lang: str = "en") -> str:
        """The level's name in ``lang`` (``en`` or ``ru``)."""
        return tr(f"level.{self.id}", lang)

    def blurb(self, lang: str = "en") -> str:
        """One line on how the level plays, in ``lang``."""
        return tr(f"level.{self.id}.blurb", lang)

    def describe(self, lang: str = "en") -> dict[str, object]:
        """What a front end shows: id, name, description, rating (JSON-ready)."""
        return {"id": self.id, "name": self.title(lang), "blurb": self.blurb(lang), "rating": self.rating}

    def make(self, variant: object = None, players: object = None) -> Bot:
        """A fresh bot that plays this level, named after it.

        With a table (``variant`` and ``players``) it is that table's spec
        (:meth:`spec_for`); without, a :class:`LevelBot` that plays the spec
        of whatever table its first view shows.
        """
        if variant is None and players is None:
            return LevelBot(self)
        bot = make_bot(self.spec_for(variant, players))
        bot.name = self.id
        return bot


class LevelBot:
    """A level's bot that learns its table from what it is shown.

    Every view carries the table's rules, so the first decision says the
    variant and the number of players, and from then on the bot plays the
    level's spec for that table (:meth:`Level.spec_for`).  It keeps one bot
    per table it has seen, so a bot that remembers across a game (the
    search's beliefs) goes on remembering; a view of the same table gets
    exactly the choice that table's spec would make on its own.
    """

    def __init__(self, lv: Level) -> None:
        self.level = lv
        """The level played."""
        self.name = lv.id
        """The level's id, what reports and score sheets say."""
        self._bots: dict[Table, tuple[str, Bot]] = {}
        self._current: tuple[str, Bot] | None = None

    @property
    def spec(self) -> str | None:
        """The spec played at the table of the last view (``None`` before the first)."""
        return None if self._current is None else self._current[0]

    @property
    def times(self) -> list[float]:
        """Seconds of each decision that needed thought, of the bot of the last table (empty if none)."""
        got = getattr(self._current[1], "times", []) if self._current else []
        return got if isinstance(got, list) else []

    @property
    def seconds(self) -> float:
        """The time cap of a decision at the last table (that spec's ``seconds``; 0: none or no search)."""
        got = getattr(self._current[1], "seconds", 0.0) if self._current else 0.0
        return float(got) if isinstance(got, (int, float)) else 0.0

    def choose(self, view: GameView, rng: random.Random) -> Action:
        """The choice of the level's spec for the table of ``view``."""
        rules = view.deal.rules
        table = (rules.variant, rules.players)
        current = self._bots.get(table)
        if current is None:
            current = self._bots[table] = (self.level.spec_for(*table), self.level.make(*table))
        self._current = current
        bot = current[1]
        return bot.choose(view, rng)


LEVELS: tuple[Level, ...] = (
    Level("beginner", "novice:mistakes=0.05,slips=0.4,memory=0.3,eager=0.5", -26.2),
    Level("casual", "novice:mistakes=0.02,slips=0.15,memory=0.6,eager=0.2", -14.2),
    Level("club", "heuristic", 0.0),
    # Where a level plays another spec: by the rule of the measurement of the order at every table
    # (docs/bots.md, "The levels' order at every table"; bench/results/levels-2026-12-07.jsonl): a level
    # whose mean over the level below, paired, is below zero at a table plays the spec below it there.
    Level("strong", "search:iterations=600,seconds=0.3", 9.3, tables=(
        ("classic", 7, "heuristic"),  # − club −0.3 [−5.2, +4.5] over 50 seeds
    )),
    # 2000 playouts a declaration (declare=4), 500 a trick decision in worlds weighed by what
    # the others' declarations and plays say (believe=2, seat by seat): runs 29 and 33 of
    # docs/bots-runs.md, +2.5 [+0.8, +4.3] a game over 2000 playouts everywhere.
    Level("expert", "search:iterations=500,seconds=0.3,declare=4,believe=2,belief=1,seatwise=1,believe_phases=2",
          14.2, tables=(
              # − strong −4.0 [−10.3, +2.3] on 60 fresh seeds; it reads nothing of the others in
              # kopilka, so there it is strong's search with less budget in the tricks
              ("kopilka", 4, "search:iterations=600,seconds=0.3"),
              # − strong below zero on the few seeds measured (3 each): −0.5, −11.0, −28.3, −30.3
              ("classic", 3, "search:iterations=600,seconds=0.3"),
              ("classic", 5, "search:iterations=600,seconds=0.3"),
              ("mistigri", 5, "search:iterations=600,seconds=0.3"),
              ("mistigri", 6, "search:iterations=600,seconds=0.3"),
              ("classic", 7, "heuristic"),  # − club −14.8 on 2 seeds, and strong plays the club level there
          )),
)
"""Every level, weakest first (the order is part of the contract)."""

DEFAULT_LEVEL = LEVELS[-1].id
"""The level a front end proposes first: the strongest fair one (:func:`default_opponent`
seats it when nobody chose; each of its moves is bounded in time)."""


def levels() -> list[Level]:
    """Every level, weakest first."""
    return list(LEVELS)


def level_ids() -> list[str]:
    """The stable ids of the levels, weakest first."""
    return [lv.id for lv in LEVELS]


def level(level_id: str) -> Level:
    """The level with id ``level_id``, or an :class:`OptionsError` naming the known ones."""
    for lv in LEVELS:
        if lv.id == level_id:
            return lv
    raise OptionsError("unknown_level", name=level_id, known=", ".join(level_ids()))


def describe_levels(lang: str = "en") -> list[dict[str, object]]:
    """Every level as a front end shows it (id, name, description, rating), weakest first."""
    return [lv.describe(lang) for lv in LEVELS]


def measured_spec(spec: str) -> str:
    """``spec`` as the measurements play it: a search's time cap removed (``seconds=0``), so that
    a result depends only on the seed, not on the machine's load; other specs unchanged."""
    name, _, opts = spec.partition(":")
    if name not in ("search", "ismcts"):
        return spec
    kept = [o for o in filter(None, opts.split(",")) if o.partition("=")[0] != "seconds"]
    at = next((k + 1 for k, o in enumerate(kept) if o.partition("=")[0] == "iterations"), 0)
    kept.insert(at, "seconds=0")
    return f"{name}:{','.join(kept)}"


def make_table_bot(spec: str, variant: object, players: object) -> Bot:
    """A bot from ``spec`` for a table of ``variant`` with ``players`` players.

    A level's id gives that level's bot for the table (:meth:`Level.make`:
    the spec it plays there, named after the level); any other spec is
    :func:`~mushka.bots.base.make_bot`'s.  Where the table is known before
    the first move (a simulation, the terminal), this builds the very bot
    the level plays there, so that whoever drives it sees its kind.
    """
    name = spec.partition(":")[0].strip()
    for lv in LEVELS:
        if lv.id == name and name == spec.strip():
            return lv.make(variant, players)
    return make_bot(spec)


def level_table() -> dict[Table, dict[str, str]]:
    """Every offered table and, for each level (weakest first), the spec that plays it there."""
    return {table: {lv.id: lv.spec_for(*table) for lv in LEVELS} for table in offered_tables()}


def strongest_bot(variant: str | None = None, players: int | None = None) -> str:
    """The bot spec of the strongest fair level at a table of ``variant`` with ``players`` players.

    Benchmarks and the default opponent use it.  Without a table, the
    level's spec at the tables that do not differ (the one it is rated by,
    classic 4).  Raises :class:`OptionsError` for a table no variant offers.
    """
    if variant is None and players is None:
        return LEVELS[-1].spec
    return LEVELS[-1].spec_for(variant, players)


def strongest_level() -> str:
    """The id of the strongest fair level (the one :func:`strongest_bot` plays)."""
    spec = strongest_bot()
    return next((lv.id for lv in LEVELS if lv.spec == spec), LEVELS[-1].id)


def default_opponent(offered: list[str]) -> str:
    """The opponent a front end seats when nobody chose, among the bot names ``offered``.

    The strongest fair level when offered, else the strongest level offered,
    else the heuristic bot, else random.  Every search level is bounded in
    time per decision (``seconds=``), so the strongest keeps a table's pace;
    the browser table and ``mushka play`` both seat it (docs/play.md).
    """
    for name in (strongest_level(), *reversed(level_ids()), "heuristic"):
        if name in offered:
            return name
    return "random"


def opponent_title(spec: str, lang: str = "en") -> str:
    """What a player reads for the bot ``spec``: a level's name (``Expert``), else the spec itself."""
    for lv in LEVELS:
        if lv.id == spec:
            return lv.title(lang)
    return spec


def _level_factory(lv: Level) -> Callable[[], Bot]:
    def factory() -> Bot:
        return lv.make()

    factory.__doc__ = f"The {lv.id} level ({lv.spec})."
    return factory


for _lv in LEVELS:
    register_bot(_lv.id, _level_factory(_lv), level_spec=_lv.spec)


add_text_file("mushka.bots", "levels.toml")
