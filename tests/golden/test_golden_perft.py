"""Trick-perft: counts of legal play sequences from fixed deals.

``data/perft.json`` is regression data written by ``scripts/regen_golden.py``
from the engine.  This test recomputes every count twice: with the engine, and
with an independent brute-force walk written here straight from the rules text
(C12, C14, C15 for classic and mistigri; K9-K19 for kopilka), sharing nothing
with the engine but the card values and the stacked deal.
"""

from __future__ import annotations

import pytest
from goldkit import load, regen
from refmodel import KopilkaPlay, TrumpPlay

from mushka import make_rules, new_deal
from mushka.cards import Suit

REGEN = regen()
ENTRIES = load("perft.json")


def _counts(state, depth):
    counts = [0] * depth

    def go(node, level):
        if node.over:
            for k in range(level, depth):
                counts[k] += 1
            return
        if level == depth:
            return
        for move in node.moves():
            counts[level] += 1
            child = node.after(move)
            if child.over:
                for k in range(level + 1, depth):
                    counts[k] += 1
            else:
                go(child, level + 1)

    go(state, 0)
    return counts


def independent_start(entry):
    rules = make_rules(entry["variant"], entry["players"], **entry["options"])
    deal = new_deal(rules, entry["dealer"], deck=entry["deck"])
    for action in entry["actions"]:
        deal.apply(action)
    assert deal.phase.name == "PLAY"
    hands = {s: frozenset(deal.hand(s)) for s in range(rules.players)}
    if rules.variant == "kopilka":
        return KopilkaPlay(rules, hands, tuple(deal.talon()), deal.to_act)
    view = deal.view(None)
    return TrumpPlay(rules, hands, list(view.playing), deal.to_act, Suit(view.trump))


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e["name"])
def test_perft_counts_by_an_independent_walk(entry):
    start = independent_start(entry)
    assert _counts(start, len(entry["counts"])) == entry["counts"]


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e["name"])
def test_perft_counts_by_the_engine(entry):
    spec = next(s for s in REGEN.PERFT if s["name"] == entry["name"])
    deal = REGEN.perft_position(spec)
    assert " ".join(c.code for c in deal.deck) == entry["deck"]
    assert REGEN.engine_perft(deal, len(entry["counts"])) == entry["counts"]


def test_perft_positions_are_the_listed_ones():
    assert [e["name"] for e in ENTRIES] == [s["name"] for s in REGEN.PERFT]
    assert [len(e["counts"]) for e in ENTRIES] == [s["depth"] for s in REGEN.PERFT]
