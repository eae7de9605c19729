"""The rules and the house rules in a player's words, in the one text catalogue.

``rules/words.toml`` holds each option's title (``option.title.NAME``), each closed
value as a player says it (``option.value.VALUE``), the parts of the structured
values (``option.words.…``) and each rule a player meets at the table in one
plain sentence (``rule.plain.ID``).  The page shows them: the server sends them
with its texts (:mod:`mushka.server.pagetexts`).
"""

from __future__ import annotations

from typing import Final

from mushka.i18n import add_text_file, has, tr

PREFIXES: Final = ("option.title.", "option.value.", "option.words.", "rule.plain.")
"""The keys this module adds to the catalogue begin with one of these."""

add_text_file("mushka.rules", "words.toml")


def option_title(name: str, lang: str = "en") -> str:
    """The title of option ``name`` in ``lang``; an option without one shows its name."""
    key = f"option.title.{name}"
    return tr(key, lang) if has(key) else name


def plain_rule(rule_id: str, lang: str = "en") -> str | None:
    """Rule ``rule_id`` in one plain sentence in ``lang``, or None where it has none."""
    key = f"rule.plain.{rule_id}"
    return tr(key, lang) if has(key) else None
