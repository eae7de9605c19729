"""What the human may do now, read from his view: the cards to highlight and
the action a key stands for.

Nothing here decides legality on its own: the sets of highlighted cards are
read off the view's legal actions, and the actions built from keys are handed
to the engine's checked path, which refuses an illegal one with the rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from mushka.cards import Card, sort_for_display
from mushka.engine import Action, DealView, Kind, Phase


class Mode(Enum):
    """What Enter does with the card under the cursor."""

    NORMAL = "normal"
    """Play it, discard it (K7), or stand with the marked cards (C7)."""
    TAKE = "take"
    """C6: discard it for the turned-up card."""


@dataclass(slots=True)
class Selection:
    """The human's pending choice: the cursor, the cards marked for an exchange, the mode."""

    cursor: int = 0
    marked: set[Card] = field(default_factory=set)
    mode: Mode = Mode.NORMAL

    def reset(self) -> None:
        """Forget marks and the take mode (after an action, or with Esc)."""
        self.marked.clear()
        self.mode = Mode.NORMAL


def hand_in_order(view: DealView) -> list[Card]:
    """The human's hand as a player holds it: by suit, then by the variant's rank order (C3, MI2)."""
    return sort_for_display(view.hand, view.rules.strength)


def cards_of_kind(view: DealView, kind: Kind) -> set[Card]:
    """Every card named by a legal action of ``kind`` (empty when it is not the viewer's turn)."""
    out: set[Card] = set()
    for action in view.legal:
        if action.kind is kind:
            out.update(action.cards)
    return out


def active_cards(view: DealView, mode: Mode) -> set[Card]:
    """The cards a key can use now: playable (C14, K11), exchangeable (C7, MI5),
    discardable for the turned-up card (C6) or after taking a card (K7)."""
    if mode is Mode.TAKE:
        return cards_of_kind(view, Kind.TAKE)
    if view.phase is Phase.DECLARE:
        return cards_of_kind(view, Kind.STAND)
    if view.phase is Phase.REDISTRIBUTE:
        return cards_of_kind(view, Kind.DISCARD)
    return cards_of_kind(view, Kind.PLAY)


def has_kind(view: DealView, kind: Kind) -> bool:
    """Whether some legal action of the viewer is of ``kind``."""
    return any(a.kind is kind for a in view.legal)


def confirm_action(view: DealView, selection: Selection, card: Card | None) -> Action | None:
    """The action Enter stands for, with ``card`` under the cursor.

    ``None`` when nothing can be confirmed (the deal is over, or a card is
    needed and the hand is empty).
    """
    if selection.mode is Mode.TAKE:
        return None if card is None else Action.take(card)
    if view.phase is Phase.DECLARE:
        return Action.stand(*sorted(selection.marked))
    if view.phase is Phase.OVER or card is None:
        return None
    if view.phase is Phase.REDISTRIBUTE:
        return Action.discard(card)
    return Action.play(card)


def first_active(hand: list[Card], active: set[Card]) -> int | None:
    """The position of the first card a key can use, if any."""
    for i, card in enumerate(hand):
        if card in active:
            return i
    return None
