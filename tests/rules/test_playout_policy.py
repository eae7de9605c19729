"""C7-C8, C14: ``Deal.playout`` plays exactly the documented random policy.

At every step it takes ``options[int(rng.random() * len(options))]`` of
``legal_actions()`` (the declarations listed as pass, the stands by size, the
dealer's takes, C6-C8), without listing them: a seed gives the same playout as
the per-action loop, and the same as before the fast path existed.
"""

from __future__ import annotations

import random

import pytest

from mushka import make_rules, new_deal

TABLES = [("classic", 3, {}), ("classic", 4, {}), ("classic", 6, {}), ("mistigri", 4, {}), ("mistigri", 5, {}),
          ("classic", 4, {"dealer_takes_turnup": False}), ("classic", 4, {"must_head_trick": True}),
          ("mistigri", 4, {"privileged_free_play": False}), ("kopilka", 4, {})]


def by_the_loop(deal, rng):
    random_ = rng.random
    while not deal.is_over:
        options = deal.legal_actions()
        deal.apply_unchecked(options[int(random_() * len(options))])


@pytest.mark.parametrize(("variant", "players", "options"), TABLES, ids=lambda v: str(v))
def test_c7_c14_playout_is_the_per_action_loop(variant, players, options):
    rules = make_rules(variant, players, **options)
    for seed in range(120):
        fast = new_deal(rules, seed % players, rng=seed, record_events=False)
        slow = fast.copy()
        fast.playout(random.Random(seed))
        by_the_loop(slow, random.Random(seed))
        assert fast.actions == slow.actions
        assert fast.result == slow.result


@pytest.mark.parametrize(("variant", "players", "options"), TABLES[:-1], ids=lambda v: str(v))
def test_c6_c8_a_declaration_drawn_is_the_listed_choice(variant, players, options):
    # Every index of the lazily listed choices, at every declaration of random deals.
    rules = make_rules(variant, players, **options)
    for seed in range(60):
        rng = random.Random(seed)
        deal = new_deal(rules, seed % players, rng=seed)
        while deal.phase.name == "DECLARE":
            choices = deal.legal_actions()
            n = len(choices)
            for i in range(n):
                for r in (i / n, (i + 0.5) / n, (i + 1) / n - 1e-12):
                    assert deal._declaration_at(r) == choices[int(r * n)]
            deal.apply(choices[rng.randrange(n)])
