"""Durability: every change is stored, many tables' changes per transaction, before anybody is told;
a storage failure loses nothing a restart needs once storage is back."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Sequence
from pathlib import Path

import pytest
from serverkit import Player, config, create
from sqlalchemy.exc import OperationalError
from starlette.testclient import TestClient

from mushka.server import create_app
from mushka.server.sqlstore import SqlStore
from mushka.server.store import Move, Save
from mushka.server.writer import WriteFailed, Writer

CALM = {"flush": "none", "privileged_four": "none"}


class GatedStore:
    """A store whose first commit waits until the test opens the gate; it remembers each batch."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.entered = threading.Event()
        self.batches: list[list[Save]] = []

    def commit(self, saves: Sequence[Save]) -> None:
        self.entered.set()
        self.gate.wait(10)
        self.batches.append(list(saves))


def test_saves_that_arrive_during_a_commit_share_the_next_one() -> None:
    async def run() -> GatedStore:
        store = GatedStore()
        writer = Writer(store)  # type: ignore[arg-type]
        writer.start()
        first = asyncio.create_task(writer.write(Save("t0", version=1, ply=1, status="playing")))
        await asyncio.to_thread(store.entered.wait, 10)  # the first commit is running now
        rest = [asyncio.create_task(writer.write(
            Save(f"t{n % 7}", version=n, ply=n, status="playing", moves=(Move(n, 1, "pass"),))))
            for n in range(2, 52)]
        await asyncio.sleep(0)
        assert not first.done() and writer.pending == 50
        store.gate.set()
        await asyncio.gather(first, *rest)
        assert writer.stats.commits == 2 and writer.stats.saves == 51 and writer.stats.largest == 50
        await writer.close()
        return store

    store = asyncio.run(run())
    assert [len(b) for b in store.batches] == [1, 50]
    # One table's saves stay in the order they were made.
    assert [s.version for s in store.batches[1] if s.table_id == "t3"] == [n for n in range(2, 52) if n % 7 == 3]


def test_every_update_is_stored_before_it_is_sent(tmp_path: Path) -> None:
    cfg = config(tmp_path)
    with TestClient(create_app(cfg)) as client:
        made = create(client, variant="classic", players=3, seats=["me", "me", "me"], start=True, options=CALM)
        table_id = made["table"]["id"]
        players = [Player(client, table_id, t["token"]) for t in made["tokens"]]
        reader = SqlStore(cfg.database_url, migrate=False)
        rng = random.Random(4)
        for _ in range(25):
            view = players[0].view
            assert view is not None
            if view["result"] is not None:
                break
            actor = players[view["deal"]["to_act"]]
            actor.act(rng.choice(actor.view["deal"]["legal"]))  # type: ignore[index]
            update = players[0].until(lambda m: m["type"] == "update")
            stored = reader.load(table_id)
            # What a client has seen survives a crash of the server right now: it is in storage.
            assert stored is not None and stored.version >= update["version"] and stored.ply == update["ply"]
            for p in players[1:]:
                p.until(lambda m: m["type"] == "update")
        reader.close()
        for p in players:
            p.close()


def test_a_write_that_keeps_failing_is_reported_to_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("mushka.server.writer.RETRY_DELAYS", (0.0, 0.0, 0.0))

    class Down:
        def commit(self, saves: Sequence[Save]) -> None:
            raise OperationalError("COMMIT", {}, Exception("database is locked"))

    async def run() -> None:
        writer = Writer(Down(), max_batch=10)  # type: ignore[arg-type]
        writer.start()
        with pytest.raises(WriteFailed):
            await writer.write(Save("t", version=1, ply=0, status="waiting"))
        assert writer.stats.failures == 4 and writer.stats.commits == 0
        await writer.close()

    asyncio.run(run())
