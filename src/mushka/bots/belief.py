"""The belief model: how much likelier a world is, given what the other seats did.

The sampler's worlds are uniform over the deals consistent with the hard
facts of the view; :func:`trump_belief` weighs one by how well its hidden
hands explain the others' declarations (C6-C8) and plays (C13-C15), as the
rules of thumb (:mod:`mushka.bots.policy`) would make them, with the factors
of a :class:`BeliefModel`.
"""

from __future__ import annotations

from dataclasses import dataclass

from mushka.bots.knowledge import Step, TrumpFacts
from mushka.cards import SUIT_MASKS
from mushka.engine import DealView
from mushka.rules import Rules


@dataclass(frozen=True)
class BeliefModel:
    """How much less likely a world is for each action of another seat that the rules of thumb would not make.

    A world's weight is the product, over the other seats' declarations (and
    with ``believe`` 2 their plays), of 1 when the rules of thumb, given the
    world's hand, do what the seat did, and of these factors otherwise; never
    below ``floor``.  The factors are fitted by maximum likelihood of the
    true deal on self-play (``bench/bots_inference.py``).
    """

    other_kind: float = 0.25
    """Standing where the rules would pass, passing where they would stand, or taking (C6-C7)."""
    count_off_one: float = 0.5
    """Exchanging one card more or fewer than the rules would (C7)."""
    count_off_more: float = 0.25
    """Exchanging two or more cards more or fewer."""
    other_play: float = 0.3
    """Playing another card than the rules would (C13-C15)."""
    floor: float = 0.02
    """The least weight of a world (a belief never rules a world out)."""


BELIEF = BeliefModel()
"""The factors the search uses."""

SELF_PLAY = BeliefModel(other_kind=0.02, count_off_one=0.05, count_off_more=0.02, floor=0.0005)
"""The factors fitted on self-play of the rules of thumb (``bench/bots_inference.py``, docs/bots.md).

Much sharper than :data:`BELIEF`: a field that plays the rules of thumb
exactly makes any departure from them near-impossible evidence.  Fit for
opponents who play like the rules of thumb, not for people.
"""


def _legal_trump(rules: Rules, t: object, trump: int, hand: int, trick: list[int]) -> int:
    """C14 with its default options: the cards ``hand`` may play to ``trick``."""
    if not trick:
        return hand
    lead = trick[0] // 13
    legal = hand & SUIT_MASKS[lead]
    if not legal:
        legal = hand & SUIT_MASKS[trump] or hand
    priv = 1 << rules.privileged.index
    if rules.privileged_free_play:
        legal |= hand & priv
    return legal


def trump_belief(model: BeliefModel, view: DealView, records: tuple[int, ...], f: TrumpFacts, h0: list[int],
                 take_d: int, start: list[int], dead: list[int], plays: bool) -> float:
    """How well the hidden hands explain the others' declarations (C6-C8).

    Each other seat is taken to declare roughly as the rules of thumb
    would with its hand (:func:`mushka.bots.policy.trump_declare`): a
    world in which it would have done the same is kept, one in which it
    would not is kept less often.  This is a belief about the players,
    not a rule: it never rules a world out entirely.  With ``believe``
    at 2 the cards they played are weighed the same way against
    :func:`mushka.bots.policy.trump_play`, from ``start``, the hands
    when play began.
    """
    from mushka.bots.policy import stakes_for, tables, trump_declare

    m = model
    rules = view.rules
    t = tables(rules)
    n = f.n
    weight = 1.0
    standing = 0
    stood_before_dealer = 0
    took = False
    talon = rules.deck_size - 5 * n - 1
    hands = h0[:]
    turn_bit = 1 << f.turnup
    play_steps = []
    for st in f.steps:
        if st.kind == "play":
            play_steps.append(st)
            continue
        j = st.seat
        hand = hands[j]
        if j != f.me and view.open_hands[j] is None:
            after = (f.dealer - j) % n
            can_pass = not (took and j == f.dealer) and not (rules.privileged_must_play and hand & t.priv_bit)
            if (j == f.dealer and rules.lone_player == "dealer_must_play" and stood_before_dealer == 1):
                can_pass = False
            can_take = rules.dealer_takes_turnup and j == f.dealer and not took
            kind, cards = trump_declare(t, hand, j, f.dealer, f.trump, f.turnup, took, standing, after, talon,
                                        rules.deck_bits & ~hand & ~turn_bit, can_pass, can_take,
                                        stakes_for(rules, j, records))
            if st.kind != kind:
                weight *= m.other_kind
            elif kind == "stand":
                diff = abs(cards.bit_count() - f.exch[j])
                weight *= 1.0 if diff == 0 else m.count_off_one if diff == 1 else m.count_off_more
            weight = max(weight, m.floor)
        if st.kind == "take":
            took = True
            hands[j] = (hand & ~(1 << take_d)) | turn_bit
        elif st.kind == "stand":
            standing += 1
            if j != f.dealer:
                stood_before_dealer += 1
            talon -= max(f.exch[j], 0)
    if plays and play_steps:
        weight *= _play_belief(model, view, f, t, play_steps, start, dead, standing)
    return max(weight, m.floor)


def _play_belief(model: BeliefModel, view: DealView, f: TrumpFacts, t: object, plays: list[Step],
                 start: list[int], dead: list[int], standing: int) -> float:
    """C13-C15: how often the others played the card the rules of thumb would have."""
    from mushka.bots.policy import Tables
    from mushka.bots.policy import trump_play as play_fn

    assert isinstance(t, Tables)
    rules = view.rules
    hands = start[:]
    played = 0
    won = [0] * f.n
    trick: list[int] = []
    seats: list[int] = []
    weight = 1.0
    keys = t.keys[f.trump]
    turn_bit = 1 << f.turnup
    for st in plays:
        j = st.seat
        if j != f.me and view.open_hands[j] is None:
            hand = hands[j]
            unknown = rules.deck_bits & ~hand & ~played & ~turn_bit & ~dead[j]
            legal = _legal_trump(rules, t, f.trump, hand, trick)
            guess = play_fn(t, f.trump, hand, legal, trick, unknown, standing - len(trick) - 1, won[j] == 0)
            if guess != st.card:
                weight *= model.other_play
        hands[j] &= ~(1 << st.card)
        played |= 1 << st.card
        trick.append(st.card)
        seats.append(j)
        if len(trick) == standing:
            k = keys[trick[0] // 13]
            best = max(range(len(trick)), key=lambda i: k[trick[i]])
            won[seats[best]] += 1
            trick = []
            seats = []
    return weight


__all__ = ["BELIEF", "BeliefModel", "trump_belief"]
