"""Shared fixtures: rules of each variant and a helper to build stacked decks."""

from __future__ import annotations

import pytest

from mushka.rules import make_rules


def pytest_configure(config: pytest.Config) -> None:
    """Under xdist, keep every ``xdist_group`` on one worker whatever ``-n`` comes with.

    ``-n N`` alone distributes with ``--dist load``, which ignores the groups: the Ray tests
    (one Ray cluster at a time), PostgreSQL's and the browser's would then be spread over the
    workers, each starting a cluster or a browser of its own.  ``loadgroup`` is ``load`` for
    every test without a group."""
    if getattr(config.option, "dist", "no") == "load":
        config.option.dist = "loadgroup"


@pytest.fixture
def classic4():
    return make_rules("classic", 4)


@pytest.fixture
def mistigri4():
    return make_rules("mistigri", 4)


@pytest.fixture
def kopilka():
    return make_rules("kopilka", 4)
