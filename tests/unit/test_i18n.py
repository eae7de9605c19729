"""The text catalogue (mushka.i18n): every key in both languages, same placeholders."""

from __future__ import annotations

import importlib
import pkgutil
import re
import string
import tomllib
from pathlib import Path

import pytest

import mushka
from mushka.i18n import LANGS, TextKeyTwice, add_text_file, add_texts, has, keys, read_text_file, templates, tr


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


def test_a_key_defined_twice_is_refused_and_the_first_text_kept():
    add_texts({"test.i18n.twice": ("first", "первый")})
    with pytest.raises(TextKeyTwice, match=r"test\.i18n\.twice"):
        add_texts({"test.i18n.twice": ("second", "второй"), "test.i18n.new": ("new", "новый")})
    assert tr("test.i18n.twice", "en") == "first"
    assert not has("test.i18n.new")  # nothing of a refused batch is added


def test_a_catalogue_file_is_read_by_table_and_refuses_a_key_given_twice(tmp_path, monkeypatch):
    package = tmp_path / "i18n_sample_texts"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "good.toml").write_text('a = ["A", "А"]\n[deep.er]\nb = ["B {n}", "Б {n}"]\n', encoding="utf-8")
    (package / "twice.toml").write_text('a = ["A", "А"]\na = ["C", "В"]\n', encoding="utf-8")
    (package / "half.toml").write_text('a = ["only English"]\n', encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert read_text_file("i18n_sample_texts", "good.toml") == {"a": ("A", "А"), "deep.er.b": ("B {n}", "Б {n}")}
    with pytest.raises(tomllib.TOMLDecodeError):
        read_text_file("i18n_sample_texts", "twice.toml")
    with pytest.raises(ValueError, match="must be"):
        read_text_file("i18n_sample_texts", "half.toml")
    add_text_file("i18n_sample_texts", "good.toml", "test.i18n.file.")
    assert tr("test.i18n.file.deep.er.b", "ru", n=2) == "Б 2"
    with pytest.raises(TextKeyTwice):
        add_text_file("i18n_sample_texts", "good.toml", "test.i18n.file.")


def test_every_catalogue_file_is_in_the_catalogue():
    """Each text file of the package is loaded where its module is imported (no file left unread)."""
    files = sorted(p for p in Path(mushka.__file__).parent.rglob("*.toml"))
    assert {p.name for p in files} >= {"pagetexts.toml", "words.toml"}
    for path in files:
        package = ".".join(path.relative_to(Path(mushka.__file__).parent.parent).parent.parts)
        for key, pair in read_text_file(package, path.name).items():
            # A file's keys go in as they are or behind the prefix its module gives them.
            assert pair in [templates(prefix + key) for prefix in ("", "page.", "server.")], (path, key)
