"""Russian and English texts of the rules core.

Every user-facing sentence the core produces (errors, event descriptions,
phase names) is looked up here by key, so an interface can render it in the
player's language.  The applications add their own texts to the same
catalogue (:func:`add_texts`, or :func:`add_text_file` for a catalogue file
such as the page's), so that there is one catalogue: the terminal, the
server and the page (which the server sends its texts) read the same entries.

A key is defined once: a second definition raises :class:`TextKeyTwice` when
its module is imported, rather than silently replacing the first text.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from importlib import resources
from typing import Final

LANGS: Final = ("en", "ru")
"""The supported languages."""

_CATALOGUE: dict[str, tuple[str, str]] = {}
# Filled from the core's own file (i18n.toml) at the end of this module, then by every module
# that adds its texts when it is imported.


def render_param(value: object, lang: str) -> object:
    """Parameters that know their own translation render in ``lang``."""
    render = getattr(value, "render", None)
    if callable(render):
        return render(lang)
    display = getattr(value, "display", None)
    if callable(display):
        return display(lang)
    name_in = getattr(value, "name_in", None)
    if callable(name_in):
        return name_in(lang)
    return value


class LocalText:
    """A catalogue text with its parameters, rendered when shown.

    Errors carry these instead of finished sentences so that one error can
    be shown in English and in Russian (:meth:`MushkaError.message`).
    """

    __slots__ = ("key", "params")

    def __init__(self, key: str, **params: object) -> None:
        self.key = key
        self.params = params

    def render(self, lang: str = "en") -> str:
        """The text in ``lang`` (parameters that know their language render in it)."""
        return tr(self.key, lang, **{k: render_param(v, lang) for k, v in self.params.items()})

    def __format__(self, spec: str) -> str:
        return self.render("en")

    def __str__(self) -> str:
        return self.render("en")

    def __repr__(self) -> str:
        return f"LocalText({self.key!r})"


class TextKeyTwice(ValueError):
    """A text key given a second time: the first text would be lost without a word."""


def add_texts(entries: Mapping[str, tuple[str, str]]) -> None:
    """Add catalogue entries ``key -> (english, russian)``; a key already there raises
    :class:`TextKeyTwice` (nothing of ``entries`` is added then)."""
    twice = sorted(key for key in entries if key in _CATALOGUE)
    if twice:
        raise TextKeyTwice(f"text keys defined twice: {', '.join(twice)}")
    _CATALOGUE.update(entries)


def read_text_file(package: str, name: str) -> dict[str, tuple[str, str]]:
    """The entries of the catalogue file ``name`` of ``package``: TOML whose every key holds
    ``[english, russian]``; a table's name goes before its keys (``[option.title]`` then
    ``deck = …`` is ``option.title.deck``).  TOML itself refuses a key given twice; an entry
    that is not two strings raises :class:`ValueError` naming it."""
    data = tomllib.loads(resources.files(package).joinpath(name).read_text(encoding="utf-8"))
    entries: dict[str, tuple[str, str]] = {}

    def walk(table: Mapping[str, object], prefix: str) -> None:
        for key, value in table.items():
            if isinstance(value, dict):
                walk(value, f"{prefix}{key}.")
            elif isinstance(value, list) and len(value) == 2 and all(isinstance(s, str) for s in value):
                entries[prefix + key] = (value[0], value[1])
            else:
                raise ValueError(f"{package}/{name}: {prefix + key!r} must be [english, russian]")

    walk(data, "")
    return entries


def add_text_file(package: str, name: str, prefix: str = "") -> dict[str, tuple[str, str]]:
    """Add the entries of catalogue file ``name`` of ``package`` (:func:`read_text_file`),
    each key behind ``prefix``; return them as the file writes them (without the prefix)."""
    entries = read_text_file(package, name)
    add_texts({prefix + key: pair for key, pair in entries.items()})
    return entries


def has(key: str) -> bool:
    """Whether ``key`` is in the catalogue."""
    return key in _CATALOGUE


def keys() -> list[str]:
    """All catalogue keys (for tests that check both languages are present)."""
    return sorted(_CATALOGUE)


def templates(key: str) -> tuple[str, str] | None:
    """The English and Russian templates of ``key`` as written (placeholders unfilled), or None."""
    return _CATALOGUE.get(key)


def tr(key: str, lang: str = "en", /, **params: object) -> str:
    """The text for ``key`` in ``lang`` with ``params`` filled in.

    An unknown key returns the key itself so that a missing translation is
    visible instead of fatal.
    """
    pair = _CATALOGUE.get(key)
    if pair is None:
        return key
    template = pair[1] if lang == "ru" else pair[0]
    if not params:
        return template
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template


add_text_file("mushka", "i18n.toml")
