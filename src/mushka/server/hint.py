"""Suggest a move (P17): the heuristic bot's choice for a person's seat, with its reason.

Offered only at a practice table, where every other seat is a bot: at a
table with other people a hint would be help nobody else gets.  The move is
worked out from the seat's own view (it knows no more than the player), in
the bots' worker pool (:mod:`mushka.server.thinkers`) so the event loop never waits for it, and is sent to
the asking connection only; it changes nothing and the player need not
follow it.  Its reason comes from :func:`mushka.bots.explain.explain`.
"""

from __future__ import annotations

import logging

from mushka.bots.explain import suggest
from mushka.engine.refusal import action_words
from mushka.i18n import add_texts
from mushka.server.protocol import Hint, RequestId
from mushka.server.seating import Client
from mushka.server.table import ServerTable
from mushka.server.texts import ProtocolError
from mushka.server.thinkers import WorkerLost

log = logging.getLogger("mushka.server")


def practice(table: ServerTable, seat: int) -> bool:
    """Whether ``seat`` is the only person's seat at ``table`` (every other one a bot)."""
    return all(s.kind == "bot" for s in table.seats if s.index != seat)


async def send_hint(table: ServerTable, client: Client, request: RequestId | None) -> None:
    """P17: work out the suggested move for ``client``'s seat and send it to him alone."""
    seat = client.seat
    if seat is None:
        raise ProtocolError("spectator", rule="P5")
    game = table.game
    if table.status != "playing" or game is None or game.is_over:
        raise ProtocolError("not_playing", rule="P5", status=table.status)
    if not practice(table, seat):
        raise ProtocolError("hint_humans", rule="P17")
    if game.to_act != seat:
        raise ProtocolError("hint_turn", rule="P17")
    version = table.version
    view = game.view(seat)
    try:
        action, reason = await table.services.thinkers.run(suggest, view)
    except WorkerLost:
        # The rules of thumb are cheap: the suggestion is worked out here rather than not at all.
        log.warning("table %s: the bot pool could not suggest a move; suggesting it here", table.id)
        action, reason = suggest(view)
    if table.version != version:
        raise ProtocolError("stale", rule="P9", given=version, current=table.version)
    lang = client.lang
    client.send(Hint(version=version, action=str(action), words=action_words(action, lang),
                     reason=reason.text(lang), rule=reason.rule, id=request).model_dump_json())


add_texts({
    "server.error.hint_humans": ("a move is suggested only at a practice table (you against bots), "
                                 "never where other people play",
                                 "ход подсказывается только за тренировочным столом (вы против ботов), "
                                 "но не там, где играют другие люди"),
    "server.error.hint_turn": ("a move is suggested on your turn", "ход подсказывается, когда ваш черёд"),
})
