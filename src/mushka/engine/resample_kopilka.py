"""Resampling a kopilka game from one seat's view (K5-K19): the facts and the loop.

:func:`resample_kopilka` draws a whole kopilka state -- the deck in deal and
talon order, the random picks of K7/K8 and the other seats' hidden discards
-- that the seat cannot tell from the real one.  It reads only the seat's
view (:class:`~mushka.engine.DealView`: its hand, the public counts and its
own redacted events, §4 of RULES), never the deal behind it.

:func:`kopilka_facts` reads that view once into plain facts (what each seat
has shown it lacks or holds, the groups and picks, the draws with their
places in the talon); :func:`mushka.engine.resample_worlds.propose_kopilka`
builds a world from them backwards (where the unknown cards are now, then the
play and the redistribution undone down to the stacked deck, N4); the world
is kept when the engine, replaying it with checks, shows the seat exactly
the events it saw.  The search bots draw their kopilka worlds from the same
proposal (:mod:`mushka.bots.sampler_kopilka`).

Like the trump resampler this is a consistent sampler, not the exact
posterior: docs/research.md reports its acceptance and how its marginals
compare with exact counting.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from mushka.engine import new_deal
from mushka.engine.deal import Deal
from mushka.engine.events import (
    CardTaken,
    Dealt,
    Discarded,
    Drew,
    GroupDeclared,
    GroupSettled,
    Paid,
    Passed,
    Played,
    PlayStarted,
    TakenBack,
    TrickTaken,
)
from mushka.engine.resample_worlds import WorldFailed, propose_kopilka
from mushka.engine.views import DealView
from mushka.errors import MushkaError


def mask_of_cards(cards: tuple[object, ...] | None) -> int:
    """The mask of a tuple of cards (``None`` for a hidden tuple gives 0)."""
    out = 0
    for c in cards or ():
        out |= 1 << c.index  # type: ignore[attr-defined]
    return out


@dataclass(slots=True)
class KopilkaStep:
    """One action of the history as the viewer can rebuild it: ``play``, ``draw``, ``pass`` or ``discard``."""

    seat: int
    kind: str
    card: int = -1
    """The card where the viewer knows it (played cards, his own discards), else -1."""
    ref: int = -1
    """For a hidden discard: which discard of that seat it is (in order)."""


@dataclass(slots=True)
class KopilkaBlock:
    """One redistribution (K7/K8) as the viewer saw it."""

    owner: int
    count: int
    takers: list[int]
    my_pick: int = -1
    """The card the viewer took from this group (if he was a taker)."""
    taken: int = -1
    """Mask of the cards taken from the viewer's group (if he was the owner)."""
    drawn: int = -1
    """Mask of the viewer's replacement cards (if he was the owner)."""
    drawn_count: int = 0
    returned: int = 0
    discards: list[tuple[int, int, int]] = field(default_factory=list)
    """(seat, card or -1, which discard of that seat it is) in order, as far as they have happened."""
    checked_before: list[int] = field(default_factory=list)
    """Seats checked without a group just before this owner (K7: in order from the eldest)."""


@dataclass(slots=True)
class Observation:
    """A play-phase fact about one seat at one moment (K11, K12, K16)."""

    time: int
    seat: int
    kind: str
    """``lacks`` (no card of ``suit``), ``has`` (some card of ``suit``) or ``only`` (only ``suit``)."""
    suit: int


@dataclass(slots=True)
class KopilkaFacts:
    """The facts of a kopilka game known to one seat."""

    me: int
    n: int
    dealer: int
    eldest: int
    h0_me: int
    blocks: list[KopilkaBlock]
    checked_after: list[int]
    """Seats checked without a group after the last block (all of them once play began)."""
    play_started: bool
    start_sizes: list[int]
    """Hand sizes when play began (or now, during the redistribution)."""
    start_me: int
    """The viewer's hand when play began (or now)."""
    steps: list[KopilkaStep]
    """Every action: the takers' discards, then the plays, draws and passes."""
    timeline: list[list[tuple[int, str, int, int]]]
    """Per seat, its play-phase events: (time, what, card, led suit); what is
    ``play``, ``keep`` (kept a drawn card), ``back`` (K15 take-back)."""
    observations: list[Observation]
    draws: list[tuple[int, int, int]]
    """Every draw from the talon during play, in order: (seat, card or -1, led suit)."""
    discard_counts: list[int]
    played_by_seat: list[int]
    """Cards each seat has played from its hand (K15 take-backs included)."""
    seen: int
    """Every card whose place the viewer knows (not in the unknown pool)."""
    initial_pot: int
    initial_balances: list[int]


def kopilka_facts(view: DealView) -> KopilkaFacts:
    """Read a seat's kopilka view into :class:`KopilkaFacts` (its own events and public counts only)."""
    if view.seat is None:
        raise MushkaError("spectator_world")
    rules = view.rules
    n = rules.players
    me = view.seat
    eldest = (view.dealer + 1) % n
    blocks: list[KopilkaBlock] = []
    steps: list[KopilkaStep] = []
    timeline: list[list[tuple[int, str, int, int]]] = [[] for _ in range(n)]
    observations: list[Observation] = []
    draws: list[tuple[int, int, int]] = []
    discard_counts = [0] * n
    paid = [0] * n
    played_all = 0
    played_by_seat = [0] * n
    held_known = [0] * n
    h0_me = 0
    hand_me = 0
    sizes = [5] * n
    start_sizes: list[int] | None = None
    start_me = -1
    play_started = False
    lead_suit = -1
    on_trick = False
    banned = -1
    last_winner = -1
    reveals = rules.renege == "forbid" or rules.remiz > 0
    for time, e in enumerate(view.events, 1):
        if isinstance(e, Dealt):
            h0_me = hand_me = mask_of_cards(e.hands[me])
        elif isinstance(e, GroupDeclared):
            blocks.append(KopilkaBlock(owner=e.seat, count=e.count, takers=[]))
            sizes[e.seat] -= e.count
        elif isinstance(e, CardTaken):
            b = blocks[-1]
            b.takers.append(e.taker)
            sizes[e.taker] += 1
            if e.card is not None and e.taker == me:
                b.my_pick = e.card.index
                hand_me |= 1 << b.my_pick
        elif isinstance(e, GroupSettled):
            b = blocks[-1]
            b.drawn_count = e.drawn_count
            b.returned = e.returned
            sizes[e.owner] += e.returned + e.drawn_count
            if e.owner == me and e.taken is not None:
                b.taken = mask_of_cards(e.taken)
                b.drawn = mask_of_cards(e.drawn)
                hand_me = (hand_me & ~b.taken) | b.drawn
        elif isinstance(e, Discarded):
            b = blocks[-1]
            card = -1 if e.card is None else e.card.index
            b.discards.append((e.seat, card, discard_counts[e.seat]))
            sizes[e.seat] -= 1
            steps.append(KopilkaStep(e.seat, "discard", card, ref=discard_counts[e.seat]))
            discard_counts[e.seat] += 1
            if e.seat == me:
                hand_me &= ~(1 << card)
        elif isinstance(e, PlayStarted):
            play_started = True
            start_sizes = sizes[:]
            start_me = hand_me
        elif isinstance(e, Played):
            c = e.card.index
            seat = e.seat
            if not on_trick:
                lead_suit = c // 13
                if banned >= 0 and lead_suit == banned and seat == last_winner:
                    # K16: leading the suit just won shows he holds nothing else.
                    observations.append(Observation(time, seat, "only", banned))
            on_trick = True
            played_all |= 1 << c
            played_by_seat[seat] |= 1 << c
            held_known[seat] &= ~(1 << c)
            steps.append(KopilkaStep(seat, "play", c))
            timeline[seat].append((time, "play", c, lead_suit))
            if seat == me:
                hand_me &= ~(1 << c)
        elif isinstance(e, Drew):
            seat = e.seat
            # K11: a draw is allowed only to a seat without the led suit.
            observations.append(Observation(time, seat, "lacks", lead_suit))
            steps.append(KopilkaStep(seat, "draw"))
            if e.played:
                assert e.card is not None
                c = e.card.index
                draws.append((seat, c, lead_suit))
                played_all |= 1 << c
            else:
                c = -1 if e.card is None else e.card.index
                draws.append((seat, c, lead_suit))
                timeline[seat].append((time, "keep", c, lead_suit))
                if seat == me:
                    hand_me |= 1 << c
        elif isinstance(e, Passed):
            seat = e.seat
            steps.append(KopilkaStep(seat, "pass"))
            # K12: a remiz paid for passing shows the led suit was in hand, and a pass without
            # one that it was not -- unless the remiz is 0, when a pass shows nothing.
            if e.penalty:
                observations.append(Observation(time, seat, "has", lead_suit))
            elif reveals:
                observations.append(Observation(time, seat, "lacks", lead_suit))
        elif isinstance(e, Paid):
            paid[e.seat] += e.amount
        elif isinstance(e, TakenBack):
            c = e.card.index
            played_all &= ~(1 << c)
            held_known[e.seat] |= 1 << c
            timeline[e.seat].append((time, "back", c, lead_suit))
            if e.seat == me:
                hand_me |= 1 << c
            on_trick = False
            banned = -1
            last_winner = -1
        elif isinstance(e, TrickTaken):
            on_trick = False
            banned = int(e.suit)
            last_winner = e.seat
    held_known[me] = 0
    # K7: seats are checked in order from the eldest; those between owners had no group.
    order = [(eldest + k) % n for k in range(n)]
    pos = 0
    for b in blocks:
        while order[pos] != b.owner:
            b.checked_before.append(order[pos])
            pos += 1
        pos += 1
    checked_after: list[int] = order[pos:] if play_started else []
    seen = played_all | mask_of_cards(view.hand) | mask_of_cards(view.own_discards)
    for s in range(n):
        seen |= held_known[s]
    for _, c, _ in draws:
        if c >= 0:
            seen |= 1 << c
    return KopilkaFacts(
        me=me, n=n, dealer=view.dealer, eldest=eldest, h0_me=h0_me, blocks=blocks,
        checked_after=checked_after, play_started=play_started,
        start_sizes=start_sizes if start_sizes is not None else list(view.hand_sizes),
        start_me=start_me if start_me >= 0 else mask_of_cards(view.hand),
        steps=steps, timeline=timeline, observations=observations, draws=draws,
        discard_counts=discard_counts, played_by_seat=played_by_seat, seen=seen,
        initial_pot=view.pot - sum(paid),
        initial_balances=[view.balances[s] + paid[s] for s in range(n)],
    )


def resample_kopilka(deal: Deal, seat: int, rng: random.Random, tries: int) -> Deal:
    """A kopilka deal ``seat`` cannot tell from ``deal``, built from ``seat``'s view alone.

    Raises :class:`MushkaError` (``resample_failed``, K7) if no proposal of
    ``tries`` was accepted.
    """
    view = deal.view(seat)
    facts = kopilka_facts(view)
    seen = list(view.events)
    for _ in range(tries):
        try:
            deck, picks, actions = propose_kopilka(view, facts, rng)
        except WorldFailed:
            continue
        # K7: picks still to come (groups not checked yet) come from a generator of their own.
        other = new_deal(deal.rules, deal.dealer, deck=deck, picks=picks, rng=random.Random(rng.getrandbits(64)),
                         pot=facts.initial_pot, balances=list(facts.initial_balances))
        try:
            for action in actions:
                other.apply(action)
        except MushkaError:
            continue
        if other.events(seat) == seen:
            return other
    raise MushkaError("resample_failed", rule="K7", tries=tries)
