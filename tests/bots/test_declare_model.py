"""The learned correction of the declaration (mushka.bots.declare_model; C6-C8)."""

from __future__ import annotations

import json
import random
from importlib import resources

import pytest
from botkit import positions, rules_of

from mushka import new_game
from mushka.bots import make_bot, play_game
from mushka.bots import search as search_module
from mushka.bots.base import deal_game_view
from mushka.bots.declare_model import FEATURES, DeclareModel, features, shipped
from mushka.bots.search import SearchBot
from mushka.engine import Phase
from mushka.engine.actions import PASS, STAND_PAT, Kind
from mushka.errors import MushkaError


def declaration_views(variant: str, seed: int, deals: int = 40):
    """Views of seats about to declare, with more than one legal action."""
    for deal in positions(rules_of((variant, 4)), deals=deals, seed=seed, every=1.0):
        view = deal_game_view(deal, deal.to_act)
        if view.deal.phase is Phase.DECLARE and len(view.deal.legal) > 1:
            yield view


def named(view, action) -> dict[str, float]:
    return dict(zip(FEATURES, features(view.deal, action), strict=True))


def test_a_pass_has_no_features_and_a_stand_counts_the_declarations_before_it():
    seen_standers = False
    for view in declaration_views("classic", 3):
        d = view.deal
        me = d.seat
        stood = sum(1 for s, x in enumerate(d.declarations) if s != me and x == "stand")
        passed = sum(1 for s, x in enumerate(d.declarations) if s != me and x == "pass")
        strong = sum(1 for s, x in enumerate(d.declarations)
                     if s != me and x == "stand" and 0 <= d.exchanged[s] <= 1)
        assert all(v == 0 for v in named(view, PASS).values())
        pat = named(view, STAND_PAT)
        assert pat["stand"] == 1 and pat["drawn"] == 0 and pat["take"] == 0
        assert (pat["stand_x_stood"], pat["stand_x_passed"], pat["stand_x_strong"]) == (stood, passed, strong)
        assert pat["stand_x_after"] == (d.dealer - me) % 4
        exchanges = [a for a in d.legal if a.kind is Kind.STAND and a.mask]
        for a in exchanges:
            f = named(view, a)
            assert f["drawn"] == a.mask.bit_count() and f["drawn_x_stood"] == a.mask.bit_count() * stood
        takes = [a for a in d.legal if a.kind is Kind.TAKE]
        for a in takes:
            f = named(view, a)
            assert f["take"] == 1 and f["take_x_stood"] == stood and f["stand"] == 0
        seen_standers |= stood > 0
    assert seen_standers


def test_the_correction_is_relative_to_the_rules_of_thumb_choice():
    view = next(declaration_views("classic", 5))
    model = DeclareModel(search=2.0, weights=(-3.0,) + (0.0,) * (len(FEATURES) - 1))
    values = model.corrected(view.deal, [PASS, STAND_PAT], [1.0, 4.0])
    # 2 × (4 − 1) for the means, −3 for standing where candidate 0 passes.
    assert values == [0.0, pytest.approx(3.0)]
    values = model.corrected(view.deal, [STAND_PAT, PASS], [4.0, 1.0])
    assert values == [0.0, pytest.approx(-3.0)]


@pytest.mark.parametrize("variant", ["classic", "mistigri"])
def test_the_shipped_model_has_a_fit_for_each_trump_variant(variant):
    model = shipped(variant)
    assert len(model.weights) == len(FEATURES)
    assert model.search > 0  # the playouts still carry the hand's worth
    data = json.loads(resources.files("mushka.bots").joinpath("data/declare.json").read_text(encoding="utf-8"))
    fit = data["variants"][variant]
    assert fit["positions"] > 100 and "held_out" in fit


def test_a_variant_without_a_model_is_refused_by_name():
    with pytest.raises(MushkaError, match="kopilka"):
        shipped("kopilka")


def test_a_heavy_penalty_on_standing_behind_others_turns_those_stands_into_passes(monkeypatch):
    # A model that makes standing behind a stander very costly: whenever someone stood
    # before, the learned search must pass where it may; elsewhere it plays as before.
    harsh = DeclareModel(search=1.0, weights=(0.0, -1000.0) + (0.0,) * (len(FEATURES) - 2))
    monkeypatch.setattr(search_module, "shipped", lambda variant: harsh)
    bot = SearchBot(iterations=80, seconds=0, learn=1)
    checked = 0
    for view in declaration_views("classic", 11, deals=60):
        d = view.deal
        behind = any(x == "stand" for s, x in enumerate(d.declarations) if s != d.seat)
        if not behind or PASS not in d.legal or any(a.kind is Kind.TAKE for a in d.legal):
            continue
        assert bot.choose(view, random.Random(1)) == PASS
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("variant", ["classic", "mistigri", "kopilka"])
def test_the_learned_search_is_reproducible_and_legal(variant):
    def actions(seed: int) -> list[str]:
        rules = rules_of((variant, 4))
        game = new_game(rules, rng=seed, max_deals=3) if rules.has_trumps else new_game(rules, rng=seed)
        bots = [make_bot("search:iterations=40,seconds=0,learn=1"), make_bot("heuristic"),
                make_bot("heuristic"), make_bot("heuristic")]
        play_game(game, bots, random.Random(seed))
        return [str(a) for d in game.deals for a in d.actions]

    first = actions(4)
    assert first and first == actions(4)


def test_learn_out_of_range_is_refused():
    with pytest.raises(MushkaError, match="learn"):
        make_bot("search:learn=2")
