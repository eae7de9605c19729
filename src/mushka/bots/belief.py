"""The belief model: how much likelier a world is, given what the other seats did.

The sampler's worlds are uniform over the deals consistent with the hard
facts of the view; :func:`trump_belief` weighs one by how well its hidden
hands explain the others' declarations (C6-C8) and plays (C13-C15), as the
rules of thumb (:mod:`mushka.bots.policy`) would make them, with the factors
of a :class:`BeliefModel`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from mushka.cards import SUIT_MASKS
from mushka.engine import DealView
from mushka.rules import LonePlayer, Rules
from mushka.worlds.facts import Step, TrumpFacts


@dataclass(frozen=True)
class BeliefModel:
    """How much less likely a world is for each action of another seat that the rules of thumb would not make.

    A world's weight is the product, over the other seats' declarations (and
    with ``believe`` 2 their plays), of 1 when the rules of thumb, given the
    world's hand, do what the seat did, and of these factors otherwise; never
    below ``floor``.  The defaults are set by hand and mild (:data:`BELIEF`);
    :data:`SELF_PLAY` holds the factors fitted by maximum likelihood of the
    true deal on self-play (``bench/bots_inference.py``).
    """

    other_kind: float = 0.25
    """Standing where the rules would pass, passing where they would stand, or taking (C6-C7)."""
    count_off_one: float = 0.5
    """Exchanging one card more or fewer than the rules would (C7)."""
    count_off_more: float = 0.25
    """Exchanging two or more cards more or fewer."""
    other_cards: float = 1.0
    """Exchanging as many cards as the rules would but not the same ones, or taking the turned card for
    another (C6-C7): the rules throw the weakest, so what a seat kept says which cards it holds.  1 (the
    default) does not look at which cards went."""
    other_play: float = 0.3
    """Playing another card than the rules would (C13-C15)."""
    floor: float = 0.02
    """The least weight of a world (a belief never rules a world out)."""


BELIEF = BeliefModel()
"""The default factors, set by hand and mild: ``search`` with ``belief`` 0 and ``ismcts`` weigh worlds with them."""

SELF_PLAY = BeliefModel(other_kind=0.02, count_off_one=0.05, count_off_more=0.02, floor=0.0005)
"""The factors fitted on self-play of the rules of thumb (``bench/bots_inference.py``, docs/bots.md).

Much sharper than :data:`BELIEF`: a field that plays the rules of thumb
exactly makes any departure from them near-impossible evidence.  Fit for
opponents who play like the rules of thumb, not for people.
"""

SELF_PLAY_CARDS = replace(SELF_PLAY, other_cards=0.05)
""":data:`SELF_PLAY` that also weighs which cards each seat threw in its exchange (``other_cards``)."""

SELF_PLAY_PLAYS = replace(SELF_PLAY, other_play=0.02)
""":data:`SELF_PLAY` whose plays are weighed as sharply as its declarations (``other_play``).

The rules of thumb play one card for a given hand and trick, so against a
field of them a play they would not make is as near-impossible evidence as a
declaration they would not make.  0.02 is the sharpest of the values measured
on the held-out posterior (run 22 in docs/bots.md: it scored best of 0.3, 0.1
and 0.02 in classic and mistigri); it was chosen there, not fitted.
For opponents who play like the rules of thumb only.
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


class SeatLikelihood:
    """The belief of one view, seat by seat: how well a seat's own cards explain its public actions.

    What another seat declared (C6-C8) and played (C13-C15) depends, for
    the rules of thumb, on its own cards and on public facts alone: who
    stood before it, whether the dealer took, the talon left, the trick on
    the table, the tricks it has won.  Those facts are read once per view;
    :meth:`seat_factor` then weighs one seat's cards, so that a world's
    weight (:meth:`weight`) is the product of its seats' factors and a
    sampler can draw the hidden hands seat by seat
    (:class:`mushka.bots.sampler.WorldSampler`, ``seatwise``).
    """

    def __init__(self, model: BeliefModel, view: DealView, records: tuple[int, ...], f: TrumpFacts,
                 plays: bool) -> None:
        """Read the public course of ``view``'s deal (``f``, its facts); ``plays`` weighs the plays too."""
        from mushka.bots.declaring import stakes_for
        from mushka.bots.policy import tables

        self.model = model
        self.view = view
        self.records = records
        self.facts = f
        self.plays = plays
        self.tables = tables(view.rules)
        rules = view.rules
        n = f.n
        self.players = [j for j in range(n) if j != f.me and view.open_hands[j] is None]
        """The seats whose hands the viewer does not see: the only ones weighed."""
        # What each seat stands to win or lose shapes its declaration: the same for every world, read once.
        self._stakes = [stakes_for(rules, j, records) for j in range(n)]
        # Per seat, its declaration steps: (kind, took, standing, stood before the dealer, talon).
        self._decl: list[list[tuple[str, bool, int, int, int]]] = [[] for _ in range(n)]
        # Per seat, its plays: (card, the trick so far, cards played before, players after it, no trick won yet).
        self._play: list[list[tuple[int, list[int], int, int, bool]]] = [[] for _ in range(n)]
        standing = 0
        stood_before_dealer = 0
        took = False
        talon = rules.deck_size - 5 * n - 1
        play_steps: list[Step] = []
        for st in f.steps:
            if st.kind == "play":
                play_steps.append(st)
                continue
            j = st.seat
            self._decl[j].append((st.kind, took, standing, stood_before_dealer, talon))
            if st.kind == "take":
                took = True
            elif st.kind == "stand":
                standing += 1
                if j != f.dealer:
                    stood_before_dealer += 1
                talon -= max(f.exch[j], 0)
        keys = self.tables.keys[f.trump]
        played = 0
        won = [0] * n
        trick: list[int] = []
        seats: list[int] = []
        for st in play_steps:
            j = st.seat
            self._play[j].append((st.card, trick[:], played, standing - len(trick) - 1, won[j] == 0))
            played |= 1 << st.card
            trick.append(st.card)
            seats.append(j)
            if len(trick) == standing:
                k = keys[trick[0] // 13]
                best = max(range(len(trick)), key=lambda i: k[trick[i]])
                won[seats[best]] += 1
                trick = []
                seats = []

    def declare_factor(self, j: int, h0: int, take_d: int, disc: int = -1, bound: float = 0.0,
                       times: float = 1.0) -> float:
        """C6-C8: how well seat ``j``'s dealt hand ``h0`` (and the take's discard) explains its declarations.

        ``disc``, the cards it threw in its exchange, is weighed against the
        rules' own choice when the model's ``other_cards`` is below 1 (-1:
        not weighed).  With ``bound`` above 0 it stops as soon as the factor
        so far, times ``times``, is at most ``bound`` (every factor is at
        most 1, so the rest could only lower it): what it returns is then a
        factor no larger than the whole one, enough to reject.
        """
        from mushka.bots.declaring import trump_declare

        m = self.model
        f = self.facts
        rules = self.view.rules
        t = self.tables
        n = f.n
        turn_bit = 1 << f.turnup
        hand = h0
        weight = 1.0
        for kind, took, standing, stood_before_dealer, talon in self._decl[j]:
            after = (f.dealer - j) % n
            can_pass = not (took and j == f.dealer) and not (rules.privileged_must_play and hand & t.priv_bit)
            if j == f.dealer and rules.lone_player is LonePlayer.DEALER_MUST_PLAY and stood_before_dealer == 1:
                can_pass = False
            can_take = rules.dealer_takes_turnup and j == f.dealer and not took
            guess, cards = trump_declare(t, hand, j, f.dealer, f.trump, f.turnup, took, standing, after, talon,
                                         rules.deck_bits & ~hand & ~turn_bit, can_pass, can_take,
                                         self._stakes[j])
            if kind != guess:
                weight *= m.other_kind
            elif kind == "stand":
                diff = abs(cards.bit_count() - f.exch[j])
                weight *= 1.0 if diff == 0 else m.count_off_one if diff == 1 else m.count_off_more
                if diff == 0 and disc >= 0 and cards != disc:
                    weight *= m.other_cards
            elif kind == "take" and disc >= 0 and cards != take_d:
                weight *= m.other_cards  # C6: the turned card taken for another than the weakest
            if kind == "take":
                hand = (hand & ~(1 << take_d)) | turn_bit
            if bound > 0.0 and weight * times <= bound:
                break
        return weight

    def play_factor(self, j: int, start: int, dead: int, bound: float = 0.0) -> float:
        """C13-C15: how often seat ``j``, holding ``start`` when play began, played the card the rules would.

        With ``bound`` above 0 it stops once the factor so far is at most
        ``bound``, as :meth:`declare_factor` does.
        """
        from mushka.bots.policy import trump_play

        f = self.facts
        rules = self.view.rules
        t = self.tables
        turn_bit = 1 << f.turnup
        other = self.model.other_play
        hand = start
        weight = 1.0
        for card, trick, played, after, none_won in self._play[j]:
            unknown = rules.deck_bits & ~hand & ~played & ~turn_bit & ~dead
            legal = _legal_trump(rules, t, f.trump, hand, trick)
            if trump_play(t, f.trump, hand, legal, trick, unknown, after, none_won) != card:
                weight *= other
                if bound > 0.0 and weight <= bound:
                    break
            hand &= ~(1 << card)
        return weight

    def _thrown(self, j: int, take_d: int, dead: int) -> int:
        """The cards seat ``j`` threw in its exchange, of all it put down (-1 when the model does not weigh them)."""
        if self.model.other_cards >= 1.0:
            return -1
        return dead & ~(1 << take_d) if take_d >= 0 and j == self.facts.dealer else dead

    def seat_factor(self, j: int, h0: int, take_d: int, start: int, dead: int) -> float:
        """Seat ``j``'s factor: its declarations, and with ``plays`` its plays (never below the floor)."""
        w = self.declare_factor(j, h0, take_d, self._thrown(j, take_d, dead))
        if self.plays and self._play[j]:
            w *= self.play_factor(j, start, dead)
        return max(w, self.model.floor)

    def seat_accepts(self, j: int, h0: int, take_d: int, start: int, dead: int, u: float) -> bool:
        """Whether seat ``j``'s cards are kept for the uniform number ``u``: ``u < seat_factor(...)``, exactly.

        The same test as comparing ``u`` with :meth:`seat_factor`, with the
        same floating-point product, but the plays are weighed first (they
        are cheaper to check than the declarations) and each part stops as
        soon as the product can no longer reach ``u``: most proposals of a
        sharp belief are rejected, often before every factor is weighed.
        """
        if u < self.model.floor:
            return True
        p = 1.0
        if self.plays and self._play[j]:
            p = self.play_factor(j, start, dead, bound=u)
            if p <= u:  # the declarations' factor is at most 1: their product stays at most u
                return False
        d = self.declare_factor(j, h0, take_d, self._thrown(j, take_d, dead), bound=u, times=p)
        return u < d * p

    def weight(self, h0: list[int], take_d: int, start: list[int], dead: list[int]) -> float:
        """A world's weight: the product of its seats' factors, never below the floor."""
        w = 1.0
        for j in self.players:
            w *= self.declare_factor(j, h0[j], take_d, self._thrown(j, take_d, dead[j]))
            if self.plays and self._play[j]:
                w *= self.play_factor(j, start[j], dead[j])
        return max(w, self.model.floor)


def trump_belief(model: BeliefModel, view: DealView, records: tuple[int, ...], f: TrumpFacts, h0: list[int],
                 take_d: int, start: list[int], dead: list[int], plays: bool) -> float:
    """How well the hidden hands explain the others' declarations (C6-C8).

    Each other seat is taken to declare roughly as the rules of thumb
    would with its hand (:func:`mushka.bots.declaring.trump_declare`): a
    world in which it would have done the same is kept, one in which it
    would not is kept less often.  This is a belief about the players,
    not a rule: it never rules a world out entirely.  With ``believe``
    at 2 the cards they played are weighed the same way against
    :func:`mushka.bots.policy.trump_play`, from ``start``, the hands
    when play began.  One call reads the view afresh; a sampler keeps a
    :class:`SeatLikelihood` instead.
    """
    return SeatLikelihood(model, view, records, f, plays).weight(h0, take_d, start, dead)


__all__ = ["BELIEF", "SELF_PLAY", "SELF_PLAY_CARDS", "SELF_PLAY_PLAYS", "BeliefModel", "SeatLikelihood", "trump_belief"]
