"""The research API's numeric path (chance steps, ``legal_action_ids``, ``apply_id``) against the
text path (``Deal.apply`` of each action's text form), step by step, in every variant.

The ids path lists its ids from the engine's masks and from tables made once, and applies a
listed id without a second check; these tests hold it to the text API, which lists
:class:`~mushka.engine.actions.Action` values and checks every action it applies (§4).  Random
deals of every variant and player count, and of house rules that change what is legal (C6, C8,
C10, C12, C14, MI5, MI8, K7, K12), are played through both and compared action by action and
state by state.  They run on both builds (docs/build.md).
"""

from __future__ import annotations

import hashlib
import random

import pytest

from mushka.engine import new_deal
from mushka.engine.deal import Deal
from mushka.engine.ids import action_space
from mushka.engine.steps import StepDeal
from mushka.errors import IllegalActionError
from mushka.rules import make_rules

TABLES = [
    ("classic", 3, {}), ("classic", 4, {}), ("classic", 5, {}), ("classic", 6, {}), ("classic", 7, {}),
    ("mistigri", 3, {}), ("mistigri", 4, {}), ("mistigri", 5, {}), ("mistigri", 7, {}),
    ("kopilka", 4, {}), ("kopilka", 4, {"redistribution": "old", "renege": "forbid"}),
    ("classic", 4, {"must_head_trick": True, "must_overtrump": True, "max_exchange": 3,
                    "dealer_takes_turnup": False}),
    ("classic", 3, {"privileged_free_play": False, "lone_player": "dealer_must_play", "deck": 52,
                    "privileged_beats_trumps": True}),
    ("mistigri", 4, {"must_follow": False, "must_trump_if_void": False, "can_discard_privileged": True,
                     "max_exchange": 2, "privileged_must_play": False}),
    ("classic", 5, {"flush": "wins_mushka", "privileged_four": "as_flush", "deck": 36, "must_overtrump": True}),
]
IDS = [f"{v}-{p}-{'-'.join(f'{k}={x}' for k, x in o.items()) or 'default'}" for v, p, o in TABLES]
DEALS = 40


def state_of(deal: Deal) -> tuple[object, ...]:
    """What a deal is now, as plain values (every field the rules make public or private)."""
    return (deal.phase, deal.to_act, tuple(deal.hands), deal.talon(), deal.tricks_won,
            deal.current_trick, deal.actions, deal.picks, deal.is_over,
            tuple(deal.discards(s) for s in range(deal.n)))


def expected_outcomes(step: StepDeal) -> list[tuple[int, float]]:
    """N4/K7: the chance outcomes due, worked out from the deal's public facts alone: every
    deck position not dealt yet, or every card of the K7 group, in deck order, equally likely."""
    rules = step.rules
    if step.deal is not None:
        return []
    dealt = step.history[:rules.deck_size]
    if len(dealt) < rules.deck_size:
        left = [k for k in range(rules.deck_size) if k not in dealt]
    else:
        options = step._options
        left = [k for k, c in enumerate(rules.deck_indices) if c in options]
    return [(k, 1.0 / len(left)) for k in left]


def play_both(rules, seed: int) -> None:
    """One random deal by chance steps and ids, then the same deal by text (its deck and
    picks stacked, N4/K7), compared at every decision and at the end."""
    rng = random.Random(seed)
    dealer = seed % rules.players
    step = StepDeal(rules, dealer, record_events=bool(seed & 1))
    space = action_space(rules)
    seen = []
    while not step.is_over():
        if step.is_chance():
            outcomes = step.chance_outcomes()
            assert outcomes == expected_outcomes(step)
            step.apply_chance(outcomes[rng.randrange(len(outcomes))][0])
            continue
        deal = step.deal
        ids = step.legal_action_ids()
        assert ids == sorted(set(ids))
        assert [i for i, on in enumerate(step.legal_action_mask()) if on] == ids
        chosen = ids[rng.randrange(len(ids))]
        seen.append((state_of(deal), ids, [step.action_of(i) for i in ids], chosen))
        step.apply_id(chosen)
    deal = step.deal
    text = new_deal(rules, dealer, deck=" ".join(c.code for c in deal.deck),
                    picks=" ".join(c.code for c in deal.picks))
    for state, ids, listed, chosen in seen:
        assert state_of(text) == state
        actions = list(text.legal_actions())
        # The same legal actions, each listed under its own id, in the ids' order.
        assert ids == sorted(space.id_of(text, a) for a in actions)
        assert listed == sorted(actions, key=lambda a: space.id_of(text, a))
        text.apply(str(listed[ids.index(chosen)]))
    assert state_of(text) == state_of(deal)
    assert text.result == deal.result
    assert text.events(omniscient=True) == deal.events(omniscient=True)


@pytest.mark.parametrize(("variant", "players", "options"), TABLES, ids=IDS)
def test_n4_c7_c13_k11_ids_and_chance_steps_agree_with_the_text_api(variant, players, options):
    rules = make_rules(variant, players, **options)
    for seed in range(DEALS):
        play_both(rules, seed)


def drive(rules, seed: int, deals: int, *, listed: bool) -> list[tuple[object, ...]]:
    """Random deals by ids; ``listed``: each id taken from the state's ``legal_action_ids()``
    at its step (applied without a second check), otherwise from the action space's list
    (the state listed nothing, so ``apply_id`` checks each id in full)."""
    rng = random.Random(seed)
    space = action_space(rules)
    out: list[tuple[object, ...]] = []
    for d in range(deals):
        step = StepDeal(rules, d % rules.players, record_events=False)
        while not step.is_over():
            if step.is_chance():
                outcomes = step.chance_outcomes()
                step.apply_chance(outcomes[rng.randrange(len(outcomes))][0])
            else:
                ids = step.legal_action_ids() if listed else space.legal_ids(step.deal)
                step.apply_id(ids[rng.randrange(len(ids))])
        out.append((*step.history, *step.returns()))
    return out


@pytest.mark.parametrize(("variant", "players", "options"), TABLES, ids=IDS)
def test_c7_c13_k11_a_listed_id_and_a_checked_one_give_the_same_deals(variant, players, options):
    rules = make_rules(variant, players, **options)
    assert drive(rules, 3, DEALS, listed=True) == drive(rules, 3, DEALS, listed=False)


def test_c13_an_id_listed_at_another_phase_is_checked_in_full(classic4):
    # The listed ids are kept as a mask from an offset that depends on the phase: an id listed
    # in the declarations is not taken as one listed in trick play, and the other way round.
    rng = random.Random(4)
    for _ in range(30):
        step = StepDeal(classic4)
        while not step.is_over():
            if step.is_chance():
                step.apply_chance(rng.choice(step.chance_outcomes())[0])
                continue
            ids = step.legal_action_ids()
            legal = set(ids)
            for bad in (0, 1, 33, 37, 38, 38 + classic4.deck_size - 1, -1, 38 + 62, 10**20):
                if bad in legal:
                    continue
                before = step.history
                with pytest.raises(IllegalActionError):
                    step.apply_id(bad)
                assert step.history == before
            step.legal_action_ids()
            step.apply_id(rng.choice(ids))


# What the ids driver of bench/openspiel_compare.py (``rng.choice`` of the outcomes and of the
# ids, deal after deal) saw in 30 deals of each table from seed 7: every chance step's outcomes,
# every seat to act and its ids, every history and payoff, as a SHA-256 (first 16 digits).
# Recorded with the release before the ids were listed from tables, in both builds: the faster
# path lists the same ids, deals the same cards and plays the same deals, seed by seed.
TRACES = {
    "classic-3-default": "d75ddc8b7654a039",
    "classic-4-default": "466cb78385d36e00",
    "classic-5-default": "0f55cb1b768d78e3",
    "classic-6-default": "15e27a9dec283401",
    "classic-7-default": "f72b268fc6f8fb04",
    "mistigri-3-default": "4c282b2504d07776",
    "mistigri-4-default": "c0172157a1ee26d8",
    "mistigri-5-default": "2298841d23f19ede",
    "mistigri-7-default": "6628389e86b79282",
    "kopilka-4-default": "d8aaf9e993a57efd",
    "kopilka-4-redistribution=old-renege=forbid": "aaf9f41187897165",
    "classic-4-must_head_trick=True-must_overtrump=True-max_exchange=3-dealer_takes_turnup=False": "cc9ab21ef108628a",
    "classic-3-privileged_free_play=False-lone_player=dealer_must_play-deck=52-privileged_beats_trumps=True":
        "00937b92cfc23991",
    "mistigri-4-must_follow=False-must_trump_if_void=False-can_discard_privileged=True-max_exchange=2-"
    "privileged_must_play=False": "f429e2a67f336312",
    "classic-5-flush=wins_mushka-privileged_four=as_flush-deck=36-must_overtrump=True": "2df83e34d801bd55",
}


def trace(rules, deals: int, seed: int) -> str:
    """The digest of :data:`TRACES`: the bench's driver, every step written down."""
    rng = random.Random(seed)
    choice = rng.choice
    digest = hashlib.sha256()
    for d in range(deals):
        step = StepDeal(rules, d % rules.players, record_events=bool(d & 1))
        while not step.is_over():
            if step.is_chance():
                outcomes = step.chance_outcomes()
                digest.update(repr(outcomes).encode())
                step.apply_chance(choice(outcomes)[0])
            else:
                ids = step.legal_action_ids()
                digest.update(repr((step.current_player, ids)).encode())
                step.apply_id(choice(ids))
        digest.update(repr((step.history, step.returns())).encode())
    return digest.hexdigest()[:16]


@pytest.mark.parametrize(("variant", "players", "options"), TABLES, ids=IDS)
def test_n4_the_ids_driver_sees_the_same_steps_as_the_release_before(variant, players, options, request):
    key = request.node.callspec.id
    assert trace(make_rules(variant, players, **options), 30, 7) == TRACES[key]
