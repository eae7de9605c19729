"""``mushka demo``: a seeded game between random players, printed deal by deal."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Annotated

import typer

from mushka.cli.common import (
    LangOpt,
    OptionArgs,
    PlayersOpt,
    VariantOpt,
    build_rules,
    command,
    console,
    pick_lang,
    seed_option,
)
from mushka.cli.report import deal_report, render_deal, render_result
from mushka.i18n import add_texts, tr
from mushka.match import new_game
from mushka.records import record_of_game


def register(app: typer.Typer) -> None:
    """Add ``demo`` to the app."""

    @command(app)
    def demo(
        variant: VariantOpt = "classic",
        players: PlayersOpt = None,
        seed: Annotated[int, seed_option("Seed of the deck and of the players.")] = 1,
        option: OptionArgs = None,
        lang: LangOpt = None,
        events: Annotated[
            bool, typer.Option("--events/--summary", help="Print every event, or one summary per deal.")
        ] = False,
        deals_shown: Annotated[
            int, typer.Option("--deals", "-d", min=0,
                              help="Show the first N deals (0: all); the game is played to its end either way.")
        ] = 5,
        save: Annotated[Path | None, typer.Option("--save", help="Write the game record (JSON) to this file.")] = None,
    ) -> None:
        """Play a seeded game between random players and print it deal by deal."""
        lang_ = pick_lang(lang)
        rules = build_rules(variant, players, option)
        rng = random.Random(seed)
        game = new_game(rules, rng=random.Random(seed + 1))
        header = tr("demo.header", lang_, players=rules.players, seed=seed)
        console.print(f"[bold]{rules.info.title(lang_)}[/] — {header}")
        shown = 0
        records = [rules.initial_record] * rules.players
        while True:
            # Print every deal that has finished since the last look.
            deals = game.deals
            while shown < len(deals) and (deals[shown].is_over or game.is_over):
                deal = deals[shown]
                shown += 1
                res = deal.result
                if res is not None and rules.has_trumps and res.mushka is None:
                    records = [r + d for r, d in zip(records, res.record_delta, strict=True)]
                if deals_shown and shown > deals_shown:
                    continue
                console.print()
                report = deal_report(deal, shown, records if rules.has_trumps else None)
                lines = render_deal(report, lang_)
                console.print(f"[bold cyan]{lines[0]}[/]")
                if events:
                    for e in deal.events(omniscient=True):
                        console.print("    " + e.describe(lang_))
                for line in lines[1:]:
                    console.print(line)
            if game.is_over:
                break
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        console.print()
        if deals_shown and shown > deals_shown:
            console.print(tr("demo.more", lang_, n=shown - deals_shown, total=shown))
        report_end = {"result": None if game.result is None else game.result.to_json()}
        for line in render_result(report_end, lang_):
            console.print(f"[bold]{line}[/]")
        if save is not None:
            seats = [f"random {s}" for s in range(rules.players)]
            save.write_text(record_of_game(game, seats=seats, meta={"seed": seed}).dumps(), encoding="utf-8")
            console.print(tr("demo.saved", lang_, path=str(save)))


add_texts({
    "demo.header": ("{players} random players, seed {seed}", "{players} случайных игрока, зерно {seed}"),
    "demo.more": ("… {n} more deals not shown ({total} in all; --deals 0 shows every one).",
                  "… ещё сдач не показано: {n} (всего {total}; --deals 0 покажет все)."),
    "demo.saved": ("Record written to {path}; check it with `mushka replay {path}`.",
                   "Запись сохранена в {path}; проверить: `mushka replay {path}`."),
})
