"""Opponents: the bot protocol, the bots (random, heuristic, search, oracle …) and the levels offered to people."""

from mushka.bots.base import (
    BOTS,
    RESEARCH_ONLY,
    Bot,
    RandomBot,
    fair_bots,
    make_bot,
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

__all__ = ["BOTS", "DEFAULT_LEVEL", "LEVELS", "RESEARCH_ONLY", "Bot", "Level", "LevelBot", "RandomBot",
           "default_opponent", "describe_levels", "fair_bots", "level", "level_ids", "level_table", "levels",
           "make_bot", "make_table_bot", "offered_tables", "opponent_title", "play_deal", "play_game",
           "register_bot", "strongest_bot", "strongest_level"]
