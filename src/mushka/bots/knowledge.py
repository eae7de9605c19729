"""What one seat knows of a deal, read from its view alone.

A bot gets a :class:`~mushka.engine.DealView`: its own hand, the public
facts and its own redacted event log.  This module reads that log once into
plain facts, card masks and counts, that the bots reason with and that the
world sampler (:mod:`mushka.bots.sampler`) must respect:

* cards seen (played, turned up, shown, the viewer's own hands and discards);
* what each seat has shown it lacks (C14 in classic and mistigri: not
  following, or not trumping when void; K11 in kopilka: a draw, a pass without
  a remiz), when it showed it, and what it has shown it holds (K12: a pass
  paid for with a remiz; K16: a lead of the banned suit);
* the declarations, exchange counts and the turned card the dealer took
  (C6-C8), passes with the privileged card forbidden (MI8);
* in kopilka the redistribution (K6-K8), the draws, passes and penalties of
  play (K11, K12): the rules core reads those itself
  (:func:`mushka.engine.resample_kopilka.kopilka_facts`, re-exported here), so
  that the bots and the research resampler never disagree on what a kopilka
  view shows (K12: a pass at a remiz of 0 is not a void).

Only public information and the viewer's own is read; nothing here can reach
a deal object.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mushka.cards import SUIT_MASKS
from mushka.engine import DealView
from mushka.engine.events import (
    Dealt,
    Declared,
    Played,
    PlayStarted,
    Shown,
    TookTurnup,
    TrickTaken,
)
from mushka.engine.resample_kopilka import KopilkaFacts, kopilka_facts, mask_of_cards


def suits_mask(suits: int) -> int:
    """The card mask of every card of the suits in the 4-bit set ``suits``."""
    out = 0
    for s in range(4):
        if suits >> s & 1:
            out |= SUIT_MASKS[s]
    return out


@dataclass(slots=True)
class Step:
    """One action of the deal's history, as the viewer can reconstruct it.

    ``kind`` is ``pass``, ``stand``, ``take``, ``play``, ``draw`` or
    ``discard``; ``card`` is the card index where the viewer knows it
    (played cards, his own discards), else -1; ``mask`` the viewer's own
    exchange.  Hidden parts are filled in by the sampler.
    """

    seat: int
    kind: str
    card: int = -1
    mask: int = 0
    ref: int = -1
    """For a hidden discard: which discard of that seat it is (in order)."""


@dataclass(slots=True)
class TrumpFacts:
    """The facts of a classic or mistigri deal known to one seat."""

    me: int
    n: int
    dealer: int
    eldest: int
    trump: int
    turnup: int
    priv: int
    h0: list[int]
    """The hands as dealt where known (the viewer's, hands shown right after the deal), else -1."""
    h1: list[int]
    """Hands known after their owner's declaration (shown then), else -1."""
    decl: list[str | None]
    exch: list[int]
    """Cards exchanged per seat (-1: not declared yet)."""
    exch_discards: list[int]
    """Known exchange discards (the viewer's, open hands), else -1."""
    exch_drawn: list[int]
    took: bool = False
    take_discard: int = -1
    steps: list[Step] = field(default_factory=list)
    draw_order: list[int] = field(default_factory=list)
    """Seats that drew from the talon, in order (C7: the talon is drawn from the top)."""
    played: list[int] = field(default_factory=list)
    """Cards each seat has played."""
    played_all: int = 0
    lacks: list[int] = field(default_factory=list)
    """Per seat, a 4-bit set of suits it has shown it lacks (C14; for good, no card comes in during play)."""
    seen: int = 0
    """Every card whose place the viewer knows (not in the unknown pool)."""


def trump_facts(view: DealView) -> TrumpFacts:
    """Read a classic or mistigri view into :class:`TrumpFacts`."""
    assert view.seat is not None and view.turnup is not None and view.trump is not None
    rules = view.rules
    n = rules.players
    me = view.seat
    f = TrumpFacts(
        me=me, n=n, dealer=view.dealer, eldest=(view.dealer + 1) % n, trump=int(view.trump),
        turnup=view.turnup.index, priv=rules.privileged.index,
        h0=[-1] * n, h1=[-1] * n, decl=[None] * n, exch=[-1] * n,
        exch_discards=[-1] * n, exch_drawn=[-1] * n,
        played=[0] * n, lacks=[0] * n,
    )
    lead_suit = -1
    in_trick = 0
    for e in view.events:
        if isinstance(e, Played):
            c = e.card.index
            s = c // 13
            if in_trick == 0:
                lead_suit = s
            elif (c != f.priv or not rules.privileged_free_play) and s != lead_suit and rules.must_follow:
                # C14: not following shows a void; not trumping then shows no trumps.
                f.lacks[e.seat] |= 1 << lead_suit
                if s != f.trump and rules.must_trump_if_void:
                    f.lacks[e.seat] |= 1 << f.trump
            in_trick += 1
            f.played[e.seat] |= 1 << c
            f.played_all |= 1 << c
            f.steps.append(Step(e.seat, "play", c))
        elif isinstance(e, TrickTaken):
            in_trick = 0
        elif isinstance(e, Declared):
            seat = e.seat
            f.decl[seat] = "stand" if e.stand else "pass"
            f.exch[seat] = e.count if e.stand else 0
            if e.stand:
                if e.discards is not None:
                    f.exch_discards[seat] = mask_of_cards(e.discards)
                    f.exch_drawn[seat] = mask_of_cards(e.drawn)
                f.steps.append(Step(seat, "stand", mask=max(f.exch_discards[seat], 0)))
                if e.count:
                    f.draw_order.append(seat)
            else:
                f.steps.append(Step(seat, "pass"))
        elif isinstance(e, TookTurnup):
            f.took = True
            if e.discard is not None:
                f.take_discard = e.discard.index
            f.steps.append(Step(e.seat, "take", f.take_discard))
        elif isinstance(e, Shown):
            m = mask_of_cards(e.cards)
            if f.decl[e.seat] is None and not (e.seat == f.dealer and f.took):
                f.h0[e.seat] = m
            else:
                f.h1[e.seat] = m
        elif isinstance(e, Dealt):
            hand = e.hands[me]
            f.h0[me] = mask_of_cards(hand)
        elif isinstance(e, PlayStarted):
            pass
    seen = f.played_all | mask_of_cards(view.hand) | mask_of_cards(view.own_discards) | 1 << f.turnup
    for h in view.open_hands:
        seen |= mask_of_cards(h)
    for s in range(n):
        if f.exch_discards[s] >= 0:
            seen |= f.exch_discards[s] | f.exch_drawn[s]
    if f.take_discard >= 0:
        seen |= 1 << f.take_discard
    f.seen = seen
    return f


__all__ = ["KopilkaFacts", "Step", "TrumpFacts", "kopilka_facts", "mask_of_cards", "suits_mask", "trump_facts"]
