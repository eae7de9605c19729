"""The novice: the rules of thumb with a learner's mistakes (forgotten cards, eagerness, slips, guesses)."""

from __future__ import annotations

import random

import pytest
from botkit import positions, rules_of

from mushka import make_rules, new_game
from mushka.bots import make_bot, play_game
from mushka.bots.base import deal_game_view
from mushka.bots.heuristic import HeuristicBot, kopilka_choice, seen_mask, trump_choice
from mushka.bots.novice import NoviceBot, NoviceConfig, slip
from mushka.engine import Kind, Phase
from mushka.errors import OptionsError
from mushka.records import record_of_game

TABLES = [("classic", 4), ("mistigri", 4), ("kopilka", 4)]


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t[0]}{t[1]}")
def test_the_rules_of_thumb_on_the_true_unknown_cards_are_the_heuristic_bot(table):
    # The novice calls the heuristic's rules with its own idea of the unseen cards; given the
    # true ones and no eagerness they must choose exactly as the heuristic bot.
    rules = rules_of(table)
    heuristic = HeuristicBot()
    checked = 0
    for deal in positions(rules, deals=25, seed=11):
        view = deal_game_view(deal, deal.to_act)
        if len(view.deal.legal) < 2:
            continue
        unknown = rules.deck_bits & ~seen_mask(view.deal)
        chosen = trump_choice(view, unknown) if rules.has_trumps else kopilka_choice(view, unknown)
        assert chosen == heuristic.choose(view, random.Random(0))
        checked += 1
    assert checked > 40


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t[0]}{t[1]}")
def test_a_forgetful_seat_still_sees_its_hand_the_table_and_the_turned_card(table):
    rules = rules_of(table)
    novice = NoviceBot(NoviceConfig(mistakes=0, memory=0))
    forgot = 0
    for deal in positions(rules, deals=25, seed=12):
        view = deal_game_view(deal, deal.to_act).deal
        kept = novice._remembered(view, random.Random(3))
        for card in view.hand:
            assert kept >> card.index & 1
        for _, card in view.trick:
            assert kept >> card.index & 1
        if view.turnup is not None:
            assert kept >> view.turnup.index & 1
        assert kept & ~seen_mask(view) == 0  # it never "remembers" a card it has not seen
        played = [c for t in view.tricks for _, c in t.cards if c != view.turnup]
        assert not any(kept >> c.index & 1 for c in played)  # memory=0: every earlier trick forgotten
        forgot += bool(played)
    assert forgot > 20
    full = NoviceBot(NoviceConfig(mistakes=0, memory=1))
    for deal in positions(rules, deals=5, seed=13):
        view = deal_game_view(deal, deal.to_act).deal
        assert full._remembered(view, random.Random(3)) == seen_mask(view)


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t[0]}{t[1]}")
def test_a_slip_is_the_nearest_wrong_move(table):
    rules = rules_of(table)
    heuristic = HeuristicBot()
    strength = rules.strength
    seen = {"end": 0, "flip": 0}
    for deal in positions(rules, deals=40, seed=14):
        view = deal_game_view(deal, deal.to_act)
        d = view.deal
        if len(d.legal) < 2:
            continue
        meant = heuristic.choose(view, random.Random(0))
        slipped = slip(d, meant)
        assert slipped in d.legal
        if meant.kind is Kind.PLAY:
            suit = [a for a in d.legal if a.kind is Kind.PLAY and a.cards[0].suit == meant.cards[0].suit]
            if len(suit) > 1:
                # The other end of the same suit: the strongest instead of the weakest or the reverse.
                ranks = sorted(strength[a.cards[0].index] for a in suit)
                assert slipped.cards[0].suit == meant.cards[0].suit and slipped != meant
                assert strength[slipped.cards[0].index] in (ranks[0], ranks[-1])
                seen["end"] += 1
        elif d.phase is Phase.DECLARE and any(a.kind is Kind.PASS for a in d.legal):
            # A pass turns into a stand and a stand into a pass (C7).
            assert (meant.kind is Kind.PASS) == (slipped.kind is not Kind.PASS)
            seen["flip"] += 1
        elif meant.kind in (Kind.DRAW, Kind.PASS) and {Kind.DRAW, Kind.PASS} <= {a.kind for a in d.legal}:
            assert {meant.kind, slipped.kind} == {Kind.DRAW, Kind.PASS}  # K11
            seen["flip"] += 1
    assert seen["end"] > 10
    if rules.has_trumps:
        assert seen["flip"] > 5


@pytest.mark.parametrize("variant,players", [("classic", 3), ("classic", 7), ("mistigri", 5), ("kopilka", 4)])
def test_the_learner_levels_play_whole_games_legally_and_reproducibly(variant, players):
    rules = make_rules(variant, players)

    def game_of(seed: int) -> str:
        game = new_game(rules, rng=seed)
        bots = [make_bot("beginner"), make_bot("casual")] + [make_bot("novice:slips=0.5,memory=0.2,eager=1")] * (
            players - 2)
        play_game(game, bots, random.Random(seed))  # the checked path: an illegal action would raise
        assert game.result is not None
        return record_of_game(game).dumps()

    assert game_of(3) == game_of(3)


def test_a_learner_misplays_more_often_than_the_rules_of_thumb():
    rules = rules_of(("classic", 4))
    heuristic = HeuristicBot()
    learner = NoviceBot(NoviceConfig(mistakes=0, slips=0.4, memory=0.3, eager=0.5))
    rng = random.Random(5)
    differ = total = 0
    for deal in positions(rules, deals=30, seed=15):
        view = deal_game_view(deal, deal.to_act)
        if len(view.deal.legal) < 2:
            continue
        total += 1
        differ += learner.choose(view, rng) != heuristic.choose(view, rng)
    assert total > 50 and 0.2 * total < differ < 0.8 * total


@pytest.mark.parametrize("spec,param", [("novice:slips=1.5", "slips"), ("novice:memory=-0.1", "memory"),
                                        ("novice:eager=3", "eager"), ("novice:memory=x", "memory")])
def test_a_bad_knob_is_refused_by_name(spec, param):
    with pytest.raises(OptionsError) as caught:
        make_bot(spec)
    assert param in caught.value.message("en") and param in caught.value.message("ru")
