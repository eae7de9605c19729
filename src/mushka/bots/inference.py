"""Inference measured: how much likelier the belief makes the true deal than uniform worlds.

The search bot's worlds come from :class:`~mushka.bots.sampler.WorldSampler`:
uniform over the deals consistent with the seat's hard facts, or weighted by
a likelihood of the other seats' public actions under a model of how they
play (:class:`~mushka.bots.belief.BeliefModel`): their declarations, stand
or pass and how many cards exchanged and whether the dealer took the turned
card (C6-C8), and their plays (C13-C15).  If ``q`` is the uniform proposal
and ``w`` the weight, the belief is ``q·w / E_q[w]`` and its log-likelihood
ratio against uniform for the true deal ``x`` is

    log w(x) − log E_q[w]

estimated with uniform worlds drawn at the same point (:func:`log_ratio`).
``bench/bots_inference.py`` fits the model's factors on self-play and
reports this ratio on held-out games.  Classic and mistigri.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Iterable
from dataclasses import dataclass

from mushka.bots.base import make_bot
from mushka.bots.belief import BeliefModel
from mushka.bots.sampler import WorldSampler
from mushka.engine import Deal, Phase
from mushka.match import new_game
from mushka.rules import make_rules

Hands = tuple[list[int], int, list[int], list[int]]
"""Dealt hands, the dealer's take discard (−1: none), the hands when play began, each seat's discards (masks)."""


@dataclass
class Position:
    """One seat's point of view in a game, the truth behind it, and uniform worlds drawn there."""

    seed: int
    """The game's seed."""
    truth: Hands
    """The true hands."""
    worlds: list[Hands]
    """The hands of uniform worlds consistent with the view."""
    sampler: WorldSampler
    """The sampler of the view (it computes the weights)."""


def true_hands(deal: Deal) -> Hands:
    """The true hands of a deal in play (classic or mistigri), read from its omniscient events."""
    n = deal.n
    h0 = [0] * n
    dead = [0] * n
    take_d = -1
    start = [0] * n
    for e in deal.events(omniscient=True):
        name = type(e).__name__
        if name == "Dealt":
            for s, hand in enumerate(e.hands):  # type: ignore[attr-defined]
                for c in hand or ():
                    h0[s] |= 1 << c.index
            start = h0[:]
        elif name == "TookTurnup" and e.discard is not None:  # type: ignore[attr-defined]
            seat, card, take_d = e.seat, e.card.index, e.discard.index  # type: ignore[attr-defined]
            dead[seat] |= 1 << take_d
            start[seat] = (start[seat] & ~(1 << take_d)) | 1 << card
        elif name == "Declared" and e.stand and e.discards:  # type: ignore[attr-defined]
            for c in e.discards:  # type: ignore[attr-defined]
                dead[e.seat] |= 1 << c.index  # type: ignore[attr-defined]
                start[e.seat] &= ~(1 << c.index)  # type: ignore[attr-defined]
            for c in e.drawn or ():  # type: ignore[attr-defined]
                start[e.seat] |= 1 << c.index  # type: ignore[attr-defined]
    return h0, take_d, start, dead


def self_play_positions(variant: str, players: int, seeds: Iterable[int], worlds: int, *,
                        bot: str = "heuristic", max_deals: int = 12) -> list[Position]:
    """Positions of games played by ``bot`` in every seat: each seat at its first and third play of each deal."""
    rules = make_rules(variant, players)
    out = []
    for seed in seeds:
        game = new_game(rules, rng=seed, max_deals=max_deals)
        bots = [make_bot(bot) for _ in range(players)]
        rng = random.Random(seed)
        plays = [0] * players
        deal_no = -1
        while not game.is_over:
            seat = game.to_act
            view = game.view(seat)
            if view.number != deal_no:
                deal_no, plays = view.number, [0] * players
            d = view.deal
            if d.phase == Phase.PLAY:
                plays[seat] += 1
                if plays[seat] in (1, 3):
                    sampler = WorldSampler(d, records=view.records)
                    drawn = []
                    for _ in range(worlds):
                        if sampler.sample(rng) is not None and sampler.last_belief_args is not None:
                            drawn.append(sampler.last_belief_args)
                    if drawn:
                        out.append(Position(seed, true_hands(game.deal), drawn, sampler))
            game.apply(bots[seat].choose(view, rng), seat)
    return out


def log_ratio(pos: Position, model: BeliefModel, plays: bool) -> float:
    """log w(true) − log mean w(uniform worlds) under ``model`` (``plays``: weigh the plays too)."""
    pos.sampler.model = model
    wt = pos.sampler.belief_weight(*pos.truth, plays=plays)
    ws = [pos.sampler.belief_weight(*a, plays=plays) for a in pos.worlds]
    return math.log(wt) - math.log(statistics.mean(ws))


def per_game(rows: list[Position], model: BeliefModel, plays: bool) -> list[float]:
    """The summed log-likelihood ratio of each game's positions, game by game."""
    by: dict[int, float] = {}
    for pos in rows:
        by[pos.seed] = by.get(pos.seed, 0.0) + log_ratio(pos, model, plays)
    return list(by.values())
