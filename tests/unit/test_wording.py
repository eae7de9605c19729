"""The engine's sentences read as words: seats by name or as "seat 2", counts in words,
figures by seat in words, English without Russian words (issue: mixed languages)."""

from __future__ import annotations

import random
import re

import pytest

from mushka.cards import Card
from mushka.engine.events import CardTaken, Declared, Played, TrickTaken
from mushka.engine.wording import count_cards, per_seat, seat_name, sentence
from mushka.match import new_game
from mushka.rules import make_rules

CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)
SEAT_DUMP = re.compile(r"(?<![\w♠♣♦♥])\d+:[+−-]?\d")  # "0:+5", "2:3": a seat:value dump


@pytest.mark.parametrize(("count", "en", "ru"), [
    (1, "1 card", "1 карту"), (2, "2 cards", "2 карты"), (4, "4 cards", "4 карты"),
    (5, "5 cards", "5 карт"), (11, "11 cards", "11 карт"), (21, "21 cards", "21 карту"),
    (12, "12 cards", "12 карт"), (22, "22 cards", "22 карты"),
])
def test_counts_of_cards_read_in_words_in_both_languages(count: int, en: str, ru: str) -> None:
    assert count_cards(count, "en") == en
    assert count_cards(count, "ru") == ru


def test_a_seat_reads_as_its_player_or_as_the_seat_never_as_a_bare_number() -> None:
    names = ["Anna", None, ""]
    assert seat_name(0, "en", names) == "Anna"
    assert seat_name(1, "en", names) == "seat 1" and seat_name(2, "ru", names) == "игрок 2"
    assert seat_name(5, "en", names) == "seat 5"  # past the names given
    assert sentence("seat 1 passes.", "en") == "Seat 1 passes."
    assert sentence("игрок 1: пас.", "ru") == "Игрок 1: пас."
    assert sentence("bob passes.", "en") == "bob passes."  # a name is left as its player wrote it


def test_figures_by_seat_read_with_names_and_real_minus_signs() -> None:
    assert per_seat([5, -3, 0], "en", ["Anna", None, "Vera"], signed=True) == "Anna +5, seat 1 −3, Vera +0"
    assert per_seat([5, -3], "ru", None, only=[False, True]) == "игрок 1 -3"
    assert per_seat([], "en") == "—"


def test_events_name_the_players_and_count_in_words() -> None:
    names = ["Anna", "Boris", None]
    assert Declared(seat=1, stand=True, count=1).describe("en", names) == "Boris stands and exchanges 1 card."
    assert Declared(seat=2, stand=True, count=3).describe("ru", names) == "Игрок 2 играет и прикупает 3 карты."
    assert CardTaken(taker=0, owner=1, card=None).describe("en", names) == "Anna takes a card from Boris's group."
    assert CardTaken(taker=0, owner=1, card=None).describe("ru", names) == "Anna берёт карту; группа объявлена: Boris."
    trick = TrickTaken(seat=1, number=2, cards=((0, Card("KH")), (1, Card("AH"))), suit=Card("KH").suit,
                       privileged=False)
    assert trick.describe("en", names) == "Trick 2 to Boris: K♥ (Anna), A♥ (Boris)."
    assert trick.describe("ru") == "Взятку 2 берёт игрок 1: К♥ (игрок 0), Т♥ (игрок 1)."
    assert Played(seat=2, card=Card("AS")).describe("ru", names) == "Игрок 2 кладёт Т♠."


@pytest.mark.parametrize("variant", ["classic", "mistigri", "kopilka"])
def test_every_sentence_of_whole_games_reads_in_words(variant: str) -> None:
    """Whole random games: English has no Russian word, no "card(s)", no seat:value dump,
    and a seat reads as its name or as "seat N" in both languages."""
    players = 4 if variant == "kopilka" else 5
    names = ["Anna", None, "Vera", None, "Gleb"][:players]
    for seed in range(6):
        rng = random.Random(seed)
        game = new_game(make_rules(variant, players), rng=random.Random(seed + 100))
        while not game.is_over:
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        events = [*game.game_events(), *(e for d in game.deals for e in d.events(omniscient=True))]
        for event in events:
            for lang in ("en", "ru"):
                for given in (names, None):
                    text = event.describe(lang, given)
                    assert not SEAT_DUMP.search(text), text
                    assert "(s)" not in text and "{" not in text, text
                    if lang == "en":
                        assert not CYRILLIC.search(text), text
                    seat = getattr(event, "seat", None)
                    if isinstance(seat, int) and event.name not in ("DealEnded",):
                        assert seat_name(seat, lang, given).lower() in text.lower(), text
