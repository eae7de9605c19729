"""K9-K19: trick play in мушка-копилка and the end of a game."""

from __future__ import annotations

import random

import pytest
from rulekit import (
    DRAW,
    DRAW_TALON,
    RACE,
    RACE_PLAY,
    events_named,
    legal_strs,
    play,
    plays,
    refused,
    rules,
    snapshot,
    stacked,
)

from mushka.cards import Card, Suit


def kop(hands, talon=(), **options):
    return stacked(rules("kopilka", **options), hands, None, talon)


def test_race_deal_has_no_groups():
    deal = kop(RACE)
    assert deal.phase.name == "PLAY" and deal.to_act == 1


def test_k9_ace_of_spades_beats_a_trick_of_any_suit_and_may_be_played_to_any_trick():
    deal = kop(DRAW, DRAW_TALON)
    play(deal, "KH", "draw", "draw", "7H")  # seat 3 draws the A♠ on hearts and keeps it
    assert Card("AS") in deal.hand(3)
    play(deal, "8S")  # seat 2 won with the drawn ace of hearts and leads
    assert plays(deal) == {"TS", "AS"}
    play(deal, "AS", "JS", "9S")
    trick = deal.tricks[1]
    assert trick.winner == 3 and trick.privileged and trick.suit == Suit.SPADES


def test_k9_ace_of_spades_on_a_trick_of_another_suit():
    deal = kop(["7H 8H QD QC JS", "KH 7D AD 7C 9S", "AS 9D 8C 9C 8S", "TD JD TC JC TS"])
    play(deal, "KH")
    assert "AS" in plays(deal)
    play(deal, "AS", "pass", "7H")
    assert deal.tricks[0].winner == 2 and deal.tricks[0].privileged


def test_k10_the_eldest_leads_any_card():
    deal = kop(RACE)
    assert deal.to_act == 1 and plays(deal) == {c.code for c in deal.hand(1)}
    assert "pass" not in legal_strs(deal) and "draw" not in legal_strs(deal)
    refused(deal, "pass", "K10", words="must lead")
    refused(deal, "draw", "K10")


def test_k11_follow_draw_or_pass():
    deal = kop(DRAW, DRAW_TALON)
    play(deal, "KH")
    # Seat 2 holds no heart: he may draw or pass, nothing else.
    assert sorted(legal_strs(deal)) == ["draw", "pass"]
    refused(deal, "8D", "K11", words="only hearts")
    events = play(deal, "draw")
    drew = events_named(events, "Drew")[0]
    assert drew.card == Card("AH") and drew.played  # a drawn heart is played at once
    assert deal.current_trick[-1] == (2, Card("AH"))
    events = play(deal, "draw")
    drew = events_named(events, "Drew")[0]
    assert drew.card == Card("AS") and not drew.played  # kept, and he passes
    assert events_named(deal.events(2), "Drew")[-1].card is None  # hidden from the others
    # Seat 0 holds hearts: he may follow or pass, not draw.
    assert sorted(legal_strs(deal)) == ["7H", "8H", "pass"]
    refused(deal, "draw", "K11", words="may not draw")
    play(deal, "7H")
    assert deal.tricks[0].winner == 2 and deal.tricks[0].value == 4


def test_k11_a_drawn_ace_of_spades_on_spades_is_played_at_once():
    deal = kop(["7H 8H QD QC JS", "KS 7D AD 7C 9H", "8D 9D 8C 9C TH", "TD JD TC JC TS"], "AS")
    play(deal, "KS")
    events = play(deal, "draw")
    assert events_named(events, "Drew")[0].played
    play(deal, "TS", "JS")
    assert deal.tricks[0].winner == 2 and deal.tricks[0].privileged and deal.tricks[0].value == 2


def test_k11_the_ace_of_spades_counts_as_a_spade():
    deal = kop(["7H 8H QD QC JS", "KS 7D AD 7C 9H", "AS 9D 8C 9C TH", "TD JD TC JC TS"], "9S")
    play(deal, "KS")
    assert sorted(legal_strs(deal)) == ["AS", "pass"]  # he holds the led suit: no draw
    refused(deal, "draw", "K11")
    events = play(deal, "pass")
    assert events_named(events, "Passed")[0].penalty == 5


def test_k11_no_other_suit_even_when_void():
    deal = kop(DRAW, DRAW_TALON)
    play(deal, "KH")
    for card in deal.hand(2):
        refused(deal, card.code, "K11")


def test_k11_draw_needs_a_talon():
    found = False
    for seed in range(40):
        rng = random.Random(seed)
        deal = stacked(rules("kopilka"), [None] * 4, None, (), rng=seed)
        while not deal.is_over:
            legal = legal_strs(deal)
            if deal.talon_size == 0 and deal.current_trick:
                lead = deal.current_trick[0][1].suit
                if not any(c.suit == lead for c in deal.hand(deal.to_act)):
                    assert "draw" not in legal
                    refused(deal, "draw", "K11", words="talon is empty")
                    found = True
                    break
            deal.apply("draw" if "draw" in legal else rng.choice(legal))
        if found:
            break
    assert found


def test_k12_passing_while_holding_the_suit_costs_a_remiz_at_once():
    deal = kop(RACE)
    play(deal, "AH")
    pot, balance = deal.pot, deal.balances[2]
    events = play(deal, "pass")
    assert events_named(events, "Passed")[0].penalty == 5
    paid = events_named(events, "Paid")[0]
    assert (paid.seat, paid.amount, paid.reason) == (2, 5, "renege")
    assert deal.pot == pot + 5 and deal.balances[2] == balance - 5


def test_k12_a_void_player_passes_for_nothing():
    deal = kop(DRAW, DRAW_TALON)
    play(deal, "KH")
    events = play(deal, "pass")
    assert events_named(events, "Passed")[0].penalty == 0 and not events_named(events, "Paid")


def test_k12_renege_forbid_option():
    deal = kop(RACE, renege="forbid")
    play(deal, "AH")
    assert "pass" not in legal_strs(deal)
    refused(deal, "pass", "K12", words="renege=forbid")


def test_k13_highest_card_of_the_led_suit():
    deal = kop(RACE)
    play(deal, "AD", "KD", "9D", "TD")
    assert deal.tricks[0].winner == 1
    deal = kop(RACE)
    play(deal, "7D", "8D", "9D", "TD")
    assert deal.tricks[0].winner == 0


def test_k13_rank_order_option():
    deal = kop(RACE, rank_order="KQJAT987")
    play(deal, "AD", "KD", "9D", "TD")
    assert deal.tricks[0].winner == 2


def test_k14_one_card_on_the_lead_is_enough():
    deal = kop(DRAW, DRAW_TALON)
    events = play(deal, "KH", "pass", "pass", "7H")
    taken = events_named(events, "TrickTaken")[0]
    assert taken.seat == 1 and len(taken.cards) == 2
    assert deal.tricks_won == (0, 1, 0, 0)


def test_k15_nobody_follows_the_leader_takes_his_card_back():
    deal = kop(DRAW, DRAW_TALON)
    events = play(deal, "7C", "pass", "pass", "pass")
    back = events_named(events, "TakenBack")[0]
    assert back.seat == 1 and back.card == Card("7C") and back.next_leader == 2
    assert Card("7C") in deal.hand(1) and not deal.tricks and deal.tricks_won == (0,) * 4
    assert deal.to_act == 2 and not deal.current_trick
    # The next leader may lead any suit, clubs too.
    assert plays(deal) == {c.code for c in deal.hand(2)}
    assert deal.view(2).takebacks == 1


def test_k16_the_winner_must_lead_another_suit():
    deal = kop(RACE)
    play(deal, "AH", "7H", "9H", "TH")
    assert deal.to_act == 1 and deal.view(1).banned_suit == Suit.HEARTS
    assert plays(deal) == {"AD", "7D", "AC"}
    err = refused(deal, "KH", "K16", words="another suit")
    assert "hearts" in str(err)


def test_k16_banned_after_an_ace_of_spades_win_too():
    deal = kop(["7H 8H QD QC JS", "KH 7D AD 7C 9S", "AS 9D 8C 9C 8S", "TD JD TC JC TS"])
    play(deal, "KH", "AS", "pass", "7H")
    assert deal.to_act == 2 and deal.view(2).banned_suit == Suit.HEARTS
    assert plays(deal) == {"9D", "8C", "9C", "8S"}


def test_k16_with_only_that_suit_left_he_may_lead_it():
    deal = kop(["QD KD 8H 8C 9S", "AH AC AS 7D KH", "9H 9C 8S 8D JS", "TH TC TS 9D JC"])
    play(deal, "AH", "9H", "TH", "8H", "AC", "9C", "TC", "8C", "AS", "8S", "TS", "9S")
    assert deal.tricks[2].privileged and deal.tricks[2].value == 2
    play(deal, "7D", "8D", "9D", "QD")
    assert deal.to_act == 0 and deal.hand(0) == (Card("KD"),)
    assert deal.view(0).banned_suit == Suit.DIAMONDS
    assert plays(deal) == {"KD"}
    play(deal, "KD")


def test_k16_nothing_banned_after_a_take_back():
    deal = kop(RACE)
    play(deal, "AH", "7H", "9H", "TH")
    play(deal, "AC", "pass", "pass", "pass")  # nobody covers the ace of clubs
    assert deal.to_act == 2 and deal.view(2).banned_suit is None
    assert plays(deal) == {"8H", "8D", "KD", "7C"}


def test_k17_every_trick_is_recorded_with_its_suit_and_the_ace_of_spades():
    deal = kop(DRAW, DRAW_TALON)
    play(deal, "KH", "draw", "draw", "7H", "8S", "AS", "JS", "9S")
    first, second = deal.tricks
    assert (first.suit, first.privileged, first.winner) == (Suit.HEARTS, False, 2)
    assert (second.suit, second.privileged, second.winner) == (Suit.SPADES, True, 3)
    events = events_named(deal.events(0), "TrickTaken")
    assert [(e.suit, e.privileged) for e in events] == [(Suit.HEARTS, False), (Suit.SPADES, True)]


def test_k18_the_game_ends_when_a_hand_is_empty_first_in_play_order():
    deal = kop(RACE)
    events = play(deal, *RACE_PLAY)
    assert deal.is_over
    out = events_named(events, "WentOut")
    assert [e.seat for e in out] == [2]  # seat 2 led the last trick; seat 1 emptied his hand too
    assert deal.hand(1) == () and deal.hand(2) == ()
    assert deal.result.out == 2
    assert deal.tricks_won == (0, 4, 1, 0)


def test_k18_the_game_ends_at_once_with_cards_left_elsewhere():
    deal = kop(RACE)
    play(deal, *RACE_PLAY)
    assert len(deal.hand(0)) == 2 and len(deal.hand(3)) == 2
    assert deal.legal_actions() == ()


def _deadlock(deal, leads=4):
    for _ in range(leads):
        play(deal, deal.legal_actions()[0], "pass", "pass", "pass")


def test_k19_four_leads_taken_back_in_a_row_end_the_game():
    deal = kop(DRAW, DRAW_TALON)
    _deadlock(deal, 3)
    assert not deal.is_over and deal.view(0).takebacks == 3
    before = snapshot(deal)
    _deadlock(deal, 1)
    assert before != snapshot(deal)
    assert deal.is_over and deal.result.deadlock and deal.result.out is None
    assert events_named(deal.events(None), "Deadlock")


def test_k19_a_counted_trick_resets_the_count():
    deal = kop(DRAW, DRAW_TALON)
    _deadlock(deal, 3)
    leader = deal.to_act
    assert leader == 0
    play(deal, "7H", "KH", "pass", "pass")
    assert deal.view(1).takebacks == 0 and deal.to_act == 1
    _deadlock(deal, 3)
    assert not deal.is_over
    _deadlock(deal, 1)
    assert deal.is_over and deal.result.deadlock


@pytest.mark.parametrize("seed", range(12))
def test_k19_every_game_terminates(seed):
    rng = random.Random(seed)
    deal = stacked(rules("kopilka"), [None] * 4, None, (), rng=seed)
    deal = type(deal)(rules("kopilka"), seed % 4, rng=seed)
    steps = 0
    while not deal.is_over:
        deal.apply(rng.choice(list(deal.legal_actions())))
        steps += 1
        assert steps < 500
    assert deal.result is not None
