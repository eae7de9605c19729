"""Kopilka worlds built backwards from a seat's facts (K6-K16), shared by the resampler and the search bots.

:func:`propose_kopilka` proposes one world for a seat's
:class:`~mushka.engine.resample_kopilka.KopilkaFacts`: which played cards
came from the hand at the start and which from kept draws (K11), where the
unknown cards are now (:func:`assign`: hidden places under bans, suit caps
and demands), then the redistribution (K7/K8) undone down to the dealt hands
and the stacked deck (N4).  A proposal that cannot be completed raises
:class:`WorldFailed`; one that is completed is still proven by the engine
(:func:`mushka.engine.resample_kopilka.resample_kopilka`,
:class:`mushka.bots.sampler.WorldSampler`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from mushka.cards import POP13, SUIT_MASKS, card_count, index_list
from mushka.engine.actions import DISCARDS, DRAW, PASS, PLAYS, Action
from mushka.engine.deal import shuffle
from mushka.engine.views import DealView

if TYPE_CHECKING:
    from mushka.engine.resample_kopilka import KopilkaFacts, Observation


class WorldFailed(Exception):
    """A proposal broke a constraint on the way; the caller draws another."""


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


def deal_deck(dealer: int, n: int, h0: list[int], talon: list[int], rng: random.Random) -> list[int]:
    """N4/K5: the stacked deck giving these hands as dealt and this talon (top first)."""
    eldest = (dealer + 1) % n
    lists = []
    for s in range(n):
        cards = index_list(h0[s])
        if len(cards) != 5:
            raise WorldFailed
        shuffle(rng, cards)  # rng.shuffle's very draws, quicker
        lists.append(cards)
    deck = [lists[(eldest + i) % n][i // n] for i in range(5 * n)]
    deck.extend(talon)
    return deck


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
    forced, taken_from_me = _owner_links(view, f, suits, rng)
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
    cap_group = _suit_caps(view, f, slots_of, caps)
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
    dead_bin = [-1] * n
    for j in range(n):
        if j != me and f.discard_counts[j]:
            dead_bin[j] = len(bins)
            seat_bins[j].append(len(bins))
            bins.append((f.discard_counts[j], pool, -1))
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
                if bin_seat[b] != seat or (not bin_slots[b] and b != dead_bin[seat]) or (
                        bin_slots[b] and bin_slots[b][0].draw >= 0):
                    allowed &= ~(1 << c)
            bins[b] = (cap, allowed, group)
    musts: list[tuple[list[int], int, int]] = []
    # K12: a remiz paid for passing shows a card of the led suit then.
    for suit, members, _ in has:
        where = [b for b in range(len(bins)) if any(sl in members for sl in bin_slots[b])]
        musts.append((where, suit, 1))
    # K7: every other taker got a card of the group's suit, the owner kept the rest.
    for (j, suit), count in _group_musts(view, f, slots_of, suits).items():
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
    dead_left = [filled[dead_bin[j]] if dead_bin[j] >= 0 else 0 for j in range(n)]
    discarded: dict[tuple[int, int], int] = {}
    for j in f.checked_after:
        if max_suit_count(hands[j]) >= 3:
            raise WorldFailed
    picks_rev: list[list[int]] = []
    draws_rev: list[list[int]] = []
    for bi in range(len(f.blocks) - 1, -1, -1):
        picks, drawn = _undo_block(view, f, bi, suits[bi], hands, dead_left, discarded, rng)
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
    actions: list[Action] = []
    for st in f.steps:
        if st.kind == "play":
            actions.append(PLAYS[st.card])
        elif st.kind == "pass":
            actions.append(PASS)
        elif st.kind == "draw":
            actions.append(DRAW)
        else:  # discard
            card = st.card if st.seat == me else discarded[st.seat, st.ref]
            actions.append(DISCARDS[card])
    return deck, picks_all, actions


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
                 rng: random.Random) -> tuple[dict[int, int], int]:
    """K7: each card taken from the viewer's group went to a different taker.

    Returns the taker chosen for each such card not played yet, and the
    mask of all cards taken from the viewer.
    """
    forced: dict[int, int] = {}
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
            elif c not in played_by:
                loose.append(c)
        shuffle(rng, free_takers)
        for c, seat in zip(loose, free_takers, strict=False):
            if seat not in later_owners:
                forced[c] = seat
    return forced, taken_all


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


def _suit_caps(view: DealView, f: KopilkaFacts, slots_of: list[list[_Slot]], caps: list[list[int]]) -> list[int]:
    """K7: a seat checked without a group held at most two cards of a suit then.

    Each later group it took a card from may have added one; the caps
    apply to the cards it held when play began.
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
        extra = sum(1 for b in f.blocks[bi:] if j in b.takers)
        cap = [2 + extra] * 4
        for sl in slots_of[j]:
            if sl.draw < 0 and sl.card >= 0:
                cap[sl.card // 13] -= 1
        if min(cap) < 0:
            raise WorldFailed
        group[j] = len(caps)
        caps.append(cap)
    return group


def _group_musts(view: DealView, f: KopilkaFacts, slots_of: list[list[_Slot]],
                 suits: list[int]) -> dict[tuple[int, int], int]:
    """K7: the cards of each group's suit its takers and its owner must still account for."""
    need: dict[tuple[int, int], int] = {}
    for bi, (b, suit) in enumerate(zip(f.blocks, suits, strict=True)):
        if b.owner == f.me or suit < 0:
            continue
        later_owners = {bb.owner for bb in f.blocks[bi + 1:]}
        for t in b.takers:
            if t != f.me and t not in later_owners:
                need[t, suit] = need.get((t, suit), 0) + 1
        need[b.owner, suit] = need.get((b.owner, suit), 0) + b.returned
    for (j, suit) in list(need):
        for sl in slots_of[j]:
            if sl.draw < 0 and sl.card >= 0 and sl.card // 13 == suit:
                need[j, suit] -= 1
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
                discarded: dict[tuple[int, int], int], rng: random.Random) -> tuple[list[int], list[int]]:
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
        ys = index_list(dead_left[t]) if t in disc_of else [-1]
        bound = _cap_at(view, f, t, bi)
        pairs = []
        for y in ys:
            hand = hands[t] | (1 << y if y >= 0 else 0)
            pool = hand & taken if taken >= 0 else hand & SUIT_MASKS[suit]
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


__all__ = ["WorldFailed", "assign", "deal_deck", "max_suit_count", "pick_bits", "propose_kopilka"]
