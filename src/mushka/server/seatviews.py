"""The views a table sends, and what changed in them since the last message.

A seat's view is ``GameView.to_json`` of the engine: the deal as the seat
may know it and the score sheet around it.  Every part of it but the seat's
own ``hand``, ``own_discards`` and ``legal`` (and the ``seat`` number) is
public: the same for every seat and for spectators.  So a table builds the
public view once per change (``game.view(None)``) and adds each seat's own
part from the engine's public accessors (``deal.hand(seat)``,
``deal.discards(seat)``, ``deal.legal_actions()``), instead of building a
whole view per seat.  A test checks, over whole games of every variant,
that the result equals ``game.view(seat).to_json()`` at every step.

``update`` messages carry only what changed (docs/protocol.md, "update"):
the top-level keys whose value changed, the changed keys of ``deal``, and
the deals finished since the last message under ``history`` (to append).
:class:`ViewTracker` remembers the last view each audience was sent, so
that it can tell.
"""

from __future__ import annotations

from typing import Any

from mushka.engine import DealResult
from mushka.match import Game, Partie, Session

Audience = int | None
"""A seat, or ``None`` for the spectators."""

Json = dict[str, Any]

SEAT_KEYS = ("seat", "hand", "own_discards", "legal")
"""The keys of ``view.deal`` that differ from seat to seat."""


def seat_part(game: Game, seat: Audience) -> Json:
    """The seat's own part of ``view.deal`` (a spectator's has no cards)."""
    if seat is None:
        return {"seat": None, "hand": [], "own_discards": [], "legal": []}
    deal = game.deal
    legal: list[str] = []
    if seat == deal.to_act and not deal.is_over:
        legal = [str(a) for a in deal.legal_actions()]
    return {"seat": seat, "hand": [c.code for c in deal.hand(seat)],
            "own_discards": [c.code for c in deal.discards(seat)], "legal": legal}


def top_part(game: Game) -> Json:
    """The score sheet around the deal, as ``GameView.to_json`` has it, without the history.

    Read from the game's public attributes rather than from ``game.view``,
    which also gathers every finished deal's result and every game event:
    work that grows with the length of the partie, on every change.
    """
    records: list[int] = []
    side: list[int] = []
    pot = games = 0
    if isinstance(game, Partie):
        records, side = list(game.records), list(game.side)
    elif isinstance(game, Session):
        pot, games = game.current_pot, game.games
    result = game.result
    return {
        "number": len(game.finished) + (0 if game.is_over else 1), "money": list(game.money),
        "records": records, "side": side, "pot": pot, "games": games,
        "result": None if result is None else result.to_json(),
    }


def finished_results(game: Game, start: int = 0) -> list[DealResult]:
    """The results of the finished deals from number ``start + 1`` on."""
    return [d.result for d in game.finished[start:] if d.result is not None]


def full_view(game: Game, seat: Audience) -> Json:
    """``game.view(seat).to_json()``, built the cheap way."""
    deal = game.deal.view(None).to_json()
    deal.update(seat_part(game, seat))
    return {"deal": deal, **top_part(game), "history": [r.to_json() for r in finished_results(game)]}


class ViewTracker:
    """The views a table's audiences were last sent, to send them only what changed.

    The invariant: while the table has connections, the remembered views are
    those of the table's current version (every change goes through
    :meth:`changes`, every new audience through :meth:`full`).
    """

    def __init__(self) -> None:
        """Nothing remembered yet."""
        self._deal: Json | None = None
        """The public part of ``view.deal`` last sent."""
        self._top: Json | None = None
        self._history: list[Json] = []
        """Every finished deal's result, as JSON, made once per deal."""
        self._seats: dict[Audience, Json] = {}

    def reset(self) -> None:
        """Forget everything (the table has no connection left; the next one starts afresh)."""
        self._deal = None
        self._top = None
        self._seats.clear()

    def forget(self, audience: Audience) -> None:
        """The last connection of ``audience`` left."""
        self._seats.pop(audience, None)

    def _sync_history(self, game: Game) -> list[Json]:
        """The results of the deals finished since the last call (kept for full views too)."""
        added = [r.to_json() for r in finished_results(game, len(self._history))]
        self._history.extend(added)
        return added

    def full(self, game: Game, audience: Audience) -> Json:
        """The whole view of ``audience`` now (for ``state``), remembered as its baseline."""
        self._sync_history(game)
        deal = game.deal.view(None).to_json()
        top = top_part(game)
        mine = seat_part(game, audience)
        if self._deal is None or self._top is None:
            self._deal, self._top = dict(deal), top
        self._seats[audience] = mine
        deal.update(mine)
        return {"deal": deal, **top, "history": list(self._history)}

    def changes(self, game: Game, audiences: set[Audience]) -> dict[Audience, Json]:
        """What changed in each audience's view since its last message (and remember the new views).

        An audience seen for the first time (the game has just started) gets
        its whole view.
        """
        added = self._sync_history(game)
        deal = game.deal.view(None).to_json()
        top = top_part(game)
        first = self._deal is None or self._top is None
        common: Json = {}
        deal_changes: Json = {}
        if first:
            common = {**top, "history": list(self._history)}
            deal_changes = deal
        else:
            assert self._deal is not None and self._top is not None
            for key, value in top.items():
                if self._top.get(key) != value:
                    common[key] = value
            if added:
                common["history"] = added
            for key, value in deal.items():
                if key not in SEAT_KEYS and self._deal.get(key) != value:
                    deal_changes[key] = value
        self._deal, self._top = deal, top
        out: dict[Audience, Json] = {}
        for audience in audiences:
            mine = seat_part(game, audience)
            before = None if first else self._seats.get(audience)
            own = mine if before is None else {k: v for k, v in mine.items() if before.get(k) != v}
            self._seats[audience] = mine
            patch = dict(common)
            if deal_changes or own:
                patch["deal"] = {**deal_changes, **own} if own else deal_changes
            out[audience] = patch
        for audience in list(self._seats):
            if audience not in audiences:
                del self._seats[audience]
        return out


def apply_changes(view: Json | None, changes: Json) -> Json:
    """A view with an update's changes applied (what a client does; used by tests and tools)."""
    if view is None:
        return dict(changes)
    out = dict(view)
    for key, value in changes.items():
        if key == "deal":
            out["deal"] = {**view.get("deal", {}), **value}
        elif key == "history":
            out["history"] = [*view.get("history", []), *value]
        else:
            out[key] = value
    return out
