"""C1-C10: players, decks, ranking, the deal, the trump and the declarations."""

from __future__ import annotations

import random

import pytest
from rulekit import cards, events_named, legal_strs, play, refused, rules, snapshot, stacked, stacked_game

from mushka import new_game
from mushka.cards import Card, Suit
from mushka.errors import OptionsError, OutOfTurnError

# Classic, 4 players, 36 cards, dealer 0: the eldest is seat 1, then 2, 3 and the dealer.
PLAIN = ["TH 9D 7C AC 6S", "AH KD 7S 8C 6H", "QH JD 9S TC 7H", "JH TD 8S 9C 6D"]


def plain(**options):
    return stacked(rules("classic", 4, **options), PLAIN, "KC", "QC JC 8H 9H 7D 8D 6C AS")


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_c1_three_to_seven_players(players):
    assert rules("classic", players).players == players


@pytest.mark.parametrize("players", [1, 2, 8])
def test_c1_other_table_sizes_are_refused(players):
    with pytest.raises(OptionsError) as info:
        rules("classic", players)
    assert info.value.rule == "C1"
    assert "3-7" in str(info.value) and str(players) in str(info.value)


def test_c2_deck_by_players_default():
    assert {p: rules("classic", p).deck_size for p in range(3, 8)} == {3: 32, 4: 36, 5: 52, 6: 52, 7: 52}


def test_c2_deck_by_players_option_changes_the_deck():
    r = rules("classic", 3, deck_by_players="3:36,4:36,5:52,6:52,7:52")
    assert r.deck_size == 36
    assert len(stacked(r, [None] * 3).talon()) == 36 - 16
    assert rules("classic", 4, deck_by_players={3: 32, 4: 52, 5: 52, 6: 52, 7: 52}).deck_size == 52


def test_c2_deck_option_overrides_the_table_size():
    assert rules("classic", 3, deck=52).deck_size == 52
    assert rules("classic", 5, deck="32").deck_size == 32
    assert rules("classic", 5, deck="auto").deck_size == 52


def test_c3_ace_is_high_in_classic():
    r = rules("classic", 3)
    # Hearts are led; spades are trumps; the ace of hearts takes the king.
    deal = stacked(r, ["KH 7D 8D 9D TD", "AH 7C 8C 9C TC", "QH JD QD KD AD"], "7S",
                   dealer=2)
    play(deal, "stand", "stand", "stand", "KH", "AH", "QH")
    assert deal.tricks[0].winner == 1


def test_c3_rank_order_option_changes_the_winner():
    r = rules("classic", 3, rank_order="KQJAT98765432")
    deal = stacked(r, ["KH 7D 8D 9D TD", "AH 7C 8C 9C TC", "QH JD QD KD AD"], "7S",
                   dealer=2)
    play(deal, "stand", "stand", "stand", "KH", "AH", "QH")
    assert deal.tricks[0].winner == 0


def test_c4_first_dealer_by_lot_and_the_deal_passes_on():
    r = rules("classic", 4)
    firsts = {new_game(r, rng=seed).first_dealer for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    game = new_game(r, rng=11, first_dealer=2)
    rng = random.Random(3)
    while not game.is_over and len(game.finished) < 6:
        game.apply(rng.choice(list(game.legal_actions())))
    assert len(game.finished) >= 4
    assert [d.dealer for d in game.finished] == [(2 + i) % 4 for i in range(len(game.finished))]


def test_c5_five_cards_each_a_turned_trump_and_the_talon():
    deal = plain()
    for seat in range(4):
        assert len(deal.hand(seat)) == 5
        assert set(deal.hand(seat)) == set(cards(PLAIN[seat]))
    assert Card(deal.turnup) == Card("KC") and deal.trump == Suit.CLUBS
    assert deal.talon_size == 36 - 20 - 1
    view = deal.view(2)
    assert view.turnup == Card("KC") and view.trump is Suit.CLUBS
    assert [e.name for e in deal.events(None)][:2] == ["Dealt", "TurnedUp"]


def test_c6_dealer_takes_the_turned_card_and_must_then_play():
    deal = plain()
    play(deal, "pass", "pass", "pass")
    assert deal.to_act == 0
    takes = [a for a in legal_strs(deal) if a.startswith("take")]
    assert takes == ["take " + c.code for c in deal.hand(0)]
    events = play(deal, "take 6S")
    took = events_named(events, "TookTurnup")[0]
    assert took.card == Card("KC") and took.discard == Card("6S")
    assert Card("KC") in deal.hand(0) and Card("6S") not in deal.hand(0)
    assert Card("6S") in deal.discards(0)
    assert deal.trump == Suit.CLUBS  # the trump suit does not change
    # Others see that he took the card but not what he discarded.
    assert events_named(deal.events(1), "TookTurnup")[0].discard is None
    assert "pass" not in legal_strs(deal)
    refused(deal, "pass", "C6", words="must play")
    refused(deal, "take 7C", "C6")
    play(deal, "stand")
    assert deal.result is not None and deal.result.lone == 0  # C10: he stands alone


def test_c6_only_the_dealer_may_take():
    deal = plain()
    refused(deal, "take AH", "C6")


def test_c6_dealer_takes_turnup_option_off():
    deal = plain(dealer_takes_turnup=False)
    play(deal, "pass", "pass", "pass")
    assert not [a for a in legal_strs(deal) if a.startswith("take")]
    refused(deal, "take 6S", "C6", words="dealer_takes_turnup")
    play(deal, "pass")
    assert deal.result.all_passed


def test_c6_dealer_may_take_then_exchange_the_taken_card():
    deal = plain()
    play(deal, "stand", "pass", "pass", "take 6S", "stand KC AC")
    assert Card("KC") in deal.discards(0) and Card("AC") in deal.discards(0)
    assert len(deal.hand(0)) == 5


def test_c7_declarations_go_from_the_eldest_to_the_dealer():
    deal = plain()
    seen = []
    for action in ["pass", "stand", "stand 6D", "stand 6S"]:
        seen.append(deal.to_act)
        deal.apply(action)
    assert seen == [1, 2, 3, 0]
    assert deal.phase.name == "PLAY"
    view = deal.view(None)
    assert view.declarations == ("stand", "pass", "stand", "stand")
    assert view.exchanged == (1, -1, 0, 1)
    assert view.playing == (2, 3, 0)


def test_c7_an_exchange_discards_face_down_and_draws_from_the_top():
    deal = plain()
    events = play(deal, "stand AH KD 7S")
    assert set(deal.hand(1)) == set(cards("8C 6H QC JC 8H"))
    assert set(deal.discards(1)) == set(cards("AH KD 7S"))
    own = events_named(deal.events(1), "Declared")[0]
    other = events_named(deal.events(2), "Declared")[0]
    assert own.count == other.count == 3
    assert set(own.discards) == set(cards("AH KD 7S")) and set(own.drawn) == set(cards("QC JC 8H"))
    assert other.discards is None and other.drawn is None
    assert events_named(events, "Declared")[0].stand


def test_c7_out_of_turn_is_refused_naming_the_rule():
    deal = plain()
    before = snapshot(deal)
    with pytest.raises(OutOfTurnError) as info:
        deal.apply("pass", seat=2)
    assert info.value.rule == "C7"
    assert "seat 2" in str(info.value) and "seat 1" in str(info.value)
    assert snapshot(deal) == before
    refused(deal, "pass", "C7", seat=3, exc=OutOfTurnError)


def test_c7_a_card_not_in_hand_cannot_be_exchanged():
    deal = plain()
    refused(deal, "stand QH", "C7", words="Q♥")


def test_c7_early_players_may_use_up_the_talon_c8_later_ones_get_what_is_left():
    deal = plain()
    play(deal, "stand AH KD 7S 8C 6H", "stand QH JD 9S TC 7H", "stand JH TD 8S 9C 6D")
    assert deal.talon_size == 0
    assert legal_strs(deal)[:2] == ["pass", "stand"]
    assert not [a for a in legal_strs(deal) if a.startswith("stand ")]
    refused(deal, "stand 6S", "C8", words="at most 0")
    play(deal, "stand")
    assert deal.phase.name == "PLAY"


def test_c8_exchange_limited_by_the_talon():
    deal = plain()
    play(deal, "stand AH KD 7S 8C 6H", "stand QH JD 9S TC 7H", "stand JH TD")
    assert deal.talon_size == 3
    options = {str(a) for a in deal.legal_actions()}
    assert "stand TH 9D 7C" in options or "stand 7C 9D TH" in options
    assert max(a.count for a in deal.legal_actions() if a.kind.name == "STAND") == 3
    err = refused(deal, "stand TH 9D 7C AC", "C8")
    assert "at most 3" in str(err) and "3 left" in str(err)
    play(deal, "stand TH 9D 7C")
    assert deal.talon_size == 0
    assert deal.discards(1) and len(deal.discards(0)) == 3


def test_c8_max_exchange_option():
    deal = plain(max_exchange=2)
    assert max(a.count for a in deal.legal_actions() if a.kind.name == "STAND") == 2
    err = refused(deal, "stand AH KD 7S", "C8")
    assert "max_exchange=2" in str(err)
    play(deal, "stand AH KD")
    assert deal.talon_size == 13


def test_c8_discards_are_dead_no_reshuffle():
    deal = plain()
    play(deal, "stand AH KD 7S 8C 6H", "stand QH JD 9S TC 7H", "stand JH TD 8S 9C 6D")
    assert deal.talon_size == 0
    dead = set(deal.discards(1)) | set(deal.discards(2)) | set(deal.discards(3))
    assert len(dead) == 15
    play(deal, "stand")
    assert deal.talon_size == 0 and all(c not in deal.talon() for c in dead)


def test_c9_everybody_passes_no_score():
    deal = plain()
    events = play(deal, "pass", "pass", "pass", "pass")
    assert events_named(events, "AllPassed")
    result = deal.result
    assert result.all_passed and result.record_delta == (0, 0, 0, 0)
    assert result.tricks == (0, 0, 0, 0)


@pytest.mark.parametrize(("mode", "next_dealer"), [("redeal", 1), ("same_dealer", 0)])
def test_c9_all_pass_option(mode, next_dealer):
    r = rules("classic", 4, all_pass=mode)
    game = stacked_game(r, [(0, PLAIN, "KC", "")])
    play(game, "pass", "pass", "pass", "pass")
    assert len(game.finished) == 1
    assert game.records == [30, 30, 30, 30]
    assert game.deal.dealer == next_dealer


def test_c10_a_lone_player_takes_all_five_tricks():
    deal = plain()
    events = play(deal, "pass", "stand 9S", "pass", "pass")
    lone = events_named(events, "LoneTakesAll")[0]
    assert lone.seat == 2 and lone.tricks == 5
    result = deal.result
    assert result.lone == 2 and result.tricks == (0, 0, 5, 0)
    assert result.record_delta == (0, 0, -5, 0)
    assert not events_named(events, "Played")


def test_c10_the_dealer_alone_takes_all_too():
    deal = plain()
    play(deal, "pass", "pass", "pass", "stand")
    assert deal.result.lone == 0 and deal.result.record_delta == (-5, 0, 0, 0)


def test_c10_dealer_must_play_with_one_player_standing():
    deal = plain(lone_player="dealer_must_play")
    play(deal, "pass", "stand", "pass")
    assert "pass" not in legal_strs(deal)
    refused(deal, "pass", "C10", words="dealer_must_play")
    events = play(deal, "stand")
    assert events_named(events, "PlayStarted")[0].players == (2, 0)
    assert deal.phase.name == "PLAY" and deal.to_act == 2


def test_c10_dealer_must_play_does_not_bind_with_two_standing_or_none():
    deal = plain(lone_player="dealer_must_play")
    play(deal, "stand", "stand", "pass")
    assert "pass" in legal_strs(deal)
    deal = plain(lone_player="dealer_must_play")
    play(deal, "pass", "pass", "pass")
    assert "pass" in legal_strs(deal)
    play(deal, "stand")
    assert deal.result.lone == 0
