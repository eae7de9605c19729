"""The review of a finished game for the web page (P11): one seat's decisions against the expert's.

The work is :func:`mushka.bots.review.review`'s, the same as ``mushka review
RECORD``: every decision of the seat, what the expert level would have
played there, and how much money the difference is worth on average with
its standard error (the search's own values).  Here it is only served:

- only for a finished game (P11: the record is read as ``/api/records/{id}``
  reads it, and a game still being played is refused with ``not_over``);
- in a worker process of its own pool (one process, a lower priority), never
  on the event loop and never in the pool the bots of the tables think in:
  a review of a long game takes seconds, and the bots' moves must not wait
  for it;
- once per (game, seat): the result is kept in memory, in both languages,
  and a second request for one being made waits for that one.

The reply is :class:`~mushka.server.bodies.ReviewReply` in the language asked
for: the actions in words as well as in the record's text form, and the three
costliest decisions marked (``costly``), as the terminal's ``--json`` marks them.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any, Final

from mushka.bots.review import ReviewError, action_words, review
from mushka.errors import MushkaError
from mushka.i18n import add_texts
from mushka.records import Record
from mushka.server.bodies import ReviewDecision, ReviewReply
from mushka.server.protocol import Lang
from mushka.server.thinkers import PoolKind, Thinkers

KEPT: Final = 64
"""Reviews kept in memory (the most recently asked for)."""

TIMEOUT: Final = 300.0
"""Seconds one review may take in its worker before it is given up (a game of 15 deals takes
about 8 on one core; a very long session of kopilka several times that)."""

Made = dict[str, Any]
"""What the worker sends back: ``{"players": n, "decisions": [...]}`` or ``{"error": ...}``."""


def review_made(text: str, seat: int) -> Made:
    """Review ``seat`` of the record ``text`` (in a worker): every decision, with the actions in
    words in both languages; a seat that is not at the table comes back as ``error``."""
    record = Record.loads(text)
    try:
        made = review(record, seat, workers=1)
    except ReviewError as exc:
        return {"error": exc.code, "rule": exc.rule, "params": dict(exc.params)}
    top = {(d.deal, d.index) for d in made.costliest()}
    out = []
    for decision in made.decisions:
        words = {lang: [action_words(decision.choice, lang), action_words(decision.best, lang)]
                 for lang in ("en", "ru")}
        out.append({**decision.to_json(), "costly": (decision.deal, decision.index) in top, "words": words})
    return {"players": record.players, "seats": list(record.seats), "decisions": out}


class Reviews:
    """The reviews a server makes and keeps (see the module docstring)."""

    def __init__(self, record: Callable[[str], Awaitable[str]], *, kind: PoolKind = "process",
                 nice: int = 5) -> None:
        """Reviews of the records ``record(table_id)`` gives (raising P11/P12 as it does), made in
        a pool of one worker of ``kind``."""
        self._record = record
        self.thinkers = Thinkers(1, kind=kind, nice=nice, timeout=TIMEOUT)
        """The reviews' own pool (one worker: one review at a time, the others wait their turn)."""
        self._made: OrderedDict[tuple[str, int], Made] = OrderedDict()
        self._making: dict[tuple[str, int], asyncio.Task[Made]] = {}

    async def reply(self, table_id: str, seat: int, lang: Lang) -> ReviewReply:
        """P11: the review of ``seat`` in the finished game of table ``table_id``, in ``lang``."""
        key = (table_id, seat)
        made = self._made.get(key)
        if made is None:
            made = await self._make(key)
        else:
            self._made.move_to_end(key)
        if "error" in made:
            raise ReviewError(str(made["error"]), rule=made.get("rule"), **made.get("params", {}))
        decisions = []
        for d in made["decisions"]:
            choice, best = d["words"][lang]
            fields = {k: v for k, v in d.items() if k not in ("words", "position")}
            decisions.append(ReviewDecision(**fields, choice_words=choice, best_words=best))
        costliest = sorted((d for d in decisions if d.costly), key=lambda d: (-d.loss, d.deal, d.index))
        return ReviewReply(id=table_id, seat=seat, players=made["players"], seats=made["seats"], lang=lang,
                           expert="expert", decisions=decisions,
                           costliest=[[d.deal, d.index] for d in costliest],
                           differ=sum(1 for d in decisions if d.choice != d.best),
                           total=round(sum(d.loss for d in decisions), 4))

    async def _make(self, key: tuple[str, int]) -> Made:
        """The review of ``key``, made once however many ask for it at the same time."""
        task = self._making.get(key)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._work(key))
            self._making[key] = task
            task.add_done_callback(lambda _t: self._making.pop(key, None))
        # A client that goes away does not cancel the review others may be waiting for.
        return await asyncio.shield(task)

    async def _work(self, key: tuple[str, int]) -> Made:
        table_id, seat = key
        text = await self._record(table_id)  # P11, P12: refused before any work
        made: Made = await self.thinkers.run(review_made, text, seat)
        if "error" not in made:
            self._made[key] = made
            while len(self._made) > KEPT:
                self._made.popitem(last=False)
        return made

    def shutdown(self) -> None:
        """Stop the pool (the server stops)."""
        self.thinkers.shutdown()


def seat_param(value: str | None) -> int:
    """P2: the ``seat`` of a review request: a whole number (0 when not given)."""
    if value is None or value == "":
        return 0
    if not value.isdigit() or len(value) > 3:
        raise MushkaError("review_seat_param", rule="P2", given=value[:16])
    return int(value)


add_texts({
    "error.review_seat_param": ("the seat to review must be a whole number (0 for the first seat), not {given!r}",
                                "место для разбора задаётся целым числом (0 — первое место), а не {given!r}"),
})
