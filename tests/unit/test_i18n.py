"""The text catalogue (mushka.i18n): every key in both languages, same placeholders."""

from __future__ import annotations

import importlib
import pkgutil
import re
import string

import pytest

import mushka
from mushka.i18n import LANGS, add_texts, has, keys, tr


def _import_everything() -> None:
    """Modules register their texts when imported; load them all to see every key."""
    for info in pkgutil.walk_packages(mushka.__path__, "mushka."):
        if ".migrations" in info.name:
            continue  # Alembic scripts run only inside Alembic
        importlib.import_module(info.name)


_import_everything()
ALL_KEYS = keys()
CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_the_catalogue_holds_the_texts_of_every_layer():
    assert LANGS == ("en", "ru")
    for prefix in ("error.", "why.", "phase.", "event.", "rules."):
        assert any(k.startswith(prefix) for k in ALL_KEYS), prefix


@pytest.mark.parametrize("key", ALL_KEYS)
def test_every_key_has_both_languages_with_the_same_placeholders(key):
    en, ru = tr(key, "en"), tr(key, "ru")
    assert en.strip() and ru.strip()
    assert _fields(en) == _fields(ru), (key, en, ru)
    words = re.sub(r"\{[^}]*\}", "", en)
    if re.search("[A-Za-z]{3,}", words):
        # An English sentence must have a Russian one, not a copy of itself.
        assert CYRILLIC.search(ru), (key, ru)


def test_tr_fills_placeholders_in_the_chosen_language():
    assert tr("error.bad_card", "en", text="ZZ").startswith("N2: 'ZZ' is not a card code")
    assert tr("error.bad_card", "ru", text="ZZ").startswith("N2: 'ZZ' — не код карты")
    # Any language other than Russian falls back to English.
    assert tr("phase.play", "de") == tr("phase.play", "en")


def test_tr_makes_a_missing_text_visible_instead_of_failing():
    assert tr("no.such.key", "ru") == "no.such.key"
    assert not has("no.such.key")
    # A missing parameter leaves the template as it is rather than raising.
    assert tr("error.bad_card", "en") == tr("error.bad_card", "en", other=1)


def test_add_texts_registers_a_key_in_both_languages():
    add_texts({"test.i18n.sample": ("{n} cards left", "осталось карт: {n}")})
    assert has("test.i18n.sample")
    assert "test.i18n.sample" in keys()
    assert tr("test.i18n.sample", "en", n=3) == "3 cards left"
    assert tr("test.i18n.sample", "ru", n=3) == "осталось карт: 3"
