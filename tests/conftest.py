"""Shared fixtures: rules of each variant and a helper to build stacked decks."""

from __future__ import annotations

import pytest

from mushka.rules import make_rules


@pytest.fixture
def classic4():
    return make_rules("classic", 4)


@pytest.fixture
def mistigri4():
    return make_rules("mistigri", 4)


@pytest.fixture
def kopilka():
    return make_rules("kopilka", 4)
