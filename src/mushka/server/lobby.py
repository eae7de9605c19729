"""The lobby: creating, finding, listing and forgetting tables.

The lobby holds the tables in memory by id.  At startup it brings back every
stored table that waits or plays (a restart loses no game); a table asked for
later (a finished game, a waiting table forgotten while idle) is rebuilt
from storage on demand.  Finished and idle tables leave memory after a while;
storage keeps them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections import OrderedDict
from datetime import UTC, datetime, timedelta
from typing import Final

from mushka import __version__
from mushka.bots import LEVELS, default_opponent, fair_bots
from mushka.errors import MushkaError, OptionsError
from mushka.rules import Rules
from mushka.rules.options import format_value, options_for
from mushka.rules.variants import VARIANTS
from mushka.server.bodies import (
    CreateTable,
    CreateTableReply,
    JoinReply,
    LevelInfo,
    Limits,
    Meta,
    OptionInfo,
    RatingsReply,
    RecordList,
    RecordSummary,
    RulesReply,
    SeatToken,
    VariantInfo,
)
from mushka.server.config import ServerConfig
from mushka.server.guards import AddressCounter
from mushka.server.protocol import Lang, SeatKind, TableInfo
from mushka.server.ratelimit import AddressLimiter
from mushka.server.ratings import Ratings
from mushka.server.replays import replay_json
from mushka.server.seating import Client, Seat, TableMoved, hash_token, new_token
from mushka.server.store import TableStore
from mushka.server.table import Services, Table
from mushka.server.texts import Problem, ProtocolError, options_error
from mushka.server.thinkers import Thinkers
from mushka.server.timer import turn_seconds
from mushka.server.wire import clean_name
from mushka.server.writer import Writer

log = logging.getLogger("mushka.server")

FINISHED_KEPT: Final = 64
"""Finished games rebuilt from storage kept ready in memory (besides the live tables)."""

PING_TIMEOUT: Final = 2.0
"""Seconds ``/api/health`` waits for the database to answer before it reports it unreachable."""

RECORDS_FRESH: Final = 1.0
"""Seconds a page of the list of finished games is served as made (readers share it)."""

LISTS_KEPT: Final = 16
"""Pages of the list of finished games kept (by limit and offset)."""

REPLAYS_KEPT: Final = 32
"""Replays kept ready in memory (a finished game never changes, so they stay right)."""


def available_bots() -> list[str]:
    """The registered bots a table may seat: research tools (the oracle sees every card) are left out."""
    return fair_bots()


def seat_url(table_id: str, token: str) -> str:
    """The path that brings a player back to his seat (the token stays in the fragment)."""
    return f"/?table={table_id}#token={token}"


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


class Lobby:
    """Every table the server holds in memory, and the way to make more."""

    def __init__(self, config: ServerConfig, store: TableStore) -> None:
        """A lobby over ``store``; call :meth:`open` inside the event loop."""
        registered = available_bots()
        allowed = registered if config.bots is None else [
            b for b in config.bots if b in registered
        ]
        if not allowed:
            allowed = ["random"]
        default = config.default_bot or default_opponent(allowed)
        if default not in allowed:
            raise ValueError(f"the default bot {default!r} is not one of {', '.join(allowed)}")
        self.config = config
        self.store = store
        self.writer = Writer(store)
        self.thinkers = Thinkers(config.bot_workers, kind=config.bot_pool, nice=config.bot_nice,
                                 timeout=config.bot_timeout)
        """The bounded pool the bots of every table think in, and replays are built in."""
        self.messages = AddressLimiter(config.address_rate, config.address_burst)
        """P6: the messages of every connection of one address, together."""
        self.states = AddressLimiter(config.state_rate, config.state_burst)
        """P6: the full states asked for by every connection of one address, together."""
        self.sockets = AddressCounter(config.ws_per_address)
        """P12: the WebSockets each address holds."""
        self._bot_tables: dict[str, str] = {}
        """Tables of bots only, by id: the address that made each."""
        self.ratings = Ratings()
        """Per-player statistics and ratings, rebuilt from the stored games at :meth:`open`."""
        self.services = Services(config=config, store=store, writer=self.writer, bots=tuple(allowed),
                                 thinkers=self.thinkers,
                                 default_bot=default, game_over=self._count_game)
        self.chats = AddressLimiter(config.chat_address_rate, config.chat_address_burst)
        """P16: the chat lines of every connection of one address, together."""
        self.tables: dict[str, Table] = {}
        self._loading = asyncio.Lock()
        self._rematching = asyncio.Lock()
        self._sweeper: asyncio.Task[None] | None = None
        self._replays: OrderedDict[tuple[str, str], str] = OrderedDict()
        self._lists: OrderedDict[tuple[int, int], tuple[float, asyncio.Task[str], tuple[int, int]]] = OrderedDict()
        self._ping: asyncio.Task[bool] | None = None
        self._finished: OrderedDict[str, Table] = OrderedDict()
        """Finished games rebuilt from storage for a look (not live tables; see :meth:`get`)."""
        self._pinged = 0.0

    # --- life cycle ---------------------------------------------------------------------

    async def open(self) -> None:
        """Start the writer, bring back every stored table that waits or plays and start their bots."""
        self.writer.start()
        self.ratings = await asyncio.to_thread(Ratings.rebuild, self.store)
        stored = await asyncio.to_thread(self.store.load_active)
        for snap in stored:
            try:
                table = Table.restore(self.services, snap)
            except (MushkaError, TypeError, ValueError, KeyError, RecursionError) as exc:
                # One damaged table must not keep the others from being served.
                await asyncio.to_thread(self.store.quarantine, snap.id, f"{type(exc).__name__}: {exc}"[:300])
                continue
            self.tables[table.id] = table
            table.begin()
        if stored:
            log.info("restored %d tables", len(self.tables))
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def close(self) -> None:
        """Stop every table's tasks, then store whatever is still queued."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        for table in list(self.tables.values()):
            await table.close()
        await self.writer.close()
        self.thinkers.shutdown()

    async def _sweep(self) -> None:
        """Now and then forget finished or waiting tables nobody has looked at for a while."""
        while True:
            await asyncio.sleep(self.config.sweep_every)
            self.forget_idle()

    def forget_idle(self, now: datetime | None = None) -> int:
        """Drop idle tables from memory (storage keeps them); returns how many."""
        moment = now or datetime.now(UTC)
        limit = timedelta(seconds=self.config.keep_finished)
        idle = [
            t for t in self.tables.values()
            if t.status != "playing" and not t.clients and moment - t.last_seen > limit
        ]
        for t in idle:
            t.evicted = True
            del self.tables[t.id]
        return len(idle)

    def _count_game(self, table: Table) -> None:
        """A game ended: its players' statistics and ratings move on."""
        game = table.game
        if game is not None and game.result is not None:
            self.ratings.add(table.id, table.rules.variant, [s.snapshot() for s in table.seats],
                             game.result.to_json())

    def board(self, name: str | None, limit: int) -> RatingsReply:
        """The leaderboard (``GET /api/ratings``)."""
        return self.ratings.board(name, limit)

    # --- finding tables -----------------------------------------------------------------------

    async def get(self, table_id: str) -> Table:
        """The table ``table_id``, from memory or rebuilt from storage; P12 if unknown.

        A finished game rebuilt from storage goes to a small cache of its own, not among
        the live tables: looking at old games never takes the slot of a new one."""
        table = self.tables.get(table_id) or self._finished_table(table_id)
        if table is not None:
            return table
        if len(table_id) > 32:
            raise ProtocolError("no_table", rule="P12", id=table_id[:32])
        async with self._loading:
            table = self.tables.get(table_id) or self._finished_table(table_id)
            if table is not None:
                return table
            snap = await asyncio.to_thread(self.store.load, table_id)
            if snap is None:
                raise ProtocolError("no_table", rule="P12", id=table_id)
            try:
                table = Table.restore(self.services, snap)
            except (MushkaError, TypeError, ValueError, KeyError, RecursionError) as exc:
                await asyncio.to_thread(self.store.quarantine, table_id, f"{type(exc).__name__}: {exc}"[:300])
                raise ProtocolError("no_table", rule="P12", id=table_id) from None
            if table.status == "over":
                self._keep_finished(table)
                return table
            self.tables[table_id] = table
            table.begin()
            return table

    def _finished_table(self, table_id: str) -> Table | None:
        table = self._finished.get(table_id)
        if table is not None:
            self._finished.move_to_end(table_id)
        return table

    def _keep_finished(self, table: Table) -> None:
        self._finished[table.id] = table
        while len(self._finished) > FINISHED_KEPT:
            _, old = self._finished.popitem(last=False)
            if not old.clients:
                old.evicted = True  # a watcher still on it keeps it; a finished game never changes

    @property
    def live(self) -> int:
        """Tables that wait or play: what ``max_tables`` limits."""
        return sum(1 for t in self.tables.values() if t.status != "over")

    def listed(self, status: str | None, lang: str) -> list[TableInfo]:
        """Listed tables in memory, newest first."""
        tables = [t for t in self.tables.values() if t.listed and (status is None or t.status == status)]
        tables.sort(key=lambda t: t.created, reverse=True)
        return [t.info(lang) for t in tables]

    # --- making tables ---------------------------------------------------------------------------

    async def create(self, request: CreateTable, lang: str, address: str = "?") -> CreateTableReply:
        """P10: a new table as ``request`` asks (by ``address``), stored before it is announced."""
        if self.live >= self.config.max_tables:
            self.forget_idle()
            if self.live >= self.config.max_tables:
                raise ProtocolError("full", rule="P12", what="tables")
        # The engine checks the variant, the players and every option, naming their rules.
        try:
            players = request.players
            if players is None and request.seats is not None:
                players = len(request.seats)  # the seat list says how many play
            rules = Rules.make(request.variant, players, **request.options)
        except OptionsError as exc:
            raise options_error(exc) from None
        entries = request.seats if request.seats is not None else ["me"] + ["bot"] * (rules.players - 1)
        if len(entries) != rules.players:
            raise ProtocolError("bad_seats", rule="P10", problem=Problem(
                "server.problem.seat_count", count=len(entries), players=rules.players))
        name = clean_name(request.name)
        seats: list[Seat] = []
        tokens: list[tuple[int, str]] = []
        for index, entry in enumerate(entries):
            kind, bot = self._seat_entry(entry)
            seat = Seat(index, kind, bot=bot)
            if entry.strip().lower() == "me":
                token = new_token()
                seat.name, seat.token_hash = name, hash_token(token)
                tokens.append((index, token))
            seats.append(seat)
        bots_only = all(s.kind == "bot" for s in seats)
        if bots_only:
            self._check_bot_tables(address)
        table_id = secrets.token_urlsafe(9)
        while table_id in self.tables:
            table_id = secrets.token_urlsafe(9)
        host = tokens[0][0] if tokens else None
        # P15: a practice table (one person, bots) has no timer unless asked; friends' tables do.
        friends = any(s.kind == "open" for s in seats)
        seconds = turn_seconds(request.turn_seconds, friends=friends, allowed=self.config.turn_choices)
        table = Table(
            self.services, table_id=table_id, rules=rules, seats=seats, host=host,
            autostart=host is None, listed=request.listed, title=clean_name(request.title),
            created=datetime.now(UTC), turn_seconds=seconds,
        )
        try:
            await asyncio.to_thread(self.store.create, table.snapshot())
        except Exception:  # any driver error: nothing was made, and the caller is told why
            log.exception("table %s could not be stored", table_id)
            raise ProtocolError("storage_down", rule="P14") from None
        self.tables[table_id] = table
        if bots_only:
            self._bot_tables[table_id] = address
        if request.start or (table.autostart and all(s.kind != "open" for s in seats)):
            await table.start_now()
        log.info("table %s created: %s", table_id, rules)
        return CreateTableReply(
            table=table.info(lang),
            tokens=[SeatToken(seat=s, token=t, url=seat_url(table_id, t)) for s, t in tokens],
            invite=f"/?table={table_id}", ws=f"/ws/tables/{table_id}",
        )

    async def rematch(self, table: Table, client: Client) -> None:
        """The same table again after its game (same rules, seats and tokens), started at once;
        the old table tells everybody the new one's id.  Asked twice, it is made once."""
        async with self._rematching:
            if table.next is not None:
                return
            seats = table.rematch_seats(client)
            if self.live >= self.config.max_tables:
                raise ProtocolError("full", rule="P12", what="tables")
            table_id = secrets.token_urlsafe(9)
            while table_id in self.tables:
                table_id = secrets.token_urlsafe(9)
            again = Table(
                self.services, table_id=table_id, rules=table.rules, seats=seats, host=table.host,
                autostart=table.host is None, listed=table.listed, title=table.title, created=datetime.now(UTC),
                turn_seconds=table.turn_seconds,
            )
            try:
                await asyncio.to_thread(self.store.create, again.snapshot())
            except Exception:  # any driver error: nothing was made
                log.exception("table %s could not be stored", table_id)
                raise ProtocolError("storage_down", rule="P14") from None
            self.tables[table_id] = again
            await again.start_now()
            await table.announce_next(table_id)
            log.info("table %s: rematch at %s", table.id, table_id)

    def _check_bot_tables(self, address: str) -> None:
        """P12: tables of bots only cost CPU and nobody plays at them: a few at a time, on the
        whole server and per address (``bot_tables``, ``bot_tables_per_address``)."""
        for table_id in list(self._bot_tables):
            table = self.tables.get(table_id)
            if table is None or table.status == "over":
                del self._bot_tables[table_id]
        cfg = self.config
        if len(self._bot_tables) >= cfg.bot_tables:
            raise ProtocolError("bot_tables", rule="P12", limit=cfg.bot_tables)
        mine = sum(1 for a in self._bot_tables.values() if a == address)
        if mine >= cfg.bot_tables_per_address:
            raise ProtocolError("bot_tables_yours", rule="P12", limit=cfg.bot_tables_per_address)

    def _seat_entry(self, entry: str) -> tuple[SeatKind, str | None]:
        word, _, bot = entry.strip().partition(":")
        word = word.lower()
        if word == "me" and not bot:
            return "human", None
        if word == "open" and not bot:
            return "open", None
        if word == "bot":
            return "bot", self.services.check_bot(bot.strip()) if bot else self.services.default_bot
        raise ProtocolError("bad_seats", rule="P10", problem=Problem("server.problem.seat_entry", entry=entry))

    async def join(self, table_id: str, name: str | None, seat: int | None, lang: str) -> JoinReply:
        """P8: take an open seat of ``table_id``."""
        for _ in range(3):
            table = await self.get(table_id)
            try:
                index, token = await table.join(clean_name(name), seat)
                break
            except TableMoved:
                continue
        else:
            raise ProtocolError("no_table", rule="P12", id=table_id)
        return JoinReply(table=table.info(lang), token=SeatToken(seat=index, token=token,
                                                                 url=seat_url(table_id, token)),
                         ws=f"/ws/tables/{table_id}")

    # --- records ------------------------------------------------------------------------------------

    async def record(self, table_id: str) -> str:
        """P11: the record of a finished game (JSON text)."""
        table = self.tables.get(table_id) or self._finished_table(table_id)
        if table is not None:
            if table.status != "over" or table.game is None:
                raise ProtocolError("not_over", rule="P11", id=table_id)
            return table.record_text()
        else:
            snap = await asyncio.to_thread(self.store.load, table_id[:32])
            if snap is None:
                raise ProtocolError("no_record", rule="P12", id=table_id[:32])
            if snap.status != "over":
                raise ProtocolError("not_over", rule="P11", id=table_id)
        if snap.record is None:
            raise ProtocolError("no_record", rule="P12", id=table_id)
        if not await self.thinkers.run(_is_json, snap.record):
            # Damaged in storage: set aside rather than served (the row stays for inspection).
            await asyncio.to_thread(self.store.quarantine, snap.id, "the stored record is not JSON")
            raise ProtocolError("no_record", rule="P12", id=table_id[:32])
        return snap.record

    async def replay(self, table_id: str, lang: Lang) -> str:
        """P11: every position of a finished game, computed from its record (kept for a while),
        as the JSON of a :class:`~mushka.server.bodies.Replay`."""
        key = (table_id, lang)
        ready = self._replays.get(key)
        if ready is not None:
            self._replays.move_to_end(key)
            return ready
        text = await self.record(table_id)
        # Reading the record, replaying it and writing the result is work for the pool, never the
        # loop's: the worker sends back the reply's text, which the loop only passes on.
        made = await self.thinkers.run(replay_json, text, table_id, lang)
        self._replays[key] = made
        while len(self._replays) > REPLAYS_KEPT:
            self._replays.popitem(last=False)
        return made

    async def rules(self, table_id: str, lang: Lang) -> RulesReply:
        """The rules of a table's variant by id, filled from its options, in ``lang``."""
        table = await self.get(table_id)
        return RulesReply(table=table.id, variant=table.rules.variant, lang=lang, rules=table.rule_texts(lang))

    async def records_json(self, limit: int, offset: int) -> str:
        """The JSON of a :class:`~mushka.server.protocol.RecordList` page, shared by every reader
        until a game is stored as over or a record set aside (and for :data:`RECORDS_FRESH` at
        most, for any change made otherwise)."""
        loop = asyncio.get_running_loop()
        key = (limit, offset)
        # A game stored as over, or a record set aside, makes a new page at once.
        changes = (self.writer.ended, len(getattr(self.store, "quarantined", ())))
        made = self._lists.get(key)
        if made is None or made[2] != changes or (made[1].done() and loop.time() - made[0] > RECORDS_FRESH):
            async def page() -> str:
                return RecordList(records=await self.records(limit, offset)).model_dump_json()

            made = (loop.time(), loop.create_task(page()), changes)
            self._lists[key] = made
            self._lists.move_to_end(key)
            while len(self._lists) > LISTS_KEPT:
                self._lists.popitem(last=False)
        try:
            return await asyncio.shield(made[1])
        except Exception:
            self._lists.pop(key, None)  # not kept: the next reader tries again
            raise

    async def records(self, limit: int, offset: int) -> list[RecordSummary]:
        """Finished games, newest first."""
        snaps = await asyncio.to_thread(self.store.finished, limit, offset)
        out = []
        for snap in snaps:
            finished = snap.finished or snap.created
            out.append(RecordSummary(id=snap.id, variant=snap.variant, players=snap.players, seats=list(snap.names),
                                     finished=finished.isoformat(), winner=snap.winner,
                                     record=f"/api/records/{snap.id}"))
        return out

    # --- the table form ---------------------------------------------------------------------------------

    def meta(self) -> Meta:
        """Variants, options, bots and limits, for a client's new-table form."""
        variants = []
        for v in VARIANTS.values():
            options = [
                OptionInfo(name=o.name, rules=list(o.rules), default=format_value(o.name, o.default(v.name)),
                           values=list(o.values), help_en=o.help("en"), help_ru=o.help("ru"))
                for o in options_for(v.name)
            ]
            variants.append(VariantInfo(name=v.name, title_en=v.title("en"), title_ru=v.title("ru"),
                                        players=list(v.players), default_players=v.default_players,
                                        privileged=v.privileged.code, options=options))
        c = self.config
        levels = [LevelInfo(id=lv.id, name_en=lv.title("en"), name_ru=lv.title("ru"), blurb_en=lv.blurb("en"),
                            blurb_ru=lv.blurb("ru")) for lv in LEVELS if lv.id in self.services.bots]
        return Meta(server=__version__, variants=variants, bots=list(self.services.bots),
                    default_bot=self.services.default_bot, levels=levels, public_url=c.public_url,
                    limits=Limits(max_message_bytes=c.max_message_bytes, rate=c.rate, burst=c.burst,
                                  grace=c.grace, bot_delay=c.bot_delay, bot_tables=c.bot_tables,
                                  bot_tables_per_address=c.bot_tables_per_address,
                                  bot_tables_now=len(self._bot_tables), bot_workers=self.thinkers.workers,
                                  turn_choices=list(c.turn_choices), chat_rate=c.chat_rate, chat_burst=c.chat_burst))

    async def database_answers(self) -> bool:
        """Whether storage answers a read within :data:`PING_TIMEOUT` (asked at most once a
        second, and never twice at once: health checks cannot pile threads up)."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        if self._ping is not None and (not self._ping.done() or now - self._pinged < 1.0):
            if not self._ping.done():
                try:
                    return await asyncio.wait_for(asyncio.shield(self._ping), PING_TIMEOUT)
                except TimeoutError:
                    return False
            return self._ping.result()
        self._pinged = now
        self._ping = loop.create_task(asyncio.to_thread(self.store.ping))
        try:
            return await asyncio.wait_for(asyncio.shield(self._ping), PING_TIMEOUT)
        except TimeoutError:
            return False

    @property
    def connections(self) -> int:
        """Connections to all tables in memory."""
        return sum(len(t.clients) for t in self.tables.values())

