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

from typing import Final

from mushka.cards import index_list
from mushka.engine.actions import DISCARDS, DRAW, PASS, PLAYS, TAKES, Action, Kind, stand_mask
from mushka.engine.deal import Deal
from mushka.engine.kopilka import KopilkaDeal
from mushka.engine.trump import TrumpDeal
from mushka.engine.types import Phase
from mushka.errors import IllegalActionError
from mushka.i18n import add_texts
from mushka.rules.model import Rules

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

_SORTED_SUBSETS: dict[tuple[int, int], tuple[int, ...]] = {}


def _stand_positions(limit: int, banned: int) -> tuple[int, ...]:
    """C8/MI5: position masks of the allowed exchanges of a five-card hand,
    at most ``limit`` cards and never position ``banned`` (-1: none), sorted."""
    key = (limit, banned)
    found = _SORTED_SUBSETS.get(key)
    if found is None:
        found = _SORTED_SUBSETS[key] = tuple(
            m for m in range(1 << HAND_SIZE)
            if m.bit_count() <= limit and not (banned >= 0 and m >> banned & 1)
        )
    return found


_STAND_IDS: dict[tuple[int, int], tuple[int, ...]] = {}
_TAKE_IDS: dict[int, tuple[int, ...]] = {}


def _stand_ids(limit: int, banned: int) -> tuple[int, ...]:
    """C7-C8: the ids of the allowed stand actions (see :func:`_stand_positions`), made once:
    a declaration lists up to 32 of them, and building them every time cost more than the rest."""
    key = (limit, banned)
    found = _STAND_IDS.get(key)
    if found is None:
        found = _STAND_IDS[key] = tuple(STAND_BASE + m for m in _stand_positions(limit, banned))
    return found


def _take_ids(banned: int) -> tuple[int, ...]:
    """C6/MI5: the ids of the dealer's takes, every hand position but ``banned`` (-1: none)."""
    found = _TAKE_IDS.get(banned)
    if found is None:
        found = _TAKE_IDS[banned] = tuple(TAKE_BASE + i for i in range(HAND_SIZE) if i != banned)
    return found


class ActionSpace:
    """The action ids of one rules value; see the module docstring."""

    __slots__ = ("_card_of", "_discard_base", "_play_base", "_pos_of", "num_distinct_actions", "rules", "trumps")

    rules: Rules
    trumps: bool
    num_distinct_actions: int
    """How many ids exist (the ids are ``0 .. num_distinct_actions - 1``)."""
    _play_base: int
    _discard_base: int
    _pos_of: tuple[int, ...]
    _card_of: tuple[int, ...]

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
        if self.trumps:
            self._play_base = TRUMP_PLAY_BASE
            self._discard_base = -1
            self.num_distinct_actions = TRUMP_PLAY_BASE + size
        else:
            self._play_base = KOPILKA_PLAY_BASE
            self._discard_base = KOPILKA_PLAY_BASE + size
            self.num_distinct_actions = KOPILKA_PLAY_BASE + 2 * size

    def __repr__(self) -> str:
        return f"ActionSpace({self.rules}, num_distinct_actions={self.num_distinct_actions})"

    # --- legal ids ------------------------------------------------------------

    def legal_ids(self, deal: Deal) -> list[int]:
        """The legal action ids of the seat to act, sorted (empty once the deal is over)."""
        phase = deal.phase
        if phase is _OVER:
            return []
        if phase is _PLAY:
            base = self._play_base
            pos = self._pos_of
            if self.trumps:
                return [base + pos[a.mask.bit_length() - 1] for a in deal.legal_actions()]
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
        if isinstance(deal, KopilkaDeal):  # K7: a taker discards one card
            base = self._discard_base
            pos = self._pos_of
            return [base + pos[c] for c in index_list(deal.hands[deal.to_act])]
        assert isinstance(deal, TrumpDeal)
        return self._declare_ids(deal)

    def _declare_ids(self, deal: TrumpDeal) -> list[int]:
        seat = deal.to_act
        rules = self.rules
        hand = deal.hands[seat]
        out = [PASS_ID] if deal._why_pass(seat) is None else []
        limit = min(rules.max_exchange, deal.talon_size)
        banned_bit = 0 if rules.can_discard_privileged else hand & deal._priv_bit
        banned = (hand & (banned_bit - 1)).bit_count() if banned_bit else -1
        out.extend(_stand_ids(limit, banned))
        if seat == deal.dealer and not deal._took and rules.dealer_takes_turnup:
            out.extend(_take_ids(banned))
        return out

    def legal_mask(self, deal: Deal) -> list[int]:
        """A 0/1 list of length :attr:`num_distinct_actions`: 1 where the id is legal."""
        mask = [0] * self.num_distinct_actions
        for i in self.legal_ids(deal):
            mask[i] = 1
        return mask

    # --- ids and actions ----------------------------------------------------------

    def action(self, deal: Deal, action_id: int) -> Action:
        """The action of ``action_id`` for the seat to act in ``deal``.

        Raises :class:`IllegalActionError` if the id is outside the layout or
        names a hand position the seat does not have.
        """
        if isinstance(action_id, bool) or not isinstance(action_id, int) or not (
                0 <= action_id < self.num_distinct_actions):
            raise IllegalActionError("bad_action_id", rule=_rule(deal), action=action_id,
                                     last=self.num_distinct_actions - 1)
        if action_id >= self._play_base and (self._discard_base < 0 or action_id < self._discard_base):
            return PLAYS[self._card_of[action_id - self._play_base]]
        if action_id == PASS_ID:
            return PASS
        if not self.trumps:
            if action_id == DRAW_ID:
                return DRAW
            return DISCARDS[self._card_of[action_id - self._discard_base]]
        hand = index_list(deal.hands[deal.to_act]) if deal.phase != Phase.OVER else []
        if action_id >= TAKE_BASE:
            i = action_id - TAKE_BASE
            if i >= len(hand):
                raise IllegalActionError("bad_action_id", rule=_rule(deal), action=action_id,
                                         last=self.num_distinct_actions - 1)
            return TAKES[hand[i]]
        p = action_id - STAND_BASE
        if p >> len(hand):
            raise IllegalActionError("bad_action_id", rule=_rule(deal), action=action_id,
                                     last=self.num_distinct_actions - 1)
        mask = 0
        for i, c in enumerate(hand):
            if p >> i & 1:
                mask |= 1 << c
        return stand_mask(mask)

    def id_of(self, deal: Deal, action: Action) -> int:
        """The id of ``action`` for the seat to act in ``deal`` (its inverse of :meth:`action`)."""
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

    def apply(self, deal: Deal, action_id: int) -> None:
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


def action_space(rules: Rules) -> ActionSpace:
    """The :class:`ActionSpace` of ``rules`` (one per rules value, cached)."""
    found = rules.cache.get("action_space")
    if not isinstance(found, ActionSpace):
        found = ActionSpace(rules)
        rules.cache["action_space"] = found
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
