"""Kopilka worlds for the search bots: the core resampler's proposal (K6-K16).

:func:`propose_kopilka` is the kopilka half of
:class:`mushka.bots.sampler.WorldSampler`'s proposal.  The world is built by
the rules core (:func:`mushka.engine.resample_worlds.propose_kopilka`, the
same proposal :func:`mushka.engine.resample.resample_deal` proves for the
research environments): which played cards came from the hand at the start
and which from kept draws (K11), the bans of the hidden cards left, the hands
before play, and the redistribution (K7/K8) rebuilt backwards down to the
dealt hands and the stacked deck (N4).  The sampler proves it by replay.
"""

from __future__ import annotations

import random

from mushka.bots.worlds import SampleFailed
from mushka.engine import Action, DealView
from mushka.engine.resample_kopilka import KopilkaFacts
from mushka.engine.resample_worlds import WorldFailed
from mushka.engine.resample_worlds import propose_kopilka as core_propose


def propose_kopilka(view: DealView, f: KopilkaFacts, rng: random.Random) -> tuple[list[int], list[int], list[Action]]:
    """A kopilka world for ``view``: the stacked deck, the picks and the actions to replay (K6-K16).

    ``f`` is the core's reading of the same view
    (:func:`mushka.engine.resample_kopilka.kopilka_facts`, read once per
    decision).  Raises :class:`SampleFailed` when the proposal cannot be
    completed.
    """
    try:
        return core_propose(view, f, rng)
    except WorldFailed:
        raise SampleFailed from None


__all__ = ["propose_kopilka"]
