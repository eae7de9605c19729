"""Why a move: the heuristic bot's choice for a seat, with its reason in words.

:func:`suggest` asks the heuristic bot (:mod:`mushka.bots.heuristic`) for the
seat's move and :func:`explain` names, from the same view, what that move
does: "the lowest card that still follows suit", "a trump to win the trick",
"stand: the hand should take its tricks".  The reason is read off the
position (which card wins the trick as it stands, what the seat holds), not
taken from inside the bot, so it is true of the move whoever chose it; the
bot's own weighing (expected tricks against the risk of a ремиз) is told in
plain words, not in numbers.

Used by the server's "suggest a move" at practice tables (a person against
bots only); every text exists in English and Russian.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from mushka.bots.heuristic import HeuristicBot
from mushka.cards import Card
from mushka.engine import Action, DealView, Kind, Phase
from mushka.i18n import add_text_file, tr
from mushka.match import GameView


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a move: a text key, its cards, and the rule it rests on (if one)."""

    key: str
    cards: tuple[Card, ...] = ()
    rule: str | None = None

    def text(self, lang: str = "en") -> str:
        """The reason in ``lang``, cards in display form."""
        return tr(f"hint.{self.key}", lang, cards=" ".join(c.display(lang) for c in self.cards))


def suggest(view: GameView) -> tuple[Action, Reason]:
    """The heuristic bot's move for the seat of ``view``, and why."""
    action = HeuristicBot().choose(view, random.Random(0))
    return action, explain(view.deal, action)


def _key(d: DealView, card: Card, led: int) -> int:
    """C12/C15/K13: how strongly ``card`` stands in a trick whose led suit is ``led`` (higher wins)."""
    rules = d.rules
    strength = rules.strength[card.index]
    if card == rules.privileged:
        if d.trump is not None and card.suit == d.trump:
            return 300
        return 400 if rules.privileged_beats_trumps or d.trump is None else 150
    if d.trump is not None and card.suit == d.trump:
        return 200 + strength
    if int(card.suit) == led:
        return 100 + strength
    return 0


def explain(d: DealView, action: Action) -> Reason:
    """What ``action`` does for the seat of ``d`` (see the module docstring)."""
    if len(d.legal) == 1:
        return Reason("only")
    if d.phase == Phase.DECLARE:
        return _declare(d, action)
    if action.kind is Kind.DISCARD:
        return Reason("give_up", action.cards, "K7")
    if action.kind is Kind.DRAW:
        return Reason("draw", (), "K11")
    if action.kind is Kind.PASS:
        return Reason("kopilka_pass", (), "K12")
    if action.kind is not Kind.PLAY or not action.cards:
        return Reason("bot_choice")
    card = action.cards[0]
    if not d.trick:
        return _lead(d, card)
    return _follow(d, card)


def _declare(d: DealView, action: Action) -> Reason:
    if action.kind is Kind.PASS:
        return Reason("pass", (), "C7")
    if action.kind is Kind.TAKE:
        return Reason("take", action.cards, "C8")
    if action.cards:
        return Reason("stand_exchange", action.cards, "C7")
    return Reason("stand", (), "C7")


def _lead(d: DealView, card: Card) -> Reason:
    rules = d.rules
    if card == rules.privileged:
        return Reason("lead_privileged", (card,), "C11" if d.trump is not None else "K13")
    if d.trump is not None and card.suit == d.trump:
        return Reason("lead_trump", (card,))
    same = [c for c in d.hand if c.suit == card.suit and c != rules.privileged]
    if len(same) > 1 and all(rules.strength[card.index] >= rules.strength[c.index] for c in same):
        return Reason("lead_top", (card,))
    if all(rules.strength[card.index] <= rules.strength[c.index] for c in same):
        return Reason("lead_low", (card,))
    return Reason("lead_other", (card,))


def _follow(d: DealView, card: Card) -> Reason:
    led = int(d.trick[0][1].suit)
    best = max(_key(d, c, led) for _, c in d.trick)
    mine = _key(d, card, led)
    plays = [a.cards[0] for a in d.legal if a.kind is Kind.PLAY and a.cards]
    winners = [c for c in plays if _key(d, c, led) > best]
    follow = "C14" if d.trump is not None else "K11"
    if mine > best:
        if card == d.rules.privileged:
            return Reason("win_privileged", (card,), "C11" if d.trump is not None else "K13")
        if d.trump is not None and card.suit == d.trump and led != int(d.trump):
            return Reason("win_trump", (card,), "C14")
        if all(mine <= _key(d, c, led) for c in winners):
            return Reason("win_cheap", (card,), "C15" if d.trump is not None else "K13")
        return Reason("win_high", (card,), "C15" if d.trump is not None else "K13")
    if int(card.suit) == led:
        same = [c for c in plays if int(c.suit) == led]
        if all(d.rules.strength[card.index] <= d.rules.strength[c.index] for c in same):
            return Reason("duck_low", (card,), follow)
        return Reason("duck", (card,), follow)
    if d.trump is not None and card.suit == d.trump:
        return Reason("trump_low", (card,), "C14")
    return Reason("discard", (card,), follow)


add_text_file("mushka.bots", "explain.toml")
