"""RULES §4 over the wire: no message to a seat carries a card that seat may not know.

Whole games are played through the server, one seat by this test (random
legal actions) and bots at the others.  Every message that seat received is
kept.  Afterwards the game is rebuilt from its record and replayed action by
action with the omniscient engine, and for each moment (``ply``) the set of
cards the seat may know is built from the *state*, independently of the
engine's redaction: every card that was ever in its own hand, its own
discards, every card put on the table, the turned-up card, and hands shown
by rule (C22, MI9) together with what their owners exchange afterwards.  In
kopilka a taker's taken card and an owner's taken cards were in their own
hands, so they are covered by the first item.  Any card code or card name in
a message outside that set is a leak.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from serverkit import Player, create, running

from mushka.cards import CARDS, Card, parse_card
from mushka.engine.events import Shown
from mushka.match import Game, new_game
from mushka.records import Record

CODE = re.compile(r"^[2-9TJQKA][SCDH]$")
SHOWN = re.compile(r"(10|[2-9JQKAВДКТ])([♠♣♦♥])")
ACTION = re.compile(r"^(stand|take|discard)((?: [2-9TJQKA][SCDH])*)$")


def cards_in(message: Any, key: str = "") -> set[Card]:
    """Every card a message names: codes in data, cards in actions, card symbols in texts."""
    found: set[Card] = set()
    if isinstance(message, dict):
        for k, v in message.items():
            if k != "privileged":  # the name of the privileged card is a rule, not knowledge of it
                found |= cards_in(v, k)
    elif isinstance(message, list):
        for v in message:
            found |= cards_in(v, key)
    elif isinstance(message, str):
        if CODE.match(message):
            found.add(parse_card(message))
        elif (m := ACTION.match(message)) is not None:
            found |= {parse_card(c) for c in m.group(2).split()}
        if key == "text" or key == "message":
            found |= {parse_card(a + b) for a, b in SHOWN.findall(message)}
    return found


def initial_hand(deck: tuple[Card, ...], players: int, dealer: int, seat: int) -> set[Card]:
    """N4: one card at a time from the top, starting with the eldest, five each."""
    eldest = (dealer + 1) % players
    return {deck[k] for k in range(5 * players) if (eldest + k) % players == seat}


class Knowledge:
    """What one seat may know, after each action of a game rebuilt from its record."""

    def __init__(self, record: Record, seat: int) -> None:
        rules = record.rules()
        self.seat = seat
        game = new_game(rules, first_dealer=record.first_dealer,
                        decks=[d.deck for d in record.deals], picks=[d.picks for d in record.deals])
        self.by_ply: list[set[Card]] = []
        self._closed: set[int] = set()
        current: dict[int, set[Card]] = {}
        self._look(game, current)
        self.by_ply.append(set().union(*current.values()))
        for d in record.deals:
            for action in d.actions:
                before = len(game.finished)
                game.apply(action)
                self._look(game, current)
                now = set(current[len(game.deals) - 1])
                if len(game.finished) != before:
                    # The message of this action still tells of the deal that just ended.
                    now |= current[before]
                self.by_ply.append(now)
        assert game.is_over
        self.rules = rules

    def _look(self, game: Game, known: dict[int, set[Card]]) -> None:
        seat = self.seat
        for index, deal in enumerate(game.deals):
            if index in self._closed:
                continue
            if deal.is_over:
                self._closed.add(index)  # looked at once more, after its last action
            cards = known.setdefault(index, set())
            if not cards:
                cards |= initial_hand(deal.deck, deal.n, deal.dealer, seat)
            cards |= set(deal.hand(seat)) | set(deal.discards(seat))
            cards |= {c for _, c in deal.current_trick}
            cards |= {c for t in deal.tricks for _, c in t.cards}
            turnup = getattr(deal, "turnup", None)
            if game.rules.has_trumps and isinstance(turnup, int):
                cards.add(CARDS[turnup])
            for event in deal.events(omniscient=True):
                if isinstance(event, Shown):
                    # C22/MI9: a shown hand is public from then on, and so is what its owner exchanges.
                    cards |= set(event.cards) | set(deal.hand(event.seat)) | set(deal.discards(event.seat))


def leaks(messages: list[str], knowledge: Knowledge) -> list[tuple[int, str]]:
    """(ply, card) for every card a message names that the seat could not know at that moment."""
    found = []
    ply = 0
    for text in messages:
        message = json.loads(text)
        ply = message.get("ply", ply)
        allowed = knowledge.by_ply[ply]
        for card in cards_in(message) - allowed:
            found.append((ply, card.code))
    return found


def play_through(client: Any, variant: str, players: int, options: dict[str, object], seed: int) -> tuple[
        list[str], Knowledge]:
    made = create(client, variant=variant, seats=["me"] + ["bot:random"] * (players - 1), start=True,
                  options=options)
    table_id = made["table"]["id"]
    me = Player(client, table_id, made["tokens"][0]["token"], lang="ru" if seed % 2 else "en")
    rng = random.Random(seed)
    acted = -1
    while not me.over():
        if me.my_turn() and acted != me.version:
            acted = me.version
            me.act(rng.choice(me.view["deal"]["legal"]))
        message = me.recv()
        assert message["type"] != "error", message
    if me.state["table"]["status"] != "over":  # the bots may have ended it before this seat connected
        me.until(lambda m: m["type"] == "table" and m["table"]["status"] == "over")
    me.close()
    record = Record.loads(client.get(f"/api/records/{table_id}").text)
    return me.received, Knowledge(record, 0)


GAMES = [
    # Random players rarely bring a record down to zero when every trickless stand costs a
    # remiz, so the larger tables play with small remizes: the partie then ends in a few deals.
    ("classic", 3, {"initial_record": 8}),
    ("classic", 4, {"initial_record": 8, "lone_player": "dealer_must_play", "remiz": 2}),
    ("classic", 5, {"initial_record": 6, "flush": "side_payment", "remiz": 0}),
    ("classic", 7, {"initial_record": 5, "remiz": 0}),
    ("mistigri", 3, {"initial_record": 8}),
    ("mistigri", 4, {"initial_record": 8, "remiz": 2, "privileged_remiz": 4}),
    ("mistigri", 6, {"initial_record": 5, "remiz": 0, "privileged_remiz": 0}),
    ("kopilka", 4, {}),
    ("kopilka", 4, {"redistribution": "old", "renege": "forbid"}),
]


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "players", "options"), GAMES)
def test_no_message_to_a_seat_shows_a_card_it_may_not_know(
    tmp_path: Path, variant: str, players: int, options: dict[str, object]
) -> None:
    messages_seen = 0
    named: set[Card] = set()
    hidden = 0
    with running(tmp_path) as client:
        for seed in range(6):
            messages, knowledge = play_through(client, variant, players, options, seed)
            assert leaks(messages, knowledge) == []
            messages_seen += len(messages)
            named |= set().union(*(cards_in(json.loads(m)) for m in messages))
            deck = set(knowledge.rules.deck_cards)
            hidden += sum(len(deck - known) for known in knowledge.by_ply)
    # The check has teeth: the messages named many cards, and cards stayed hidden from the seat.
    assert messages_seen > 100 and len(named) >= 10 and hidden > 0


def test_the_check_finds_a_card_of_another_seat() -> None:
    # A deal record of a 3-player classic deal: seat 1's hand is hidden from seat 0.
    deck = " ".join(c.code for c in CARDS if c.rank >= 5)
    record = Record.from_json({
        "format": "mushka-record", "version": 1, "variant": "classic", "players": 3,
        "first_dealer": 2, "deals": [{"dealer": 2, "deck": deck, "actions": []}],
    })
    game_deck = record.deals[0].deck
    knowledge = Knowledge.__new__(Knowledge)
    knowledge.by_ply = [initial_hand(game_deck, 3, 2, 0) | {game_deck[15]}]
    other = sorted(initial_hand(game_deck, 3, 2, 1))[0]
    mine = sorted(initial_hand(game_deck, 3, 2, 0))[0]
    fine = json.dumps({"type": "state", "ply": 0, "view": {"deal": {"hand": [mine.code]}}})
    assert leaks([fine], knowledge) == []
    for bad in (
        {"type": "state", "ply": 0, "view": {"deal": {"hand": [other.code]}}},
        {"type": "update", "ply": 0, "events": [{"event": "Played", "data": {}, "text": f"{other.display('ru')}"}]},
        {"type": "update", "ply": 0, "view": {"deal": {"legal": [f"stand {other.code}"]}}},
    ):
        assert leaks([json.dumps(bad)], knowledge) == [(0, other.code)]
