"""The building blocks of sampled worlds: filling hidden places with cards, and the facts every world must respect.

:class:`mushka.bots.sampler.WorldSampler` proposes a world by dealing the
unknown cards into hidden places under bans, caps and demands
(:func:`assign`), undoing the history, and stacking the deck the hands came
from (:func:`deal_deck`, N4); :class:`SampleFailed` stops a proposal that
cannot be completed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from mushka.bots.policy import bit_list
from mushka.cards import SUIT_MASKS
from mushka.rules import Rules


def pick_bits(mask: int, k: int, rng: random.Random) -> int:
    """``k`` cards of ``mask`` chosen uniformly (``mask`` must hold at least ``k``)."""
    chosen = 0
    for c in rng.sample(bit_list(mask), k):
        chosen |= 1 << c
    return chosen


def is_special(rules: Rules, hand: int) -> bool:
    """Whether a five-card hand is one the rules show at once (C22, MI9, MI13)."""
    if hand.bit_count() != 5:
        return False
    priv = 1 << rules.privileged.index
    if hand & priv and rules.four_mode != "none":
        rest = hand ^ priv
        if any(rest & ~m == 0 for m in SUIT_MASKS):
            return True
    if rules.flush != "none":
        return any(hand & ~m == 0 for m in SUIT_MASKS)
    return False


def max_suit_count(hand: int) -> int:
    """The length of the longest suit of a hand."""
    return max((hand & m).bit_count() for m in SUIT_MASKS)


def assign(cards: list[int], bins: Sequence[tuple[int, int, int]], rng: random.Random, *,
           caps: Sequence[Sequence[int]] = (), musts: Sequence[tuple[Sequence[int], int, int]] = (),
           tries: int = 12) -> list[int] | None:
    """Deal ``cards`` into ``bins`` of (capacity, allowed mask, cap group).

    Capacities must add up to the number of cards.  A bin's cap group (an
    index into ``caps``, or -1) limits how many cards of each suit its group
    of bins may get; each of ``musts`` (bins, suit, count) asks for at least
    ``count`` cards of ``suit`` among those bins, and is served first (in
    the order given, counting what earlier demands put there).  Then
    the most constrained cards go first, each to an allowed bin with room,
    chosen in proportion to the room left; a dead end starts again.  ``None``
    if no filling is found.
    """
    nb = len(bins)
    options: list[list[int]] = []
    for c in cards:
        bit = 1 << c
        options.append([b for b in range(nb) if bins[b][1] & bit and bins[b][0] > 0])
    for _ in range(tries):
        room = [b[0] for b in bins]
        left = [list(g) for g in caps]
        out = [0] * nb
        used = 0
        ok = True
        for where, suit, count in musts:
            # Cards placed for an earlier, narrower demand count here too.
            have = sum((out[b] & SUIT_MASKS[suit]).bit_count() for b in where)
            for _ in range(count - have):
                cand = [(b, c) for b in where if room[b] > 0
                        and (bins[b][2] < 0 or left[bins[b][2]][suit] > 0)
                        for c in cards if c // 13 == suit and not used >> c & 1 and bins[b][1] >> c & 1]
                if not cand:
                    ok = False
                    break
                b, c = rng.choice(cand)
                room[b] -= 1
                if bins[b][2] >= 0:
                    left[bins[b][2]][suit] -= 1
                out[b] |= 1 << c
                used |= 1 << c
            if not ok:
                break
        if not ok:
            continue
        keys = [(len(options[i]), rng.random(), i) for i in range(len(cards)) if not used >> cards[i] & 1]
        keys.sort()
        for _, _, i in keys:
            c = cards[i]
            suit = c // 13
            total = 0
            eligible = []
            for b in options[i]:
                g = bins[b][2]
                if room[b] > 0 and (g < 0 or left[g][suit] > 0):
                    eligible.append(b)
                    total += room[b]
            if total == 0:
                ok = False
                break
            r = rng.random() * total
            chosen = eligible[-1]
            for b in eligible:
                r -= room[b]
                if r < 0:
                    chosen = b
                    break
            room[chosen] -= 1
            g = bins[chosen][2]
            if g >= 0:
                left[g][suit] -= 1
            out[chosen] |= 1 << c
        if ok:
            return out
    return None


class SampleFailed(Exception):
    """A proposed world broke a constraint; the sampler tries again."""


def deal_deck(rules: Rules, dealer: int, h0: list[int], talon: list[int], turnup: int,
          rng: random.Random) -> list[int]:
    """N4: the stacked deck giving these hands, turned card and talon (top first)."""
    n = rules.players
    eldest = (dealer + 1) % n
    lists = []
    for s in range(n):
        cards = bit_list(h0[s])
        if len(cards) != 5:
            raise SampleFailed
        rng.shuffle(cards)
        lists.append(cards)
    deck = [lists[(eldest + i) % n][i // n] for i in range(5 * n)]
    if turnup >= 0:
        deck.append(turnup)
    deck.extend(talon)
    return deck


__all__ = ["SampleFailed", "assign", "deal_deck", "is_special", "max_suit_count", "pick_bits"]
