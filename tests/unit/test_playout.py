"""Deal.playout: a random finish on the fast path that stays legal and replayable."""

import random

import pytest

from mushka import make_rules, new_deal
from mushka.engine import Phase

TABLES = [("classic", 3), ("classic", 4), ("classic", 7), ("mistigri", 5), ("kopilka", 4),
          ("classic", 4, {"must_head_trick": True, "must_overtrump": True}),
          ("mistigri", 4, {"privileged_free_play": False})]


@pytest.mark.parametrize("table", TABLES, ids=lambda t: "-".join(map(str, t[:2])))
def test_playout_finishes_with_legal_actions_that_replay(table):
    variant, players, *extra = table
    rules = make_rules(variant, players, **(extra[0] if extra else {}))
    for seed in range(40):
        deal = new_deal(rules, seed % players, rng=seed)
        rng = random.Random(seed)
        # Part of the deal by the checked path, the rest by playout.
        for _ in range(seed % 7):
            if deal.is_over:
                break
            deal.apply(rng.choice(list(deal.legal_actions())))
        deal.playout(rng)
        assert deal.phase == Phase.OVER and deal.result is not None
        again = new_deal(rules, deal.dealer, deck=deal.deck, picks=deal.picks)
        for action in deal.actions:
            again.apply(action)  # checked: raises if playout made an illegal move
        assert again.result == deal.result


def test_playout_picks_every_legal_card_sometimes():
    rules = make_rules("classic", 4)
    deal = new_deal(rules, 0, rng=3)
    while deal.phase != Phase.PLAY:
        deal.apply(deal.legal_actions()[1])  # stand pat
    first = set()
    legal = {a.card for a in deal.legal_actions()}
    for seed in range(300):
        copy = deal.copy()
        copy.playout(random.Random(seed))
        first.add(copy.actions[len(deal.actions)].card)
    assert first == legal
