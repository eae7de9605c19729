"""§4: an illegal or malformed action is refused naming the rule, and nothing changes;
``is_legal`` agrees with ``legal_actions`` for every candidate action."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from rulekit import rules, snapshot

from mushka import new_deal, new_game
from mushka.cards import CARDS
from mushka.engine.actions import DISCARDS, DRAW, PASS, PLAYS, TAKES, Kind, stand_mask
from mushka.errors import IllegalActionError, MushkaError, OutOfTurnError, ParseError

TABLES = [("classic", 3), ("classic", 4), ("classic", 7), ("mistigri", 4), ("mistigri", 6),
          ("kopilka", 4)]


def candidates(deal):
    """Every action worth trying now: each kind with each card, and many exchanges."""
    out = [PASS, DRAW, *PLAYS, *TAKES, *DISCARDS]
    hand = list(deal.hand(deal.to_act)) if deal.to_act >= 0 else []
    for k in range(len(hand) + 1):
        for combo in combinations(hand, k):
            out.append(stand_mask(sum(c.bit for c in combo)))
    foreign = [c for c in CARDS if c not in hand][:3]
    for c in foreign:
        out.append(stand_mask(c.bit | (hand[0].bit if hand else 0)))
    return out


def state(deal):
    """A cheap fingerprint of the whole state (a full snapshot is compared on samples)."""
    return (deal.phase, deal.to_act, tuple(deal.hands), deal.talon(), tuple(deal.discards(s) for s in range(deal.n)),
            deal.actions, deal.picks, deal.current_trick, deal.tricks, deal.tricks_won,
            getattr(deal, "pot", None), tuple(getattr(deal, "balances", ())))


def positions(variant, players, seed, count):
    rng = random.Random(seed)
    r = rules(variant, players)
    out = []
    while len(out) < count:
        deal = new_deal(r, rng.randrange(players), rng=rng.randrange(1 << 30))
        while not deal.is_over:
            if rng.random() < 0.25:
                out.append(deal.copy())
            deal.apply(rng.choice(list(deal.legal_actions())))
        out.append(deal)
    return out[:count]


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_s4_is_legal_agrees_with_legal_actions_and_refusals_change_nothing(variant, players):
    checked = 0
    for i, deal in enumerate(positions(variant, players, seed=players * 7 + len(variant), count=25)):
        legal = set(deal.legal_actions())
        before = state(deal)
        full = snapshot(deal) if i % 8 == 0 else None
        for action in candidates(deal):
            ok = deal.is_legal(action)
            assert ok == (action in legal), (deal, action)
            if ok:
                deal.check(action)
                continue
            with pytest.raises(IllegalActionError) as info:
                deal.check(action)
            err = info.value
            if not deal.is_over:
                assert err.rule, err
                assert str(err).startswith(err.rule + ": ") and err.message("ru").startswith(err.rule)
                assert f"seat {deal.to_act}" in str(err) and str(action) in str(err)
            with pytest.raises(IllegalActionError):
                deal.apply(action)
            checked += 1
        assert state(deal) == before
        if full is not None:
            assert snapshot(deal) == full
    assert checked > 1000


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_s4_out_of_turn_names_the_rule_and_changes_nothing(variant, players):
    for deal in positions(variant, players, seed=5, count=10):
        if deal.is_over:
            with pytest.raises(IllegalActionError, match="the deal is over"):
                deal.check(PASS)
            continue
        before = snapshot(deal)
        action = deal.legal_actions()[0]
        for seat in range(players):
            if seat == deal.to_act:
                assert deal.is_legal(action, seat)
                continue
            assert not deal.is_legal(action, seat)
            with pytest.raises(OutOfTurnError) as info:
                deal.apply(action, seat)
            assert info.value.rule in {"C7", "C13", "K7", "K11"}
            assert f"seat {seat}" in str(info.value) and f"seat {deal.to_act}" in str(info.value)
        with pytest.raises(IllegalActionError, match="does not exist"):
            deal.apply(action, players)
        assert snapshot(deal) == before


@pytest.mark.parametrize("text", ["", "fold", "play", "take", "stand AS AS", "discard", "KX", "draw 7H",
                                  "pass now", "take AS KS"])
def test_s4_malformed_actions_are_refused_by_the_parser_and_change_nothing(text):
    deal = new_deal(rules("classic", 4), 0, rng=3)
    before = snapshot(deal)
    with pytest.raises(MushkaError) as info:
        deal.apply(text)
    assert repr(text) in str(info.value) or "twice" in str(info.value)
    assert snapshot(deal) == before


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_s4_game_refusals_change_nothing(variant, players):
    game = new_game(rules(variant, players), rng=9)
    rng = random.Random(9)
    for _ in range(60):
        if game.is_over:
            break
        before = snapshot(game)
        legal = set(game.legal_actions())
        for action in [PASS, DRAW, *PLAYS[::5], *TAKES[::7], *DISCARDS[::7]]:
            if action in legal:
                continue
            with pytest.raises(IllegalActionError):
                game.apply(action)
        assert snapshot(game) == before
        game.apply(rng.choice(list(game.legal_actions())))
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    with pytest.raises(IllegalActionError, match="game is over"):
        game.apply(PASS)


def test_s4_legal_action_kinds_per_phase():
    for variant, players in TABLES:
        for deal in positions(variant, players, seed=11, count=15):
            kinds = {a.kind for a in deal.legal_actions()}
            if deal.is_over:
                assert not kinds
            elif deal.phase.name == "DECLARE":
                assert kinds <= {Kind.PASS, Kind.STAND, Kind.TAKE} and Kind.STAND in kinds
            elif deal.phase.name == "REDISTRIBUTE":
                assert kinds == {Kind.DISCARD}
            else:
                assert kinds <= {Kind.PLAY, Kind.PASS, Kind.DRAW} and kinds


def test_s4_a_refusal_reads_in_both_languages_with_the_phase_in_each():
    deal = new_deal(rules("classic", 4), 0, rng=3)
    with pytest.raises(IllegalActionError) as info:
        deal.check("AS")
    err = info.value
    assert "the declarations" in str(err) and "объявления" in err.message("ru")
    assert "declarations" not in err.message("ru")
    assert err.to_dict("ru")["params"]["phase"] == "объявления"
    assert err.to_dict("en")["rule"] == "C7"


def test_s4_check_and_is_legal_read_text_like_apply():
    deal = new_deal(rules("classic", 4), 0, rng=3)
    assert deal.is_legal("pass") and not deal.is_legal("AS") and not deal.is_legal("no such action")
    deal.check("stand")
    with pytest.raises(MushkaError, match="is not an action"):
        deal.check("no such action")
    game = new_game(rules("classic", 4), rng=3)
    assert game.is_legal("stand") and not game.is_legal("draw")


@pytest.mark.parametrize("seat", [-1, 4, "1", 1.0, True, None])
def test_s4_a_dealer_that_is_not_a_seat_is_refused(seat):
    r = rules("classic", 4)
    if seat is None:
        assert new_game(r, rng=1, first_dealer=None).first_dealer in range(4)  # C4: by lot
        return
    with pytest.raises(MushkaError, match="does not exist"):
        new_deal(r, seat, rng=1)
    with pytest.raises(MushkaError, match="does not exist"):
        new_game(r, rng=1, first_dealer=seat)


# --- every refusal names a rule (§4), whatever is given --------------------------------

BAD_TEXT = ["", "fly", "fold", "play", "take", "stand AS AS", "discard", "KX", "draw 7H", "pass now",
            "take AS KS", "stand ZZ", "   "]
BAD_TYPES = [7, None, ("stand",), ["pass"], b"pass", 3.5, {"action": "pass"}, True, frozenset()]
PHASE_RULES = {"C7", "C13", "K7", "K11"}
END_RULES = {"C9", "C10", "C13", "C22", "MI13", "K18", "K19"}  # how a finished deal ended


def phases(variant, players):
    """A deal at each phase it has (declaring or sharing out, trick play) and one that is over."""
    r = rules(variant, players)
    for seed in range(200):
        deal = new_deal(r, 0, rng=seed)
        if not deal.is_over:
            break
    out = [deal.copy()]
    rng = random.Random(4)
    while not deal.is_over:
        if deal.phase != out[-1].phase:
            out.append(deal.copy())
        deal.apply(rng.choice(list(deal.legal_actions())))
    return [*out, deal]


def assert_named(exc, *, notation=False):
    assert isinstance(exc, MushkaError) and exc.rule, (type(exc), exc)
    if notation:
        assert exc.rule in {"N1", "N2"} | PHASE_RULES | END_RULES, exc.rule
    for lang in ("en", "ru"):
        text = exc.message(lang)
        assert text.startswith(f"{exc.rule}:") and len(text) > len(exc.rule) + 5


@pytest.mark.parametrize(("variant", "players"), TABLES)
@pytest.mark.parametrize("bad", BAD_TEXT + BAD_TYPES, ids=repr)
def test_s4_an_action_that_is_no_action_names_a_rule_and_changes_nothing(variant, players, bad):
    for deal in phases(variant, players):
        before = snapshot(deal)
        for method in (deal.apply, deal.check):
            with pytest.raises(MushkaError) as info:
                method(bad)
            assert_named(info.value, notation=True)
            if not deal.is_over and isinstance(info.value, ParseError) and info.value.code != "duplicate_cards":
                assert info.value.rule in PHASE_RULES | {"N2"}
        assert deal.is_legal(bad) is False
        assert snapshot(deal) == before


@pytest.mark.parametrize("bad", BAD_TYPES, ids=repr)
def test_s4_a_value_of_the_wrong_type_is_a_parse_error_naming_the_phase_rule(bad):
    deal = new_deal(rules("classic", 4), 0, rng=3)
    with pytest.raises(ParseError) as info:
        deal.apply(bad)
    assert info.value.rule == "C7"  # the deal asked for a declaration
    assert info.value.code in ("bad_action_type", "bad_action")
    assert "not an action" in info.value.message("en") and "не ход" in info.value.message("ru")


def test_s4_fly_names_a_rule_in_every_phase():
    for variant, players in TABLES:
        for deal in phases(variant, players):
            with pytest.raises(ParseError) as info:
                deal.apply("fly")
            assert info.value.rule in PHASE_RULES | {"N2"} | END_RULES


@pytest.mark.parametrize(("variant", "players"), TABLES)
@pytest.mark.parametrize("bad", ["fly", 7, None, ("stand",)], ids=repr)
def test_s4_a_game_refuses_what_is_no_action_naming_a_rule(variant, players, bad):
    game = new_game(rules(variant, players), rng=2)
    before = snapshot(game)
    for method in (game.apply, game.check):
        with pytest.raises(MushkaError) as info:
            method(bad)
        assert_named(info.value, notation=True)
    assert game.is_legal(bad) is False
    assert snapshot(game) == before


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_s4_a_finished_deal_and_game_name_the_rule_that_ended_them(variant, players):
    *_, deal = phases(variant, players)
    with pytest.raises(IllegalActionError) as info:
        deal.apply(PASS)
    assert_named(info.value)
    assert info.value.rule in END_RULES
    game = new_game(rules(variant, players), rng=11)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    with pytest.raises(IllegalActionError) as info:
        game.apply(PASS)
    assert_named(info.value)
    assert info.value.rule in {"C20", "C22", "MI13", "K4"}


@pytest.mark.parametrize("seat", [-1, 4, 99, "1", 1.0, None])
def test_s4_a_seat_that_does_not_exist_names_c1(seat):
    deal = new_deal(rules("classic", 4), 0, rng=3)
    if seat is None:
        deal.check(PASS, seat)  # no seat given: the seat to act
        return
    before = snapshot(deal)
    with pytest.raises(IllegalActionError) as info:
        deal.apply(PASS, seat)
    assert info.value.rule == "C1" and snapshot(deal) == before


def test_s4_card_codes_name_the_notation_rules():
    from mushka.cards import Card, Rank, Suit, parse_card

    for bad in ("ZZ", "", "1S", None, 3.5, ("A", "S")):
        with pytest.raises(ParseError) as info:
            parse_card(bad)
        assert info.value.rule == "N2"
    with pytest.raises(ParseError) as info:
        Card(52)
    assert info.value.rule == "N2"
    with pytest.raises(ParseError) as info:
        Suit.parse("X")
    assert info.value.rule == "N1"
    with pytest.raises(ParseError) as info:
        Rank.parse("X")
    assert info.value.rule == "N1"


def test_s4_action_parse_on_its_own_names_the_notation():
    from mushka.engine import Action

    for bad in ("fly", "stand ZZ", "", 7, None):
        with pytest.raises(ParseError) as info:
            Action.parse(bad)
        assert info.value.rule == "N2"
    with pytest.raises(ParseError) as info:
        Action.parse("stand AS AS")
    assert info.value.rule == "C7"


@pytest.mark.parametrize("bad", ["fly", 7, None, ["stand"]], ids=repr)
def test_s4_a_record_with_an_action_that_is_no_action_names_a_rule(bad):
    import json

    from mushka.errors import RecordError
    from mushka.records import Record, record_of_game

    game = new_game(rules("classic", 4), rng=5)
    for _ in range(3):
        game.apply(game.legal_actions()[0])
    data = json.loads(record_of_game(game).dumps())
    data["deals"][0]["actions"][1] = bad
    with pytest.raises(RecordError) as info:
        Record.loads(json.dumps(data))
    assert info.value.rule == "N2"
    assert "N2" in info.value.message("ru") and "2" in info.value.message("en")
