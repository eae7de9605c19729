"""Kopilka worlds built backwards from a seat's facts (K6-K16): the one kopilka proposal.

:func:`propose_kopilka` proposes one world for a seat's
:class:`~mushka.worlds.facts.KopilkaFacts`: which played cards came from the
hand at the start and which from kept draws (K11), where the unknown cards
are now (:func:`~mushka.worlds.fill.assign`: hidden places under bans, suit
caps and demands), then the redistribution (K7/K8) undone down to the dealt
hands and the stacked deck (N4).  A proposal that cannot be completed
raises :class:`~mushka.worlds.fill.WorldFailed`; one that is completed is
still proven by the engine (:func:`mushka.worlds.resample.resample_deal`,
:class:`mushka.worlds.sampler.ViewSampler`).
"""

from __future__ import annotations

import random

from mushka.cards import SUIT_MASKS, card_count, index_list
from mushka.engine.actions import Action
from mushka.engine.deal import shuffle
from mushka.engine.views import DealView
from mushka.worlds.facts import KopilkaFacts, Observation, step_actions
from mushka.worlds.fill import WorldFailed, assign, deal_deck, max_suit_count, pick_bits


def propose_kopilka(view: DealView, f: KopilkaFacts, rng: random.Random) -> tuple[list[int], list[int], list[Action]]:
    """A kopilka world for ``view``: the stacked deck, the picks and the actions to replay (K6-K16).

    Raises :class:`WorldFailed` when the proposal cannot be completed.
    """
    rules = view.rules
    n = f.n
    me = f.me
    pool = rules.deck_bits & ~f.seen
    # K7: a card taken from the viewer's group is with one of its takers.
    suits = _block_suits(view, f, rng)
    forced, taken_from_me, kept_since = _owner_links(view, f, suits, rng)
    # Play phase: which played cards came from the hand at the start and
    # which from kept draws (K11), and the bans of the hidden cards left.
    slots_of: list[list[_Slot]] = [[] for _ in range(n)]
    has: list[tuple[int, list[_Slot], int]] = []
    for j in range(n):
        if j != me:
            slots_of[j] = _play_slots(view, f, j, rng, has, taken_from_me)
    bins: list[tuple[int, int, int]] = []
    bin_slots: list[list[_Slot]] = []
    bin_seat: list[int] = []
    seat_bins: list[list[int]] = [[] for _ in range(n)]
    caps: list[list[int]] = []
    dead_capped = [0] * n
    cap_group = _suit_caps(view, f, slots_of, suits, caps, dead_capped)
    for j in range(n):
        if j == me:
            continue
        groups: dict[tuple[bool, int], list[_Slot]] = {}
        for sl in slots_of[j]:
            if sl.alive and sl.card < 0:
                groups.setdefault((sl.draw < 0, sl.ban), []).append(sl)
        for (base, ban), members in groups.items():
            allowed = pool & ~ban
            if not base:
                allowed &= ~taken_from_me  # those never were in the talon
            else:
                seat_bins[j].append(len(bins))
            bins.append((len(members), allowed, cap_group[j] if base else -1))
            bin_slots.append(members)
            bin_seat.append(j)
    # A seat's discards: those made after its check count against its caps, the
    # earlier ones do not (a bin of each kind; _undo_block tells them apart again).
    dead_bins: list[list[int]] = [[] for _ in range(n)]
    for j in range(n):
        if j == me:
            continue
        for count, group in ((dead_capped[j], cap_group[j]), (f.discard_counts[j] - dead_capped[j], -1)):
            if count:
                dead_bins[j].append(len(bins))
                seat_bins[j].append(len(bins))
                bins.append((count, pool, group))
                bin_slots.append([])
                bin_seat.append(j)
    talon_bin = len(bins)
    bins.append((view.talon_size, pool & ~taken_from_me, -1))
    bin_slots.append([])
    bin_seat.append(-1)
    if forced:
        for b in range(len(bins)):
            cap, allowed, group = bins[b]
            for c, seat in forced.items():
                # Among the seat's discards only if it discarded once it had the card.
                late = any(seat == t for bb in f.blocks[kept_since[c][1]:] for t, _, _ in bb.discards)
                if bin_seat[b] != seat or (not bin_slots[b] and (b not in dead_bins[seat] or not late)) or (
                        bin_slots[b] and bin_slots[b][0].draw >= 0):
                    allowed &= ~(1 << c)
            bins[b] = (cap, allowed, group)
    musts: list[tuple[list[int], int, int]] = []
    # K12: a remiz paid for passing shows a card of the led suit then.
    for suit, members, _ in has:
        where = [b for b in range(len(bins)) if any(sl in members for sl in bin_slots[b])]
        musts.append((where, suit, 1))
    # K7: every other taker got a card of the group's suit, the owner kept the rest.
    for (j, suit), count in _group_musts(view, f, slots_of, suits, kept_since, forced).items():
        if count > 0:
            musts.append((seat_bins[j], suit, count))
    musts.sort(key=lambda m: len(m[0]))
    filled = assign(index_list(pool), bins, rng, caps=caps, musts=musts)
    if filled is None:
        raise WorldFailed
    for b in range(len(bins)):
        members = bin_slots[b]
        if members:
            cards = index_list(filled[b])
            shuffle(rng, cards)
            for sl, c in zip(members, cards, strict=True):
                sl.card = c
    # Hands when play began, and the cards drawn during play.
    hands = [0] * n
    draw_cards = [c for _, c, _ in f.draws]
    for j in range(n):
        if j == me:
            hands[j] = f.start_me if f.play_started else _hand_now(view)
            continue
        for sl in slots_of[j]:
            if sl.draw < 0:
                hands[j] |= 1 << sl.card
            else:
                draw_cards[sl.draw] = sl.card
    if any(c < 0 for c in draw_cards):
        raise WorldFailed
    dead_left = [0] * n
    for j in range(n):
        for b in dead_bins[j]:
            dead_left[j] |= filled[b]
    discarded: dict[tuple[int, int], int] = {}
    for j in f.checked_after:
        if max_suit_count(hands[j]) >= 3:
            raise WorldFailed
    picks_rev: list[list[int]] = []
    draws_rev: list[list[int]] = []
    for bi in range(len(f.blocks) - 1, -1, -1):
        picks, drawn = _undo_block(view, f, bi, suits[bi], hands, dead_left, discarded, kept_since, rng)
        picks_rev.append(picks)
        draws_rev.append(drawn)
        for j in f.blocks[bi].checked_before:
            if max_suit_count(hands[j]) >= 3:
                raise WorldFailed
    if hands[me] != f.h0_me:
        raise WorldFailed
    talon: list[int] = []
    for drawn in reversed(draws_rev):
        talon.extend(drawn)
    talon.extend(draw_cards)
    rest = index_list(filled[talon_bin])
    shuffle(rng, rest)
    talon.extend(rest)
    deck = deal_deck(view.dealer, n, hands, talon, rng)
    picks_all: list[int] = []
    for p in reversed(picks_rev):
        picks_all.extend(p)
    return deck, picks_all, step_actions(f.steps, me, discarded=discarded)


def _hand_now(view: DealView) -> int:
    out = 0
    for c in view.hand:
        out |= 1 << c.index
    return out


def _play_slots(view: DealView, f: KopilkaFacts, j: int, rng: random.Random,
                musts: list[tuple[int, list[_Slot], int]], from_me: int) -> list[_Slot]:
    """The cards seat ``j`` has held since play began, as slots (K11)."""
    obs = [o for o in f.observations if o.seat == j]
    slots = [_Slot(-1, -1, -1) for _ in range(f.start_sizes[j])]
    # The kept draws of this seat, in order (its played draws are public cards).
    kept = [i for i, (seat, c, _) in enumerate(f.draws) if seat == j and c < 0]
    kept_no = 0
    consumed: dict[int, _Slot] = {}
    for t, what, c, led in f.timeline[j]:
        if what == "keep":
            slots.append(_Slot(t, led, kept[kept_no]))
            kept_no += 1
        elif what == "play":
            known = [sl for sl in slots if sl.alive and sl.card == c]
            if known:
                sl = known[0]
            else:
                options = [sl for sl in slots if sl.alive and sl.card < 0 and _fits(sl, c, t, obs)
                           and not (sl.draw >= 0 and from_me >> c & 1)]
                if not options:
                    raise WorldFailed
                sl = rng.choice(options)
                sl.card = c
            sl.alive = False
            consumed[c] = sl
        else:  # back: K15, the card returns to the hand it came from
            sl = consumed[c]
            sl.alive = True
    for sl in slots:
        if sl.alive and sl.card < 0:
            ban = 0
            if sl.led >= 0:
                ban |= SUIT_MASKS[sl.led]
            for o in obs:
                if o.time > sl.acq:
                    if o.kind == "lacks":
                        ban |= SUIT_MASKS[o.suit]
                    elif o.kind == "only":
                        ban |= ~SUIT_MASKS[o.suit] & ((1 << 52) - 1)
            sl.ban = ban
    for o in obs:
        if o.kind != "has":
            continue
        held = [sl for sl in slots if sl.acq < o.time]
        if any(sl.card >= 0 and sl.card // 13 == o.suit and _held_at(sl, o.time, f.timeline[j])
               for sl in held):
            continue
        members = [sl for sl in held if sl.alive and sl.card < 0]
        musts.append((o.suit, members, j))
    return slots


def _owner_links(view: DealView, f: KopilkaFacts, suits: list[int],
                 rng: random.Random) -> tuple[dict[int, int], int, dict[int, tuple[int, int]]]:
    """K7: each card taken from the viewer's group went to a different taker.

    Returns the taker chosen for each such card not played yet, the mask of
    all cards taken from the viewer, and for each such card whose taker
    never lays down a group of its suit later, that taker and the group it
    was taken in: the taker holds it from then on until he discards or
    plays it, so no later group's undoing may hand it back to an owner.
    """
    forced: dict[int, int] = {}
    kept_since: dict[int, tuple[int, int]] = {}
    taken_all = 0
    played_by: dict[int, int] = {}
    for j in range(f.n):
        for _, what, c, _ in f.timeline[j]:
            if what == "play":
                played_by[c] = j
    for bi, b in enumerate(f.blocks):
        if b.owner != f.me or b.taken < 0:
            continue
        taken_all |= b.taken
        # A taker who later lays down a group of this suit may pass the card on.
        suit = index_list(b.taken)[0] // 13
        later_owners = {bb.owner for bb, s in zip(f.blocks[bi + 1:], suits[bi + 1:], strict=True)
                        if s in (suit, -1)}
        free_takers = list(b.takers)
        loose = []
        for c in index_list(b.taken):
            if c in played_by and played_by[c] in free_takers and played_by[c] not in later_owners:
                free_takers.remove(played_by[c])
                kept_since[c] = (played_by[c], bi)
            elif c not in played_by:
                loose.append(c)
        shuffle(rng, free_takers)
        for c, seat in zip(loose, free_takers, strict=False):
            if seat not in later_owners:
                forced[c] = seat
                kept_since[c] = (seat, bi)
    return forced, taken_all, kept_since


def _block_suits(view: DealView, f: KopilkaFacts, rng: random.Random) -> list[int]:
    """The suit of each group (K7): known to its owner and takers, else a guess."""
    pool = view.rules.deck_bits & ~f.seen
    out = []
    for b in f.blocks:
        if b.owner == f.me:
            out.append(index_list(b.taken)[0] // 13 if b.taken > 0 else -1)
        elif b.my_pick >= 0:
            out.append(b.my_pick // 13)
        else:
            seats = [b.owner, *b.takers]
            feasible = []
            for s in range(4):
                sm = SUIT_MASKS[s]
                could = card_count(pool & sm)
                for t in seats:
                    could += card_count(f.played_by_seat[t] & sm)
                if could >= b.count:
                    feasible.append(s)
            if not feasible:
                raise WorldFailed
            out.append(rng.choice(feasible))
    return out


def _suit_caps(view: DealView, f: KopilkaFacts, slots_of: list[list[_Slot]], suits: list[int],
               caps: list[list[int]], dead_capped: list[int]) -> list[int]:
    """K7: a seat checked without a group held at most two cards of a suit then.

    Each later group it took a card from added one card of that group's
    suit (of any suit while the suit is not known); the caps apply to the
    cards it held when play began and to the cards it discarded in those
    later groups, which were in its hand at the check too
    (``dead_capped[j]`` is how many they are).  Without the discards a
    proposal often gives the seat three of a suit it would have held at the
    check, and in some deals only a few proposals in a thousand survived
    the undoing.
    """
    group = [-1] * f.n
    later: list[tuple[int, int]] = []
    for bi, b in enumerate(f.blocks):
        for j in b.checked_before:
            later.append((j, bi))
    for j in f.checked_after:
        later.append((j, len(f.blocks)))
    for j, bi in later:
        if j == f.me:
            continue
        cap = [2] * 4
        for b, suit in zip(f.blocks[bi:], suits[bi:], strict=True):
            if j in b.takers:
                for s in range(4) if suit < 0 else (suit,):
                    cap[s] += 1
        dead_capped[j] = sum(1 for b in f.blocks[bi:] for seat, _, _ in b.discards if seat == j)
        for sl in slots_of[j]:
            if sl.draw < 0 and sl.card >= 0:
                cap[sl.card // 13] -= 1
        if min(cap) < 0:
            raise WorldFailed
        group[j] = len(caps)
        caps.append(cap)
    return group


def _group_musts(view: DealView, f: KopilkaFacts, slots_of: list[list[_Slot]], suits: list[int],
                 kept_since: dict[int, tuple[int, int]], forced: dict[int, int]) -> dict[tuple[int, int], int]:
    """K7: the cards of each group's suit its takers and its owner must still account for.

    A card the viewer's group gave a taker who keeps it (``kept_since``) is
    not the card he took from another group: a known one does not count
    towards the demand, and one placed by ``forced`` comes on top of it.
    """
    need: dict[tuple[int, int], int] = {}
    for bi, (b, suit) in enumerate(zip(f.blocks, suits, strict=True)):
        if b.owner == f.me or suit < 0:
            continue
        # A taker who lays down a group of this suit later may pass the card on.
        later_owners = {bb.owner for bb, s in zip(f.blocks[bi + 1:], suits[bi + 1:], strict=True) if s in (suit, -1)}
        for t in b.takers:
            if t != f.me and t not in later_owners:
                need[t, suit] = need.get((t, suit), 0) + 1
        need[b.owner, suit] = need.get((b.owner, suit), 0) + b.returned
    for (j, suit) in list(need):
        for sl in slots_of[j]:
            if sl.draw < 0 and sl.card >= 0 and sl.card // 13 == suit and sl.card not in kept_since:
                need[j, suit] -= 1
        if need[j, suit] > 0:
            need[j, suit] += sum(1 for c, seat in forced.items() if seat == j and c // 13 == suit)
    return need


def _cap_at(view: DealView, f: KopilkaFacts, t: int, bi: int) -> int:
    """K7: the most cards of a suit seat ``t`` may hold just before group ``bi``, or -1 if free.

    A seat checked without a group held at most two of a suit; each
    group between its check and this one may have given it one more.
    """
    for cb, bb in enumerate(f.blocks):
        if t in bb.checked_before:
            if cb > bi:
                return -1
            return 2 + sum(1 for x in f.blocks[cb:bi] if t in x.takers)
    return -1


def _undo_block(view: DealView, f: KopilkaFacts, bi: int, suit: int, hands: list[int], dead_left: list[int],
                discarded: dict[tuple[int, int], int], kept_since: dict[int, tuple[int, int]],
                rng: random.Random) -> tuple[list[int], list[int]]:
    """Undo one redistribution (K7/K8) on ``hands``; return its picks and the owner's draws.

    For each taker the card he discarded here (one of his dead cards not
    given to a later discard) and the card he took (one of the viewer's,
    or one of the group's suit) are chosen together, so that a seat
    checked without a group stays within what the caps allow then.
    """
    me = f.me
    b = f.blocks[bi]
    disc_of = {seat: (card, ref) for seat, card, ref in b.discards}
    taken = b.taken if b.owner == me else -1
    choice: dict[int, tuple[int, int]] = {}
    for t in b.takers:
        if t == me:
            y = disc_of[t][0] if t in disc_of else -1
            choice[t] = (y, b.my_pick)
            continue
        # A card the viewer's group gave this taker earlier stays with him (K7): it
        # is not what he takes here; one it gives him later is not his to discard yet.
        kept = later = 0
        for c, (holder, since) in kept_since.items():
            if holder == t:
                if since < bi:
                    kept |= 1 << c
                elif since > bi:
                    later |= 1 << c
        ys = index_list(dead_left[t] & ~later) if t in disc_of else [-1]
        bound = _cap_at(view, f, t, bi)
        pairs = []
        for y in ys:
            hand = hands[t] | (1 << y if y >= 0 else 0)
            pool = (hand & taken if taken >= 0 else hand & SUIT_MASKS[suit]) & ~kept
            for z in index_list(pool):
                if bound < 0 or max_suit_count(hand & ~(1 << z)) <= bound:
                    pairs.append((y, z))
        if not pairs:
            raise WorldFailed
        y, z = rng.choice(pairs)
        if taken >= 0:
            taken &= ~(1 << z)
        choice[t] = (y, z)
    for t, (y, _) in choice.items():
        if y >= 0:
            hands[t] |= 1 << y
            if t != me:
                dead_left[t] &= ~(1 << y)
                discarded[t, disc_of[t][1]] = y
    o = b.owner
    takers = b.takers
    if o == me:
        drawn = b.drawn
    else:
        sm = SUIT_MASKS[suit]
        extra = card_count(hands[o] & sm) - b.returned
        if extra < 0 or extra > b.drawn_count or card_count(hands[o] & ~sm) < b.drawn_count - extra:
            raise WorldFailed
        drawn = pick_bits(hands[o] & sm, extra, rng) | pick_bits(hands[o] & ~sm, b.drawn_count - extra, rng)
    hands[o] &= ~drawn
    picks = []
    for t in takers:
        z = choice[t][1]
        if not hands[t] >> z & 1:
            raise WorldFailed
        hands[t] &= ~(1 << z)
        hands[o] |= 1 << z
        picks.append(z)
    if suit >= 0 and card_count(hands[o] & SUIT_MASKS[suit]) != b.count:
        raise WorldFailed
    drawn_list = index_list(drawn)
    shuffle(rng, drawn_list)
    return picks, drawn_list


class _Slot:
    """One card a kopilka seat has held since play began (K11)."""

    __slots__ = ("acq", "alive", "ban", "card", "draw", "led")

    def __init__(self, acq: int, led: int, draw: int) -> None:
        self.acq = acq
        """When it came into the hand: -1 at the start of play, else the time of the draw."""
        self.led = led
        """The led suit when it was drawn (it is not of that suit), -1 for a starting card."""
        self.draw = draw
        """Its place among the draws of the play, -1 for a starting card."""
        self.card = -1
        self.alive = True
        self.ban = 0


def _fits(sl: _Slot, card: int, t: int, obs: list[Observation]) -> bool:
    """Whether ``card`` played at time ``t`` can be the card of slot ``sl``."""
    suit = card // 13
    if sl.led == suit:
        return False
    for o in obs:
        if sl.acq < o.time < t:
            if o.kind == "lacks" and o.suit == suit:
                return False
            if o.kind == "only" and o.suit != suit:
                return False
    return True


def _held_at(sl: _Slot, time: int, timeline: list[tuple[int, str, int, int]]) -> bool:
    """Whether the known card of ``sl`` was in the hand at ``time``.

    It was not while it lay on the table: from its play to its take-back
    (K15), or from its last play on.
    """
    out = 0
    for t, what, c, _ in timeline:
        if c != sl.card:
            continue
        if what == "play":
            out = t
        elif what == "back" and out and out < time < t:
            return False
        elif what == "back":
            out = 0
    return not (out and out < time)


__all__ = ["propose_kopilka"]
