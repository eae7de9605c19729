"""Helpers for the bot tests: tables of every variant and positions reached by random play."""

from __future__ import annotations

import random
from collections.abc import Iterator

from mushka import make_rules
from mushka.engine import Deal, new_deal
from mushka.rules import Rules

TABLES: list[tuple[str, int]] = [
    ("classic", 3), ("classic", 4), ("classic", 5), ("classic", 7),
    ("mistigri", 3), ("mistigri", 4), ("mistigri", 6),
    ("kopilka", 4),
]
"""Every variant, and several table sizes of the trump variants."""


def table_id(table: tuple[str, int]) -> str:
    return f"{table[0]}-{table[1]}"


def positions(rules: Rules, deals: int, seed: int, every: float = 0.4) -> Iterator[Deal]:
    """Deals in progress, reached by uniformly random play, one yielded at each chosen point.

    The deal yielded is the live one: look at it (``view``, ``hands``) before
    asking for the next.
    """
    rng = random.Random(seed)
    for k in range(deals):
        deal = new_deal(rules, k % rules.players, rng=rng)
        while not deal.is_over:
            if rng.random() < every:
                yield deal
            legal = deal.legal_actions()
            deal.apply(legal[rng.randrange(len(legal))])


def rules_of(table: tuple[str, int]) -> Rules:
    return make_rules(table[0], table[1])


def stacked(rules: Rules, hands: dict[int, str], *, dealer: int = 0, turnup: str | None = None,
            talon: str = "") -> Deal:
    """A deal whose seats hold ``hands`` (codes), the given turned card, the talon on top; the rest after.

    N4: the cards are dealt one at a time from the eldest, so seat ``s``
    gets the deck's positions ``(s - eldest) % n``, ``+ n``, ...
    """
    from mushka.cards import parse_cards

    n = rules.players
    eldest = (dealer + 1) % n
    used = set()
    fixed = {s: [c.index for c in parse_cards(h)] for s, h in hands.items()}
    for cards in fixed.values():
        used.update(cards)
    top = [c.index for c in parse_cards(talon)]
    turn = parse_cards(turnup)[0].index if turnup else None
    used.update(top)
    if turn is not None:
        used.add(turn)
    rest = [c for c in rules.deck_indices if c not in used]
    deck: list[int] = []
    for i in range(5 * n):
        seat = (eldest + i) % n
        deck.append(fixed[seat].pop(0) if seat in fixed else rest.pop(0))
    if rules.has_trumps:
        deck.append(turn if turn is not None else rest.pop(0))
    deck += top + rest
    return new_deal(rules, dealer, deck=deck)
