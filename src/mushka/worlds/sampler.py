"""Worlds consistent with one seat's view, each proven on the engine: the sampler.

A *world* is a full deal, every hidden card placed, at the very point the
view shows.  :class:`ViewSampler` builds one in three steps:

1. **Where are the unknown cards now?** and 2. **How did they get there?**
   A proposal from the facts of the view: the trump proposal
   (:class:`~mushka.worlds.trump.TrumpProposal`: bans of voids, passes and
   exchanges, each seat's history rebuilt backwards) in classic and
   mistigri, the kopilka proposal (:func:`~mushka.worlds.kopilka.propose_kopilka`:
   the redistribution K7/K8 undone, every seat checked without a group
   holding at most two cards of a suit at its check) in kopilka.  This gives
   a stacked deck (N4) and the chance outcomes of the picks.  A subclass may
   prefer some worlds to others (:meth:`ViewSampler._preference`: the search
   bots' belief about the players, :class:`mushka.bots.sampler.WorldSampler`).
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

from mushka.engine import Action, Deal, DealView, new_deal
from mushka.engine.kopilka import KopilkaDeal
from mushka.errors import MushkaError
from mushka.worlds.facts import KopilkaFacts, TrumpFacts, kopilka_facts, mask_of_cards, trump_facts
from mushka.worlds.fill import WorldFailed
from mushka.worlds.kopilka import propose_kopilka
from mushka.worlds.trump import Preference, TrumpProposal


class ViewSampler:
    """Samples full deals consistent with everything a seat's view shows.

    >>> sampler = ViewSampler(view.deal)             # doctest: +SKIP
    >>> world = sampler.sample(random.Random(1))     # a Deal, or None  # doctest: +SKIP

    A world is built on the engine's fast path (no event log) at the view's
    point of play, with the viewer to act when it is his turn; ``attempts``
    and ``accepted`` count the proposals made and kept.
    """

    def __init__(self, view: DealView, *, strict: bool | None = None) -> None:
        """Read ``view`` (a seat's :class:`DealView`, not a spectator's).

        ``strict`` compares every event of each world with the view;
        otherwise (the default) worlds are proven on the engine's fast path,
        which is quicker (see :meth:`_verify`).
        """
        if view.seat is None:
            raise MushkaError("spectator_world")
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
        """The facts of a classic or mistigri view (``None`` in kopilka)."""
        self.kopilka: KopilkaFacts | None = None
        """The facts of a kopilka view (``None`` in classic and mistigri)."""
        if self.rules.has_trumps:
            self.trump = trump_facts(view)
        else:
            self.kopilka = kopilka_facts(view)

    def sample(self, rng: random.Random, tries: int = 200) -> Deal | None:
        """One world, or ``None`` if ``tries`` proposals all failed."""
        for attempt in range(tries):
            self.attempts += 1
            # A preference among worlds is never a reason to find nothing: it holds for half the tries.
            prefer = self._preference() if attempt < tries // 2 else None
            try:
                proposal = self._propose(rng, prefer)
            except WorldFailed:
                continue
            world = self._verify(*proposal)
            if world is not None:
                self.accepted += 1
                return world
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
            return self._propose(rng, self._preference())
        except WorldFailed:
            return None

    @property
    def last_hands(self) -> tuple[list[int], int, list[int], list[int]] | None:
        """The hands behind the last trump proposal (dealt, the take's discard, at play, discards), for measurement."""
        return None if self._proposal is None else self._proposal.last_hands

    def _preference(self) -> Preference | None:
        """The preference among worlds the proposals follow (none: worlds uniform under the facts)."""
        return None

    def _trump_proposal(self, f: TrumpFacts) -> TrumpProposal:
        """Where the unknown cards may go (the same for every proposal of this view): read once."""
        if self._proposal is None:
            self._proposal = TrumpProposal(self.view, f)
        return self._proposal

    def _propose(self, rng: random.Random, prefer: Preference | None) -> tuple[list[int], list[int], list[Action]]:
        if self.trump is not None:
            return self._trump_proposal(self.trump).propose(rng, prefer)
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


__all__ = ["ViewSampler"]
