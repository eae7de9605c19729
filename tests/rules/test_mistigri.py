"""MI1-MI14: мушка-мистигри."""

from __future__ import annotations

import pytest
from rulekit import cards, events_named, legal_strs, play, plays, refused, rules, stacked, stacked_game

from mushka.cards import Card


def three(hands, turnup="7H", *, stand=("stand", "stand", "stand"), **options):
    """Mistigri, 3 players, 32 cards, dealer 2: seat 0 is the eldest."""
    deal = stacked(rules("mistigri", 3, **options), hands, turnup, dealer=2)
    play(deal, *stand)
    return deal


def four(hands, turnup="7H", talon=(), **options):
    """Mistigri, 4 players, 36 cards, dealer 0: seat 1 is the eldest."""
    return stacked(rules("mistigri", 4, **options), hands, turnup, talon)


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_mi1_three_to_seven_players_deck_as_c2(players):
    r = rules("mistigri", players)
    assert r.deck_size == rules("classic", players).deck_size


def test_mi1_other_table_sizes_are_refused():
    from mushka.errors import OptionsError
    with pytest.raises(OptionsError, match="C1"):
        rules("mistigri", 8)


def test_mi2_ace_between_ten_and_jack():
    assert rules("mistigri").rank_order.startswith("KQJAT9")
    deal = three(["TH 8C 9C 7D 8D", "AH 9D TD JC 7C", "JH QD KD AD 8H"], "7S")
    play(deal, "TH", "AH", "JH")
    assert deal.tricks[0].winner == 2
    deal = three(["TH 8C 9C 7D 8D", "AH 9D TD JC 7C", "8H QD KD AD JH"], "7S")
    play(deal, "TH", "AH", "8H")
    assert deal.tricks[0].winner == 1


def test_mi2_the_order_holds_in_trumps_too():
    deal = three(["8C 9C 7D 8D 7S", "AH 9D TD JC 7C", "QH QD KD AD TC"], "TH")
    play(deal, "7S")  # spades led; seats 1 and 2 void in spades must trump
    play(deal, "AH", "QH")
    assert deal.tricks[0].winner == 2


def test_mi3_king_of_clubs_is_the_privileged_card():
    assert rules("mistigri").privileged == Card("KC")
    deal = three(["AD 8C 9C 7S 8S", "KC 9D TD JS QS", "8H QD KD 9S TS"])
    play(deal, "AD")
    assert plays(deal) == {"9D", "TD", "KC"}  # C12 via MI3: free to play it
    play(deal, "KC", "KD")
    assert deal.tricks[0].winner == 1 and deal.tricks[0].privileged


def test_mi4_a_trump_beats_the_king_of_clubs():
    deal = three(["AD 8C 9C 7S 8S", "KC 9D TD JS QS", "8H QC JD 9S TS"])
    play(deal, "AD", "KC")
    play(deal, "JD")
    assert deal.tricks[0].winner == 1
    deal = three(["AD 8C 9C 7S 8S", "KC 9D TD JS QS", "8H QC 9H 9S TS"])
    play(deal, "AD", "KC")
    assert plays(deal) == {"8H", "9H"}
    play(deal, "8H")
    assert deal.tricks[0].winner == 2


def test_mi4_with_clubs_trumps_the_king_is_the_top_trump():
    deal = three(["AD 8H 9H 7S 8S", "KC 9D TD JS QS", "QC JC 9C 9S TS"], "7C")
    play(deal, "AD", "KC")
    assert plays(deal) == {"QC", "JC", "9C"}
    play(deal, "QC")
    assert deal.tricks[0].winner == 1


def test_mi4_the_king_led_a_player_void_in_clubs_trumps_it():
    deal = three(["KC 8D 9D 7S 8S", "8H 9H TD JS QS", "7C QD KD 9S TS"])
    play(deal, "KC")
    assert plays(deal) == {"8H", "9H"}
    err = refused(deal, "TD", "MI4", words="trump")
    assert "clubs" in str(err)
    play(deal, "8H", "7C")
    assert deal.tricks[0].winner == 1


def test_mi5_the_king_of_clubs_may_not_be_discarded():
    deal = four([None, "KC 7D 8D 7S 8S", None, None])
    assert not any(Card("KC") in a.cards for a in deal.legal_actions())
    refused(deal, "stand KC", "MI5", words="can_discard_privileged")
    play(deal, "stand 7D 8D")
    assert Card("KC") in deal.hand(1)


def test_mi5_nor_discarded_for_the_turned_card():
    deal = four(["KC 7D 8D 7S 8S", None, None, None])
    play(deal, "pass", "pass", "pass")
    assert "take KC" not in legal_strs(deal)
    refused(deal, "take KC", "MI5")


def test_mi5_can_discard_privileged_option():
    deal = four([None, "KC 7D 8D 7S 8S", None, None], can_discard_privileged=True)
    play(deal, "stand KC")
    assert Card("KC") in deal.discards(1)


def test_mi5_held_means_in_hand_when_trick_play_began():
    # Seat 1 gets the king of clubs in his exchange: he held it.
    deal = four([None, "AD 7D 8D 7S 8S", None, None], talon="KC")
    play(deal, "stand 7S", "stand", "stand", "stand")
    assert deal.phase.name == "PLAY"
    while not deal.is_over:
        deal.apply(deal.legal_actions()[0])
    assert deal.result.privileged_holder == 1
    # With the option on, a king discarded before play was not held.
    deal = four([None, "KC 7D 8D 7S 8S", None, None], can_discard_privileged=True)
    play(deal, "stand KC", "stand", "stand", "stand")
    while not deal.is_over:
        deal.apply(deal.legal_actions()[0])
    assert deal.result.privileged_holder is None


# Seat 1 holds the king of clubs; seat 0 holds four top trumps and takes four tricks.
HOLDER_NO_TRICK = ["KH QH JH AH 9D", "KC 7D 8D 7S 8S", "TH 9H 8H TD JD"]
HOLDER_NO_TRICK_PLAY = ("KH", "KC", "8H", "QH", "7S", "9H", "JH", "8S", "TH", "AH", "7D", "TD",
                        "9D", "8D", "JD")
HOLDER_TRICK = ["KH QH JH AH 9D", "KC 7D JD 7S 8S", "TH 9H 8H TD 7C"]
HOLDER_TRICK_PLAY = ("KH", "KC", "8H", "QH", "7S", "9H", "JH", "8S", "TH", "AH", "7D", "7C",
                     "9D", "JD", "TD")


def test_mi6_remiz_10_for_king_holder():
    deal = three(HOLDER_NO_TRICK)
    play(deal, *HOLDER_NO_TRICK_PLAY)
    result = deal.result
    assert result.tricks == (4, 0, 1)
    assert result.privileged_holder == 1
    assert result.remiz == (0, 10, 0) and result.record_delta == (-4, 10, -1)


def test_mi6_other_trickless_players_write_five():
    deal = three(HOLDER_TRICK)
    play(deal, *HOLDER_TRICK_PLAY)
    assert deal.result.tricks == (4, 1, 0)
    assert deal.result.remiz == (0, 0, 5)


@pytest.mark.parametrize(("value", "expected"), [("7", 7), ("remiz", 5), ("0", 0)])
def test_mi6_privileged_remiz_option(value, expected):
    deal = three(HOLDER_NO_TRICK, privileged_remiz=value)
    play(deal, *HOLDER_NO_TRICK_PLAY)
    assert deal.result.record_delta[1] == expected


def test_mi7_king_holder_with_a_trick_writes_off_five_extra():
    deal = three(HOLDER_TRICK)
    play(deal, *HOLDER_TRICK_PLAY)
    result = deal.result
    assert result.trick_log[4].winner == 1 and result.trick_log[4].cards[1][1] == Card("JD")
    assert result.bonus == (0, 5, 0)
    assert result.record_delta == (-4, -6, 5)


def test_mi7_privileged_bonus_option():
    deal = three(HOLDER_TRICK, privileged_bonus=2)
    play(deal, *HOLDER_TRICK_PLAY)
    assert deal.result.record_delta[1] == -3


def test_mi7_a_lone_player_with_the_king_gets_the_bonus():
    deal = four([None, None, "KC 7D 8D 7S 8S", None])
    play(deal, "pass", "stand", "pass", "pass")
    result = deal.result
    assert result.lone == 2 and result.privileged_holder == 2
    assert result.record_delta == (0, 0, -10, 0)


def test_mi8_a_player_with_the_king_of_clubs_may_not_pass():
    deal = four([None, "KC 7D 8D 7S 8S", None, None])
    assert "pass" not in legal_strs(deal)
    err = refused(deal, "pass", "MI8", words="may not pass")
    assert "К♣" in err.message("ru")


def test_mi8_privileged_must_play_option():
    deal = four([None, "KC 7D 8D 7S 8S", None, None], privileged_must_play=False)
    assert "pass" in legal_strs(deal)
    play(deal, "pass")


def test_mi8_the_dealer_may_take_a_turned_king_and_must_then_play():
    deal = four([None, None, None, None], "KC")
    play(deal, "pass", "pass", "pass")
    assert "pass" in legal_strs(deal)  # he does not hold it yet
    play(deal, "take " + deal.hand(0)[0].code)
    assert Card("KC") in deal.hand(0)
    assert "pass" not in legal_strs(deal)
    refused(deal, "pass", "C6")
    play(deal, "stand")
    assert deal.result.lone == 0 and deal.result.privileged_holder == 0
    assert deal.result.record_delta[0] == -10


def test_mi9_five_of_a_suit_is_paid_by_every_other_player_and_the_deal_goes_on():
    deal = four([None, None, "7D 8D 9D TD JD", None], talon="KC")
    assert not deal.is_over
    shown = events_named(deal.events(1), "Shown")[0]
    assert shown.seat == 2 and shown.effect == "side_payment"
    assert deal.view(1).open_hands[2] == cards("7D 8D 9D TD JD")  # public from then on
    events = play(deal, "pass", "stand", "stand", "pass")
    paid = events_named(events, "FlushPaid")[0]
    assert paid.seat == 2 and paid.each == 5 and paid.total == 15
    while not deal.is_over:
        deal.apply(deal.legal_actions()[0])
    result = deal.result
    assert result.flush_seat == 2 and result.side == (-5, -5, 15, -5)
    assert sum(result.side) == 0
    # The records are untouched by the flush: only the tricks count.
    assert result.record_delta[2] == -result.tricks[2] or result.tricks[2] == 0


def test_mi9_paid_even_if_he_then_passes_and_everybody_passes():
    deal = four([None, None, "7D 8D 9D TD JD", None], talon="KC")
    play(deal, "pass", "pass", "pass", "pass")
    result = deal.result
    assert result.all_passed and result.side == (-5, -5, 15, -5)
    assert result.record_delta == (0, 0, 0, 0)


def test_mi9_flush_payment_option():
    deal = four([None, None, "7D 8D 9D TD JD", None], talon="KC", flush_payment=2)
    play(deal, "pass", "pass", "pass", "pass")
    assert deal.result.side == (-2, -2, 6, -2)


def test_mi9_side_account_of_the_partie():
    r = rules("mistigri", 4)
    game = stacked_game(r, [(0, [None, None, "7D 8D 9D TD JD", None], "7H", "KC")])
    play(game, "pass", "pass", "pass", "pass")
    assert game.side == [-5, -5, 15, -5] and game.records == [30, 30, 30, 30]
    assert game.view(0).side == (-5, -5, 15, -5) and game.money == (-5, -5, 15, -5)


def test_mi10_several_flushes_the_higher_suit_is_paid():
    deal = four([None, "7H 8H 9H TH JH", "7D 8D 9D TD JD", None], "6D", "KC")
    assert len(events_named(deal.events(None), "Shown")) == 2
    play(deal, "pass", "pass", "pass", "pass")
    assert deal.result.flush_seat == 1  # hearts above diamonds, trumps or not
    assert deal.result.side == (-5, 15, -5, -5)


@pytest.mark.parametrize(("low", "high"), [("S", "C"), ("C", "D"), ("D", "H"), ("S", "H")])
def test_mi10_suit_order_spades_clubs_diamonds_hearts(low, high):
    hands = [None, f"7{low} 8{low} 9{low} T{low} J{low}", f"7{high} 8{high} 9{high} T{high} J{high}", None]
    deal = four(hands, "6" + high)
    while not deal.is_over:
        deal.apply(deal.legal_actions()[0])
    assert deal.result.flush_seat == 2


def test_mi11_same_suit_more_card_points_win():
    r = rules("mistigri", 5)
    deal = stacked(r, [None, "AH KH QH JH TH", "9H 8H 7H 6H 5H", None, None], "2D", "KC")
    play(deal, "pass", "pass", "pass", "pass", "pass")
    assert deal.result.flush_seat == 2  # 35 points against 22


def test_mi11_equal_points_the_earlier_seat_from_the_eldest():
    r = rules("mistigri", 5)
    deal = stacked(r, ["2H 3H 4H 5H 6H", None, None, "8H JH QH KH AH", None], "2D", "KC", dealer=2)
    play(deal, "pass", "pass", "pass", "pass", "pass")
    assert deal.result.flush_seat == 3


def test_mi12_a_flush_after_an_exchange_competes():
    deal = four([None, "6S 7S 8S 9S TS", "7H 8H 9H TH 6D", None], "6C", "JH KC")
    play(deal, "pass", "stand 6D")
    assert Card("JH") in deal.hand(2)
    assert events_named(deal.events(None), "Shown")[-1].seat == 2
    play(deal, "pass", "pass")
    assert deal.result.flush_seat == 2


def test_mi12_paid_once_when_the_declarations_are_over():
    deal = four([None, "6S 7S 8S 9S TS", None, None], "6C", "JS KC")
    events = play(deal, "stand 6S")
    assert len(events_named(deal.events(None), "Shown")) == 2  # shown after the deal and again
    assert not events_named(events, "FlushPaid")
    events = play(deal, "pass", "pass", "pass")
    assert len(events_named(events, "FlushPaid")) == 1
    assert deal.result.side == (-5, 15, -5, -5)


def test_mi13_four_of_a_suit_and_the_king_of_clubs_wins_the_mushka():
    deal = four([None, None, "KC 7D 8D 9D TD", None])
    assert deal.is_over and deal.result.mushka == 2
    shown = events_named(deal.events(None), "Shown")[0]
    assert shown.kind == "privileged_four" and shown.effect == "wins_mushka"


def test_mi13_five_clubs_with_the_king_count_as_four_and_the_king():
    deal = four([None, None, "KC 7C 8C 9C TC", None], "7H")
    assert deal.result.mushka == 2
    assert events_named(deal.events(None), "Shown")[0].kind == "privileged_four"
    assert deal.result.flush_seat is None


def test_mi13_after_an_exchange_and_over_an_earlier_flush():
    deal = four([None, "6S 7S 8S 9S TS", "KC 7D 8D 9D 7C", None], "6C", "TD")
    assert not deal.is_over  # seat 1's flush is shown, to be paid later
    play(deal, "stand", "stand 7C")
    assert deal.is_over and deal.result.mushka == 2
    assert deal.result.side == (0, 0, 0, 0) and deal.result.flush_seat is None


def test_mi13_ends_the_partie():
    game = stacked_game(rules("mistigri", 4), [(0, [None, None, "KC 7D 8D 9D TD", None], "7H", "")])
    assert game.is_over and game.result.ended_by_mushka and game.result.winner == 2
    assert game.result.settlement == (-30, -30, 90, -30)


def test_mi14_a_flush_does_not_end_a_mistigri_deal():
    deal = four([None, None, "7D 8D 9D TD JD", None], talon="KC")
    assert not deal.is_over and deal.result is None


def test_mi14_four_and_the_ace_of_spades_is_nothing_in_mistigri():
    deal = four([None, None, "AS 7D 8D 9D TD", None])
    assert not deal.is_over and not events_named(deal.events(None), "Shown")


def test_mi13_several_that_win_at_once_the_suit_of_the_four_decides():
    # With flush=wins_mushka a flush and the four with the K♣ can both win at the deal.
    r = rules("mistigri", 4, flush="wins_mushka")
    deal = stacked(r, [None, "KC 7H 8H 9H TH", "6D 8D 9D TD JD", None], "7S")
    assert deal.is_over and deal.result.mushka == 1  # the four are hearts, above diamonds
    deal = stacked(r, [None, "KC 7S 8S 9S TS", "6D 8D 9D TD JD", None], "7H")
    assert deal.is_over and deal.result.mushka == 2  # the four are spades, the lowest suit


def test_mi13_several_that_win_at_once_card_points_then_the_earlier_seat():
    r = rules("mistigri", 5, flush="wins_mushka")
    # K♣ 2♥ 3♥ 4♥ 5♥ = 5+2+3+4+5 = 19 against 6♥ 7♥ 8♥ 9♥ T♥ = 40 (MI11).
    deal = stacked(r, [None, "KC 2H 3H 4H 5H", "6H 7H 8H 9H TH", None, None], "2D")
    assert deal.result.mushka == 2
    # Equal points (20 each): the earlier seat from the eldest (seat 3, dealer 2).
    deal = stacked(r, ["2H 3H 4H 5H 6H", None, None, "8H JH QH KH AH", None], "2D", dealer=2)
    assert deal.result.mushka == 3


def test_mi13_after_a_declaration_the_hand_that_wins_ends_the_deal():
    # Only the declaring player's hand changes, so after a declaration at most one new hand
    # can win the мушка; it ends the deal at once, and the flush shown at the deal is not paid.
    r = rules("mistigri", 4)
    deal = stacked(r, [None, "7H 8H 9H TH 6H", "KC 7D 8D 9D 7S", None], "6C", "TD")
    assert not deal.is_over
    play(deal, "stand", "stand 7S")
    assert deal.is_over and deal.result.mushka == 2 and deal.result.flush_seat is None
