"""The rules summary shown on ``?``: the variant in short and the table's options.

The essentials are filled in with this table's own values (its record, ремиз,
ante …), so the summary never contradicts the options in force.  When the
rules core provides the rule texts (``mushka.rules.texts``), they are shown
below the summary as well.
"""

from __future__ import annotations

import importlib
from typing import Final

from rich.text import Text

from mushka.i18n import add_text_file, tr
from mushka.rules import Rules, options_for
from mushka.rules.options import format_value

_ESSENTIALS: Final[dict[str, tuple[str, ...]]] = {
    "classic": (
        "tui.rules.classic.1", "tui.rules.classic.2", "tui.rules.classic.3", "tui.rules.classic.4",
        "tui.rules.classic.5",
    ),
    "mistigri": (
        "tui.rules.mistigri.1", "tui.rules.mistigri.2", "tui.rules.mistigri.3", "tui.rules.classic.2",
        "tui.rules.classic.3", "tui.rules.classic.4",
    ),
    "kopilka": (
        "tui.rules.kopilka.1", "tui.rules.kopilka.2", "tui.rules.kopilka.3", "tui.rules.kopilka.4",
        "tui.rules.kopilka.5",
    ),
}

add_text_file("mushka.tui", "rulesinfo.toml")


def _params(rules: Rules) -> dict[str, object]:
    values = " ".join(f"{'♠♣♦♥'[s]}{v}" for s, v in sorted(enumerate(rules.suit_values), key=lambda p: (-p[1], -p[0])))
    return {
        "players": rules.players, "deck": rules.deck_size, "max_exchange": rules.max_exchange,
        "initial_record": rules.initial_record, "trick_value": rules.trick_value, "remiz": rules.remiz,
        "stake": rules.stake, "flush": rules.flush, "privileged_remiz": rules.effective_privileged_remiz,
        "privileged_bonus": rules.privileged_bonus, "flush_payment": rules.flush_payment,
        "ante": rules.ante, "games": rules.session_games, "redistribution": rules.redistribution,
        "renege": rules.renege,
        "game_payment": rules.effective_game_payment, "values": values,
    }


def rules_summary(rules: Rules, lang: str) -> Text:
    """The variant in short (with this table's values), the rule texts when the
    rules core has them, and the table's options."""
    out = Text(tr("tui.rules_title", lang, title=rules.info.title(lang)) + "\n\n", style="bold")
    out.append(tr("tui.rules_essentials", lang) + "\n", style="bold underline")
    params = _params(rules)
    if rules.has_trumps:
        params["flush_effect"] = tr(f"tui.effect.{rules.flush}", lang, pay=rules.flush_payment)
        params["four_effect"] = tr(f"tui.effect.{rules.four_mode}", lang, pay=rules.flush_payment)
    for key in _ESSENTIALS[rules.variant]:
        out.append("• " + tr(key, lang, **params) + "\n")
    for title, entries in rule_texts(rules, lang):
        out.append("\n" + title + "\n", style="bold underline")
        for rule_id, text, changed in entries:
            out.append(f"{rule_id} ", style="bold")
            out.append(text, style="bold" if changed else "")
            if changed:
                out.append(f" ({tr('tui.changed', lang)})", style="dim")
            out.append("\n")
    out.append("\n" + tr("tui.rules_options", lang) + "\n", style="bold underline")
    for spec in options_for(rules.variant):
        value = format_value(spec.name, getattr(rules, spec.name))
        changed_opt = "" if rules.is_default(spec.name) else f" ({tr('tui.changed', lang)})"
        out.append(f"{spec.name} = {value}{changed_opt}", style="bold" if changed_opt else "")
        out.append(f"  {', '.join(spec.rules)}: {spec.help(lang)}\n", style="dim")
    out.rstrip()
    return out


RuleSection = tuple[str, list[tuple[str, str, bool]]]
"""A section title and its rules as ``(id, text, changed by an option)``."""


def rule_texts(rules: Rules, lang: str) -> list[RuleSection]:
    """The rules of the variant at this table, by section, from ``mushka.rules.texts``
    when the rules core has that module (its ``render_rules`` and ``section_title``);
    empty otherwise, and the summary then shows the essentials and the options only."""
    try:
        module = importlib.import_module("mushka.rules.texts")
    except ModuleNotFoundError as exc:
        if exc.name != "mushka.rules.texts":
            raise
        return []
    render_rules = getattr(module, "render_rules", None)
    section_title = getattr(module, "section_title", None)
    if not callable(render_rules) or not callable(section_title):
        return []
    sections: list[RuleSection] = []
    # The guarantees of §4 concern the program, not the table: they stay out of a player's summary.
    for rule in render_rules(rules, lang, guarantees=False):
        title = str(section_title(rule.section, lang))
        if not sections or sections[-1][0] != title:
            sections.append((title, []))
        sections[-1][1].append((str(rule.id), str(rule.text), bool(rule.changed)))
    return sections
