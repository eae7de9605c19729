import pytest

from mushka.cards import CARDS, Card, Rank, Suit, cards_of, deck_cards, mask_of, parse_cards
from mushka.errors import ParseError


@pytest.mark.parametrize("text", ["KC", "Kc", "kc", "K♣", "К♣", "Кт"])
def test_n2_parses_king_of_clubs_in_every_form(text):
    assert Card(text) is Card("KC")


def test_n1_ten_accepts_t_and_10():
    assert Card("10H") is Card("TH") is Card("th")


@pytest.mark.parametrize("bad", ["", "K", "1C", "KX", "KCC", "ZZ", "10"])
def test_n2_bad_code_names_the_input(bad):
    with pytest.raises(ParseError) as info:
        Card(bad)
    assert repr(bad) in str(info.value)
    assert info.value.code == "bad_card"


def test_every_card_round_trips_through_its_code_and_repr():
    for card in CARDS:
        assert Card(str(card)) is card
        assert eval(repr(card)) is card
        assert Card(card.symbol) is card


def test_n3_deck_sizes():
    assert len(deck_cards(32)) == 32
    assert len(deck_cards(36)) == 36
    assert len(deck_cards(52)) == 52
    assert min(c.rank for c in deck_cards(32)) == Rank.SEVEN
    assert min(c.rank for c in deck_cards(36)) == Rank.SIX


def test_masks_round_trip():
    cards = parse_cards("AS KH 7d, 10c")
    assert cards_of(mask_of(cards)) == tuple(sorted(cards))


def test_mi10_suit_order_low_to_high():
    assert Suit.SPADES < Suit.CLUBS < Suit.DIAMONDS < Suit.HEARTS


def test_mi11_card_points():
    assert [Rank.parse(r).points for r in "KQJA"] == [5, 4, 2, 1]
    assert Rank.TEN.points == 10 and Rank.SEVEN.points == 7


def test_cards_are_immutable():
    with pytest.raises(AttributeError):
        Card("AS").index = 3  # type: ignore[misc]


def test_russian_names():
    assert Card("QH").name_in("ru") == "дама червей"
    assert Card("QH").display("ru") == "Д♥"
    assert Card("AS").name_in("en") == "ace of spades"
