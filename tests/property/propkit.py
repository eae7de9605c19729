"""Shared pieces of the property tests: tables, random options, playouts, and the
independent checks (cards conserved, what a seat may know, full snapshots)."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

from hypothesis import strategies as st

from mushka import make_rules, new_deal
from mushka.cards import Card
from mushka.engine import Action, Deal
from mushka.match import Game
from mushka.rules import Rules

TABLES = [("classic", n) for n in range(3, 8)] + [("mistigri", n) for n in range(3, 8)] + [("kopilka", 4)]

TRUMP_OPTIONS: dict[str, list[Any]] = {
    "dealer_takes_turnup": [True, False],
    "max_exchange": [0, 2, 5],
    "lone_player": ["takes_all_tricks", "dealer_must_play"],
    "all_pass": ["redeal", "same_dealer"],
    "privileged_beats_trumps": [False, True],
    "privileged_free_play": [True, False],
    "must_follow": [True, False],
    "must_trump_if_void": [True, False],
    "must_head_trick": [False, True],
    "must_overtrump": [False, True],
    "flush": ["wins_mushka", "side_payment", "none"],
    "can_discard_privileged": [False, True],
    "privileged_must_play": [True, False],
    "initial_record": [30, 4],
}
KOPILKA_OPTIONS: dict[str, list[Any]] = {
    "renege": ["penalty", "forbid"],
    "redistribution": ["modern", "old"],
    "ante": [10, 0, 3],
    "game_payment": [None, 1],
    "remiz": [5, 0, 2],
}


@st.composite
def tables(draw: st.DrawFn, *, options: bool = True) -> Rules:
    """A table of any variant and size, with default or random house rules."""
    variant, players = draw(st.sampled_from(TABLES))
    chosen: dict[str, Any] = {}
    if options and draw(st.booleans()):
        pool = KOPILKA_OPTIONS if variant == "kopilka" else TRUMP_OPTIONS
        for name in draw(st.lists(st.sampled_from(sorted(pool)), max_size=4, unique=True)):
            chosen[name] = draw(st.sampled_from(pool[name]))
    return make_rules(variant, players, **chosen)


def deal_for(rules: Rules, seed: int, **kwargs: Any) -> Deal:
    return new_deal(rules, seed % rules.players, rng=seed, **kwargs)


def play_out(target: Deal | Game, rng: random.Random, *, checked: bool = True, limit: int = 100_000,
             each=None) -> int:
    """Play random legal actions to the end; return how many were applied."""
    steps = 0
    while not target.is_over:
        legal = target.legal_actions()
        assert len(legal) > 0, "no legal action before the end (§4)"
        action = legal[rng.randrange(len(legal))]
        if checked:
            target.apply(action)
        else:
            target.apply_unchecked(action)
        steps += 1
        assert steps <= limit, "the deal does not end (§4)"
        if each is not None:
            each(target)
    return steps


# --- §4: cards are conserved --------------------------------------------------------------


def cards_everywhere(deal: Deal) -> list[Card]:
    """Hands, talon, turned card (unless taken), discards, counted tricks, the trick on the table."""
    out: list[Card] = []
    for seat in range(deal.n):
        out.extend(deal.hand(seat))
        out.extend(deal.discards(seat))
    out.extend(deal.talon())
    view = deal.view(None)
    if view.turnup is not None and not view.turnup_taken:
        out.append(view.turnup)
    for trick in deal.tricks:
        out.extend(c for _, c in trick.cards)
    out.extend(c for _, c in deal.current_trick)
    return out


def assert_conserved(deal: Deal) -> None:
    found = cards_everywhere(deal)
    assert len(found) == len(set(found)), "a card is in two places"
    assert sorted(found) == sorted(deal.rules.deck_cards), "cards appeared or vanished"


# --- §4: what a seat may know, computed from the omniscient events ------------------------


def allowed_cards(deal: Deal, seat: int | None) -> set[Card]:
    """Every card ``seat`` may know by the rules (§4), from the unredacted event log.

    Public: the turned-up card, played cards, cards taken back (they were on the table),
    shown special hands and, once a hand is shown, everything its owner exchanges (MI9:
    the hand stays public).  Private: the seat's dealt hand, his exchanges, the card he
    discarded for the turned card, in kopilka the card he took, the cards taken from his
    group and his replacements, his discards and his draws.
    """
    known: set[Card] = set()
    shown: set[int] = set()

    def add(cards: Any) -> None:
        if isinstance(cards, Card):
            known.add(cards)
        elif cards:
            known.update(c for c in cards if c is not None)

    for e in deal.events(omniscient=True):
        name = e.name
        if name == "Dealt":
            if seat is not None:
                add(e.hands[seat])
        elif name in ("TurnedUp", "Played", "TakenBack"):
            add(e.card)
        elif name == "Shown":
            add(e.cards)
            shown.add(e.seat)
        elif name == "TrickTaken":
            add([c for _, c in e.cards])
        elif name == "Declared":
            if e.seat == seat or e.seat in shown:
                add(e.discards)
                add(e.drawn)
        elif name == "TookTurnup":
            add(e.card)
            if e.seat == seat or e.seat in shown:
                add(e.discard)
        elif name == "CardTaken":
            if e.taker == seat:
                add(e.card)
        elif name == "GroupSettled":
            if e.owner == seat:
                add(e.taken)
                add(e.drawn)
        elif (name == "Discarded" and e.seat == seat) or (name == "Drew" and (e.played or e.seat == seat)):
            add(e.card)
    return known


def cards_in(value: Any, skip: tuple[str, ...] = ("rules",)) -> set[Card]:
    """Every :class:`Card` anywhere inside a view (dataclasses, tuples, dicts)."""
    out: set[Card] = set()

    def walk(v: Any) -> None:
        if isinstance(v, Card):
            out.add(v)
        elif isinstance(v, Action):  # a plain class, not a dataclass: its cards are its mask's
            out.update(v.cards)
        elif dataclasses.is_dataclass(v) and not isinstance(v, type):
            for f in dataclasses.fields(v):
                if f.name not in skip:
                    walk(getattr(v, f.name))
        elif isinstance(v, (tuple, list, set, frozenset)):
            for item in v:
                walk(item)
        elif isinstance(v, dict):
            for k, item in v.items():
                walk(k)
                walk(item)

    walk(value)
    return out


def assert_views_hide_what_they_must(deal: Deal) -> None:
    for seat in [*range(deal.n), None]:
        view = deal.view(seat)
        allowed = allowed_cards(deal, seat)
        leaked = cards_in(view) - allowed
        assert not leaked, f"seat {seat} sees {sorted(leaked)}"
        assert set(view.known_cards()) <= allowed
        if seat is not None:
            assert view.hand == deal.hand(seat)
            assert set(view.own_discards) == set(deal.discards(seat))
            assert set(view.hand) <= allowed


# --- snapshots ------------------------------------------------------------------------------


def snapshot(target: Deal | Game) -> str:
    deal = target.deal if isinstance(target, Game) else target
    data: dict[str, Any] = {
        "phase": deal.phase.name, "to_act": deal.to_act, "dealer": deal.dealer,
        "hands": [[c.code for c in deal.hand(s)] for s in range(deal.n)],
        "discards": [[c.code for c in deal.discards(s)] for s in range(deal.n)],
        "talon": [c.code for c in deal.talon()], "log": [str(a) for a in deal.actions],
        "picks": [c.code for c in deal.picks], "trick": repr(deal.current_trick),
        "tricks": repr(deal.tricks), "legal": [str(a) for a in deal.legal_actions()],
        "result": None if deal.result is None else deal.result.to_json(),
        "events": [repr(e) for e in deal.events(omniscient=True)],
        "views": [json.dumps(deal.view(s).to_json(), sort_keys=True) for s in [*range(deal.n), None]],
        "pot": getattr(deal, "pot", None), "balances": list(getattr(deal, "balances", [])),
    }
    if isinstance(target, Game):
        data["game"] = [json.dumps(target.view(s).to_json(), sort_keys=True) for s in [*range(deal.n), None]]
        data["finished"] = [d.result.to_json() for d in target.finished if d.result is not None]
        data["result"] = None if target.result is None else target.result.to_json()
    return json.dumps(data, sort_keys=True)
