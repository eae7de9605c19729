"""C11-C15: the privileged card (мушка) and trick play."""

from __future__ import annotations

import pytest
from rulekit import play, plays, refused, rules, stacked

from mushka.cards import Card


def table(hands, turnup="TH", *, stand=("stand", "stand", "stand"), **options):
    """Classic, 3 players, 32 cards, dealer 2: seat 0 is the eldest and leads."""
    deal = stacked(rules("classic", 3, **options), hands, turnup, dealer=2)
    play(deal, *stand)
    return deal


def test_c11_ace_of_spades_beats_a_trick_of_any_suit():
    deal = table(["KD 8C 9C TC JC", "AD 8S 9S TS JS", "7D AS QC KC AC"])
    play(deal, "KD", "AD", "AS")
    trick = deal.tricks[0]
    assert trick.winner == 2 and trick.privileged and trick.suit == Card("KD").suit


def test_c12_any_trump_beats_the_ace_of_spades():
    deal = table(["KD 8C 9C TC JC", "8H 8S 9S TS JS", "7D AS QC KC AC"])
    assert plays(deal) == {"KD", "8C", "9C", "TC", "JC"}
    play(deal, "KD")
    assert plays(deal) == {"8H"}  # void in diamonds: he must trump (C14)
    play(deal, "8H", "AS")
    assert deal.tricks[0].winner == 1 and not deal.tricks[0].privileged


def test_c12_with_spades_trumps_the_ace_is_simply_the_top_trump():
    deal = table(["KD 8C 9C TC JC", "KS 8H 9H TH JH", "7D AS QC KC AC"], turnup="7S")
    play(deal, "KD", "KS", "AS")
    assert deal.tricks[0].winner == 2


def test_c12_privileged_beats_trumps_option():
    deal = table(["KD 8C 9C TC JC", "8H 8S 9S TS JS", "7D AS QC KC AC"], privileged_beats_trumps=True)
    play(deal, "KD", "8H", "AS")
    assert deal.tricks[0].winner == 2 and deal.tricks[0].privileged


def test_c12_it_may_be_played_even_by_a_player_who_could_follow():
    deal = table(["KD 8C 9C TC JC", "AD 8S 9S TS JS", "7D AS QC KC AC"])
    play(deal, "KD", "AD")
    assert plays(deal) == {"7D", "AS"}


def test_c12_privileged_free_play_off_makes_it_an_ordinary_spade():
    deal = table(["KD 8C 9C TC JC", "AD 8S 9S TS JS", "7D AS QC KC AC"], privileged_free_play=False)
    play(deal, "KD", "AD")
    assert plays(deal) == {"7D"}
    refused(deal, "AS", "C14", words="follow suit")


def test_c12_when_led_spades_are_the_led_suit():
    deal = table(["AS 8C 9C TC JD", "8S 9D TD QD KD", "7D 8D QC KC AC"])
    play(deal, "AS")
    assert plays(deal) == {"8S"}
    play(deal, "8S")
    assert plays(deal) == {"7D", "8D", "QC", "KC", "AC"}  # void in spades and in trumps
    play(deal, "KC")
    assert deal.tricks[0].winner == 0 and deal.tricks[0].suit == Card("AS").suit


def test_c12_a_player_whose_only_spade_it_is_holds_the_led_suit():
    deal = table(["KS 8C 9C TC JC", "AS 9D TD JD 8H", "7D 8D QC KC AC"])
    play(deal, "KS")
    assert plays(deal) == {"AS"}
    refused(deal, "9D", "C14", words="spades")


def test_c13_the_eldest_standing_player_leads_and_the_winner_leads_next():
    deal = table(["KD 8C 9C TC JC", "AD 8S 9S TS JS", "7D AS QC KC AC"],
                 stand=("pass", "stand", "stand"))
    assert deal.to_act == 1 and deal.view(None).playing == (1, 2)
    play(deal, "AD", "7D")
    assert deal.tricks[0].winner == 1 and deal.to_act == 1
    play(deal, "8S", "AS")
    assert deal.tricks[1].winner == 2 and deal.to_act == 2


def test_c13_five_tricks_end_the_deal():
    deal = table(["KD 8C 9C TC JC", "AD 8S 9S TS JS", "7D AS QC KC AC"])
    count = 0
    while not deal.is_over:
        deal.apply(deal.legal_actions()[0])
        count += 1
    assert count == 15 and len(deal.tricks) == 5 and sum(deal.tricks_won) == 5
    assert all(len(deal.hand(s)) == 0 for s in range(3))


def test_c14_follow_suit_if_possible():
    deal = table(["KD 8C 9C TC JC", "AD 8D 9S TS JS", "7S AS QC KC AC"])
    play(deal, "KD")
    assert plays(deal) == {"AD", "8D"}
    err = refused(deal, "9S", "C14", words="follow suit")
    assert "diamonds" in str(err) and "бубён" in err.message("ru")  # the genitive: «зашли с бубён»


def test_c14_void_must_trump_and_is_not_obliged_to_beat():
    deal = table(["KD 8C 9C TC JC", "7H AH 9S TS JS", "7S AS QC KC AC"])
    play(deal, "KD")
    assert plays(deal) == {"7H", "AH"}
    refused(deal, "9S", "C14", words="trump")
    play(deal, "7H")
    # Seat 2 is void in diamonds and trumps: any card, the ace of spades too.
    assert plays(deal) == {"7S", "AS", "QC", "KC", "AC"}
    play(deal, "QC")
    assert deal.tricks[0].winner == 1


def test_c14_must_follow_off():
    deal = table(["KD 8C 9C TC JC", "AD 8D 9S TS JS", "7S AS QC KC AC"], must_follow=False)
    play(deal, "KD")
    assert plays(deal) == {"AD", "8D", "9S", "TS", "JS"}


def test_c14_must_trump_if_void_off():
    deal = table(["KD 8C 9C TC JC", "7H AH 9S TS JS", "7S AS QC KC AC"], must_trump_if_void=False)
    play(deal, "KD")
    assert plays(deal) == {"7H", "AH", "9S", "TS", "JS"}


def test_c14_must_head_trick():
    hands = ["QD 8C 9C TC JC", "AD 8D 9S TS JS", "7D KD QH KH AH"]
    deal = table(hands, must_head_trick=True)
    play(deal, "QD")
    assert plays(deal) == {"AD"}
    refused(deal, "8D", "C14", words="must_head_trick")
    play(deal, "AD")
    # Nothing seat 2 may play (a diamond) wins now: every diamond stays legal.
    assert plays(deal) == {"7D", "KD"}
    # Without the option the low diamond is legal for seat 1 too.
    deal = table(hands)
    play(deal, "QD")
    assert plays(deal) == {"AD", "8D"}


def test_c14_must_head_trick_with_trumps():
    deal = table(["QD 8C 9C TC JC", "9H 8S 9S TS JS", "7H KH 7S QS KS"], must_head_trick=True)
    play(deal, "QD", "9H")
    assert plays(deal) == {"KH"}  # void in diamonds: a trump, and one that wins


def test_c14_must_overtrump():
    hands = ["QD 8C 9C TC JC", "9H 8S 9S TS JS", "8H KH 7S QS KS"]
    deal = table(hands, must_overtrump=True)
    play(deal, "QD", "9H")
    assert plays(deal) == {"KH"}
    refused(deal, "8H", "C14", words="must_overtrump")
    deal = table(hands)
    play(deal, "QD", "9H")
    assert plays(deal) == {"8H", "KH"}


def test_c14_must_overtrump_overrides_must_trump_if_void_off():
    # Hearts are trumps; seat 2 is void in diamonds and holds the K♥, higher than the 9♥ on the trick.
    hands = ["QD 8C 9C TC JC", "9H 8S 9S TS JS", "8H KH 7S QS KS"]
    deal = table(hands, must_overtrump=True, must_trump_if_void=False)
    play(deal, "QD", "9H")
    assert plays(deal) == {"KH"}  # a higher trump, and nothing else
    refused(deal, "7S", "C14", words="must_overtrump")
    refused(deal, "8H", "C14", words="must_overtrump")
    # Without a trump on the trick must_overtrump asks nothing, and with the duty to trump off
    # the void player may play any card.
    deal = table(hands, must_overtrump=True, must_trump_if_void=False)
    play(deal, "QD", "8S")
    assert plays(deal) == {"8H", "KH", "7S", "QS", "KS"}
    # Only lower trumps: with the duty to trump off, any card is allowed.
    deal = table(["QD 8C 9C TC JC", "AH 8S 9S TS JS", "8H KH 7S QS KS"], must_overtrump=True,
                 must_trump_if_void=False)
    play(deal, "QD", "AH")
    assert plays(deal) == {"8H", "KH", "7S", "QS", "KS"}


def test_c14_must_overtrump_with_only_lower_trumps_still_trumps():
    deal = table(["QD 8C 9C TC JC", "KH 8S 9S TS JS", "8H 7H 7S QS KS"], must_overtrump=True)
    play(deal, "QD", "KH")
    assert plays(deal) == {"8H", "7H"}


def test_c14_privileged_stays_legal_after_every_restriction():
    deal = table(["QD 8C 9C TC JC", "9H 8S 9S TS JS", "8H KH AS QS KS"],
                 must_overtrump=True, must_head_trick=True)
    play(deal, "QD", "9H")
    assert plays(deal) == {"KH", "AS"}
    deal = table(["QD 8C 9C TC JC", "AD 8S 9S TS JS", "7D AS QH KH AH"], must_head_trick=True)
    play(deal, "QD", "AD")
    assert plays(deal) == {"7D", "AS"}


def test_c15_highest_trump_else_highest_of_the_led_suit():
    deal = table(["9D 8C 9C TC JC", "AC 8S 9S TS JS", "TD AS QH KH AH"])
    play(deal, "9D", "AC", "TD")
    # The ace of clubs is neither the led suit nor a trump: it cannot win.
    assert deal.tricks[0].winner == 2
    deal = table(["9D 8C 9C TC JC", "7H 8S 9S TS JS", "8H AS QH KH 7C"])
    play(deal, "9D", "7H")
    assert plays(deal) == {"8H", "AS", "QH", "KH"}
    play(deal, "8H")
    assert deal.tricks[0].winner == 2


@pytest.mark.parametrize("lead", ["8C", "9C", "TC", "JC"])
def test_c15_lower_cards_of_the_led_suit_lose(lead):
    deal = table([f"{lead} 8D 9D TD JD", "QC 8S 9S TS JS", "7C AS QH KH AH"])
    play(deal, lead, "QC", "7C")
    assert deal.tricks[0].winner == 1


def test_c14_a_led_ace_of_spades_asks_a_void_player_for_a_trump_under_c14_not_mi4():
    # C12: the led A♠ makes spades the led suit; the duty to trump is classic's C14 (MI4 is
    # mistigri's reading of a led K♣ and must not be named at a classic table).
    deal = table(["AS 7C 8D 9C TC", "9H KH 7D TD QD", "8H QH 9D JD KD"], turnup="7H")
    play(deal, "AS")
    assert plays(deal) == {"9H", "KH"}
    err = refused(deal, "7D", "C14", words="trump")
    assert "spades" in str(err) and "MI4" not in str(err)


def test_c14_must_head_trick_a_card_left_out_by_following_suit_is_refused_for_that_duty():
    # The follow-suit duty leaves out 9♥; the duty to head the trick only chooses among the
    # clubs, so the refusal of 9♥ names the suit to follow, not the winning card.
    deal = table(["9C 8D 9D JS QS", "8C TC 9H KH 7D", "7H QH 7S KD AD"], turnup="8H",
                 must_head_trick=True)
    play(deal, "9C")
    assert plays(deal) == {"TC"}
    err = refused(deal, "9H", "C14", words="follow suit")
    assert "clubs" in str(err) and "must_head_trick" not in str(err)
    refused(deal, "8C", "C14", words="must_head_trick")
