"""Opponents: the bot protocol and the bots (random, heuristic, search, oracle)."""

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

__all__ = ["BOTS", "RESEARCH_ONLY", "Bot", "RandomBot", "fair_bots", "make_bot", "play_deal", "play_game",
           "register_bot"]
