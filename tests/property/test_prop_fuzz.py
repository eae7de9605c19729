"""Fuzzing every parser: a value or a MushkaError, never another exception; text forms round-trip."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from propkit import TABLES, tables

from mushka import make_rules, new_deal, new_game
from mushka.cards import CARDS, RANK_LETTERS, SUIT_LETTERS, Card, format_cards, parse_card, parse_cards
from mushka.engine import Action, Deal, stack_deck, unstack_deck
from mushka.errors import MushkaError, ParseError, RecordError
from mushka.match import Game
from mushka.records import Record, record_of_deal, record_of_game, replay
from mushka.rules import OPTIONS, Rules, options_for, parse_assignment
from mushka.rules.options import format_value, parse_value

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SOME = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

CARD_PIECES = [*RANK_LETTERS, *RANK_LETTERS.lower(), "10", "В", "Д", "К", "Т", *SUIT_LETTERS,
               *SUIT_LETTERS.lower(), "♠", "♣", "♦", "♥", "п", "т", "б", "ч", " ", ",", "1", "0", "X"]
WORDS = ["pass", "stand", "take", "play", "draw", "discard", "пас", "играю", "беру", "сброс", "прикуп"]
card_like = st.lists(st.sampled_from(CARD_PIECES), max_size=4).map("".join)
text = st.text(max_size=12) | card_like
action_like = st.lists(st.sampled_from(WORDS) | card_like | st.text(max_size=4), max_size=5).map(" ".join)


def value_or_mushka_error(func, *args, **kwargs):
    try:
        return func(*args, **kwargs)
    except MushkaError as err:
        assert str(err) and err.message("ru")
        return err


@FUZZ
@given(text)
def test_card_parser_gives_a_card_or_a_parse_error(raw):
    out = value_or_mushka_error(Card, raw)
    if isinstance(out, Card):
        assert Card(out.code) is out and parse_card(str(out)) is out
    else:
        assert isinstance(out, ParseError) and repr(raw) in str(out)


@FUZZ
@given(st.integers() | st.booleans())
def test_card_from_an_index(index):
    out = value_or_mushka_error(Card, index)
    assert isinstance(out, Card) == (0 <= index < 52)


@FUZZ
@given(st.lists(st.sampled_from(CARDS), max_size=8), st.sampled_from([" ", ", ", ",", "  "]), st.booleans())
def test_card_lists_round_trip(cards, sep, symbols):
    joined = sep.join(c.symbol if symbols else c.code for c in cards)
    assert parse_cards(joined) == tuple(cards)
    assert parse_cards(format_cards(cards, symbols=symbols)) == tuple(cards)
    assert parse_cards(format_cards(cards, symbols=True, lang="ru")) == tuple(cards)


@FUZZ
@given(text | st.lists(text, max_size=4).map(" ".join))
def test_card_list_parser(raw):
    out = value_or_mushka_error(parse_cards, raw)
    if isinstance(out, tuple):
        assert all(isinstance(c, Card) for c in out)


@FUZZ
@given(action_like | st.text(max_size=20))
def test_action_parser_gives_an_action_or_a_parse_error(raw):
    out = value_or_mushka_error(Action.parse, raw)
    if isinstance(out, Action):
        assert Action.parse(str(out)) == out
    else:
        assert isinstance(out, ParseError)


@FUZZ
@given(st.sampled_from(["pass", "draw"]) | st.builds(
    lambda kind, cards: f"{kind} {' '.join(c.code for c in cards)}".strip(),
    st.sampled_from(["stand"]), st.lists(st.sampled_from(CARDS), max_size=5, unique=True))
    | st.builds(lambda kind, c: f"{kind} {c.code}", st.sampled_from(["take", "discard", "play"]),
                st.sampled_from(CARDS)))
def test_every_action_text_round_trips(raw):
    action = Action.parse(raw)
    assert Action.parse(str(action)) == action
    assert str(Action.parse(str(action))) == str(action)


option_names = st.sampled_from([o.name for o in OPTIONS] + ["nonsense", "players", "variant", ""])
python_values = st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=True) | text \
    | st.lists(st.integers(-5, 60), max_size=6) | st.dictionaries(text | st.integers(0, 9), st.integers(-3, 60) | text,
                                                                   max_size=5) \
    | st.tuples(st.integers(0, 9), st.integers(0, 60))


@FUZZ
@given(st.sampled_from(["classic", "mistigri", "kopilka"]), option_names, text | st.sampled_from(
    ["true", "no", "3:32,4:36,5:52,6:52,7:52", "H4 C3 D2 S1", "ace_high", "mistigri", "auto", "remiz", "ante",
     "7", "-1", "5000", "AKQJT98765432"]))
def test_option_text_values_parse_or_are_refused(variant, name, raw):
    out = value_or_mushka_error(parse_value, name, variant, raw)
    if not isinstance(out, MushkaError):
        again = parse_value(name, variant, format_value(name, out))
        assert again == out


@FUZZ
@given(st.sampled_from(["classic", "mistigri", "kopilka"]), option_names, python_values)
def test_option_python_values_parse_or_are_refused(variant, name, value):
    value_or_mushka_error(parse_value, name, variant, value)


@FUZZ
@given(st.sampled_from(["classic", "mistigri", "kopilka", "мистигри", "bogus", ""]) | st.integers(),
       st.none() | st.integers(-2, 9) | text | st.booleans(),
       st.dictionaries(option_names, python_values, max_size=3))
def test_make_rules_with_anything(variant, players, options):
    out = value_or_mushka_error(make_rules, variant, players, **options)
    if isinstance(out, Rules):
        assert Rules.make(out.variant, out.players, **out.options_text()) == out


@FUZZ
@given(text)
def test_option_assignments(raw):
    out = value_or_mushka_error(parse_assignment, raw)
    if isinstance(out, tuple):
        assert out[0] and "=" in raw


@SOME
@given(tables(), st.integers(0, 6), st.randoms(use_true_random=False))
def test_stack_deck_round_trips_and_refuses_bad_input(rules, dealer, rnd):
    assume(dealer < rules.players)
    deck = list(rules.deck_cards)
    rnd.shuffle(deck)
    stack = unstack_deck(rules, deck, dealer)
    assert stack_deck(rules, stack.hands, stack.turnup, stack.talon, dealer=dealer) == tuple(deck)
    deal = new_deal(rules, dealer, deck=deck, picks=() if rules.has_trumps else None or ())
    assert deal.deck == tuple(deck)
    broken = list(stack.hands)
    seat = rnd.randrange(rules.players)
    broken[seat] = broken[seat][:-1] + broken[(seat + 1) % rules.players][:1]
    out = value_or_mushka_error(stack_deck, rules, broken, stack.turnup, stack.talon, dealer=dealer)
    assert isinstance(out, MushkaError) and out.rule == "N4"


def _valid_record(rules: Rules, seed: int, level: str) -> Record:
    rng = random.Random(seed)
    if level == "deal":
        deal = new_deal(rules, seed % rules.players, rng=seed)
        for _ in range(rng.randrange(0, 40)):
            if deal.is_over:
                break
            deal.apply(rng.choice(list(deal.legal_actions())))
        return record_of_deal(deal)
    game = new_game(rules, rng=seed, **({} if rules.variant == "kopilka" else {"max_deals": 3}))
    for _ in range(rng.randrange(0, 120)):
        if game.is_over:
            break
        game.apply(rng.choice(list(game.legal_actions())))
    return record_of_game(game)


def _mutate(data: dict, rnd: random.Random):
    """One random edit of a record's JSON: a field dropped, retyped or changed."""
    deals = data["deals"]
    d = deals[rnd.randrange(len(deals))]
    choice = rnd.randrange(15)
    if choice == 0:
        data.pop(rnd.choice(sorted(data)))
    elif choice == 1:
        data[rnd.choice(sorted(data))] = rnd.choice([None, 3, "x", [], {}, True, -1])
    elif choice == 2:
        d.pop(rnd.choice(sorted(d)))
    elif choice == 3:
        d[rnd.choice(sorted(d))] = rnd.choice([None, 3, "x", [], {}, True, -1, "AS AS"])
    elif choice == 4:
        cards = d["deck"].split()
        i, j = rnd.randrange(len(cards)), rnd.randrange(len(cards))
        cards[i] = cards[j] if rnd.random() < 0.5 else rnd.choice(["2C", "ZZ", "10H", "as"])
        d["deck"] = " ".join(cards)
    elif choice == 5 and d["actions"]:
        i = rnd.randrange(len(d["actions"]))
        d["actions"][i] = rnd.choice(["pass", "draw", "stand", "AS", "take 7H", "discard KC", "stand 7H 8H", "??"])
    elif choice == 6 and d["actions"]:
        d["actions"].pop(rnd.randrange(len(d["actions"])))
    elif choice == 7:
        d["actions"].append(rnd.choice(["pass", "draw", "7H", "stand"]))
    elif choice == 8:
        d["dealer"] = rnd.choice([0, 1, 2, 5, -1])
    elif choice == 9:
        data["options"][rnd.choice(["remiz", "players", "bogus", "renege", "max_exchange"])] = rnd.choice(
            ["0", "x", "forbid", "9", "true"])
    elif choice == 10:
        data["version"] = rnd.choice([0, 2, "1", 1.0])
    elif choice == 11:
        d["picks"] = rnd.choice(["", "AS", "7H 8H", "KC KC", 5])
    elif choice == 12 and len(deals) > 1:
        deals.pop(rnd.randrange(len(deals)))
    elif choice == 13:
        data["first_dealer"] = rnd.choice([0, 1, 3, 9, -2, "0"])
    elif choice == 14:
        d["state"] = rnd.choice([{}, {"pot": 40, "balances": [-10] * 4}, {"pot": 0, "balances": []},
                                 {"pot": 1, "balances": [0, 0, -1, 0]}, {"pot": "x"}, [], None])
    if rnd.random() < 0.3 and "result" in data:
        data.pop("result")
    return data


def _replay_or_record_error(text: str):
    try:
        record = Record.loads(text)
    except RecordError as err:
        assert str(err).startswith(("record", "N4", "C", "K", "MI"))
        return None
    try:
        target = replay(record)
    except RecordError as err:
        if err.code == "record_action":
            assert "deal " in str(err) and "action " in str(err)
        if err.code == "record_deal":
            assert "deal " in str(err) and err.rule
        return None
    # Nothing half-applied: every listed action is in the replayed game.
    deals = [target] if isinstance(target, Deal) else target.deals
    assert isinstance(target, (Deal, Game))
    assert len(deals) >= len(record.deals)
    for d, r in zip(deals, record.deals, strict=False):
        assert d.actions == r.actions and d.deck == r.deck and d.picks == r.picks
    return target


@SOME
@given(tables(), st.integers(0, 2**31), st.sampled_from(["deal", "game"]), st.randoms(use_true_random=False),
       st.integers(1, 3))
def test_mutated_records_replay_or_raise_a_record_error(rules, seed, level, rnd, edits):
    record = _valid_record(rules, seed, level)
    assert _replay_or_record_error(record.dumps()) is not None
    data = json.loads(record.dumps())
    for _ in range(edits):
        try:
            data = _mutate(data, rnd)
        except (KeyError, TypeError, AttributeError, IndexError, ValueError):
            break  # an earlier edit removed what this one would change
    _replay_or_record_error(json.dumps(data))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 60) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@FUZZ
@given(json_values | st.fixed_dictionaries({
    "format": st.just("mushka-record"), "version": st.just(1) | json_values,
    "variant": st.sampled_from(["classic", "kopilka", "x"]) | json_values,
    "players": st.integers(0, 8) | json_values, "options": json_values,
    "deals": st.lists(st.fixed_dictionaries({"dealer": st.integers(-1, 7) | json_values,
                                             "deck": json_values, "actions": json_values}), max_size=2),
}))
def test_arbitrary_json_records_never_crash(value):
    _replay_or_record_error(json.dumps(value))


@FUZZ
@given(st.text(max_size=80))
def test_arbitrary_text_records_never_crash(raw):
    _replay_or_record_error(raw)


@SOME
@given(st.sampled_from(TABLES), st.integers(0, 2**31))
def test_records_round_trip_through_text(table, seed):
    rules = make_rules(*table)
    record = _valid_record(rules, seed, "game")
    text = record.dumps()
    assert Record.loads(text).dumps() == text
    assert Record.loads(record.dumps(indent=None)) == Record.loads(text)
    assert record.rules() == rules
    for spec in options_for(rules.variant):
        if spec.stored_when_changed and rules.is_default(spec.name):
            # Added later (kopilka's session_games): at its default it is not written, and a
            # record without it reads as the default.
            assert spec.name not in record.options
            continue
        assert parse_value(spec.name, rules.variant, record.options[spec.name]) == getattr(rules, spec.name)
