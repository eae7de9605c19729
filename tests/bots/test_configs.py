"""Bot specs read into frozen configurations: once per spec, with every knob checked, the levels' included."""

from __future__ import annotations

import pytest

from mushka.bots import BOTS, LEVELS, make_bot, offered_tables, parse_spec
from mushka.bots.declaring import CLUB, TUNED
from mushka.bots.heuristic import HeuristicBot, HeuristicConfig
from mushka.bots.ismcts import IsmctsConfig
from mushka.bots.levels import LevelBot
from mushka.bots.novice import NoviceConfig
from mushka.bots.oracle import OracleConfig
from mushka.bots.search import Evidence, Factors, Phases, SearchBot, SearchConfig
from mushka.errors import OptionsError

EXPECTED = {
    "novice:mistakes=0.05,slips=0.4,memory=0.3,eager=0.5": NoviceConfig(0.05, 0.4, 0.3, 0.5),
    "novice:mistakes=0.02,slips=0.15,memory=0.6,eager=0.2": NoviceConfig(0.02, 0.15, 0.6, 0.2),
    "heuristic": HeuristicConfig(CLUB),
    "search:iterations=600,seconds=0.3": SearchConfig(iterations=600, seconds=0.3),
    "search:iterations=500,seconds=0.3,declare=4,believe=2,belief=1,seatwise=1,believe_phases=2": SearchConfig(
        iterations=500, seconds=0.3, declare=4.0, believe=Evidence.PLAYS, belief=Factors.SELF_PLAY, seatwise=True,
        believe_phases=Phases.TRICKS),
}
"""Every spec a level plays at some table, and the configuration it must read as."""


def test_every_level_at_every_table_reads_as_the_configuration_written_out():
    seen = set()
    for table in offered_tables():
        for lv in LEVELS:
            spec = lv.spec_for(*table)
            _, config = parse_spec(spec)
            assert config == EXPECTED[spec], (lv.id, table)
            bot = lv.make(*table)
            assert bot.name == lv.id and getattr(bot, "config", None) == config
            seen.add(spec)
    assert seen == set(EXPECTED)


def test_a_spec_is_read_once_and_every_bot_built_from_it_is_fresh():
    spec = "search:iterations=40,seconds=0,believe=1,belief=1"
    first, second = make_bot(spec), make_bot(spec)
    assert isinstance(first, SearchBot) and isinstance(second, SearchBot) and first is not second
    assert first.config is second.config is parse_spec(spec)[1]
    assert first.times is not second.times
    level = make_bot("expert")
    assert isinstance(level, LevelBot) and level is not make_bot("expert")


def test_each_knob_reads_as_its_type():
    config = parse_spec("search:iterations=30.7,seconds=0,chase=1,phases=2,believe=1")[1]
    assert config == SearchConfig(iterations=30, seconds=0.0, chase=True, phases=Phases.TRICKS,
                                  believe=Evidence.DECLARATIONS)
    assert parse_spec("heuristic:style=1")[1] == HeuristicConfig(TUNED)
    assert parse_spec("oracle:talon=0,phases=1")[1] == OracleConfig(talon=False, phases=Phases.DECLARING)
    assert parse_spec("ismcts:worlds=20,chase=0")[1] == IsmctsConfig(worlds=20, chase=False)
    assert isinstance(make_bot("heuristic"), HeuristicBot)


@pytest.mark.parametrize(("spec", "error"), [
    ("search:iterations=0,seconds=0", "bot_needs_budget"),
    ("oracle:iterations=0", "bot_needs_budget"),
    ("ismcts:iterations=0,seconds=0", "bot_needs_budget"),
    ("search:believe=3", "bad_bot_range"),
    ("search:seatwise=x", "bad_bot_number"),
    ("search:nope=1", "bad_bot_param"),
    ("search:iterations", "bad_bot_syntax"),
    ("expert:iterations=10", "level_no_params"),
    ("random:x=1", "bad_bot_param"),
    ("nobody", "unknown_bot"),
])
def test_a_bad_spec_is_refused_naming_the_problem(spec, error):
    with pytest.raises(OptionsError) as caught:
        parse_spec(spec)
    assert caught.value.code == error
    with pytest.raises(OptionsError):
        make_bot(spec)  # and it is not kept as if it were good


def test_the_oracle_names_itself_in_its_budget_error():
    with pytest.raises(OptionsError) as caught:
        make_bot("oracle:iterations=0")
    assert "oracle" in caught.value.message("en")


def test_every_built_in_bot_is_registered_by_importing_the_package():
    assert {"random", "heuristic", "novice", "search", "ismcts", "oracle"} <= set(BOTS)
    assert {lv.id for lv in LEVELS} <= set(BOTS)
