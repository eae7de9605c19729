"""The declaration choices of a trump deal: pass, the stands with their exchanges, the dealer's takes.

C6-C8: a seat may pass (unless a rule forbids it), stand pat, or stand and
exchange any set of its cards up to what the talon holds (never the
privileged card where MI5 forbids it); the dealer may instead take the
turned-up card for one of his.  Exchanges are subsets of the hand's
positions, listed once per (hand size, limit, banned position) and cached, so
a seat's choices are a lazy sequence that makes an :class:`Action` only when
one is asked for (:class:`~mushka.engine.trump.TrumpDeal` uses it at every
declaration).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

from mushka.cards import card_count
from mushka.engine.actions import TAKES, Action, stand_mask


class DeclareChoices(Sequence[Action]):
    """C6-C8: the declaration choices of one seat, built lazily.

    A hand of five offers up to 32 exchanges; a random player needs only one
    of them, so the length is known at once and the items are made on demand
    (STYLE 3: no per-action churn).  Order: pass (if allowed), every stand
    from pat to the largest exchange, then the dealer's takes.
    """

    __slots__ = ("_banned", "_hand", "_head", "_len", "_limit", "_subs", "_tail", "_takes")

    def __init__(self, head: tuple[Action, ...], hand: int, limit: int, banned: int, takes: bool) -> None:
        self._head = head
        self._hand = hand
        self._limit = limit
        self._banned = banned  # the privileged card's bit if it may not be discarded (MI5)
        self._takes = takes
        size = card_count(hand)
        key = size << 16 | limit << 8 | (banned != 0)
        found = _SUBSET_COUNT.get(key)
        if found is None:
            found = len(exchange_subsets(size, limit, 0 if banned else -1))
            _SUBSET_COUNT[key] = found
        self._len = len(head) + found + ((size - (banned != 0)) if takes else 0)
        self._subs: tuple[int, ...] = ()
        self._tail: tuple[Action, ...] = ()

    def _realise(self) -> None:
        hand = self._hand
        # The banned card's position among the hand's cards, in index order.
        banned = card_count(hand & (self._banned - 1)) if self._banned else -1
        self._subs = exchange_subsets(card_count(hand), self._limit, banned)

    def _takes_tail(self) -> tuple[Action, ...]:
        if not self._tail:
            out = []
            rest = self._hand & ~self._banned
            while rest:
                low = rest & -rest
                out.append(TAKES[low.bit_length() - 1])
                rest ^= low
            self._tail = tuple(out)
        return self._tail

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._len))]
        if index < 0:
            index += self._len
        h = len(self._head)
        if 0 <= index < h:
            return self._head[index]
        if not 0 <= index < self._len:
            raise IndexError(index)
        if not self._subs:
            self._realise()
        index -= h
        if index < len(self._subs):
            return stand_mask(subset_mask(self._hand, self._subs[index]))
        return self._takes_tail()[index - len(self._subs)]

    def __iter__(self) -> Iterator[Action]:
        for i in range(self._len):
            yield self[i]

    def __contains__(self, value: object) -> bool:
        return any(a == value for a in self)


# Keyed by small ints packed from (size, limit, banned): no key tuple is made per lookup.
_SUBSET_COUNT: dict[int, int] = {}
_SUBSET_CACHE: dict[int, tuple[int, ...]] = {}


def subset_mask(hand: int, pos: int) -> int:
    """The cards of ``hand`` picked by the position bits ``pos`` (bit ``i``: the hand's
    ``i``-th card from the lowest index), as a card mask: an exchange of
    :func:`exchange_subsets` made concrete."""
    mask = 0
    rest = hand
    while pos:
        low = rest & -rest
        if pos & 1:
            mask |= low
        rest ^= low
        pos >>= 1
    return mask


def exchange_subsets(size: int, limit: int, banned: int) -> tuple[int, ...]:
    """Position masks of the exchanges allowed: at most ``limit`` cards, never
    position ``banned``; ordered by size, then by position mask."""
    key = size << 16 | limit << 8 | (banned + 1)
    found = _SUBSET_CACHE.get(key)
    if found is None:
        masks = [
            m for m in range(1 << size)
            if m.bit_count() <= limit and not (banned >= 0 and m >> banned & 1)
        ]
        masks.sort(key=lambda m: (m.bit_count(), m))
        found = _SUBSET_CACHE[key] = tuple(masks)
    return found
