"""The tuned rules of thumb (``heuristic:style=1``): bolder declarations, ids of RULES.

The club level's rules of thumb are the yardstick of every rating, so the
tuned style must leave them untouched (style 0) and differ only where it says
it does: the chase of a special hand (C22, MI13) and the eagerness to stand
(C7); trick play (C13-C15) is the same.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from botkit import positions, rules_of, stacked

from mushka.bots import make_bot
from mushka.bots.base import deal_game_view
from mushka.bots.declaring import CLUB, TUNED, Style, stakes_for, stand_value
from mushka.bots.heuristic import HeuristicBot, HeuristicConfig
from mushka.bots.policy import tables
from mushka.cards import mask_of, parse_cards
from mushka.engine import Action, Kind, Phase
from mushka.errors import OptionsError

RECORDS = (30, 30, 30, 30)


def choose(deal, style: int) -> Action:
    view = replace(deal_game_view(deal, deal.to_act), records=RECORDS)
    return HeuristicBot(HeuristicConfig(TUNED if style else CLUB)).choose(view, random.Random(0))


def test_c22_the_tuned_style_chases_five_spades_with_the_ace_as_the_мушка():
    # A♠ 9♠ 7♠: two spades more make five spades with the A♠, which C22 counts as the мушка.
    rules = rules_of(("classic", 4))
    deal = stacked(rules, {1: "AS 9S 7S 8H 7D"}, dealer=0, turnup="AD")
    assert choose(deal, 1) == Action.parse("stand 8H 7D")
    # The club level values the same chase as a flush's side payment and keeps the hearts' chance instead.
    assert choose(deal, 0) != Action.parse("stand 8H 7D")


def test_c22_the_privileged_suit_is_worth_the_мушка_only_in_the_tuned_style():
    rules = rules_of(("classic", 4))
    t = tables(rules)
    hand = mask_of(parse_cards("AS 9S 7S 8H 7D"))
    trump = parse_cards("AD")[0].index // 13
    unknown = rules.deck_bits & ~hand & ~mask_of(parse_cards("AD"))
    stakes = stakes_for(rules, 1, RECORDS)

    def value(privileged_suit: bool):
        return stand_value(t, hand, trump, unknown, 2, rules.deck_size - 21, limit=5, remiz=5.0, bonus=0.0,
                           can_discard_priv=True, flush_value=stakes.flush, four_value=stakes.four,
                           need=2, privileged_suit=privileged_suit)

    club, tuned = value(False), value(True)
    assert tuned.discard == mask_of(parse_cards("8H 7D"))
    assert tuned.ev > club.ev  # the мушка (the others' records) is worth more than a flush (MI9 as C22 reads it)


def test_c22_the_tuned_style_tries_a_special_hand_three_cards_away():
    # A♠ and one club: three clubs more make four clubs and the A♠ (C22); the club level tries two at most.
    rules = rules_of(("classic", 4))
    deal = stacked(rules, {1: "AS 8S 9H 7C 8D"}, dealer=0, turnup="AD")
    assert choose(deal, 1) == Action.parse("stand 8S 8D 9H")
    assert choose(deal, 0) != Action.parse("stand 8S 8D 9H")


def test_c7_the_tuned_style_stands_where_the_club_level_passes():
    rules = rules_of(("classic", 4))
    deal = stacked(rules, {1: "6D TS 7C KC KH"}, dealer=0, turnup="AD")
    assert choose(deal, 0) == Action.parse("pass")
    assert choose(deal, 1).kind is Kind.STAND


@pytest.mark.parametrize("table", [("classic", 4), ("mistigri", 3), ("classic", 7)])
def test_c13_c15_the_tuned_style_plays_the_tricks_as_the_club_level(table):
    rules = rules_of(table)
    club, tuned = HeuristicBot(), HeuristicBot(HeuristicConfig(TUNED))
    plays = 0
    for deal in positions(rules, deals=12, seed=8):
        if deal.phase is not Phase.PLAY:
            continue
        view = deal_game_view(deal, deal.to_act)
        assert tuned.choose(view, random.Random(1)) == club.choose(view, random.Random(1))
        plays += 1
    assert plays > 30


def test_the_club_style_is_the_default_and_the_tuned_one_bolder():
    assert TUNED != CLUB and TUNED.eager > CLUB.eager and TUNED.chase_need > CLUB.chase_need
    assert TUNED.privileged_suit and not CLUB.privileged_suit
    assert Style() == CLUB
    assert stakes_for(rules_of(("classic", 4)), 0, RECORDS) == stakes_for(rules_of(("classic", 4)), 0, RECORDS, CLUB)


def test_kopilka_has_no_declarations_to_tune():
    rules = rules_of(("kopilka", 4))
    club, tuned = HeuristicBot(), HeuristicBot(HeuristicConfig(TUNED))
    for deal in positions(rules, deals=6, seed=2):
        view = deal_game_view(deal, deal.to_act)
        assert tuned.choose(view, random.Random(1)) == club.choose(view, random.Random(1))


@pytest.mark.parametrize("spec", ["heuristic:style=2", "heuristic:style=-1"])
def test_a_style_out_of_range_is_refused_in_both_languages(spec):
    with pytest.raises(OptionsError) as caught:
        make_bot(spec)
    assert "style" in caught.value.message("en") and "style" in caught.value.message("ru")


def test_the_search_declares_against_the_club_levels_rules_of_thumb():
    """The tuned style as the search's choice to beat was measured and not adopted (docs/bots.md)."""
    bot = make_bot("search:iterations=10,seconds=0")
    assert isinstance(bot._fallback, HeuristicBot) and bot._fallback.config.style == CLUB
    with pytest.raises(OptionsError, match="style"):
        make_bot("search:iterations=10,seconds=0,style=1")
