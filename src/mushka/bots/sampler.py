"""The search bot's worlds: the sampler of :mod:`mushka.worlds` with a belief about the players.

:class:`WorldSampler` draws worlds as :class:`~mushka.worlds.sampler.ViewSampler`
does (the facts of the view, a proposal, the proof on the engine) and may
prefer the worlds whose hidden hands explain the other seats' declarations
and plays as the rules of thumb would make them (``believe``;
:mod:`mushka.bots.belief`), classic and mistigri: it weighs whole worlds,
or deals the hidden hands again seat by seat (``seatwise``), as the
proposal's :class:`~mushka.worlds.trump.Preference`.
"""

from __future__ import annotations

import random

from mushka.bots.belief import BELIEF, BeliefModel, SeatLikelihood
from mushka.engine import DealView
from mushka.worlds.facts import TrumpFacts
from mushka.worlds.fill import WorldFailed
from mushka.worlds.sampler import ViewSampler
from mushka.worlds.trump import Hands, History, Preference, TrumpProposal

SEAT_TRIES = 60
"""How many hands one seat is dealt at most, in one sweep, before it keeps its last (``seatwise``)."""


class WorldSampler(ViewSampler):
    """Samples full deals consistent with everything a seat's view shows, believing the players' choices.

    >>> sampler = WorldSampler(view.deal, believe=1) # doctest: +SKIP
    >>> world = sampler.sample(random.Random(1))     # a Deal, or None  # doctest: +SKIP
    """

    def __init__(self, view: DealView, *, strict: bool | None = None, believe: int = 0,
                 records: tuple[int, ...] = (), model: BeliefModel | None = None, seatwise: int = 0) -> None:
        """Read ``view`` (a seat's :class:`DealView`, not a spectator's).

        ``strict`` as for :class:`ViewSampler`.
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
        self.believe = bool(believe) and view.rules.has_trumps
        self.believe_plays = self.believe and believe >= 2
        self.records = records
        self.seatwise = int(seatwise)
        self._likelihood: SeatLikelihood | None = None
        super().__init__(view, strict=strict)

    def _preference(self) -> Preference | None:
        """The belief, when it is on."""
        return self if self.believe else None

    # --- classic and mistigri: the belief about the players -------------------------

    @property
    def last_belief_args(self) -> Hands | None:
        """The hands behind the last proposal (dealt, the take's discard, at play, discards), for measurement."""
        return self.last_hands

    @property
    def seat_by_seat(self) -> bool:
        """Whether the belief deals the hidden hands seat by seat (``seatwise``) rather than weighing worlds."""
        return self.seatwise > 0

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
