"""A table: one game, its seats and its connections, run as an actor.

Everything that changes a table happens under its one :class:`asyncio.Lock`,
one change at a time (STYLE 13): a person's action, a bot's action, a seat
taken, the start.  Each stored change raises the table's *version* by one,
is handed to the writer (:mod:`mushka.server.writer`), which commits it with
other tables' changes, and only once it is stored is it sent to every
connection, so that what a client has seen is never lost by a restart.

Nothing here knows the rules: the game (:class:`mushka.match.Game`) checks
every action and names the rule it breaks; the table only asks it for the
views (:mod:`mushka.server.seatviews`) and for each receiver's version of every
event (:meth:`~mushka.engine.Event.seen_by`).  Every message is built once
per (seat, language) and sent as text to each connection that wants it;
``update`` carries only the new events and what changed in the view.

The table is the state; its parts act on it, each through the few things
of it that it needs (a host protocol): how it stores itself
(:mod:`~mushka.server.table.storage`), its seats while it waits
(:mod:`~mushka.server.table.seats`), its connections
(:mod:`~mushka.server.table.connections`), its turn timer and chat
(:mod:`~mushka.server.table.social`), take-backs
(:mod:`~mushka.server.table.takeback`) and its bots
(:mod:`~mushka.server.table.bots`): they play from their own seat's view, in
the server's pool of worker processes, one task per table; a person who has
been away longer than the grace time gets a bot in his place until he comes back.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from mushka.engine import Action, Event
from mushka.errors import IllegalActionError, ParseError
from mushka.i18n import tr
from mushka.match import DealStarted, Game, new_game
from mushka.records import FORMAT, Record, replay
from mushka.records import VERSION as RECORD_VERSION
from mushka.rules import Rules
from mushka.rules.texts import render_rules, section_title
from mushka.server.bodies import RuleOut
from mushka.server.config import ServerConfig
from mushka.server.protocol import (
    EventOut,
    Lang,
    Presence,
    RequestId,
    State,
    TableChanged,
    TableInfo,
    TableStatus,
)
from mushka.server.seating import LANGS, Client, Scripted, Seat, now, seat_kind
from mushka.server.seatviews import Audience, ViewTracker
from mushka.server.store import ABANDONED, GameRating, Save, TableSnapshot, TableStore
from mushka.server.table.bots import TableBots
from mushka.server.table.connections import TableConnections
from mushka.server.table.seats import Build, TableSeats
from mushka.server.table.social import TableSocial
from mushka.server.table.storage import TableStorage, deal_json
from mushka.server.table.takeback import TableTakeBack, allowed, undoable
from mushka.server.texts import EngineText, ProtocolError, refusal
from mushka.server.thinkers import Thinkers
from mushka.server.wire import EventWriter, dumps, event_out, opening_events
from mushka.server.writer import LeaseLost, WriteFailed, Writer

log = logging.getLogger("mushka.server")

@dataclass(frozen=True, slots=True)
class Services:
    """What every table shares: settings, storage, the writer and the bots it may use."""

    config: ServerConfig
    store: TableStore
    writer: Writer
    bots: tuple[str, ...]
    default_bot: str
    thinkers: Thinkers = field(default_factory=lambda: Thinkers(1, kind="thread"))
    """The bounded pool every table's bots think in (worker processes; see :mod:`~mushka.server.thinkers`)."""
    game_over: Callable[[ServerTable], None] | None = None
    """Told of every game that ends (the ratings count it)."""
    lease_lost: Callable[[str], None] | None = None
    """Told of a table whose save was refused because another process took it over."""

    def check_bot(self, name: str) -> str:
        """``name`` if tables may use that bot; else a P10 error listing the known ones."""
        if name not in self.bots:
            raise ProtocolError("bad_bot", rule="P10", name=name, known=", ".join(self.bots))
        return name




class ServerTable:
    """One table; see the module docstring."""

    def __init__(
        self,
        services: Services,
        *,
        table_id: str,
        rules: Rules,
        seats: list[Seat],
        host: int | None,
        autostart: bool,
        listed: bool,
        title: str | None,
        created: datetime,
        version: int = 0,
        status: TableStatus = "waiting",
        game: Game | None = None,
        finished: datetime | None = None,
        turn_seconds: int = 0,
        bank_seconds: int = 0,
        takeback: bool = False,
    ) -> None:
        """A table in the state given (new, or rebuilt from storage)."""
        self.services: Services = services
        self.config = services.config
        self.id = table_id
        self.rules = rules
        self.seats = seats
        self.host = host
        self.autostart = autostart
        self.listed = listed
        self.title = title
        self.next: str | None = None
        """The rematch's table, once asked for (kept in memory only)."""
        self.created = created
        self.version = version
        self.announced = version
        """The version of the last change sent to the connections (a change is sent once stored)."""
        self.status: TableStatus = status
        self.game = game
        self.finished = finished
        self.lock = asyncio.Lock()
        self.clients: set[Client] = set()
        self.last_seen = now()
        """When a connection last left (for evicting idle tables from memory)."""
        self.bots = TableBots(self)
        """The table's bot task (see :mod:`mushka.server.table.bots`)."""
        self.wake = asyncio.Event()
        """Set whenever a bot may be to act (the bot task waits for it)."""
        self.closed = False
        """Set when the table's tasks stop (shutdown, eviction, or another process took it over)."""
        self.evicted = False
        """Set when the lobby drops the table from memory; storage then holds the truth."""
        # The rules never change: their texts are made once.
        self._options_changed = rules.options_text(changed_only=True)
        self._rules_texts: dict[str, list[RuleOut]] = {}
        self._names: dict[str, list[str | None]] | None = None
        self.views = ViewTracker()
        """The views last sent to each audience (see :mod:`mushka.server.seatviews`)."""
        self.storage = TableStorage(self)
        """How the table stores itself, and P14's stall (see :mod:`mushka.server.table.storage`)."""
        self.ply = 0 if game is None else sum(len(d.actions) for d in game.deals)
        self.social = TableSocial(self, turn_seconds, bank_seconds)
        """P15, P16: the turn timer and the chat (see :mod:`mushka.server.table.social`)."""
        self._chat_saves: set[asyncio.Task[None]] = set()
        self.plan: tuple[int, tuple[str, ...]] | None = None
        """A first dealer and first deck the game starts with (the tutorial's stacked deal, N4)."""
        self.scripted: dict[int, Scripted] = {}
        """Seats whose moves are fixed (the tutorial's bots): chosen at once, without the pool."""
        self.address: str | None = None
        """The client address that made the table (P12's quotas of bots-only tables)."""
        self.joined: datetime | None = None if any(s.kind == "human" for s in seats) else created
        """When a person first came (None: nobody yet; see :meth:`TableSeats.watch_unjoined`)."""
        self._resumed_ms = 0
        """When the last change of a table taken over from storage was stored (the turn timer
        resumes with the time that was left then)."""
        self.unrated: str | None = None
        """Why the table's game will not be rated whatever happens (``tutorial``), if so."""
        self.takeback = takeback
        """P21: the players may take back their last card although other people play."""
        self.seating = TableSeats(self)
        """P8: the seats while the table waits, its start, its rematch (see :mod:`mushka.server.table.seats`)."""
        self.connections = TableConnections(self)
        """P4: the connections seated or watching (see :mod:`mushka.server.table.connections`)."""
        self.take_backs = TableTakeBack(self)
        """P21: the card that may be taken back now (see :mod:`mushka.server.table.takeback`)."""

    @property
    def stalled(self) -> bool:
        """P14: a change waits for storage; the table takes no other meanwhile."""
        return self.storage.stalled

    # --- building ----------------------------------------------------------------------

    @classmethod
    def restore(cls, services: Services, snap: TableSnapshot) -> ServerTable:
        """Rebuild a stored table; the game is replayed from its record, action by action."""
        rules = Rules.make(snap.variant, snap.players, **snap.options)
        seats = [Seat(s.seat, seat_kind(s.kind), s.name, s.bot, s.token_hash, s.account_id) for s in snap.seats]
        record: Record | None = None
        if snap.deals:
            record = Record.from_json({
                "format": FORMAT, "version": RECORD_VERSION, "variant": snap.variant, "players": snap.players,
                "options": snap.options, "level": "game", "first_dealer": snap.first_dealer or 0,
                "deals": [json.loads(data) for _, data in sorted(snap.deals)],
            })
        elif snap.record is not None:
            record = Record.loads(snap.record)  # a whole record (a finished game, or stored before deal rows)
        game: Game | None = None
        if record is not None:
            rebuilt = replay(record)
            if not isinstance(rebuilt, Game):
                raise TypeError(f"table {snap.id}: the stored record is not a whole game")
            game = rebuilt
        status: TableStatus = ("over" if snap.status in ("over", ABANDONED) else
                               "playing" if snap.status == "playing" else "waiting")
        table = cls(services, table_id=snap.id, rules=rules, seats=seats, host=snap.host,
                    autostart=snap.autostart, listed=snap.listed, title=snap.title, created=snap.created,
                    version=snap.version, status=status, game=game, finished=snap.finished,
                    turn_seconds=snap.turn_seconds, bank_seconds=snap.bank_seconds, takeback=snap.takeback)
        if status == "playing" and game is None:
            raise TypeError(f"table {snap.id}: playing but no record is stored")
        if game is not None and not snap.deals:
            # Stored by the first schema, as one whole record: the first save writes the deal
            # rows that the journal's moves belong to.
            table.storage.unsaved = True
        table.next, table.address, table.joined = snap.next_id, snap.address, snap.joined
        if snap.rating is not None:
            stored = GameRating.loads(snap.rating)
            table.unrated = None if stored.rated else stored.why
        if game is not None:
            # Who made which move is not stored: a person brought back is taken to have made
            # his share of the moves so far (what matters is only whether he left at once).
            share = table.ply // max(1, len(seats))
            for seat in table.seats:
                if seat.kind == "human":
                    seat.own_moves = share
        table._resumed_ms = snap.changed_ms
        table.social.restore_banks(snap.banks)
        table.social.chat.restore(snap.chat)
        return table

    def snapshot(self) -> TableSnapshot:
        """Everything to store about this table now (a new table; every deal so far)."""
        game = self.game
        record = winner = first_dealer = None
        deals: tuple[tuple[int, str], ...] = ()
        if game is not None:
            first_dealer = game.first_dealer
            deals = tuple((n, deal_json(d)) for n, d in enumerate(game.deals, 1))
            if game.result is not None:
                record = self.storage.record_text()
                winner = game.result.winner
        return TableSnapshot(
            id=self.id, variant=self.rules.variant, players=self.rules.players,
            options=self.rules.options_text(), status=self.status, listed=self.listed, host=self.host,
            autostart=self.autostart, version=self.version, ply=self.ply,
            seats=tuple(s.snapshot() for s in self.seats), created=self.created, title=self.title,
            record=record, winner=winner, finished=self.finished, first_dealer=first_dealer, deals=deals,
            names=tuple(self.storage.seat_names()) if record is not None else (), turn_seconds=self.turn_seconds,
            next_id=self.next, address=self.address, joined=self.joined, takeback=self.takeback,
            bank_seconds=self.bank_seconds, banks=self.social.banks_text(),
        )

    def names_by_lang(self) -> list[list[str]]:
        """Each seat's name as players see it, in English and in Russian."""
        return [[s.shown_name(lang) or tr("server.player_name", lang, seat=s.index + 1) for s in self.seats]
                for lang in ("en", "ru")]

    def forget_names(self) -> None:
        """The seats' names changed: :meth:`names` makes them again when next asked."""
        self._names = None

    def names(self) -> dict[str, list[str | None]]:
        """Per language, the names event sentences give the seats (made once per change of seats)."""
        if self._names is None:
            shown = {lang: [s.shown_name(lang) for s in self.seats] for lang in LANGS}
            self._names = {lang: names for lang, names in shown.items() if any(names)}
        return self._names

    def rule_texts(self, lang: str) -> list[RuleOut]:
        """Every rule of this table's variant in ``lang``, filled from its options (made once)."""
        texts = self._rules_texts.get(lang)
        if texts is None:
            texts = self._rules_texts[lang] = [
                RuleOut(id=r.id, section=r.section, section_title=section_title(r.section, lang),
                        tags=list(r.tags), text=r.text, options=list(r.options),
                        modified_by=list(r.modified_by), changed=r.changed)
                for r in render_rules(self.rules, lang)
            ]
        return texts

    # --- what clients see --------------------------------------------------------------

    def info(self, lang: str = "en", version: int | None = None) -> TableInfo:
        """The table as the lobby and its players see it, at ``version`` (default: the last
        version sent, never one still on its way to storage)."""
        result = None
        if self.game is not None and self.game.result is not None:
            result = self.game.result.to_json()
        return TableInfo(
            id=self.id, title=self.title, variant=self.rules.variant,
            variant_title=self.rules.info.title(lang), players=self.rules.players,
            options=self._options_changed, status=self.status, host=self.host,
            seats=[s.info() for s in self.seats], spectators=self.spectators, listed=self.listed,
            invite=f"/?table={self.id}", version=self.announced if version is None else version,
            created=self.created.isoformat(),
            result=result, next=self.next, turn_seconds=self.turn_seconds, bank_seconds=self.bank_seconds,
            takeback=self.takeback,
        )

    @property
    def turn_seconds(self) -> int:
        """P15: the table's time per move (0: no turn timer)."""
        return self.social.timer.seconds

    @property
    def bank_seconds(self) -> int:
        """P15: every seat's time bank for the whole game (0: none)."""
        return self.social.timer.bank

    @property
    def spectators(self) -> int:
        """Connections without a seat."""
        return sum(1 for c in self.clients if c.seat is None)

    def state(self, client: Client, request: RequestId | None = None) -> State:
        """The full state for one connection (its seat's view; the public one for spectators)."""
        seat, lang = client.seat, client.lang
        view = None
        history: list[EventOut] = []
        if self.game is not None:
            view = self.views.full(self.game, seat)
            names = self.names().get(lang)
            history = [event_out(e.seen_by(seat), lang, names) for e in self._current_events()]
        clock = self.social.timer.clock(self.announced) if self.turn_seconds else None
        return State(version=self.version, ply=self.ply, table=self.info(lang, self.version), view=view, log=history,
                     clock=clock, id=request)

    def _current_events(self) -> list[Event]:
        """The current deal's events (unredacted), with the game's events around them."""
        game = self.game
        assert game is not None
        around = game.game_events()
        starts = [i for i, e in enumerate(around) if isinstance(e, DealStarted)]
        first = starts[-1] if starts else 0
        # The first deal's log also shows what came before it (the kopilka ante, K3).
        head = around[: first + 1] if len(starts) <= 1 else around[first: first + 1]
        return [*head, *game.deal.events(omniscient=True), *around[first + 1:]]

    # --- sending ------------------------------------------------------------------------

    def broadcast(self, build: Build) -> None:
        """Send every client its own message, built once per (seat, language)."""
        made: dict[tuple[int | None, Lang], str | None] = {}
        for client in list(self.clients):
            key = (client.seat, client.lang)
            if key in made:
                text = made[key]
            else:
                text = made[key] = build(client.seat, client.lang)
            if text is not None:
                client.send(text)

    def table_message(self) -> Build:
        """The ``table`` message of the table's version now."""
        # Made now, in both languages: the table may change again before the message is sent.
        texts = {lang: TableChanged(version=self.version, table=self.info(lang, self.version)).model_dump_json()
                 for lang in LANGS}

        def build(_seat: int | None, lang: Lang) -> str:
            return texts[lang]

        return build

    def _update_message(self, actor: int | None, events: list[Event]) -> Build:
        """The ``update`` of the change just made: its events and what changed in each view.

        The views' changes are worked out now (the baseline of each audience
        moves on); the texts are made when sent, once per (seat, language).
        """
        game = self.game
        assert game is not None
        if not self.clients:
            self.views.reset()  # nobody to tell; whoever comes next gets a whole state
            return lambda _seat, _lang: None
        audiences: set[Audience] = {c.seat for c in self.clients}
        changes = {audience: dumps(patch) for audience, patch in self.views.changes(game, audiences).items()}
        writer = EventWriter(events, self.names())
        head = (f'{{"type":"update","version":{self.version},"ply":{self.ply},'
                f'"seat":{"null" if actor is None else actor},"events":')

        def build(seat: int | None, lang: Lang) -> str | None:
            patch = changes.get(seat)
            if patch is None:
                # A seat that had no connection when the change was made; it has a gap and resyncs.
                return None
            return f'{head}{writer.json(seat, lang)},"view":{patch}}}'

        return build

    def presence(self) -> None:
        """Tell everybody who sits where."""
        text = Presence(seats=[s.info() for s in self.seats], spectators=self.spectators).model_dump_json()
        for client in list(self.clients):
            client.send(text)

    # --- playing ------------------------------------------------------------------------------

    async def act(self, client: Client, text: str, version: int | None) -> None:
        """P5, P9: a person's action, checked by the engine, applied, stored and sent."""
        self.storage.check_storage()
        async with self.lock:
            if client.seat is None:
                raise ProtocolError("spectator", rule="P5")
            if self.status != "playing" or self.game is None:
                raise ProtocolError("not_playing", rule="P5", status=self.status)
            if version is not None and version != self.version:
                raise ProtocolError("stale", rule="P9", given=version, current=self.version)
            seat = self.seats[client.seat]
            # P15: the player acts himself: the seat is his again (the bot, which chose at
            # this version, then finds the version moved on and stops).
            if self.game.to_act == seat.index and self.social.taken_back(seat):
                self.presence()
            try:
                action = self.game.deal.read_action(text)
            except ParseError as exc:
                # §4: named as the engine names it: N2 for a bad card code, else the rule of
                # the phase that asked for an action (C7, C13, K7, K11).
                raise ProtocolError(exc.code, rule=exc.rule, problem=EngineText(exc)) from None
            picks, finished = len(self.game.deal.picks), len(self.game.finished)
            try:
                await self.apply(client.seat, action)
            except IllegalActionError as exc:
                # Told to the player in words: his action, the reason, whose turn it is by name.
                raise refusal(exc, self.names_by_lang()) from None
            seat.own_moves += 1
            if not self.scripted and allowed(self.seats, seat.index, self.takeback):
                # P21: his card may be taken back until somebody acts after it.
                self.take_backs.undoable = undoable(self.game, seat.index, self.version, action, picks=picks,
                                                    finished=finished)

    async def apply(self, seat: int, action: Action) -> None:
        """Apply one action (the lock is held); raises, changing nothing, if it is illegal."""
        game = self.game
        assert game is not None
        deal, finished = game.deal, len(game.finished)
        picks = len(deal.picks)
        events = game.apply(action, seat)
        self.take_backs.undoable = None  # P21: an action after a card closes its take-back
        self.ply += 1
        self.version += 1
        update = self._update_message(seat, events)
        ended = self._end_if_over()
        await self.storage.store(self.storage.move_save(deal, picks, finished, action))
        self.broadcast(update)
        if ended is not None:
            self.broadcast(ended)
        self.announced = self.version
        self.wake.set()
        self.social.retime()
        if ended is not None:
            self.game_over()

    def _end_if_over(self) -> Build | None:
        """Once the game is over: the table is over too (a new version); its message is returned."""
        game = self.game
        if game is None or not game.is_over or self.status == "over":
            return None
        self.status = "over"
        self.finished = now()
        self.version += 1
        for s in self.seats:
            if s.away is not None:
                s.away.cancel()
                s.away = None
        log.info("table %s: game over after %d actions", self.id, self.ply)
        return self.table_message()

    def begin(self) -> None:
        """Start the bot task and the grace timers of absent players (a playing table)."""
        if self.status != "playing" or self.closed:
            return
        self.bots.run()
        for seat in self.seats:
            self.connections.maybe_away(seat)
        self.wake.set()
        spent = max(0.0, time.time() - self._resumed_ms / 1000) if self._resumed_ms else 0.0
        self._resumed_ms = 0
        # Taken over from storage: the person to act has what was left of his time then.
        self.social.retime(spent)
        self.seating.watch_unjoined()

    async def close(self) -> None:
        """Stop the table's tasks (server shutdown, eviction, or another process took it over)."""
        self.closed = True
        await self.social.timer.close()
        tasks = [t for t in [self.bots.driver, self.seating.unjoined, *(s.away for s in self.seats)] if t is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t

    async def start_game(self, fill: str | None) -> None:
        """Deal the first deal (the lock is held): open seats get bots, the game begins."""
        for seat in self.seats:
            if seat.kind == "open":
                seat.kind, seat.bot = "bot", fill or self.services.default_bot
        self.forget_names()
        # The first dealer is drawn by lot (C4) from a generator seeded by the system.
        if self.plan is None:
            self.game = new_game(self.rules, rng=random.Random(secrets.randbits(64)))
        else:
            dealer, deck = self.plan
            self.game = new_game(self.rules, rng=random.Random(secrets.randbits(64)), first_dealer=dealer, decks=[deck])
        self.status = "playing"
        self.version += 1
        table = self.table_message()
        self.version += 1
        update = self._update_message(None, opening_events(self.game))
        # C22/MI13: a special hand shown right after the first deal can end the game at once.
        ended = self._end_if_over()
        await self.storage.store(self.storage.full_save())
        self.broadcast(table)
        self.broadcast(update)
        if ended is not None:
            self.broadcast(ended)
        self.announced = self.version
        log.info("table %s: %s started", self.id, self.rules)
        self.begin()
        if ended is not None:
            self.game_over()

    # --- the social side (mushka.server.table.social) -------------------------------------

    def keep_chat(self, number: int, text: str) -> None:
        """Store a chat line beside the table (not waited for: chat is not a change of the game,
        and a line lost with a crash costs nothing that matters)."""
        save = Save(table_id=self.id, version=self.version, ply=self.ply, status=self.status,
                    chat=((number, text),))

        async def store() -> None:
            try:
                await self.services.writer.write(save)
            except (WriteFailed, LeaseLost) as exc:
                log.info("table %s: a chat line was not stored (%s)", self.id, type(exc).__name__)

        task = asyncio.get_running_loop().create_task(store())
        self._chat_saves.add(task)
        task.add_done_callback(self._chat_saves.discard)

    def game_over(self) -> None:
        """Tell whoever counts finished games (the ratings) that this one ended."""
        told = self.services.game_over
        if told is not None:
            try:
                told(self)
            except Exception:  # counting must never stop a table
                log.exception("table %s: counting the finished game failed", self.id)

    async def resync(self, client: Client, request: RequestId | None) -> None:
        """P7: send the full current state again."""
        self.storage.check_storage()
        async with self.lock:
            client.send(self.state(client, request).model_dump_json())
