"""Filling hidden places with cards under constraints, and the one failure of a proposal.

:func:`assign` deals cards into bins (a hand's unknown cards, a seat's
discards, the talon) under bans, suit caps and demands; :func:`deal_deck`
stacks a deck that deals given hands (N4); :func:`pick_bits` and
:func:`max_suit_count` are the small bit helpers the proposals need.  The
trump proposal (:mod:`mushka.worlds.trump`) and the kopilka proposal
(:mod:`mushka.worlds.kopilka`) build on them; every step of a proposal that
cannot be completed raises :class:`WorldFailed`, and whoever drew the
proposal draws another.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from mushka.cards import POP13, SUIT_MASKS, card_count, index_list
from mushka.engine.deal import shuffle


class WorldFailed(Exception):
    """A proposed world broke a constraint on the way; the caller draws another."""


def pick_bits(mask: int, k: int, rng: random.Random) -> int:
    """``k`` cards of ``mask`` chosen uniformly (``mask`` must hold at least ``k``)."""
    chosen = 0
    for c in rng.sample(index_list(mask), k):
        chosen |= 1 << c
    return chosen


def max_suit_count(hand: int) -> int:
    """The length of the longest suit of a hand."""
    pop = POP13  # a suit's 13 bits counted by table: no generator, no method lookup
    a = pop[hand & 8191]
    b = pop[hand >> 13 & 8191]
    c = pop[hand >> 26 & 8191]
    d = pop[hand >> 39 & 8191]
    ab = a if a > b else b
    cd = c if c > d else d
    return ab if ab > cd else cd


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
    # The bins' fields and the caps as lists of ints: compiled, indexing a list of ints is
    # direct, indexing a ``Sequence`` of tuples a generic lookup at every step.
    cap0: list[int] = [b[0] for b in bins]
    allow: list[int] = [b[1] for b in bins]
    group: list[int] = [b[2] for b in bins]
    caps0: list[list[int]] = [list(g) for g in caps]
    options: list[list[int]] = []
    for c in cards:
        bit = 1 << c
        options.append([b for b in range(nb) if allow[b] & bit and cap0[b] > 0])
    random_ = rng.random
    for _ in range(tries):
        room = cap0[:]
        left = [g[:] for g in caps0]
        out = [0] * nb
        used = 0
        ok = True
        for where, suit, count in musts:
            # Cards placed for an earlier, narrower demand count here too.
            suit_mask = SUIT_MASKS[suit]
            have = 0
            for b in where:
                have += card_count(out[b] & suit_mask)
            for _ in range(count - have):
                cand = [(b, c) for b in where if room[b] > 0
                        and (group[b] < 0 or left[group[b]][suit] > 0)
                        for c in cards if c // 13 == suit and not used >> c & 1 and allow[b] >> c & 1]
                if not cand:
                    ok = False
                    break
                b, c = rng.choice(cand)
                room[b] -= 1
                if group[b] >= 0:
                    left[group[b]][suit] -= 1
                out[b] |= 1 << c
                used |= 1 << c
            if not ok:
                break
        if not ok:
            continue
        keys = [(len(options[i]), random_(), i) for i in range(len(cards)) if not used >> cards[i] & 1]
        keys.sort()
        for _, _, i in keys:
            c = cards[i]
            suit = c // 13
            total = 0
            eligible = []
            for b in options[i]:
                g = group[b]
                if room[b] > 0 and (g < 0 or left[g][suit] > 0):
                    eligible.append(b)
                    total += room[b]
            if total == 0:
                ok = False
                break
            r = random_() * total
            chosen = eligible[-1]
            for b in eligible:
                r -= room[b]
                if r < 0:
                    chosen = b
                    break
            room[chosen] -= 1
            g = group[chosen]
            if g >= 0:
                left[g][suit] -= 1
            out[chosen] |= 1 << c
        if ok:
            return out
    return None


def deal_deck(dealer: int, n: int, h0: list[int], talon: list[int], rng: random.Random,
              turnup: int = -1) -> list[int]:
    """N4/K5: the stacked deck giving these hands as dealt, the turned card (C5; -1: none) and this talon."""
    eldest = (dealer + 1) % n
    lists = []
    for s in range(n):
        cards = index_list(h0[s])
        if len(cards) != 5:
            raise WorldFailed
        shuffle(rng, cards)  # rng.shuffle's very draws, quicker
        lists.append(cards)
    deck = [lists[(eldest + i) % n][i // n] for i in range(5 * n)]
    if turnup >= 0:
        deck.append(turnup)
    deck.extend(talon)
    return deck


__all__ = ["WorldFailed", "assign", "deal_deck", "max_suit_count", "pick_bits"]
