"""Options with a closed set of values (C9, C10, C22, MI13, K8, K12) hold StrEnum members
that read and write as their words; the rules' derived tables live under typed keys."""

from __future__ import annotations

import copy
import json
import pickle
from enum import StrEnum
from typing import get_args

import pytest

from mushka.rules import (
    VARIANTS,
    AllPass,
    FlushMode,
    LonePlayer,
    PrivilegedFour,
    Redistribution,
    Renege,
    make_rules,
)
from mushka.rules.choices import VariantName
from mushka.rules.model import DerivedKey, DerivedTables
from mushka.rules.options import OPTION_BY_NAME, format_value, parse_value

CHOICES: dict[str, type[StrEnum]] = {
    "all_pass": AllPass,
    "lone_player": LonePlayer,
    "flush": FlushMode,
    "privileged_four": PrivilegedFour,
    "renege": Renege,
    "redistribution": Redistribution,
}

CASES = [
    (name, variant, word)
    for name, kind in CHOICES.items()
    for variant in OPTION_BY_NAME[name].variants
    for word in (m.value for m in kind)
]


@pytest.mark.parametrize(("name", "variant", "word"), CASES)
def test_a_word_gives_its_member_which_reads_and_writes_as_the_word(name, variant, word):
    kind = CHOICES[name]
    value = getattr(make_rules(variant, **{name: word}), name)
    assert type(value) is kind and value is kind(word)
    assert value == word and str(value) == word and f"{value}" == word
    assert json.dumps(value) == json.dumps(word)
    assert format_value(name, value) == word and type(format_value(name, value)) is str


@pytest.mark.parametrize(("name", "variant", "word"), CASES)
def test_a_word_in_any_case_or_a_member_parses_to_the_member(name, variant, word):
    member = CHOICES[name](word)
    assert parse_value(name, variant, f" {word.upper()} ") is member
    assert parse_value(name, variant, member) is member


@pytest.mark.parametrize("name", list(CHOICES))
def test_the_option_lists_its_words_as_plain_text_in_the_members_order(name):
    spec = OPTION_BY_NAME[name]
    assert spec.values == tuple(m.value for m in CHOICES[name])
    assert all(type(word) is str for word in spec.values)  # what the server's catalogue sends


@pytest.mark.parametrize("name", list(CHOICES))
def test_every_default_is_a_member(name):
    spec = OPTION_BY_NAME[name]
    for variant in spec.variants:
        assert type(spec.default(variant)) is CHOICES[name]
        assert getattr(make_rules(variant), name) is spec.default(variant)


def test_an_unknown_word_is_refused_with_the_words():
    with pytest.raises(ValueError, match="wins_mushka, side_payment, none"):
        make_rules("classic", 4, flush="always")


def test_records_store_the_words_and_a_copy_keeps_the_members():
    rules = make_rules("classic", 4, lone_player="dealer_must_play", all_pass="same_dealer", flush="none")
    text = rules.options_text()
    assert (text["lone_player"], text["all_pass"], text["flush"]) == ("dealer_must_play", "same_dealer", "none")
    assert all(type(v) is str for v in text.values())
    for again in (pickle.loads(pickle.dumps(rules)), copy.deepcopy(rules), rules.replace(remiz=7)):
        assert again.lone_player is LonePlayer.DEALER_MUST_PLAY
        assert again.all_pass is AllPass.SAME_DEALER and again.flush is FlushMode.NONE


@pytest.mark.parametrize(
    ("flush", "four", "mode"),
    [
        ("side_payment", "as_flush", FlushMode.SIDE_PAYMENT),
        ("none", "as_flush", FlushMode.NONE),
        ("wins_mushka", "as_flush", FlushMode.WINS_MUSHKA),
        ("side_payment", "wins_mushka", FlushMode.WINS_MUSHKA),
        ("wins_mushka", "side_payment", FlushMode.SIDE_PAYMENT),
        ("side_payment", "none", FlushMode.NONE),
    ],
)
def test_c22_mi13_four_mode_reads_as_flush_as_the_flush(flush, four, mode):
    assert make_rules("mistigri", 4, flush=flush, privileged_four=four).four_mode is mode


def test_the_variant_names_are_the_variants():
    assert set(get_args(VariantName)) == set(VARIANTS)
    assert all(type(make_rules(name).variant) is str for name in VARIANTS)


def test_derived_tables_are_kept_per_key_and_per_rules_value():
    tables = DerivedTables()
    first: DerivedKey[tuple[int, ...]] = DerivedKey("first")
    second: DerivedKey[tuple[int, ...]] = DerivedKey("first")  # another key, even of the same name
    assert tables.get(first) is None
    kept = tables.put(first, (1, 2))
    assert tables.get(first) is kept and tables.get(second) is None
    rules = make_rules("classic", 4)
    rules.cache.put(first, (3,))
    assert make_rules("classic", 4) == rules and make_rules("classic", 4).cache.get(first) is None
    assert pickle.loads(pickle.dumps(rules)).cache.get(first) is None  # rebuilt, never carried
