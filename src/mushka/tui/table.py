"""The game at the terminal, without the terminal: one human seat, bots at the others.

:class:`TerminalTable` owns the :class:`~mushka.match.Game` and is the only thing
that changes it.  Every action, the human's and the bots', goes through the
checked :meth:`Game.apply` with the acting seat, so an illegal choice raises
the engine's :class:`~mushka.errors.IllegalActionError` (which names the rule)
and changes nothing.  Bots get only their own seat's view (STYLE 7).

The table also keeps the log the human reads: every event of the game as the
human seat saw it (:meth:`Event.seen_by`), in the order it happened, deal
starts and score lines included.  The front end (:mod:`mushka.tui.app`)
only renders what this class holds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from mushka.bots import BOTS, Bot, default_opponent, fair_bots, make_bot
from mushka.engine import Action, Event
from mushka.i18n import tr
from mushka.match import DealStarted, DeckSpec, Game, GameView, new_game
from mushka.records import Record, record_of_game
from mushka.rules import Rules
from mushka.tui import texts as _texts  # noqa: F401  (registers the catalogue)

HUMAN_NAME = "human"
"""How the human seat is named in a saved record when he gave no name."""
MAX_NAME = 32
"""The longest name ``--name`` takes (as long as a name at the browser's tables)."""
PERSONAS: dict[str, tuple[str, ...]] = {
    "en": ("Fyodor", "Glasha", "Mitya", "Varya", "Savva", "Dunya", "Tikhon"),
    "ru": ("Фёдор", "Глаша", "Митя", "Варя", "Савва", "Дуня", "Тихон"),
}
"""The names bots play under, by seat (the browser table uses the same)."""


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One line of the human's log: the deal it belongs to and the event as he saw it."""

    deal: int
    """The deal's number, from 1."""
    event: Event


class SetupError(ValueError):
    """A bad ``--bots`` or ``--seat``: the message names the problem in English or Russian."""

    def __init__(self, key: str, **params: object) -> None:
        self.key = key
        self.params = params
        super().__init__(self.message("en"))

    def message(self, lang: str = "en") -> str:
        """The message in ``lang``."""
        return tr(self.key, lang, **self.params)


def player_name(name: str | None) -> str | None:
    """The human's name as ``--name`` gave it, spaces trimmed; ``None`` when not given.

    Refused (:class:`SetupError`) when it is empty, longer than
    :data:`MAX_NAME`, holds a control character, or is a bot's name or
    one of the :data:`PERSONAS` bots play under (the log would not say who).
    """
    if name is None:
        return None
    given = " ".join(name.split())
    if not given:
        raise SetupError("tui.err_name_empty")
    if len(given) > MAX_NAME:
        raise SetupError("tui.err_name_long", name=given[:MAX_NAME] + "…", most=MAX_NAME)
    if not given.isprintable():
        raise SetupError("tui.err_name_control", name=given.encode("unicode_escape").decode("ascii"))
    personas = {p.casefold() for names in PERSONAS.values() for p in names}
    if given.split(":", maxsplit=1)[0] in BOTS or given == HUMAN_NAME or given.casefold() in personas:
        raise SetupError("tui.err_name_bot", name=given)
    return given


def default_bot() -> str:
    """The opponent when ``--bots`` is not given: the one the browser table seats too
    (the strongest fair level, :func:`mushka.bots.default_opponent`)."""
    return default_opponent(fair_bots())


def split_bot_specs(text: str) -> list[str]:
    """Split ``--bots`` into specs: ``random,heuristic`` or ``search:iterations=200,c=2,random``.

    A part that holds ``=`` but no ``:`` continues the arguments of the spec
    before it, so that bot arguments may themselves be separated by commas.
    """
    specs: list[str] = []
    for raw in text.split(","):
        part = raw.strip()
        if not part:
            continue
        if specs and "=" in part and ":" not in part:
            specs[-1] += "," + part
        else:
            specs.append(part)
    return specs


def make_named_bot(spec: str) -> Bot:
    """The bot of ``spec`` from the registry; :class:`SetupError` names a bad one."""
    name = spec.partition(":")[0].strip()
    offered = fair_bots()  # the oracle sees every card: a research tool, not an opponent
    if name not in offered:
        raise SetupError("tui.err_unknown_bot", name=name, known=", ".join(offered))
    try:
        return make_bot(spec)
    except (TypeError, ValueError) as exc:
        raise SetupError("tui.err_bot_spec", spec=spec, problem=str(exc)) from None


def bots_for(specs: Sequence[str], players: int, human: int) -> list[Bot | None]:
    """One bot per seat but the human's (``None`` there).

    ``specs`` is one spec for every bot seat, or exactly one per bot seat in
    seat order.  Raises :class:`SetupError` naming the problem otherwise
    (also for an unknown bot).
    """
    if not 0 <= human < players:
        raise SetupError("tui.err_seat", seat=human, players=players, last=players - 1)
    wanted = players - 1
    if not specs:
        specs = [default_bot()]
    if len(specs) == 1:
        specs = list(specs) * wanted
    elif len(specs) != wanted:
        raise SetupError("tui.err_bot_count", given=len(specs), wanted=wanted)
    bots: list[Bot | None] = []
    it = iter(specs)
    for seat in range(players):
        bots.append(None if seat == human else make_named_bot(next(it)))
    return bots


class TerminalTable:
    """A game between one human seat and bots; see the module docstring."""

    rules: Rules
    game: Game
    human: int
    bots: list[Bot | None]
    seed: int
    log: list[LogEntry]

    def __init__(self, rules: Rules, bots: Sequence[Bot | None], *, human: int = 0,
                 seed: int | None = None, first_dealer: int | None = None,
                 decks: Sequence[DeckSpec] = (), player: str | None = None) -> None:
        """Start a game of ``rules``; ``bots[s]`` plays seat ``s`` (``None`` for the human).

        ``player`` is the human's name (checked by :func:`player_name`): the
        log's sentences and the saved record use it; without it the log says
        "Seat 0" and the record "human".

        ``seed`` fixes the cards, the first dealer and the bots' choices; a
        random one is drawn when it is not given (it is kept in the record).
        ``first_dealer`` and ``decks`` (stacked decks, N4, top first) force
        the chance of the first deals, e.g. to play out a deal from a real table.
        """
        if len(bots) != rules.players:
            raise ValueError(f"{len(bots)} seats given for {rules.players} players")
        if not 0 <= human < rules.players or bots[human] is not None:
            raise ValueError(f"seat {human} must be the human's seat (no bot there)")
        if any(b is None for s, b in enumerate(bots) if s != human):
            raise ValueError("every seat but the human's needs a bot")
        self.rules = rules
        self.human = human
        self.player = player_name(player)
        self.bots = list(bots)
        self.seed = random.randrange(1 << 31) if seed is None else seed
        self.game = new_game(rules, rng=random.Random(self.seed), first_dealer=first_dealer, decks=decks)
        # Each bot draws its randomness from its own generator: a seat's play
        # does not depend on how often another bot consulted its generator.
        self._rngs = [random.Random(self.seed * 1009 + seat + 1) for seat in range(rules.players)]
        self.log = []
        self._logged: list[int] = []  # events of each deal already in the log
        self._game_logged = 0
        self._catch_up()

    # --- state ------------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        """Each seat's name in a record: the human's (``human`` if he gave none) or the bot's."""
        return [(self.player or HUMAN_NAME) if b is None else b.name for b in self.bots]

    def view(self) -> GameView:
        """The game as the human seat sees it."""
        return self.game.view(self.human)

    @property
    def to_act(self) -> int:
        """The seat to act (-1 once the game is over)."""
        return self.game.to_act

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.game.is_over

    @property
    def human_to_act(self) -> bool:
        """Whether the human is to act."""
        return self.game.to_act == self.human

    @property
    def bot_to_act(self) -> int | None:
        """The bot seat to act, if it is a bot's turn."""
        seat = self.game.to_act
        return seat if seat >= 0 and seat != self.human else None

    @property
    def finished_deals(self) -> int:
        """How many deals are over."""
        return len(self.game.finished)

    # --- acting -------------------------------------------------------------------

    def act(self, action: Action | str, seat: int | None = None) -> list[Event]:
        """Apply ``action`` for ``seat`` (default the human) through the checked path.

        Raises the engine's error (:class:`~mushka.errors.MushkaError`) naming
        the rule if the action is malformed, out of turn or illegal; nothing
        changes then.  Returns the new log entries' events, as the human saw them.
        """
        if isinstance(action, str):
            action = Action.parse(action)
        who = self.human if seat is None else seat
        before = len(self.log)
        self.game.apply(action, who)
        self._catch_up()
        return [entry.event for entry in self.log[before:]]

    def choose(self, seat: int) -> Action:
        """What the bot of ``seat`` plays now, chosen from that seat's view only."""
        bot = self.bots[seat]
        if bot is None:
            raise ValueError(f"seat {seat} is the human's")
        return bot.choose(self.game.view(seat), self._rngs[seat])

    def random_legal(self, seat: int) -> Action:
        """A uniformly random legal action for ``seat`` (when a bot fails)."""
        legal = self.game.view(seat).deal.legal
        return self._rngs[seat].choice(legal)

    # --- the log ---------------------------------------------------------------------

    def _catch_up(self) -> None:
        """Log every event not yet logged, as the human saw it, in the order it happened.

        A deal's own events come first; then the game's (records written, the
        next deal started, the end); a deal's opening events (the deal, the
        turned card, a мушка shown at once, C22) follow its ``DealStarted``.
        """
        self._log_deal(len(self._logged))
        events = self.game.game_events()
        for event in events[self._game_logged:]:
            if isinstance(event, DealStarted):
                while len(self._logged) < event.number:
                    self._logged.append(0)
                self.log.append(LogEntry(event.number, event))
                self._log_deal(event.number)
            else:
                self.log.append(LogEntry(max(1, len(self._logged)), event))
        self._game_logged = len(events)

    def _log_deal(self, number: int) -> None:
        if number < 1:
            return
        deal = self.game.deals[number - 1]
        new = deal.events(self.human)[self._logged[number - 1]:]
        self._logged[number - 1] += len(new)
        self.log.extend(LogEntry(number, e) for e in new)

    # --- records --------------------------------------------------------------------

    def record(self) -> Record:
        """The game so far as a replayable record (finished or not)."""
        meta = {"seed": self.seed, "human_seat": self.human, "program": "mushka play"}
        return record_of_game(self.game, seats=self.names, meta=meta)

    def save(self, path: Path) -> Path:
        """Write the record to ``path`` (JSON) and return the path."""
        path.write_text(self.record().dumps(), encoding="utf-8")
        return path

