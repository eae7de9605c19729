"""K20-K24: the money of мушка-копилка: suit values, payments, the pot, the session."""

from __future__ import annotations

import pytest
from rulekit import DRAW, DRAW_TALON, RACE, RACE_PLAY, events_named, play, rules, stacked, stacked_game

from mushka.cards import Suit


def kop(hands, talon=(), **options):
    return stacked(rules("kopilka", **options), hands, None, talon)


def race(**options):
    deal = kop(RACE, **options)
    play(deal, *RACE_PLAY)
    return deal


def test_k20_suit_values_hearts_4_clubs_3_diamonds_2_spades_1():
    r = rules("kopilka")
    assert r.suit_values[Suit.HEARTS] == 4 and r.suit_values[Suit.CLUBS] == 3
    assert r.suit_values[Suit.DIAMONDS] == 2 and r.suit_values[Suit.SPADES] == 1
    values = [t.value for t in race().tricks]
    assert values == [4, 2, 4, 2, 3]  # hearts, diamonds, hearts, diamonds, clubs


def test_k20_suit_values_option():
    deal = race(suit_values="H10 C1 D5 S2")
    assert [t.value for t in deal.tricks] == [10, 5, 10, 5, 1]
    assert rules("kopilka", suit_values={"H": 1, "C": 1, "D": 1, "S": 1}).suit_values == (1, 1, 1, 1)


def test_k21_a_trick_taken_by_the_ace_of_spades_is_worth_double():
    deal = kop(DRAW, DRAW_TALON)
    play(deal, "KH", "draw", "draw", "7H", "8S", "AS", "JS", "9S")
    assert deal.tricks[1].privileged and deal.tricks[1].value == 2  # a spade trick, doubled
    deal = kop(["7H 8H QD QC JS", "KH 7D AD 7C 9S", "AS 9D 8C 9C 8S", "TD JD TC JC TS"])
    play(deal, "KH", "AS", "pass", "7H")
    assert deal.tricks[0].value == 8  # hearts 4, doubled


def test_k21_a_spade_trick_the_ace_led_is_doubled_too():
    deal = kop(["7H 8H QD QC JS", "AS 7D AD 7C 9H", "8D 9D 8C 9C 8S", "TD JD TC JC TS"])
    play(deal, "AS", "8S", "TS", "JS")
    assert deal.tricks[0].winner == 1 and deal.tricks[0].privileged and deal.tricks[0].value == 2


def test_k21_the_seed_example_values():
    # The seed's worked example: clubs by the ace of spades 4, diamonds 6 (♥4 ♦3 ♣2 ♠1).
    r = rules("kopilka", suit_values="H4 D3 C2 S1")
    clubs = stacked(r, ["7H 8H QD QC JS", "KC 7D AD 7H 9S".replace("7H", "8S"), "AS 9D 8C 9C TH",
                        "TD JD TC JC TS"], None, ())
    play(clubs, "KC", "AS", "TC", "QC")
    assert clubs.tricks[0].value == 4
    diamonds = stacked(r, ["7H 8H QD QC JS", "KD 7D 8S 7C 9S", "AS 9D 8C 9C TH",
                           "TD JD TC JC TS"], None, ())
    play(diamonds, "KD", "AS", "TD", "QD")
    assert diamonds.tricks[0].value == 6


def test_k22_settlement_in_order():
    deal = race()
    result = deal.result
    paid = [(e.seat, e.amount, e.reason) for e in events_named(deal.events(None), "Paid")]
    # 1. a remiz from each player without a trick (seats 3 and 0), 2. the tricks in order,
    # 3. the game payment from everybody but seat 2, who went out.
    assert paid == [(0, 5, "remiz"), (3, 5, "remiz"),
                    (1, -4, "trick"), (1, -2, "trick"), (1, -4, "trick"), (2, -2, "trick"), (1, -3, "trick"),
                    (0, 10, "game"), (1, 10, "game"), (3, 10, "game")]
    assert result.money == (-15, 3, 2, -15)
    assert result.pot == 65 and deal.balances == [-25, -7, -8, -25]
    assert result.remiz == (5, 0, 0, 5)


def test_k22_the_one_who_went_out_pays_a_remiz_if_he_took_no_trick():
    # Seat 2 empties his hand without ever winning a trick.
    deal = kop(["9S TS TH TD TC", "AH AD KH KD AC", "7H 8D 8H 7D 7C", "7S 8S 9H 9D 9C"])
    play(deal, "AH", "7H", "9H", "TH", "AD", "8D", "9D", "TD", "KH", "8H", "pass", "pass",
         "KD", "7D", "pass", "pass", "AC", "7C", "9C", "TC")
    result = deal.result
    assert result.out == 1 and result.tricks == (0, 5, 0, 0)
    assert result.remiz == (5, 0, 5, 5)


def test_k22_the_pot_running_short_cuts_the_payment():
    deal = race(ante=0)
    assert deal.pot == 0
    play_back = [(e.seat, e.amount, e.reason) for e in events_named(deal.events(None), "Paid")]
    # The pot holds only the two remizes (10): 4 + 2 + 4 are paid, then nothing is left.
    assert [p for p in play_back if p[2] == "trick"] == [(1, -4, "trick"), (1, -2, "trick"),
                                                         (1, -4, "trick")]
    assert deal.result.money == (-5, 10, 0, -5)
    assert deal.pot == 0


def test_k22_game_payment_option():
    deal = race(game_payment=3)
    assert [e.amount for e in events_named(deal.events(None), "Paid") if e.reason == "game"] == [3, 3, 3]


def test_k22_remiz_option():
    deal = race(remiz=2)
    assert deal.result.remiz == (2, 0, 0, 2)


def test_k22_after_a_deadlock_all_four_pay():
    deal = kop(DRAW, DRAW_TALON)
    for _ in range(4):
        play(deal, deal.legal_actions()[0], "pass", "pass", "pass")
    game = [e.seat for e in events_named(deal.events(None), "Paid") if e.reason == "game"]
    remiz = [e.seat for e in events_named(deal.events(None), "Paid") if e.reason == "remiz"]
    assert game == [0, 1, 2, 3] and remiz == [0, 1, 2, 3]


def _reneges(hands, leads):
    """K12 by hand: each lead costs a remiz to every other seat holding its suit."""
    return sum(1 for seat, card in leads for other in range(4)
               if other != seat and any(c.suit == card.suit for c in hands[other]))


def _deadlock(game):
    deal = game.deal
    hands = [deal.hand(s) for s in range(4)]
    leads = []
    for _ in range(4):
        seat = game.to_act
        card = game.legal_actions()[0].card
        leads.append((seat, card))
        play(game, card.code, "pass", "pass", "pass")
    return _reneges(hands, leads)


def _plain_session(r, first_dealer):
    """Four stacked games in which nobody holds three of a suit (no redistribution)."""
    return stacked_game(r, [((first_dealer + k) % 4, [None] * 4, None, ()) for k in range(4)],
                        first_dealer=first_dealer)


def test_k23_after_game_four_the_player_out_first_takes_the_pot():
    r = rules("kopilka")
    # First dealer 1: games dealt by 1, 2, 3, then 0; games 1-3 end in deadlock, game 4 is RACE.
    game = stacked_game(r, [(1, [None] * 4, None, ()), (2, [None] * 4, None, ()),
                            (3, [None] * 4, None, ()), (0, RACE, None, ())], first_dealer=1)
    pot = 40
    for number in range(3):
        reneges = _deadlock(game)
        pot += 5 * reneges + 4 * 5 + 4 * 10  # K12, K22.1 (no tricks), K22.3 (nobody out)
        assert len(game.finished) == number + 1
        assert game.current_pot == pot and sum(game.money) + game.current_pot == 0
    play(game, *RACE_PLAY)
    assert game.is_over
    pot += 25  # the race game, see test_k22_settlement_in_order
    result = game.result
    assert result.winner == 2 and result.settlement == (0, 0, pot, 0)
    assert game.current_pot == 0 and sum(result.money) == 0
    assert events_named(game.game_events(), "Paid")[-1].amount == -pot


def test_k23_a_deadlocked_game_four_shares_the_pot():
    r = rules("kopilka", remiz=1)
    game = _plain_session(r, 1)
    total = 40
    for _ in range(4):
        reneges = _deadlock(game)
        total += reneges + 4 * 1 + 4 * 10
    assert game.is_over and game.result.winner is None
    share, rest = divmod(total, 4)
    # The eldest of game 4 (dealer 0) is seat 1: the odd units go to 1, 2, 3 in turn.
    expected = [share] * 4
    for k in range(rest):
        expected[(1 + k) % 4] += 1
    assert game.result.settlement == tuple(expected)
    assert sum(game.result.money) == 0 and game.current_pot == 0


@pytest.mark.parametrize("remiz", [0, 1, 2, 3])
def test_k23_the_odd_units_go_from_the_eldest(remiz):
    r = rules("kopilka", remiz=remiz)
    game = _plain_session(r, 2)
    total = 40
    for _ in range(4):
        total += remiz * _deadlock(game) + 4 * remiz + 40
    eldest = (game.finished[-1].dealer + 1) % 4
    share, rest = divmod(total, 4)
    for k in range(4):
        seat = (eldest + k) % 4
        assert game.result.settlement[seat] == share + (1 if k < rest else 0)


def test_k24_balances_plus_pot_are_zero_at_every_moment():
    r = rules("kopilka")
    game = stacked_game(r, [(0, RACE, None, ())])
    assert sum(game.money) + game.current_pot == 0
    for action in RACE_PLAY:
        play(game, action)
        assert sum(game.money) + game.current_pot == 0
    while not game.is_over:
        game.apply(game.legal_actions()[-1])
        assert sum(game.money) + game.current_pot == 0
    assert game.current_pot == 0 and sum(game.result.money) == 0
