"""The building blocks of sampled worlds: filling hidden places with cards, and the facts every world must respect.

:class:`mushka.bots.sampler.WorldSampler` proposes a world by dealing the
unknown cards into hidden places under bans, caps and demands
(:func:`assign`, the core's own, which its resampler uses too), undoing
the history, and stacking the deck the hands came from (:func:`deal_deck`,
N4); :class:`SampleFailed` stops a proposal that cannot be completed.
"""

from __future__ import annotations

import random

from mushka.cards import SUIT_MASKS, card_count
from mushka.engine.world_fill import WorldFailed, assign, max_suit_count, pick_bits
from mushka.engine.world_fill import deal_deck as stack_deck
from mushka.rules import Rules


def is_special(rules: Rules, hand: int) -> bool:
    """Whether a five-card hand is one the rules show at once (C22, MI9, MI13)."""
    # Loops, not any() over generators: compiled, a generator is an object made per call,
    # and this runs for every seat of every world and every exchange of a playout.
    if card_count(hand) != 5:
        return False
    priv = 1 << rules.privileged.index
    if hand & priv and rules.four_mode != "none":
        rest = hand ^ priv
        for m in SUIT_MASKS:
            if rest & ~m == 0:
                return True
    if rules.flush != "none":
        for m in SUIT_MASKS:
            if hand & ~m == 0:
                return True
    return False


class SampleFailed(Exception):
    """A proposed world broke a constraint; the sampler tries again."""


def deal_deck(rules: Rules, dealer: int, h0: list[int], talon: list[int], turnup: int,
              rng: random.Random) -> list[int]:
    """N4: the stacked deck giving these hands, turned card and talon (top first).

    The core's stacking (:func:`mushka.engine.world_fill.deal_deck`), failing
    as the sampler's proposals do (:class:`SampleFailed`).
    """
    try:
        return stack_deck(dealer, rules.players, h0, talon, rng, turnup)
    except WorldFailed:
        raise SampleFailed from None


__all__ = ["SampleFailed", "assign", "deal_deck", "is_special", "max_suit_count", "pick_bits"]
