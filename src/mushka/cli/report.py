"""Deal-by-deal reports of a game, for people (text) and machines (JSON).

Used by ``mushka demo`` and ``mushka replay``: for each deal the dealer, the
trump, the declarations, the special events (flushes, the мушка, a lone
player, everybody passing, a deadlock, who went out), the tricks per seat
and the score sheet after it (records, or the pot and balances).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mushka.cards import parse_card
from mushka.engine import Deal
from mushka.engine import events as ev
from mushka.engine.kopilka import KopilkaDeal
from mushka.engine.wording import Names, count_cards, per_seat, seat_name, seat_params, sentence
from mushka.i18n import add_text_file, tr
from mushka.match import Game

SPECIAL = (ev.Shown, ev.FlushPaid, ev.MushkaWon, ev.AllPassed, ev.LoneTakesAll, ev.GroupDeclared,
           ev.WentOut, ev.Deadlock, ev.TookTurnup)


def deal_report(deal: Deal, number: int, records_after: Sequence[int] | None = None) -> dict[str, Any]:
    """A JSON-ready summary of one finished (or unfinished) deal."""
    events = deal.events(omniscient=True)
    out: dict[str, Any] = {"number": number, "dealer": deal.dealer, "over": deal.is_over}
    turned = next((e for e in events if isinstance(e, ev.TurnedUp)), None)
    if turned is not None:
        out["turnup"] = turned.card.code
        out["trump"] = turned.card.suit.letter
    decls: list[str | None] = [None] * deal.n
    for e in events:
        if isinstance(e, ev.Declared):
            decls[e.seat] = f"stand {e.count}" if e.stand else "pass"
    if deal.rules.has_trumps:
        out["declarations"] = decls
    special: list[dict[str, Any]] = []
    for e in events:
        if isinstance(e, SPECIAL):
            item: dict[str, Any] = {"event": e.name}
            for key in ("seat", "kind", "effect", "each", "count", "tricks"):
                if hasattr(e, key):
                    item[key] = getattr(e, key)
            if isinstance(e, ev.Shown):
                item["cards"] = [c.code for c in e.cards]
            if isinstance(e, ev.TookTurnup):
                item["card"] = e.card.code
            special.append(item)
    out["special"] = special
    out["tricks"] = list(deal.tricks_won)
    result = deal.result
    out["result"] = None if result is None else result.to_json()
    if isinstance(deal, KopilkaDeal):
        out["pot"] = deal.pot
        out["balances"] = list(deal.balances)
    elif records_after is not None:
        out["records"] = list(records_after)
    return out


def game_report(game: Game) -> dict[str, Any]:
    """A JSON-ready report of a whole game, deal by deal."""
    deals = []
    records = [game.rules.initial_record] * game.n if game.rules.has_trumps else None
    for number, deal in enumerate(game.deals, 1):
        res = deal.result
        if records is not None and res is not None and res.mushka is None:
            records = [r + d for r, d in zip(records, res.record_delta, strict=True)]
        deals.append(deal_report(deal, number, records))
    return {
        "variant": game.rules.variant,
        "players": game.n,
        "options": game.rules.options_text(changed_only=True),
        "first_dealer": game.first_dealer,
        "deals": deals,
        "over": game.is_over,
        "result": None if game.result is None else game.result.to_json(),
    }


def render_deal(report: dict[str, Any], lang: str, names: Names = None) -> list[str]:
    """Readable lines for one deal report, seats by the players' ``names`` where given."""
    lines = [tr("report.deal", lang, number=report["number"],
                **seat_params("dealer", report["dealer"], lang, names))]
    if "turnup" in report:
        lines.append("  " + tr("report.trump", lang, card=shown(report["turnup"], lang)))
    if "declarations" in report:
        parts = []
        for seat, d in enumerate(report["declarations"]):
            if d is None:
                continue
            who = seat_name(seat, lang, names)
            if d == "pass":
                parts.append(f"{who}: " + tr("report.pass", lang))
            else:
                k = int(d.split()[1])
                parts.append(f"{who}: " + (tr("report.stand_pat", lang) if k == 0 else
                                            tr("report.stand", lang, cards=count_cards(k, lang))))
        if parts:
            lines.append("  " + tr("report.declarations", lang) + " " + "; ".join(parts))
    for item in report["special"]:
        lines.append("  * " + _special_text(item, lang, names))
    lines.append("  " + tr("report.tricks", lang, tricks=per_seat(report["tricks"], lang, names)))
    if "records" in report:
        lines.append("  " + tr("report.records", lang, records=per_seat(report["records"], lang, names)))
    if "pot" in report:
        balances = per_seat(report["balances"], lang, names, signed=True)
        lines.append("  " + tr("report.pot", lang, pot=report["pot"], balances=balances))
    if not report["over"]:
        lines.append("  " + tr("report.unfinished", lang))
    return lines


def render_result(report: dict[str, Any], lang: str, names: Names = None) -> list[str]:
    """Readable lines for the end of the game, seats by the players' ``names`` where given."""
    result = report["result"]
    if result is None:
        return [tr("report.game_unfinished", lang)]
    money = per_seat(result["money"], lang, names, signed=True)
    if result["winner"] is None:
        line = tr("report.shared", lang, money=money)
    else:
        line = sentence(tr("report.winner", lang, money=money,
                           **seat_params("winner", result["winner"], lang, names)), lang)
    lines = [line]
    if result.get("ended_by_mushka"):
        lines.append(tr("report.by_mushka", lang))
    if result.get("truncated"):
        lines.append(tr("report.truncated", lang))
    return lines


def shown(code: str, lang: str) -> str:
    """A card code of the report (``TH``) in display form (``10♥``, in Russian ``10♥``, ``К♣``)."""
    return parse_card(code).display(lang)


def _special_text(item: dict[str, Any], lang: str, names: Names = None) -> str:
    name = item["event"]
    seat = item.get("seat")
    who = seat_params("seat", seat, lang, names) if isinstance(seat, int) else {"seat": "?"}
    if name == "Shown":
        text = tr(f"event.Shown.{item['kind']}.{item['effect']}", lang,
                  cards=" ".join(shown(c, lang) for c in item["cards"]), **who)
    elif name == "FlushPaid":
        text = tr("report.flush_paid", lang, each=item["each"], **who)
    elif name == "MushkaWon":
        text = tr("event.MushkaWon", lang, **who)
    elif name == "AllPassed":
        text = tr("event.AllPassed", lang)
    elif name == "LoneTakesAll":
        text = tr("event.LoneTakesAll", lang, tricks=item["tricks"], **who)
    elif name == "GroupDeclared":
        text = tr("event.GroupDeclared", lang, count=item["count"],
                  count_cards=count_cards(item["count"], lang), **who)
    elif name == "WentOut":
        text = tr("event.WentOut", lang, **who)
    elif name == "Deadlock":
        text = tr("event.Deadlock", lang)
    elif name == "TookTurnup":
        text = tr("report.took", lang, card=shown(item["card"], lang), **who)
    else:
        text = str(name)
    return sentence(text, lang)


add_text_file("mushka.cli", "report.toml")
