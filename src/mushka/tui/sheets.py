"""The score sheet of the game above the deal, as the terminal shows it, and the summaries.

A partie writes records (C16-C21, with the side account of MI9); a kopilka session
keeps a pot and balances (K3, K22-K24).  Each is a :class:`Sheet`; the panels take
the sheet of their rules (:func:`sheet_of`) and never ask which variant they show.
Like :mod:`mushka.tui.render`, every function here is pure: views in, Rich text out.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from mushka.engine import DealResult
from mushka.i18n import tr
from mushka.match import GameResult, GameView
from mushka.rules import FlushMode, Rules
from mushka.rules.variants import find_variant
from mushka.tui.render import NAME_WIDTH, SHORT_NAME, _pad, seat_name


def has_side_account(rules: Rules) -> bool:
    """Whether flush side payments can happen (MI9, C22 with ``side_payment``)."""
    return rules.has_trumps and FlushMode.SIDE_PAYMENT in (rules.flush, rules.four_mode)


class Sheet:
    """The score of the game above the deal as the terminal shows it: a partie's records
    (C16-C21) or a session's pot and balances (K3, K22-K24).  The screens take their
    rules' sheet (:func:`sheet_of`) instead of asking which variant they show."""

    money_column: str = "tui.col_balance"
    """The title of the column that :meth:`after` fills."""
    records_column: str = ""
    """The title of the records column at the end of the game (none in a session)."""

    def score_panel(self, view: GameView, names: Sequence[str], human: int, lang: str) -> Text:
        """Each seat's score now, under the panel's title."""
        raise NotImplementedError

    def after(self, rules: Rules, history: Sequence[DealResult]) -> list[list[int]]:
        """Each seat's score after each finished deal."""
        raise NotImplementedError

    def cell(self, value: int) -> str:
        """One score as the history shows it."""
        return f"{value:+d}"

    def records(self, result: GameResult) -> tuple[int, ...]:
        """The records the end of the game lists beside the money (a partie's, C20)."""
        return ()

    def has_parts(self, result: GameResult) -> bool:
        """Whether the final money was made of more than one part (the end shows them)."""
        return True

    def money_table(self, result: GameResult, rules: Rules, history: Sequence[DealResult],
                    names: Sequence[str], human: int, lang: str) -> Text:
        """The parts of each seat's final money, a line a seat, under their columns' titles."""
        raise NotImplementedError


class PartieSheet(Sheet):
    """Classic and mistigri: each seat's record (запись, C16) and side account (MI9)."""

    money_column = "tui.col_record"
    records_column = "tui.col_record"

    def score_panel(self, view: GameView, names: Sequence[str], human: int, lang: str) -> Text:
        """Each seat's record and, where flushes pay, side account (C16, MI9)."""
        rules = view.deal.rules
        side = has_side_account(rules)
        head = _pad(tr("tui.col_seat", lang), SHORT_NAME) + " " + _pad(tr("tui.col_record", lang), 7)
        if side:
            head += " " + tr("tui.col_side", lang)
        out = Text()
        out.append(tr("tui.score_title", lang) + "\n", style="bold")
        out.append(head + "\n", style="dim")
        for seat in range(rules.players):
            style = "bold" if seat == human else ""
            out.append(_pad(seat_name(names, seat, human, lang), SHORT_NAME) + " ", style=style)
            out.append(_pad(str(view.records[seat]), 7), style=style)
            if side:
                out.append(f" {view.side[seat]:+d}", style=style)
            out.append("\n")
        return out

    def after(self, rules: Rules, history: Sequence[DealResult]) -> list[list[int]]:
        """The records after each deal (C16-C18)."""
        return records_after(rules, history)

    def cell(self, value: int) -> str:
        """A record, unsigned."""
        return str(value)

    def records(self, result: GameResult) -> tuple[int, ...]:
        """The records at the end (C20)."""
        return result.records

    def has_parts(self, result: GameResult) -> bool:
        """Whether anything was settled (C21); a partie ended by a flush at no charge was not."""
        return any(result.settlement)

    def money_table(self, result: GameResult, rules: Rules, history: Sequence[DealResult],
                    names: Sequence[str], human: int, lang: str) -> Text:
        """The side account and the records taken at the end (MI9, C21)."""
        head = _pad(tr("tui.col_seat", lang), NAME_WIDTH) + " " + _pad(tr("tui.col_side", lang), 8) \
            + _pad(tr("tui.col_settle", lang), 9) + tr("tui.col_money", lang)
        out = Text()
        out.append(head + "\n", style="dim")
        for seat in range(rules.players):
            side = result.side[seat] if result.side else 0
            out.append(_pad(seat_name(names, seat, human, lang), NAME_WIDTH) + " " + _pad(f"{side:+d}", 8)
                       + _pad(f"{result.settlement[seat]:+d}", 9) + f"{result.money[seat]:+d}\n")
        return out


class SessionSheet(Sheet):
    """Kopilka: the pot and each seat's balance (K3, K24)."""

    def score_panel(self, view: GameView, names: Sequence[str], human: int, lang: str) -> Text:
        """The pot and each seat's balance (K3, K24)."""
        out = Text()
        out.append(tr("tui.pot_title", lang, pot=view.pot) + "\n", style="bold")
        out.append(_pad(tr("tui.col_seat", lang), SHORT_NAME) + " " + tr("tui.col_balance", lang) + "\n",
                   style="dim")
        for seat in range(view.deal.rules.players):
            style = "bold" if seat == human else ""
            out.append(_pad(seat_name(names, seat, human, lang), SHORT_NAME) + " ", style=style)
            out.append(f"{view.money[seat]:+d}\n", style=style)
        return out

    def after(self, rules: Rules, history: Sequence[DealResult]) -> list[list[int]]:
        """The balances after each game (K3, K22)."""
        return balances_after(rules, history)

    def money_table(self, result: GameResult, rules: Rules, history: Sequence[DealResult],
                    names: Sequence[str], human: int, lang: str) -> Text:
        """The ante, the games and the pot taken at the end (K3, K22, K23)."""
        head = _pad(tr("tui.col_seat", lang), NAME_WIDTH) + " " + _pad(tr("tui.col_ante", lang), 7) \
            + _pad(tr("tui.col_games", lang), 7) + _pad(tr("tui.col_pot", lang), 7) + tr("tui.col_money", lang)
        out = Text()
        out.append(head + "\n", style="dim")
        for seat in range(rules.players):
            games = sum(r.money[seat] for r in history)
            pot = result.settlement[seat] if result.settlement else 0
            out.append(_pad(seat_name(names, seat, human, lang), NAME_WIDTH) + " " + _pad(f"{-rules.ante:+d}", 7)
                       + _pad(f"{games:+d}", 7) + _pad(f"{pot:+d}", 7) + f"{result.money[seat]:+d}\n")
        return out


SHEETS: dict[str, Sheet] = {"partie": PartieSheet(), "session": SessionSheet()}
"""The sheet of each kind of game (:attr:`mushka.rules.variants.Variant.game`)."""


def sheet_of(rules: Rules) -> Sheet:
    """The score sheet of the game ``rules`` play."""
    return SHEETS[rules.info.game]


def score_panel(view: GameView, names: Sequence[str], human: int, lang: str) -> Text:
    """Classic and mistigri: each seat's record (запись, C16) and side account (MI9);
    kopilka: the pot and each seat's balance (K3, K24)."""
    out = sheet_of(view.deal.rules).score_panel(view, names, human, lang)
    out.rstrip()
    return out


# --- summaries -----------------------------------------------------------------------------


def _result_note(result: DealResult, names: Sequence[str], human: int, lang: str) -> list[str]:
    notes = []
    if result.mushka is not None:
        rule = find_variant(result.variant).mushka_rule
        notes.append(tr("tui.note_mushka", lang, name=seat_name(names, result.mushka, human, lang), rule=rule))
    if result.all_passed:
        notes.append(tr("tui.note_all_passed", lang))
    if result.lone is not None:
        notes.append(tr("tui.note_lone", lang, name=seat_name(names, result.lone, human, lang)))
    if result.flush_seat is not None:
        # Five of a suit: C22 in classic, MI9 in mistigri; the amount is the side account's.
        amount = result.side[result.flush_seat] if result.side else 0
        notes.append(tr("tui.note_flush", lang, name=seat_name(names, result.flush_seat, human, lang),
                        amount=f"{amount:+d}", rule=find_variant(result.variant).flush_rule))
    if result.out is not None:
        notes.append(tr("tui.note_out", lang, name=seat_name(names, result.out, human, lang)))
    if result.deadlock:
        notes.append(tr("tui.note_deadlock", lang))
    return notes


def records_after(rules: Rules, history: Sequence[DealResult]) -> list[list[int]]:
    """C16-C18: each seat's record after each finished deal (a мушка deal writes nothing, C21)."""
    records = [rules.initial_record] * rules.players
    out = []
    for result in history:
        if result.mushka is None and result.record_delta:
            records = [r + d for r, d in zip(records, result.record_delta, strict=True)]
        out.append(list(records))
    return out


def balances_after(rules: Rules, history: Sequence[DealResult]) -> list[list[int]]:
    """K3, K22: each seat's balance after each finished kopilka game."""
    balances = [-rules.ante] * rules.players
    out = []
    for result in history:
        balances = [b + m for b, m in zip(balances, result.money, strict=True)]
        out.append(list(balances))
    return out


def history_panel(view: GameView, names: Sequence[str], human: int, lang: str) -> Text:
    """Every finished deal: dealer, tricks per seat, the record (or balance) after it, notes."""
    rules = view.deal.rules
    history = view.history
    n = rules.players
    out = Text(tr("tui.history_title", lang) + "\n", style="bold")
    legend = ", ".join(seat_name(names, s, human, lang) for s in range(n))
    out.append(legend + "\n", style="dim")
    if not history:
        out.append(tr("tui.none_yet", lang), style="dim")
        return out
    sheet = sheet_of(rules)
    after = sheet.after(rules, history)
    head = _pad("#", 3) + _pad(tr("tui.col_dealer", lang), 6) + "".join(_pad(str(s), 9) for s in range(n))
    out.append(head + "\n", style="dim")
    out.append(" " * 9 + tr("tui.history_cell", lang) + "\n", style="dim")
    for k, result in enumerate(history):
        row = _pad(str(k + 1), 3) + _pad(str(result.dealer), 6)
        for s in range(n):
            # C7: a seat that passed played no trick (in kopilka every seat plays, K5).
            tricks = "–" if result.standing and not result.standing[s] else str(result.tricks[s])
            row += _pad(f"{tricks}/{sheet.cell(after[k][s])}", 9)
        out.append(row + "\n")
        for note in _result_note(result, names, human, lang):
            out.append("     • " + note + "\n", style="dim")
    out.rstrip()
    return out


def money_parts(result: GameResult, rules: Rules, history: Sequence[DealResult], names: Sequence[str],
                human: int, lang: str) -> Text:
    """How each seat's final money was made: kopilka's ante, games and the pot taken at
    the end (K3, K22, K23); classic and mistigri, the side account and the records (MI9, C21)."""
    out = Text(tr("tui.money_parts", lang) + "\n", style="bold")
    out.append_text(sheet_of(rules).money_table(result, rules, history, names, human, lang))
    out.rstrip()
    return out


def game_over_panel(result: GameResult, rules: Rules, names: Sequence[str], human: int, lang: str,
                    saved: str | None, history: Sequence[DealResult] | None = None) -> Text:
    """The end of the game: the winner and each seat's money (C21, K23)."""
    out = Text(tr("tui.game_over", lang) + "\n\n", style="bold")
    if result.winner is None:
        out.append(tr("tui.pot_shared", lang) + "\n", style="bold")
    else:
        key = "tui.you_win" if result.winner == human else "tui.winner"
        out.append(tr(key, lang, name=seat_name(names, result.winner, human, lang)) + "\n", style="bold green")
    if result.ended_by_mushka:
        out.append(tr("tui.ended_by_mushka", lang) + "\n")
    out.append("\n")
    sheet = sheet_of(rules)
    records = sheet.records(result)
    head = _pad(tr("tui.col_seat", lang), NAME_WIDTH) + " "
    if sheet.records_column:
        head += _pad(tr(sheet.records_column, lang), 8)
    head += tr("tui.col_money", lang)
    out.append(head + "\n", style="dim")
    for seat in range(rules.players):
        line = _pad(seat_name(names, seat, human, lang), NAME_WIDTH) + " "
        if records:
            line += _pad(str(records[seat]), 8)
        line += f"{result.money[seat]:+d}"
        out.append(line + "\n", style="bold" if seat == human else "")
    if sheet.has_parts(result):
        out.append("\n")
        out.append_text(money_parts(result, rules, history or (), names, human, lang))
    out.append("\n" + tr("tui.deals_played", lang, n=result.deals) + "\n")
    if saved:
        out.append(tr("tui.saved", lang, path=saved) + "\n")
    out.rstrip()
    return out
