"""The rules summary of the ``?`` key: this table's values, the rule texts, the options."""

from __future__ import annotations

import importlib

import pytest

from mushka.rules import make_rules, options_for
from mushka.rules.texts import render_rules
from mushka.tui import rulesinfo


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("variant", ["classic", "mistigri", "kopilka"])
def test_summary_lists_every_rule_and_option_of_the_table(variant: str, lang: str) -> None:
    rules = make_rules(variant)
    text = rulesinfo.rules_summary(rules, lang).plain
    lines = text.splitlines()
    for rule in render_rules(rules, lang, guarantees=False):
        assert f"{rule.id} {rule.text}" in lines
    for spec in options_for(variant):
        assert any(line.startswith(f"{spec.name} = ") for line in lines), spec.name
    assert not any(line.startswith("G1 ") for line in lines)  # the program's guarantees are not table rules


def test_summary_uses_the_tables_values() -> None:
    text = rulesinfo.rules_summary(make_rules("classic", 5, initial_record=25, remiz=7), "en").plain
    assert "Records start at 25" in text and "a ремиз of 7" in text
    assert "initial_record = 25 (changed)" in text
    kopilka = rulesinfo.rules_summary(make_rules("kopilka", ante=15, suit_values="H4 D3 C2 S1"), "ru").plain
    assert "вносит в кассу 15" in kopilka and "♥4 ♦3 ♣2 ♠1" in kopilka


def test_summary_without_the_rule_texts_still_has_the_essentials_and_options(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.import_module

    def without_texts(name: str, package: str | None = None):  # type: ignore[no-untyped-def]
        if name == "mushka.rules.texts":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return real(name, package)

    monkeypatch.setattr(rulesinfo.importlib, "import_module", without_texts)
    rules = make_rules("mistigri", remiz=7)
    assert rulesinfo.rule_texts(rules, "en") == []
    text = rulesinfo.rules_summary(rules, "ru").plain
    assert "remiz = 7 (изменено)" in text and "MI8" in text
    assert not any(line.startswith("C14 ") for line in text.splitlines())
