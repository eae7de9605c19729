"""The lobby: creating, finding, listing and forgetting tables.

The lobby holds in memory the tables this process owns, by id (several processes
may serve one database: :mod:`mushka.server.nodes`).  At startup, and whenever
another process dies, it takes over the playing tables whose owner's lease ran
out and brings them back from the journal (a restart or a crash loses no game);
a table asked for later (a finished game, a waiting table forgotten while idle)
is rebuilt from storage on demand, claimed first if it waits or plays, and a
table that another live process owns is not served here: the caller is sent
there (:class:`~mushka.server.seating.OwnedElsewhere`).  Finished and idle
tables leave memory after a while; storage keeps them.  The lists, the quotas
and the ratings come from the store, so that every process tells the same.

Beside it, each with its own module: the quick match that seats strangers
together (:mod:`mushka.server.quickmatch`) and the finished games' records,
replays and list (:mod:`mushka.server.finished`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Collection, Coroutine, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, Final

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
    RulesReply,
    SeatToken,
    VariantInfo,
)
from mushka.server.config import ServerConfig
from mushka.server.durations import presets
from mushka.server.finished import FinishedGames
from mushka.server.guards import AddressCounter
from mushka.server.listing import Listings
from mushka.server.nodes import Membership, NodeSettings, default_node_name
from mushka.server.protocol import Lang, SeatKind, TableInfo
from mushka.server.quickmatch import QuickMatch
from mushka.server.ratelimit import AddressLimiter
from mushka.server.ratings import Ratings
from mushka.server.seating import Client, OwnedElsewhere, Seat, TableMoved, hash_token, new_token, person_name
from mushka.server.store import ABANDONED, NodeStore, Save, TableSnapshot
from mushka.server.table import ServerTable, Services
from mushka.server.tasks import stop_task
from mushka.server.texts import Problem, ProtocolError, options_error
from mushka.server.thinkers import Thinkers
from mushka.server.timer import bank_seconds, turn_seconds
from mushka.server.wire import clean_name
from mushka.server.writer import LeaseLost, WriteFailed, Writer

log = logging.getLogger("mushka.server")

FINISHED_KEPT: Final = 64
"""Finished games rebuilt from storage kept ready in memory (besides the live tables)."""

PING_TIMEOUT: Final = 2.0
"""Seconds ``/api/health`` waits for the database to answer before it reports it unreachable."""

RATINGS_EVERY: Final = 5.0
"""Seconds between two reads of the games other processes finished (for the ratings)."""

RATINGS_OVERLAP: Final = timedelta(minutes=2)
"""How far back each read of finished games reaches (the games counted already are skipped):
a game finished elsewhere while a read ran is found by the next one."""


def available_bots() -> list[str]:
    """The registered bots a table may seat: research tools (the oracle sees every card) are left out."""
    return fair_bots()


def seat_url(table_id: str, token: str) -> str:
    """The path that brings a player back to his seat (the token stays in the fragment)."""
    return f"/?table={table_id}#token={token}"


class Lobby:
    """Every table the server holds in memory, and the way to make more."""

    def __init__(self, config: ServerConfig, store: NodeStore) -> None:
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
        self._bot_tables_now = 0
        """Tables of bots only being played on every node, as last counted."""
        self.ratings = Ratings()
        """Per-player statistics and ratings, rebuilt from the stored games at :meth:`open`."""
        self.services = Services(config=config, store=store, writer=self.writer, bots=tuple(allowed),
                                 thinkers=self.thinkers,
                                 default_bot=default, game_over=self._count_game, lease_lost=self._lease_lost)
        self.node = NodeSettings(name=config.node or default_node_name(config.port), port=config.port,
                                 lease=config.lease, join=config.join)
        self.membership = Membership(store, self.writer, self.node, adopt=self._adopt, lost=self._lost)
        """This process as a node: its leases kept, dead nodes' tables taken over."""
        self.listings = Listings(store)
        self._background: set[asyncio.Task[None]] = set()
        self._ratings_task: asyncio.Task[None] | None = None
        self.chats = AddressLimiter(config.chat_address_rate, config.chat_address_burst)
        """P16: the chat lines of every connection of one address, together."""
        self.tables: dict[str, ServerTable] = {}
        self._loading = asyncio.Lock()
        self._rematching = asyncio.Lock()
        self._sweeper: asyncio.Task[None] | None = None
        self._ping: asyncio.Task[bool] | None = None
        self._finished: OrderedDict[str, ServerTable] = OrderedDict()
        """Finished games rebuilt from storage for a look (not live tables; see :meth:`get`)."""
        self._pinged = 0.0
        self._nodes: tuple[float, list[str]] | None = None
        self.quick = QuickMatch(self)
        """The lobby's quick match: strangers seated together (:mod:`mushka.server.quickmatch`)."""
        self.finished_games = FinishedGames(self)
        """The finished games' records, replays and list (:mod:`mushka.server.finished`)."""

    # --- life cycle ---------------------------------------------------------------------

    async def open(self) -> None:
        """Start the writer, enter the store as a node (taking over the playing tables that wait
        for an owner, and starting their bots) and keep the leases."""
        self.writer.start()
        self._ratings_from = datetime.now(UTC) - RATINGS_OVERLAP
        self.ratings = await asyncio.to_thread(Ratings.rebuild, self.store)
        await self.membership.open()
        if self.tables:
            log.info("restored %d tables", len(self.tables))
        loop = asyncio.get_running_loop()
        self._sweeper = loop.create_task(self._sweep())
        self._ratings_task = loop.create_task(self._follow_ratings())
        self.quick.start()

    async def close(self) -> None:
        """Stop every table's tasks, store whatever is still queued, then give the leases up."""
        await self.quick.close()
        for task in (self._sweeper, self._ratings_task):
            await stop_task(task)
        for table in list(self.tables.values()):
            await table.close()
        for task in list(self._background):
            task.cancel()
        await self.membership.close()
        await self.writer.close()
        self.thinkers.shutdown()

    # --- tables changing owner (mushka.server.nodes) --------------------------------------

    async def _adopt(self, table_ids: list[str]) -> None:
        """Bring back tables this process just claimed, from the journal, and start them."""
        began = time.perf_counter()
        loading = 0.0
        for table_id in table_ids:
            # Under the loading lock, as in :meth:`get`: a client of the claimed table may ask
            # for it meanwhile, and one table must never be brought back twice (two copies would
            # both play, and store the same versions).
            async with self._loading:
                if table_id in self.tables:
                    continue
                try:
                    read = time.perf_counter()
                    snap = await asyncio.to_thread(self.store.load, table_id)
                    loading += time.perf_counter() - read
                except Exception:  # storage failing: give it up, another pass claims it again
                    log.warning("table %s could not be loaded; released", table_id, exc_info=True)
                    await self._release([table_id])
                    continue
                if snap is None or snap.status not in ("waiting", "playing"):
                    await self._release([table_id])
                    continue
                table = await self._restored(snap)
                if table is not None:
                    self.tables[table_id] = table
                    table.begin()
        log.info("brought %d tables back in %.2f s (%.2f s reading them)", len(table_ids),
                 time.perf_counter() - began, loading)

    async def _restored(self, snap: TableSnapshot) -> ServerTable | None:
        try:
            return ServerTable.restore(self.services, snap)
        except (MushkaError, TypeError, ValueError, KeyError, RecursionError) as exc:
            # One damaged table must not keep the others from being served.
            problem = f"{type(exc).__name__}: {exc}"[:300]
            await self.writer.run(lambda: self.store.quarantine(snap.id, problem))
            return None

    async def _lost(self, table_ids: Collection[str]) -> None:
        """Another process took these tables over: hand each over (its clients go there)."""
        for table_id in table_ids:
            table = self.tables.pop(table_id, None)
            if table is None:
                continue
            try:
                place = await asyncio.to_thread(self.store.placement, table_id)
            except Exception:  # the clients try the proxy's choice, which finds the owner
                place = None
            await table.seating.hand_over(None if place is None else place.owner)
            log.info("table %s: handed over to node %s", table_id, "?" if place is None else place.owner)

    def _lease_lost(self, table_id: str) -> None:
        """A save of ``table_id`` was refused (its lease is another process's): hand it over."""
        self._spawn(self._lost([table_id]))

    async def _release(self, table_ids: list[str]) -> None:
        try:
            await self.writer.run(lambda: self.store.release(table_ids))
        except Exception:  # the leases run out by themselves
            log.warning("could not release %d leases", len(table_ids), exc_info=True)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _follow_ratings(self) -> None:
        """Count the games that other processes finished, now and then (each game once)."""
        while True:
            await asyncio.sleep(RATINGS_EVERY)
            began = datetime.now(UTC)
            try:
                found = await asyncio.to_thread(self.store.finished_since, self._ratings_from, 1000)
            except Exception:  # storage down: next time
                log.warning("reading the finished games for the ratings failed", exc_info=True)
                continue
            for snap in found:
                with contextlib.suppress(ValueError, TypeError, KeyError, AttributeError):
                    self.ratings.add_snapshot(snap)
            self._ratings_from = began - RATINGS_OVERLAP

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
        if idle:
            # Anybody may claim them when somebody asks for them again.
            self._spawn(self._release([t.id for t in idle]))
        return len(idle)

    def _count_game(self, table: ServerTable) -> None:
        """A game ended: its players' statistics and ratings move on."""
        game = table.game
        result = None if game is None or game.result is None else game.result.to_json()
        self.ratings.add(table.id, table.rules.variant, [s.snapshot() for s in table.seats], result,
                         table.storage.game_rating())

    def board(self, name: str | None, limit: int, variant: str = "classic") -> RatingsReply:
        """The leaderboard of ``variant`` (``GET /api/ratings``)."""
        return self.ratings.board(name, limit, variant)

    # --- finding tables -----------------------------------------------------------------------

    async def get(self, table_id: str) -> ServerTable:
        """The table ``table_id``, from memory or rebuilt from storage; P12 if unknown.

        A finished game rebuilt from storage goes to a small cache of its own, not among
        the live tables: looking at old games never takes the slot of a new one."""
        table = self.held(table_id)
        if table is not None:
            return table
        if len(table_id) > 32:
            raise ProtocolError("no_table", rule="P12", id=table_id[:32])
        async with self._loading:
            table = self.held(table_id)
            if table is not None:
                return table
            place = await asyncio.to_thread(self.store.placement, table_id)
            if place is None or place.status not in ("waiting", "playing", "over", ABANDONED):
                raise ProtocolError("no_table", rule="P12", id=table_id)
            if place.status in ("waiting", "playing"):
                # A waiting or playing table is served by its owner only: ours, or claimed now.
                if place.owner is not None:
                    raise OwnedElsewhere(table_id, place.owner)
                ttl = self.node.lease
                if not place.mine and not await self.writer.run(lambda: self.store.claim(table_id, ttl)):
                    again = await asyncio.to_thread(self.store.placement, table_id)
                    raise OwnedElsewhere(table_id, None if again is None else again.owner)
            snap = await asyncio.to_thread(self.store.load, table_id)
            if snap is None:
                raise ProtocolError("no_table", rule="P12", id=table_id)
            table = await self._restored(snap)
            if table is None:
                raise ProtocolError("no_table", rule="P12", id=table_id)
            if table.status == "over":
                self._keep_finished(table)
                return table
            self.tables[table_id] = table
            table.begin()
            return table

    def held(self, table_id: str) -> ServerTable | None:
        """The table ``table_id`` if this process holds it in memory: a live one, or a finished
        game rebuilt for a look (see :meth:`get`); None otherwise."""
        return self.tables.get(table_id) or self._finished_table(table_id)

    def _finished_table(self, table_id: str) -> ServerTable | None:
        table = self._finished.get(table_id)
        if table is not None:
            self._finished.move_to_end(table_id)
        return table

    def _keep_finished(self, table: ServerTable) -> None:
        self._finished[table.id] = table
        while len(self._finished) > FINISHED_KEPT:
            _, old = self._finished.popitem(last=False)
            if not old.clients:
                old.evicted = True  # a watcher still on it keeps it; a finished game never changes

    @property
    def live(self) -> int:
        """Tables that wait or play: what ``max_tables`` limits."""
        return sum(1 for t in self.tables.values() if t.status != "over")

    async def listed(self, status: str | None, lang: str) -> list[TableInfo]:
        """Listed tables of every node, newest first (those of this one with their live details)."""
        live = {t.id: t.info for t in self.tables.values()}
        return await self.listings.tables(status, lang, live)

    async def rules(self, table_id: str, lang: Lang) -> RulesReply:
        """The rules of a table's variant by id, filled from its options, in ``lang``."""
        table = await self.get(table_id)
        return RulesReply(table=table.id, variant=table.rules.variant, lang=lang, rules=table.rule_texts(lang))

    # --- making tables ---------------------------------------------------------------------------

    async def create(self, request: CreateTable, lang: str, address: str = "?",
                     names: Sequence[str | None] | None = None, account: str | None = None,
                     accounts: Sequence[str | None] | None = None) -> CreateTableReply:
        """P10: a new table as ``request`` asks (by ``address``), stored before it is announced;
        ``names`` names the ``me`` seats one by one (people seated together by the quick match),
        else they all get the request's name.  The ``me`` seats of a signed-in person are his
        ``account``'s (P18); ``accounts``, with ``names``, gives each its own."""
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
        name = person_name(request.name)
        seats: list[Seat] = []
        tokens: list[tuple[int, str]] = []
        for index, entry in enumerate(entries):
            kind, bot = self._seat_entry(entry)
            seat = Seat(index, kind, bot=bot)
            if entry.strip().lower() == "me":
                token = new_token()
                own = name if names is None else person_name(names[len(tokens)])
                mine = account if accounts is None else accounts[len(tokens)]
                seat.name, seat.token_hash, seat.account = own, hash_token(token), mine
                tokens.append((index, token))
            seats.append(seat)
        if all(s.kind == "bot" for s in seats):
            await self._check_bot_tables(address)
        table_id = secrets.token_urlsafe(9)
        while table_id in self.tables:
            table_id = secrets.token_urlsafe(9)
        host = tokens[0][0] if tokens else None
        # P15: a practice table (one person, bots) has no timer unless asked; friends' tables do.
        friends = any(s.kind == "open" for s in seats)
        seconds = turn_seconds(request.turn_seconds, friends=friends, allowed=self.config.turn_choices)
        bank = bank_seconds(request.bank_seconds, turn=seconds, allowed=self.config.bank_choices)
        table = ServerTable(
            self.services, table_id=table_id, rules=rules, seats=seats, host=host,
            autostart=host is None, listed=request.listed, title=clean_name(request.title),
            created=datetime.now(UTC), turn_seconds=seconds, bank_seconds=bank, takeback=request.takeback,
        )
        table.address = address[:64]
        await self._store_new(table)
        if request.start or (table.autostart and all(s.kind != "open" for s in seats)):
            await table.seating.start_now()
        log.info("table %s created: %s", table_id, rules)
        return CreateTableReply(
            table=table.info(lang),
            tokens=[SeatToken(seat=s, token=t, url=seat_url(table_id, t)) for s, t in tokens],
            invite=f"/?table={table_id}", ws=f"/ws/tables/{table_id}?node={self.node.name}", node=self.node.name,
        )

    async def _store_new(self, table: ServerTable) -> None:
        """Store a new table through the writer (it queues behind the commits, and a burst of new
        tables shares their transactions instead of racing them for the write lock); only
        then is it this process's to serve."""
        save = Save(table_id=table.id, version=table.version, ply=table.ply, status=table.status,
                    new=table.snapshot())
        try:
            await self.writer.write(save)
        except (WriteFailed, LeaseLost):
            log.warning("table %s could not be stored", table.id)
            raise ProtocolError("storage_down", rule="P14") from None
        self.tables[table.id] = table

    async def rematch(self, table: ServerTable, client: Client) -> None:
        """The same table again after its game (same rules, seats and tokens), started at once;
        the old table tells everybody the new one's id.  Asked twice, it is made once."""
        async with self._rematching:
            if table.next is not None:
                return
            seats = table.seating.rematch_seats(client)
            if self.live >= self.config.max_tables:
                raise ProtocolError("full", rule="P12", what="tables")
            table_id = secrets.token_urlsafe(9)
            while table_id in self.tables:
                table_id = secrets.token_urlsafe(9)
            again = ServerTable(
                self.services, table_id=table_id, rules=table.rules, seats=seats, host=table.host,
                autostart=table.host is None, listed=table.listed, title=table.title, created=datetime.now(UTC),
                turn_seconds=table.turn_seconds, bank_seconds=table.bank_seconds, takeback=table.takeback,
            )
            again.address, again.joined = table.address, table.joined
            await self._store_new(again)
            await again.seating.start_now()
            await table.seating.announce_next(table_id)
            log.info("table %s: rematch at %s", table.id, table_id)

    async def _check_bot_tables(self, address: str) -> None:
        """P12: tables of bots only cost CPU and nobody plays at them: a few at a time, on the
        whole server (every node) and per address (``bot_tables``, ``bot_tables_per_address``).
        A table with a person's seat that nobody came to within the grace time counts as one."""
        cfg = self.config
        before = datetime.now(UTC) - timedelta(seconds=cfg.grace)
        try:
            total, mine = await asyncio.to_thread(self.store.bot_tables, address[:64], before)
        except Exception:  # storage down: nothing can be made anyway
            raise ProtocolError("storage_down", rule="P14") from None
        self._bot_tables_now = total
        if total >= cfg.bot_tables:
            raise ProtocolError("bot_tables", rule="P12", limit=cfg.bot_tables)
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

    async def join(self, table_id: str, name: str | None, seat: int | None, lang: str,
                   account: str | None = None) -> JoinReply:
        """P8: take an open seat of ``table_id`` (a signed-in person's is his ``account``'s, P18)."""
        for _ in range(3):
            table = await self.get(table_id)
            try:
                index, token = await table.seating.join(person_name(name), seat, account)
                break
            except TableMoved:
                continue
        else:
            raise ProtocolError("no_table", rule="P12", id=table_id)
        return JoinReply(table=table.info(lang), token=SeatToken(seat=index, token=token,
                                                                 url=seat_url(table_id, token)),
                         ws=f"/ws/tables/{table_id}")

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
                                        privileged=v.privileged.code, options=options,
                                        presets=presets(v.name, list(v.players), list(self.services.bots))))
        c = self.config
        levels = [LevelInfo(id=lv.id, name_en=lv.title("en"), name_ru=lv.title("ru"), blurb_en=lv.blurb("en"),
                            blurb_ru=lv.blurb("ru")) for lv in LEVELS if lv.id in self.services.bots]
        return Meta(server=__version__, variants=variants, bots=list(self.services.bots),
                    default_bot=self.services.default_bot, levels=levels, public_url=c.public_url,
                    limits=Limits(max_message_bytes=c.max_message_bytes, rate=c.rate, burst=c.burst,
                                  grace=c.grace, bot_delay=c.bot_delay, bot_tables=c.bot_tables,
                                  bot_tables_per_address=c.bot_tables_per_address,
                                  bot_tables_now=self._bot_tables_now, bot_workers=self.thinkers.workers,
                                  turn_choices=list(c.turn_choices),
                                  bank_choices=list(c.bank_choices), chat_rate=c.chat_rate, chat_burst=c.chat_burst))

    async def node_names(self) -> list[str]:
        """The names of the live nodes on the database (read at most once a second)."""
        loop = asyncio.get_running_loop()
        if self._nodes is None or loop.time() - self._nodes[0] > 1.0:
            try:
                nodes = await asyncio.to_thread(self.store.live_nodes, 2 * self.node.lease)
            except Exception:  # storage down: health says so elsewhere
                return [self.node.name]
            self._nodes = (loop.time(), sorted({n.name for n in nodes} | {self.node.name}))
        return self._nodes[1]

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

