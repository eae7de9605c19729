"""Chance at the deal: shuffling the deck, random orders, and reading a stacked deck (N4).

A deal's deck is shuffled from a seeded :class:`random.Random` or stacked by
the caller; both must give the same deck for the same seed as they always did
(records, golden files and published figures depend on it), so the shuffles
here draw exactly what the library's own methods draw, only quicker.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from mushka.cards import CARDS, Card, cards_of, parse_card
from mushka.errors import ChanceError, ParseError
from mushka.rules.model import Rules


def seeded(rng: object) -> random.Random | None:
    """``rng`` as a generator: a :class:`random.Random` as it is, a whole-number seed made
    into one, ``None`` left to the caller.  Anything else is refused with a named error
    (N4: the deck's order comes from this generator), never drawn from or hashed as a seed."""
    if rng is None or isinstance(rng, random.Random):
        return rng
    if type(rng) is not int:
        raise ChanceError("bad_rng", rule="N4", value=repr(rng)[:40], kind=type(rng).__name__)
    return random.Random(rng)


def shuffle(rng: random.Random, items: list[int]) -> None:
    """``rng.shuffle(items)``: the same draws from ``rng`` in the same order, so
    the same deck for the same seed, without the Python frames of
    :meth:`random.Random.shuffle` (compiled, the loop runs in C).

    A subclass of :class:`random.Random` may draw differently (its own
    ``random``/``getrandbits``): it shuffles with its own method.
    """
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    # random.Random.shuffle with _randbelow_with_getrandbits inlined (CPython 3.11+);
    # tests/rules/test_notation.py checks it against the library for many seeds.
    # ``getrandbits(k)`` for k <= 32 is the top k bits of the generator's next 32-bit
    # word, and ``getrandbits(32 * m)`` is its next m words, little-endian: the words
    # are drawn m at a time, m never more than the draws still due (each swap takes
    # at least one), so the generator ends in the very state the library leaves it.
    size = len(items)
    if size > 128:
        getrandbits = rng.getrandbits
        for i in range(size - 1, 0, -1):
            n = i + 1
            k = n.bit_length()
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            items[i], items[j] = items[j], items[i]
        return
    words = b""
    pos = end = 0
    for i in range(size - 1, 0, -1):
        n = i + 1
        shift = 8 - n.bit_length()  # n <= 128: the draw is within the word's top byte
        while True:
            if pos == end:
                words = rng.getrandbits(32 * i).to_bytes(4 * i, "little")
                pos = 3
                end = 4 * i + 3
            j = words[pos] >> shift
            pos += 4
            if j < n:
                break
        items[i], items[j] = items[j], items[i]


def sample_order(rng: random.Random, n: int) -> list[int]:
    """``rng.sample(range(n), n)`` (a uniform order of ``0..n-1``): the same draws in
    the same order as the library's, without its Python frames, for ``n`` up to 52
    (a deck); a subclass of :class:`random.Random` samples with its own method."""
    if type(rng) is not random.Random or not 0 <= n <= 52:
        return rng.sample(range(n), n)
    # random.Random.sample's pool path (taken for k = n <= 52) with _randbelow inlined;
    # tests/rules/test_notation.py checks it against the library for many seeds.
    getrandbits = rng.getrandbits
    pool = list(range(n))
    result = [0] * n
    for i in range(n):
        m = n - i
        k = m.bit_length()
        j = getrandbits(k)
        while j >= m:
            j = getrandbits(k)
        result[i] = pool[j]
        pool[j] = pool[m - 1]
    return result


def card_index(card: object) -> int:
    """The index of a card given as a card, an index or a code (N2), as :class:`Card` reads
    them; a named error otherwise.  ``object``: a stacked deck or a pick from outside may hold
    anything, which a narrower annotation would refuse, compiled, with a bare TypeError."""
    if type(card) is int:  # the common case first (decks of indices); bools go on below
        if 0 <= card < 52:
            return card
        raise ParseError("bad_card", rule="N2", text=str(card))
    if isinstance(card, Card):
        return card.index
    if isinstance(card, int):  # an int of a subclass (a bool, as Card reads it)
        if 0 <= card < 52:
            return card
        raise ParseError("bad_card", rule="N2", text=str(card))
    return parse_card(card).index  # text is read; anything else is refused naming N2


def check_picks(picks: object) -> tuple[int, ...]:
    """K7: the forced picks of kopilka as card indices, in order: cards, codes or indices, or
    one space-separated string (``None`` or nothing: no pick is forced).  A named error for
    anything else, never a bare ``TypeError``."""
    if picks is None:
        return ()
    items = _listed(picks, "bad_picks_type", "K7")
    return tuple(card_index(p) for p in items) if items else ()


def _listed(given: object, key: str, rule: str) -> Sequence[object]:
    """The cards of a stacked deck or of forced picks as given: a sequence as it is, one
    string split at its spaces (a string is a sequence too, and must not be read letter by
    letter); anything else is the named error ``key`` under ``rule``."""
    if isinstance(given, str):
        return given.split()
    if isinstance(given, (list, tuple, Sequence)):
        return given
    raise ChanceError(key, rule=rule, value=repr(given)[:40], kind=type(given).__name__)


def check_deck(rules: Rules, deck: object) -> tuple[int, ...]:
    """N4: a stacked deck as card indices, top first; it must hold every card of the
    table's deck exactly once (:class:`ChanceError` naming what is wrong otherwise): cards,
    codes or indices, or one space-separated string."""
    items = _listed(deck, "bad_deck_type", "N4")
    # Card indices (what the steps of a deal hand over, one deal after another) need no reading.
    order = tuple(c if type(c) is int and 0 <= c < 52 else card_index(c) for c in items)
    seen = 0
    for i in order:
        bit = 1 << i
        if seen & bit:
            raise ChanceError("bad_deck", rule="N4", size=rules.deck_size,
                              problem=f"{CARDS[i].code} appears twice")
        seen |= bit
    if seen != rules.deck_bits:
        missing = cards_of(rules.deck_bits & ~seen)
        extra = cards_of(seen & ~rules.deck_bits)
        parts = []
        if missing:
            parts.append("missing " + " ".join(c.code for c in missing))
        if extra:
            parts.append("not in this deck " + " ".join(c.code for c in extra))
        raise ChanceError("bad_deck", rule="N4", size=rules.deck_size, problem="; ".join(parts))
    return order
