"""K1-K8: мушка-копилка's table, pot, deal and the redistribution of groups."""

from __future__ import annotations

import pytest
from rulekit import cards, events_named, legal_strs, play, refused, rules, stacked, stacked_game

from mushka import new_deal, new_game
from mushka.cards import Card
from mushka.errors import ChanceError, OptionsError

# Dealer 0, eldest 1.  Seat 1 holds three hearts; nobody else holds three of a suit.
GROUP3 = ["QH JD QD JC QC", "7H 8H 9H AD KC", "TH 7D 8D 7C 8C", "JH 9D TD 9C TC"]
TALON = "7S 8S 9S TS JS QS"


def kop(hands, talon=TALON, picks=(), **options):
    return stacked(rules("kopilka", **options), hands, None, talon, picks=picks)


@pytest.mark.parametrize("players", [3, 5, 6])
def test_k1_exactly_four_players(players):
    with pytest.raises(OptionsError) as info:
        rules("kopilka", players)
    assert info.value.rule == "K1"
    assert "4" in str(info.value) and str(players) in str(info.value)


def test_k2_thirty_two_cards_ace_high():
    r = rules("kopilka")
    assert r.deck_size == 32 and r.rank_order.startswith("AKQJT987")
    with pytest.raises(OptionsError, match="does not apply to kopilka"):
        rules("kopilka", deck=52)


def test_k3_every_player_pays_the_ante_into_the_pot():
    game = new_game(rules("kopilka"), rng=1)
    assert game.current_pot == 40 and game.money == (-10, -10, -10, -10)
    assert [(e.seat, e.amount, e.reason) for e in game.game_events() if e.name == "Paid"] == [
        (s, 10, "ante") for s in range(4)]
    game = new_game(rules("kopilka", ante=25), rng=1)
    assert game.current_pot == 100 and game.money == (-25,) * 4


def test_k4_a_session_is_four_games_each_player_deals_once():
    game = new_game(rules("kopilka"), rng=5, first_dealer=2)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    assert [d.dealer for d in game.finished] == [2, 3, 0, 1]
    assert game.result.deals == 4


def test_k5_five_cards_each_twelve_in_the_talon_no_trump_no_turned_card():
    deal = kop(GROUP3)
    assert deal.view(0).turnup is None and deal.view(0).trump is None
    assert not events_named(deal.events(None), "TurnedUp")
    fresh = new_deal(rules("kopilka"), 0, deck=list(rules("kopilka").deck_cards))
    assert sum(len(fresh.hand(s)) for s in range(4)) + fresh.talon_size == 32


def test_k6_groups_are_declared_in_playing_order_from_the_eldest():
    hands = ["7H 8H 9H AD KC", "7S 8S 9S QD QC", "TH 7D 8D 7C 8C", "JH 9D TD 9C TC"]
    deal = kop(hands, talon="JS QS KS AS KD AH", picks="8S 9S 7S 7H 8H 9H")
    # Seat 1 (the eldest) is checked first, then seat 2, 3 and the dealer.
    declared = [e.seat for e in events_named(deal.events(None), "GroupDeclared")]
    assert declared == [1]
    play(deal, "discard 8S", "discard 9S", "discard 7S")
    declared = [e.seat for e in events_named(deal.events(None), "GroupDeclared")]
    assert declared == [1, 0]
    assert [e.taker for e in events_named(deal.events(None), "CardTaken")] == [2, 3, 0, 1, 2, 3]


def test_k6_five_of_a_suit_is_a_group_of_five():
    deal = kop(["QH JD QD JC QC", "7H 8H 9H TH JH", "AH 7D 8D 7C 8C", "KH 9D TD 9C TC"],
               picks="7H 8H 9H")
    assert events_named(deal.events(None), "GroupDeclared")[0].count == 5


def test_k7_group_of_three():
    deal = kop(GROUP3, picks="8H 7H 9H")
    events = deal.events(None)
    assert events_named(events, "GroupDeclared")[0].count == 3
    takers = [(e.taker, e.owner) for e in events_named(events, "CardTaken")]
    assert takers == [(2, 1), (3, 1), (0, 1)]  # from the seat after the owner
    assert Card("8H") in deal.hand(2) and Card("7H") in deal.hand(3) and Card("9H") in deal.hand(0)
    settled = events_named(deal.events(1), "GroupSettled")[0]
    assert settled.returned == 0 and settled.drawn_count == 3
    assert set(settled.taken) == set(cards("7H 8H 9H"))
    assert set(settled.drawn) == set(cards("7S 8S 9S"))  # from the top of the talon
    assert set(deal.hand(1)) == set(cards("AD KC 7S 8S 9S"))
    assert deal.phase.name == "REDISTRIBUTE" and deal.to_act == 2
    assert len(deal.hand(2)) == 6
    assert sorted(legal_strs(deal)) == sorted("discard " + c.code for c in deal.hand(2))
    play(deal, "discard 7C")
    assert deal.to_act == 3
    play(deal, "discard 9C")
    assert deal.to_act == 0
    play(deal, "discard JC")
    assert deal.phase.name == "PLAY" and deal.to_act == 1
    assert [len(deal.hand(s)) for s in range(4)] == [5, 5, 5, 5]
    assert set(deal.discards(2)) == {Card("7C")} and deal.talon_size == 9
    # The owner drew three spades: he was checked already and is not checked again.
    assert len(events_named(deal.events(None), "GroupDeclared")) == 1


def test_k7_group_of_four_one_card_goes_back():
    hands = ["QH JD QD JC QC", "7H 8H 9H AH AD", "TH 7D 8D 7C 8C", "JH 9D TD 9C TC"]
    deal = kop(hands, picks="8H 7H 9H")
    settled = events_named(deal.events(1), "GroupSettled")[0]
    assert settled.returned == 1 and settled.drawn_count == 3
    assert set(deal.hand(1)) == set(cards("AH AD 7S 8S 9S"))


def test_k7_group_of_five_two_cards_go_back():
    hands = ["QH JD QD JC QC", "7H 8H 9H AH KH", "TH 7D 8D 7C 8C", "JH 9D TD 9C TC"]
    deal = kop(hands, picks="AH 7H 9H")
    settled = events_named(deal.events(1), "GroupSettled")[0]
    assert settled.returned == 2 and settled.drawn_count == 3
    assert set(deal.hand(1)) == set(cards("8H KH 7S 8S 9S"))
    assert Card("AH") in deal.hand(2)


def test_k7_takers_see_only_their_own_card_the_owner_which_left():
    deal = kop(GROUP3, picks="8H 7H 9H")
    for viewer, own in [(2, "8H"), (3, "7H"), (0, "9H")]:
        taken = events_named(deal.events(viewer), "CardTaken")
        assert [e.card for e in taken if e.taker == viewer] == [Card(own)]
        assert all(e.card is None for e in taken if e.taker != viewer)
        assert events_named(deal.events(viewer), "GroupSettled")[0].taken is None
    owner = deal.events(1)
    assert all(e.card is None for e in events_named(owner, "CardTaken"))
    assert events_named(owner, "GroupSettled")[0].taken is not None
    assert all(e.card is None for e in events_named(deal.events(None), "CardTaken"))
    # Discards are face down: only the taker knows his.
    play(deal, "discard 7C")
    assert events_named(deal.events(3), "Discarded")[0].card is None
    assert events_named(deal.events(2), "Discarded")[0].card == Card("7C")


def test_k7_a_group_gained_by_taking_counts():
    hands = ["QH JD QD JC QC", "7H 8H 9H AD KC", "TH KH 8D 7C 8C", "JH 9D TD 9C TC"]
    deal = kop(hands, picks="8H 7H 9H 8H TH KH")
    play(deal, "discard 7C", "discard 9C", "discard JC")
    # Seat 2 now holds TH KH 8H: his turn to be checked makes him declare them.
    declared = [(e.seat, e.count) for e in events_named(deal.events(None), "GroupDeclared")]
    assert declared == [(1, 3), (2, 3)]


def test_k7_a_group_broken_by_a_discard_does_not_count():
    hands = ["QH JD QD JC QC", "7H 8H 9H AD KC", "TH KH 8D 7C 8C", "JH 9D TD 9C TC"]
    deal = kop(hands, picks="8H 7H 9H")
    play(deal, "discard KH", "discard 9C", "discard JC")
    assert [e.seat for e in events_named(deal.events(None), "GroupDeclared")] == [1]
    assert deal.phase.name == "PLAY"


def test_k7_the_picks_are_random_chance_events():
    seen = set()
    for seed in range(30):
        deal = stacked(rules("kopilka"), GROUP3, None, TALON, rng=seed)
        seen.add(deal.picks[0])
        again = stacked(rules("kopilka"), GROUP3, None, TALON, picks=deal.picks)
        assert [deal.hand(s) for s in range(4)] == [again.hand(s) for s in range(4)]
    assert seen == set(cards("7H 8H 9H"))


def test_k7_a_forced_pick_must_be_possible():
    with pytest.raises(ChanceError) as info:
        kop(GROUP3, picks="AS")
    assert info.value.rule == "N4" and "7H 8H 9H" in str(info.value)


def test_k7_a_taker_must_discard_exactly_one_of_his_cards():
    deal = kop(GROUP3, picks="8H 7H 9H")
    refused(deal, "pass", "K7", words="exactly one")
    refused(deal, "KC", "K7")
    refused(deal, "discard KC", "K7", words="K♣")


def test_k8_old_redistribution():
    deal = kop(GROUP3, picks="8H 7H", redistribution="old")
    events = deal.events(None)
    assert [(e.taker, e.owner) for e in events_named(events, "CardTaken")] == [(2, 1), (3, 1)]
    settled = events_named(deal.events(1), "GroupSettled")[0]
    assert settled.returned == 1 and settled.drawn_count == 2
    assert set(deal.hand(1)) == set(cards("9H AD KC 7S 8S"))
    assert Card("8H") in deal.hand(2) and Card("7H") in deal.hand(3)
    assert deal.to_act == 2
    play(deal, "discard 7C")
    assert deal.to_act == 3
    play(deal, "discard 9C")
    assert deal.phase.name == "PLAY" and len(deal.hand(0)) == 5


def test_k8_a_group_of_five_the_old_way():
    hands = ["QH JD QD JC QC", "7H 8H 9H AH KH", "TH 7D 8D 7C 8C", "JH 9D TD 9C TC"]
    deal = kop(hands, picks="AH KH", redistribution="old")
    assert set(deal.hand(1)) == set(cards("7H 8H 9H 7S 8S"))


def test_k24_a_game_on_its_own_starts_like_game_one():
    deal = kop(GROUP3, picks="8H 7H 9H")
    assert deal.pot == 40 and deal.balances == [-10, -10, -10, -10]


def test_k4_session_decks_can_be_stacked():
    game = stacked_game(rules("kopilka"), [(0, GROUP3, None, TALON)], picks=[cards("8H 7H 9H")])
    assert set(game.deal.hand(1)) == set(cards("AD KC 7S 8S 9S"))
