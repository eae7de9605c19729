"""The deal engine: actions, events, the deal state machines and views."""

from __future__ import annotations

import random
from collections.abc import Sequence

from mushka.cards import Card
from mushka.engine.actions import Action, Kind
from mushka.engine.deal import Deal, DealResult, Phase, TrickRecord
from mushka.engine.deal_state import check_dealer
from mushka.engine.events import Event
from mushka.engine.stacking import Stack, stack_deck, unstack_deck
from mushka.engine.views import DealView
from mushka.rules.model import Rules


def new_deal(
    rules: Rules,
    dealer: int = 0,
    *,
    deck: Sequence[Card | str | int] | str | None = None,
    rng: random.Random | int | None = None,
    picks: Sequence[Card | str | int] = (),
    record_events: bool = True,
    chance_steps: bool = False,
    **state: object,
) -> Deal:
    """Deal one hand of the variant of ``rules`` (see :class:`Deal`)."""
    from mushka.engine.kopilka import KopilkaDeal
    from mushka.engine.trump import TrumpDeal

    check_dealer(rules, dealer)  # a named error before the typed constructor (docs/build.md)
    cls: type[Deal] = TrumpDeal if rules.has_trumps else KopilkaDeal
    return cls(rules, dealer, deck=deck, rng=rng, picks=picks, record_events=record_events,
               chance_steps=chance_steps, **state)


__all__ = [
    "Action",
    "Deal",
    "DealResult",
    "DealView",
    "Event",
    "Kind",
    "Phase",
    "Stack",
    "TrickRecord",
    "new_deal",
    "stack_deck",
    "unstack_deck",
]
