"""Hostile arguments at the public entry points of the rules core: bad input of any kind gets
the project's own error naming the rule, and changes nothing (§4).

Where a caller gives a seat, a dealer, a deal limit, a generator, a chance outcome, an action
id, a card or a record, every wrong value (a bool, text, a float, ``None``, a negative or a huge
number, a list, a seat beyond the table) is refused with a :class:`~mushka.errors.MushkaError`
of the expected kind and rule, never a bare ``TypeError``, ``IndexError`` or ``AttributeError``,
and ``True`` is never read as seat 1.  The suite runs in the compiled build and in the pure
one, where typed parameters differ (a compiled ``int`` parameter takes a bool and refuses text
before the body runs): the same cases hold in both.  The deal, game or steps the call was made
on are the same afterwards.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial

import pytest
from rulekit import snapshot

from mushka import new_deal, new_game
from mushka.cards import Card, Rank, Suit, parse_cards
from mushka.engine import Action, stack_deck, unstack_deck
from mushka.engine.encode import Encoder
from mushka.engine.kopilka import KopilkaDeal
from mushka.engine.steps import StepDeal
from mushka.engine.trump import TrumpDeal
from mushka.errors import ChanceError, IllegalActionError, MushkaError, OptionsError, ParseError, RecordError
from mushka.game_steps import StepGame, game_utility_bounds, max_game_length
from mushka.match import Partie, Session, planned_deals
from mushka.records.format import Record, record_of_deal
from mushka.rules import make_rules, rules_from_text
from mushka.worlds.resample import resample_deal, resample_steps

HOSTILE = (True, False, "1", 1.0, None, -1, 2**70, [1])
"""What a careless or hostile caller passes instead of a small whole number."""
NOT_NONE = tuple(v for v in HOSTILE if v is not None)
"""The same, where ``None`` means something (a spectator, a dealer drawn by lot, no limit)."""
SEATS = (*HOSTILE, 9)
"""The same and a seat beyond a table of four."""
VIEWERS = (*NOT_NONE, 9)
"""Where ``None`` is the spectator."""
LIMITS = (*(v for v in NOT_NONE if v != 2**70), 0)
"""Where a deal limit is expected (a huge one is a limit all the same)."""
GENERATORS = (True, False, "1", 1.0, [1], b"1")
"""Neither a random.Random, a whole-number seed nor None."""

CLASSIC = make_rules("classic", 4)
KOPILKA = make_rules("kopilka", 4)


def ids(values: tuple[object, ...]) -> list[str]:
    return [repr(v) for v in values]


def refused(call: Callable[[], object], error: type[MushkaError], rule: str | None,
            state: Callable[[], object] | None = None) -> None:
    """``call`` raises ``error`` naming ``rule`` in both languages, and ``state`` is unchanged."""
    before = state() if state is not None else None
    with pytest.raises(MushkaError) as info:
        call()
    raised = info.value
    assert isinstance(raised, error), f"{type(raised).__name__}: {raised}"
    assert raised.rule == rule, raised
    assert raised.message("en") and raised.message("ru") != raised.message("en")
    if state is not None:
        assert state() == before


# --- helpers: positions to call methods on ---------------------------------------------------------

def deal(rules=CLASSIC):
    return new_deal(rules, 0, rng=7)


def dealt_steps(rules=CLASSIC) -> StepDeal:
    """A step deal past its chance steps, a seat to act."""
    steps = StepDeal(rules, 0)
    while steps.is_chance():
        steps.apply_chance(steps.chance_outcomes()[0][0])
    return steps


def game_in_play() -> StepGame:
    """A step game past its first dealer and deck, a seat to act."""
    game = StepGame(CLASSIC, max_deals=3)
    game.apply_chance(0)
    while game.is_chance():
        game.apply_chance(game.chance_outcomes()[0][0])
    return game


def steps_state(steps: StepDeal | StepGame) -> tuple[object, ...]:
    return (steps.history, steps.is_chance(), steps.legal_action_ids())


# --- constructors: dealers, limits, generators ------------------------------------------------------

CONSTRUCTORS = [
    ("new_deal dealer", lambda v: new_deal(CLASSIC, v), MushkaError, "C4", SEATS),
    ("new_deal kopilka dealer", lambda v: new_deal(KOPILKA, v), MushkaError, "K4", SEATS),
    ("TrumpDeal dealer", lambda v: TrumpDeal(CLASSIC, v), MushkaError, "C4", SEATS),
    ("KopilkaDeal dealer", lambda v: KopilkaDeal(KOPILKA, v), MushkaError, "K4", SEATS),
    ("StepDeal dealer", lambda v: StepDeal(CLASSIC, v), MushkaError, "C4", SEATS),
    ("StepDeal kopilka dealer", lambda v: StepDeal(KOPILKA, v), MushkaError, "K4", SEATS),
    ("new_deal rng", lambda v: new_deal(CLASSIC, 0, rng=v), ChanceError, "N4", GENERATORS),
    ("Partie first_dealer", lambda v: Partie(CLASSIC, first_dealer=v, rng=1), IllegalActionError, "C4", VIEWERS),
    ("Session first_dealer", lambda v: Session(KOPILKA, first_dealer=v, rng=1), IllegalActionError, "K4", VIEWERS),
    ("new_game first_dealer", lambda v: new_game(CLASSIC, first_dealer=v, rng=1), IllegalActionError, "C4",
     VIEWERS),
    ("Partie max_deals", lambda v: Partie(CLASSIC, max_deals=v, rng=1), MushkaError, "C20", LIMITS),
    ("Session max_deals", lambda v: Session(KOPILKA, max_deals=v, rng=1), MushkaError, "K4", LIMITS),
    ("Partie rng", lambda v: Partie(CLASSIC, rng=v), ChanceError, "N4", GENERATORS),
    ("StepGame max_deals", lambda v: StepGame(CLASSIC, max_deals=v), MushkaError, "C20", (None, *LIMITS)),
    ("stack_deck dealer", lambda v: stack_deck(CLASSIC, [None] * 4, dealer=v, fill=True), ChanceError, "N4",
     SEATS),
    ("unstack_deck dealer", lambda v: unstack_deck(CLASSIC, deal().deck, v), ChanceError, "N4", SEATS),
    ("Encoder seat", lambda v: Encoder(CLASSIC, v), MushkaError, "C1", SEATS),
    ("new_deal deck", lambda v: new_deal(CLASSIC, 0, deck=v), ChanceError, "N4",
     tuple(v for v in NOT_NONE if v != "1")),
    ("new_deal deck with no card", lambda v: new_deal(CLASSIC, 0, deck=[v, *deal().deck[1:]]), MushkaError, "N2",
     (1.0, None, [1])),
    ("new_deal picks", lambda v: new_deal(KOPILKA, 0, rng=1, picks=v), ChanceError, "K7",
     tuple(v for v in NOT_NONE if not isinstance(v, (str, list)))),
    ("new_deal pot", lambda v: new_deal(KOPILKA, 0, rng=1, pot=v, balances=[-10] * 4), OptionsError, "K24",
     tuple(v for v in HOSTILE if type(v) is not int)),
    ("new_deal balances", lambda v: new_deal(KOPILKA, 0, rng=1, pot=40, balances=v), OptionsError, "K24",
     (*HOSTILE, [-10] * 3, [-10, -10, -10, -10.0], [True, -10, -10, -10])),
    ("Partie decks", lambda v: Partie(CLASSIC, rng=1, decks=v), ChanceError, "N4",
     tuple(v for v in HOSTILE if v != [1])),
    ("Session picks", lambda v: Session(KOPILKA, rng=1, picks=v), ChanceError, "K7", HOSTILE),
    ("Session picks of a deal", lambda v: Session(KOPILKA, rng=1, picks=[v]), ChanceError, "K7",
     tuple(v for v in HOSTILE if not isinstance(v, (str, list)))),
    ("Deal.copy rng", lambda v: deal().copy(v), ChanceError, "N4", GENERATORS),
    ("Partie.copy rng", lambda v: Partie(CLASSIC, rng=1).copy(v), ChanceError, "N4", GENERATORS),
    ("planned_deals", lambda v: planned_deals(CLASSIC, v), MushkaError, "C20", (None, *LIMITS)),
    ("game_utility_bounds", lambda v: game_utility_bounds(CLASSIC, v), MushkaError, "C20", (None, *LIMITS)),
    ("max_game_length", lambda v: max_game_length(CLASSIC, v), MushkaError, "C20", (None, *LIMITS)),
    ("make_rules players", lambda v: make_rules("classic", v), OptionsError, "C1", (*NOT_NONE, 9)),
    ("make_rules kopilka players", lambda v: make_rules("kopilka", v), OptionsError, "K1", (*NOT_NONE, 9)),
    ("Rules.replace players", lambda v: CLASSIC.replace(players=v), OptionsError, "C1", (*NOT_NONE, 9)),
    ("rules_from_text players", lambda v: rules_from_text("classic", v, {}), OptionsError, "C1", (*NOT_NONE, 9)),
]


@pytest.mark.parametrize(
    ("call", "error", "rule", "value"),
    [pytest.param(call, error, rule, v, id=f"{name}={v!r}")
     for name, call, error, rule, values in CONSTRUCTORS for v in values],
)
def test_constructors_name_a_hostile_dealer_limit_generator_or_table(call, error, rule, value):
    refused(lambda: call(value), error, rule)


def test_a_kopilka_session_and_a_partie_are_not_confused():
    """K4/C16: each variant its game; a session has its own games, no other deal limit."""
    refused(lambda: Partie(KOPILKA, rng=1), OptionsError, "K4")
    refused(lambda: Session(CLASSIC, rng=1), OptionsError, "C16")
    refused(lambda: Session(KOPILKA, max_deals=KOPILKA.session_games + 1, rng=1), OptionsError, "K4")


# --- text forms: cards, suits, ranks, actions, records ------------------------------------------

TEXTS = [
    ("Card", Card, ParseError, "N2"),
    ("parse_cards", parse_cards, ParseError, "N2"),
    ("Suit.parse", Suit.parse, ParseError, "N1"),
    ("Rank.parse", Rank.parse, ParseError, "N1"),
    ("Action.parse", Action.parse, ParseError, "N2"),
    ("Action.play", Action.play, ParseError, "N2"),
    ("Action.take", Action.take, ParseError, "N2"),
    ("Action.discard", Action.discard, ParseError, "N2"),
    ("Action.stand", Action.stand, ParseError, "N2"),
    ("Record.loads", Record.loads, RecordError, None),
    ("Rules.is_default", CLASSIC.is_default, OptionsError, None),
    ("record_of_deal seats", lambda v: record_of_deal(deal(), seats=v), RecordError, None),
    ("record_of_deal meta", lambda v: record_of_deal(deal(), meta=v), RecordError, None),
]


@pytest.mark.parametrize(
    ("call", "error", "rule", "value"),
    [pytest.param(call, error, rule, v, id=f"{name}={v!r}")
     for name, call, error, rule in TEXTS for v in HOSTILE
     if not (name == "Card" and isinstance(v, int) and 0 <= v < 52) and not (name.endswith("meta") and v is None)],
)
def test_text_forms_name_a_value_that_is_no_text(call, error, rule, value):
    refused(lambda: call(value), error, rule)


# --- a deal's and a game's seats ---------------------------------------------------------------------

DEAL_SEATS = [
    ("view", lambda d, v: d.view(v), MushkaError, VIEWERS),
    ("events", lambda d, v: d.events(v), MushkaError, VIEWERS),
    ("hand", lambda d, v: d.hand(v), MushkaError, SEATS),
    ("discards", lambda d, v: d.discards(v), MushkaError, SEATS),
    ("apply seat", lambda d, v: d.apply(d.legal_actions()[0], v), IllegalActionError, VIEWERS),
    ("check seat", lambda d, v: d.check(d.legal_actions()[0], v), IllegalActionError, VIEWERS),
]


@pytest.mark.parametrize(("rules", "rule"), [(CLASSIC, "C1"), (KOPILKA, "K1")], ids=["classic", "kopilka"])
@pytest.mark.parametrize(
    ("call", "error", "value"),
    [pytest.param(call, error, v, id=f"{name}={v!r}") for name, call, error, values in DEAL_SEATS for v in values],
)
def test_a_deal_names_a_seat_that_is_not_at_the_table(rules, rule, call, error, value):
    d = deal(rules)
    refused(lambda: call(d, value), error, rule, lambda: snapshot(d))


@pytest.mark.parametrize("value", VIEWERS, ids=ids(VIEWERS))
@pytest.mark.parametrize("kind", ["partie", "session"])
def test_a_game_names_a_seat_that_is_not_at_the_table(kind, value):
    game = Partie(CLASSIC, rng=3) if kind == "partie" else Session(KOPILKA, rng=3)
    rule = "C1" if kind == "partie" else "K1"
    refused(lambda: game.view(value), MushkaError, rule, lambda: snapshot(game))
    refused(lambda: game.apply(game.legal_actions()[0], value), IllegalActionError, rule, lambda: snapshot(game))


@pytest.mark.parametrize("value", HOSTILE, ids=ids(HOSTILE))
def test_a_deal_names_an_action_that_is_no_action(value):
    d = deal()
    refused(lambda: d.apply(value), ParseError, "C7" if value != "1" else "N2", lambda: snapshot(d))


@pytest.mark.parametrize("value", [True, "1", 1.0, [1]], ids=ids((True, "1", 1.0, [1])))
def test_an_event_shows_a_value_that_is_no_seat_what_a_spectator_sees(value):
    """§4: ``True`` is not seat 1: an event seen by anything but a seat hides every hand."""
    d = deal()
    for event in d.events(omniscient=True):
        assert event.seen_by(value) == event.seen_by(None)


# --- a deal step by step -------------------------------------------------------------------------

STEP_SEATS = [
    ("observation", lambda s, v: s.observation(v)),
    ("information_state", lambda s, v: s.information_state(v)),
    ("tensor_list", lambda s, v: s.tensor_list(v)),
    ("tensor_list history", lambda s, v: s.tensor_list(v, True)),
    ("info_state_key", lambda s, v: s.info_state_key(v)),
]


@pytest.mark.parametrize("dealt", [False, True], ids=["at chance", "in play"])
@pytest.mark.parametrize(
    ("call", "value"),
    [pytest.param(call, v, id=f"{name}={v!r}") for name, call in STEP_SEATS for v in SEATS],
)
def test_step_deal_names_a_seat_that_is_not_at_the_table(dealt, call, value):
    steps = dealt_steps() if dealt else StepDeal(CLASSIC, 0)
    refused(lambda: call(steps, value), MushkaError, "C1", lambda: steps_state(steps))


@pytest.mark.parametrize("dealt", [False, True], ids=["while dealing", "in play"])
@pytest.mark.parametrize("value", SEATS, ids=ids(SEATS))
def test_resampling_names_a_seat_that_is_not_at_the_table(dealt, value):
    """A world is drawn for a seat of the table only (never another seat's cards dealt again)."""
    steps = dealt_steps() if dealt else StepDeal(CLASSIC, 0)
    if not dealt:
        for _ in range(5):
            steps.apply_chance(steps.chance_outcomes()[0][0])
    rng = random.Random(1)
    refused(lambda: resample_steps(steps, value, rng), MushkaError, "C1", lambda: steps_state(steps))
    if dealt:
        d = steps.deal
        refused(lambda: resample_deal(d, value, rng), MushkaError, "C1", lambda: snapshot(d))


@pytest.mark.parametrize("value", HOSTILE, ids=ids(HOSTILE))
def test_step_deal_names_a_chance_outcome_that_is_no_position(value):
    steps = StepDeal(CLASSIC, 0)
    steps.apply_chance(steps.chance_outcomes()[3][0])
    refused(lambda: steps.apply_chance(value), ChanceError, "N4", lambda: steps_state(steps))


@pytest.mark.parametrize(("rules", "rule"), [(CLASSIC, "C7"), (KOPILKA, "K11")], ids=["classic", "kopilka"])
@pytest.mark.parametrize("value", HOSTILE, ids=ids(HOSTILE))
def test_step_deal_names_an_action_id_that_is_no_id(rules, rule, value):
    steps = dealt_steps(rules)
    refused(lambda: steps.apply_id(value), IllegalActionError, rule, lambda: steps_state(steps))
    refused(lambda: steps.action_of(value), IllegalActionError, rule, lambda: steps_state(steps))


@pytest.mark.parametrize("value", HOSTILE, ids=ids(HOSTILE))
def test_step_deal_names_an_action_that_is_no_action(value):
    steps = dealt_steps()
    refused(lambda: steps.apply_action(value), ParseError, "C7" if value != "1" else "N2",
            lambda: steps_state(steps))


@pytest.mark.parametrize("value", HOSTILE, ids=ids(HOSTILE))
def test_step_deal_and_game_name_an_action_without_an_id(value):
    """id_of reads its action as apply_action does: what is no action (nor its text) is named."""
    steps = dealt_steps()
    rule = "C7" if value != "1" else "N2"
    refused(lambda: steps.id_of(value), ParseError, rule, lambda: steps_state(steps))
    refused(lambda: steps.space.id_of(steps.deal, value), ParseError, rule, lambda: steps_state(steps))
    game = game_in_play()
    refused(lambda: game.id_of(value), ParseError, rule, lambda: steps_state(game))


@pytest.mark.parametrize("value", [True, 5, None, 1.0, "0 1 2", b"\x00"], ids=repr)
def test_step_deal_names_a_whole_deck_that_is_no_sequence_of_outcomes(value):
    steps = StepDeal(CLASSIC, 0)
    refused(lambda: steps.apply_deck(value), ChanceError, "N4", lambda: steps_state(steps))


def test_step_deal_id_of_still_reads_an_action_and_its_text():
    steps = dealt_steps()
    listed = steps.legal_action_ids()
    for i in listed:
        action = steps.action_of(i)
        assert steps.id_of(action) == i
        assert steps.id_of(str(action)) == i


# --- a game step by step -------------------------------------------------------------------------

@pytest.mark.parametrize("value", SEATS, ids=ids(SEATS))
def test_step_game_names_a_first_dealer_or_outcome_that_is_not_possible(value):
    game = StepGame(CLASSIC, max_deals=3)
    refused(lambda: game.apply_chance(value), ChanceError, "C4", lambda: steps_state(game))
    game.apply_chance(0)
    if value != 9:  # position 9 of the deck is an outcome
        refused(lambda: game.apply_chance(value), ChanceError, "N4", lambda: steps_state(game))


@pytest.mark.parametrize("value", HOSTILE, ids=ids(HOSTILE))
def test_step_game_names_an_action_id_that_is_no_id(value):
    game = game_in_play()
    refused(lambda: game.apply_id(value), IllegalActionError, "C7", lambda: steps_state(game))
    refused(lambda: game.action_of(value), IllegalActionError, "C7", lambda: steps_state(game))


@pytest.mark.parametrize("started", [False, True], ids=["at the lot", "in play"])
@pytest.mark.parametrize("value", SEATS, ids=ids(SEATS))
def test_step_game_names_a_seat_that_is_not_at_the_table(started, value):
    game = game_in_play() if started else StepGame(CLASSIC, max_deals=3)
    for call in (game.info_state_key, game.observation, game.information_state):
        refused(partial(call, value), MushkaError, "C1", lambda: steps_state(game))
