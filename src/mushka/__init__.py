"""mushka: the rules engine, bots and tools for the Russian card games of the Мушка family.

The rules core (this package's ``cards``, ``rules``, ``engine``, ``match`` and
``records`` modules) is pure Python with no dependencies, compiled with mypyc
where a C compiler is present (``MUSHKA_PURE=1`` forces the pure build;
docs/build.md)::

    >>> from mushka import make_rules, new_deal
    >>> deal = new_deal(make_rules("classic", 4), dealer=0, rng=7)
    >>> deal.legal_actions()[0]
    Action.parse('pass')
"""

from mushka import _build as _build  # first: chooses the compiled or the pure-Python core (docs/build.md)
from mushka.cards import Card, Rank, Suit, parse_card, parse_cards
from mushka.engine import Action, Deal, DealResult, DealView, Event, Kind, Phase, new_deal
from mushka.errors import (
    ChanceError,
    IllegalActionError,
    MushkaError,
    OptionsError,
    OutOfTurnError,
    ParseError,
    RecordError,
)
from mushka.match import Game, GameResult, GameView, Partie, Session, new_game
from mushka.records import Record, record_of_deal, record_of_game, replay
from mushka.rules import Rules, find_variant, make_rules

__version__ = "0.1.0"

__all__ = [
    "Action",
    "Card",
    "ChanceError",
    "Deal",
    "DealResult",
    "DealView",
    "Event",
    "Game",
    "GameResult",
    "GameView",
    "IllegalActionError",
    "Kind",
    "MushkaError",
    "OptionsError",
    "OutOfTurnError",
    "ParseError",
    "Partie",
    "Phase",
    "Rank",
    "Record",
    "RecordError",
    "Rules",
    "Session",
    "Suit",
    "__version__",
    "find_variant",
    "make_rules",
    "new_deal",
    "new_game",
    "parse_card",
    "parse_cards",
    "record_of_deal",
    "record_of_game",
    "replay",
]
