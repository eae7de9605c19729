"""Classic and mistigri worlds from a seat's facts: the trump proposal.

A world is proposed in two steps:

1. **Where are the unknown cards now?**  Every card whose place the viewer
   does not know goes to a hidden place: another seat's hand, a seat's
   discards, or the talon (:func:`~mushka.worlds.fill.assign`).  Places
   carry bans read from the view (:mod:`mushka.worlds.facts`): the suits a
   seat has shown it lacks (C14), the privileged card a passer cannot hold
   (MI8) or nobody may discard (MI5), the turned card the dealer took (C6).
2. **How did they get there?**  Each seat's history is rebuilt backwards:
   which drawn cards came from the talon (C7), which cards were discarded,
   the turned card's discard (C6) and the hands as dealt; a seat that would
   have shown a special hand (C22, MI9, MI13) ends the proposal.  This gives
   a stacked deck (N4) and the actions to replay on it.

A :class:`Preference` may prefer some worlds to others between the two
steps (the search bots' belief about how the players chose): it deals the
hidden hands again seat by seat, or weighs the whole world, one draw of the
generator, and rejects it.  A proposal that cannot be completed raises
:class:`~mushka.worlds.fill.WorldFailed`; one that is completed is still
proven by the engine (:class:`mushka.worlds.sampler.ViewSampler`).
"""

from __future__ import annotations

import random
from typing import Protocol

from mushka.cards import SUIT_MASKS, card_count, index_list
from mushka.engine.actions import Action
from mushka.engine.deal import shuffle
from mushka.engine.views import DealView
from mushka.rules import FlushMode, Rules
from mushka.worlds.facts import TrumpFacts, mask_of_cards, step_actions, suits_mask
from mushka.worlds.fill import WorldFailed, assign, deal_deck, pick_bits

History = tuple[int, int, int, int, int]
"""How a seat's cards got where a filling put them: (dealt hand, hand after
the exchange, drawn, discarded, the take's discard or -1)."""

Hands = tuple[list[int], int, list[int], list[int]]
"""A proposed world's hands: as dealt, the take's discard (-1: none), at play, and the discards."""


def is_special(rules: Rules, hand: int) -> bool:
    """Whether a five-card hand is one the rules show at once (C22, MI9, MI13)."""
    # Loops, not any() over generators: compiled, a generator is an object made per call,
    # and this runs for every seat of every world and every exchange of a playout.
    if card_count(hand) != 5:
        return False
    priv = 1 << rules.privileged.index
    if hand & priv and rules.four_mode is not FlushMode.NONE:
        rest = hand ^ priv
        for m in SUIT_MASKS:
            if rest & ~m == 0:
                return True
    if rules.flush is not FlushMode.NONE:
        for m in SUIT_MASKS:
            if hand & ~m == 0:
                return True
    return False


class Preference(Protocol):
    """A preference among proposed worlds: how well their hidden hands explain the players' choices."""

    @property
    def seat_by_seat(self) -> bool:
        """Whether the hidden hands are dealt again seat by seat (:meth:`redeal`), not weighed whole."""
        ...

    def redeal(self, proposal: TrumpProposal, filled: list[int], hist: list[History],
               rng: random.Random) -> list[int]:
        """A new filling of the proposal's bins, seat by seat (``hist`` follows it, changed in place)."""
        ...

    def weight(self, hands: Hands) -> float:
        """The probability, at most 1, with which a world of these hands is kept."""
        ...


class TrumpProposal:
    """The places of a classic or mistigri view's unknown cards, and worlds proposed from them.

    The places are read once from the view; every :meth:`propose` starts
    from them.  ``last_hands`` are the hands of the last proposal that got
    as far as its deck, for measurement.
    """

    def __init__(self, view: DealView, facts: TrumpFacts) -> None:
        """Read where the unknown cards of ``view`` (a seat's view, read into ``facts``) may go."""
        rules = view.rules
        self.rules = rules
        self.view = view
        self.facts = facts
        self.last_hands: Hands | None = None
        f = facts
        n = f.n
        me = f.me
        self.hand = mask_of_cards(view.hand)
        # The shown hands as masks (-1: not shown).
        self.open = [-1 if h is None else mask_of_cards(h) for h in view.open_hands]
        priv_bit = 1 << f.priv
        turn_bit = 1 << f.turnup
        seen = f.seen
        took_hidden = (f.took and f.dealer != me and not f.played_all & turn_bit
                       and self.open[f.dealer] < 0)
        if took_hidden:
            # C6: the dealer took the turned card; it is in his hand or his discards.
            seen &= ~turn_bit
        pool = rules.deck_bits & ~seen
        bins: list[tuple[int, int, int]] = []
        hand_bin = [-1] * n
        dead_bin = [-1] * n
        known_dead = [0] * n
        for j in range(n):
            if j == me:
                continue
            not_turnup = 0 if (took_hidden and j == f.dealer) else turn_bit
            if self.open[j] < 0:
                allowed = pool & ~suits_mask(f.lacks[j]) & ~not_turnup
                if f.decl[j] == "pass" and rules.privileged_must_play:
                    allowed &= ~priv_bit  # MI8: the holder of the privileged card may not pass
                hand_bin[j] = len(bins)
                bins.append((view.hand_sizes[j], allowed, -1))
            known_dead[j] = _known_dead(f, j)
            hidden_dead = view.discard_counts[j] - card_count(known_dead[j])
            if hidden_dead:
                allowed = pool & ~not_turnup
                if not rules.can_discard_privileged:
                    allowed &= ~priv_bit  # MI5
                dead_bin[j] = len(bins)
                bins.append((hidden_dead, allowed, -1))
        self.pool = index_list(pool)
        """The unknown cards."""
        self.bins = bins
        """(capacity, allowed cards, -1) of each hidden place, for :func:`assign`."""
        self.hand_bin = hand_bin
        """Per seat, the bin of its hidden hand (-1: the viewer's, or shown)."""
        self.dead_bin = dead_bin
        """Per seat, the bin of its hidden discards (-1: none)."""
        self.talon_bin = len(bins)
        bins.append((view.talon_size, pool & ~turn_bit, -1))
        self.known_dead = known_dead
        """Per seat, the discards the viewer knows (his own, the dealer's known take)."""

    def propose(self, rng: random.Random,
                prefer: Preference | None = None) -> tuple[list[int], list[int], list[Action]]:
        """A world: the stacked deck, the picks (none in these games) and the actions to replay.

        Raises :class:`WorldFailed` when the proposal cannot be completed or
        ``prefer`` turns it down.
        """
        f = self.facts
        n = f.n
        me = f.me
        filled = assign(self.pool, self.bins, rng)
        if filled is None:
            raise WorldFailed
        hist: list[History] = [(0, 0, 0, 0, -1)] * n
        for j in range(n):
            if j != me:
                hist[j] = self.seat_history(j, filled, rng)
        for j in range(n):
            if j != me and self.special_shown(j, hist[j][0], hist[j][1], hist[j][2]):
                raise WorldFailed
        seatwise = prefer is not None and prefer.seat_by_seat
        if prefer is not None and seatwise:
            filled = prefer.redeal(self, filled, hist, rng)
        h0 = [0] * n
        drawn = [0] * n
        dead_ex = [0] * n
        take_d = -1
        for j in range(n):
            if j == me:
                h0[j] = f.h0[me]
                drawn[j] = max(f.exch_drawn[me], 0)
                dead_ex[j] = max(f.exch_discards[me], 0)
                if f.took and f.dealer == me:
                    take_d = f.take_discard
                continue
            h0[j], _, drawn[j], dead_ex[j], d = hist[j]
            if f.took and j == f.dealer:
                take_d = d
        talon: list[int] = []
        for j in f.draw_order:
            cards = index_list(drawn[j])
            shuffle(rng, cards)
            talon.extend(cards)
        rest = index_list(filled[self.talon_bin])
        shuffle(rng, rest)
        talon.extend(rest)
        play_start = [0] * n
        for j in range(n):
            now_j = self.hand if j == me else (
                self.open[j] if self.open[j] >= 0 else filled[self.hand_bin[j]] if self.hand_bin[j] >= 0 else 0)
            play_start[j] = now_j | f.played[j]
        dead_of = [dead_ex[j] | (1 << take_d if f.took and j == f.dealer and take_d >= 0 else 0) for j in range(n)]
        self.last_hands = (h0[:], take_d, play_start[:], dead_of[:])
        if prefer is not None and not seatwise and rng.random() >= prefer.weight((h0, take_d, play_start, dead_of)):
            raise WorldFailed
        deck = deal_deck(self.view.dealer, self.rules.players, h0, talon, rng, f.turnup)
        return deck, [], step_actions(f.steps, me, stands=dead_ex, take=take_d)

    def seat_history(self, j: int, filled: list[int], rng: random.Random) -> History:
        """How seat ``j``'s cards of ``filled`` got there (see :data:`History`).

        The discards and draws the viewer did not see are chosen here (C7);
        the dealer's discard for the turned card too, if unseen (C6).
        """
        f = self.facts
        turn_bit = 1 << f.turnup
        now = filled[self.hand_bin[j]] if self.open[j] < 0 else self.open[j]
        dead = self.known_dead[j] | (filled[self.dead_bin[j]] if self.dead_bin[j] >= 0 else 0)
        took = f.took and j == f.dealer
        d = -1
        if took:
            d = f.take_discard
            if d < 0:
                options = dead & ~turn_bit
                if not options:
                    raise WorldFailed
                d = rng.choice(index_list(options))
            dead &= ~(1 << d)
        got = disc = after = 0
        if f.decl[j] == "stand":
            h1 = now | f.played[j]
            if f.exch_discards[j] >= 0:
                disc, got = f.exch_discards[j], f.exch_drawn[j]
            else:
                disc = dead
                k = f.exch[j]
                candidates = h1 & ~(turn_bit if took else 0)
                if card_count(candidates) < k:
                    raise WorldFailed
                got = pick_bits(candidates, k, rng)
            before = (h1 & ~got) | disc
            after = h1
        else:
            before = now
        if took:
            if not before & turn_bit:
                raise WorldFailed
            before = (before & ~turn_bit) | 1 << d
        if f.h0[j] >= 0 and f.h0[j] != before:
            raise WorldFailed
        return before, after, got, disc, d

    def special_shown(self, j: int, h0: int, after: int, drawn: int) -> bool:
        """C22/MI9/MI13: whether seat ``j`` would have shown a special hand (so the world is not the view's)."""
        f = self.facts
        if f.h0[j] >= 0 and f.h1[j] < 0 and self.open[j] >= 0:
            return False
        if f.h0[j] < 0 and is_special(self.rules, h0):
            return True
        changed = drawn or (f.took and j == f.dealer)
        return bool(changed and f.h1[j] < 0 and f.decl[j] == "stand" and is_special(self.rules, after))

    def redraw(self, j: int, filled: list[int], rng: random.Random) -> list[int] | None:
        """Seat ``j``'s hidden hand and discards dealt again, with the talon's unseen cards; the others' kept."""
        own = [self.hand_bin[j], self.dead_bin[j], self.talon_bin]
        own = [b for b in own if b >= 0]
        cards = 0
        for b in own:
            cards |= filled[b]
        got = assign(index_list(cards), [self.bins[b] for b in own], rng)
        if got is None:
            return None
        out = filled[:]
        for i in range(len(own)):
            out[own[i]] = got[i]
        return out


def _known_dead(f: TrumpFacts, j: int) -> int:
    """The discards of seat ``j`` the viewer knows: its exchange's where shown, the take's."""
    out = max(f.exch_discards[j], 0)
    if f.took and j == f.dealer and f.take_discard >= 0:
        out |= 1 << f.take_discard
    return out


__all__ = ["Hands", "History", "Preference", "TrumpProposal", "is_special"]
