"""Opponents: the bot protocol, the bots (random, heuristic, search, oracle …) and the levels offered to people.

Every bot registers itself in the module that defines it; importing the
built-in modules here, once, is what makes them all known by name.
"""

from mushka.bots import heuristic, ismcts, novice, oracle, search  # noqa: F401  (they register their bots)
from mushka.bots.base import (
    BOTS,
    RESEARCH_ONLY,
    Bot,
    BotKind,
    Knob,
    RandomBot,
    fair_bots,
    make_bot,
    parse_spec,
    play_deal,
    play_game,
    register_bot,
)
from mushka.bots.levels import (
    DEFAULT_LEVEL,
    LEVELS,
    Level,
    LevelBot,
    default_opponent,
    describe_levels,
    level,
    level_ids,
    level_table,
    levels,
    make_table_bot,
    offered_tables,
    opponent_title,
    strongest_bot,
    strongest_level,
)

__all__ = ["BOTS", "DEFAULT_LEVEL", "LEVELS", "RESEARCH_ONLY", "Bot", "BotKind", "Knob", "Level", "LevelBot",
           "RandomBot", "default_opponent", "describe_levels", "fair_bots", "level", "level_ids", "level_table",
           "levels",
           "make_bot", "make_table_bot", "offered_tables", "opponent_title", "parse_spec", "play_deal",
           "play_game", "register_bot", "strongest_bot", "strongest_level"]
