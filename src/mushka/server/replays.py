"""Replays: every position of a finished game, computed by the engine from its record.

The replay viewer of the front end only draws what this returns: for each
deal, its opening and the position after each action, with every hand open
(a record is served only once its game is over, P11, so nothing is hidden
any more) and what happened, in sentences of the language asked for.  The
positions are the engine's own (``deal.hand(seat)``, ``deal.view(None)``),
so the viewer needs no rules of its own: no dealing, turn order or trick
winners in JavaScript.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mushka.engine import Deal, Event
from mushka.match import DealStarted, Game, new_game
from mushka.records import Record, replay
from mushka.server.bodies import Replay, ReplayDeal, ReplayStep
from mushka.server.protocol import Lang
from mushka.server.wire import describe, opening_events

PRIVATE_KEYS = ("seat", "hand", "own_discards", "legal", "variant", "players", "privileged")
"""Keys of a spectator's deal view that a replay step leaves out (said once, or empty)."""


def _position(deal: Deal) -> dict[str, Any]:
    view = deal.view(None).to_json()
    for key in PRIVATE_KEYS:
        view.pop(key, None)
    return view


def _step(deal: Deal, number: int, actor: int | None, action: str | None, events: Sequence[Event],
          lang: str, names: Sequence[str | None]) -> ReplayStep:
    n = deal.rules.players
    return ReplayStep(
        step=number, actor=actor, action=action,
        texts=[describe(e, lang, names) for e in events],
        hands=[[c.code for c in deal.hand(s)] for s in range(n)],
        discards=[[c.code for c in deal.discards(s)] for s in range(n)],
        deal=_position(deal),
    )


def _route(events: Sequence[Event], step: list[Event], openings: dict[int, list[Event]]) -> None:
    """Events of one action: those before a deal starts belong to the action's step, the
    rest to the opening of the deal that started (one action can end a deal and deal the next)."""
    target = step
    for event in events:
        if isinstance(event, DealStarted):
            target = openings.setdefault(event.number, [])
        target.append(event)


def build_replay(record: Record, table_id: str, lang: Lang) -> Replay:
    """Every position of the finished game of ``record``, texts in ``lang``.

    Raises :class:`~mushka.records.RecordError` (naming the deal, the action
    and the rule) if the record does not replay.
    """
    replay(record)  # checks every deal, action and chance outcome, and the stored result
    rules = record.rules()
    extra: dict[str, Any] = {}
    limit = record.meta.get("max_deals")
    if rules.has_trumps and isinstance(limit, int) and not isinstance(limit, bool) and limit > 0:
        extra["max_deals"] = limit
    game: Game = new_game(rules, first_dealer=record.first_dealer, rng=0,
                          decks=[d.deck for d in record.deals], picks=[d.picks for d in record.deals], **extra)
    names: list[str | None] = [*record.seats[: rules.players]]
    names += [None] * (rules.players - len(names))
    openings: dict[int, list[Event]] = {}
    _route(opening_events(game), openings.setdefault(1, []), openings)
    deals: list[ReplayDeal] = []
    for number, recorded in enumerate(record.deals, 1):
        deal = game.deals[number - 1]
        steps = [_step(deal, 0, None, None, openings.get(number, []), lang, names)]
        for k, action in enumerate(recorded.actions, 1):
            actor = deal.to_act
            happened: list[Event] = []
            _route(game.apply(action), happened, openings)
            steps.append(_step(deal, k, actor, str(action), happened, lang, names))
        after = game.view(None)
        deals.append(ReplayDeal(
            number=number, dealer=deal.dealer, steps=steps,
            result=None if deal.result is None else deal.result.to_json(),
            records=list(after.records), money=list(after.money), pot=after.pot,
        ))
    return Replay(
        id=table_id, variant=rules.variant, variant_title=rules.info.title(lang), players=rules.players,
        options=rules.options_text(changed_only=True), seats=[n or "" for n in names], lang=lang,
        deals=deals, result=None if game.result is None else game.result.to_json(),
    )


def replay_json(text: str, table_id: str, lang: Lang) -> str:
    """:func:`build_replay` of the record ``text``, as the reply's JSON (made in a worker process:
    the server's loop only sends it)."""
    return build_replay(Record.loads(text), table_id, lang).model_dump_json()
