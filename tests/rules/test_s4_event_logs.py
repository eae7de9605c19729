"""§4: each seat's redacted event log, kept from step to step, is the whole log redacted anew."""

from __future__ import annotations

import random

import pytest

from mushka.engine import new_deal
from mushka.rules import make_rules

TABLES = [("classic", 3), ("classic", 4), ("mistigri", 4), ("kopilka", 4)]


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_s4_kept_logs_equal_a_fresh_redaction(variant, players):
    rules = make_rules(variant, players)
    for seed in range(12):
        rng = random.Random(seed)
        deal = new_deal(rules, seed % players, rng=random.Random(seed))
        viewers = [*range(players), None]
        while not deal.is_over:
            for viewer in viewers:
                if rng.random() < 0.4:  # asked now and then: the log catches up over several steps
                    fresh = [e.seen_by(viewer) for e in deal.events(omniscient=True)]
                    assert deal.events(viewer) == fresh
                    if viewer is not None:
                        assert list(deal.view(viewer).events) == fresh
            action = rng.choice(list(deal.legal_actions()))
            if rng.random() < 0.2:
                deal.apply_unchecked(action)  # drops the log: the next ask replays the deal
            else:
                deal.apply(action)
            if rng.random() < 0.1:
                deal = deal.copy()
        for viewer in viewers:
            assert deal.events(viewer) == [e.seen_by(viewer) for e in deal.events(omniscient=True)]


def test_s4_a_caller_changing_the_log_it_got_changes_nothing():
    rules = make_rules("classic", 4)
    deal = new_deal(rules, 0, rng=random.Random(3))
    got = deal.events(1)
    got.clear()
    assert deal.events(1) == [e.seen_by(1) for e in deal.events(omniscient=True)]
    assert deal.events(1)
