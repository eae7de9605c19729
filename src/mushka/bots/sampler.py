"""Worlds consistent with one seat's view: the sampler behind the search bot.

A *world* is a full deal, every hidden card placed, at the very point the
view shows.  The sampler builds one in three steps:

1. **Where are the unknown cards now?** and 2. **How did they get there?**
   :mod:`mushka.worlds` proposes a world from the facts of the view: the
   trump proposal (:class:`~mushka.worlds.trump.TrumpProposal`: bans of
   voids, passes and exchanges, each seat's history rebuilt backwards) in
   classic and mistigri, the kopilka proposal
   (:func:`~mushka.worlds.kopilka.propose_kopilka`: the redistribution
   K7/K8 undone, every seat checked without a group holding at most two
   cards of a suit at its check) in kopilka.  This gives a stacked deck (N4)
   and the chance outcomes of the picks.  Here the sampler may prefer worlds
   whose hidden hands explain the other seats' declarations and plays
   (``believe``; :mod:`mushka.bots.belief`), weighing whole worlds or
   dealing the hands again seat by seat (``seatwise``).
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

from mushka.bots.belief import BELIEF, BeliefModel, SeatLikelihood
from mushka.engine import Action, Deal, DealView, new_deal
from mushka.engine.kopilka import KopilkaDeal
from mushka.errors import MushkaError
from mushka.worlds.facts import KopilkaFacts, TrumpFacts, kopilka_facts, mask_of_cards, trump_facts
from mushka.worlds.fill import WorldFailed
from mushka.worlds.kopilka import propose_kopilka
from mushka.worlds.trump import Hands, History, TrumpProposal

SEAT_TRIES = 60
"""How many hands one seat is dealt at most, in one sweep, before it keeps its last (``seatwise``)."""


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
        would make them (see :meth:`weight`; classic and mistigri);
        ``records`` are the partie's records, which shape those declarations;
        ``model`` holds the likelihood factors (:data:`BELIEF`, fitted by
        ``bench/bots_inference.py``).  ``seatwise`` (with ``believe``) draws
        the hidden hands seat by seat from the belief, in that many sweeps
        (:meth:`redeal`), instead of rejecting whole worlds: a seat whose
        cards explain its actions badly is dealt again alone.
        """
        self.model = model or BELIEF
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
        # The viewer's hand as a mask, read once (the kopilka worlds must end with it).
        self._hand = mask_of_cards(view.hand)
        self._proposal: TrumpProposal | None = None
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
            except WorldFailed:
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
        except WorldFailed:
            return None

    # --- shared -----------------------------------------------------------------

    def _propose(self, rng: random.Random) -> tuple[list[int], list[int], list[Action]]:
        if self.trump is not None:
            return self._trump_proposal(self.trump).propose(rng, self if self.believe else None)
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

    # --- classic and mistigri: the belief about the players -------------------------

    @property
    def last_belief_args(self) -> Hands | None:
        """The hands behind the last proposal (dealt, the take's discard, at play, discards), for measurement."""
        return None if self._proposal is None else self._proposal.last_hands

    @property
    def seat_by_seat(self) -> bool:
        """Whether the belief deals the hidden hands seat by seat (``seatwise``) rather than weighing worlds."""
        return self.seatwise > 0

    def _trump_proposal(self, f: TrumpFacts) -> TrumpProposal:
        """Where the unknown cards may go (the same for every proposal of this view): read once."""
        if self._proposal is None:
            self._proposal = TrumpProposal(self.view, f)
        return self._proposal

    def _likelihood_of(self, f: TrumpFacts) -> SeatLikelihood:
        """The view's :class:`SeatLikelihood`, read once (again if the model or ``believe_plays`` changed)."""
        like = self._likelihood
        if like is None or like.plays != self.believe_plays or like.model is not self.model:
            like = SeatLikelihood(self.model, self.view, self.records, f, self.believe_plays)
            self._likelihood = like
        return like

    def redeal(self, proposal: TrumpProposal, filled: list[int], hist: list[History],
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
        never makes a world impossible.  (The proposal calls this, as a
        :class:`~mushka.worlds.trump.Preference`.)
        """
        f = proposal.facts
        like = self._likelihood_of(f)
        random_ = rng.random
        for sweep in range(self.seatwise):
            for j in like.players:  # the seats whose hands are hidden: each has a hand bin
                for attempt in range(SEAT_TRIES):
                    if sweep or attempt:
                        cand = proposal.redraw(j, filled, rng)
                        if cand is None:
                            continue
                        try:
                            h = proposal.seat_history(j, cand, rng)
                        except WorldFailed:
                            continue
                        if proposal.special_shown(j, h[0], h[1], h[2]):
                            continue
                    else:
                        cand, h = filled, hist[j]
                    filled, hist[j] = cand, h
                    start = cand[proposal.hand_bin[j]] | f.played[j]
                    dead = h[3] | (1 << h[4] if h[4] >= 0 else 0)
                    if like.seat_accepts(j, h[0], h[4], start, dead, random_()):
                        break
        return filled

    def weight(self, hands: Hands) -> float:
        """How well the hidden hands explain the others' declarations (and plays): the world's belief weight."""
        assert self.trump is not None
        h0, take_d, start, dead = hands
        return self._likelihood_of(self.trump).weight(h0, take_d, start, dead)

    def belief_weight(self, h0: list[int], take_d: int, start: list[int], dead: list[int],
                      plays: bool = True) -> float:
        """The likelihood weight of a world given by its hands (dealt, at play) and discards (classic, mistigri).

        For measurement: the weight :meth:`sample` gives a world when
        ``believe`` is on, here for any world, the true one included.
        """
        keep = self.believe_plays
        self.believe_plays = plays
        try:
            return self.weight((h0, take_d, start, dead))
        finally:
            self.believe_plays = keep


__all__ = ["SEAT_TRIES", "WorldSampler"]
