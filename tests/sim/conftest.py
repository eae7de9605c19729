"""Test bots: a deterministic player, so that tournaments have two different
players, and one whose factory refuses bad values."""

from __future__ import annotations

import pytest

from mushka.bots import BOTS, register_bot


class FirstBot:
    """Always takes the first legal action (a weak, predictable player)."""

    name = "first"

    def choose(self, view, rng):
        return view.deal.legal[0]


@pytest.fixture
def first_bot():
    register_bot("first", FirstBot)
    yield "first"
    BOTS.pop("first", None)


def picky(level=1):
    """A bot factory that refuses some values (as a real bot checks its budget)."""
    if level < 1:
        raise ValueError("level must be at least 1")
    return FirstBot()


@pytest.fixture
def picky_bot():
    register_bot("picky", picky)
    yield "picky"
    BOTS.pop("picky", None)
