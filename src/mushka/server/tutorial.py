"""The first-game walkthrough: one classic deal with a stacked deck (N4).

``POST /api/tutorial`` makes a table of classic Мушка for four: the player at
seat 0 (the eldest), bots at seats 1-3, seat 3 dealing.  The deck is stacked
(:func:`mushka.engine.stack_deck`) and the bots play a fixed script, so that
the deal shows each main rule once, in this order:

- C5: the turned-up card (9♦) makes diamonds trump;
- C7: the player stands and exchanges his two clubs; seat 1 passes;
- C6: the dealer takes the turned-up card into his hand and must play;
- C13, C14: the eldest leads; seat 2 follows suit; the dealer, void in
  hearts, must trump; later the player, void in clubs, must trump too;
- C11, C12: the A♠ (the «мушка») beats a trick of clubs;
- C18: seat 2 stood and took no trick: a ремиз of 5 on his record;
- C16, C17: each trick taken writes one point off a record of 30.

The page (web/js/tutorial.js) explains each step and lets the player do only
the scripted move, so the script holds whatever he clicks.  A bot asked for a
move its script does not foresee (which only a changed rule set could cause)
plays the first legal action: the game stays a game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from pydantic import Field

from mushka.engine import Action, stack_deck
from mushka.match import GameView
from mushka.rules import Rules
from mushka.server.bodies import CreateTable, CreateTableReply
from mushka.server.lobby import Lobby
from mushka.server.protocol import MAX_NAME, Lang, Message

PLAYERS = 4
DEALER = 3
"""Seat 3 deals, so the player at seat 0 is the eldest (C4, C7)."""

HANDS: tuple[str, ...] = (
    "AS KH QH 7C 6C",  # the player: the мушка, two hearts, two clubs to exchange
    "6S 7S 6H 6D 7D",  # seat 1: nothing worth playing, passes
    "8H 9C 9H 8C JH",  # seat 2: stands with no trump and takes no trick (ремиз)
    "JD KC AC QC 8S",  # the dealer: void in hearts; takes the 9♦, discarding the 8♠
)
TURNUP = "9D"
TALON_TOP = "AH TD"
"""The two cards the player draws for his clubs (C7)."""

PLAYER_SCRIPT: tuple[str, ...] = ("stand 6C 7C", "KH", "TD", "QH", "AS", "AH")
"""The player's moves, one per turn (the page allows only these)."""

BOT_SCRIPTS: dict[int, tuple[str, ...]] = {
    1: ("pass",),
    2: ("stand", "8H", "9C", "9H", "8C", "JH"),
    3: ("take 8S", "stand", "9D", "KC", "JD", "AC", "QC"),
}
"""Each bot's moves in order."""

BOT_NAME = "heuristic"
"""The bot a tutorial seat is stored with (it plays on if the script runs out)."""


def tutorial_rules() -> Rules:
    """Classic Мушка for four with its default options."""
    return Rules.make("classic", PLAYERS)


def tutorial_deck(rules: Rules) -> tuple[str, ...]:
    """The stacked deck of the tutorial deal, top first (N4)."""
    deck = stack_deck(rules, list(HANDS), TURNUP, TALON_TOP, dealer=DEALER, fill=True)
    return tuple(c.code for c in deck)


def _same(action: Action, text: str) -> bool:
    """Whether ``action`` is the move ``text`` (cards in any order)."""
    return sorted(str(action).split()) == sorted(text.split())


class ScriptBot:
    """Plays the first move of its script that is legal now.

    No state is kept: a move played is never legal again (a card left the
    hand, a declaration was made), so asking twice, or after a restart,
    gives the same move.
    """

    name = "tutorial"

    def __init__(self, script: Sequence[str]) -> None:
        """A bot that will play ``script``."""
        self.script = tuple(script)

    def choose(self, view: GameView, rng: random.Random) -> Action:
        """The script's first legal move; else the first legal action."""
        legal = list(view.deal.legal)
        for text in self.script:
            for action in legal:
                if _same(action, text):
                    return action
        return legal[0]


class CreateTutorial(Message):
    """``POST /api/tutorial``: a tutorial table for the caller (his name, the page's language)."""

    name: str | None = Field(default=None, max_length=MAX_NAME)
    lang: Lang | None = None


async def start_tutorial(lobby: Lobby, request: CreateTutorial, lang: str, address: str = "?") -> CreateTableReply:
    """A new tutorial table, unlisted, started with its stacked deal and scripted bots."""
    rules = tutorial_rules()
    reply = await lobby.create(CreateTable(
        variant=rules.variant, players=rules.players, seats=["me"] + [f"bot:{BOT_NAME}"] * (PLAYERS - 1),
        name=request.name, start=False, listed=False, lang=request.lang), lang, address)
    table = lobby.tables[reply.table.id]
    table.plan = (DEALER, tutorial_deck(rules))
    table.unrated = "tutorial"  # a lesson, not a game: never rated (stored with its first save)
    for seat, script in BOT_SCRIPTS.items():
        table.scripted[seat] = ScriptBot(script)
    await table.seating.start_now()
    return reply.model_copy(update={"table": table.info(lang)})
