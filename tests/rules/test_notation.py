"""N1-N4: cards, their codes, the decks and stacked deals."""

from __future__ import annotations

import random

import pytest
from rulekit import cards, rules, stacked

from mushka import new_deal
from mushka.cards import CARDS, Card, Rank, Suit, deck_cards, parse_cards
from mushka.engine import stack_deck, unstack_deck
from mushka.errors import ChanceError, ParseError
from mushka.rules import make_rules


def test_n1_suits_letters_symbols_and_russian_initials():
    assert [s.letter for s in Suit] == ["S", "C", "D", "H"]
    assert [s.symbol for s in Suit] == ["♠", "♣", "♦", "♥"]
    for text, suit in [("s", Suit.SPADES), ("♣", Suit.CLUBS), ("б", Suit.DIAMONDS), ("Ч", Suit.HEARTS)]:
        assert Suit.parse(text) is suit
    assert Suit.SPADES.name_in("ru") == "пики" and Suit.HEARTS.name_in("en") == "hearts"


def test_n1_ranks_two_to_ace_with_t_and_10_for_ten():
    assert "".join(r.letter for r in Rank) == "23456789TJQKA"
    assert Rank.parse("T") is Rank.parse("10") is Rank.TEN
    with pytest.raises(ParseError) as info:
        Rank.parse("1")
    assert "N1" in str(info.value) and "'1'" in str(info.value)


@pytest.mark.parametrize("text", ["KC", "Kc", "kC", "K♣", "k♣", " KC "])
def test_n2_parsing_is_case_insensitive_and_accepts_symbols(text):
    assert Card(text) is Card("KC")


def test_n2_canonical_code_is_rank_then_suit_ascii():
    assert [c.code for c in parse_cards("10H as k♣ 7d")] == ["TH", "AS", "KC", "7D"]
    assert Card("TC").symbol == "10♣" and Card("KC").display("ru") == "К♣"
    assert Card("KC").name_in("ru") == "король треф"


@pytest.mark.parametrize("bad", ["", "X", "1S", "KZ", "AAS", "11C", "♣K"])
def test_n2_bad_code_is_an_error_naming_the_input(bad):
    with pytest.raises(ParseError) as info:
        Card(bad)
    assert info.value.rule is None or info.value.rule == "N2"
    assert str(info.value).startswith("N2:")
    assert repr(bad) in str(info.value)
    assert repr(bad) in info.value.message("ru")


@pytest.mark.parametrize(("size", "lowest"), [(32, "7"), (36, "6"), (52, "2")])
def test_n3_deck_sizes(size, lowest):
    deck = deck_cards(size)
    assert len(deck) == len(set(deck)) == size
    assert min(c.rank for c in deck) == Rank.parse(lowest)
    assert {c.suit for c in deck} == set(Suit)
    assert all(sum(1 for c in deck if c.suit == s) == size // 4 for s in Suit)


def test_n3_tables_use_their_deck():
    assert rules("classic", 3).deck_size == 32
    assert rules("classic", 4).deck_size == 36
    assert rules("classic", 5).deck_size == 52
    assert rules("kopilka").deck_size == 32
    assert set(rules("classic", 3).deck_cards) == set(deck_cards(32))


def test_n4_one_card_at_a_time_from_the_eldest():
    r = rules("classic", 3)
    order = [c.code for c in deck_cards(32)]
    deal = new_deal(r, dealer=1, deck=" ".join(order))
    # Dealer 1: the eldest is seat 2, then 0, then 1; five rounds.
    assert [c.code for c in deal.hand(2)] == sorted([order[i] for i in (0, 3, 6, 9, 12)],
                                                      key=lambda c: Card(c).index)
    assert set(deal.hand(0)) == {Card(order[i]) for i in (1, 4, 7, 10, 13)}
    assert set(deal.hand(1)) == {Card(order[i]) for i in (2, 5, 8, 11, 14)}
    # Then the turned-up card, then the talon, top first.
    assert deal.turnup == Card(order[15]).index
    assert [c.code for c in deal.talon()] == order[16:]
    assert deal.deck == tuple(Card(c) for c in order)


def test_n4_talon_is_drawn_from_its_top():
    r = rules("classic", 4)
    deal = stacked(r, ["AS KD QC JS TS", "AH KH QH 6D 7D", None, None], "9C", "8D 9D TD")
    deal.apply("stand 6D 7D")
    assert set(deal.hand(1)) == set(cards("AH KH QH 8D 9D"))
    assert [c.code for c in deal.talon()][:1] == ["TD"]


def test_n4_kopilka_has_no_turned_card_and_a_talon_of_twelve():
    r = rules("kopilka")
    deck = [c.code for c in deck_cards(32)]
    # No seat gets three of a suit from this order, so nothing is redistributed.
    deal = new_deal(r, 0, deck=deck, picks=())
    assert deal.talon_size == 12 or deal.phase.name != "PLAY"
    stack = unstack_deck(r, deck, 0)
    assert stack.turnup is None and len(stack.talon) == 12


def test_n4_stack_deck_round_trips_with_unstack_for_every_dealer():
    for variant, players in [("classic", 3), ("classic", 7), ("mistigri", 5), ("kopilka", 4)]:
        r = rules(variant, players)
        for dealer in range(players):
            deck = tuple(reversed(r.deck_cards))
            stack = unstack_deck(r, deck, dealer)
            again = stack_deck(r, stack.hands, stack.turnup, stack.talon, dealer=dealer)
            assert again == deck
            deal = new_deal(r, dealer, deck=deck, picks=CARDS[:0])
            if variant != "kopilka":
                for seat in range(players):
                    assert set(deal.hand(seat)) == set(stack.hands[seat])
                assert deal.turnup == stack.turnup.index
                assert deal.talon() == stack.talon


def test_n4_stack_deck_deals_what_it_was_given():
    r = rules("mistigri", 4)
    hands = ["KC QC JC AC TC", "KH QH JH AH TH", "KD QD JD AD TD", "KS QS JS AS TS"]
    deck = stack_deck(r, hands, "9C", "9H 9D 9S 8C 8H 8D 8S 7C 7H 7D 7S 6C 6H 6D 6S", dealer=3)
    deal = new_deal(r, 3, deck=deck)
    for seat, text in enumerate(hands):
        assert set(deal.hand(seat)) == set(cards(text))
    assert deal.turnup == Card("9C").index
    assert [c.code for c in deal.talon()][:3] == ["9H", "9D", "9S"]


def test_n4_stack_deck_refuses_a_card_named_twice():
    r = rules("classic", 4)
    with pytest.raises(ChanceError) as info:
        stack_deck(r, ["AS KS QS JS TS", "AS KH QH JH TH", None, None], "9C", fill=True)
    assert info.value.rule == "N4"
    assert "A♠" in str(info.value) and "twice" in str(info.value)
    assert "дважды" in info.value.message("ru")


@pytest.mark.parametrize(
    ("hands", "turnup", "talon", "words"),
    [
        (["AS KS QS JS", "AH KH QH JH TH", None, None], "9C", "", "4 cards"),
        (["AS KS QS JS TS 9S", "AH KH QH JH TH", None, None], "9C", "", "6 cards"),
        (["AS KS QS JS TS", "AH KH QH JH TH", None], "9C", "", "3 given for 4 players"),
        (["AS KS QS JS 2S", "AH KH QH JH TH", None, None], "9C", "", "not in the 36-card deck"),
        (["AS KS QS JS TS", "AH KH QH JH TH", None, None], "9C",
         "6C 7C 8C TC JC QC KC AC 6D 7D 8D 9D TD JD QD KD", "talon must hold 15"),
        (["AS KS QS JS TS", "AH KH QH JH TH", None, None], "ZZ", "", "ZZ"),
    ],
)
def test_n4_stack_deck_refuses_wrong_counts_and_cards(hands, turnup, talon, words):
    r = rules("classic", 4)
    with pytest.raises(ChanceError) as info:
        stack_deck(r, hands, turnup, talon, fill=True)
    assert info.value.rule == "N4"
    assert str(info.value).startswith("N4:")
    assert words in str(info.value)


def test_n4_stack_deck_without_fill_needs_every_card():
    r = rules("classic", 3)
    with pytest.raises(ChanceError, match="talon must hold 16"):
        stack_deck(r, ["AS KS QS JS TS", "AH KH QH JH TH", "AD KD QD JD TD"], "9C", "")
    with pytest.raises(ChanceError, match="every hand is 5"):
        stack_deck(r, ["AS KS QS JS TS", "AH KH QH JH TH", None], "9C", "")
    with pytest.raises(ChanceError, match="turned-up card"):
        stack_deck(r, ["AS KS QS JS TS", "AH KH QH JH TH", "AD KD QD JD TD"], None,
                   "9C 8C 7C TC JC QC KC AC 9S 8S 7S 9H 8H 7H 9D 8D")


def test_n4_stack_deck_refuses_a_turned_card_in_kopilka():
    with pytest.raises(ChanceError) as info:
        stack_deck(rules("kopilka"), [None] * 4, "AS", fill=True)
    assert info.value.rule == "N4" and "K5" in str(info.value)


def test_n4_stack_deck_refuses_a_dealer_who_is_not_a_seat():
    with pytest.raises(ChanceError, match="N4"):
        stack_deck(rules("classic", 3), [None] * 3, fill=True, dealer=3)


@pytest.mark.parametrize("problem", ["twice", "missing", "foreign"])
def test_n4_a_deal_refuses_a_bad_deck_order(problem):
    r = rules("classic", 3)
    order = [c.code for c in r.deck_cards]
    if problem == "twice":
        order[1] = order[0]
    elif problem == "missing":
        order.pop()
    else:
        order[0] = "2H"
    with pytest.raises(ChanceError) as info:
        new_deal(r, 0, deck=order)
    assert info.value.rule == "N4"
    assert {"twice": "twice", "missing": "missing", "foreign": "not in this deck"}[problem] in str(info.value)


@pytest.mark.parametrize("size", [0, 1, 2, 5, 32, 36, 52, 128, 129, 200])
def test_n4_a_seeded_shuffle_deals_the_deck_random_shuffle_gives(size):
    # The engine's own shuffle must draw exactly as random.Random.shuffle does, so that a
    # seed gives the same deal as it always did (records, goldens, published figures).
    from mushka.engine.deal import shuffle

    for seed in range(300):
        ours = list(range(size))
        theirs = list(range(size))
        a, b = random.Random(seed), random.Random(seed)
        shuffle(a, ours)
        b.shuffle(theirs)
        assert ours == theirs
        assert a.getstate() == b.getstate()  # and leaves the generator where the library would


@pytest.mark.parametrize("size", [0, 1, 32, 36, 52])
def test_n4_a_seeded_order_of_the_deck_is_the_one_random_sample_gives(size):
    from mushka.engine.deal import sample_order

    for seed in range(300):
        a, b = random.Random(seed), random.Random(seed)
        assert sample_order(a, size) == b.sample(range(size), size)
        assert a.getstate() == b.getstate()


def test_n4_a_random_subclass_shuffles_with_its_own_method():
    from mushka.engine.deal import shuffle

    class Reversing(random.Random):
        def shuffle(self, x, *args):  # type: ignore[override]
            x.reverse()

    items = list(range(10))
    shuffle(Reversing(1), items)
    assert items == list(range(9, -1, -1))


def test_n4_a_seeded_deal_is_the_deck_random_shuffle_gives():
    rules = make_rules("classic", 4)
    order = list(rules.deck_indices)
    random.Random(7).shuffle(order)
    assert [c.index for c in new_deal(rules, 0, rng=random.Random(7)).deck] == order


def test_n3_card_count_is_the_number_of_cards_of_a_mask():
    from mushka.cards import ALL_CARDS_MASK, card_count

    rng = random.Random(3)
    masks = [0, ALL_CARDS_MASK, 1, 1 << 51, *(rng.getrandbits(52) for _ in range(2000))]
    assert [card_count(m) for m in masks] == [m.bit_count() for m in masks]
