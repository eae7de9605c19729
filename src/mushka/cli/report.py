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
from mushka.i18n import add_texts, tr
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


def render_deal(report: dict[str, Any], lang: str) -> list[str]:
    """Readable lines for one deal report."""
    lines = [tr("report.deal", lang, number=report["number"], dealer=report["dealer"])]
    if "turnup" in report:
        lines.append("  " + tr("report.trump", lang, card=shown(report["turnup"], lang)))
    if "declarations" in report:
        parts = []
        for seat, d in enumerate(report["declarations"]):
            if d is None:
                continue
            if d == "pass":
                parts.append(f"{seat}: " + tr("report.pass", lang))
            else:
                k = int(d.split()[1])
                parts.append(f"{seat}: " + tr("report.stand", lang, count=k))
        if parts:
            lines.append("  " + tr("report.declarations", lang) + " " + "; ".join(parts))
    for item in report["special"]:
        lines.append("  * " + _special_text(item, lang))
    tricks = " ".join(f"{s}:{t}" for s, t in enumerate(report["tricks"]))
    lines.append("  " + tr("report.tricks", lang, tricks=tricks))
    if "records" in report:
        recs = " ".join(f"{s}:{r}" for s, r in enumerate(report["records"]))
        lines.append("  " + tr("report.records", lang, records=recs))
    if "pot" in report:
        bal = " ".join(f"{s}:{b:+d}" for s, b in enumerate(report["balances"]))
        lines.append("  " + tr("report.pot", lang, pot=report["pot"], balances=bal))
    if not report["over"]:
        lines.append("  " + tr("report.unfinished", lang))
    return lines


def render_result(report: dict[str, Any], lang: str) -> list[str]:
    """Readable lines for the end of the game."""
    result = report["result"]
    if result is None:
        return [tr("report.game_unfinished", lang)]
    money = " ".join(f"{s}:{m:+d}" for s, m in enumerate(result["money"]))
    if result["winner"] is None:
        line = tr("report.shared", lang, money=money)
    else:
        line = tr("report.winner", lang, winner=result["winner"], money=money)
    lines = [line]
    if result.get("ended_by_mushka"):
        lines.append(tr("report.by_mushka", lang))
    if result.get("truncated"):
        lines.append(tr("report.truncated", lang))
    return lines


def shown(code: str, lang: str) -> str:
    """A card code of the report (``TH``) in display form (``10♥``, in Russian ``10♥``, ``К♣``)."""
    return parse_card(code).display(lang)


def _special_text(item: dict[str, Any], lang: str) -> str:
    name = item["event"]
    seat = item.get("seat")
    if name == "Shown":
        return tr(f"event.Shown.{item['kind']}.{item['effect']}", lang, seat=seat,
                  cards=" ".join(shown(c, lang) for c in item["cards"]))
    if name == "FlushPaid":
        return tr("report.flush_paid", lang, seat=seat, each=item["each"])
    if name == "MushkaWon":
        return tr("event.MushkaWon", lang, seat=seat)
    if name == "AllPassed":
        return tr("event.AllPassed", lang)
    if name == "LoneTakesAll":
        return tr("event.LoneTakesAll", lang, seat=seat, tricks=item["tricks"])
    if name == "GroupDeclared":
        return tr("event.GroupDeclared", lang, seat=seat, count=item["count"])
    if name == "WentOut":
        return tr("event.WentOut", lang, seat=seat)
    if name == "Deadlock":
        return tr("event.Deadlock", lang)
    if name == "TookTurnup":
        return tr("report.took", lang, seat=seat, card=shown(item["card"], lang))
    return str(name)


add_texts({
    "report.deal": ("Deal {number} (dealer: seat {dealer})", "Сдача {number} (сдаёт игрок {dealer})"),
    "report.trump": ("turned up {card}", "открыта {card}"),
    "report.declarations": ("declarations:", "объявления:"),
    "report.pass": ("pass", "пас"),
    "report.stand": ("plays, exchanged {count}", "играет, прикупил {count}"),
    "report.tricks": ("tricks per seat: {tricks}", "взятки по местам: {tricks}"),
    "report.records": ("records: {records}", "записи: {records}"),
    "report.pot": ("pot {pot}; balances {balances}", "касса {pot}; деньги {balances}"),
    "report.unfinished": ("(the deal is not finished)", "(сдача не доиграна)"),
    "report.game_unfinished": ("The game is not finished.", "Игра не окончена."),
    "report.winner": ("Seat {winner} wins. Money: {money}", "Выиграл игрок {winner}. Деньги: {money}"),
    "report.shared": ("The pot is shared. Money: {money}", "Касса поделена. Деньги: {money}"),
    "report.by_mushka": ("The partie ended with a mushka (special hand).",
                         "Партия окончена мушкой (особой рукой)."),
    "report.truncated": ("Stopped at the deal limit.", "Остановлено по пределу сдач."),
    "report.flush_paid": ("flush paid to seat {seat}: {each} from every other player",
                          "плата за масть игроку {seat}: по {each} с каждого"),
    "report.took": ("seat {seat} (dealer) took the turned-up {card}",
                    "игрок {seat} (сдающий) взял открытую {card}"),
})
