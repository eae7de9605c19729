"""Worlds consistent with one seat's view: the sampler behind the search bot.

A *world* is a full deal, every hidden card placed, at the very point the
view shows.  The sampler builds one in three steps:

1. **Where are the unknown cards now?**  Every card whose place the viewer
   does not know goes to a hidden place: another seat's hand, a seat's
   discards, or the talon.  Places carry bans read from the view
   (:mod:`mushka.bots.knowledge`): the suits a seat has shown it lacks (C14,
   K11), the privileged card a passer cannot hold (MI8) or nobody may
   discard (MI5), the turned card the dealer took (C6), the cards taken from
   the viewer's group that only the takers can hold (K7).
2. **How did they get there?**  The history is rebuilt backwards: which
   drawn cards came from the talon (C7, K11), which cards were discarded,
   the hands as dealt, and in kopilka the redistribution (K7/K8): the suit of
   each group, the random picks, the owner's replacements, with every seat
   checked without a group holding at most two cards of a suit at its check.
   This gives a stacked deck (N4) and the chance outcomes of the picks.
3. **Does the engine agree?**  The deck and the picks are dealt again with
   :func:`mushka.engine.new_deal` and the history replayed on the fast
   path: in kopilka each action checked for legality and the world kept
   only if it ends with the viewer's hand, the pot and the balances he sees
   (K12: a remiz paid for a pass shows in the money); in classic and
   mistigri with the house rules of play (C14 options) each action checked;
   with C14's default play rules unchecked, steps 1 and 2 building only
   legal histories there (the tests replay them checked).  ``strict``
   compares every event the viewer would have seen with the one he saw.

The sampler reads only the view; the world it returns is its own invention.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from mushka.bots.belief import BELIEF, BeliefModel, SeatLikelihood
from mushka.bots.knowledge import KopilkaFacts, Step, TrumpFacts, kopilka_facts, suits_mask, trump_facts
from mushka.bots.policy import bit_list
from mushka.bots.sampler_kopilka import propose_kopilka
from mushka.bots.worlds import SampleFailed, assign, deal_deck, is_special, max_suit_count, pick_bits
from mushka.cards import card_count
from mushka.engine import Action, Deal, DealView, new_deal
from mushka.engine.actions import PASS, PLAYS, TAKES, stand_mask
from mushka.engine.deal import shuffle
from mushka.engine.kopilka import KopilkaDeal
from mushka.errors import MushkaError
from mushka.i18n import add_texts

SEAT_TRIES = 60
"""How many hands one seat is dealt at most, in one sweep, before it keeps its last (``seatwise``)."""


def _mask(cards: Sequence[object] | None) -> int:
    out = 0
    for c in cards or ():
        out |= 1 << c.index  # type: ignore[attr-defined]
    return out


@dataclass(slots=True)
class _TrumpBins:
    """The places of a view's unknown cards (classic, mistigri): what every proposal starts from."""

    pool: list[int]
    """The unknown cards."""
    bins: list[tuple[int, int, int]]
    """(capacity, allowed cards, -1) of each hidden place, for :func:`assign`."""
    hand_bin: list[int]
    """Per seat, the bin of its hidden hand (-1: the viewer's, or shown)."""
    dead_bin: list[int]
    """Per seat, the bin of its hidden discards (-1: none)."""
    talon_bin: int
    known_dead: list[int]
    """Per seat, the discards the viewer knows (his own, the dealer's known take)."""


class WorldSampler:
    """Samples full deals consistent with everything a seat's view shows.

    >>> sampler = WorldSampler(view.deal)            # doctest: +SKIP
    >>> world = sampler.sample(random.Random(1))     # a Deal, or None  # doctest: +SKIP

    A world is built on the engine's fast path (no event log) at the view's
    point of play, with the viewer to act when it is his turn; ``attempts``
    and ``accepted`` count the proposals made and kept.
    """

    def __init__(self, view: DealView, *, strict: bool | None = None, believe: int = 0,
                 records: tuple[int, ...] = (), model: BeliefModel | None = None, seatwise: int = 0) -> None:
        """Read ``view`` (a seat's :class:`DealView`, not a spectator's).

        ``strict`` compares every event of each world with the view;
        otherwise (the default) worlds are proven on the engine's fast path,
        which is quicker (see :meth:`_verify`).
        ``believe`` weighs worlds by how well they explain the other seats'
        declarations (1), and their plays too (2), as the rules of thumb
        would make them (see :meth:`_belief`; classic and mistigri);
        ``records`` are the partie's records, which shape those declarations;
        ``model`` holds the likelihood factors (:data:`BELIEF`, fitted by
        ``bench/bots_inference.py``).  ``seatwise`` (with ``believe``) draws
        the hidden hands seat by seat from the belief, in that many sweeps
        (:meth:`_seatwise`), instead of rejecting whole worlds: a seat whose
        cards explain its actions badly is dealt again alone.
        """
        self.model = model or BELIEF
        self.last_belief_args: tuple[list[int], int, list[int], list[int]] | None = None
        """The hands behind the last proposal (dealt, the take's discard, at play, discards), for measurement."""
        if view.seat is None:
            raise MushkaError("spectator_world")
        self.believe = bool(believe) and view.rules.has_trumps
        self.believe_plays = self.believe and believe >= 2
        self.records = records
        self.seatwise = int(seatwise)
        self._likelihood: SeatLikelihood | None = None
        self.view = view
        self.strict = bool(strict)
        # With C14's default play rules a classic or mistigri proposal respects every void,
        # pass and exchange by construction (not one of 14,000 proposals over five tables
        # failed the checked replay): it is replayed unchecked.  The house rules of play
        # (must_head_trick, must_overtrump ...) it does not build in are proven by the check.
        self._by_construction = not self.strict and view.rules.has_trumps and view.rules.plain_play
        self.rules = view.rules
        self.me = view.seat
        self.attempts = 0
        self.accepted = 0
        self._events = list(view.events)
        # The viewer's hand and the shown hands as masks (-1: not shown), read once.
        self._hand = _mask(view.hand)
        self._open = [-1 if h is None else _mask(h) for h in view.open_hands]
        self._bins: _TrumpBins | None = None
        self.trump: TrumpFacts | None = None
        self.kopilka: KopilkaFacts | None = None
        if self.rules.has_trumps:
            self.trump = trump_facts(view)
        else:
            self.kopilka = kopilka_facts(view)

    # --- public ---------------------------------------------------------------

    def sample(self, rng: random.Random, tries: int = 200) -> Deal | None:
        """One world, or ``None`` if ``tries`` proposals all failed."""
        believe = self.believe
        for attempt in range(tries):
            self.attempts += 1
            # A belief about the players is a preference, never a reason to find nothing.
            self.believe = believe and attempt < tries // 2
            try:
                proposal = self._propose(rng)
            except SampleFailed:
                continue
            world = self._verify(*proposal)
            if world is not None:
                self.accepted += 1
                self.believe = believe
                return world
        self.believe = believe
        return None

    def samples(self, rng: random.Random, count: int, tries: int = 200) -> list[Deal]:
        """Up to ``count`` worlds (fewer if proposals keep failing)."""
        out = []
        for _ in range(count):
            w = self.sample(rng, tries)
            if w is None:
                break
            out.append(w)
        return out

    def propose(self, rng: random.Random) -> tuple[list[int], list[int], list[Action]] | None:
        """An unverified proposal (deck, picks, actions), for tests of step 1-2."""
        try:
            return self._propose(rng)
        except SampleFailed:
            return None

    # --- shared -----------------------------------------------------------------

    def _propose(self, rng: random.Random) -> tuple[list[int], list[int], list[Action]]:
        if self.trump is not None:
            return self._propose_trump(self.trump, rng)
        assert self.kopilka is not None
        return propose_kopilka(self.view, self.kopilka, rng)

    def _verify(self, deck: list[int], picks: list[int], actions: list[Action]) -> Deal | None:
        """Replay the proposal through the engine; keep it if the viewer would have seen the same.

        Strictly: every event the viewer would have seen must equal the one
        he saw.  Otherwise (classic and mistigri) each action is checked by
        the engine on the fast path, which proves every void, pass and
        exchange; what legality cannot show, a special hand that would
        have been shown (C22, MI9, MI13), the proposal has ruled out itself.
        With C14's default play rules the proposal is legal by construction
        and the actions are replayed unchecked (the tests replay its worlds
        checked).  In kopilka the checked replay must also end with the
        viewer's hand, the pot and the balances he sees: a remiz paid for a
        pass (K12) shows in the money, not in legality.  Over 14,500
        proposals from four kopilka tables this accepted exactly the worlds
        the strict comparison of events accepted.
        """
        k = self.kopilka
        try:
            if k is not None:
                # K24: the deal starts from the pot and balances it had before its payments.
                deal = new_deal(self.rules, self.view.dealer, deck=deck, picks=picks, record_events=self.strict,
                                pot=k.initial_pot, balances=list(k.initial_balances))
            else:
                deal = new_deal(self.rules, self.view.dealer, deck=deck, picks=picks, record_events=self.strict)
            if self.strict:
                for a in actions:
                    deal.apply(a)
            elif self._by_construction:
                for a in actions:
                    deal.apply_unchecked(a)
            else:
                for a in actions:
                    deal.check(a)
                    deal.apply_unchecked(a)
        except MushkaError:
            return None
        if self.strict:
            if deal.events(self.me) != self._events:
                return None
        elif deal.phase != self.view.phase or deal.to_act != (-1 if self.view.to_act is None else self.view.to_act):
            return None
        elif isinstance(deal, KopilkaDeal) and (
                deal.pot != self.view.pot or tuple(deal.balances) != self.view.balances
                or deal.hands[self.me] != self._hand):
            # K12: legality cannot show a remiz paid for a pass; the money can.
            return None
        return deal

    # --- classic and mistigri ----------------------------------------------------

    def _trump_bins(self, f: TrumpFacts) -> _TrumpBins:
        """Where the unknown cards may go (the same for every proposal of this view): read once."""
        if self._bins is not None:
            return self._bins
        view = self.view
        rules = self.rules
        n = f.n
        me = f.me
        priv_bit = 1 << f.priv
        turn_bit = 1 << f.turnup
        seen = f.seen
        took_hidden = (f.took and f.dealer != me and not f.played_all & turn_bit
                       and self._open[f.dealer] < 0)
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
            if self._open[j] < 0:
                allowed = pool & ~suits_mask(f.lacks[j]) & ~not_turnup
                if f.decl[j] == "pass" and rules.privileged_must_play:
                    allowed &= ~priv_bit  # MI8: the holder of the privileged card may not pass
                hand_bin[j] = len(bins)
                bins.append((view.hand_sizes[j], allowed, -1))
            known_dead[j] = self._known_dead(f, j)
            hidden_dead = view.discard_counts[j] - card_count(known_dead[j])
            if hidden_dead:
                allowed = pool & ~not_turnup
                if not rules.can_discard_privileged:
                    allowed &= ~priv_bit  # MI5
                dead_bin[j] = len(bins)
                bins.append((hidden_dead, allowed, -1))
        talon_bin = len(bins)
        bins.append((view.talon_size, pool & ~turn_bit, -1))
        self._bins = _TrumpBins(bit_list(pool), bins, hand_bin, dead_bin, talon_bin, known_dead)
        return self._bins

    def _seat_history(self, f: TrumpFacts, tb: _TrumpBins, j: int, filled: list[int],
                      rng: random.Random) -> tuple[int, int, int, int, int]:
        """How another seat's cards of ``filled`` got there.

        (dealt hand, hand after the exchange, drawn, discarded, the take's
        discard).  The discards and draws the viewer did not see are chosen here
        (C7); the dealer's discard for the turned card too, if unseen (C6).
        """
        turn_bit = 1 << f.turnup
        now = filled[tb.hand_bin[j]] if self._open[j] < 0 else self._open[j]
        dead = tb.known_dead[j] | (filled[tb.dead_bin[j]] if tb.dead_bin[j] >= 0 else 0)
        took = f.took and j == f.dealer
        d = -1
        if took:
            d = f.take_discard
            if d < 0:
                options = dead & ~turn_bit
                if not options:
                    raise SampleFailed
                d = rng.choice(bit_list(options))
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
                    raise SampleFailed
                got = pick_bits(candidates, k, rng)
            before = (h1 & ~got) | disc
            after = h1
        else:
            before = now
        if took:
            if not before & turn_bit:
                raise SampleFailed
            before = (before & ~turn_bit) | 1 << d
        if f.h0[j] >= 0 and f.h0[j] != before:
            raise SampleFailed
        return before, after, got, disc, d

    def _special_shown(self, f: TrumpFacts, j: int, h0: int, after: int, drawn: int) -> bool:
        """C22/MI9/MI13: whether seat ``j`` would have shown a special hand (so the world is not the view's)."""
        if f.h0[j] >= 0 and f.h1[j] < 0 and self._open[j] >= 0:
            return False
        if f.h0[j] < 0 and is_special(self.rules, h0):
            return True
        changed = drawn or (f.took and j == f.dealer)
        return bool(changed and f.h1[j] < 0 and f.decl[j] == "stand" and is_special(self.rules, after))

    def _likelihood_of(self, f: TrumpFacts) -> SeatLikelihood:
        """The view's :class:`SeatLikelihood`, read once (again if the model or ``believe_plays`` changed)."""
        like = self._likelihood
        if like is None or like.plays != self.believe_plays or like.model is not self.model:
            like = SeatLikelihood(self.model, self.view, self.records, f, self.believe_plays)
            self._likelihood = like
        return like

    def _redraw(self, tb: _TrumpBins, j: int, filled: list[int], rng: random.Random) -> list[int] | None:
        """Seat ``j``'s hidden hand and discards dealt again, with the talon's unseen cards; the others' kept."""
        own = [tb.hand_bin[j], tb.dead_bin[j], tb.talon_bin]
        own = [b for b in own if b >= 0]
        cards = 0
        for b in own:
            cards |= filled[b]
        got = assign(bit_list(cards), [tb.bins[b] for b in own], rng)
        if got is None:
            return None
        out = filled[:]
        for i in range(len(own)):
            out[own[i]] = got[i]
        return out

    def _seatwise(self, f: TrumpFacts, tb: _TrumpBins, filled: list[int], hist: list[tuple[int, int, int, int, int]],
                  rng: random.Random) -> list[int]:
        """Draw the hidden hands seat by seat from the belief (``seatwise`` sweeps); the new filling.

        Each seat in turn keeps its cards with the probability its
        :meth:`SeatLikelihood.seat_factor` gives them (tested by
        :meth:`SeatLikelihood.seat_accepts`), else deals its hand and
        discards again from its own cards and the talon's (the other
        seats' cards stay), up to :data:`SEAT_TRIES` times: a rejection
        step per seat, given the others, as in Gibbs sampling.  The first
        sweep tests the uniform cards first; later sweeps deal again first.
        A seat that finds no likelier cards keeps its last ones: a belief
        never makes a world impossible.
        """
        like = self._likelihood_of(f)
        random_ = rng.random
        for sweep in range(self.seatwise):
            for j in like.players:  # the seats whose hands are hidden: each has a hand bin
                for attempt in range(SEAT_TRIES):
                    if sweep or attempt:
                        cand = self._redraw(tb, j, filled, rng)
                        if cand is None:
                            continue
                        try:
                            h = self._seat_history(f, tb, j, cand, rng)
                        except SampleFailed:
                            continue
                        if self._special_shown(f, j, h[0], h[1], h[2]):
                            continue
                    else:
                        cand, h = filled, hist[j]
                    filled, hist[j] = cand, h
                    start = cand[tb.hand_bin[j]] | f.played[j]
                    dead = h[3] | (1 << h[4] if h[4] >= 0 else 0)
                    if like.seat_accepts(j, h[0], h[4], start, dead, random_()):
                        break
        return filled

    def _propose_trump(self, f: TrumpFacts, rng: random.Random) -> tuple[list[int], list[int], list[Action]]:
        view = self.view
        rules = self.rules
        n = f.n
        me = f.me
        tb = self._trump_bins(f)
        filled = assign(tb.pool, tb.bins, rng)
        if filled is None:
            raise SampleFailed
        hist: list[tuple[int, int, int, int, int]] = [(0, 0, 0, 0, -1)] * n
        for j in range(n):
            if j != me:
                hist[j] = self._seat_history(f, tb, j, filled, rng)
        for j in range(n):
            if j != me and self._special_shown(f, j, hist[j][0], hist[j][1], hist[j][2]):
                raise SampleFailed
        seatwise = self.believe and self.seatwise > 0
        if seatwise:
            filled = self._seatwise(f, tb, filled, hist, rng)
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
            cards = bit_list(drawn[j])
            shuffle(rng, cards)
            talon.extend(cards)
        rest = bit_list(filled[tb.talon_bin])
        shuffle(rng, rest)
        talon.extend(rest)
        play_start = [0] * n
        for j in range(n):
            now_j = self._hand if j == me else (
                self._open[j] if self._open[j] >= 0 else filled[tb.hand_bin[j]] if tb.hand_bin[j] >= 0 else 0)
            play_start[j] = now_j | f.played[j]
        dead_of = [dead_ex[j] | (1 << take_d if f.took and j == f.dealer and take_d >= 0 else 0) for j in range(n)]
        self.last_belief_args = (h0[:], take_d, play_start[:], dead_of[:])
        if self.believe and not seatwise and rng.random() >= self._belief(f, h0, take_d, play_start, dead_of):
            raise SampleFailed
        deck = deal_deck(rules, view.dealer, h0, talon, f.turnup, rng)
        actions: list[Action] = []
        for st in f.steps:
            if st.kind == "play":
                actions.append(PLAYS[st.card])
            elif st.kind == "pass":
                actions.append(PASS)
            elif st.kind == "stand":
                actions.append(stand_mask(dead_ex[st.seat]))
            else:  # take
                actions.append(TAKES[take_d])
        return deck, [], actions

    def belief_weight(self, h0: list[int], take_d: int, start: list[int], dead: list[int],
                      plays: bool = True) -> float:
        """The likelihood weight of a world given by its hands (dealt, at play) and discards (classic, mistigri).

        For measurement: the weight :meth:`sample` gives a world when
        ``believe`` is on, here for any world, the true one included.
        """
        assert self.trump is not None
        keep = self.believe_plays
        self.believe_plays = plays
        try:
            return self._belief(self.trump, h0, take_d, start, dead)
        finally:
            self.believe_plays = keep

    def _known_dead(self, f: TrumpFacts, j: int) -> int:
        out = max(f.exch_discards[j], 0)
        if f.took and j == f.dealer and f.take_discard >= 0:
            out |= 1 << f.take_discard
        return out

    def _belief(self, f: TrumpFacts, h0: list[int], take_d: int, start: list[int], dead: list[int]) -> float:
        """How well the hidden hands explain the others' declarations (and plays): :func:`trump_belief`."""
        return self._likelihood_of(f).weight(h0, take_d, start, dead)


add_texts({
    "error.spectator_world": ("worlds are sampled for a seat's view, not for a spectator's",
                              "миры строятся по обзору игрока, а не зрителя"),
})

__all__ = ["BELIEF", "BeliefModel", "SampleFailed", "Step", "WorldSampler", "assign", "is_special",
           "max_suit_count", "pick_bits"]
