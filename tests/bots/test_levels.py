"""The levels offered to people: stable ids, words in both languages, buildable bots, the strongest one."""

from __future__ import annotations

import random

import pytest
from botkit import positions, rules_of

from mushka import make_rules, new_game
from mushka.bots import (
    DEFAULT_LEVEL,
    RESEARCH_ONLY,
    default_opponent,
    describe_levels,
    fair_bots,
    level,
    level_ids,
    levels,
    make_bot,
    play_game,
    strongest_bot,
    strongest_level,
)
from mushka.bots.base import deal_game_view
from mushka.bots.heuristic import HeuristicBot
from mushka.bots.novice import NoviceBot, NoviceConfig
from mushka.errors import OptionsError


def test_level_ids_are_stable_and_ordered_weakest_first():
    # Front ends store these ids: renaming or reordering one breaks saved tables and links.
    assert level_ids() == ["beginner", "casual", "club", "strong", "expert"]
    assert DEFAULT_LEVEL in level_ids()
    assert DEFAULT_LEVEL == strongest_level() == default_opponent(fair_bots())


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_level_has_a_name_and_a_description(lang):
    rows = describe_levels(lang)
    assert [r["id"] for r in rows] == level_ids()
    names = [r["name"] for r in rows]
    assert len(set(names)) == len(names)
    for row in rows:
        assert row["name"] and not str(row["name"]).startswith("level.")
        assert row["blurb"] and not str(row["blurb"]).startswith("level.")
    if lang == "ru":
        assert all(any("а" <= ch.lower() <= "я" for ch in str(r["name"])) for r in rows)


def test_names_differ_between_languages():
    for lv in levels():
        assert lv.title("en") != lv.title("ru")
        assert lv.blurb("en") != lv.blurb("ru")


def test_every_level_is_a_fair_bot_named_after_the_level():
    offered = fair_bots()
    for lv in levels():
        assert lv.id in offered
        assert lv.spec.partition(":")[0] not in RESEARCH_ONLY
        bot = make_bot(lv.id)
        assert bot.name == lv.id


def test_levels_play_whole_games_legally():
    rules = make_rules("mistigri", 3)
    game = new_game(rules, rng=3, max_deals=4)
    bots = [make_bot("beginner"), make_bot("casual"), make_bot("club")]
    play_game(game, bots, random.Random(3))
    assert game.result is not None


def test_every_level_is_rated_against_the_club_level():
    # The ratings are measured (docs/bots.md): the club level is the yardstick, the rest are figures.
    ratings = {lv.id: lv.rating for lv in levels()}
    assert ratings["club"] == 0.0
    assert all(isinstance(r, float) for r in ratings.values())
    assert ratings["beginner"] < ratings["casual"] < 0.0 < ratings["strong"]
    assert all(row["rating"] == ratings[row["id"]] for row in describe_levels("en"))


def test_strongest_bot_is_the_last_level_and_fair():
    spec = strongest_bot()
    assert spec == levels()[-1].spec
    assert spec.partition(":")[0] not in RESEARCH_ONLY
    bot = make_bot(spec)
    assert hasattr(bot, "choose")


def test_unknown_level_is_refused_in_both_languages():
    with pytest.raises(OptionsError) as err:
        level("grandmaster")
    assert "grandmaster" in err.value.message("en") and "expert" in err.value.message("en")
    assert "неизвестный уровень" in err.value.message("ru")


def test_a_level_takes_no_parameters():
    with pytest.raises(OptionsError) as caught:
        make_bot("expert:iterations=5")
    # The refusal says why and which spec to tune instead, in both languages.
    for lang in ("en", "ru"):
        said = caught.value.message(lang)
        assert "'iterations'" in said and level("expert").spec in said and "'expert'" in said


def test_novice_without_mistakes_plays_as_the_rules_of_thumb():
    rules = rules_of(("classic", 4))
    novice, heuristic = NoviceBot(NoviceConfig(mistakes=0)), HeuristicBot()
    checked = 0
    for deal in positions(rules, deals=20, seed=4):
        view = deal_game_view(deal, deal.to_act)
        assert novice.choose(view, random.Random(1)) == heuristic.choose(view, random.Random(1))
        checked += 1
    assert checked > 50


def test_novice_mistakes_change_some_choices():
    rules = rules_of(("classic", 4))
    novice, heuristic = NoviceBot(NoviceConfig(mistakes=1)), HeuristicBot()
    rng = random.Random(2)
    differ = total = 0
    for deal in positions(rules, deals=20, seed=5):
        view = deal_game_view(deal, deal.to_act)
        choice = novice.choose(view, rng)
        assert choice in view.deal.legal
        if len(view.deal.legal) > 1:
            total += 1
            differ += choice != heuristic.choose(view, rng)
    assert total > 20 and differ > total // 4


def test_novice_mistakes_out_of_range_are_refused():
    with pytest.raises(OptionsError):
        make_bot("novice:mistakes=1.5")
