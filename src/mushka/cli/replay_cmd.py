"""``mushka replay FILE``: check a game record and print its outcome deal by deal."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Annotated, Any

import typer
from rich.markup import escape

from mushka.cli.common import JsonOpt, LangOpt, RecordArg, console, pick_lang, read_record_bytes, refuse
from mushka.cli.report import deal_report, game_report, render_deal, render_result
from mushka.engine import Deal
from mushka.errors import MushkaError
from mushka.i18n import add_texts, tr
from mushka.records import Record, replay


def register(app: typer.Typer) -> None:
    """Add ``replay`` to the app."""

    @app.command("replay")
    def replay_cmd(
        file: RecordArg,
        as_json: JsonOpt = False,
        events: Annotated[bool, typer.Option("--events", help="Also print every event of every deal.")] = False,
        lang: LangOpt = None,
    ) -> None:
        """Check a record by replaying every action, and print the outcome deal by deal.

        A broken record is reported with the deal, the action and the rule, and
        the exit code is 2.
        """
        lang_ = pick_lang(lang)
        try:
            text = read_record_bytes(file)
        except OSError as exc:
            refuse(tr("replay.invalid", lang_), str(exc), as_json=as_json,
                   payload={"valid": False, "error": "OSError", "message": str(exc)})
        try:
            record = Record.loads(text)
            target = replay(record)
        except MushkaError as exc:
            refuse(tr("replay.invalid", lang_), exc.message(lang_), as_json=as_json,
                   payload={"valid": False, **exc.to_dict(lang_)})
        report: dict[str, Any]
        if isinstance(target, Deal):
            report = {"variant": target.rules.variant, "players": target.n,
                      "deals": [deal_report(target, 1)], "over": target.is_over,
                      "result": None}
        else:
            report = game_report(target)
        if as_json:
            print(json.dumps({"valid": True, "level": record.level, "seats": list(record.seats),
                              **report}, ensure_ascii=False))
            return
        rules = record.rules()
        console.print(f"[bold]{rules.info.title(lang_)}[/] — {tr('replay.valid', lang_, deals=len(report['deals']))}")
        if record.seats:
            seats = ", ".join(f"{i}: {s}" for i, s in enumerate(record.seats))
            console.print(escape(tr("replay.seats", lang_, seats=seats)))
        names = distinct_names(record.seats) if record.seats else None
        deals = target.deals if not isinstance(target, Deal) else [target]
        for deal, item in zip(deals, report["deals"], strict=True):
            lines = render_deal(item, lang_, names)
            console.print(f"[bold cyan]{escape(lines[0])}[/]")
            if events:
                for e in deal.events(omniscient=True):
                    console.print("    " + escape(e.describe(lang_, names)))
            for line in lines[1:]:
                console.print(escape(line))
        if not isinstance(target, Deal):
            for line in render_result(report, lang_, names):
                console.print(f"[bold]{escape(line)}[/]")


def distinct_names(seats: Sequence[str]) -> list[str]:
    """The seats' names for the replay's sentences: a name several seats share (three
    ``club`` bots) gets its seat's number, ``club #2``, so that every sentence says who."""
    counts = Counter(seats)
    return [f"{name} #{seat}" if counts[name] > 1 else name for seat, name in enumerate(seats)]


add_texts({
    "replay.valid": ("the record is valid; deals: {deals}.", "запись верна; сдач: {deals}."),
    "replay.seats": ("Seats: {seats}", "Места: {seats}"),
    "replay.invalid": ("invalid record:", "ошибка в записи:"),
})
