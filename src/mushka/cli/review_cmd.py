"""``mushka review``: each decision of one seat in a recorded game, against the expert's.

The work is :func:`mushka.bots.review.review`; this module reads the record,
prints the decisions (the three costliest highlighted) or their JSON, and
turns every kind of bad input into one clear line and exit code 2.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape

from mushka.cli.common import LangOpt, RecordArg, console, pick_lang, read_record_bytes, refuse
from mushka.errors import MushkaError
from mushka.i18n import add_texts, tr

if TYPE_CHECKING:
    from mushka.bots.review import Decision


def register(app: typer.Typer) -> None:
    """Add ``review`` to the app."""

    @app.command("review")
    def review_cmd(
        file: RecordArg,
        seat: Annotated[int | None, typer.Option(
            "--seat", help="The seat to review (0 = first; default: the player's seat of a `mushka play` "
                           "record, else 0).")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print {\"decisions\": [...]} for machines.")] = False,
        lang: LangOpt = None,
    ) -> None:
        """Each decision of a seat against the expert's, and what the difference costs on average.

        The expert level looks at every position the seat decided in, from
        that seat's view; where it would have played otherwise, both moves are
        played out on the same sampled deals and the mean difference in money
        is the decision's loss, with its standard error.  The result depends on
        the record only.  A broken record or a seat not at the table is reported
        with the problem and the rule, and the exit code is 2.
        """
        from mushka.bots.review import review
        from mushka.records import Record

        lang_ = pick_lang(lang)
        try:
            text = read_record_bytes(file)
        except OSError as exc:
            refuse(tr("review.invalid", lang_), str(exc), as_json=as_json,
                   payload={"error": "OSError", "message": str(exc)})
        try:
            record = Record.loads(text)
            chosen = default_seat(record.meta, record.players) if seat is None else seat
            result = review(record, chosen, lang=lang_)
        except MushkaError as exc:
            refuse(tr("review.invalid", lang_), exc.message(lang_), as_json=as_json, payload=exc.to_dict(lang_))
        if as_json:
            print(json.dumps(result.to_json(), ensure_ascii=False))
            return
        names = list(record.seats)
        who = names[chosen] if chosen < len(names) else str(chosen)
        console.print(f"[bold]{escape(tr('review.title', lang_, seat=chosen, name=who))}[/]")
        top = {(d.deal, d.index): rank for rank, d in enumerate(result.costliest(), 1)}
        for d in result.decisions:
            console.print(render_decision(d, lang_, top.get((d.deal, d.index))))
        agree = sum(1 for d in result.decisions if d.agrees)
        summary = tr("review.summary", lang_, agree=agree, count=len(result.decisions), total=f"{result.total:.2f}")
        console.print(f"[bold]{escape(summary)}[/]")
        if top:
            console.print(escape(tr("review.costliest", lang_, list=", ".join(
                tr("review.at", lang_, deal=d.deal, loss=f"{d.loss:.2f}") for d in result.costliest()))))


def default_seat(meta: Mapping[str, Any], players: int) -> int:
    """The seat a record's player sat at (``human_seat`` of a ``mushka play`` record), else 0."""
    seat = meta.get("human_seat")
    return seat if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < players else 0


def render_decision(d: Decision, lang: str, rank: int | None) -> str:
    """One decision as a line of rich markup: where, what was played, the expert's move, the loss."""
    from mushka.bots.review import action_words

    head = escape(tr("review.where", lang, deal=d.deal, position=d.position))
    played = escape(action_words(d.choice, lang))
    if d.agrees:
        return f"  [green]✓[/] {head}: {played} — {escape(tr('review.same', lang))}"
    best = escape(action_words(d.best, lang))
    error = "∞" if math.isinf(d.error) else f"{d.error:.2f}"
    loss = escape(tr("review.loss", lang, loss=f"{d.loss:.2f}", error=error, worlds=d.worlds))
    line = f"{head}: {escape(tr('review.played', lang))} {played}; {escape(tr('review.expert', lang))} {best} — {loss}"
    if rank is not None:
        return f"[bold yellow]{rank}.[/] [bold]{line}[/]"
    return f"  · {line}"


add_texts({
    "review.title": ("Review of seat {seat} ({name}) against the expert",
                     "Разбор игры места {seat} ({name}) против мастера"),
    "review.where": ("deal {deal}, {position}", "сдача {deal}, {position}"),
    "review.same": ("the expert's move too", "мастер сыграл бы так же"),
    "review.played": ("played:", "сыграно:"),
    "review.expert": ("the expert:", "мастер:"),
    "review.loss": ("costs {loss} ± {error} on average ({worlds} deals tried)",
                    "в среднем стоит {loss} ± {error} ({worlds} раскладов)"),
    "review.summary": ("{agree} of {count} decisions as the expert's; all the others together cost {total}.",
                       "Решений как у мастера: {agree} из {count}; остальные вместе стоят {total}."),
    "review.costliest": ("The costliest: {list}.", "Самые дорогие: {list}."),
    "review.at": ("deal {deal} ({loss})", "сдача {deal} ({loss})"),
    "review.invalid": ("cannot review:", "разбор невозможен:"),
})
