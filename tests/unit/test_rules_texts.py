"""The rules in words (mushka.rules.texts) against the rules specification."""

from __future__ import annotations

import importlib.util
import re
import string
from pathlib import Path

import pytest

from mushka.rules import make_rules, options_for
from mushka.rules.texts import (
    GUARANTEES,
    MISTIGRI_CHANGES,
    RULE_TEXTS,
    SECTION_BY_ID,
    TAGS,
    affecting_options,
    option_rules,
    render_rule,
    render_rules,
    ru_plural,
    rule_ids,
)

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "docs" / "rules" / "RULES.md"
VARIANTS = ("classic", "mistigri", "kopilka")
CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)


def _spec_blocks() -> dict[str, str]:
    """Every rule of the specification: id -> its text (the bullet up to the next one)."""
    text = SPEC.read_text(encoding="utf-8")
    blocks = re.split(r"(?m)^(?=- \*\*[A-Z]+\d+\*\*|#|---)", text)
    out = {}
    for block in blocks:
        m = re.match(r"- \*\*([A-Z]+\d+)\*\*", block)
        if m:
            out[m.group(1)] = block
    return out


def _spec_guarantees() -> list[str]:
    """§4 lists its guarantees as plain bullets; the texts number them G1, G2 …"""
    text = SPEC.read_text(encoding="utf-8")
    section = text.split("\n## 4.", 1)[1]
    return [f"G{i}" for i, _ in enumerate(re.findall(r"(?m)^- ", section), 1)]


SPEC_IDS = [*_spec_blocks(), *_spec_guarantees()]


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_the_specification_is_where_the_tests_read_it():
    ids = _spec_blocks()
    assert "N1" in ids and "C22" in ids and "MI14" in ids and "K24" in ids
    assert len(_spec_guarantees()) == 5


@pytest.mark.parametrize("rule_id", SPEC_IDS)
def test_every_rule_id_has_an_english_and_a_russian_text(rule_id):
    entry = RULE_TEXTS[rule_id]
    variant = {"MI": "mistigri", "K": "kopilka"}.get(entry.part, "classic")
    rules = make_rules(variant)
    en = render_rule(rules, rule_id, "en")
    ru = render_rule(rules, rule_id, "ru")
    assert len(en) > 20 and len(ru) > 20
    assert CYRILLIC.search(ru)
    assert en != ru
    assert "{" not in en and "{" not in ru


def test_texts_cover_exactly_the_specification_in_its_order():
    assert list(RULE_TEXTS) == SPEC_IDS
    assert tuple(i for i in SPEC_IDS if i.startswith("G")) == GUARANTEES


@pytest.mark.parametrize("rule_id", list(_spec_blocks()))
def test_tags_match_the_specification(rule_id):
    # Untagged rules of the specification (notation, plain trick play) are shown as DEC.
    spec_tags = set(re.findall(r"\[(SEED|RU|XC|DEC)\b", _spec_blocks()[rule_id])) or {"DEC"}
    assert set(RULE_TEXTS[rule_id].tags) == spec_tags
    assert set(RULE_TEXTS[rule_id].tags) <= set(TAGS)


@pytest.mark.parametrize("rule_id", SPEC_IDS)
def test_both_languages_use_the_same_placeholders(rule_id):
    entry = RULE_TEXTS[rule_id]
    assert _fields(entry.en) == _fields(entry.ru)
    for en, ru in entry.overrides.values():
        assert _fields(en) == _fields(ru)
    assert entry.section in SECTION_BY_ID


def test_each_variant_gets_its_parts_of_the_specification_in_order():
    def part(prefix):
        return [i for i in SPEC_IDS if re.fullmatch(prefix + r"\d+", i)]

    assert list(rule_ids("classic")) == part("N") + part("C") + part("G")
    assert list(rule_ids("мистигри")) == part("N") + part("C") + part("MI") + part("G")
    assert list(rule_ids("kopilka")) == part("N") + part("K") + part("G")
    assert list(rule_ids("kopilka", guarantees=False)) == part("N") + part("K")


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_render_rules_of_a_variant(variant, lang):
    rendered = render_rules(make_rules(variant), lang)
    assert [r.id for r in rendered] == list(rule_ids(variant))
    assert not any(r.changed for r in rendered)
    for r in rendered:
        assert r.text and r.tags
        assert set(r.options) <= {o.name for o in options_for(variant)}
        assert (r.modified_by != ()) == (variant == "mistigri" and r.id in MISTIGRI_CHANGES)


def test_mistigri_renders_section_1_as_modified_by_section_2():
    classic = {r.id: r.text for r in render_rules(make_rules("classic"))}
    mistigri = {r.id: r for r in render_rules(make_rules("mistigri"))}
    assert "ace of spades" in classic["C11"]
    assert "king of clubs" in mistigri["C11"].text
    assert classic["C3"].endswith("A K Q J 10 9 8 7 6.")
    assert mistigri["C3"].text.endswith("K Q J A 10 9 8 7 6.")
    assert "MI14" in mistigri["C22"].text and "MI14" in mistigri["C22"].modified_by
    assert mistigri["C22"].options == ()
    assert "10 points" in mistigri["C18"].text  # MI6 read into C18


def test_rendered_values_follow_the_table():
    assert "pays an ante (взнос) of 15" in render_rule(make_rules("kopilka", ante=15), "K3")
    k20 = render_rule(make_rules("kopilka", suit_values="H4,D3,C2,S1"), "K20", "ru")
    assert "бубны — 3" in k20 and "трефы — 2" in k20
    assert "♦ 6" in render_rule(make_rules("kopilka", suit_values="H4,D3,C2,S1"), "K21")
    assert "writes a remiz of 12 points" in render_rule(make_rules("mistigri", privileged_remiz=12), "MI6")
    assert "ремиз в 7 очков" in render_rule(make_rules("classic", remiz=7), "C18", "ru")
    assert "ремиз в 1 очко" in render_rule(make_rules("classic", remiz=1), "C18", "ru")
    assert "ремиз в 2 очка" in render_rule(make_rules("classic", remiz=2), "C18", "ru")


@pytest.mark.parametrize(("players", "deck", "talon"), [(3, 32, 16), (4, 36, 15), (5, 52, 26), (7, 52, 16)])
def test_c2_and_n4_show_the_deck_for_the_number_of_players(players, deck, talon):
    rules = make_rules("classic", players)
    assert f"this table plays with {deck} cards" in render_rule(rules, "C2")
    assert f"({talon} cards)" in render_rule(rules, "N4")
    assert f"колода в {deck} карт" in render_rule(rules, "C2", "ru")


def test_c2_with_a_fixed_deck():
    assert "52 cards whatever the number of players" in render_rule(make_rules("classic", 4, deck=52), "C2")


# One value other than the default for every option (with what it needs to matter).
ALTERNATIVES = {
    "deck_by_players": "3:32,4:32,5:52,6:52,7:52",
    "deck": "52",
    "dealer_takes_turnup": "false",
    "max_exchange": "3",
    "all_pass": "same_dealer",
    "lone_player": "dealer_must_play",
    "privileged_beats_trumps": "true",
    "privileged_free_play": "false",
    "must_follow": "false",
    "must_trump_if_void": "false",
    "must_head_trick": "true",
    "must_overtrump": "true",
    "initial_record": "25",
    "trick_value": "2",
    "remiz": "7",
    "stake": "3",
    "flush": "none",
    "privileged_four": "none",
    "flush_payment": "8",
    "privileged_remiz": "12",
    "privileged_bonus": "3",
    "ante": "15",
    "game_payment": "4",
    "suit_values": "H4,D3,C2,S1",
    "renege": "forbid",
    "redistribution": "old",
    "session_games": "2",
}
BY_VARIANT = {
    ("classic", "rank_order"): "mistigri",
    ("mistigri", "rank_order"): "ace_high",
    ("kopilka", "rank_order"): "mistigri",
    ("classic", "can_discard_privileged"): "false",
    ("mistigri", "can_discard_privileged"): "true",
    ("classic", "privileged_must_play"): "true",
    ("mistigri", "privileged_must_play"): "false",
}
# flush_payment only matters in classic once flushes are paid rather than winning the мушка.
NEEDS = {("classic", "flush_payment"): {"flush": "side_payment"}}
CASES = [(v, o.name) for v in VARIANTS for o in options_for(v)]


@pytest.mark.parametrize(("variant", "option"), CASES)
def test_every_option_shows_in_the_rules_it_changes(variant, option):
    base_options = NEEDS.get((variant, option), {})
    value = BY_VARIANT.get((variant, option), ALTERNATIVES.get(option))
    base = make_rules(variant, 4, **base_options)
    changed = base.replace(**{option: value})
    assert not changed.is_default(option)
    before = {r.id: r.text for r in render_rules(base)}
    after = {r.id: r for r in render_rules(changed)}
    differ = [i for i in before if before[i] != after[i].text]
    assert differ, f"-o {option}={value} changes no rule text of {variant}"
    for rule_id in differ:
        assert option in affecting_options(rule_id, variant), (rule_id, option)
        assert rule_id in option_rules(option, variant)
    if not base_options:
        assert {i for i, r in after.items() if r.changed} == set(differ)


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_option_changes_some_rule_of_its_variant(variant):
    for o in options_for(variant):
        assert option_rules(o.name, variant), o.name


# Words of the source texts that the Russian statements must use.
RUSSIAN_TERMS = {
    "C5": ["козырь", "прикуп"],
    "C7": ["пас", "прикупить", "первой руки"],
    "C11": ["изображает мушку", "перекрывает взятку любой масти"],
    "C16": ["Запись", "списывается"],
    "C17": ["списывает"],
    "C18": ["ремиз"],
    "C20": ["Партия"],
    "C21": ["берёт с игроков все записи", "партнёр"],
    "MI2": ["король, дама, валет, туз, десятка"],
    "MI4": ["перекрыт козырем"],
    "MI6": ["ремиз в 10 очков", "короля треф"],
    "MI8": ["не имеет права на пас"],
    "MI9": ["партнёров", "записывается им отдельно"],
    "MI10": ["старшей масти", "черви"],
    "K3": ["касса", "копилка", "взнос"],
    "K11": ["обратиться к прикупке", "«пас»"],
    "K12": ["ремиз", "кассу"],
    "K16": ["с новой масти"],
    "K22": ["ремиз", "кассу"],
    "K23": ["кассовым остатком"],
}


@pytest.mark.parametrize(("rule_id", "terms"), sorted(RUSSIAN_TERMS.items()))
def test_russian_uses_the_words_of_the_sources(rule_id, terms):
    variant = {"MI": "mistigri", "K": "kopilka"}.get(RULE_TEXTS[rule_id].part, "classic")
    text = render_rule(make_rules(variant), rule_id, "ru")
    for term in terms:
        assert term in text, (rule_id, term)


@pytest.mark.parametrize(("n", "form"), [(1, "a"), (2, "b"), (4, "b"), (5, "c"), (11, "c"), (14, "c"),
                                         (21, "a"), (22, "b"), (25, "c"), (101, "a"), (111, "c"), (0, "c")])
def test_ru_plural(n, form):
    assert ru_plural(n, "a", "b", "c") == form


def test_render_rule_of_another_variant_still_reads():
    # A front end may explain any id, e.g. K12 in an error, whatever table it shows.
    assert "remiz" in render_rule(make_rules("kopilka"), "K12")
    assert "pass" in render_rule(make_rules("kopilka", renege="forbid"), "K12")


def _generator():
    spec = importlib.util.spec_from_file_location("gen_rules_doc", ROOT / "scripts" / "gen_rules_doc.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_docs_options_md_is_up_to_date():
    expected = _generator().render_options()
    actual = (ROOT / "docs" / "options.md").read_text(encoding="utf-8")
    assert actual == expected, "docs/options.md is stale: run python scripts/gen_rules_doc.py"


def test_docs_options_md_lists_every_option_and_its_rules():
    text = (ROOT / "docs" / "options.md").read_text(encoding="utf-8")
    for variant in VARIANTS:
        for o in options_for(variant):
            assert f"`{o.name}`" in text
            for rule_id in option_rules(o.name, variant):
                assert rule_id in text


@pytest.mark.parametrize("doc", ["rules.md", "rules.ru.md"])
def test_the_rules_docs_cite_every_rule_id(doc):
    text = (ROOT / "docs" / doc).read_text(encoding="utf-8")
    missing = [i for i in SPEC_IDS if not re.search(rf"\b{i}\b", text)]
    assert not missing
