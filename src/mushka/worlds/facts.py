"""What one seat knows of a deal, read from its view alone: the facts every world must respect.

A seat gets a :class:`~mushka.engine.DealView`: its own hand, the public
facts and its own redacted event log.  This module reads that log once into
plain facts, card masks and counts, that the proposals of
:mod:`mushka.worlds` build worlds from and that the bots reason with:

* cards seen (played, turned up, shown, the viewer's own hands and discards);
* what each seat has shown it lacks (C14 in classic and mistigri: not
  following, or not trumping when void; K11 in kopilka: a draw, a pass without
  a remiz while the remiz is not 0), when it showed it, and what it has shown
  it holds (K12: a pass paid for with a remiz; K16: a lead of the banned suit);
* the declarations, exchange counts and the turned card the dealer took
  (C6-C8), passes with the privileged card forbidden (MI8)
  (:func:`trump_facts`);
* in kopilka the redistribution (K6-K8), the draws, passes and penalties of
  play (K11, K12) (:func:`kopilka_facts`).

This is the one reading of a view: the bots' sampler and the research
resampler never disagree on what a view shows (K12: a pass at a remiz of 0
is not a void).  Only public information and the viewer's own is read;
nothing here can reach a deal object.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mushka.cards import SUIT_MASKS
from mushka.engine import DealView
from mushka.engine.actions import DISCARDS, DRAW, PASS, PLAYS, TAKES, Action, stand_mask
from mushka.engine.events import (
    CardTaken,
    Dealt,
    Declared,
    Discarded,
    Drew,
    GroupDeclared,
    GroupSettled,
    Paid,
    Passed,
    Played,
    PlayStarted,
    Shown,
    TakenBack,
    TookTurnup,
    TrickTaken,
)
from mushka.errors import MushkaError
from mushka.i18n import add_texts
from mushka.rules.choices import Renege


def mask_of_cards(cards: tuple[object, ...] | None) -> int:
    """The mask of a tuple of cards (``None`` for a hidden tuple gives 0)."""
    out = 0
    for c in cards or ():
        out |= 1 << c.index  # type: ignore[attr-defined]
    return out


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


def step_actions(steps: list[Step], me: int, *, stands: list[int] | None = None, take: int = -1,
                 discarded: dict[tuple[int, int], int] | None = None) -> list[Action]:
    """The actions that replay a history of ``steps``, with the hidden parts a proposal chose.

    ``stands`` are each seat's exchange discards (C7), ``take`` the dealer's
    discard for the turned card (C6), ``discarded`` the other seats' hidden
    kopilka discards by (seat, which discard of that seat) (K7/K8); the
    viewer's own discards are his steps' cards.
    """
    out: list[Action] = []
    for st in steps:
        kind = st.kind
        if kind == "play":
            out.append(PLAYS[st.card])
        elif kind == "pass":
            out.append(PASS)
        elif kind == "draw":
            out.append(DRAW)
        elif kind == "stand":
            assert stands is not None
            out.append(stand_mask(stands[st.seat]))
        elif kind == "take":
            out.append(TAKES[take])
        else:  # discard
            assert discarded is not None
            out.append(DISCARDS[st.card if st.seat == me else discarded[st.seat, st.ref]])
    return out


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
    steps: list[Step]
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
    steps: list[Step] = []
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
    reveals = rules.renege is Renege.FORBID or rules.remiz > 0
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
            steps.append(Step(e.seat, "discard", card, ref=discard_counts[e.seat]))
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
            steps.append(Step(seat, "play", c))
            timeline[seat].append((time, "play", c, lead_suit))
            if seat == me:
                hand_me &= ~(1 << c)
        elif isinstance(e, Drew):
            seat = e.seat
            # K11: a draw is allowed only to a seat without the led suit.
            observations.append(Observation(time, seat, "lacks", lead_suit))
            steps.append(Step(seat, "draw"))
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
            steps.append(Step(seat, "pass"))
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


add_texts({
    "error.spectator_world": ("worlds are sampled for a seat's view, not for a spectator's",
                              "миры строятся по обзору игрока, а не зрителя"),
})

__all__ = ["KopilkaBlock", "KopilkaFacts", "Observation", "Step", "TrumpFacts", "kopilka_facts", "mask_of_cards",
           "step_actions", "suits_mask", "trump_facts"]
