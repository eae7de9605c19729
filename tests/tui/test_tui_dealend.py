"""The terminal's deal-end box and key bar (issue 35, B2 and B8): every change with its why
and rule, a five of a suit cited by the variant's own rule with its amounts, kopilka
counted in games as its header counts them, and the take key only for whoever may take."""

from __future__ import annotations

import random
import re

import pytest

from mushka.engine import DealResult, new_deal
from mushka.match import GameView, new_game
from mushka.rules import make_rules
from mushka.tui import dealend, render
from mushka.tui.moves import Selection

NAMES = ["human", "club", "club", "club"]
CYRILLIC = re.compile(r"[А-Яа-яЁё]")


def flush_deal(variant: str) -> tuple[GameView, DealResult]:
    """The first seeded deal of random play in which a five of a suit is paid (no мушка)."""
    rules = make_rules(variant, 4)
    for seed in range(5000):
        deal = new_deal(rules, 0, rng=seed)
        rng = random.Random(seed)
        while not deal.is_over:
            deal.apply(rng.choice(deal.legal_actions()))
        result = deal.result
        assert result is not None
        if result.flush_seat is not None and result.mushka is None:
            view = GameView(deal=deal.view(0), number=1, history=(result,), money=(0,) * 4)
            return view, result
    raise AssertionError("no five of a suit in 5000 deals")


def game_views(variant: str, seed: int, deals: int) -> GameView:
    """The view of seat 0 after ``deals`` deals of random play."""
    game = new_game(make_rules(variant, 4), rng=seed)
    rng = random.Random(seed)
    while len(game.finished) < deals and not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game.view(0)


def rows(text: str) -> list[str]:
    """The seats' rows of a box (after the column heads)."""
    lines = text.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith(("Seat", "Игрок")))
    return lines[head + 1:head + 5]


@pytest.mark.parametrize(("variant", "rule", "other"), [("classic", "C22", "MI9"), ("mistigri", "MI9", "C22")])
def test_b2_five_of_a_suit_is_cited_by_the_variants_rule_with_the_amounts(variant, rule, other):
    view, result = flush_deal(variant)
    text = dealend.deal_summary(view, 1, NAMES, 0, "en").plain
    holder = result.flush_seat
    assert holder is not None and result.side
    each = make_rules(variant, 4).flush_payment
    assert result.side[holder] == 3 * each
    lines = rows(text)
    assert f"five of a suit: +{3 * each} to the side account, {each} from each ({rule})" in lines[holder]
    for seat in range(4):
        if seat != holder:
            assert f"pays {each} to " in lines[seat] and f"({rule})" in lines[seat], lines[seat]
    assert f"is paid +{3 * each} in all by the others ({rule})" in text
    assert other not in text.replace("MI13", ""), text


def test_b8_every_seat_has_a_why_with_its_rule_in_both_languages():
    view = game_views("classic", 3, 3)
    for number, result in enumerate(view.history, 1):
        for lang in ("en", "ru"):
            text = dealend.deal_summary(view, number, NAMES, 0, lang).plain
            assert ("Why" if lang == "en" else "Почему") in text
            for seat, line in enumerate(rows(text)):
                assert re.search(r"\((C|MI)\d+\)", line), line
                if lang == "ru":
                    assert CYRILLIC.search(line.split("  ")[-1]), line
                standing = bool(result.standing) and result.standing[seat]
                if result.mushka is None and not result.all_passed and not standing:
                    assert "(C19)" in line
                if standing and result.tricks[seat]:
                    assert f"−{result.tricks[seat]} (C17)" in line
                if standing and not result.tricks[seat] and lang == "en":
                    assert "remiz +" in line and "(C18)" in line


def test_b8_kopilka_box_counts_games_and_its_parts_add_up_to_the_change():
    view = game_views("kopilka", 2, 2)
    rules = make_rules("kopilka", 4)
    for number, result in enumerate(view.history, 1):
        text = dealend.deal_summary(view, number, NAMES, 0, "en").plain
        assert text.startswith(f"Game {number} of 4 is over")
        assert "Deal" not in text
        assert dealend.deal_summary(view, number, NAMES, 0, "ru").plain.startswith(f"Игра {number} из 4 окончена")
        for seat in range(4):
            why = dealend.why_kopilka(result, rules, seat, "en")
            amounts = [int(sign.replace("−", "-") + digits) for sign, digits in re.findall(r"([+−-])(\d+)", why)]
            assert sum(amounts) == result.money[seat], (why, result.money[seat])
            assert why.endswith(("(K22)", "(K12, K22)")), why


def test_b8_kopilka_header_and_box_use_the_same_word():
    view = game_views("kopilka", 2, 1)
    header = render.title_line(view, "ru").plain
    assert "игра 2 из 4" in header
    box = dealend.deal_summary(view, 1, NAMES, 0, "ru").plain
    assert box.startswith("Игра 1 из 4 окончена") and "Сдача" not in box


def test_b8_the_take_key_is_offered_only_to_whoever_may_take():
    rules = make_rules("classic", 4)
    for seed in range(6):
        game = new_game(rules, rng=seed, first_dealer=seed % 4)
        dealer = game.deal.dealer
        for seat in range(4):
            bar = render.key_bar(game.view(seat), Selection(), "en").plain
            assert (" take" in bar) == (seat == dealer), (seat, dealer, bar)
    no_take = make_rules("classic", 4, dealer_takes_turnup=False)
    game = new_game(no_take, rng=1, first_dealer=0)
    assert " take" not in render.key_bar(game.view(0), Selection(), "en").plain
