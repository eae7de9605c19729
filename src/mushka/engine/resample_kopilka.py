"""Resampling a kopilka game from one seat's view (K5-K19).

:func:`resample_kopilka` draws a whole kopilka state -- the deck in deal and
talon order, the random picks of K7/K8 and the other seats' hidden discards
-- that the seat cannot tell from the real one.  It reads only the seat's
own redacted events (§4 of RULES) and, like the trump resampler, proves each
proposal by replaying it on the engine with checks and comparing the seat's
events; a proposal the seat could tell apart is drawn again.

What a proposal respects by construction:

* the seat's own hand as dealt, the cards it took (K7: it alone knows
  them, so they were in that owner's group and fix the group's suit) and,
  when it owned a group, which of its cards were taken -- but not by whom:
  those cards are given to the takers at random, each taker getting one he
  later plays if there is one (§4);
* the groups declared (K6: ``count`` cards of one suit in a hand nobody had
  touched yet) and, for a seat that declared nothing, a hand without three
  of a suit;
* the talon in draw order: the owners' replacement draws (K7 step 4) and
  every draw in play (K11), with the cards the seat saw (its own draws, any
  drawn card played at once) at their places and a card drawn and kept
  never of the led suit;
* every card each seat played, placed in its hand as dealt or in a card it
  drew before; passes without a remiz (K12) and draws (K11) showing a suit
  the seat lacks are avoided when filling its hand;
* take-backs (K15), deadlocks (K19) and the money follow from the replay.

The hidden cards are otherwise spread uniformly; the replay removes the
rest (a hand that would have made another group, a remiz the seat did not
pay…).  Like the trump resampler this is a consistent sampler, not the
exact posterior.
"""

from __future__ import annotations

import random
from typing import Any

from mushka.cards import SUIT_MASKS
from mushka.engine import new_deal
from mushka.engine.actions import DISCARDS, DRAW, PASS, PLAYS, Action
from mushka.engine.deal import Deal
from mushka.engine.events import (
    CardTaken,
    Dealt,
    Discarded,
    Drew,
    Event,
    GroupDeclared,
    GroupSettled,
    Passed,
    Played,
    PlayStarted,
    TakenBack,
    TrickTaken,
)
from mushka.engine.steps import StepDeal
from mushka.errors import IllegalActionError, MushkaError


class _Reject(Exception):
    """The proposal cannot be completed; draw another."""


def _suit(card: int) -> int:
    return card // 13


def resample_kopilka(deal: Deal, seat: int, rng: random.Random, tries: int) -> Deal:
    """A kopilka deal ``seat`` cannot tell from ``deal`` (see the module docstring)."""
    seen = deal.events(seat)
    view = _View(deal, seat, seen)
    state: dict[str, Any] = dict(deal.initial_state)
    for _ in range(tries):
        try:
            steps = _Proposal(view, rng).replay(state)
        except (_Reject, IllegalActionError):
            continue
        if steps.deal is None or steps.deal.events(seat) != seen:
            continue
        # A plain deal from the same deck and picks: later picks (K7 groups
        # still to be checked) are drawn from a generator of its own.
        out = new_deal(deal.rules, deal.dealer, deck=steps.deal._deck, picks=steps.deal._picks,
                       rng=random.Random(rng.getrandbits(64)), **state)
        for action in steps.deal.actions:
            out.apply(action)
        return out
    raise MushkaError("resample_failed", rule="K7", tries=tries)


class _View:
    """What ``me`` knows, read once from its redacted events."""

    def __init__(self, deal: Deal, me: int, seen: list[Event]) -> None:
        rules = deal.rules
        n = deal.n
        self.rules = rules
        self.n = n
        self.me = me
        self.eldest = (deal.dealer + 1) % n
        self.dealer = deal.dealer
        self.mine = 0                           # my hand as dealt
        self.declared: dict[int, int] = {}      # owner -> group size (K6)
        self.untouched: set[int] = set(range(n))  # seats whose hand nobody changed before their check
        # (owner, taker, card or None) for each pick, in order (K7/K8).
        self.picks: list[tuple[int, int, int | None]] = []
        self.my_taken = 0                       # cards taken from my group (I own it)
        # Talon in pop order: (seat, known card or -1, suit it cannot be or -1, event index).
        self.slots: list[tuple[int, int, int, int]] = []
        self.my_drawn_as_owner: list[int] = []
        # Actions in order: (seat, kind, card or -1, event index); kind "play", "draw", "pass", "discard".
        self.actions: list[tuple[int, str, int, int]] = []
        self.played: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # (card, event index)
        self.voids = [0] * n                    # suits a seat showed it lacked at some time (K11-K12)
        self.group_suit: dict[int, int] = {}    # owner -> suit, where I took one of its cards
        self.void_at: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # (suit, event index)
        self.held: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # (suit, event index): K12 remiz
        checked = -1                            # the last check position passed (K6: from the eldest)
        known = 0
        lead = -1
        on_trick = 0
        for i, e in enumerate(seen):
            if isinstance(e, Dealt):
                hand = e.hands[me]
                for card_ in hand or ():
                    self.mine |= card_.bit
            elif isinstance(e, GroupDeclared):
                self.declared[e.seat] = e.count
                checked = (e.seat - self.eldest) % n
                takers = [(e.seat + k) % n for k in (1, 2)] if rules.redistribution == "old" else [
                    (e.seat + k) % n for k in range(1, n)]
                for t in takers:
                    # K7: a taker checked after this owner holds a changed hand at his check.
                    if (t - self.eldest) % n > (e.seat - self.eldest) % n:
                        self.untouched.discard(t)
            elif isinstance(e, CardTaken):
                card = e.card.index if e.card is not None else None
                self.picks.append((e.owner, e.taker, card))
                if card is not None:
                    self.group_suit[e.owner] = _suit(card)
            elif isinstance(e, GroupSettled):
                if e.owner == me:
                    for card_ in e.taken or ():
                        self.my_taken |= card_.bit
                    for c in (x.index for x in e.drawn or ()):
                        self.slots.append((me, c, -1, i))
                        known |= 1 << c
                else:
                    for _ in range(e.drawn_count):
                        self.slots.append((e.owner, -1, -1, i))
            elif isinstance(e, Discarded):
                self.actions.append((e.seat, "discard", -1 if e.card is None else e.card.index, i))
            elif isinstance(e, Played):
                c = e.card.index
                self.actions.append((e.seat, "play", c, i))
                if e.seat != me and all(c != x for x, _ in self.played[e.seat]):
                    # K15: a lead taken back is played again later; it was in hand the first time.
                    self.played[e.seat].append((c, i))
                if not on_trick:
                    lead = _suit(c)
                on_trick += 1
            elif isinstance(e, Drew):
                self.actions.append((e.seat, "draw", -1, i))
                self.voids[e.seat] |= 1 << lead
                self.void_at[e.seat].append((lead, i))
                if e.card is not None:
                    self.slots.append((e.seat, e.card.index, -1, i))
                    known |= e.card.bit
                    if e.played:
                        on_trick += 1
                else:
                    self.slots.append((e.seat, -1, lead, i))
            elif isinstance(e, Passed):
                self.actions.append((e.seat, "pass", -1, i))
                if not e.penalty:
                    self.voids[e.seat] |= 1 << lead
                    self.void_at[e.seat].append((lead, i))
                else:
                    self.held[e.seat].append((lead, i))
            elif isinstance(e, PlayStarted):
                checked = n
            elif isinstance(e, (TakenBack, TrickTaken)):
                on_trick = 0
        self.known = known | self.mine
        # Seats not checked yet (K6) may still hold any group.
        self.checked = {s for s in range(n) if (s - self.eldest) % n <= checked}
        self.deck = list(rules.deck_indices)


class _Proposal:
    """One candidate world, built from a :class:`_View` and checked by :meth:`replay`."""

    def __init__(self, view: _View, rng: random.Random) -> None:
        self.v = view
        self.rng = rng
        n = view.n
        self.pool = [c for c in view.deck if not view.known >> c & 1]
        rng.shuffle(self.pool)
        self.dealt = [0] * n
        self.dealt[view.me] = view.mine
        self.gsuit = dict(view.group_suit)      # owner -> suit of its K6 group, where fixed
        self.talon = [c for _, c, _, _ in view.slots]
        # The order of my own replacement draws is not known to me (K7 step 4).
        for at in {at for who, c, _, at in view.slots if who == view.me and c >= 0}:
            js = [j for j, (who, c, _, a) in enumerate(view.slots) if a == at and c >= 0]
            cards = [self.talon[j] for j in js]
            rng.shuffle(cards)
            for j, c in zip(js, cards, strict=True):
                self.talon[j] = c
        # Cards each other seat plays (needed in its hand by then).
        self.needed = [0] * n
        for s in range(n):
            for c, _ in view.played[s]:
                self.needed[s] |= 1 << c
        self._place()

    def _take(self, card: int) -> None:
        try:
            self.pool.remove(card)
        except ValueError:
            raise _Reject from None

    def _place(self) -> None:
        v = self.v
        n = v.n
        forced: list[list[int]] = [[] for _ in range(n)]
        # K7: a card I took was in its owner's hand at the check.
        for owner, taker, card in v.picks:
            if taker == v.me and card is not None and owner != v.me:
                # The owner holds it at his check (a card from my own group reaches him by a pick).
                self.needed[owner] |= 1 << card
                if not v.known >> card & 1:
                    forced[owner].append(card)
        # Each card another seat played: in its hand as dealt, else in a card it drew before.
        for s in range(n):
            if s == v.me:
                continue
            for c, when in v.played[s]:
                if v.my_taken >> c & 1 or c in forced[s] or any(c in f for f in forced):
                    continue  # from my group (a pick gives it) or already placed
                # K11-K12: the card cannot have been in hand while the seat showed it lacked its suit.
                lacked = [t for x, t in v.void_at[s] if x == _suit(c) and t < when]
                since = max(lacked, default=-1)
                slots = [j for j, (who, known, banned, at) in enumerate(v.slots)
                         if who == s and known < 0 and since < at < when and self.talon[j] < 0 and _suit(c) != banned]
                room = 5 - len(forced[s]) if not lacked and self._fits(s, [*forced[s], c]) else 0
                # K7: or a card of a group the seat took from (the pick then gives it).
                groups = [t for t, taker, card in v.picks if taker == s and card is None and t != v.me and not lacked
                          and self.gsuit.get(t, _suit(c)) == _suit(c) and self._fits(t, [*forced[t], c], _suit(c))]
                # Each place is as likely as any other: a free card of the hand as dealt, a draw, a group.
                total = room + len(slots) + len(groups)
                k = self.rng.randrange(total) if total else -1
                if 0 <= k < room:
                    forced[s].append(c)
                elif room <= k < room + len(slots):
                    j = slots[k - room]
                    self.talon[j] = c
                    self._take(c)
                elif k >= 0:
                    t = groups[k - room - len(slots)]
                    forced[t].append(c)
                    self.gsuit[t] = _suit(c)
            # K12: a remiz for passing means the seat held the led suit then.
            for suit, when in v.held[s]:
                later = {c for c, at in v.played[s] if at > when}
                if len(forced[s]) < 5 and not any(_suit(c) == suit and c in later for c in forced[s]):
                    cands = [c for c in self.pool if _suit(c) == suit and c not in forced[s]
                             and not any(c in f for f in forced) and not any(nd >> c & 1 for nd in self.needed)]
                    cands = [c for c in cands if self._fits(s, [*forced[s], c])]
                    if cands:
                        forced[s].append(self.rng.choice(cands))
        for s in range(n):
            for c in forced[s]:
                self._take(c)
        for s in range(n):
            if s != v.me:
                self.dealt[s] = self._fill(s, forced[s])
        # The rest of the talon in draw order; a card drawn and kept is not of the led suit.
        for j, (_, _, banned, _) in enumerate(v.slots):
            if self.talon[j] >= 0:
                continue
            cands = [c for c in self.pool if _suit(c) != banned]
            if not cands:
                raise _Reject
            c = self.rng.choice(cands)
            self.pool.remove(c)
            self.talon[j] = c

    def _fits(self, s: int, cards: list[int], group: int | None = None) -> bool:
        """Whether ``cards`` can be part of seat ``s``'s hand as dealt, given its K6 group (or none)."""
        v = self.v
        if len(cards) > 5:
            return False
        if s not in v.checked:
            return True
        suits = [0] * 4
        for c in cards:
            suits[_suit(c)] += 1
        count = v.declared.get(s, 0)
        if not count:
            return max(suits) <= 2
        known = self.gsuit.get(s) if group is None else group
        return any((known is None or x == known) and suits[x] <= count and len(cards) - suits[x] <= 5 - count
                   for x in range(4))

    def _shaped(self, s: int, hand: int) -> bool:
        """Whether ``hand`` makes the group K6 says seat ``s`` declared at its check (or none)."""
        v = self.v
        if s not in v.checked:
            return True
        counts = [(hand & SUIT_MASKS[x]).bit_count() for x in range(4)]
        count = v.declared.get(s, 0)
        if not count:
            return max(counts) < 3
        known = self.gsuit.get(s)
        return any(counts[x] == count and (known is None or x == known) for x in range(4))

    def _fill(self, s: int, forced: list[int]) -> int:
        """Seat ``s``'s hand as dealt: ``forced`` cards and the group K6 says it had (or had not)."""
        v = self.v
        rng = self.rng
        count = v.declared.get(s, 0)
        # A seat that took a card before its check (K7) is shaped as if it had not:
        # its discard is then chosen to keep the shape (see :meth:`replay`).
        shaped = s in v.checked
        hand = list(forced)
        suits = [0] * 4
        for c in hand:
            suits[_suit(c)] += 1
        avoid = v.voids[s]
        if shaped and count:
            suit = self.gsuit.get(s)
            options = [x for x in range(4) if (suit is None or x == suit) and suits[x] <= count
                       and len(hand) - suits[x] <= 5 - count
                       and sum(1 for c in self.pool if _suit(c) == x) >= count - suits[x]]
            if not options:
                raise _Reject
            x = rng.choice(options)
            for c in [c for c in self.pool if _suit(c) == x][:count - suits[x]]:
                self.pool.remove(c)
                hand.append(c)
            rest = 5 - len(hand)
            others = [c for c in self.pool if _suit(c) != x and not avoid >> _suit(c) & 1]
            if len(others) < rest:
                others = [c for c in self.pool if _suit(c) != x]
            if len(others) < rest:
                raise _Reject
            chosen = others[:rest]
        else:
            cap = 2 if shaped else 5
            if max(suits) > cap:
                raise _Reject
            chosen = []
            for pass_ in (0, 1):
                for c in self.pool:
                    if len(hand) + len(chosen) == 5:
                        break
                    x = _suit(c)
                    if c in chosen or suits[x] >= cap or (pass_ == 0 and avoid >> x & 1):
                        continue
                    chosen.append(c)
                    suits[x] += 1
            if len(hand) + len(chosen) < 5:
                raise _Reject
        for c in chosen:
            self.pool.remove(c)
        hand += chosen
        mask = 0
        for c in hand:
            mask |= 1 << c
        if mask.bit_count() != 5:
            raise _Reject
        return mask

    def deck(self) -> list[int]:
        """N4/K5: five cards to each seat from the eldest, then the talon in draw order."""
        v = self.v
        n = v.n
        deck = [0] * len(v.deck)
        for k in range(n):
            cards = [c for c in v.deck if self.dealt[(v.eldest + k) % n] >> c & 1]
            self.rng.shuffle(cards)
            for j, c in enumerate(cards):
                deck[k + n * j] = c
        rest = self.pool[:]
        self.rng.shuffle(rest)
        deck[5 * n:] = self.talon + rest
        return deck

    def replay(self, state: dict[str, Any]) -> StepDeal:
        """Replay the seat's actions on the proposal, choosing picks and hidden discards."""
        v = self.v
        rng = self.rng
        steps = StepDeal(v.rules, v.dealer, **state)
        pos = steps.space._pos_of
        for c in self.deck():
            steps.apply_chance(pos[c])
        picks = iter(v.picks)
        given = 0  # my group's taken cards handed out so far
        done = [0] * v.n  # cards each seat has played so far in the replay
        for seat, kind, card, _ in v.actions:
            while steps.is_chance():
                given = self._pick(steps, next(picks, None), given)
            deal = steps.deal
            assert deal is not None
            if deal.to_act != seat:
                raise _Reject
            action: Action
            if kind == "play":
                action = PLAYS[card]
                done[seat] |= 1 << card
            elif kind == "draw":
                action = DRAW
            elif kind == "pass":
                action = PASS
            elif card >= 0:
                action = DISCARDS[card]
            else:
                hand = deal.hands[seat]
                later = self.needed[seat] & ~done[seat]
                cands = [c for c in v.deck if hand >> c & 1 and not later >> c & 1]
                if not cands:
                    raise _Reject
                if (seat - v.eldest) % v.n >= deal._check_k:  # type: ignore[attr-defined]
                    cands = [c for c in cands if self._shaped(seat, hand & ~(1 << c))] or cands
                void = [c for c in cands if v.voids[seat] >> _suit(c) & 1]
                action = DISCARDS[rng.choice(void or cands)]
            steps.apply_action(action)
        if steps.is_chance():
            raise _Reject
        return steps

    def _pick(self, steps: StepDeal, pick: tuple[int, int, int | None] | None, given: int) -> int:
        """K7/K8: the pick due, as the seat's view allows; returns the taken cards given out."""
        if pick is None:
            raise _Reject
        v = self.v
        owner, taker, card = pick
        options = [v.rules.deck_indices[k] for k, _ in steps.chance_outcomes()]
        if card is not None:
            cands = [card] if card in options else []
        elif owner == v.me:
            cands = [c for c in options if v.my_taken >> c & 1 and not given >> c & 1]
        else:
            cands = [c for c in options if not self.needed[owner] >> c & 1] or options
        if not cands:
            raise _Reject
        wanted = [c for c in cands if self.needed[taker] >> c & 1]
        choice = self.rng.choice(wanted or cands)
        steps.apply_chance(steps.space._pos_of[choice])
        return given | 1 << choice if owner == v.me else given
