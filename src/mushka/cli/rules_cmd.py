"""``mushka rules [VARIANT]``: the rules of a variant and its options."""

from __future__ import annotations

from typing import Annotated

import typer

from mushka.cli.common import LangOpt, OptionArgs, build_rules, console, friendly_errors, pick_lang
from mushka.rules import options_for
from mushka.rules.options import format_value


def register(app: typer.Typer) -> None:
    """Add ``rules`` to the app."""

    @app.command()
    @friendly_errors
    def rules(
        variant: Annotated[str, typer.Argument(help="classic/обычная, mistigri/мистигри, kopilka/копилка")] = "classic",
        players: Annotated[int | None, typer.Option("--players", "-p")] = None,
        option: OptionArgs = None,
        lang: LangOpt = None,
    ) -> None:
        """Print the options of a variant with their current values."""
        lang_ = pick_lang(lang)
        table = build_rules(variant, players, option)
        console.print(f"[bold]{table.info.title(lang_)}[/] ({table.players})")
        for spec in options_for(table.variant):
            value = format_value(spec.name, getattr(table, spec.name))
            mark = "" if table.is_default(spec.name) else " *"
            console.print(f"  {spec.name} = {value}{mark}  [dim]{', '.join(spec.rules)}: {spec.help(lang_)}[/]")
