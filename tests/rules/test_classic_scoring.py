"""C16-C22: the records (запись), the end of a partie, the settlement, five of a suit."""

from __future__ import annotations

import pytest
from rulekit import cards, events_named, finish_with_first, play, rules, stacked, stacked_game

from mushka.cards import Card

# Classic, 3 players, dealer 2 (eldest 0): seat 0 holds the top trumps and takes all five
# tricks; seats 1 and 2 can never win one (see the comments of the tests that use it).
SWEEP = ["AH KH QH JH AD", "7C 8C 9C 7D 8D", "TH 9H 8H KD QD"]
SWEEP_PLAY = ("stand", "stand", "stand", "AH", "7C", "8H", "KH", "8C", "9H",
              "QH", "9C", "TH", "JH", "7D", "QD", "AD", "8D", "KD")
# Dealer 0 (eldest 1): seat 1 takes one trick, seats 2 and 0 two each.
SPLIT = ["JS QS 8C 7D 8D", "AC KC QC 7S 8S", "AD KD 9S TS 7C"]
SPLIT_PLAY = ("stand", "stand", "stand", "AC", "7C", "8C", "7S", "9S", "QS", "7D", "KC", "KD",
              "AD", "8D", "QC", "TS", "JS", "8S")


def sweep(**options):
    deal = stacked(rules("classic", 3, **options), SWEEP, "7H", dealer=2)
    play(deal, *SWEEP_PLAY)
    return deal


def test_sweep_and_split_deals_play_as_described():
    deal = sweep()
    assert deal.tricks_won == (5, 0, 0)
    deal = stacked(rules("classic", 3), SPLIT, "7H", dealer=0)
    play(deal, *SPLIT_PLAY)
    assert deal.tricks_won == (2, 1, 2)


def test_c16_records_start_at_thirty():
    game = stacked_game(rules("classic", 3), [(2, SWEEP, "7H", "")], first_dealer=2)
    assert game.records == [30, 30, 30] and game.view(0).records == (30, 30, 30)


def test_c16_initial_record_option():
    game = stacked_game(rules("classic", 3, initial_record=25), [(2, SWEEP, "7H", "")], first_dealer=2)
    assert game.records == [25, 25, 25]
    play(game, *SWEEP_PLAY)
    assert game.records == [20, 30, 30]


def test_c17_each_trick_writes_off_one_point():
    result = sweep().result
    assert result.record_delta[0] == -5


def test_c17_trick_value_option():
    assert sweep(trick_value=2).result.record_delta[0] == -10
    deal = stacked(rules("classic", 3, trick_value=3), SPLIT, "7H", dealer=0)
    play(deal, *SPLIT_PLAY)
    assert deal.result.record_delta == (-6, -3, -6)


def test_c18_a_standing_player_without_a_trick_adds_a_remiz_of_five():
    result = sweep().result
    assert result.record_delta == (-5, 5, 5)
    assert result.remiz == (0, 5, 5)


def test_c18_remiz_option():
    assert sweep(remiz=7).result.record_delta == (-5, 7, 7)


def test_c19_passed_players_neither_write_off_nor_add():
    deal = stacked(rules("classic", 3), SWEEP, "7H", dealer=2)
    play(deal, "stand", "pass", "stand", "AH", "8H", "KH", "9H", "QH", "TH", "JH", "QD", "AD", "KD")
    result = deal.result
    assert result.standing == (True, False, True)
    assert result.record_delta == (-5, 0, 5)


def test_c20_the_partie_ends_when_a_record_reaches_zero():
    game = stacked_game(rules("classic", 3, initial_record=5), [(2, SWEEP, "7H", "")], first_dealer=2)
    play(game, *SWEEP_PLAY)
    assert game.is_over
    assert game.result.winner == 0 and game.result.records == (0, 10, 10)
    assert game.result.deals == 1


def test_c20_the_partie_goes_on_while_every_record_is_positive():
    game = stacked_game(rules("classic", 3, initial_record=6), [(2, SWEEP, "7H", "")], first_dealer=2)
    play(game, *SWEEP_PLAY)
    assert not game.is_over and game.records == [1, 11, 11]
    assert game.deal.dealer == 0  # C4


def test_c20_ties_go_to_the_earlier_seat_from_the_eldest():
    # Dealer 0, eldest 1: seats 2 and 0 both reach 0; seat 2 comes first from the eldest.
    game = stacked_game(rules("classic", 3, initial_record=2), [(0, SPLIT, "7H", "")], first_dealer=0)
    play(game, *SPLIT_PLAY)
    assert game.result.records == (0, 1, 0)
    assert game.result.winner == 2


def test_c20_a_record_below_zero_beats_one_at_zero():
    # initial 1: seat 0 and seat 2 go to -1; seat 1 to 0; the lowest is a tie of -1.
    game = stacked_game(rules("classic", 3, initial_record=1), [(0, SPLIT, "7H", "")], first_dealer=0)
    play(game, *SPLIT_PLAY)
    assert game.result.records == (-1, 0, -1)
    assert game.result.winner == 2
    assert game.result.settlement == (0, 0, 0)  # C20: nobody at 0 or less pays


def test_c21_the_winner_takes_every_positive_record():
    game = stacked_game(rules("classic", 3, initial_record=5), [(2, SWEEP, "7H", "")], first_dealer=2)
    play(game, *SWEEP_PLAY)
    assert game.result.settlement == (20, -10, -10)
    assert game.result.money == (20, -10, -10) and sum(game.result.money) == 0


def test_c21_players_at_zero_or_below_pay_nothing():
    game = stacked_game(rules("classic", 3, initial_record=2), [(0, SPLIT, "7H", "")], first_dealer=0)
    play(game, *SPLIT_PLAY)
    assert game.result.settlement == (0, -1, 1)


def test_c21_stake_option():
    game = stacked_game(rules("classic", 3, initial_record=5, stake=3), [(2, SWEEP, "7H", "")],
                        first_dealer=2)
    play(game, *SWEEP_PLAY)
    assert game.result.settlement == (60, -30, -30)


def test_c21_a_new_partie_starts_with_fresh_records():
    from mushka import new_game
    r = rules("classic", 3, initial_record=5)
    deck_game = stacked_game(r, [(2, SWEEP, "7H", "")], first_dealer=2)
    play(deck_game, *SWEEP_PLAY)
    fresh = new_game(r, rng=1)
    assert fresh.records == [5, 5, 5]


def test_c21_a_special_hand_settles_the_records_as_they_stood_before_its_deal():
    r = rules("classic", 3)
    mushka_deal = ["AS 7D 8D 9D TD", None, None]  # seat 0: four diamonds and the A♠ (C22)
    game = stacked_game(r, [(2, SWEEP, "7H", ""), (0, mushka_deal, "7H", "")], first_dealer=2)
    play(game, *SWEEP_PLAY)
    assert game.is_over
    result = game.result
    assert result.ended_by_mushka and result.winner == 0 and result.deals == 2
    assert result.records == (25, 35, 35)
    assert result.settlement == (70, -35, -35)
    assert game.finished[-1].result.record_delta == (0, 0, 0)


# --- C22: special hands (read from the mistigri text, the A♠ for the K♣) ---------------


def test_c22_five_of_a_suit_is_shown_and_paid_and_the_deal_goes_on():
    deal = stacked(rules("classic", 4), [None, "7D 8D 9D TD JD", None, None], "7H")
    assert not deal.is_over
    shown = events_named(deal.events(None), "Shown")[0]
    assert shown.seat == 1 and set(shown.cards) == set(cards("7D 8D 9D TD JD"))
    assert shown.kind == "flush" and shown.effect == "side_payment"
    assert deal.view(3).open_hands[1] == shown.cards  # he must show it (MI9)
    events = play(deal, "stand", "pass", "pass", "stand")
    assert len(events_named(events, "FlushPaid")) == 1
    finish_with_first(deal)
    result = deal.result
    assert result.mushka is None and result.flush_seat == 1
    assert result.side == (-5, 15, -5, -5)  # flush_payment from every other player


def test_c22_the_flush_payment_leaves_the_records_untouched():
    deal = stacked(rules("classic", 4), [None, "7D 8D 9D TD JD", None, None], "7H")
    play(deal, "pass", "pass", "pass", "pass")  # the holder is paid even if everybody passes
    result = deal.result
    assert result.flush_seat == 1 and result.side == (-5, 15, -5, -5)
    assert result.record_delta == (0, 0, 0, 0)


def test_c22_flush_payment_option():
    deal = stacked(rules("classic", 3, flush_payment=7), [None, "7D 8D 9D TD JD", None], "7H")
    play(deal, "pass", "pass", "pass")
    assert deal.result.side == (-7, 14, -7)


def test_c22_a_partie_goes_on_after_a_flush():
    game = stacked_game(rules("classic", 4), [(0, [None, "7D 8D 9D TD JD", None, None], "7H", "")])
    assert not game.is_over
    play(game, "pass", "pass", "pass", "pass")
    assert not game.is_over and game.side == [-5, 15, -5, -5]


def test_c22_flush_wins_mushka_option_is_the_french_reading():
    r = rules("classic", 4, flush="wins_mushka")
    deal = stacked(r, [None, "7D 8D 9D TD JD", None, None], "7H")
    assert deal.is_over and deal.result.mushka == 1
    shown = events_named(deal.events(None), "Shown")[0]
    assert shown.kind == "flush" and shown.effect == "wins_mushka"


def test_c22_four_of_a_suit_and_the_ace_of_spades_wins_the_mushka():
    deal = stacked(rules("classic", 4), [None, None, "AS 8D 9D TD JD", None], "7H")
    assert deal.is_over and deal.result.mushka == 2
    shown = events_named(deal.events(None), "Shown")[0]
    assert shown.kind == "privileged_four" and shown.effect == "wins_mushka"
    assert deal.result.record_delta == (0, 0, 0, 0) and deal.result.side == (0, 0, 0, 0)


def test_c22_five_spades_with_the_ace_count_as_four_and_the_ace():
    deal = stacked(rules("classic", 4), [None, None, "AS 8S 9S TS JS", None], "7H")
    assert deal.is_over and deal.result.mushka == 2
    assert events_named(deal.events(None), "Shown")[0].kind == "privileged_four"
    assert deal.result.flush_seat is None


def test_c22_five_spades_without_the_ace_are_a_flush():
    deal = stacked(rules("classic", 4), [None, None, "KS 8S 9S TS JS", None], "7H")
    assert not deal.is_over
    assert events_named(deal.events(None), "Shown")[0].kind == "flush"


def test_c22_privileged_four_as_flush_option_is_the_old_reading():
    r = rules("classic", 4, flush="wins_mushka", privileged_four="as_flush")
    deal = stacked(r, [None, None, "AS 8D 9D TD JD", None], "7H")
    assert deal.result.mushka == 2  # as flush says: wins the мушка
    r = rules("classic", 4, privileged_four="as_flush")
    deal = stacked(r, [None, None, "AS 8D 9D TD JD", None], "7H")
    assert not deal.is_over  # as flush says by default: a side payment
    play(deal, "pass", "pass", "pass", "pass")
    assert deal.result.flush_seat == 2


def test_c22_checked_after_an_exchange():
    deal = stacked(rules("classic", 4), [None, "AS 8D 9D 7C 8C", None, None], "7H", "TD JD")
    play(deal, "stand 7C 8C")
    assert deal.is_over and deal.result.mushka == 1
    assert events_named(deal.events(None), "Shown")[0].seat == 1


def test_c22_a_flush_made_by_an_exchange_is_shown_and_paid():
    deal = stacked(rules("classic", 4), [None, "7D 8D 9D 7C 8C", None, None], "7H", "TD JD")
    events = play(deal, "stand 7C 8C")
    assert not deal.is_over
    assert events_named(events, "Shown")[0].seat == 1
    play(deal, "pass", "pass", "pass")
    assert deal.result.flush_seat == 1


def test_c22_checked_after_the_dealers_take_and_declaration_together():
    deal = stacked(rules("classic", 4), ["AS 8D 9D TD 7C", None, None, None], "JD")
    play(deal, "pass", "pass", "pass", "take 7C")
    assert not deal.is_over  # not yet: the take and the declaration count together
    play(deal, "stand")
    assert deal.is_over and deal.result.mushka == 0


def test_c22_not_checked_for_a_player_who_stands_pat_on_an_ordinary_hand():
    deal = stacked(rules("classic", 4), [None, "AS 8D 9D TD 7C", None, None], "7H")
    play(deal, "stand")
    assert not deal.is_over


def test_c22_the_mushka_takes_precedence_over_a_flush_at_the_deal():
    deal = stacked(rules("classic", 4), [None, "6H 7H 8H 9H TH", "AS 8D 9D TD JD", None], "7C")
    assert deal.is_over and deal.result.mushka == 2
    assert len(events_named(deal.events(None), "Shown")) == 2  # both are shown
    assert deal.result.flush_seat is None and deal.result.side == (0, 0, 0, 0)  # the flush is not paid


def test_c22_the_mushka_after_a_declaration_takes_precedence_over_an_earlier_flush():
    deal = stacked(rules("classic", 4), [None, "6H 7H 8H 9H TH", "AS 8D 9D 7C 8C", None], "7S", "TD JD")
    assert not deal.is_over  # seat 1's flush is shown, to be paid later
    play(deal, "stand", "stand 7C 8C")
    assert deal.is_over and deal.result.mushka == 2
    assert deal.result.side == (0, 0, 0, 0) and deal.result.flush_seat is None


def test_c22_several_that_win_at_once_the_higher_suit_wins():
    r = rules("classic", 4, flush="wins_mushka")
    deal = stacked(r, [None, "6D 8D 9D TD JD", "6H 7H 8H 9H TH", None], "7D")
    assert deal.result.mushka == 2  # hearts above diamonds; the trump suit gives no priority
    assert len(events_named(deal.events(None), "Shown")) == 2


def test_c22_several_that_win_at_once_the_suit_of_the_four_against_the_suit_of_the_five():
    r = rules("classic", 4, flush="wins_mushka")
    # Seat 1: four hearts and the A♠ (the suit of the four is hearts); seat 2: five diamonds.
    deal = stacked(r, [None, "AS 7H 8H 9H TH", "6D 8D 9D TD JD", None], "7C")
    assert deal.result.mushka == 1
    deal = stacked(r, [None, "AS 7D 8D 9D TD", "6H 8H 9H JH QH", None], "7C")
    assert deal.result.mushka == 2


def test_c22_several_in_one_suit_more_card_points_win():
    r = rules("classic", 5, flush="wins_mushka")
    deal = stacked(r, [None, "AH KH QH JH TH", "9H 8H 7H 6H 5H", None, None], "2C")
    assert deal.result.mushka == 2  # 35 points against 22


def test_c22_card_points_count_all_five_cards_the_ace_of_spades_too():
    r = rules("classic", 5, flush="wins_mushka")
    # Seat 1: A♠ 2♥ 3♥ 4♥ 5♥ = 1+2+3+4+5 = 15; seat 2: 6♥ 7♥ 8♥ 9♥ T♥ = 40.
    deal = stacked(r, [None, "AS 2H 3H 4H 5H", "6H 7H 8H 9H TH", None, None], "2C")
    assert deal.result.mushka == 2
    # Seat 1: A♠ K♥ Q♥ 9♥ 8♥ = 1+5+4+9+8 = 27; seat 2: 2♥ 3♥ 4♥ 6♥ 7♥ = 22.
    deal = stacked(r, [None, "AS KH QH 9H 8H", "2H 3H 4H 6H 7H", None, None], "2C")
    assert deal.result.mushka == 1


def test_c22_equal_points_the_earlier_seat_from_the_eldest():
    r = rules("classic", 5, flush="wins_mushka")
    deal = stacked(r, ["2H 3H 4H 5H 6H", None, None, "8H JH QH KH AH", None], "2C", dealer=2)
    # Both hands count 20; the eldest is seat 3, so seat 3 comes before seat 0.
    assert deal.result.mushka == 3


def test_c22_several_flushes_only_the_best_is_paid():
    deal = stacked(rules("classic", 4), [None, "6D 8D 9D TD JD", "6H 7H 8H 9H TH", None], "7C")
    assert not deal.is_over
    play(deal, "pass", "pass", "pass", "pass")
    assert deal.result.flush_seat == 2 and deal.result.side == (-5, -5, 15, -5)


def test_c22_flush_none_option():
    r = rules("classic", 4, flush="none")
    deal = stacked(r, [None, "7D 8D 9D TD JD", None, None], "7H")
    assert not deal.is_over and not events_named(deal.events(None), "Shown")
    play(deal, "pass", "pass", "pass", "pass")
    assert deal.result.flush_seat is None and deal.result.side == (0, 0, 0, 0)


def test_c22_privileged_four_none_and_side_payment():
    r = rules("classic", 4, privileged_four="none")
    deal = stacked(r, [None, None, "AS 8D 9D TD JD", None], "7H")
    assert not deal.is_over and not events_named(deal.events(None), "Shown")
    r = rules("classic", 4, privileged_four="side_payment")
    deal = stacked(r, [None, None, "AS 8D 9D TD JD", None], "7H")
    assert not deal.is_over
    play(deal, "pass", "pass", "pass", "pass")
    assert deal.result.flush_seat == 2


def test_c22_ends_the_partie_at_once():
    game = stacked_game(rules("classic", 4), [(0, [None, "AS 7D 8D 9D TD", None, None], "7H", "")])
    assert game.is_over and game.result.winner == 1 and game.result.ended_by_mushka
    assert game.result.settlement == (-30, 90, -30, -30)


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_c22_any_seat_the_dealer_included(seat):
    hands = [None] * 4
    hands[seat] = "AS 7D 8D 9D TD"
    assert stacked(rules("classic", 4), hands, "7H").result.mushka == seat


def test_c22_turned_card_does_not_count():
    deal = stacked(rules("classic", 4), [None, "7D 8D 9D TD 7C", None, None], "JD")
    assert not deal.is_over
    assert Card("JD") not in deal.hand(1)
