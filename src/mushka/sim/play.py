"""Batch play: many games between bots, reproducible per seed, on all cores.

Every game of a run is a :class:`GameJob`: which bot sits in which seat and
the game's seed.  The seed of game *i* is derived from the run's seed by
:func:`derive_seed`, and it alone fixes the game's chance: the first dealer,
and the deck (and kopilka picks) of every deal, whatever the players do
(each deal draws from its own generator, see :mod:`mushka.match`).  The bots
draw their own random choices from a second generator derived from the same
seed.  So a game can be played again alone (same seed, same bots: the same
game), or with the bots permuted over the seats (same cards: a duplicate
deal).  Bots are built afresh for every game, so nothing carries over from
one game to the next and the results do not depend on how games are spread
over processes.

Bots receive only their seat's view (:func:`mushka.bots.play_game`'s
contract).  A seat played by the plain ``random`` bot is driven without
building views: it picks with the same generator from the same legal actions
in the same order as :class:`~mushka.bots.RandomBot` would, so the games are
identical; a table of random bots only then runs on the engine's fast path.

:func:`run_jobs` plays a list of jobs in batches through an executor (this
process, a pool of processes, or a Ray cluster: :mod:`mushka.sim.executors`)
and returns one :class:`GameStats` per game, in job order.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import random
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from mushka.bots import Bot, RandomBot, make_bot
from mushka.bots.heuristic import HeuristicBot
from mushka.bots.levels import make_table_bot
from mushka.bots.search import SearchBot
from mushka.engine.events import Paid
from mushka.errors import MushkaError
from mushka.match import Game, new_game
from mushka.records import MAX_SEAT_NAME, record_of_game
from mushka.rules import Rules, make_rules
from mushka.sim.backend import Backend
from mushka.sim.errors import SimulationError
from mushka.sim.executors import InlineExecutor, open_backend

PLAYERS_RULE = {"classic": "C1", "mistigri": "MI1", "kopilka": "K1"}
"""The rule that sets the number of players of each variant."""


def derive_seed(*parts: object) -> int:
    """A 64-bit seed from ``parts`` (stable across runs, platforms and Python versions)."""
    text = "\x1f".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")


def game_seed(base: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded with ``base``."""
    return derive_seed("mushka-game", base, index)


# --- tables and bots ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SimTable:
    """The rules of a table in a form that crosses process boundaries."""

    variant: str
    players: int
    options: tuple[tuple[str, str], ...] = ()
    """Options that differ from the variant's defaults, as text."""

    @classmethod
    def of(cls, rules: Rules) -> SimTable:
        """The table of ``rules``."""
        return cls(rules.variant, rules.players, tuple(sorted(rules.options_text(changed_only=True).items())))

    def rules(self) -> Rules:
        """The validated rules (built once per process)."""
        return _rules(self)


@cache
def _rules(table: SimTable) -> Rules:
    return make_rules(table.variant, table.players, **dict(table.options))


def split_bot_specs(values: Sequence[str]) -> list[str]:
    """Bot specs from ``--bots`` values: ``a,b,c`` lists bots, and a piece
    ``key=value`` after a comma continues the previous bot's arguments
    (``search:iterations=100,depth=3,random`` is two bots)."""
    specs: list[str] = []
    for value in values:
        for raw in value.split(","):
            piece = raw.strip()
            if not piece:
                continue
            if specs and "=" in piece and ":" not in piece:
                specs[-1] = f"{specs[-1]},{piece}"
            else:
                specs.append(piece)
    return specs


def bot_spec(label: str) -> str:
    """The spec of a bot label: ``name[:key=value,...][#tag]`` without the tag.

    A ``#tag`` runs the same bot under another label, so that two copies of
    one bot are told apart in summaries and tournaments.
    """
    return label.partition("#")[0].strip()


def check_bot(spec: str) -> str:
    """Build ``spec`` once to prove it works; return it normalised (stripped).

    Raises a :class:`~mushka.errors.MushkaError` naming the bot for an
    unknown name, a parameter it does not take, or a value it refuses.
    """
    spec = spec.strip()
    try:
        make_bot(bot_spec(spec))
    except MushkaError:
        raise  # the registry's own errors (unknown bot, unknown parameter) are bilingual already
    except (TypeError, ValueError) as exc:
        # The bot's factory refused a value; its reason comes as it gave it.
        raise SimulationError("bad_bot_spec", spec=spec, problem=str(exc)) from None
    return spec


def seat_bots(specs: Sequence[str], rules: Rules) -> tuple[str, ...]:
    """One bot spec per seat: one spec for all seats or exactly one per seat."""
    if not specs:
        raise SimulationError("no_bots")
    checked = [check_bot(s) for s in specs]
    if len(checked) == 1:
        return tuple(checked) * rules.players
    _check_count(len(checked), rules)
    return tuple(checked)


def _check_count(count: int, rules: Rules) -> None:
    if count != rules.players:
        info = rules.info
        allowed = f"{info.players[0]}-{info.players[-1]}" if len(info.players) > 1 else str(info.players[0])
        raise SimulationError("bot_count", rule=PLAYERS_RULE.get(rules.variant), count=count,
                              players=rules.players, variant=rules.variant, allowed=allowed)


# --- one game ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameJob:
    """One game to play: its place in the run, its seed and who sits where."""

    index: int
    seed: int
    bots: tuple[str, ...]
    group: int = 0
    """Games of one group share their cards (a duplicate-deal group)."""
    table: int = 0
    """Which table composition of a tournament this is (0 in a simulation)."""


def simulation_jobs(bots: Sequence[str], games: int, seed: int, *, start: int = 0,
                    rotate: bool = False) -> list[GameJob]:
    """Games ``start`` .. ``start + games - 1`` of a run seeded with ``seed``.

    ``bots`` has one spec per seat; with ``rotate`` game *i* moves every bot
    *i* seats on, so that each bot sits in each seat equally often.
    """
    if games < 1:
        raise SimulationError("bad_count", what="--games", least=1, value=games)
    if start < 0:
        raise SimulationError("bad_count", what="--start", least=0, value=start)
    n = len(bots)
    out = []
    for i in range(start, start + games):
        seating = tuple(bots[(s - i) % n] for s in range(n)) if rotate else tuple(bots)
        out.append(GameJob(index=i, seed=game_seed(seed, i), bots=seating))
    return out


@dataclass(frozen=True, slots=True)
class GameStats:
    """What one game produced, per seat where it applies (seat order)."""

    index: int
    seed: int
    bots: tuple[str, ...]
    money: tuple[int, ...]
    """Money won (+) or lost (-) by each seat; sums to zero."""
    winner: int | None
    deals: int
    truncated: bool = False
    """The partie was stopped by the ``max_deals`` safety limit."""
    ended_by_mushka: bool = False
    played: tuple[int, ...] = ()
    """Deals each seat played (stood, in classic and mistigri; every deal in kopilka)."""
    tricks: tuple[int, ...] = ()
    remizes: tuple[int, ...] = ()
    """C18/MI6/K22.1: deals played without a trick."""
    mushkas: tuple[int, ...] = ()
    """C22/MI13: special hands that won the мушка."""
    flushes: tuple[int, ...] = ()
    """MI9 (or C22 with ``flush=side_payment``): flush payments collected."""
    outs: tuple[int, ...] = ()
    """K18: kopilka games in which the seat went out first."""
    reneges: tuple[int, ...] = ()
    """K12: penalties for passing while holding the led suit."""
    paid_in: tuple[int, ...] = ()
    """Kopilka: money paid into the pot (K3 ante, K12, K22.1 remiz, K22.3 game payments)."""
    received: tuple[int, ...] = ()
    """Kopilka: money taken from the pot (K22.2 tricks, K23 the pot)."""
    pot_taken: tuple[int, ...] = ()
    """Kopilka: each seat's share of the pot after game 4 (K23)."""
    all_passed: int = 0
    lone: int = 0
    deadlocks: int = 0
    course: tuple[tuple[int, ...], ...] = field(default=(), repr=False)
    """Records after each deal (partie), or balances from the ante to the
    final share-out (kopilka); only when asked for."""
    pot_course: tuple[int, ...] = field(default=(), repr=False)
    """Kopilka: the pot after the ante, after each game and at the end."""
    group: int = 0
    table: int = 0

    @property
    def players(self) -> int:
        """Seats at the table."""
        return len(self.money)


def play_job(table: SimTable, job: GameJob, *, max_deals: int | None = None, track: bool = False,
             records: Path | None = None, base_seed: int | None = None) -> GameStats:
    """Play the game of ``job`` at ``table`` and sum it up."""
    rules = table.rules()
    _check_count(len(job.bots), rules)
    # A level plays the spec measured for this table (docs/bots.md); other specs are as written.
    bots = [make_table_bot(bot_spec(label), rules.variant, rules.players) for label in job.bots]
    kwargs: dict[str, object] = {}
    if rules.has_trumps and max_deals is not None:
        kwargs["max_deals"] = max_deals
    fast = [type(b) is RandomBot for b in bots]
    # Kopilka's money flows are read from the payment events, so they are kept.
    record_events = not all(fast) or not rules.has_trumps
    game = new_game(rules, rng=job.seed, record_events=record_events, **kwargs)
    drive(game, bots, random.Random(derive_seed("mushka-bots", job.seed)), fast=fast,
          unchecked=not record_events)
    stats = summarise(game, job, track=track)
    if records is not None:
        meta: dict[str, object] = {"game_seed": job.seed, "index": job.index}
        if base_seed is not None:
            meta["seed"] = base_seed
        # A seat's name in a record is short (MAX_SEAT_NAME); a longer bot spec is cut there and
        # kept whole in the meta, so that every record written here reads back.
        seats = [b if len(b) <= MAX_SEAT_NAME else b[:MAX_SEAT_NAME - 1] + "…" for b in job.bots]
        if seats != list(job.bots):
            meta["bots"] = list(job.bots)
        path = records / f"game-{job.index:06d}.json"
        path.write_text(record_of_game(game, seats=seats, meta=meta).dumps(), encoding="utf-8")
    return stats


def drive(game: Game, bots: Sequence[Bot], rng: random.Random, *, fast: Sequence[bool] = (),
          unchecked: bool = False) -> Game:
    """Play ``game`` to its end like :func:`mushka.bots.play_game`.

    A forced action (the only legal one) of the rules of thumb or the search
    is played without building the seat's view: they would play it at once.
    Seats flagged in ``fast`` are plain random bots: they choose from
    :meth:`Game.legal_actions` without a view, drawing from ``rng`` exactly
    as :class:`~mushka.bots.RandomBot` does.  With ``unchecked`` a table of
    such seats only applies actions on the fast path (no checks, no events).
    """
    fast = list(fast) or [False] * game.n
    if unchecked and all(fast):
        choice = rng.choice
        while not game.is_over:
            game.apply_unchecked(choice(game.legal_actions()))
        return game
    blind = [type(b) in _FORCED_BLIND for b in bots]
    while not game.is_over:
        seat = game.to_act
        if fast[seat]:
            action = rng.choice(game.legal_actions())
        elif blind[seat] and len(legal := game.legal_actions()) == 1:
            action = legal[0]  # forced: the bot would play it without looking (no view built)
        else:
            action = bots[seat].choose(game.view(seat), rng)
        game.apply(action, seat)
    return game


# Bots that play a forced action (the only legal one) at once, without reading their view
# or drawing from the generator: for them :func:`drive` builds no view when the action is
# forced (about 30 % of the decisions of classic and mistigri, the costliest part of a
# simulation being the view).
_FORCED_BLIND: tuple[type, ...] = (HeuristicBot, SearchBot)


def summarise(game: Game, job: GameJob, *, track: bool = False) -> GameStats:
    """The :class:`GameStats` of a finished ``game``."""
    result = game.result
    assert result is not None, "the game is not over"
    n = game.n
    rules = game.rules
    played = [0] * n
    tricks = [0] * n
    remizes = [0] * n
    mushkas = [0] * n
    flushes = [0] * n
    outs = [0] * n
    reneges = [0] * n
    paid_in = [0] * n
    received = [0] * n
    all_passed = lone = deadlocks = 0
    course: list[tuple[int, ...]] = []
    pot_course: list[int] = []
    kopilka = not rules.has_trumps
    if kopilka:
        for s in range(n):
            paid_in[s] = rules.ante  # K3
        running = [-rules.ante] * n
        if track:
            course.append(tuple(running))
            pot_course.append(rules.ante * n)
    else:
        running = [rules.initial_record] * n  # C16
        if track:
            course.append(tuple(running))
    for deal in game.finished:
        res = deal.result
        assert res is not None
        if res.mushka is not None:
            mushkas[res.mushka] += 1
            continue
        if res.all_passed:
            all_passed += 1
        if res.lone is not None:
            lone += 1
        if res.flush_seat is not None:
            flushes[res.flush_seat] += 1
        if res.deadlock:
            deadlocks += 1
        if res.out is not None:
            outs[res.out] += 1
        for s in range(n):
            if res.standing and res.standing[s] and not res.all_passed:
                played[s] += 1
                tricks[s] += res.tricks[s]
                if res.remiz and res.remiz[s] > 0:
                    remizes[s] += 1
        if kopilka:
            for e in deal.events(omniscient=True):
                if isinstance(e, Paid):
                    if e.amount > 0:
                        paid_in[e.seat] += e.amount
                    else:
                        received[e.seat] -= e.amount
                    if e.reason == "renege":
                        reneges[e.seat] += 1
            running = [running[s] + res.money[s] for s in range(n)]
            if track:
                pot_course.append(res.pot)
        else:
            running = [running[s] + res.record_delta[s] for s in range(n)]
        if track:
            course.append(tuple(running))
    if kopilka:
        for s in range(n):
            received[s] += result.settlement[s] if result.settlement else 0  # K23
        if track:
            course.append(tuple(result.money))
            pot_course.append(0)
    return GameStats(
        index=job.index, seed=job.seed, bots=job.bots, money=result.money, winner=result.winner,
        deals=result.deals, truncated=result.truncated, ended_by_mushka=result.ended_by_mushka,
        played=tuple(played), tricks=tuple(tricks), remizes=tuple(remizes), mushkas=tuple(mushkas),
        flushes=tuple(flushes), outs=tuple(outs), reneges=tuple(reneges),
        paid_in=tuple(paid_in) if kopilka else (), received=tuple(received) if kopilka else (),
        pot_taken=tuple(result.settlement) if kopilka and result.settlement else (),
        all_passed=all_passed, lone=lone, deadlocks=deadlocks,
        course=tuple(course), pot_course=tuple(pot_course), group=job.group, table=job.table,
    )


# --- many games -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Batch:
    table: SimTable
    jobs: tuple[GameJob, ...]
    max_deals: int | None
    track: int
    """Track the course of games with an index below this."""
    records: str | None
    base_seed: int | None


def _play_batch(batch: _Batch) -> list[GameStats]:
    records = Path(batch.records) if batch.records is not None else None
    return [play_job(batch.table, job, max_deals=batch.max_deals, track=job.index < batch.track,
                     records=records, base_seed=batch.base_seed)
            for job in batch.jobs]


def default_jobs() -> int:
    """Worker processes by default: every core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def batch_size(games: int, slots: int) -> int:
    """Games per batch for ``games`` games on ``slots`` parallel workers.

    Small batches keep every worker busy to the end although games differ
    in length; at most 64 games, so that a batch lost with its worker costs
    little to play again, and at least one, never one task per game when
    there are many (a task costs a pool or Ray a millisecond or more).
    """
    return max(1, min(64, games // (max(1, slots) * 8)))


def run_jobs(
    table: SimTable,
    jobs: Sequence[GameJob],
    *,
    workers: int = 1,
    backend: Backend | None = None,
    max_deals: int | None = None,
    track: int = 0,
    records: Path | None = None,
    base_seed: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[GameStats]:
    """Play ``jobs`` at ``table`` and return their stats in job order.

    The games go in batches through ``backend`` (see
    :mod:`mushka.sim.executors`); without one, ``workers`` > 1 spreads them
    over that many processes of this machine and 1 plays them here.
    ``track`` keeps the course of the games whose index is below it (for
    plots); ``records`` is a directory that receives each game's record (on
    a cluster: a directory every worker can write); ``progress`` is called
    with the number of games just finished.
    """
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    if backend is None:
        with open_backend("local", min(workers, max(1, len(jobs)))) as own:
            return run_jobs(table, jobs, backend=own, max_deals=max_deals, track=track, records=records,
                            base_seed=base_seed, progress=progress)
    rec = None if records is None else str(records)
    size = batch_size(len(jobs), backend.slots)
    batches = (_Batch(table, tuple(jobs[i:i + size]), max_deals, track, rec, base_seed)
               for i in range(0, len(jobs), size))
    order = {job.index: k for k, job in enumerate(jobs)}
    results: list[GameStats | None] = [None] * len(jobs)
    # A few batches per worker in flight: workers never wait for the next one, and
    # Ctrl-C has little to cancel (and memory stays flat however long the run).
    window = 1 if isinstance(backend.executor, InlineExecutor) else max(2, 3 * backend.slots)
    running: set[Future[list[GameStats]]] = set()
    executor = backend.executor
    try:
        for batch in itertools.chain(batches, [None]):
            if batch is not None:
                running.add(executor.submit(_play_batch, batch))
                if len(running) < window:
                    continue
            while running and (batch is None or len(running) >= window):
                done, running = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    fresh = 0
                    for stats in future.result():
                        slot = order[stats.index]
                        # A batch is placed by game index: one played twice (a retry) counts once.
                        if results[slot] is None:
                            fresh += 1
                        results[slot] = stats
                    if progress is not None and fresh:
                        progress(fresh)
    except BaseException:
        # Interrupted, or a game failed: cancel what is queued or running, wherever it is.
        executor.shutdown(wait=False, cancel_futures=True)
        raise
    return [r for r in results if r is not None]


__all__ = [
    "GameJob",
    "GameStats",
    "SimTable",
    "batch_size",
    "bot_spec",
    "check_bot",
    "default_jobs",
    "derive_seed",
    "drive",
    "game_seed",
    "play_job",
    "run_jobs",
    "seat_bots",
    "simulation_jobs",
    "split_bot_specs",
    "summarise",
]
