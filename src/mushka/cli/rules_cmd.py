"""``mushka rules [VARIANT]``: the rules of a variant, with their ids, and its options.

The rules are printed section by section (cards, deal, declaring, tricks,
scoring …) as :func:`mushka.rules.texts.render_rules` words them for the
table given by ``--players`` and ``-o name=value``; then every option of the
variant with its value, its default, the rules it changes and its help.
Rules whose text an ``-o`` changed are marked, and a summary line names
them.  ``--json`` prints the same as one JSON object (see ``docs/rules.md``).

In a terminal the text is wrapped to the window with hanging indents; when
the output is piped every rule and every option is one unbroken line, so that
``grep C18`` finds the whole rule.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from mushka.cli.common import (
    VARIANT_HELP,
    JsonOpt,
    LangOpt,
    OptionArgs,
    PlayersOpt,
    build_rules,
    console,
    pick_lang,
    refuse,
)
from mushka.errors import MushkaError
from mushka.i18n import add_texts, tr
from mushka.rules import Rules, options_for
from mushka.rules.options import format_value
from mushka.rules.texts import SECTIONS, option_rules, render_rules

REPORT_FIELDS = ("variant", "title", "lang", "players", "deck", "privileged", "changed_options",
                 "changed_rules", "sections", "rules", "options")
"""The top-level fields of ``mushka rules --json``."""


def rules_report(rules: Rules, lang: str = "en") -> dict[str, Any]:
    """The rules and options of a table as one JSON-ready dict (``--json``).

    Fields: ``variant``, ``title``, ``lang``, ``players``, ``deck`` (cards),
    ``privileged`` (card code), ``changed_options`` (name -> text of every
    option that differs from the variant's default), ``changed_rules`` (ids
    whose text differs from the defaults), ``sections`` (id, title, rule ids),
    ``rules`` (see :meth:`RenderedRule.to_json`) and ``options`` (name, value,
    default, changed, rules, help, choices).
    """
    rendered = render_rules(rules, lang)
    sections = []
    for section in SECTIONS:
        ids = [r.id for r in rendered if r.section == section.id]
        if ids:
            sections.append({"id": section.id, "title": section.title(lang), "rules": ids})
    options = []
    for spec in options_for(rules.variant):
        value = format_value(spec.name, getattr(rules, spec.name))
        default = format_value(spec.name, spec.default(rules.variant))
        options.append({
            "name": spec.name, "value": value, "default": default,
            "changed": not rules.is_default(spec.name),
            "rules": list(option_rules(spec.name, rules.variant)),
            "help": spec.help(lang), "choices": list(spec.values),
        })
    return {
        "variant": rules.variant,
        "title": rules.info.title(lang),
        "lang": lang,
        "players": rules.players,
        "deck": rules.deck_size,
        "privileged": rules.privileged.code,
        "changed_options": rules.options_text(changed_only=True),
        "changed_rules": [r.id for r in rendered if r.changed],
        "sections": sections,
        "rules": [r.to_json() for r in rendered],
        "options": options,
    }


def print_report(report: dict[str, Any], out: Console) -> None:
    """Print a :func:`rules_report` for people: wrapped in a terminal, one line per item in a pipe."""
    lang = report["lang"]
    wrap = out.is_terminal
    header = tr("rules.header", lang, title=report["title"], players=report["players"], deck=report["deck"])
    # In a pipe nothing is wrapped, so that each line can be grepped whole.
    soft = not wrap
    out.print(f"[bold]{escape(header)}[/]", soft_wrap=soft)
    if report["changed_options"]:
        changed = ", ".join(f"{k}={v}" for k, v in report["changed_options"].items())
        rules_changed = ", ".join(report["changed_rules"]) or "—"
        line = tr("rules.changed", lang, options=changed, rules=rules_changed)
        out.print(f"[yellow]{escape(line)}[/]", soft_wrap=soft)
    by_id = {r["id"]: r for r in report["rules"]}
    # One width for the id and tag columns across sections, so the texts line up.
    id_width = max(len(r["id"]) + 1 for r in report["rules"])
    tag_width = max(len(", ".join(r["tags"])) + 2 for r in report["rules"])
    for section in report["sections"]:
        out.print()
        out.print(f"[bold underline]{escape(section['title'])}[/]")
        rows = []
        for rule_id in section["rules"]:
            rule = by_id[rule_id]
            mark = "*" if rule["changed"] else ""
            tags = "[" + ", ".join(rule["tags"]) + "]"
            text = rule["text"]
            # Point to the MI rules that change a C rule, unless the text already cites them.
            see = [i for i in rule["modified_by"] if not re.search(rf"\b{i}\b", text)]
            if see:
                text += " " + tr("rules.see", lang, ids=", ".join(see))
            rows.append((rule_id + mark, tags, text, rule["changed"]))
        if wrap:
            grid = Table.grid(padding=(0, 1))
            grid.add_column(no_wrap=True, style="bold cyan", min_width=id_width)
            grid.add_column(no_wrap=True, style="dim", min_width=tag_width)
            grid.add_column(ratio=1)
            for ident, tags, text, changed in rows:
                grid.add_row(ident, escape(tags), f"[yellow]{escape(text)}[/]" if changed else escape(text))
            out.print(grid)
        else:
            for ident, tags, text, changed in rows:
                body = f"[yellow]{escape(text)}[/]" if changed else escape(text)
                out.print(f"  [bold cyan]{escape(ident)}[/] [dim]{escape(tags)}[/] {body}", soft_wrap=True)
    out.print()
    out.print(f"[bold underline]{escape(tr('rules.options', lang))}[/]")
    lines = []
    for o in report["options"]:
        mark = " *" if o["changed"] else ""
        rest = tr("rules.option_rest", lang, value=o["value"], mark=mark, default=o["default"],
                  rules=", ".join(o["rules"]) or "—", help=o["help"])
        lines.append((o["name"], rest, o["changed"]))
    if wrap:
        grid = Table.grid(padding=(0, 1))
        grid.add_column(no_wrap=True, style="bold")
        grid.add_column(ratio=1)
        for name, rest, changed in lines:
            grid.add_row(name, f"[yellow]{escape(rest)}[/]" if changed else escape(rest))
        out.print(grid)
    else:
        for name, rest, changed in lines:
            body = f"[yellow]{escape(rest)}[/]" if changed else escape(rest)
            out.print(f"  [bold]{name}[/] {body}", soft_wrap=True)
    out.print()
    out.print(f"[dim]{escape(tr('rules.footer', lang, variant=report['variant']))}[/]", soft_wrap=soft)


def register(app: typer.Typer) -> None:
    """Add ``rules`` to the app."""

    @app.command("rules")
    def rules_cmd(
        variant: Annotated[str, typer.Argument(help=VARIANT_HELP)] = "classic",
        players: PlayersOpt = None,
        option: OptionArgs = None,
        lang: LangOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Print the rules of a variant with their ids, then its options.

        With -o name=value the changed options are marked and the rule texts
        show their effect.  A bad variant, player count or option is one line
        on standard error (with --json: a JSON object) and exit code 2.
        """
        lang_ = pick_lang(lang)
        try:
            table = build_rules(variant, players, option)
        except MushkaError as exc:
            refuse(tr("rules.error", lang_), exc.message(lang_), as_json=as_json, payload=exc.to_dict(lang_))
        report = rules_report(table, lang_)
        if as_json:
            print(json.dumps(report, ensure_ascii=False, indent=1))
            return
        print_report(report, console)


add_texts({
    "rules.header": ("{title}: {players} players, {deck} cards", "{title}: игроков — {players}, карт — {deck}"),
    "rules.changed": ("Changed by -o: {options}. Rules that read differently (marked *): {rules}.",
                      "Изменено через -o: {options}. Правила, которые от этого изменились (отмечены *): {rules}."),
    "rules.see": ("(see {ids})", "(см. {ids})"),
    "rules.options": ("Options (change with -o name=value)", "Настройки (меняются через -o имя=значение)"),
    "rules.option_rest": ("= {value}{mark} (default {default}; rules {rules}): {help}",
                          "= {value}{mark} (по умолчанию {default}; правила {rules}): {help}"),
    "rules.footer": (
        "Tags: SEED source text, RU other Russian source, XC French/English relatives, DEC this "
        "project's decision. Example: mushka rules {variant} -o remiz=7",
        "Пометки: SEED — исходный текст, RU — другой русский источник, XC — французская и английская "
        "родня, DEC — решение проекта. Пример: mushka rules {variant} -o remiz=7",
    ),
    "rules.error": ("error:", "ошибка:"),
})
