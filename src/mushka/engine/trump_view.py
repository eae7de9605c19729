"""What a trump deal tells: a seat's view of it, and its result once it is over.

Classic мушка and мушка-мистигри (:class:`mushka.engine.trump.TrumpDeal`, read
through its fields, :class:`~mushka.engine.trump_state.TrumpState`):
the view holds what a seat may know (its hand, the public cards and
declarations, the hands shown by MI9/C22), the result the settlement of the
records (C17-C19, MI6-MI7).  Both read the deal's state and change nothing.
"""

from __future__ import annotations

from mushka.cards import CARDS, Suit, cards_of
from mushka.engine.actions import Action
from mushka.engine.trump_state import PASSED, STOOD, UNDECIDED, TrumpState
from mushka.engine.types import DealResult, Phase
from mushka.engine.views import DealView


def record_changes(deal: TrumpState) -> tuple[list[int], list[int], list[int]]:
    """C17-C19, MI6-MI7 of a finished deal not stopped by a мушка: each seat's record
    change, remiz and privileged bonus (what :func:`trump_result` reports, and all that
    a deal's payoff needs: :func:`~mushka.engine.utility.trump_payoffs`)."""
    rules = deal.rules
    n = deal.n
    delta = [0] * n
    remiz = [0] * n
    bonus = [0] * n
    holder = deal._priv_holder
    for s in deal._order:
        tricks = deal._won[s]
        if tricks == 0:
            remiz[s] = rules.effective_privileged_remiz if s == holder else rules.remiz
            delta[s] = remiz[s]
        else:
            if s == holder:
                bonus[s] = rules.privileged_bonus
            delta[s] = -tricks * rules.trick_value - bonus[s]
    return delta, remiz, bonus


def trump_result(deal: TrumpState) -> DealResult:
    """C17-C19, MI6-MI7: each standing player's record changes."""
    rules = deal.rules
    n = deal.n
    all_passed, lone, mushka = deal._final
    zeros = (0,) * n
    standing = tuple(d == STOOD for d in deal._decl)
    if mushka >= 0:
        return DealResult(
            variant=rules.variant, dealer=deal.dealer, tricks=zeros, standing=standing,
            record_delta=zeros, remiz=zeros, bonus=zeros, side=zeros, mushka=mushka,
        )
    delta, remiz, bonus = record_changes(deal)
    holder = deal._priv_holder
    flush_seat = deal._flush_seat
    return DealResult(
        variant=rules.variant, dealer=deal.dealer, tricks=tuple(deal._won),
        standing=standing, record_delta=tuple(delta),
        remiz=tuple(remiz), bonus=tuple(bonus), side=tuple(deal._side),
        flush_seat=None if flush_seat < 0 else flush_seat, all_passed=all_passed,
        lone=None if lone < 0 else lone, privileged_holder=None if holder < 0 else holder,
        trick_log=deal.tricks,
    )


def trump_view(deal: TrumpState, seat: int | None) -> DealView:
    """What ``seat`` (or a spectator, ``None``) may know of ``deal``: see :class:`DealView`
    (the seat is checked by the deal)."""
    n = deal.n
    mine = seat is not None
    legal: tuple[Action, ...] = ()
    if mine and seat == deal.to_act and deal.phase != Phase.OVER:
        legal = tuple(deal._legal())
    # MI9: a shown flush stays public; C22: so does the hand that won the мушка.
    shown = deal._open | (1 << deal._final[2] if deal._final[2] >= 0 else 0)
    open_hands = tuple(
        cards_of(deal.hands[s]) if shown >> s & 1 else None for s in range(n)
    )
    names = {UNDECIDED: None, PASSED: "pass", STOOD: "stand"}
    return DealView(
        rules=deal.rules, seat=seat, dealer=deal.dealer, phase=deal.phase,
        to_act=None if deal.to_act < 0 else deal.to_act,
        hand=cards_of(deal.hands[seat]) if seat is not None else (),
        hand_sizes=tuple(h.bit_count() for h in deal.hands),
        talon_size=len(deal._talon),
        discard_counts=tuple(d.bit_count() for d in deal._dead),
        own_discards=cards_of(deal._dead[seat]) if seat is not None else (),
        legal=legal,
        events=tuple(deal.events(seat)),
        trick=deal.current_trick,
        leader=deal._trick[0] >> 6 if deal._trick else (
            deal.to_act if deal.phase == Phase.PLAY else None),
        tricks_won=tuple(deal._won),
        tricks=deal.tricks,
        open_hands=open_hands,
        result=deal.result,
        turnup=CARDS[deal.turnup],
        trump=Suit(deal.trump),
        turnup_taken=deal._took,
        declarations=tuple(names[d] for d in deal._decl),
        exchanged=tuple(deal._exch),
        playing=tuple(deal._order),
    )
