"""Rules of thumb for the declarations of classic мушка and мушка-мистигри (C6-C10).

What a hand is worth before trick play and whether to stand with it: a
card's rough chance to take a trick, the best exchange from the talon and
the special hand it may complete (C7-C8, C22, MI9, MI13), what the score sheet
makes the deal's outcomes worth to the player (:class:`Stakes`, from the
records and the partie outlook, C16-C22) and how boldly he declares
(:class:`Style`), and the declaration itself (:func:`trump_declare`).  Like
the card play of :mod:`mushka.bots.policy`, whose per-table :class:`Tables`
they read, these decide from a few integers, for the heuristic bot and for
the search bot's rollouts alike; ``docs/bots.md`` explains them.

Terms: a card's *power* is a rough chance that it takes a trick; *unknown*
cards are those the player has not seen (in other hands, the talon or
discards).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from mushka.bots.policy import Tables, bit_list
from mushka.cards import SUIT_MASKS, card_count
from mushka.rules import FlushMode, LonePlayer, Rules

# --- classic and mistigri: how much a hand is worth ---------------------------------

def card_power(t: Tables, c: int, trump: int, unknown: int, opponents: int) -> float:
    """A rough chance that card ``c`` takes a trick (C12, C15).

    A trump is worth more the fewer unknown trumps rank above it; a plain
    card only when it is top of its suit, and less the more opponents may
    trump it; the privileged card beats every plain card (C11-C12, MI3-MI4).
    """
    if c == t.priv:
        if c // 13 == trump or t.rules.privileged_beats_trumps:
            return 0.97
        return 0.8 if opponents <= 2 else 0.7
    h = card_count(t.higher[c] & unknown)
    if c // 13 == trump:
        return max(0.3, 0.95 - 0.17 * h)
    if h == 0:
        base = 0.6
    elif h == 1:
        base = 0.25
    elif h == 2:
        base = 0.08
    else:
        base = 0.02
    return base * (0.88 ** max(0, opponents - 2))


def average_draw(t: Tables, trump: int, opponents: int) -> float:
    """The power of a card drawn blind from the talon, on average (C7)."""
    key = (trump, opponents)
    found = t.draw_power.get(key)
    if found is None:
        cards = bit_list(t.deck)
        found = sum(card_power(t, c, trump, t.deck & ~(1 << c), opponents) for c in cards) / len(cards)
        t.draw_power[key] = found
    return found


@dataclass(slots=True)
class HandValue:
    """The expected worth of standing with a hand (record points written off)."""

    ev: float
    discard: int
    """The exchange that gives it (a card mask)."""
    tricks: float
    zero: float
    """Rough chance of taking no trick (a ремиз, C18)."""


def stand_value(t: Tables, hand: int, trump: int, unknown: int, opponents: int, talon: int,
                *, limit: int, remiz: float, bonus: float, can_discard_priv: bool,
                flush_value: float, four_value: float, need: int = 2, privileged_suit: bool = False) -> HandValue:
    """The best exchange of ``hand`` and what standing with it is worth (C7-C8, C17-C18, MI6-MI7).

    Cards worth less than an average card drawn are exchanged; a hand that
    is four (or three) cards from a special hand also weighs the chance of
    completing it (C22, MI9, MI13): ``flush_value`` for five of a suit,
    ``four_value`` for four and the privileged card (winning the partie at
    once, or a side payment, as the rules make them).
    """
    cards = bit_list(hand)
    powers = {c: card_power(t, c, trump, unknown, opponents) for c in cards}
    draw = average_draw(t, trump, opponents)
    lone = opponents == 0
    # sorted(cards, key=powers): ``cards`` ascend, so the card breaks ties as the stable
    # sort would, and no closure is called per card (compiled, a call through Python).
    order = [c for _, c in sorted([(powers[c], c) for c in cards])]
    if not can_discard_priv and hand & t.priv_bit:
        order.remove(t.priv)
    best = HandValue(-1e9, 0, 0.0, 1.0)
    limit = min(limit, talon)
    disc = 0
    for k in range(limit + 1):
        if k:
            if k > len(order):
                break
            c = order[k - 1]
            if powers[c] >= draw and k > 0:
                break
            disc |= 1 << c
        kept = [powers[c] for c in cards if not disc >> c & 1]
        tricks = min(5.0, sum(kept) + k * draw)
        zero = 1.0
        for p in kept:
            zero *= 1 - p
        zero *= (1 - draw) ** k
        if lone:
            tricks, zero = 5.0, 0.0
        holds_priv = bool((hand & ~disc) & t.priv_bit)
        ev = tricks - zero * remiz
        if holds_priv and bonus:
            ev += bonus * (1 - zero)
        if ev > best.ev:
            best = HandValue(ev, disc, tricks, zero)
    if flush_value or four_value:
        chase = _chase(t, hand, unknown, limit, can_discard_priv, flush_value, four_value, need, privileged_suit)
        if chase is not None:
            gain, disc = chase
            kept = [powers[c] for c in cards if not disc >> c & 1]
            k = card_count(disc)
            tricks = min(5.0, sum(kept) + k * draw)
            zero = 1.0
            for p in kept:
                zero *= 1 - p
            zero *= (1 - draw) ** k
            ev = tricks - zero * remiz + gain
            if ev > best.ev:
                best = HandValue(ev, disc, tricks, zero)
    return best


def _chase(t: Tables, hand: int, unknown: int, limit: int, can_discard_priv: bool,
           flush_value: float, four_value: float, most: int = 2,
           privileged_suit: bool = False) -> tuple[float, int] | None:
    """The best try for a special hand by exchange, ``most`` cards away at most: (expected gain, discards).

    With ``privileged_suit`` five of the privileged card's suit, that card
    among them, is valued as the мушка it is (C22: five spades with the A♠;
    MI13: five clubs with the K♣), not as a flush.
    """
    u = card_count(unknown)
    best: tuple[float, int] | None = None
    for s in range(4):
        sm = SUIT_MASKS[s]
        suit_cards = hand & sm
        # C22/MI9: five of the suit; MI13 (and C22 as_flush): four and the privileged card.
        for with_priv, value in ((False, flush_value), (True, four_value)):
            if not value:
                continue
            keep = suit_cards | (t.priv_bit & hand if with_priv else 0)
            if with_priv and (not hand & t.priv_bit or (t.priv // 13 == s and not privileged_suit)):
                continue
            need = 5 - card_count(keep)
            if need <= 0 or need > limit or need > most:
                continue
            disc = hand & ~keep
            if not can_discard_priv and disc & t.priv_bit:
                continue
            avail = card_count(unknown & sm)
            p = 1.0
            for i in range(need):
                p *= max(0, avail - i) / max(1, u - i)
            gain = p * value
            if best is None or gain > best[0]:
                best = (gain, disc)
    return best


# --- classic and mistigri: declaring ---------------------------------------------------

@dataclass(frozen=True, slots=True)
class Stakes:
    """What a deal's outcomes are worth to one player, in record points.

    Built from the score sheet (C16-C22): the value of winning the мушка
    at once, of a flush payment, and how eager the player should be.
    """

    flush: float = 0.0
    """C22/MI9: five of a suit: the partie won now (C21: the others' records) or a side payment."""
    four: float = 0.0
    """C22/MI13: four of a suit and the privileged card, worth the same ways."""
    eagerness: float = 0.0
    """Added to a hand's worth before comparing it with passing (a record near zero, a rival near zero)."""
    chase_need: int = 2
    """The most cards an exchange may need to complete a special hand for it to be tried (C22, MI9, MI13)."""
    privileged_suit: bool = False
    """Whether five of the privileged card's own suit, that card among them, is chased at the worth of the
    мушка, as C22 and MI13 count it, rather than at a flush's."""


@dataclass(frozen=True, slots=True)
class Style:
    """How boldly a player of the rules of thumb declares: what the score sheet alone does not say.

    The club level's rules of thumb are :data:`CLUB`; :data:`TUNED` is the
    style found better in self-play against them (docs/bots.md, "The tuned
    rules of thumb").
    """

    eager: float = 0.0
    """Added to :attr:`Stakes.eagerness` (C7: stand more readily)."""
    chase_need: int = 2
    """:attr:`Stakes.chase_need`."""
    privileged_suit: bool = False
    """:attr:`Stakes.privileged_suit`."""


CLUB: Final = Style()
"""The style of the club level (the ``heuristic`` bot): the yardstick of every rating."""

TUNED: Final = Style(eager=0.25, chase_need=3, privileged_suit=True)
"""The style tuned by self-play against the club level (docs/bots.md, "The tuned rules of thumb"):
bolder stands, exchanges three cards away from a special hand, and five of the privileged card's
suit chased as the мушка it is.  Chosen on classic 4 and mistigri 4, checked at every table."""


# (tau, m) of the partie outlook, fitted by maximum likelihood to 300 parties of
# heuristic self-play per table (default options, bench/fit_outlook.py): the chance
# of winning the partie is a softmax of minus the records over tau, mixed with a
# share m in which somebody else wins a мушка first (C22, MI13) whatever the
# records.  Classic was refitted when C22 made five of a suit a side payment.
_OUTLOOK_FIT: Final[dict[tuple[str, int], tuple[float, float]]] = {
    ("classic", 3): (6.0, 0.2), ("classic", 4): (10.0, 0.3), ("classic", 5): (5.0, 0.5),
    ("classic", 6): (6.0, 0.8), ("classic", 7): (10.0, 0.9),
    ("mistigri", 3): (8.0, 0.1), ("mistigri", 4): (6.0, 0.3), ("mistigri", 5): (8.0, 0.2),
    ("mistigri", 6): (8.0, 0.35), ("mistigri", 7): (8.0, 0.5),
}


def outlook_fit(rules: Rules) -> tuple[float, float]:
    """(tau, m) of the partie outlook for ``rules`` (see :func:`win_chances`)."""
    if rules.flush is not FlushMode.WINS_MUSHKA and rules.four_mode is not FlushMode.WINS_MUSHKA:
        return (8.0 if rules.is_mistigri else 5.0, 0.0)  # nothing ends a partie early
    return _OUTLOOK_FIT.get((rules.variant, rules.players), (6.0, 0.5))


def win_chances(records: tuple[int, ...], tau: float, m: float) -> list[float]:
    """Each seat's chance to win the partie from these records (C20-C22).

    A softmax of minus the records over ``tau`` (the lower, the likelier),
    mixed with a share ``m`` of parties that a мушка ends for anybody.
    """
    low = min(records)
    weights = [math.exp(-(r - low) / tau) for r in records]
    total = sum(weights)
    n = len(records)
    return [(1 - m) * w / total + m / n for w in weights]


def stakes_for(rules: Rules, seat: int, records: tuple[int, ...], style: Style = CLUB) -> Stakes:
    """The :class:`Stakes` of ``seat`` at a partie with these records (C16-C22), declaring in ``style``."""
    n = rules.players
    if not records:
        records = (rules.initial_record,) * n
    others = sum(max(r, 0) for s, r in enumerate(records) if s != seat) * rules.stake
    mine = records[seat]
    # C21: winning now turns the seat's expected settlement into the others' records.
    p = win_chances(records, *outlook_fit(rules))[seat]
    expected = p * others - (1 - p) * max(mine, 0) * rules.stake

    def worth(effect: FlushMode) -> float:
        if effect is FlushMode.WINS_MUSHKA:
            return float(others - expected)
        if effect is FlushMode.SIDE_PAYMENT:
            return float(rules.flush_payment * (n - 1))
        return 0.0

    eager = 0.0
    rival = min((r for s, r in enumerate(records) if s != seat), default=mine)
    if mine <= 5:
        eager += 0.6  # a few tricks end the partie with this seat the winner
    if rival <= 3:
        eager += 0.5  # tricks taken from a rival near zero delay his win
    if mine - rival >= 15:
        eager += 0.3  # far behind: only risk can catch up
    return Stakes(worth(rules.flush), worth(rules.four_mode), eager + style.eager, style.chase_need,
                  style.privileged_suit)


def _declare_value(t: Tables, h: int, trump: int, unknown: int, against: int, talon: int, limit: int,
                   bonus: float, stakes: Stakes) -> HandValue:
    """:func:`stand_value` of hand ``h`` for :func:`trump_declare` (its remiz: MI6-MI7 for the holder)."""
    rules = t.rules
    rem = float(rules.effective_privileged_remiz if h & t.priv_bit else rules.remiz)
    return stand_value(t, h, trump, unknown, against, talon, limit=limit, remiz=rem, bonus=bonus,
                       can_discard_priv=rules.can_discard_privileged, flush_value=stakes.flush,
                       four_value=stakes.four, need=stakes.chase_need, privileged_suit=stakes.privileged_suit)


def trump_declare(t: Tables, hand: int, seat: int, dealer: int, trump: int, turnup: int, took: bool,
                  standing_before: int, undeclared_after: int, talon: int, unknown: int,
                  can_pass: bool, can_take: bool, stakes: Stakes) -> tuple[str, int]:
    """C6-C10: ``("pass", 0)``, ``("stand", discards)`` or ``("take", discard)``.

    Standing is worth the expected tricks minus the chance of none times
    the ремиз (C17-C18; MI6-MI7 for the holder of K♣); the exchange throws
    the cards worth less than an average card drawn; the dealer takes the
    turned-up trump when that improves his hand (C6); a player who would be
    the only one standing takes all five tricks (C10) and always stands.
    """
    rules = t.rules
    opponents = standing_before + (undeclared_after + 1) // 2
    lone = standing_before == 0 and undeclared_after == 0 and rules.lone_player is LonePlayer.TAKES_ALL_TRICKS
    bonus = float(rules.privileged_bonus)
    limit = rules.max_exchange

    against = 0 if lone else max(1, opponents)
    best = _declare_value(t, hand, trump, unknown, against, talon, limit, bonus, stakes)
    choice: tuple[str, int] = ("stand", best.discard)
    if can_take and seat == dealer and not took:
        # C6: take the turned card for the weakest one (never the privileged card, MI5).
        options = [c for c in bit_list(hand) if rules.can_discard_privileged or c != t.priv]
        if options:
            # min(options, key=card_power): the first of the weakest.
            weakest = options[0]
            weakest_power = card_power(t, weakest, trump, unknown, max(1, opponents))
            for c in options[1:]:
                power = card_power(t, c, trump, unknown, max(1, opponents))
                if power < weakest_power:
                    weakest, weakest_power = c, power
            after = (hand & ~(1 << weakest)) | 1 << turnup
            with_take = _declare_value(t, after, trump, unknown, against, talon, limit, bonus, stakes)
            if with_take.ev > best.ev + 0.15:
                best = with_take
                choice = ("take", weakest)
    if not can_pass or lone:
        return choice
    if best.ev < 0.25 - stakes.eagerness:
        return ("pass", 0)
    return choice
