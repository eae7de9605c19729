"""K4/K23 with option session_games: kopilka's short session of two games.

The deal passes round from the first dealer (so the first two seats deal once each),
the pot goes after game 2 to the player who went out first in it (K23), money is
conserved throughout (K24), and a record of it replays.  At the default (4 games) no
record changes: the option is written into a record only when it is not the default.
"""

from __future__ import annotations

import json
import random

import pytest
from rulekit import rules

from mushka import new_game
from mushka.engine.kopilka import KopilkaDeal
from mushka.errors import OptionsError, RecordError
from mushka.game_steps import StepGame
from mushka.match import Session
from mushka.records import Record, record_of_game, replay
from mushka.rules.texts import render_rule
from mushka.tui import dealend, render
from mushka.tui.rulesinfo import rules_summary

KOPILKA_OPTIONS_BEFORE = ["rank_order", "remiz", "ante", "game_payment", "suit_values", "renege",
                          "redistribution"]
"""The options every kopilka record stored before session_games existed, in their order."""
NAMES = ("you", "Glasha", "Mitya", "Varya")


def played(seed: int, games: int = 2) -> tuple[Session, list[int]]:
    """A session played by random moves; also the pot just before each game's end."""
    game = new_game(rules("kopilka", session_games=games), rng=seed)
    assert isinstance(game, Session)
    rng = random.Random(seed)
    pots: list[int] = []
    while not game.is_over:
        # K24 at every step: the balances and the pot sum to zero.
        assert sum(game.money) + game.current_pot == 0
        before = len(game.finished)
        game.apply(rng.choice(list(game.legal_actions())))
        if len(game.finished) > before:
            deal = game.finished[-1]
            assert isinstance(deal, KopilkaDeal)
            pots.append(deal.pot)
    return game, pots


def test_k4_a_short_session_is_two_games_dealt_by_the_first_two_seats() -> None:
    for seed in range(6):
        game, _ = played(seed)
        dealers = [d.dealer for d in game.finished]
        assert dealers == [game.first_dealer, (game.first_dealer + 1) % 4], (seed, dealers)
        assert game.result is not None and game.result.deals == 2
        view = game.view(0)
        assert view.games == 2 and view.number == 2
        assert game.pot == 0  # K24: the pot is empty at the end of the session


def test_k23_after_game_2_whoever_went_out_first_in_it_takes_the_whole_pot() -> None:
    out_seen = deadlock_seen = 0
    for seed in range(40):
        game, pots = played(seed)
        assert game.result is not None
        last = game.finished[-1].result
        assert last is not None
        pot_left = pots[-1]  # the pot after game 2's own payments (K22), before K23
        settlement = game.result.settlement
        assert sum(settlement) == pot_left and pot_left > 0
        if last.out is not None:
            out_seen += 1
            assert settlement[last.out] == pot_left
            assert all(settlement[s] == 0 for s in range(4) if s != last.out)
        else:
            deadlock_seen += 1  # shared equally, the rest one each from the eldest
            assert max(settlement) - min(settlement) <= 1
        # The money: each seat's final balance is what it had after game 2 plus its share.
        assert sum(game.result.money) == 0  # K24
        assert game.result.money == tuple(game.money)
        if out_seen and deadlock_seen:
            break
    assert out_seen, "no seed had a player out in game 2"


def test_k23_does_not_pay_the_pot_after_game_1_of_a_short_session() -> None:
    game = new_game(rules("kopilka", session_games=2), rng=7)
    rng = random.Random(7)
    while len(game.finished) < 1:
        game.apply(rng.choice(list(game.legal_actions())))
    assert not game.is_over and game.result is None
    assert game.current_pot > 0 and game.view(0).number == 2


def test_the_four_game_session_is_unchanged() -> None:
    game, _ = played(3, games=4)
    assert len(game.finished) == 4 and game.view(0).games == 4
    assert [d.dealer for d in game.finished] == [(game.first_dealer + k) % 4 for k in range(4)]


@pytest.mark.parametrize("value", [3, 1, 0, 8, "three", True])
def test_session_games_is_2_or_4_naming_k4(value: object) -> None:
    with pytest.raises(OptionsError) as info:
        rules("kopilka", session_games=value)
    assert info.value.rule == "K4"
    assert "session_games" in str(info.value)
    if not isinstance(value, str):
        assert "2" in str(info.value) and "4" in str(info.value)


@pytest.mark.parametrize("variant", ["classic", "mistigri"])
def test_session_games_is_kopilka_only(variant: str) -> None:
    with pytest.raises(OptionsError, match=r"session_games.*kopilka"):
        rules(variant, session_games=2)


def test_texts_of_the_option_and_of_k4_k23_follow_the_session() -> None:
    short = rules("kopilka", session_games="2")
    assert short.session_games == 2 and str(short) == "kopilka 4p -o session_games=2"
    assert "two games" in render_rule(short, "K4", "en") and "двух игр" in render_rule(short, "K4", "ru")
    assert "After game 2" in render_rule(short, "K23", "en")
    assert "второй" in render_rule(short, "K23", "ru")
    full = rules("kopilka")
    assert render_rule(full, "K4", "en") == "A session is four games (deals); each player deals once."
    assert render_rule(full, "K23", "en").startswith("After game 4 the player who went out first")


def test_a_record_of_a_short_session_stores_the_option_and_replays() -> None:
    game, _ = played(11)
    record = Record.loads(record_of_game(game).dumps())
    assert record.options["session_games"] == "2"
    again = replay(record)
    assert isinstance(again, Session) and again.result == game.result
    assert len(again.finished) == 2
    # Without the option the same deals are not a whole session: the replay says so.
    data = json.loads(record.dumps())
    del data["options"]["session_games"]
    with pytest.raises(RecordError, match="result"):
        replay(Record.from_json(data))


def test_at_the_default_a_record_is_written_as_before() -> None:
    game, _ = played(5, games=4)
    text = record_of_game(game).dumps()
    data = json.loads(text)
    assert list(data["options"]) == KOPILKA_OPTIONS_BEFORE
    assert "session_games" not in text
    # Read back and written again: byte for byte the same, and a four-game session.
    record = Record.loads(text)
    assert record.dumps() == text
    again = replay(record)
    assert isinstance(again, Session) and again.games == 4 and again.result == game.result
    assert rules("kopilka").options_text() == {k: data["options"][k] for k in KOPILKA_OPTIONS_BEFORE}
    assert "session_games" not in rules("kopilka", session_games=4).options_text()


def test_a_step_game_of_a_short_session_ends_after_two_games() -> None:
    step = StepGame(rules("kopilka", session_games=2))
    assert step.max_deals == 2
    rng = random.Random(1)
    while not step.is_over():
        if step.is_chance():
            outcomes = step.chance_outcomes()
            step.apply_chance(rng.choice(outcomes)[0])
        else:
            step.apply_id(rng.choice(step.legal_action_ids()))
    game = step.game
    assert game is not None and len(game.finished) == 2
    returns = step.returns()
    assert sum(returns) == pytest.approx(0.0)


def test_the_terminal_counts_the_games_of_a_short_session() -> None:
    game = new_game(rules("kopilka", session_games=2), rng=4)
    rng = random.Random(4)
    while len(game.finished) < 1:
        game.apply(rng.choice(list(game.legal_actions())))
    view = game.view(0)
    assert "game 2 of 2" in render.title_line(view, "en").plain
    assert "игра 2 из 2" in render.title_line(view, "ru").plain
    assert dealend.deal_summary(view, 1, NAMES, 0, "en").plain.startswith("Game 1 of 2 is over")
    assert dealend.deal_summary(view, 1, NAMES, 0, "ru").plain.startswith("Игра 1 из 2 окончена")
    summary = rules_summary(rules("kopilka", session_games=2), "en").plain
    assert "a session is 2 games" in summary and "after game 2 (the last)" in summary
