"""Helpers for the bot tests: tables of every variant and positions reached by random play."""

from __future__ import annotations

import random
from collections.abc import Iterator

from mushka import make_rules
from mushka.cards import SUIT_MASKS
from mushka.engine import Deal, Kind, new_deal
from mushka.engine.events import Passed
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


def replay_checking_voids(truth, world, seat):
    """Replay ``world`` from its deck; at each action of the true history, check the world's hands."""
    rules = truth.rules
    replay = new_deal(rules, truth.dealer, deck=world.deck, picks=world.picks)
    true_actions = truth.actions
    world_actions = world.actions
    assert len(world_actions) == len(true_actions)
    passes = [e for e in truth.events(omniscient=True) if isinstance(e, Passed)]
    checked = 0
    for true_a, world_a in zip(true_actions, world_actions, strict=True):
        actor = replay.to_act
        hand = replay.hands[actor]
        trick = replay.current_trick
        assert world_a.kind == true_a.kind
        if true_a.kind in (Kind.PLAY, Kind.DRAW, Kind.PASS) and replay.phase.name == "PLAY":
            if true_a.kind is Kind.PLAY:
                assert world_a == true_a
            if trick:
                led = trick[0][1].suit
                if rules.has_trumps:
                    card = true_a.card
                    if card.suit != led and card != rules.privileged:
                        # C14: he did not follow, so in the world he cannot hold the led suit.
                        assert not hand & SUIT_MASKS[led], (str(true_a), actor)
                        if card.suit != replay.trump and rules.must_trump_if_void:
                            assert not hand & SUIT_MASKS[replay.trump]
                        checked += 1
                elif true_a.kind is Kind.DRAW:
                    assert not hand & SUIT_MASKS[led]  # K11: only a seat without the suit draws
                    checked += 1
                elif true_a.kind is Kind.PASS:
                    penalty = passes.pop(0).penalty
                    holds = bool(hand & SUIT_MASKS[led])
                    if penalty or rules.remiz > 0 or rules.renege == "forbid":
                        assert holds == bool(penalty)  # K12: a remiz is paid exactly when holding the suit
                    # K12 with a remiz of 0: a pass shows nothing, the world may hold the suit or not.
                    checked += 1
            elif true_a.kind is Kind.PASS:
                passes.pop(0)
        if true_a.kind is Kind.STAND:
            assert world_a.count == true_a.count  # C7: the exchange counts are public
        if actor == seat or true_a.kind is Kind.PLAY:
            assert world_a == true_a
        replay.apply(world_a)
    assert replay.events(seat) == truth.events(seat)
    assert replay.hands[seat] == truth.hands[seat]
    return checked
