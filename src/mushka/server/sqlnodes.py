"""The nodes and leases of a shared database: which process owns which table, fenced in SQL.

A process that serves tables is a *node*: a row in ``mushka_nodes`` with a random
instance id (new at every start) and the name the proxy routes to.  Each table that
waits or plays has a *lease* row: its owner's instance id, an *epoch* raised at every
change of owner, and an expiry that the owner pushes forward every third of the lease
time.  The guarantee, whatever the processes do (run, pause past their lease, die,
restart, race):

- A table changes owner only by one ``UPDATE`` whose condition is that the lease
  expired (or was released); the epoch goes up by one in the same statement.
- Every commit of a table's changes begins by renewing the committing process's
  leases of the tables in it, on the condition that it still holds them (owner and
  epoch); the saves of a table whose lease it lost are left out of the transaction, and
  the process is told (:meth:`LeaseBook.fence`).  On PostgreSQL that ``UPDATE`` locks the
  lease rows until the commit: a claimer waits for it, and then reads what it stored; on
  SQLite the first write of a transaction takes the database's one write lock.

So a table is never written by two processes, and nothing committed is lost by a
change of owner: the new owner reads the journal after its claim committed, and the
old one can commit nothing after that.  A paused process whose leases ran out finds
its next commit refused and drops those tables.  Clocks matter only for *when* a lease
may be taken (a lease time of a few seconds tolerates clocks a fraction of a second
apart); never for whether two processes can write.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Iterable, Set
from typing import Final

from sqlalchemy import and_, delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection, Engine

from mushka.server.sqlschema import Base
from mushka.server.store import NodeInfo, Placement
from mushka.server.texts import StorageError

log = logging.getLogger("mushka.server")

_TABLES = Base.metadata.tables["mushka_tables"]
_LEASES = Base.metadata.tables["mushka_leases"]
_NODES = Base.metadata.tables["mushka_nodes"]

FORGET_NODES_AFTER: Final = 24 * 3600 * 1000
"""Milliseconds after which the row of a node not seen is removed (a crashed process's)."""


def now_ms() -> int:
    """Milliseconds since 1970 (UTC), the time of every lease."""
    return int(time.time() * 1000)


def _alive_here(node: NodeInfo) -> bool:
    """Whether ``node``'s process may still run: on another machine we cannot tell (yes); on
    this one, whether its process id is taken."""
    if node.host != socket.gethostname():
        return True
    try:
        os.kill(node.pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _node(row: object) -> NodeInfo:
    r = row._mapping  # type: ignore[attr-defined]
    return NodeInfo(instance=r["instance"], name=r["name"], host=r["host"], pid=r["pid"], port=r["port"],
                    started_ms=r["started_ms"], seen_ms=r["seen_ms"])


class LeaseBook:
    """This process's node row and the leases it holds (see the module docstring).

    Every method that writes runs where the writer commits, one at a time; ``held`` is
    changed only after a transaction committed."""

    def __init__(self, engine: Engine) -> None:
        """Leases on ``engine``'s database; nothing held until :meth:`register`."""
        self.engine = engine
        self.node: NodeInfo | None = None
        self.ttl_ms = 5000
        self.held: dict[str, int] = {}
        """Table id -> the epoch of its lease that this process holds."""
        self.renewed_ms: int | None = None
        """When the last renewal of every lease was committed."""

    @property
    def sqlite(self) -> bool:
        """Whether the database is SQLite (one machine: nodes are told apart by process id)."""
        return self.engine.dialect.name == "sqlite"

    # --- the node ------------------------------------------------------------------------

    def live_nodes(self, ttl: float) -> list[NodeInfo]:
        """Nodes seen within ``ttl`` seconds, oldest first."""
        since = now_ms() - int(ttl * 1000)
        with self.engine.connect() as conn:
            rows = conn.execute(select(_NODES).where(_NODES.c.seen_ms >= since).order_by(_NODES.c.started_ms))
            return [_node(r) for r in rows]

    def check(self, name: str, *, ttl: float, join: bool) -> None:
        """Refuse to start (:class:`StorageError`) beside a live node of the same name, or, on
        SQLite without ``join``, beside any live node."""
        for other in self.live_nodes(2 * ttl):
            if not _alive_here(other):
                continue
            where = f"{other.host}:{other.port}" if other.port else other.host
            if other.name == name:
                raise StorageError("node_taken", name=name, pid=other.pid, where=where)
            if self.sqlite and not join:
                raise StorageError("database_in_use", name=other.name, pid=other.pid, where=where)

    def register(self, node: NodeInfo, *, ttl: float, join: bool) -> None:
        """Enter ``node``; the leases of dead processes of this machine are released at once."""
        self.check(node.name, ttl=ttl, join=join)
        self.ttl_ms = int(ttl * 1000)
        moment = now_ms()
        dead = self._dead_here(node.instance)
        with self.engine.begin() as conn:
            self._forget(conn, dead)
            conn.execute(delete(_NODES).where(_NODES.c.seen_ms < moment - FORGET_NODES_AFTER))
            conn.execute(insert(_NODES).values(instance=node.instance, name=node.name, host=node.host,
                                               pid=node.pid, port=node.port, started_ms=moment, seen_ms=moment))
        self.node = node
        self.renewed_ms = moment
        if dead:
            log.info("released the tables of %d stopped processes of this machine", len(dead))

    def _dead_here(self, me: str) -> list[str]:
        """The instances of this machine's nodes (not ``me``) whose process has ended."""
        with self.engine.connect() as conn:
            here = [_node(r) for r in conn.execute(select(_NODES).where(_NODES.c.host == socket.gethostname()))]
        return [n.instance for n in here if n.instance != me and not _alive_here(n)]

    @staticmethod
    def _forget(conn: Connection, dead: list[str]) -> None:
        if dead:
            # Their process is gone: nobody can write under these leases any more, so they are
            # free now rather than when they run out.
            conn.execute(update(_LEASES).where(_LEASES.c.owner.in_(dead)).values(owner="", expires_ms=0))
            conn.execute(delete(_NODES).where(_NODES.c.instance.in_(dead)))

    def release_dead_here(self) -> int:
        """Free the leases of this machine's nodes whose process has ended (killed, crashed):
        the other processes of a machine take a dead one's tables within a claim pass instead
        of a lease time.  On other machines only the lease's expiry tells."""
        node = self.node
        if node is None:
            return 0
        dead = self._dead_here(node.instance)
        if dead:
            with self.engine.begin() as conn:
                self._forget(conn, dead)
            log.info("released the tables of %d ended processes of this machine", len(dead))
        return len(dead)

    def unregister(self) -> None:
        """Release every lease and remove the node's row (a clean stop)."""
        node = self.node
        if node is None:
            return
        with self.engine.begin() as conn:
            conn.execute(update(_LEASES).where(_LEASES.c.owner == node.instance).values(owner="", expires_ms=0))
            conn.execute(delete(_NODES).where(_NODES.c.instance == node.instance))
        self.held.clear()
        self.node = None

    # --- leases inside a commit ------------------------------------------------------------

    def fence(self, conn: Connection, table_ids: Set[str]) -> set[str]:
        """Inside a commit's transaction, first: renew this process's leases of ``table_ids``
        if it still holds them; the ids it holds (the others' saves must be left out).  A lease
        that ran out but that nobody took meanwhile (same owner, same epoch) is still this
        process's: nobody else can have written the table (a long lock on the database, a
        pause that nobody used)."""
        node = self.node
        if node is None or not table_ids:
            return set(table_ids)
        mine = [t for t in table_ids if t in self.held]
        if not mine:
            return set()
        rows = conn.execute(
            update(_LEASES).where(and_(_LEASES.c.owner == node.instance, _LEASES.c.table_id.in_(mine)))
            .values(expires_ms=now_ms() + self.ttl_ms).returning(_LEASES.c.table_id, _LEASES.c.epoch))
        return {tid for tid, epoch in rows if self.held.get(tid) == epoch}

    def grant(self, conn: Connection, table_ids: Iterable[str]) -> list[str]:
        """Inside a commit's transaction: the leases of new tables, this process's (epoch 1)."""
        node = self.node
        ids = list(table_ids)
        if node is None or not ids:
            return []
        expires = now_ms() + self.ttl_ms
        conn.execute(insert(_LEASES), [{"table_id": t, "owner": node.instance, "epoch": 1, "expires_ms": expires}
                                       for t in ids])
        return ids

    def committed(self, granted: Iterable[str], lost: Iterable[str]) -> None:
        """After a commit: the new tables are held, the refused ones are not."""
        for t in granted:
            self.held[t] = 1
        for t in lost:
            self.held.pop(t, None)

    # --- leases on their own -----------------------------------------------------------------

    def renew(self) -> set[str]:
        """Push every lease of this process forward; the ids of those another process took
        meanwhile (see :meth:`fence`)."""
        node = self.node
        if node is None:
            return set()
        moment = now_ms()
        with self.engine.begin() as conn:
            rows = conn.execute(update(_LEASES).where(_LEASES.c.owner == node.instance)
                                .values(expires_ms=moment + self.ttl_ms)
                                .returning(_LEASES.c.table_id, _LEASES.c.epoch))
            kept = {tid for tid, epoch in rows if self.held.get(tid) == epoch}
            conn.execute(update(_NODES).where(_NODES.c.instance == node.instance).values(seen_ms=moment))
        lost = set(self.held) - kept
        for t in lost:
            self.held.pop(t, None)
        self.renewed_ms = moment
        return lost

    def _take(self, conn: Connection, ids: list[str], moment: int) -> dict[str, int]:
        node = self.node
        assert node is not None
        rows = conn.execute(
            update(_LEASES).where(and_(_LEASES.c.table_id.in_(ids),
                                       or_(_LEASES.c.expires_ms < moment, _LEASES.c.owner == "")))
            .values(owner=node.instance, epoch=_LEASES.c.epoch + 1, expires_ms=moment + self.ttl_ms)
            .returning(_LEASES.c.table_id, _LEASES.c.epoch))
        return {tid: epoch for tid, epoch in rows}

    def claim(self, table_id: str) -> bool:
        """Take the lease of ``table_id`` if nobody holds it; whether this process holds it now."""
        if self.node is None:
            return True
        if table_id in self.held:
            return True
        moment = now_ms()
        with self.engine.begin() as conn:
            taken = self._take(conn, [table_id], moment)
        if not taken and self.release_dead_here():
            # Its owner was a process of this machine that has ended: free now, not in a lease time.
            with self.engine.begin() as conn:
                taken = self._take(conn, [table_id], now_ms())
        with self.engine.begin() as conn:
            if not taken:
                exists = conn.execute(select(_LEASES.c.table_id).where(_LEASES.c.table_id == table_id)).first()
                if exists is None:
                    # A table stored before leases (or by a tool): its first lease.
                    known = conn.execute(select(_TABLES.c.id).where(_TABLES.c.id == table_id)).first()
                    if known is not None:
                        self.grant(conn, [table_id])
                        taken = {table_id: 1}
        self.held.update(taken)
        return table_id in taken

    def claim_expired(self, limit: int, *, waiting: bool = False) -> list[str]:
        """Take up to ``limit`` playing tables (and waiting ones too, if ``waiting``) whose lease
        ran out, in random order (several processes claiming at once share them out)."""
        if self.node is None or limit <= 0:
            return []
        self.release_dead_here()
        moment = now_ms()
        with self.engine.connect() as conn:
            candidates = [r[0] for r in conn.execute(
                select(_LEASES.c.table_id).join(_TABLES, _TABLES.c.id == _LEASES.c.table_id)
                .where(and_(_TABLES.c.status.in_(("playing", "waiting") if waiting else ("playing",)),
                            or_(_LEASES.c.expires_ms < moment, _LEASES.c.owner == "")))
                .order_by(func.random()).limit(limit))]
        # Not its own: a table this process still plays whose lease ran out is either still
        # its own at the next renewal (nobody took it) or lost then, never taken twice.
        candidates = [t for t in candidates if t not in self.held]
        if not candidates:
            return []
        with self.engine.begin() as conn:
            taken = self._take(conn, candidates, now_ms())
        self.held.update(taken)
        return sorted(taken)

    def release(self, table_ids: Iterable[str]) -> None:
        """Give these leases up (a table forgotten while idle, or over)."""
        node = self.node
        ids = [t for t in table_ids if t in self.held]
        if node is None or not ids:
            return
        with self.engine.begin() as conn:
            conn.execute(update(_LEASES).where(and_(_LEASES.c.owner == node.instance, _LEASES.c.table_id.in_(ids)))
                         .values(owner="", expires_ms=0))
        for t in ids:
            self.held.pop(t, None)

    def placement(self, table_id: str) -> Placement | None:
        """Where ``table_id`` is: its status, and the name of the live node that holds it."""
        moment = now_ms()
        with self.engine.connect() as conn:
            row = conn.execute(
                select(_TABLES.c.status, _LEASES.c.owner, _LEASES.c.expires_ms, _NODES.c.name)
                .select_from(_TABLES.outerjoin(_LEASES, _LEASES.c.table_id == _TABLES.c.id)
                             .outerjoin(_NODES, _NODES.c.instance == _LEASES.c.owner))
                .where(_TABLES.c.id == table_id)).first()
        if row is None:
            return None
        status, owner, expires, name = row
        node = self.node
        mine = node is not None and owner == node.instance and table_id in self.held
        held = bool(owner) and expires is not None and expires >= moment and not mine
        return Placement(table_id=table_id, status=status, owner=(name or owner) if held else None, mine=mine)

