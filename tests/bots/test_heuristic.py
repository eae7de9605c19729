"""The heuristic bot's rules of thumb, one position per rule (ids of RULES)."""

from __future__ import annotations

import random

from botkit import positions, rules_of, stacked

from mushka.bots.base import deal_game_view
from mushka.bots.declaring import stakes_for
from mushka.bots.heuristic import HeuristicBot
from mushka.engine import Action, Kind
from mushka.engine.events import Passed
from mushka.rules import make_rules


def choose(deal, records=()):
    view = deal_game_view(deal, deal.to_act)
    if records:
        from dataclasses import replace

        view = replace(view, records=records)
    return HeuristicBot().choose(view, random.Random(0))


def test_c10_the_dealer_stands_alone_with_any_hand_when_everyone_passed():
    rules = rules_of(("classic", 4))
    deal = stacked(rules, {0: "6C 7C 8D 6H 7S"}, dealer=0, turnup="9H")
    for _ in range(3):
        deal.apply("pass")
    assert deal.to_act == 0
    assert choose(deal).kind in (Kind.STAND, Kind.TAKE)


def test_c7_a_strong_hand_stands_and_a_hopeless_one_passes():
    rules = rules_of(("classic", 4))
    strong = stacked(rules, {1: "AH KH QH AS AC"}, dealer=0, turnup="7H")
    assert choose(strong).kind is Kind.STAND
    weak = stacked(rules, {1: "6C 7C 6D 7D 8S"}, dealer=0, turnup="AH")
    assert choose(weak) == Action.parse("pass")


def test_c22_four_of_a_suit_and_the_ace_of_spades_exchange_the_odd_card_for_the_мушка():
    rules = rules_of(("classic", 4))
    deal = stacked(rules, {1: "AS 8H 9H JH 7C"}, dealer=0, turnup="AD")
    action = choose(deal, records=(30, 30, 30, 30))
    assert action == Action.parse("stand 7C")


def test_c22_with_flush_wins_mushka_four_of_a_suit_chase_the_fifth():
    rules = make_rules("classic", 4, flush="wins_mushka")
    deal = stacked(rules, {1: "6H 8H 9H JH 7C"}, dealer=0, turnup="AD")
    action = choose(deal, records=(30, 30, 30, 30))
    assert action == Action.parse("stand 7C")


def test_c22_a_flush_is_worth_its_side_payment_and_the_four_with_the_ace_the_partie():
    rules = rules_of(("classic", 4))
    stakes = stakes_for(rules, 1, (30, 30, 30, 30))
    assert stakes.flush == rules.flush_payment * 3  # MI9 as C22 reads it: paid by every other player
    assert stakes.four > stakes.flush  # C21: the others' records, minus what the seat expected anyway
    old = stakes_for(make_rules("classic", 4, flush="wins_mushka"), 1, (30, 30, 30, 30))
    assert old.flush == stakes.four


def test_c6_the_dealer_takes_a_high_turned_trump_for_his_weakest_card():
    rules = rules_of(("classic", 4))
    deal = stacked(rules, {0: "KH QH 9C 6S 7D"}, dealer=0, turnup="AH")
    for _ in range(3):
        deal.apply("stand")
    action = choose(deal)
    assert action.kind is Kind.TAKE
    assert action.card.code in ("6S", "7D")


def test_c15_the_last_player_wins_with_his_cheapest_winner():
    rules = rules_of(("classic", 3))
    # Dealer 2: seat 0 is the eldest and leads; spades are trumps.
    deal = stacked(rules, {0: "9D 7C 8C 9C TC", 1: "7H 8H 9H TH 7D", 2: "TD KD AD 7S 8S"}, dealer=2, turnup="JS")
    for _ in range(3):
        deal.apply("stand")
    deal.apply("9D")
    deal.apply("7D")
    assert choose(deal) == Action.parse("TD")


def test_c14_a_player_who_cannot_win_throws_his_least_useful_card():
    rules = rules_of(("classic", 3))
    deal = stacked(rules, {0: "AD KD QD JD 7C", 1: "7D 8H 9H AH 8C", 2: "8D 9D KS QS JS"}, dealer=2,
                   turnup="7S")
    for _ in range(3):
        deal.apply("stand")
    deal.apply("AD")
    assert choose(deal) == Action.parse("7D")  # C14: he must follow, and the ace wins anyway
    deal.apply("7D")
    assert choose(deal) == Action.parse("8D")


def test_k12_the_heuristic_never_pays_a_remiz_for_passing_with_the_suit():
    rules = rules_of(("kopilka", 4))
    bot = HeuristicBot()
    passes = 0
    for deal in positions(rules, deals=150, seed=3, every=0.6):
        if not deal.current_trick:
            continue
        action = bot.choose(deal_game_view(deal, deal.to_act), random.Random(0))
        if action.kind is Kind.PASS:
            events = deal.copy().apply(action)
            assert [e.penalty for e in events if isinstance(e, Passed)] == [0]
            passes += 1
    assert passes > 20


def test_k21_the_ace_of_spades_takes_a_hearts_trick_it_would_lose():
    rules = rules_of(("kopilka", 4))
    # Dealer 3: seat 0 is the eldest and leads; seat 3 plays last.
    deal = stacked(rules, {0: "KH 7C 8D 9S TC", 1: "AH 8C 9D TS JC", 2: "QH 9C TD JS QC",
                           3: "7H AS KC AD 8S"}, dealer=3)
    assert deal.phase.name == "PLAY"
    deal.apply("KH")
    deal.apply("AH")
    deal.apply("QH")
    assert choose(deal) == Action.parse("AS")


def test_k7_a_taker_gives_up_his_cheapest_card():
    rules = rules_of(("kopilka", 4))
    bot = HeuristicBot()
    seen = 0
    for deal in positions(rules, deals=200, seed=5, every=1.0):
        if deal.phase.name != "REDISTRIBUTE":
            continue
        action = bot.choose(deal_game_view(deal, deal.to_act), random.Random(0))
        assert action.kind is Kind.DISCARD
        hand = deal.hand(deal.to_act)
        assert action.card != rules.privileged or len(hand) == 1  # K9: the мушка is never given up
        seen += 1
        if seen > 30:
            break
    assert seen > 30
