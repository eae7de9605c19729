"""Bots get views, never the state: nothing reachable from a view leads to a deal or to hidden cards."""

from __future__ import annotations

import gc
import random
import types

import pytest
from botkit import TABLES, positions, rules_of, table_id

from mushka import new_game
from mushka.bots import make_bot
from mushka.bots.base import deal_game_view
from mushka.bots.oracle import OracleBot, OracleConfig, OracleNotAttachedError
from mushka.engine import Deal
from mushka.engine.views import DealView
from mushka.match import Game

_SKIP = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType)


def reachable(root):
    """Every object reachable from ``root`` through references (classes and modules excluded)."""
    seen = {id(root)}
    stack = [root]
    out = []
    while stack:
        obj = stack.pop()
        out.append(obj)
        for ref in gc.get_referents(obj):
            if isinstance(ref, _SKIP) or id(ref) in seen:
                continue
            seen.add(id(ref))
            stack.append(ref)
    return out


def hidden_cards(deal: Deal, seat: int) -> set:
    """Cards in other seats' hands that ``seat`` has no right to know (§4 of RULES).

    Public: shown hands, the turned card the dealer took (C6), a lead taken
    back (K15).  The seat's own: every card that was ever in its hand (so
    also its K7 group cards now with the takers).
    """
    view = deal.view(seat)
    known = {c for h in view.open_hands if h for c in h}
    if view.turnup is not None:
        known.add(view.turnup)
    for e in deal.events(omniscient=True):
        name = type(e).__name__
        if name == "Dealt":
            known.update(e.hands[seat])
        elif name == "TakenBack" or (name == "CardTaken" and e.taker == seat):
            known.add(e.card)
        elif name == "GroupSettled" and e.owner == seat:
            known.update(e.drawn)
        elif (name == "Drew" and e.seat == seat) or (name == "Declared" and e.seat == seat and e.drawn):
            known.update(e.drawn if name == "Declared" else (e.card,))
    return {c for s in range(deal.n) if s != seat for c in deal.hand(s)} - known


@pytest.mark.parametrize("variant", ["classic", "mistigri", "kopilka"])
def test_a_game_view_holds_no_deal_or_game(variant):
    rules = rules_of((variant, 4))
    game = new_game(rules, rng=3)
    rng = random.Random(3)
    for _ in range(40):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    view = game.view(game.to_act)
    objects = reachable(view)
    assert not [o for o in objects if isinstance(o, (Deal, Game))]
    assert any(isinstance(o, DealView) for o in objects)


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_no_hidden_card_is_reachable_from_a_seats_view(table):
    rules = rules_of(table)
    checked = 0
    for deal in positions(rules, deals=10, seed=71, every=0.3):
        seat = deal.to_act
        view = deal_game_view(deal, seat)
        hidden = hidden_cards(deal, seat)
        found = set(view.deal.known_cards())
        assert not found & hidden
        # Nor anywhere else inside the view: every card object reachable from it
        # (but the rules' privileged card, which names a card, not where it is).
        cards = {o for o in reachable(view) if type(o).__name__ == "Card"} - {rules.privileged}
        assert not cards & hidden
        checked += 1
    assert checked > 10


def test_the_oracle_refuses_to_play_unattached():
    rules = rules_of(("classic", 4))
    game = new_game(rules, rng=5)
    while len(game.legal_actions()) == 1:
        game.apply(game.legal_actions()[0])
    with pytest.raises(OracleNotAttachedError):
        make_bot("oracle").choose(game.view(game.to_act), random.Random(1))


def test_the_oracle_refuses_a_deal_that_is_not_the_views():
    rules = rules_of(("classic", 4))
    game = new_game(rules, rng=5)
    other = new_game(rules, rng=6)
    while len(game.legal_actions()) == 1:
        game.apply(game.legal_actions()[0])
    oracle = OracleBot(OracleConfig(iterations=8)).attach(lambda: other.deal.copy())
    other.apply(other.legal_actions()[0])
    with pytest.raises(OracleNotAttachedError):
        oracle.choose(game.view(game.to_act), random.Random(1))


def test_bots_do_not_change_the_view_they_are_given():
    rules = rules_of(("mistigri", 4))
    for deal in positions(rules, deals=3, seed=81, every=0.5):
        view = deal_game_view(deal, deal.to_act)
        before = repr(view)
        for spec in ("heuristic", "search:iterations=16,seconds=0"):
            make_bot(spec).choose(view, random.Random(2))
        assert repr(view) == before
