"""Opponents: the bot protocol and the bots (random, heuristic, search, oracle)."""

from mushka.bots.base import BOTS, Bot, RandomBot, make_bot, play_deal, play_game, register_bot

__all__ = ["BOTS", "Bot", "RandomBot", "make_bot", "play_deal", "play_game", "register_bot"]
