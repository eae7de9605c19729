"""What the cards of a trump deal are worth: the trick keys (C12, C15, MI4) and the special hands (C22, MI9-MI13).

Pure functions of the rules and card masks, computed once per trump suit
(the keys, cached in the rules) or once per hand that changed (a special
hand), for :class:`mushka.engine.trump.TrumpDeal`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mushka.cards import CARDS, SUIT_MASKS, indices
from mushka.rules.choices import FlushMode
from mushka.rules.model import Rules

if TYPE_CHECKING:
    # Compiled, locals annotated ``i64`` are machine integers (see engine/steps.py).
    from mypy_extensions import i64


def special_hand(rules: Rules, hand: int, priv_bit: int) -> tuple[FlushMode, str, int, int] | None:
    """The special hand ``hand`` is, if any: (effect, kind, suit, card points).

    ``kind`` is ``"privileged_four"`` (MI13: four of a suit and the privileged
    card as the fifth, including five of its own suit) or ``"flush"`` (C22/MI9:
    five of a suit); ``effect`` is what the rules make of it (:attr:`FlushMode.NONE`: nothing,
    and then ``None`` is returned).  Suit and points order competing hands
    (MI10, MI11).
    """
    # Quick exit: a special hand has at least four cards of one suit, that is a suit with
    # cards left once its three lowest are cleared (bit arithmetic: no table read from memory).
    a: i64 = hand & 0x1FFF
    b: i64 = hand >> 13 & 0x1FFF
    c: i64 = hand >> 26 & 0x1FFF
    d: i64 = hand >> 39
    a &= a - 1
    b &= b - 1
    c &= c - 1
    d &= d - 1
    a &= a - 1
    b &= b - 1
    c &= c - 1
    d &= d - 1
    if not (a & (a - 1) or b & (b - 1) or c & (c - 1) or d & (d - 1)):
        return None
    kind = ""
    suit = -1
    if hand & priv_bit:
        rest = hand ^ priv_bit
        for s in range(4):
            if rest & ~SUIT_MASKS[s] == 0:
                # MI13: four of a suit and the privileged card as the fifth,
                # including five of the privileged card's own suit.
                kind, suit = "privileged_four", s
                break
    if not kind:
        for s in range(4):
            if hand & ~SUIT_MASKS[s] == 0:
                kind, suit = "flush", s
                break
    if not kind:
        return None
    effect = rules.four_mode if kind == "privileged_four" else rules.flush
    if effect is FlushMode.NONE:
        return None
    points = sum(CARDS[i].rank.points for i in indices(hand))
    return effect, kind, suit, points


def key_tables(strength: tuple[int, ...], trump: int, priv: int,
               beats_trumps: bool) -> tuple[tuple[int, ...], ...]:
    """C12/C15/MI4: the trick key of every card, one table per led suit.

    A card of the led suit is 100 + rank, another plain card 0, a trump
    200 + rank; the privileged card is 150 (above every led-suit card, below
    every trump), 400 with ``privileged_beats_trumps``, and simply the top
    trump (300) when its own suit is trumps.  The highest key wins (C15).
    """
    tables = []
    for lead in range(4):
        keys = [0] * 52
        for c in range(52):
            if strength[c] < 0:
                continue
            if c // 13 == trump:
                keys[c] = 200 + strength[c]
            elif c // 13 == lead:
                keys[c] = 100 + strength[c]
        if priv // 13 == trump:
            keys[priv] = 300
        else:
            keys[priv] = 400 if beats_trumps else 150
        tables.append(tuple(keys))
    return tuple(tables)
