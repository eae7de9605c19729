"""Every bot returns a legal action, in every variant, from the view alone."""

from __future__ import annotations

import random

import pytest
from botkit import TABLES, positions, rules_of, table_id

from mushka import new_game
from mushka.bots import BOTS, RESEARCH_ONLY, fair_bots, make_bot, play_game
from mushka.bots.base import deal_game_view
from mushka.bots.heuristic import HeuristicBot
from mushka.bots.oracle import OracleBot, OracleConfig
from mushka.bots.search import SearchBot, SearchConfig


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_heuristic_plays_only_legal_actions(table):
    rules = rules_of(table)
    bot = HeuristicBot()
    rng = random.Random(5)
    checked = 0
    for deal in positions(rules, deals=60, seed=11):
        view = deal_game_view(deal, deal.to_act)
        action = bot.choose(view, rng)
        assert action in view.deal.legal, (str(action), view.deal.legal)
        assert deal.is_legal(action)
        checked += 1
    assert checked > 200


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_search_plays_only_legal_actions(table):
    rules = rules_of(table)
    bot = SearchBot(SearchConfig(iterations=24, seconds=0))
    rng = random.Random(6)
    checked = 0
    for deal in positions(rules, deals=8, seed=12, every=0.3):
        view = deal_game_view(deal, deal.to_act)
        action = bot.choose(view, rng)
        assert deal.is_legal(action), str(action)
        checked += 1
    assert checked > 15


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_oracle_plays_only_legal_actions(table):
    rules = rules_of(table)
    rng = random.Random(7)
    checked = 0
    for deal in positions(rules, deals=6, seed=13, every=0.3):
        bot = OracleBot(OracleConfig(iterations=16), peek=lambda d=deal: d)
        action = bot.choose(deal_game_view(deal, deal.to_act), rng)
        assert deal.is_legal(action), str(action)
        checked += 1
    assert checked > 10


@pytest.mark.parametrize("variant", ["classic", "mistigri", "kopilka"])
def test_whole_games_between_every_bot_finish_with_money_conserved(variant):
    rules = rules_of((variant, 4))
    game = new_game(rules, rng=21, max_deals=6) if rules.has_trumps else new_game(rules, rng=21)
    oracle = OracleBot(OracleConfig(iterations=12)).attach(lambda: game.deal)
    bots = [make_bot("heuristic"), make_bot("search:iterations=12,seconds=0"), oracle, make_bot("random")]
    play_game(game, bots, random.Random(3))
    assert game.result is not None
    assert sum(game.result.money) == 0


def test_every_built_in_bot_is_registered_and_the_oracle_is_not_offered():
    make_bot("random")
    assert {"random", "heuristic", "search", "oracle"} <= set(BOTS)
    assert "oracle" in RESEARCH_ONLY
    assert fair_bots() == sorted(set(BOTS) - {"oracle"})
