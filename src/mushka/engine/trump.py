"""Classic мушка and мушка-мистигри: one deal with a trump suit.

The two games share this state machine; they differ only in data of
:class:`~mushka.rules.Rules` (the privileged card A♠ or K♣, the rank order,
the remiz and bonus of the privileged card, what a flush does).

A deal runs: the deal and the turned-up trump (N4, C5) → declarations in
order from the eldest to the dealer, each passing or standing with an
exchange (прикупка, C6-C8), special hands checked after the deal and after
each declaration (C22, MI9-MI13) → five tricks among the standing players
(C13-C15) → the settlement of the records (C17-C18, MI6-MI7).  This module
deals the cards, lists and checks the moves and plays the tricks; the
declarations' own steps, the special hands and the end of a deal are
:mod:`mushka.engine.trump_declare`, the result and the views
:mod:`mushka.engine.trump_view`.

Hot-path notes: hands are card masks, trick cards are packed ints
(``seat << 6 | card``), and the winning key of each card is a table lookup,
so :meth:`TrumpDeal.apply_unchecked` allocates almost nothing.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from mushka.cards import CARDS, SUIT_MASKS, Suit, card_count, cards_of, indices
from mushka.engine.actions import PLAYS, SUIT_PLAYS, Action, Kind, plays_of
from mushka.engine.deal import DealResult, Phase
from mushka.engine.events import (
    Dealt,
    Declared,
    Event,
    Played,
    TookTurnup,
    TrickTaken,
    TurnedUp,
)
from mushka.engine.trump_cards import key_tables
from mushka.engine.trump_declare import TRICKS_PER_DEAL, TrumpDeclarations, Why
from mushka.engine.trump_state import PASSED, UNDECIDED
from mushka.engine.trump_view import trump_result, trump_view
from mushka.engine.views import DealView
from mushka.rules.model import DerivedKey, Rules

_BIT: Final = tuple(1 << i for i in range(52))
_PLAY: Final = Phase.PLAY
_OVER: Final = Phase.OVER
_DECLARE: Final = Phase.DECLARE
_PLAY_KIND: Final = Kind.PLAY
# The key of each trump suit's trick-key tables among the rules' derived tables.
_KEYS_KEY: Final[tuple[DerivedKey[tuple[tuple[int, ...], ...]], ...]] = tuple(
    DerivedKey(f"trick keys, trump suit {t}") for t in range(4))
# The seats before trick play: shared, since the lists that replace them are never changed
# in place (copies share them too).
_NO_SEATS: Final[list[int]] = []
# No keyword state (classic and mistigri have none): never changed, so shared.
_NO_STATE: Final[dict[str, object]] = {}


class TrumpDeal(TrumpDeclarations):
    """One deal of classic мушка or мушка-мистигри: its moves over the state of
    :class:`~mushka.engine.trump_state.TrumpState`, the declarations' own steps in
    :class:`~mushka.engine.trump_declare.TrumpDeclarations`."""

    __slots__ = ()

    # --- setup --------------------------------------------------------------

    def _setup(self, state: dict[str, object]) -> None:
        if state:
            raise TypeError(f"unexpected deal state {sorted(state)}")
        rules = self.rules
        n = self.n
        deck = self._deck
        hands = [0] * n
        # N4: one card at a time from the eldest, round the table: the k-th
        # seat from the eldest gets deck[k], deck[k + n], ... deck[k + 4n].
        bit = _BIT
        # (Indexed, not sliced with a step: compiled, such a slice is the generic one.)
        for k in range(n):
            hands[(self.eldest + k) % n] = (bit[deck[k]] | bit[deck[k + n]] | bit[deck[k + 2 * n]]
                                            | bit[deck[k + 3 * n]] | bit[deck[k + 4 * n]])
        self.hands = hands
        self.turnup = deck[5 * n]
        self.trump = self.turnup // 13
        self._trump_mask = SUIT_MASKS[self.trump]
        # The talon's top is its last item (popped when drawn): the deck after the turn-up, reversed.
        self._talon = list(deck[:5 * n:-1])
        self._dead = [0] * n
        priv = rules.privileged.index
        self._priv = priv
        self._priv_bit = 1 << priv
        key = _KEYS_KEY[self.trump]
        tables = rules.cache.get(key)
        if tables is None:
            tables = rules.cache.put(key, key_tables(rules.strength, self.trump, priv, rules.privileged_beats_trumps))
        self._ktabs = tables
        self._ktab = self._ktabs[0]
        self._decl = [UNDECIDED] * n
        self._exch = [-1] * n
        self._took = False
        self._open = 0
        self._cands = []
        self._order = _NO_SEATS  # replaced, never changed in place (see _end_declarations)
        self._next = _NO_SEATS
        self._priv_holder = -1
        self._best_key = -1
        self._best_seat = -1
        self._best_card = -1
        self._stood_before_dealer = 0
        self._side = _NO_SEATS  # likewise
        self._flush_seat = -1
        self._final = (False, -1, -1)
        self.phase = Phase.DECLARE
        self.to_act = self.eldest
        ev = self._events
        if ev is not None:
            ev.append(Dealt(self.dealer, tuple(cards_of(h) for h in hands), len(self._talon)))
            ev.append(TurnedUp(CARDS[self.turnup]))
        # C22/MI9/MI13: hands are checked right after the deal, from the eldest.
        found = []
        for k in range(n):
            seat = (self.eldest + k) % n
            hit = self._special(seat)
            if hit is not None:
                found.append(hit)
        if found:
            self._show(found, ev)

    # --- legal actions ------------------------------------------------------------

    def _legal(self) -> Sequence[Action]:
        if self.phase is _PLAY:
            return plays_of(self._play_mask(self.to_act)[0])
        return self._declare_choices()

    def legal_actions(self) -> Sequence[Action]:
        """The legal actions of the seat to act; empty once the deal is over."""
        phase = self.phase
        if phase is not _PLAY:
            return () if phase is _OVER else self._declare_choices()
        hand = self.hands[self.to_act]
        if not self._trick:
            return plays_of(hand)
        if not self.rules.plain_play:
            return plays_of(self._play_mask(self.to_act)[0])
        # C14 with the default options, inlined: follow, else trump, else anything.
        lead = self._lead_suit
        legal = hand & SUIT_MASKS[lead]
        if legal:
            if hand & self._priv_bit and not legal & self._priv_bit and self.rules.privileged_free_play:
                return plays_of(legal | self._priv_bit)  # C12: the privileged card is free
            return SUIT_PLAYS[lead][legal >> 13 * lead]
        legal = hand & self._trump_mask or hand
        if self.rules.privileged_free_play:
            legal |= hand & self._priv_bit
        return plays_of(legal)

    def legal_play_mask(self) -> int:
        """C12-C14: the cards the seat to act may play to the trick, as a card mask (in
        trick play): :meth:`legal_actions` without the actions (the action ids list them)."""
        hand = self.hands[self.to_act]
        if not self._trick:
            return hand
        rules = self.rules
        if not rules.plain_play:
            return self._play_mask(self.to_act)[0]
        # C14 with the default options, as in legal_actions: follow, else trump, else anything;
        # C12: the privileged card is free.
        legal = hand & SUIT_MASKS[self._lead_suit] or hand & self._trump_mask or hand
        if rules.privileged_free_play:
            legal |= hand & self._priv_bit
        return legal

    def play_card(self, card: int) -> None:
        """C13: the seat to act plays card index ``card``, a card it may play now (no
        checks, no events): ``apply_unchecked(PLAYS[card])`` in trick play."""
        self._log.append(PLAYS[card])
        self._events = None
        self._play(1 << card, None)

    def apply_unchecked(self, action: Action) -> None:
        """Apply an action taken from :meth:`legal_actions` (no checks, no events)."""
        self._log.append(action)
        self._events = None
        if action.kind is _PLAY_KIND:
            self._play(action.mask, None)
        else:
            self._do(action, None)

    def playout(self, rng: random.Random) -> None:
        """Finish the deal with uniformly random legal actions (see :meth:`Deal.playout`).

        Trick play runs here without building action lists: the legal cards
        are a mask and the chosen one is its j-th bit.
        """
        random_ = rng.random
        while self.phase is not _PLAY:
            if self.phase is _OVER:
                return
            self.apply_unchecked(self._declaration_at(random_()))
        self._events = None
        log = self._log
        hands = self.hands
        plain = self.rules.plain_play and self.rules.privileged_free_play
        priv = self._priv_bit
        trumps = self._trump_mask
        while self.phase is _PLAY:
            seat = self.to_act
            hand = hands[seat]
            if not self._trick:
                legal = hand
            elif plain:
                # C14 with the default options (see legal_actions).
                legal = hand & SUIT_MASKS[self._lead_suit] or hand & trumps or hand
                legal |= hand & priv
            else:
                legal = self._play_mask(seat)[0]
            for _ in range(int(random_() * card_count(legal))):
                legal &= legal - 1
            bit = legal & -legal
            log.append(PLAYS[bit.bit_length() - 1])
            self._play(bit, None)

    def _why(self, action: Action) -> Why:
        kind = action.kind
        seat = self.to_act
        hand = self.hands[seat]
        rules = self.rules
        if self.phase is _DECLARE:
            if kind is Kind.PASS:
                return self._why_pass(seat)
            if kind is Kind.STAND:
                if action.mask & ~hand:
                    return "C7", "why.not_your_card", {"card": cards_of(action.mask & ~hand)[0]}
                limit = min(rules.max_exchange, len(self._talon))
                if action.mask.bit_count() > limit:
                    return "C8", "why.exchange_too_many", {
                        "limit": limit, "talon": len(self._talon), "max": rules.max_exchange}
                if action.mask & self._priv_bit and not rules.can_discard_privileged:
                    return "MI5", "why.no_discard_privileged", {"card": rules.privileged}
                return None
            if kind is Kind.TAKE:
                if not rules.dealer_takes_turnup:
                    return "C6", "why.take_option_off", {}
                if seat != self.dealer or self._took:
                    return "C6", "why.take_not_allowed", {}
                if action.mask & ~hand:
                    return "C6", "why.not_your_card", {"card": action.card}
                if action.mask & self._priv_bit and not rules.can_discard_privileged:
                    return "MI5", "why.no_discard_privileged", {"card": rules.privileged}
                return None
            return "C7", "why.wrong_phase", {"kind": kind.name.lower(), "phase": Phase.DECLARE}
        if kind is not Kind.PLAY:
            return "C13", "why.wrong_phase", {"kind": kind.name.lower(), "phase": Phase.PLAY}
        if action.mask & ~hand:
            return "C13", "why.not_your_card", {"card": action.card}
        mask, why = self._play_mask(seat, action.mask)
        if action.mask & mask:
            return None
        return why

    def _play_mask(self, seat: int, card: int = 0) -> tuple[int, Why]:
        """C14: the cards ``seat`` may play now, and the restriction that excludes
        ``card`` (a card bit; the first duty that leaves it out, since a later duty
        only chooses among the cards the earlier ones allow)."""
        hand = self.hands[seat]
        if not self._trick:
            return hand, None
        rules = self.rules
        lead = self._lead_suit
        legal = hand
        why: Why = None
        follow = hand & SUIT_MASKS[lead]
        trumps = hand & self._trump_mask
        if follow and rules.must_follow:
            legal = follow
            if card & ~legal:
                why = "C14", "why.must_follow", {"suit": Suit(lead).of}
        elif not follow:
            if rules.must_overtrump and trumps:
                keys = self._ktab
                top = max((keys[p & 63] for p in self._trick if (p & 63) // 13 == self.trump),
                          default=-1)
                higher = 0
                for c in indices(trumps):
                    if top >= 0 and keys[c] > top:
                        higher |= 1 << c
                if higher:
                    legal = higher
                    if card & ~legal:
                        why = "C14", "why.must_overtrump", {}
            if legal == hand and trumps and rules.must_trump_if_void:
                legal = trumps
                if card & ~legal:
                    # MI4 is mistigri's reading of a led K♣; a led A♠ in classic is C12's
                    # plain spade, and the duty to trump is C14's.
                    mi4 = rules.is_mistigri and self._trick_has_priv_lead()
                    why = ("MI4" if mi4 else "C14", "why.must_trump", {"suit": Suit(lead).of})
        if rules.must_head_trick:
            winners = 0
            for c in indices(legal):
                if self._key(c) > self._best_key:
                    winners |= 1 << c
            if winners and winners != legal:
                if why is None and card & legal & ~winners:
                    why = "C14", "why.must_head", {}
                legal = winners
        if rules.privileged_free_play and hand & self._priv_bit:
            # C12: the privileged card stays playable after every restriction.
            legal |= self._priv_bit
        return legal, why

    def _trick_has_priv_lead(self) -> bool:
        return bool(self._trick) and (self._trick[0] & 63) == self._priv

    def _key(self, card: int) -> int:
        """C15: the card's strength in the current trick (higher wins)."""
        return self._ktab[card]

    # --- applying actions -----------------------------------------------------

    def _do(self, action: Action, ev: list[Event] | None) -> None:
        kind = action.kind
        if kind is Kind.PLAY:
            self._play(action.mask, ev)
        elif kind is Kind.STAND:
            self._stand(action.mask, ev)
        elif kind is Kind.PASS:
            seat = self.to_act
            self._decl[seat] = PASSED
            if ev is not None:
                ev.append(Declared(seat, False, 0))
            self._next_declarer(ev)
        else:  # TAKE
            seat = self.to_act
            self.hands[seat] = self.hands[seat] ^ (action.mask | 1 << self.turnup)
            self._dead[seat] = self._dead[seat] | action.mask
            self._took = True
            if ev is not None:
                ev.append(TookTurnup(seat, CARDS[self.turnup], action.card,
                                     bool(self._open >> seat & 1)))

    def _play(self, bit: int, ev: list[Event] | None) -> None:
        seat = self.to_act
        card = bit.bit_length() - 1
        # ``x[i] = x[i] ^ y``, not ``x[i] ^= y``: compiled, the augmented form on a list item
        # boxes ``y`` and dispatches generically; this one works on the unboxed ints.
        self.hands[seat] = self.hands[seat] ^ bit
        trick = self._trick
        if trick:
            key = self._ktab[card]
            if key > self._best_key:
                self._best_key = key
                self._best_seat = seat
                self._best_card = card
        else:
            self._leader = seat
            self._lead_suit = card // 13
            self._ktab = self._ktabs[card // 13]
            self._best_key = self._ktab[card]
            self._best_seat = seat
            self._best_card = card
        trick.append(seat << 6 | card)
        if ev is not None:
            ev.append(Played(seat, CARDS[card]))
        if len(trick) < len(self._order):
            self.to_act = self._next[seat]
            return
        # C15: the trick is complete.
        winner = self._best_seat
        self._won[winner] = self._won[winner] + 1
        lead = self._lead_suit
        by_priv = self._best_card == self._priv
        self._tricks.append((self._leader, tuple(trick), winner, lead, by_priv, 0))
        if ev is not None:
            ev.append(TrickTaken(winner, len(self._tricks),
                                 tuple((p >> 6, CARDS[p & 63]) for p in trick),
                                 Suit(lead), by_priv))
        trick.clear()  # the list is the deal's own (copies copy it), so it is reused
        if len(self._tricks) == TRICKS_PER_DEAL:
            self._settle(ev)
        else:
            self.to_act = winner

    def _build_result(self) -> DealResult:
        """C17-C19, MI6-MI7: each standing player's record changes."""
        return trump_result(self)

    # --- copying and views -----------------------------------------------------

    def _copy_extra(self, other: TrumpDeal) -> None:
        other.turnup = self.turnup
        other.trump = self.trump
        other._trump_mask = self._trump_mask
        other._priv = self._priv
        other._priv_bit = self._priv_bit
        other._ktabs = self._ktabs
        other._ktab = self._ktab
        other._decl = self._decl[:]
        other._exch = self._exch[:]
        other._took = self._took
        other._open = self._open
        other._cands = self._cands[:]
        other._order = self._order
        other._next = self._next
        other._priv_holder = self._priv_holder
        other._best_key = self._best_key
        other._best_seat = self._best_seat
        other._best_card = self._best_card
        other._stood_before_dealer = self._stood_before_dealer
        other._side = self._side
        other._flush_seat = self._flush_seat
        other._final = self._final

    def view(self, seat: object = None) -> DealView:
        """What ``seat`` (or a spectator) may know: see :class:`DealView`."""
        return trump_view(self, self._check_viewer(seat))


def dealt_trump_deal(rules: Rules, dealer: int, deck: tuple[int, ...], record_events: bool) -> TrumpDeal:
    """A classic or mistigri deal of ``deck``, card indices whose every card was already
    checked (N4): :class:`~mushka.engine.steps.StepDeal` takes them one chance step at a
    time.  The deal ``TrumpDeal(rules, dealer, deck=deck, chance_steps=True)`` would
    make, without reading the deck a second time or passing keywords."""
    deal = TrumpDeal(rules, _blank=True)
    deal._start(rules, dealer, deck, (), None, record_events, True, _NO_STATE)
    return deal
