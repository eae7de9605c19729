"""The summary of a simulation: per seat and per bot, with confidence intervals.

:func:`summarise_run` turns the :class:`~mushka.sim.play.GameStats` of a run
into a JSON-ready dict (the fields are documented in ``docs/simulation.md``);
:func:`render_summary` prints it as tables for people, in English or Russian;
:func:`write_csv` writes one row per game.

Intervals: a seat's mean money per game has Student's *t* interval over the
games (each game is one independent observation), its rates have Wilson's
interval.  A bot that holds several seats of a table is summed up per game
first (the mean of its seats in that game), because seats of one game are not
independent (their money sums to zero); its intervals are *t* intervals over
those per-game means (Wilson's for a rate of a bot that held one seat per game).
"""

from __future__ import annotations

import csv
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table as RichTable

from mushka.i18n import add_text_file, tr
from mushka.rules import Rules
from mushka.rules.variants import find_variant
from mushka.sim.backend import placement_text
from mushka.sim.play import GameStats
from mushka.sim.stats import mean_ci, proportion_ci

SCHEMA = "mushka-simulation/1"
"""The ``schema`` field of ``mushka simulate --json``."""


def _ratio(num: int, den: int) -> float | None:
    return None if den == 0 else round(num / den, 4)


def _seat_block(games: Sequence[GameStats], seat: int, kind: _Kind, confidence: float) -> dict[str, Any]:
    money = [g.money[seat] for g in games]
    wins = sum(1 for g in games if g.winner == seat)
    played = sum(g.played[seat] for g in games)
    block: dict[str, Any] = {
        "seat": seat,
        # With --rotate the bots move round: a seat then has no one bot.
        "bot": games[0].bots[seat] if games and all(g.bots[seat] == games[0].bots[seat] for g in games) else None,
        "games": len(games),
        "money": mean_ci(money, confidence).to_json(),
        "money_sd": round(statistics.stdev(money), 4) if len(money) > 1 else None,
        "win_rate": proportion_ci(wins, len(games), confidence).to_json(),
        "wins": wins,
        "deals_played": played,
        "remizes": sum(g.remizes[seat] for g in games),
        "remiz_rate": _ratio(sum(g.remizes[seat] for g in games), played),
        "tricks_per_deal": _ratio(sum(g.tricks[seat] for g in games), played),
    }
    block.update(kind.seat(games, seat, played, confidence))
    return block


def _share(per_game: Sequence[float], seat_games: int, confidence: float) -> dict[str, Any]:
    """A bot's rate from its per-game shares: Wilson's interval when it held
    one seat per game (the shares are then 0 or 1), else a *t* interval over
    the per-game shares (its seats in one game are not independent)."""
    if seat_games == len(per_game):
        return proportion_ci(round(sum(per_game)), len(per_game), confidence).to_json()
    return mean_ci(per_game, confidence).to_json()


def _bot_block(games: Sequence[GameStats], bot: str, kind: _Kind, confidence: float) -> dict[str, Any]:
    per_game_money: list[float] = []
    per_game_wins: list[float] = []
    seat_games = wins = played = remizes = tricks = 0
    seats: set[int] = set()
    held: list[tuple[GameStats, list[int]]] = []
    for g in games:
        mine = [s for s, b in enumerate(g.bots) if b == bot]
        if not mine:
            continue
        held.append((g, mine))
        seats.update(mine)
        seat_games += len(mine)
        per_game_money.append(sum(g.money[s] for s in mine) / len(mine))
        won = sum(1 for s in mine if g.winner == s)
        wins += won
        per_game_wins.append(won / len(mine))
        played += sum(g.played[s] for s in mine)
        remizes += sum(g.remizes[s] for s in mine)
        tricks += sum(g.tricks[s] for s in mine)
    block: dict[str, Any] = {
        "bot": bot,
        "seats": sorted(seats),
        "games": len(per_game_money),
        "seat_games": seat_games,
        "money": mean_ci(per_game_money, confidence).to_json(),
        "win_rate": _share(per_game_wins, seat_games, confidence),
        "wins": wins,
        "deals_played": played,
        "remizes": remizes,
        "remiz_rate": _ratio(remizes, played),
        "tricks_per_deal": _ratio(tricks, played),
    }
    block.update(kind.bot(games, bot, held, seat_games, played, confidence))
    return block


class _Kind:
    """What a kind of game adds to the summary, the text and the CSV: a partie's stands,
    мушки and flushes (C7, C22, MI9), or a session's outs, money flows and recoups (K3,
    K18, K22-K24).  The summary takes its variant's kind (:func:`_kind`) instead of
    asking which variant it has."""

    per_seat: tuple[str, ...] = ()
    """The CSV's columns of each seat beyond the common ones."""
    legend: str = ""
    """The text key of the legend's part for this kind."""

    def seat(self, games: Sequence[GameStats], seat: int, played: int, confidence: float) -> dict[str, Any]:
        """The fields of a seat's block."""
        raise NotImplementedError

    def bot(self, games: Sequence[GameStats], bot: str, held: Sequence[tuple[GameStats, list[int]]],
            seat_games: int, played: int, confidence: float) -> dict[str, Any]:
        """The fields of a bot's block; ``held`` pairs each game the bot played with its seats."""
        raise NotImplementedError

    def run(self, games: Sequence[GameStats], rules: Rules, confidence: float) -> dict[str, Any]:
        """The fields of the whole run."""
        raise NotImplementedError

    def columns(self, lang: str, pct: int) -> list[str]:
        """The titles of the tables' columns for this kind."""
        raise NotImplementedError

    def cells(self, row: dict[str, Any]) -> list[str]:
        """A block's cells under :meth:`columns`."""
        raise NotImplementedError

    def footer(self, summary: dict[str, Any], lang: str) -> list[str]:
        """The lines under the tables."""
        raise NotImplementedError

    def csv_cells(self, g: GameStats, seat: int) -> list[object]:
        """A seat's values under :attr:`per_seat`."""
        raise NotImplementedError


class _Partie(_Kind):
    """Classic and mistigri: stands (C7), мушки (C22, MI13) and flushes (C22, MI9)."""

    per_seat = ("mushkas", "flushes")
    legend = "sim.legend.partie"

    def seat(self, games: Sequence[GameStats], seat: int, played: int, confidence: float) -> dict[str, Any]:
        """The stand rate and the seat's мушки and flushes."""
        deals = sum(g.deals for g in games)
        return {"stand_rate": _ratio(played, deals), "mushkas": sum(g.mushkas[seat] for g in games),
                "flushes": sum(g.flushes[seat] for g in games)}

    def bot(self, games: Sequence[GameStats], bot: str, held: Sequence[tuple[GameStats, list[int]]],
            seat_games: int, played: int, confidence: float) -> dict[str, Any]:
        """The stand rate over the bot's seats and its мушки and flushes."""
        deals = sum(g.deals * sum(1 for b in g.bots if b == bot) for g in games)
        return {"stand_rate": _ratio(played, deals),
                "mushkas": sum(sum(g.mushkas[s] for s in mine) for g, mine in held),
                "flushes": sum(sum(g.flushes[s] for s in mine) for g, mine in held)}

    def run(self, games: Sequence[GameStats], rules: Rules, confidence: float) -> dict[str, Any]:
        """Parties ended by a мушка (C22), deals all passed (C9) and lone players (C10)."""
        return {"ended_by_mushka": sum(1 for g in games if g.ended_by_mushka),
                "all_passed": sum(g.all_passed for g in games), "lone": sum(g.lone for g in games)}

    def columns(self, lang: str, pct: int) -> list[str]:
        """The stand rate and мушки/flushes."""
        return [tr("sim.col.stand", lang), tr("sim.col.mushka", lang)]

    def cells(self, row: dict[str, Any]) -> list[str]:
        """The stand rate and мушки/flushes."""
        return [_num(row["stand_rate"], "{:.1%}"), f"{row['mushkas']}/{row['flushes']}"]

    def footer(self, summary: dict[str, Any], lang: str) -> list[str]:
        """The run's мушки, all-passed deals and lone players."""
        return [tr("sim.partie_counts", lang, mushka=summary["ended_by_mushka"],
                   passed=summary["all_passed"], lone=summary["lone"])]

    def csv_cells(self, g: GameStats, seat: int) -> list[object]:
        """The seat's мушки and flushes."""
        return [g.mushkas[seat], g.flushes[seat]]


class _Session(_Kind):
    """Kopilka: outs (K18), reneges (K11), the money paid in and taken (K22-K23), recoups (K24)."""

    per_seat = ("outs", "reneges", "paid_in", "received")
    legend = "sim.legend.kopilka"

    def seat(self, games: Sequence[GameStats], seat: int, played: int, confidence: float) -> dict[str, Any]:
        """Outs, reneges, the mean money paid in and received and the recoup rate."""
        recoup = sum(1 for g in games if g.money[seat] >= 0)
        return {
            "outs": sum(g.outs[seat] for g in games),
            "reneges": sum(g.reneges[seat] for g in games),
            "paid_in": round(statistics.fmean(g.paid_in[seat] for g in games), 4) if games else None,
            "received": round(statistics.fmean(g.received[seat] for g in games), 4) if games else None,
            "recoup_rate": proportion_ci(recoup, len(games), confidence).to_json(),
        }

    def bot(self, games: Sequence[GameStats], bot: str, held: Sequence[tuple[GameStats, list[int]]],
            seat_games: int, played: int, confidence: float) -> dict[str, Any]:
        """The same over the bot's seats, the recoup rate from its per-game shares."""
        recoup = [sum(1 for s in mine if g.money[s] >= 0) / len(mine) for g, mine in held]
        return {
            "outs": sum(sum(g.outs[s] for s in mine) for g, mine in held),
            "reneges": sum(sum(g.reneges[s] for s in mine) for g, mine in held),
            "paid_in": _ratio(sum(sum(g.paid_in[s] for s in mine) for g, mine in held), seat_games),
            "received": _ratio(sum(sum(g.received[s] for s in mine) for g, mine in held), seat_games),
            "recoup_rate": _share(recoup, seat_games, confidence),
        }

    def run(self, games: Sequence[GameStats], rules: Rules, confidence: float) -> dict[str, Any]:
        """Deadlocks (K19), shared pots (K23) and how the lowest balance fares."""
        return {"deadlocks": sum(g.deadlocks for g in games),
                "pot_shared": sum(1 for g in games if g.winner is None),
                "unluckiest": unluckiest(games, rules.ante, confidence)}

    def columns(self, lang: str, pct: int) -> list[str]:
        """The recoup rate, money in/out and outs."""
        return [tr("sim.col.recoup", lang, pct=pct), tr("sim.col.paid", lang), tr("sim.col.outs", lang)]

    def cells(self, row: dict[str, Any]) -> list[str]:
        """The recoup rate, money in/out and outs."""
        flows = f"{_num(row['paid_in'], '{:.0f}')}/{_num(row['received'], '{:.0f}')}"
        return [rate_cell(row["recoup_rate"]), flows, str(row["outs"])]

    def footer(self, summary: dict[str, Any], lang: str) -> list[str]:
        """The lowest balance and the run's deadlocks and shared pots."""
        low = summary["unluckiest"]
        return [tr("sim.unluckiest", lang, rate=rate_cell(low["recoup_rate"]),
                   balance=interval_cell(low["balance"], "{:+.2f}"),
                   fraction=interval_cell(low["recouped_fraction"], "{:.3f}"),
                   ante=rate_cell(low["ante_back_rate"])),
                tr("sim.kopilka_counts", lang, deadlocks=summary["deadlocks"], shared=summary["pot_shared"])]

    def csv_cells(self, g: GameStats, seat: int) -> list[object]:
        """The seat's outs, reneges and money paid in and received."""
        return [g.outs[seat], g.reneges[seat], g.paid_in[seat], g.received[seat]]


_KINDS: dict[str, _Kind] = {"partie": _Partie(), "session": _Session()}


def _kind(variant: str) -> _Kind:
    """The kind of game ``variant`` plays (:attr:`mushka.rules.variants.Variant.game`)."""
    return _KINDS[find_variant(variant).game]


def unluckiest(games: Sequence[GameStats], ante: int, confidence: float = 0.95) -> dict[str, Any]:
    """Kopilka: how the lowest balance of each session fares.

    Because the pot is empty at the end (K24), balances sum to zero, so the
    lowest one is never positive and is zero only when every balance is.
    ``recoup_rate`` is that share; ``recouped_fraction`` is the mean share of
    what he paid in that the lowest player got back (received / paid in,
    K22-K23); ``ante_back_rate`` is how often he got back at least the ante
    (K3).  Ties for the lowest go to the earlier seat.
    """
    lows = [min(range(g.players), key=lambda s: (g.money[s], s)) for g in games]
    pairs = list(zip(games, lows, strict=True))
    recouped = sum(1 for g, s in pairs if g.money[s] >= 0)
    ante_back = sum(1 for g, s in pairs if g.received[s] >= ante)
    fraction = [g.received[s] / g.paid_in[s] for g, s in pairs if g.paid_in[s] > 0]
    return {
        "recoup_rate": proportion_ci(recouped, len(games), confidence).to_json(),
        "balance": mean_ci([g.money[s] for g, s in pairs], confidence).to_json(),
        "recouped_fraction": mean_ci(fraction, confidence).to_json(),
        "ante_back_rate": proportion_ci(ante_back, len(games), confidence).to_json(),
    }


def summarise_run(
    games: Sequence[GameStats],
    rules: Rules,
    *,
    seed: int,
    start: int = 0,
    max_deals: int | None = None,
    confidence: float = 0.95,
    seconds: float | None = None,
    workers: int = 1,
    where: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The JSON-ready summary of a run (see ``docs/simulation.md``).

    ``where`` is the run's :meth:`~mushka.sim.backend.Placement.to_json`
    (engine, nodes, CPUs, cluster address).
    """
    kind = _kind(rules.variant)
    n = rules.players
    bots_in_order: list[str] = []
    for g in games:
        for b in g.bots:
            if b not in bots_in_order:
                bots_in_order.append(b)
    deals = [g.deals for g in games]
    out: dict[str, Any] = {
        "schema": SCHEMA,
        "variant": rules.variant,
        "players": n,
        "options": rules.options_text(changed_only=True),
        "seed": seed,
        "start": start,
        "games": len(games),
        "bots": list(games[0].bots) if games else [],
        "rotate": bool(games) and any(g.bots != games[0].bots for g in games),
        "max_deals": max_deals,
        "confidence": confidence,
        "deals_per_game": mean_ci(deals, confidence).to_json(),
        "deals": sum(deals),
        "truncated": sum(1 for g in games if g.truncated),
        "money_balanced": all(sum(g.money) == 0 for g in games),
        "seats": [_seat_block(games, s, kind, confidence) for s in range(n)],
        "by_bot": [_bot_block(games, b, kind, confidence) for b in bots_in_order],
    }
    out.update(kind.run(games, rules, confidence))
    if seconds is not None:
        out["seconds"] = round(seconds, 3)
        out["games_per_s"] = round(len(games) / seconds, 2) if seconds > 0 else None
        out["jobs"] = workers
    if where is not None:
        out["where"] = where
    return out


# --- text ---------------------------------------------------------------------


def money_cell(block: dict[str, Any]) -> str:
    """``mean ±half`` (the *t* interval is symmetric)."""
    if block["value"] is None:
        return "—"
    if block["low"] is None:
        return f"{block['value']:+.2f}"
    return f"{block['value']:+.2f} ±{(block['high'] - block['low']) / 2:.2f}"


def rate_cell(block: dict[str, Any]) -> str:
    """``rate% (low-high)``, the interval in whole per cent unless it is narrower."""
    if block["value"] is None:
        return "—"
    if block["low"] is None:
        return f"{100 * block['value']:.1f}%"
    low, high = 100 * block["low"], 100 * block["high"]
    if high - low >= 2:
        bounds = f"{low:.0f}-{high:.0f}"
    else:
        # A rate near zero needs more places to show how small its upper bound is.
        places = 2 if high < 1 else 1
        bounds = f"{low:.{places}f}-{high:.{places}f}"
    return f"{100 * block['value']:.1f}% ({bounds})"


def interval_cell(block: dict[str, Any], fmt: str) -> str:
    """``value (low, high)`` of a JSON estimate, in ``fmt``."""
    if block["value"] is None:
        return "—"
    if block["low"] is None or block["high"] is None:
        return fmt.format(block["value"])
    return f"{fmt.format(block['value'])} ({fmt.format(block['low'])}, {fmt.format(block['high'])})"


def _num(x: float | None, fmt: str = "{:.3f}") -> str:
    return "—" if x is None else fmt.format(x)


def render_summary(summary: dict[str, Any], lang: str, console: Console) -> None:
    """Print ``summary`` as tables for people, in ``lang``."""
    kind = _kind(summary["variant"])
    pct = round(100 * summary["confidence"])
    head = tr("sim.header", lang, games=summary["games"], variant=summary["variant"], players=summary["players"],
              seed=summary["seed"])
    if summary["options"]:
        head += " " + tr("sim.options", lang, options=" ".join(f"{k}={v}" for k, v in summary["options"].items()))
    console.print(f"[bold]{head}[/]")
    line = tr("sim.deals_per_game", lang, deals=money_cell(summary["deals_per_game"]).lstrip("+"), pct=pct)
    if summary.get("games_per_s") is not None:
        line += "  " + tr("sim.speed", lang, rate=summary["games_per_s"], seconds=summary["seconds"],
                          jobs=summary["jobs"])
    console.print(line)
    if summary.get("where") is not None:
        console.print(placement_text(summary["where"], lang))
    if summary["truncated"]:
        console.print(f"[yellow]{tr('sim.truncated', lang, count=summary['truncated'], limit=summary['max_deals'])}[/]")
    if not summary["money_balanced"]:
        console.print(f"[bold red]{tr('sim.unbalanced', lang)}[/]")
    for title, rows, key in ((tr("sim.by_seat", lang), summary["seats"], "seat"),
                             (tr("sim.by_bot", lang), summary["by_bot"], "bot")):
        table = RichTable(title=title, title_justify="left", show_edge=False, pad_edge=False)
        if key == "seat":
            table.add_column(tr("sim.col.seat", lang), justify="right")
        table.add_column(tr("sim.col.bot", lang))
        table.add_column(tr("sim.col.money", lang, pct=pct), justify="right")
        table.add_column(tr("sim.col.win", lang, pct=pct), justify="right")
        table.add_column(tr("sim.col.remiz", lang), justify="right")
        table.add_column(tr("sim.col.tricks", lang), justify="right")
        for column in kind.columns(lang, pct):
            table.add_column(column, justify="right")
        for row in rows:
            cells = [str(row["seat"])] if key == "seat" else []
            cells += [row["bot"] or tr("sim.rotating", lang), money_cell(row["money"]), rate_cell(row["win_rate"]),
                      _num(row["remiz_rate"], "{:.1%}"), _num(row["tricks_per_deal"], "{:.2f}")]
            table.add_row(*cells, *kind.cells(row))
        console.print()
        console.print(table)
    console.print()
    console.print(f"[dim]{tr('sim.legend', lang, extra=tr(kind.legend, lang))}[/]")
    for line in kind.footer(summary, lang):
        console.print(line)


# --- CSV ----------------------------------------------------------------------------


def csv_header(rules: Rules) -> list[str]:
    """The columns of :func:`write_csv`."""
    head = ["index", "game_seed", "deals", "truncated", "ended_by_mushka", "winner", "winner_bot"]
    per = ["bot", "money", "played", "tricks", "remizes", *_kind(rules.variant).per_seat]
    return head + [f"{name}_{s}" for s in range(rules.players) for name in per]


def write_csv(path: Path, games: Sequence[GameStats], rules: Rules) -> None:
    """One row per game: the game and, per seat, its bot, money and counts."""
    kind = _kind(rules.variant)
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(csv_header(rules))
        for g in games:
            row: list[object] = [g.index, g.seed, g.deals, int(g.truncated), int(g.ended_by_mushka),
                                 "" if g.winner is None else g.winner,
                                 "" if g.winner is None else g.bots[g.winner]]
            for s in range(g.players):
                row += [g.bots[s], g.money[s], g.played[s], g.tricks[s], g.remizes[s], *kind.csv_cells(g, s)]
            writer.writerow(row)


add_text_file("mushka.sim", "summary.toml")
