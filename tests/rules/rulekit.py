"""Shared pieces of the rule-by-rule tests: stacked deals, snapshots, refusals."""

from __future__ import annotations

import json
from typing import Any

import pytest

from mushka import make_rules, new_deal, new_game
from mushka.cards import Card, parse_cards
from mushka.engine import Action, Deal, stack_deck
from mushka.errors import IllegalActionError, MushkaError
from mushka.match import Game
from mushka.rules import Rules

# Kopilka, dealer 0, eldest 1, playing order 1, 2, 3, 0; nobody holds three of a suit.
RACE = ["9S TS TH TD TC", "AH AD KH 7D AC", "7H 8D 8H KD 7C", "7S 8S 9H 9D 9C"]
# T1 hearts to 1, T2 diamonds to 1, T3 hearts to 1, T4 diamonds to 2, then seat 2 leads his
# last card; seat 1 plays his last card on it: both empty their hands in trick 5.
RACE_PLAY = ("AH", "7H", "9H", "TH", "AD", "8D", "9D", "TD", "KH", "8H", "pass", "pass",
             "7D", "KD", "pass", "pass", "7C", "9C", "TC", "AC")

DRAW = ["7H 8H QD QC JS", "KH 7D AD 7C 9S", "8D 9D 8C 9C 8S", "TD JD TC JC TS"]
DRAW_TALON = "AH AS 9H JH QH KS"


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def rules(variant: str = "classic", players: int | None = None, **options: object) -> Rules:
    return make_rules(variant, players, **options)


def stacked(rules_: Rules, hands, turnup=None, talon=(), *, dealer: int = 0, **kwargs: Any) -> Deal:
    """A deal whose hands, turned card and talon top are given (the rest filled in order)."""
    deck = stack_deck(rules_, hands, turnup, talon, dealer=dealer, fill=True)
    return new_deal(rules_, dealer, deck=deck, **kwargs)


def stacked_game(rules_: Rules, deals, *, first_dealer: int = 0, **kwargs: Any) -> Game:
    """A game whose first deals are stacked; ``deals`` lists (hands, turnup, talon) per deal,
    each dealt by the seat that deals it in turn (the caller gives that dealer)."""
    decks = [stack_deck(rules_, h, t, tal, dealer=d, fill=True) for d, h, t, tal in deals]
    return new_game(rules_, first_dealer=first_dealer, decks=decks, rng=0, **kwargs)


def play(target: Deal | Game, *actions: str | Action) -> list:
    """Apply actions in turn (checked); return all events."""
    events: list = []
    for a in actions:
        events.extend(target.apply(a))
    return events


def snapshot(target: Deal | Game) -> str:
    """Everything observable about a deal or game, as comparable text."""
    deal = target.deal if isinstance(target, Game) else target
    n = deal.n
    data: dict[str, Any] = {
        "phase": deal.phase.name,
        "to_act": deal.to_act,
        "hands": [str(deal.hand(s)) for s in range(n)],
        "discards": [str(deal.discards(s)) for s in range(n)],
        "talon": str(deal.talon()),
        "log": [str(a) for a in deal.actions],
        "picks": str(deal.picks),
        "trick": str(deal.current_trick),
        "tricks": str(deal.tricks),
        "won": list(deal.tricks_won),
        "legal": [str(a) for a in deal.legal_actions()],
        "events": [repr(e) for e in deal.events(omniscient=True)],
        "views": [json.dumps(deal.view(s).to_json(), sort_keys=True) for s in [*range(n), None]],
    }
    if isinstance(target, Game):
        data["game_views"] = [json.dumps(target.view(s).to_json(), sort_keys=True)
                              for s in [*range(n), None]]
        data["finished"] = len(target.finished)
        data["game_events"] = [repr(e) for e in target.game_events()]
    return json.dumps(data, sort_keys=True)


def refused(target: Deal | Game, action: str | Action, rule: str, *, seat: int | None = None,
            exc: type[MushkaError] = IllegalActionError, words: str = "") -> MushkaError:
    """Assert that ``action`` is refused naming ``rule`` and that nothing changed."""
    act = Action.parse(action) if isinstance(action, str) else action
    before = snapshot(target)
    assert not target.is_legal(act, seat)
    with pytest.raises(exc) as info:
        target.check(act, seat)
    assert info.value.rule == rule, info.value
    assert str(info.value).startswith(f"{rule}: "), info.value
    assert words in str(info.value)
    with pytest.raises(exc):
        target.apply(act, seat)
    assert snapshot(target) == before
    # The reason reads in Russian as well, still naming the rule.
    assert info.value.message("ru").startswith(f"{rule}: ")
    return info.value


def legal_strs(target: Deal | Game) -> list[str]:
    return [str(a) for a in target.legal_actions()]


def plays(target: Deal | Game) -> set[str]:
    """The cards that may be played now, as codes."""
    return {str(a) for a in target.legal_actions() if a.kind.name == "PLAY"}


def events_named(events, name: str) -> list:
    return [e for e in events if e.name == name]


def finish_with_first(target: Deal | Game) -> None:
    """Play on by always taking the first legal action."""
    while not target.is_over:
        target.apply(target.legal_actions()[0])
