"""Numeric action ids: every action of a deal as a small int, per rules value.

Research frameworks (OpenSpiel, PettingZoo, Gymnasium) want a fixed set of
action ids per game, a mask of the legal ones and a way back to the action.
An :class:`ActionSpace` gives exactly that for one :class:`~mushka.rules.Rules`
value; the number of ids depends only on the variant and the deck size.

Classic and mistigri (``38 + deck_size`` ids)::

    0                 pass                              (C7)
    1 + p, p < 32     stand, exchanging the cards at    (C7-C8)
                      hand positions of the bit mask p
    33 + i, i < 5     take the turned-up card, discarding  (C6)
                      the card at hand position i
    38 + k            play the k-th card of the deck    (C13-C14)

Kopilka (``2 + 2 * deck_size`` = 66 ids)::

    0                 pass on a trick                   (K11-K12)
    1                 draw from the talon               (K11)
    2 + k             play the k-th card of the deck    (K10-K11)
    2 + 32 + k        discard the k-th card of the deck (K7)

A *hand position* counts the seat's cards in index order (♠, ♣, ♦, ♥, each
from the two up to the ace, as :mod:`mushka.cards` orders them); the k-th
card of the deck is the k-th of :attr:`Rules.deck_cards`.  Exchanges are
positions rather than cards so that the 2⁵ possible exchanges of a
five-card hand need 32 ids instead of one per subset of the deck.

The legal ids come sorted, straight from the masks the engine keeps: no
list of lazy stand actions is ever built to list them.
"""

from __future__ import annotations

from typing import Any, Final

from mushka.cards import card_count, index_list
from mushka.engine.actions import DISCARDS, DRAW, PASS, PLAYS, TAKES, Action, Kind, stand_mask
from mushka.engine.deal import Deal
from mushka.engine.exchanges import subset_mask
from mushka.engine.kopilka import KopilkaDeal
from mushka.engine.trump import TrumpDeal
from mushka.engine.types import Phase
from mushka.errors import IllegalActionError
from mushka.i18n import add_texts
from mushka.rules.model import DerivedKey, Rules

STAND_BASE: Final = 1
"""Classic/mistigri: id of the pat stand; ``STAND_BASE + p`` exchanges positions ``p``."""
TAKE_BASE: Final = 33
"""Classic/mistigri: id of the dealer's take discarding hand position 0 (C6)."""
TRUMP_PLAY_BASE: Final = 38
"""Classic/mistigri: id of playing the first card of the deck."""
DRAW_ID: Final = 1
"""Kopilka: the id of drawing from the talon (K11)."""
KOPILKA_PLAY_BASE: Final = 2
"""Kopilka: id of playing the first card of the deck."""
PASS_ID: Final = 0
"""Pass (C7 at the declarations, K11 on a trick)."""
HAND_SIZE: Final = 5
"""C5: five cards each at the declarations (an exchange keeps five)."""
_OVER: Final = Phase.OVER
_PLAY: Final = Phase.PLAY
_REDISTRIBUTE: Final = Phase.REDISTRIBUTE


def _stand_positions(limit: int, banned: int) -> tuple[int, ...]:
    """C8/MI5: position masks of the allowed exchanges of a five-card hand,
    at most ``limit`` cards and never position ``banned`` (-1: none), sorted."""
    return tuple(m for m in range(1 << HAND_SIZE)
                 if m.bit_count() <= limit and not (banned >= 0 and m >> banned & 1))


def _bits(ids: tuple[int, ...]) -> int:
    """The ids as a bit mask (bit ``i`` for id ``i``; every id here is below 38)."""
    out = 0
    for i in ids:
        out |= 1 << i
    return out


def _declare_ids(limit: int, banned: int, takes: bool, may_pass: bool) -> tuple[int, ...]:
    """C6-C8/MI5/MI8: the ids of a declaration: pass if the seat may pass, the stands of at
    most ``limit`` cards never exchanging hand position ``banned`` (-1: none), the dealer's
    takes if he may take."""
    stands = tuple(STAND_BASE + m for m in _stand_positions(limit, banned))
    take = tuple(TAKE_BASE + i for i in range(HAND_SIZE) if i != banned) if takes else ()
    return ((PASS_ID,) if may_pass else ()) + stands + take


def _declare_key(limit: int, banned: int, takes: bool, may_pass: bool) -> int:
    """Where :func:`_declare_ids` of these arguments is in :data:`_DECLARE_IDS`."""
    return ((limit * (HAND_SIZE + 1) + banned + 1) * 2 + takes) * 2 + may_pass


# Every list of declaration ids there can be, made once, with its mask beside it: a
# declaration lists up to 38 ids, and building them every time cost more than the rest.
# Indexed by small ints (a dictionary keyed by a tuple hashed the tuple at every look-up).
_DECLARE_IDS: Final[tuple[tuple[int, ...], ...]] = tuple(
    _declare_ids(limit, banned, takes == 1, may_pass == 1)
    for limit in range(HAND_SIZE + 1) for banned in range(-1, HAND_SIZE) for takes in range(2) for may_pass in range(2))
_DECLARE_BITS: Final[tuple[int, ...]] = tuple(_bits(t) for t in _DECLARE_IDS)

# The chance outcome ``(k, 1/n)`` of deck position ``k`` when ``n`` cards are left: typed
# ``object`` on purpose, since compiled a ``tuple[int, float]`` is unboxed into a C struct
# when read and boxed anew (a tuple and a float) when put in a list, which is the very
# allocation the table is there to save.
_PAIRS: dict[int, tuple[tuple[object, ...], ...]] = {}


def outcome_pairs(size: int) -> tuple[tuple[object, ...], ...]:
    """``pairs[n][k]`` is the chance outcome ``(k, 1/n)``, for a deck of ``size`` cards:
    made once, so that listing the outcomes of a step allocates only the list."""
    found = _PAIRS.get(size)
    if found is None:
        found = _PAIRS[size] = tuple(_outcome_row(size, n) for n in range(size + 1))
    return found


def _outcome_row(size: int, n: int) -> tuple[tuple[object, ...], ...]:
    """The outcomes ``(k, 1/n)`` of every position ``k`` of a deck of ``size`` cards (one
    float shared by the row: fewer objects for the listing to touch)."""
    if not n:
        return ()
    p = 1.0 / n
    return tuple((k, p) for k in range(size))


class ActionSpace:
    """The action ids of one rules value; see the module docstring."""

    __slots__ = ("_card_of", "_discard_base", "_play_base", "_play_id", "_pos_of", "columns",
                 "num_distinct_actions", "pairs", "positions", "rules", "trumps")

    rules: Rules
    trumps: bool
    num_distinct_actions: int
    """How many ids exist (the ids are ``0 .. num_distinct_actions - 1``)."""
    positions: tuple[int, ...]
    """The deck positions ``0 .. deck_size - 1`` (the chance outcomes of the deck, N4)."""
    pairs: tuple[tuple[object, ...], ...]
    """The chance outcomes of the deck by cards left (:func:`outcome_pairs`)."""
    columns: tuple[tuple[object, ...], ...]
    """The same outcomes by deck position: ``columns[k][n] is pairs[n][k]`` (``None`` at ``n == 0``)."""
    _play_base: int
    _discard_base: int
    _pos_of: tuple[int, ...]
    _card_of: tuple[int, ...]
    _play_id: tuple[Any, ...]

    def __init__(self, rules: Rules) -> None:
        """The id layout of ``rules``."""
        self.rules = rules
        self.trumps = rules.has_trumps
        size = rules.deck_size
        self._card_of = rules.deck_indices
        pos = [-1] * 52
        for k, c in enumerate(rules.deck_indices):
            pos[c] = k
        self._pos_of = tuple(pos)
        self.positions = tuple(range(size))
        self.pairs = outcome_pairs(size)
        # A position's outcomes side by side, so that a listing walks the positions left and
        # reads each one's column at the count left, with no int to unbox per outcome.
        self.columns = tuple(tuple(self.pairs[n][k] if n else None for n in range(size + 1))
                             for k in range(size))
        if self.trumps:
            self._play_base = TRUMP_PLAY_BASE
            self._discard_base = -1
            self.num_distinct_actions = TRUMP_PLAY_BASE + size
        else:
            self._play_base = KOPILKA_PLAY_BASE
            self._discard_base = KOPILKA_PLAY_BASE + size
            self.num_distinct_actions = KOPILKA_PLAY_BASE + 2 * size
        # The id of playing each card index (-1: not in this deck), typed ``Any`` on purpose:
        # compiled, a listing appends the id object itself, with no int unboxed and boxed anew.
        self._play_id = tuple(self._play_base + k if k >= 0 else -1 for k in pos)

    def __repr__(self) -> str:
        return f"ActionSpace({self.rules}, num_distinct_actions={self.num_distinct_actions})"

    # --- legal ids ------------------------------------------------------------

    def legal_ids(self, deal: Deal) -> list[int]:
        """The legal action ids of the seat to act, sorted (empty once the deal is over)."""
        out: list[int] = []
        self.legal_into(deal, out)
        return out

    def id_offset(self, deal: Deal) -> int:
        """The id that bit 0 of :meth:`legal_into`'s mask stands for in ``deal``'s phase:
        the first play id in trick play with trumps, the first discard id at K7, else 0
        (so that every mask fits in a machine word)."""
        phase = deal.phase
        if phase is _PLAY:
            return self._play_base if self.trumps else 0
        if phase is _REDISTRIBUTE:
            return self._discard_base
        return 0

    def legal_into(self, deal: Deal, out: list[int]) -> int:
        """Append the legal action ids of the seat to act to ``out``, sorted, and return
        them as a mask: bit ``i - id_offset(deal)`` for id ``i``.

        Trick play and the declarations of classic and mistigri are read straight from
        the engine's masks and from tables made once (no action is built); kopilka's ids
        come from its legal actions."""
        phase = deal.phase
        if phase is _OVER:
            return 0
        if self.trumps:
            assert isinstance(deal, TrumpDeal)
            if phase is _PLAY:
                play_id = self._play_id
                pos = self._pos_of
                cards = deal.legal_play_mask()
                bits = 0
                while cards:
                    low = cards & -cards
                    card = low.bit_length() - 1
                    out.append(play_id[card])
                    bits |= 1 << pos[card]  # the id's bit above the first play id
                    cards ^= low
                return bits
            return self._declare_into(deal, out)
        ids = self._kopilka_ids(deal)
        out.extend(ids)
        base = self.id_offset(deal)
        bits = 0
        for i in ids:
            bits |= 1 << (i - base)
        return bits

    def _kopilka_ids(self, deal: Deal) -> list[int]:
        pos = self._pos_of
        if deal.phase is _PLAY:
            base = self._play_base
            out: list[int] = []
            head: list[int] = []
            for a in deal.legal_actions():
                kind = a.kind
                if kind is Kind.PLAY:
                    out.append(base + pos[a.mask.bit_length() - 1])
                else:  # K11: pass and draw come first among the ids
                    head.append(PASS_ID if kind is Kind.PASS else DRAW_ID)
            head.sort()
            return head + out
        assert isinstance(deal, KopilkaDeal)  # K7: a taker discards one card
        base = self._discard_base
        return [base + pos[c] for c in index_list(deal.hands[deal.to_act])]

    def _declare_into(self, deal: TrumpDeal, out: list[int]) -> int:
        """C6-C8/MI5/MI8: pass, the allowed stands, the dealer's takes (ids below 38)."""
        seat = deal.to_act
        rules = self.rules
        hand = deal.hands[seat]
        talon = deal.talon_size
        limit = rules.max_exchange if rules.max_exchange < talon else talon
        banned_bit = 0 if rules.can_discard_privileged else hand & deal._priv_bit
        banned = card_count(hand & (banned_bit - 1)) if banned_bit else -1
        takes = seat == deal.dealer and not deal._took and rules.dealer_takes_turnup
        key = _declare_key(limit, banned, takes, deal.may_pass(seat))
        out.extend(_DECLARE_IDS[key])
        return _DECLARE_BITS[key]

    def legal_mask(self, deal: Deal) -> list[int]:
        """A 0/1 list of length :attr:`num_distinct_actions`: 1 where the id is legal."""
        mask = [0] * self.num_distinct_actions
        for i in self.legal_ids(deal):
            mask[i] = 1
        return mask

    # --- ids and actions ----------------------------------------------------------

    def action(self, deal: Deal, action_id: object) -> Action:
        """The action of ``action_id`` for the seat to act in ``deal``.

        Raises :class:`IllegalActionError` if the id is not an int, is outside the
        layout or names a hand position the seat does not have.
        """
        # ``object``, not ``int``: compiled, an int parameter would be checked (and a bool
        # taken for 0 or 1) before this method could name the rule, unlike the pure build.
        if type(action_id) is not int or not 0 <= action_id < self.num_distinct_actions:
            raise IllegalActionError("bad_action_id", rule=_rule(deal), action=action_id,
                                     last=self.num_distinct_actions - 1)
        if self.trumps and PASS_ID < action_id < self._play_base:
            # An exchange names positions in the hand of the seat to act: they must be there.
            size = card_count(deal.hands[deal.to_act]) if deal.phase != Phase.OVER else 0
            if action_id >= TAKE_BASE:
                outside = action_id - TAKE_BASE >= size
            else:
                outside = (action_id - STAND_BASE) >> size != 0
            if outside:
                raise IllegalActionError("bad_action_id", rule=_rule(deal), action=action_id,
                                         last=self.num_distinct_actions - 1)
        return self.listed_action(deal, action_id)

    def listed_action(self, deal: Deal, action_id: int) -> Action:
        """The action of ``action_id``, an id :meth:`legal_into` listed for the seat to act
        at this very step (so in range and legal): :meth:`action` without its checks."""
        if action_id >= self._play_base and (self._discard_base < 0 or action_id < self._discard_base):
            return PLAYS[self._card_of[action_id - self._play_base]]
        if action_id == PASS_ID:
            return PASS
        if not self.trumps:
            if action_id == DRAW_ID:
                return DRAW
            return DISCARDS[self._card_of[action_id - self._discard_base]]
        hand = deal.hands[deal.to_act]
        if action_id >= TAKE_BASE:
            for _ in range(action_id - TAKE_BASE):
                hand &= hand - 1
            return TAKES[(hand & -hand).bit_length() - 1]
        return stand_mask(subset_mask(hand, action_id - STAND_BASE))

    def id_of(self, deal: Deal, action: object) -> int:
        """The id of ``action`` (an :class:`Action` or its text) for the seat to act in ``deal``
        (the inverse of :meth:`action`); anything else is a :class:`ParseError` naming the
        phase's rule."""
        action = deal.read_action(action)
        kind = action.kind
        if kind is Kind.PASS:
            return PASS_ID
        if kind is Kind.PLAY:
            return self._play_base + self._card_pos(action)
        if kind is Kind.DRAW and not self.trumps:
            return DRAW_ID
        if kind is Kind.DISCARD and not self.trumps:
            return self._discard_base + self._card_pos(action)
        if self.trumps and kind in (Kind.STAND, Kind.TAKE) and deal.phase == Phase.DECLARE:
            hand = index_list(deal.hands[deal.to_act])
            cards = index_list(action.mask)
            if all(c in hand for c in cards):
                if kind is Kind.TAKE and len(cards) == 1:
                    return TAKE_BASE + hand.index(cards[0])
                if kind is Kind.STAND:
                    return STAND_BASE + sum(1 << hand.index(c) for c in cards)
        raise IllegalActionError("no_action_id", rule=_rule(deal), action=action)

    def _card_pos(self, action: Action) -> int:
        k = self._pos_of[action.mask.bit_length() - 1] if action.mask else -1
        if k < 0 or action.mask & (action.mask - 1):
            raise IllegalActionError("no_action_id", rule="N3", action=action)
        return k

    def apply(self, deal: Deal, action_id: object) -> None:
        """Check and apply ``action_id`` to ``deal`` (events recorded as the deal records them).

        An id that is not legal now raises :class:`IllegalActionError` naming
        the rule and leaves the deal unchanged.
        """
        deal.apply(self.action(deal, action_id))


def _rule(deal: Deal) -> str:
    """The rule that says what the seat to act may do now (named by id errors)."""
    if deal.phase == Phase.DECLARE:
        return "C7"
    if deal.phase == Phase.REDISTRIBUTE:
        return "K7"
    return "C13" if deal.rules.has_trumps else "K11"


_ACTION_SPACE: Final[DerivedKey[ActionSpace]] = DerivedKey("action space")


def action_space(rules: Rules) -> ActionSpace:
    """The :class:`ActionSpace` of ``rules`` (one per rules value, cached)."""
    found = rules.cache.get(_ACTION_SPACE)
    if found is None:
        found = rules.cache.put(_ACTION_SPACE, ActionSpace(rules))
    return found


add_texts({
    "error.bad_action_id": (
        "action id {action} is not one of this seat's actions now (ids run from 0 to {last}).",
        "номер хода {action} сейчас не обозначает ход этого игрока (номера от 0 до {last}).",
    ),
    "error.no_action_id": (
        "the action {action} has no id for the seat to act now.",
        "у хода {action} нет номера для игрока, который сейчас ходит.",
    ),
})
