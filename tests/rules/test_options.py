"""Options (RULES' named [DEC] choices): validation at construction and text forms."""

from __future__ import annotations

import pytest
from rulekit import rules

from mushka.errors import OptionsError
from mushka.rules import OPTIONS, Rules, find_variant, options_for, parse_assignment, rules_from_text
from mushka.rules.options import format_value, parse_value


def refused_option(variant, players=None, words=(), rule=None, **options):
    with pytest.raises(OptionsError) as info:
        rules(variant, players, **options)
    text = str(info.value)
    for word in words:
        assert word in text, text
    if rule is not None:
        assert info.value.rule == rule and text.startswith(rule + ":")
    assert info.value.message("ru") != text  # there is a Russian text too
    return info.value


def test_kopilka_with_five_players_is_refused():
    refused_option("kopilka", 5, words=("kopilka", "4", "5"), rule="K1")


def test_unknown_option_is_refused_with_the_known_ones():
    err = refused_option("classic", 4, words=("colour", "remiz", "max_exchange"), colour="red")
    assert err.code == "unknown_option"


def test_an_option_of_another_variant_is_refused():
    err = refused_option("classic", 4, words=("ante", "classic", "kopilka"), ante=10)
    assert err.code == "option_not_for_variant"
    refused_option("kopilka", 4, words=("max_exchange", "kopilka"), max_exchange=2)
    refused_option("mistigri", 4, words=("suit_values",), suit_values="H1 C1 D1 S1")


@pytest.mark.parametrize(("players", "deck"), [(7, 32)])
def test_a_deck_too_small_for_the_players_is_refused(players, deck):
    refused_option("classic", players, words=(str(deck), str(players)), rule="C5", deck=deck)


def test_a_deck_too_small_through_deck_by_players():
    refused_option("mistigri", 7, words=("32", "7"), rule="C5", deck_by_players="3:32,4:36,5:52,6:52,7:32")


def test_the_smallest_decks_that_fit():
    assert rules("classic", 6, deck=32).deck_size == 32  # 31 cards dealt and turned, one talon card
    assert rules("classic", 7, deck=36).deck_size == 36  # no talon at all


@pytest.mark.parametrize(
    ("option", "value", "words"),
    [
        ("remiz", -1, "0 to 1000"),
        ("remiz", "many", "whole number"),
        ("remiz", True, "whole number"),
        ("max_exchange", 6, "0 to 5"),
        ("all_pass", "sometimes", "redeal"),
        ("lone_player", "x", "dealer_must_play"),
        ("deck", 40, "32, 36 or 52"),
        ("deck", "forty", "whole number"),
        ("dealer_takes_turnup", "perhaps", "true or false"),
        ("dealer_takes_turnup", 1, "true or false"),
        ("rank_order", "AKQJT9876543ZZ", "rank letters"),
        ("rank_order", "AAKQJT98765432", "twice"),
        ("deck_by_players", "3:32,4:36", "each of 3"),
        ("deck_by_players", "3:33,4:36,5:52,6:52,7:52", "32, 36 or 52"),
        ("deck_by_players", "three", "players:cards"),
        ("flush", "maybe", "wins_mushka"),
        ("initial_record", 0, "1 to 1000"),
        ("stake", [1, 2], "whole number"),
    ],
)
def test_bad_values_are_refused_naming_the_option(option, value, words):
    err = refused_option("classic", 4, words=(option, words), **{option: value})
    assert err.code == "bad_option_value"


@pytest.mark.parametrize(
    ("option", "value", "words"),
    [
        ("suit_values", "H4 C3 D2", "each of the four suits"),
        ("suit_values", "H4 C3 D2 S-1", "0 to 1000"),
        ("suit_values", "X4 C3 D2 S1", "suit and value"),
        ("renege", "sometimes", "penalty"),
        ("redistribution", "newest", "modern"),
        ("ante", -5, "0 to 100000"),
        ("game_payment", "lots", "whole number"),
    ],
)
def test_bad_kopilka_values_are_refused(option, value, words):
    refused_option("kopilka", 4, words=(option, words), **{option: value})


def test_rank_order_missing_ranks_of_the_deck():
    refused_option("classic", 5, words=("rank_order", "52", "2"), rule="C3", rank_order="AKQJT9876")
    assert rules("classic", 4, rank_order="AKQJT9876").deck_size == 36


def test_unknown_variant_lists_the_known_ones():
    with pytest.raises(OptionsError) as info:
        rules("преферанс", 4)
    assert "classic" in str(info.value) and "копилка" in str(info.value)


@pytest.mark.parametrize(("alias", "name"), [("обычная", "classic"), ("Мистигри", "mistigri"),
                                             ("мушка-копилка", "kopilka"), ("LOO", "classic")])
def test_variants_by_english_or_russian_name(alias, name):
    assert find_variant(alias).name == name


def test_option_assignments():
    assert parse_assignment("remiz = 7") == ("remiz", "7")
    assert parse_assignment("max-exchange=3") == ("max_exchange", "3")
    for bad in ("remiz", "=7", ""):
        with pytest.raises(OptionsError, match="name=value"):
            parse_assignment(bad)


def test_every_option_text_round_trips_in_every_variant():
    for variant in ("classic", "mistigri", "kopilka"):
        for spec in options_for(variant):
            value = spec.default(variant)
            text = format_value(spec.name, value)
            assert parse_value(spec.name, variant, text) == value
            for word in spec.values:
                parsed = parse_value(spec.name, variant, word)
                assert parse_value(spec.name, variant, format_value(spec.name, parsed)) == parsed


def test_rules_round_trip_through_their_text():
    r = rules("mistigri", 5, remiz=7, all_pass="same_dealer", deck=36, privileged_remiz="remiz")
    again = rules_from_text("mistigri", 5, r.options_text())
    assert again == r and hash(again) == hash(r)
    assert str(r).startswith("mistigri 5p") and "-o remiz=7" in str(r)


def test_every_option_has_a_help_text_in_both_languages_and_rule_ids():
    for spec in OPTIONS:
        assert spec.help("en") and spec.help("ru") and spec.help("en") != spec.help("ru")
        assert spec.rules and all(r[0] in "CMKN" for r in spec.rules)


def test_rules_are_frozen():
    r = rules("classic", 4)
    with pytest.raises(AttributeError):
        r.remiz = 3  # type: ignore[misc]
    assert Rules.make("classic", 4) == r


def test_replace_validates_too():
    r = rules("classic", 4)
    assert r.replace(remiz=9).remiz == 9
    with pytest.raises(OptionsError, match="max_exchange"):
        r.replace(max_exchange=9)


def test_table_size_and_variant_by_keyword_still_work():
    from mushka import make_rules
    assert make_rules(variant="kopilka", players=4).variant == "kopilka"
    assert make_rules("classic", players=5).players == 5
    assert make_rules("classic", players="3").players == 3


@pytest.mark.parametrize("options", [{"players": "3"}, {"players": 3}, {"variant": "kopilka"}])
def test_table_size_given_twice_is_refused_not_a_crash(options):
    from mushka import make_rules
    with pytest.raises(OptionsError) as info:
        make_rules("mistigri", 4, **options)
    assert next(iter(options)) in str(info.value)


def test_rules_from_text_refuses_players_among_the_options():
    with pytest.raises(OptionsError, match="players"):
        rules_from_text("classic", 4, {"players": "5"})


@pytest.mark.parametrize("value", [{"a": 1}, {3: 32.5}, {3: None}, {"X": 1}])
def test_bad_python_values_for_table_options_are_refused(value):
    name = "suit_values" if "X" in value else "deck_by_players"
    variant = "kopilka" if name == "suit_values" else "classic"
    with pytest.raises(OptionsError, match=name):
        rules(variant, 4, **{name: value})


@pytest.mark.parametrize("variant", [5, None, ["classic"]])
def test_a_variant_that_is_not_text_is_refused(variant):
    with pytest.raises(OptionsError, match="unknown variant"):
        find_variant(variant)
