"""Differential test: the engine against the reference model of ``refmodel.py``,
move by move, over random deals of every variant with random house rules."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from refmodel import (
    KopilkaPlay,
    Redistribution,
    TrumpPlay,
    kopilka_money,
    special_hand,
    trump_declare_moves,
    trump_record_deltas,
)

from mushka import make_rules, new_deal
from mushka.cards import Card, Suit
from mushka.engine import stack_deck

TABLES = [("classic", n) for n in range(3, 8)] + [("mistigri", n) for n in range(3, 8)] + [("kopilka", 4)]
TRUMP = {
    "dealer_takes_turnup": [True, False], "max_exchange": [0, 1, 3, 5],
    "lone_player": ["takes_all_tricks", "dealer_must_play"], "privileged_beats_trumps": [False, True],
    "privileged_free_play": [True, False], "must_follow": [True, False], "must_trump_if_void": [True, False],
    "must_head_trick": [False, True], "must_overtrump": [False, True], "can_discard_privileged": [False, True],
    "privileged_must_play": [True, False], "flush": ["wins_mushka", "side_payment", "none"],
    "rank_order": ["AKQJT98765432", "KQJAT98765432", "KQJT98765432A"], "trick_value": [1, 2],
    "remiz": [5, 3], "privileged_remiz": [None, 10], "privileged_bonus": [0, 5],
}
KOPILKA = {"renege": ["penalty", "forbid"], "redistribution": ["modern", "old"], "remiz": [5, 1],
           "suit_values": ["H4 C3 D2 S1", "H4 D3 C2 S1"], "ante": [10, 1], "game_payment": [None, 2],
           "rank_order": ["AKQJT987", "KQJAT987"]}


@st.composite
def tables(draw):
    variant, players = draw(st.sampled_from(TABLES))
    pool = KOPILKA if variant == "kopilka" else TRUMP
    names = draw(st.lists(st.sampled_from(sorted(pool)), max_size=6, unique=True))
    return make_rules(variant, players, **{n: draw(st.sampled_from(pool[n])) for n in names})


def _shown(events):
    return [(e.seat, e.kind, e.effect) for e in events if e.name == "Shown"]


def _expect_show(found, candidates):
    """What showing ``found`` special hands does: (shown, mushka seat or None)."""
    shown = [(seat, kind, effect) for seat, (effect, kind, _) in found]
    wins = [(score, seat) for seat, (effect, _, score) in found if effect == "wins_mushka"]
    if wins:
        return shown, max(wins)[1]
    candidates.extend((score, seat) for seat, (_, _, score) in found)
    return shown, None


def _trump(deal, rng):
    rules = deal.rules
    priv = rules.privileged
    ref = None
    holder = None
    n, eldest = deal.n, deal.eldest
    dealt = next(e for e in deal.events(omniscient=True) if e.name == "Dealt").hands
    order = [(eldest + k) % n for k in range(n)]
    found = [(s, special_hand(rules, set(dealt[s]), s, eldest, n)) for s in order]
    candidates: list = []
    shown, mushka = _expect_show([(s, f) for s, f in found if f], candidates)
    assert _shown(deal.events(omniscient=True)) == shown
    assert (deal.result.mushka if deal.is_over else None) == mushka
    while not deal.is_over:
        view = deal.view(None)
        legal = {str(a) for a in deal.legal_actions()}
        if deal.phase.name == "DECLARE":
            seat = deal.to_act
            stood = sum(1 for s, d in enumerate(view.declarations) if d == "stand" and s != deal.dealer)
            expected = trump_declare_moves(rules, set(deal.hand(seat)), deal.talon_size, seat, deal.dealer,
                                           view.turnup_taken, stood, priv)
            assert legal == expected
        else:
            if ref is None:
                ref = TrumpPlay(rules, {s: frozenset(deal.hand(s)) for s in range(deal.n)},
                                list(view.playing), deal.to_act, Suit(view.trump))
                holder = next((s for s in view.playing if priv in deal.hand(s)), None)
            assert deal.to_act == ref.to_act
            assert legal == {c.code for c in ref.moves()}
        action = rng.choice(sorted(legal))
        seat, took = deal.to_act, deal.view(None).turnup_taken
        events = deal.apply(action)
        if ref is not None:
            ref = ref.after(Card(action))
        elif action.startswith("stand"):
            # C22/MI12: checked after a declaration that changed the hand.
            changed = action != "stand" or (seat == deal.dealer and took)
            hit = special_hand(rules, set(deal.hand(seat)), seat, eldest, n) if changed else None
            shown, mushka = _expect_show([(seat, hit)] if hit else [], candidates)
            assert _shown(events) == shown
            assert (deal.result.mushka if deal.is_over else None) == mushka
    result = deal.result
    if result.mushka is None:
        paid = [e for e in deal.events(omniscient=True) if e.name == "FlushPaid"]
        best = max(candidates)[1] if candidates else None
        assert result.flush_seat == best and [e.seat for e in paid] == ([] if best is None else [best])
        if best is not None:
            pay = rules.flush_payment
            assert result.side == tuple(pay * (n - 1) if s == best else -pay for s in range(n))
    if ref is not None:
        assert ref.over
        assert [(t.winner, t.suit, t.privileged) for t in result.trick_log] == list(ref.log)
        deltas = trump_record_deltas(rules, ref.order, ref.log, holder)
        assert {s: result.record_delta[s] for s in ref.order} == deltas
        assert result.privileged_holder == holder


def _kopilka(deal, rng):
    rules = deal.rules
    ref = None
    pot = deal.initial_state["pot"]
    dealt = next(e for e in deal.events(omniscient=True) if e.name == "Dealt").hands
    talon = deal.deck[20:]
    # The picks are chance: the reference takes the engine's outcomes and checks them.
    redis = Redistribution(rules, dict(enumerate(dealt)), talon, deal.dealer, deal.picks
                           if deal.phase.name == "PLAY" else _all_picks(deal, rng))
    while not deal.is_over:
        legal = {str(a) for a in deal.legal_actions()}
        if deal.phase.name == "REDISTRIBUTE":
            assert deal.to_act == redis.to_act
            assert legal == {f"discard {c.code}" for c in redis.hands[redis.to_act]}  # K7 step 5
            action = rng.choice(sorted(legal))
            deal.apply(action)
            redis.discard(Card(action.split()[1]))
            continue
        if ref is None:
            assert redis.to_act is None and not redis.picks
            assert {s: set(deal.hand(s)) for s in range(4)} == redis.hands
            assert list(deal.talon()) == redis.talon
            groups = [(e.seat, e.count) for e in deal.events(omniscient=True) if e.name == "GroupDeclared"]
            assert groups == redis.groups
            ref = KopilkaPlay(rules, {s: frozenset(redis.hands[s]) for s in range(4)}, tuple(redis.talon),
                              (deal.dealer + 1) % 4)
        assert deal.to_act == ref.to_act
        assert legal == {m if isinstance(m, str) else m.code for m in ref.moves()}
        action = rng.choice(sorted(legal))
        deal.apply(action)
        if ref is not None:
            ref = ref.after(action if action in ("draw", "pass") else Card(action))
    assert ref is not None and ref.over
    result = deal.result
    assert [(t.winner, t.suit, t.privileged) for t in result.trick_log] == list(ref.log)
    assert result.out == ref.out and result.deadlock == (ref.takebacks == 4)
    money, pot_after = kopilka_money(rules, pot, ref.reneges, ref.log, ref.out)
    assert list(result.money) == money and result.pot == pot_after


def _all_picks(deal, rng):
    """The picks the engine will make: replay a copy with the same discards ahead of time."""
    probe = deal.copy()
    state = rng.getstate()
    while probe.phase.name == "REDISTRIBUTE":
        probe.apply(rng.choice(sorted(str(a) for a in probe.legal_actions())))
    rng.setstate(state)
    return probe.picks


def _suited_deck(rules, seed):
    """A deck in which hands often hold many cards of one suit (flushes, groups)."""
    rng = random.Random(seed)
    cards = sorted(rules.deck_cards, key=lambda c: (c.suit, rng.random()))
    start = rng.randrange(len(cards))
    cards = cards[start:] + cards[:start]
    for _ in range(rng.randrange(0, 8)):
        i, j = rng.randrange(len(cards)), rng.randrange(len(cards))
        cards[i], cards[j] = cards[j], cards[i]
    hands = [cards[5 * s:5 * s + 5] for s in range(rules.players)]
    rest = cards[5 * rules.players:]
    turnup = rest[0] if rules.has_trumps else None
    return stack_deck(rules, hands, turnup, rest[1:] if rules.has_trumps else rest, dealer=seed % rules.players)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=tables(), seed=st.integers(0, 2**32 - 1), suited=st.booleans())
def test_engine_agrees_with_the_reference_model(rules, seed, suited):
    deck = _suited_deck(rules, seed) if suited else None
    deal = new_deal(rules, seed % rules.players, rng=seed, deck=deck)
    rng = random.Random(seed)
    if rules.variant == "kopilka":
        _kopilka(deal, rng)
    else:
        _trump(deal, rng)
