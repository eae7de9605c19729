"""`mushka review`: each decision of a seat against the expert's (mushka.bots.review)."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from mushka.bots import make_bot
from mushka.bots.review import (
    Decision,
    Review,
    ReviewError,
    decision_seed,
    expert_bot,
    expert_choice,
    review,
)
from mushka.cli.main import app
from mushka.engine import Action, Phase
from mushka.errors import RecordError
from mushka.match import new_game
from mushka.records import Record, record_of_game
from mushka.rules import make_rules

runner = CliRunner()


def play(variant: str, seed: int, seat_bots: list[str | None], max_deals: int | None = None) -> Record:
    """A game in which a ``None`` seat is the expert, each move drawn with the review's seed for it."""
    rules = make_rules(variant, len(seat_bots))
    extra = {"max_deals": max_deals} if max_deals else {}
    game = new_game(rules, rng=random.Random(seed), **extra)
    expert = expert_bot()
    bots = [None if spec is None else make_bot(spec) for spec in seat_bots]
    rng = random.Random(seed + 1)
    while not game.is_over:
        seat = game.to_act
        deal = game.deal
        bot = bots[seat]
        view = game.view(seat)
        if bot is not None:
            action = bot.choose(view, rng)
        elif len(view.deal.legal) == 1:
            action = view.deal.legal[0]
        else:
            number = len(game.finished) + 1
            action = expert_choice(expert, view, decision_seed(deal.deck, deal.dealer, number, len(deal.actions) + 1))
        game.apply(action, seat)
    names = ["expert" if spec is None else spec for spec in seat_bots]
    return record_of_game(game, seats=names)


@pytest.fixture(scope="module")
def classic_expert() -> Record:
    """Three deals of classic Мушка for four; seat 0 is the expert."""
    return play("classic", 11, [None, "random", "club", "random"], max_deals=3)


@pytest.fixture(scope="module")
def classic_random() -> Record:
    """Two deals of classic Мушка for four; seat 1 is the random player."""
    return play("classic", 5, ["club", "random", "club", "club"], max_deals=2)


@pytest.fixture(scope="module")
def random_review(classic_random) -> Review:
    """The review of the random player's seat, by one process."""
    return review(classic_random, 1, workers=1)


def test_a_decision_the_expert_makes_itself_costs_exactly_zero(classic_expert):
    result = review(classic_expert, 0, workers=1)
    assert len(result.decisions) >= 4
    assert {d.phase for d in result.decisions} >= {Phase.DECLARE, Phase.PLAY}
    for d in result.decisions:
        assert d.seat == 0
        assert d.choice == d.best, d
        assert d.loss == 0 and d.error == 0 and d.worlds == 0
    assert result.total == 0 and result.costliest() == []


def test_the_random_players_departures_are_measured_and_ranked(random_review):
    result = random_review
    differ = [d for d in result.decisions if not d.agrees]
    assert differ, "the random player never played the expert's move"
    assert all(d.worlds > 0 and d.error >= 0 and d.loss >= 0 for d in differ)
    assert any(d.loss > 0 for d in differ)
    assert all(d.loss == 0 for d in result.decisions if d.agrees)
    top = result.costliest()
    assert 1 <= len(top) <= 3
    assert [d.loss for d in top] == sorted((d.loss for d in result.decisions if d.loss > 0), reverse=True)[:len(top)]
    assert result.total == pytest.approx(sum(d.loss for d in result.decisions))


def test_the_review_is_the_same_whatever_the_number_of_workers(classic_random, random_review):
    assert review(classic_random, 1, workers=2) == random_review


def test_the_decisions_are_the_seats_positions_with_a_choice(classic_random):
    """Every action of the seat with more than one legal move is a decision, in order, and nothing else."""
    result = review(classic_random, 2, workers=1, worlds=5)
    rules = classic_random.rules()
    game = new_game(rules, first_dealer=classic_random.first_dealer, rng=0,
                    decks=[d.deck for d in classic_random.deals], picks=[d.picks for d in classic_random.deals],
                    max_deals=2)
    expected = []
    for number, d in enumerate(classic_random.deals, 1):
        for i, action in enumerate(d.actions, 1):
            if game.to_act == 2 and len(game.deal.legal_actions()) > 1:
                expected.append((number, i, action))
            game.apply(action)
    assert [(d.deal, d.index, d.choice) for d in result.decisions] == expected


def test_a_kopilka_deal_record_is_reviewed():
    rules = make_rules("kopilka", 4)
    game = new_game(rules, rng=random.Random(3))
    bots = [make_bot("random") for _ in range(4)]
    rng = random.Random(4)
    while len(game.finished) < 1:
        seat = game.to_act
        game.apply(bots[seat].choose(game.view(seat), rng), seat)
    record = record_of_game(game)
    record = Record(variant=record.variant, players=4, options=record.options, deals=record.deals[:1],
                    first_dealer=record.first_dealer)
    result = review(record, 0, workers=1, worlds=20)
    assert result.decisions and all(d.deal == 1 for d in result.decisions)
    assert all(d.loss >= 0 for d in result.decisions)
    assert any(not d.agrees for d in result.decisions)


@pytest.mark.parametrize("seat", [-1, 4, 7])
def test_a_seat_not_at_the_table_is_refused_naming_the_seats(classic_random, seat):
    with pytest.raises(ReviewError) as info:
        review(classic_random, seat)
    assert info.value.rule == "C1"
    assert f"no seat {seat}" in str(info.value) and "0 to 3" in str(info.value)
    assert "места" in info.value.message("ru")


def test_a_broken_record_is_refused_naming_the_deal_and_the_action(classic_random):
    data = classic_random.to_json()
    deals = data["deals"]
    assert isinstance(deals, list)
    deals[1]["actions"][0] = "AH" if deals[1]["actions"][0] != "AH" else "KH"
    with pytest.raises(RecordError) as info:
        review(Record.from_json(data), 0)
    assert "deal 2" in str(info.value) and "action 1" in str(info.value)


def test_json_is_the_list_of_decisions(tmp_path, classic_expert):
    path = tmp_path / "game.json"
    path.write_text(classic_expert.dumps(), encoding="utf-8")
    result = runner.invoke(app, ["review", str(path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert list(data) == ["decisions"]
    rows = data["decisions"]
    assert rows and all({"choice", "best", "loss", "error", "deal", "seat", "phase", "position"} <= set(r)
                        for r in rows)
    assert all(r["choice"] == r["best"] and r["loss"] == 0 and r["seat"] == 0 for r in rows)
    assert all(Action.parse(r["choice"]) for r in rows)


def test_the_text_names_the_three_costliest_in_both_languages(tmp_path, classic_random, random_review):
    path = tmp_path / "game.json"
    path.write_text(classic_random.dumps(), encoding="utf-8")
    expected = random_review
    en = runner.invoke(app, ["review", str(path), "--seat", "1", "--lang", "en"])
    assert en.exit_code == 0, en.output
    assert "Review of seat 1 (random)" in en.output
    assert "The costliest:" in en.output
    first = expected.costliest()[0]
    assert f"deal {first.deal} ({first.loss:.2f})" in en.output
    ru = runner.invoke(app, ["review", str(path), "--seat", "1", "--lang", "ru"])
    assert ru.exit_code == 0, ru.output
    assert "Самые дорогие:" in ru.output and "мастер" in ru.output


@pytest.mark.parametrize(("args", "words"), [
    (["--seat", "9"], "no seat 9"),
    (["--seat", "9", "--json"], '"code": "review_seat"'),
])
def test_bad_input_is_one_clear_line_and_exit_code_2(tmp_path, classic_random, args, words):
    path = tmp_path / "game.json"
    path.write_text(classic_random.dumps(), encoding="utf-8")
    result = runner.invoke(app, ["review", str(path), *args])
    assert result.exit_code == 2
    assert words in result.output


def test_a_file_that_is_not_a_record_is_refused(tmp_path):
    path = tmp_path / "x.json"
    path.write_text('{"format": "something else"}', encoding="utf-8")
    result = runner.invoke(app, ["review", str(path), "--lang", "ru"])
    assert result.exit_code == 2
    assert "разбор невозможен" in result.output and "format" in result.output
    missing = runner.invoke(app, ["review", str(tmp_path / "none.json")])
    assert missing.exit_code == 2 and "none.json" in missing.output


def test_the_seeds_come_from_the_record_alone(classic_random):
    d = classic_random.deals[0]
    seed = decision_seed(d.deck, d.dealer, 1, 3)
    assert seed == decision_seed(list(d.deck), d.dealer, 1, 3)
    assert len({seed, decision_seed(d.deck, d.dealer, 1, 4), decision_seed(d.deck, (d.dealer + 1) % 4, 1, 3),
                decision_seed(d.deck, d.dealer, 2, 3), decision_seed(d.deck[::-1], d.dealer, 1, 3)}) == 5


def test_review_values_are_frozen_and_json_ready():
    a, b = Action.parse("AH"), Action.parse("KH")
    d = Decision(1, 2, 0, Phase.PLAY, "trick play", a, b, 1.5, 0.25, 10)
    r = Review(0, (d,))
    assert r.to_json() == {"decisions": [{"deal": 1, "index": 2, "seat": 0, "phase": "play",
                                          "position": "trick play", "choice": "AH", "best": "KH", "loss": 1.5,
                                          "error": 0.25, "worlds": 10, "costly": True}]}
    with pytest.raises(AttributeError):
        d.loss = 0  # type: ignore[misc]
