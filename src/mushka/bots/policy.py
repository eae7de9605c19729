"""Rules of thumb on card masks: the heuristic bot's judgement, fast enough for rollouts.

Every function here decides one action from a few integers (a hand as a
card mask, the cards on the table, the cards the player has not seen) so
that the same judgement serves two masters: the heuristic bot, which reads
them from its view, and the search bot's rollouts, which read them from a
sampled deal many thousand times a second.  The rules themselves are
explained in ``docs/bots.md``; the comments below give the rule ids.

Here are the per-table :class:`Tables` they all look up and the card play:
trick play in classic and mistigri, leads, follows and discards in kopilka.
The declarations of classic and mistigri (what a hand is worth, the stakes
of the score sheet, whether to stand) are :mod:`mushka.bots.declaring`.

Terms: *unknown* cards are those the player has not seen (in other hands,
the talon or discards); a card is *top* when no unknown card of its suit
ranks above it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from mushka.cards import SUIT_MASKS, card_count, index_list
from mushka.engine.trump_cards import key_tables
from mushka.rules import Rules

bit_list = index_list
"""Card indices of a mask, low to high (the core's :func:`mushka.cards.index_list`)."""


@dataclass(frozen=True, slots=True)
class Tables:
    """Per-table constants the rules of thumb look up (built once per :class:`Rules`)."""

    rules: Rules
    strength: tuple[int, ...]
    """Trick strength of each card within its suit (C3, MI2, K2); -1 outside the deck."""
    higher: tuple[int, ...]
    """Mask of the cards of the same suit that rank above each card."""
    lower: tuple[int, ...]
    priv: int
    priv_bit: int
    deck: int
    keys: tuple[tuple[tuple[int, ...], ...], ...]
    """C12/C15 trick keys per trump suit and led suit (trump variants); higher wins."""
    beaters: tuple[tuple[tuple[int, ...], ...], ...]
    """Per trump suit and led suit, the mask of the cards that beat each card (C12, C15)."""
    draw_power: dict[tuple[int, int], float]
    """Average power of a card drawn blind, per (trump, opponents); filled on demand."""


_TABLES: dict[Rules, Tables] = {}


def tables(rules: Rules) -> Tables:
    """The :class:`Tables` of ``rules`` (cached)."""
    found = _TABLES.get(rules)
    if found is not None:
        return found
    strength = rules.strength
    higher = []
    lower = []
    for c in range(52):
        s = c // 13
        h = lo = 0
        if strength[c] >= 0:
            for d in range(s * 13, s * 13 + 13):
                if strength[d] > strength[c]:
                    h |= 1 << d
                elif 0 <= strength[d] < strength[c]:
                    lo |= 1 << d
        higher.append(h)
        lower.append(lo)
    priv = rules.privileged.index
    keys = []
    beaters = []
    if rules.has_trumps:
        for trump in range(4):
            per_lead = []
            beat_lead = []
            # The engine's own trick keys (C12, C15, MI4): the bots rank cards as the deal does.
            for k in key_tables(strength, trump, priv, rules.privileged_beats_trumps):
                per_lead.append(k)
                masks = []
                for c in range(52):
                    m = 0
                    for d in range(52):
                        if k[d] > k[c] and strength[d] >= 0:
                            m |= 1 << d
                    masks.append(m)
                beat_lead.append(tuple(masks))
            keys.append(tuple(per_lead))
            beaters.append(tuple(beat_lead))
    t = Tables(rules, strength, tuple(higher), tuple(lower), priv, 1 << priv, rules.deck_bits, tuple(keys),
               tuple(beaters), {})
    _TABLES[rules] = t
    return t


# --- classic and mistigri: trick play ------------------------------------------------

def trump_play(t: Tables, trump: int, hand: int, legal: int, trick: list[int], unknown: int,
               after: int, need_trick: bool) -> int:
    """The card to play to a trick (C13-C15); ``trick`` lists the cards on it in order.

    ``after`` is how many players are still to play to this trick;
    ``need_trick`` says the player has no trick yet (a ремиз looms, C18/MI6).
    """
    if not trick:
        return _trump_lead(t, trump, legal, unknown, need_trick)
    keys = t.keys[trump][trick[0] // 13]
    best = -1  # max(keys[c] for c in trick), without a generator (the trick is never empty here)
    for c in trick:
        best = max(best, keys[c])
    cards = bit_list(legal)
    winners = [c for c in cards if keys[c] > best]
    if winners:
        # Sorted by key; ``winners`` ascend, so the card breaks ties as the stable sort would.
        winners = [c for _, c in sorted([(keys[c], c) for c in winners])]
        if after == 0:
            return winners[0]
        beat = t.beaters[trump][trick[0] // 13]
        safe = [c for c in winners if not beat[c] & unknown]
        if safe:
            return safe[0]
        if need_trick:
            # Without a trick, the strongest try beats keeping cards for later.
            plain = [c for c in winners if c != t.priv]
            if t.priv in winners and not (unknown & SUIT_MASKS[trump]):
                return t.priv
            return plain[-1] if plain else winners[-1]
        trumps = [c for c in winners if c // 13 == trump and trick[0] // 13 != trump]
        if trumps:
            # A cheap ruff is usually worth it: few hold both the suit's void and a higher trump.
            return trumps[0]
    # min(cards, key=_keep_value): the first of the cheapest to keep.
    cheapest = cards[0]
    cheapest_value = _keep_value(t, cheapest, trump, unknown)
    for c in cards[1:]:
        v = _keep_value(t, c, trump, unknown)
        if v < cheapest_value:
            cheapest, cheapest_value = c, v
    return cheapest


def _keep_value(t: Tables, c: int, trump: int, unknown: int) -> float:
    """How much a card is worth keeping for later tricks (the cheapest is thrown)."""
    if c == t.priv:
        return 10.0
    h = card_count(t.higher[c] & unknown)
    base = 5.0 if c // 13 == trump else 0.0
    return base + t.strength[c] * 0.1 - h * 0.3


def _trump_lead(t: Tables, trump: int, legal: int, unknown: int, need_trick: bool) -> int:
    cards = bit_list(legal)
    unknown_trumps = unknown & SUIT_MASKS[trump]
    sure = []
    good = []
    for c in cards:
        s = c // 13
        top = not (t.higher[c] & unknown)
        if c == t.priv:
            if s == trump or t.rules.privileged_beats_trumps or not unknown_trumps:
                sure.append(c)
            continue
        if s == trump:
            if top and not (t.rules.privileged_beats_trumps and unknown & t.priv_bit):
                sure.append(c)
        elif top:
            if not unknown_trumps and not unknown & t.priv_bit:
                sure.append(c)
            else:
                good.append(c)
    if sure:
        # C15: a sure winner keeps the lead; trumps first, to draw the others' trumps.
        # The least of (not a trump, strength); ``sure`` ascends, so the card breaks ties.
        return min([(c // 13 != trump, t.strength[c], c) for c in sure])[2]
    if good and (need_trick or len(cards) >= 3):
        # A top plain card wins unless someone is void and trumps it.
        return min([(-card_count(unknown & SUIT_MASKS[c // 13]), c) for c in good])[1]
    # Otherwise lead low from the shortest plain suit (to be able to ruff later).
    plain = [c for c in cards if c // 13 != trump and c != t.priv]
    if plain:
        counts = [card_count(legal & SUIT_MASKS[s]) for s in range(4)]
        return min([(counts[c // 13], t.strength[c], c) for c in plain])[2]
    others = [c for c in cards if c != t.priv] or cards
    return min([(t.strength[c], c) for c in others])[1]


# --- kopilka ------------------------------------------------------------------------

KOPILKA_PRIV_KEY: Final = 1000


def kopilka_lead(t: Tables, legal: int, hand: int, unknown: int, values: tuple[int, ...]) -> int:
    """The card to lead (K10, K16).

    A top card of a suit others still hold wins the trick and the lead
    again, best in the dearest suit (K20); else the lowest card of the suit
    most likely to be followed, so that the trick counts (K14, K15) and a
    card is shed.
    """
    cards = bit_list(legal)
    priv_out = bool(unknown & t.priv_bit)
    best_top = -1
    best_key = -1
    for c in cards:
        if c == t.priv:
            continue
        s = c // 13
        others = card_count(unknown & SUIT_MASKS[s] & ~t.priv_bit)
        if not others:
            continue
        if not (t.higher[c] & unknown) and not priv_out:
            key = values[s] * 10 + others
            if key > best_key:
                best_key, best_top = key, c
    if best_top >= 0:
        return best_top
    plain = [c for c in cards if c != t.priv]
    if not plain:
        return cards[0]

    def shed(c: int) -> tuple[int, int]:
        s = c // 13
        return (-card_count(unknown & SUIT_MASKS[s]), t.strength[c])

    return min(plain, key=shed)


def kopilka_follow(t: Tables, hand: int, lead_card: int, trick: list[int], unknown: int, values: tuple[int, ...],
                   after: int, my_tricks: int, talon: int, can_draw: bool, racing: bool) -> str | int:
    """What to do on another's lead (K11-K13): a card index, ``"draw"`` or ``"pass"``."""
    lead = lead_card // 13
    suit = SUIT_MASKS[lead]
    mine = hand & suit & ~t.priv_bit
    has_priv = bool(hand & t.priv_bit)
    # Loops rather than any()/max() over generators: compiled, a generator is an object
    # made and driven at every call, and this runs at every step of a kopilka playout.
    priv = t.priv
    strength = t.strength
    priv_played = False
    best = -1
    for c in trick:
        if c == priv:
            priv_played = True
        if c // 13 == lead and strength[c] > best:
            best = strength[c]
    value = values[lead]
    if priv_played:
        best = KOPILKA_PRIV_KEY
    if mine:
        cards = bit_list(mine)
        winners = [c for c in cards if t.strength[c] > best]
        if winners:
            if after == 0:
                return winners[0]
            tops = [c for c in winners if not (t.higher[c] & unknown) and not unknown & t.priv_bit]
            if tops:
                return tops[0]
            if value >= 3 or my_tricks == 0:
                return winners[-1]
        if has_priv and not priv_played and (value >= 3 or my_tricks == 0) and (after == 0 or value >= 3):
            # K9/K21: the A♠ takes a dear trick and doubles it.
            return t.priv
        return cards[0]
    if has_priv and not priv_played and (value >= 2 or my_tricks == 0 or hand == t.priv_bit):
        return t.priv
    if has_priv and lead == t.priv // 13:
        return t.priv
    if can_draw and talon and not priv_played and not racing:
        # K11: a drawn card of the led suit is played at once and may win.
        left = card_count(unknown & suit)
        u = card_count(unknown)
        if u and my_tricks == 0 and left / u >= 0.25:
            return "draw"
    return "pass"


def kopilka_discard(t: Tables, hand: int, values: tuple[int, ...]) -> int:
    """K7 step 5: the card to give up after taking one: the cheapest to keep."""
    # min(cards, key=...) as a loop (the first of the cheapest, as min gives): compiled,
    # a closure called per card costs more than the arithmetic.
    best = -1
    best_keep = 0.0
    for c in bit_list(hand):
        if c == t.priv:
            keep = 100.0
        else:
            s = c // 13
            keep = t.strength[c] + 2.0 * values[s] - 0.5 * card_count(hand & SUIT_MASKS[s])
        if best < 0 or keep < best_keep:
            best = c
            best_keep = keep
    return best
