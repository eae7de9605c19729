"""The box shown when a deal is over: each seat's tricks, change and why, with the rules.

Classic and mistigri: the tricks written off (C17), the remiz (C18, MI6), the
privileged card's extra points (MI7), a pass (C19), the lone player (C10), the
five of a suit paid by every other player (C22 in classic, MI9 in mistigri,
with the amounts), the мушка (C22, MI13).  Kopilka: the tricks paid out of the
pot, the remiz, the game payment and anything else the game cost (K12, K22),
under the game's number as the header says it ("game 1 of 4").
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from mushka.engine import DealResult
from mushka.i18n import add_text_file, tr
from mushka.match import GameView
from mushka.rules import Rules
from mushka.rules.variants import find_variant
from mushka.tui.render import NAME_WIDTH, _pad, seat_name
from mushka.tui.sheets import _result_note, balances_after, records_after, sheet_of


def signed(amount: int) -> str:
    """An amount with its sign, the minus a typographic one as in the other columns' words."""
    return f"{amount:+d}".replace("-", "−")


def why_trumps(result: DealResult, rules: Rules, seat: int, names: Sequence[str], human: int,
               lang: str) -> str:
    """Why a seat's record (and side account) changed in a classic or mistigri deal, in words."""
    parts: list[str] = []
    mistigri = result.variant == "mistigri"
    standing = bool(result.standing) and result.standing[seat]
    if result.mushka is not None:
        key = "tui.why_mushka" if seat == result.mushka else "tui.why_stopped"
        parts.append(tr(key, lang, rule=find_variant(result.variant).mushka_rule))
    elif result.all_passed:
        parts.append(tr("tui.why_all_passed", lang))
    elif not standing:
        parts.append(tr("tui.why_passed", lang))
    else:
        if result.lone == seat:
            parts.append(tr("tui.why_lone", lang))
        tricks = result.tricks[seat]
        if tricks:
            parts.append(tr("tui.why_tricks", lang, n=tricks, points=tricks * rules.trick_value))
        remiz = result.remiz[seat] if result.remiz else 0
        if remiz:
            parts.append(tr("tui.why_remiz", lang, remiz=remiz, rule="MI6" if mistigri else "C18"))
        bonus = result.bonus[seat] if result.bonus else 0
        if bonus:
            parts.append(tr("tui.why_bonus", lang, bonus=abs(bonus), card=rules.privileged.display(lang)))
    side = result.side[seat] if result.side else 0
    if side and result.flush_seat is not None:
        rule = find_variant(result.variant).flush_rule
        if seat == result.flush_seat:
            each = side // max(1, rules.players - 1)
            parts.append(tr("tui.why_flush_paid", lang, amount=signed(side), each=each, rule=rule))
        else:
            holder = seat_name(names, result.flush_seat, human, lang)
            parts.append(tr("tui.why_flush_pays", lang, amount=-side, name=holder, rule=rule))
    return "; ".join(parts)


def why_kopilka(result: DealResult, rules: Rules, seat: int, lang: str) -> str:
    """Why a seat's balance changed in a kopilka game: tricks, remiz, game payment, the rest (K12, K22)."""
    parts: list[str] = []
    paid = sum(t.value for t in result.trick_log if t.winner == seat)
    if paid:
        parts.append(tr("tui.why_k_tricks", lang, n=result.tricks[seat], amount=paid))
    remiz = result.remiz[seat] if result.remiz else 0
    if remiz:
        parts.append(tr("tui.why_k_remiz", lang, amount=remiz))
    payment = 0
    if result.out == seat and not result.deadlock:
        parts.append(tr("tui.why_k_out", lang))
    else:
        payment = rules.effective_game_payment
        parts.append(tr("tui.why_k_payment", lang, amount=payment))
    # What the parts above do not explain: penalty passes (K12), or a trick's payment
    # cut because the pot ran short (K22): said as one amount, never folded into another.
    rest = result.money[seat] - (paid - remiz - payment)
    if rest:
        parts.append(tr("tui.why_k_rest", lang, amount=signed(rest)))
    return "; ".join(parts) + (" (K12, K22)" if rest else " (K22)")


def deal_summary(view: GameView, number: int, names: Sequence[str], human: int, lang: str) -> Text:
    """The box shown when deal ``number`` is over (in kopilka: game ``number`` of the session)."""
    rules = view.deal.rules
    result = view.history[number - 1]
    dealer = seat_name(names, result.dealer, human, lang)
    if rules.has_trumps:
        title = tr("tui.deal_over", lang, number=number, dealer=dealer)
    else:
        title = tr("tui.game_over_no", lang, number=number, games=view.games or rules.session_games, dealer=dealer)
    out = Text(title + "\n\n", style="bold")
    last = tr(sheet_of(rules).money_column, lang)
    out.append(_pad(tr("tui.col_seat", lang), NAME_WIDTH) + " " + _pad(tr("tui.col_tricks", lang), 7)
               + _pad(tr("tui.col_change", lang), 7) + _pad(last, 8) + tr("tui.col_why", lang) + "\n", style="dim")
    if rules.has_trumps:
        after = records_after(rules, view.history[:number])[-1]
        for seat in range(rules.players):
            standing = bool(result.standing) and result.standing[seat]
            if standing:
                tricks = str(result.tricks[seat])
            elif result.mushka is not None:
                tricks = tr("tui.not_declared", lang)  # C22/MI13: stopped before he declared
            else:
                tricks = tr("tui.decl_pass", lang)
            delta = result.record_delta[seat] if result.record_delta else 0
            change = f"{delta:+d}" if standing and result.mushka is None else "—"
            why = why_trumps(result, rules, seat, names, human, lang)
            out.append(_pad(seat_name(names, seat, human, lang), NAME_WIDTH) + " " + _pad(tricks, 7)
                       + _pad(change, 7) + _pad(str(after[seat]), 8) + why + "\n",
                       style="bold" if seat == human else "")
    else:
        balance = balances_after(rules, view.history[:number])[-1]
        for seat in range(rules.players):
            out.append(_pad(seat_name(names, seat, human, lang), NAME_WIDTH) + " "
                       + _pad(str(result.tricks[seat]), 7) + _pad(f"{result.money[seat]:+d}", 7)
                       + _pad(f"{balance[seat]:+d}", 8) + why_kopilka(result, rules, seat, lang) + "\n",
                       style="bold" if seat == human else "")
        out.append(tr("tui.pot_now", lang, pot=result.pot) + "\n")
    for note in _result_note(result, names, human, lang):
        out.append("• " + note + "\n")
    out.rstrip()
    return out


add_text_file("mushka.tui", "dealend.toml")
