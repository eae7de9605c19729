"""The rules summary shown on ``?``: the variant in short and the table's options.

The essentials are filled in with this table's own values (its record, ремиз,
ante …), so the summary never contradicts the options in force.  When the
rules core provides the rule texts (``mushka.rules.texts``), they are shown
below the summary as well.
"""

from __future__ import annotations

import importlib
from typing import Final

from rich.text import Text

from mushka.i18n import add_texts, tr
from mushka.rules import Rules, options_for
from mushka.rules.options import format_value

_ESSENTIALS: Final[dict[str, tuple[str, ...]]] = {
    "classic": (
        "tui.rules.classic.1", "tui.rules.classic.2", "tui.rules.classic.3", "tui.rules.classic.4",
        "tui.rules.classic.5",
    ),
    "mistigri": (
        "tui.rules.mistigri.1", "tui.rules.mistigri.2", "tui.rules.mistigri.3", "tui.rules.classic.2",
        "tui.rules.classic.3", "tui.rules.classic.4",
    ),
    "kopilka": (
        "tui.rules.kopilka.1", "tui.rules.kopilka.2", "tui.rules.kopilka.3", "tui.rules.kopilka.4",
        "tui.rules.kopilka.5",
    ),
}

add_texts({
    "tui.rules.classic.1": (
        "{players} players, {deck} cards, 5 each; the next card is turned up and its suit is trump (C2, C5). "
        "A♠ is the mushka: it beats every plain card and may be played to any trick (C11-C12).",
        "Игроков: {players}, карт в колоде: {deck}, сдаётся по 5 каждому; следующая карта открывается, "
        "её масть — козырь (C2, C5). Туз пик — мушка: бьёт любую некозырную карту и может класться "
        "на любую взятку (C11-C12).",
    ),
    "tui.rules.classic.2": (
        "From the eldest to the dealer, each player passes or plays, exchanging up to {max_exchange} cards "
        "from the talon (C7-C8). The dealer may first take the turned-up card for one of his (C6).",
        "От старшей руки до сдающего каждый пасует или играет, прикупая до {max_exchange} карт (C7-C8). "
        "Сдающий может сперва взять открытую карту, сбросив одну свою (C6).",
    ),
    "tui.rules.classic.3": (
        "Follow suit; if you cannot, play a trump; otherwise anything (C14). The highest trump, else the "
        "highest card of the led suit takes the trick (C15).",
        "Ходят в масть; нет масти — бьют козырем; нет козыря — любая карта (C14). Взятку берёт старший "
        "козырь, иначе старшая карта масти хода (C15).",
    ),
    "tui.rules.classic.4": (
        "Records start at {initial_record}; each trick writes off {trick_value}; a player who stood and took "
        "no trick writes a ремиз of {remiz} (C16-C18). When a record reaches 0 the partie ends: the lowest "
        "record wins and takes from each other player his record × {stake} (C20-C21).",
        "Записи начинаются с {initial_record}; за взятку списывается {trick_value}; игравший без взяток пишет "
        "ремиз {remiz} (C16-C18). Когда чья-то запись дойдёт до 0, партия окончена: выигрывает меньшая "
        "запись и берёт с каждого его запись × {stake} (C20-C21).",
    ),
    "tui.rules.classic.5": (
        "Five cards of one suit after the deal or the exchange: {flush_effect}. Four of a suit and the A♠ as "
        "the fifth: {four_effect} (C21, C22).",
        "Пять карт одной масти после сдачи или прикупа: {flush_effect}. Четыре карты одной масти и туз пик "
        "пятым: {four_effect} (C21, C22).",
    ),
    # What a special hand does (C22), by the value of the options flush and privileged_four.
    "tui.effect.side_payment": (
        "shown, and every other player pays {pay} into a side account; the records stay, the deal goes on",
        "открываются, и каждый партнёр платит {pay} отдельно от записей; игра продолжается",
    ),
    "tui.effect.wins_mushka": (
        "shown, and they win the mushka at once: the deal stops and the partie is settled",
        "открываются и сразу выигрывают мушку: сдача останавливается, партия рассчитывается",
    ),
    "tui.effect.none": ("nothing special", "ничего особенного"),
    "tui.rules.mistigri.1": (
        "{players} players, {deck} cards, 5 each; the next card is turned up and its suit is trump. "
        "The privileged card is K♣; every suit ranks K Q J A 10 9 … (MI2-MI3).",
        "Игроков: {players}, карт в колоде: {deck}, сдаётся по 5 каждому; следующая карта открывается, "
        "её масть — козырь. "
        "Преимущественная карта — король треф; порядок в масти: К Д В Т 10 9 … (MI2-MI3).",
    ),
    "tui.rules.mistigri.2": (
        "Whoever gets K♣ may not pass and may not discard it (MI5, MI8). Holding it with no trick costs a "
        "ремиз of {privileged_remiz}; with a trick he writes off {privileged_bonus} more (MI6-MI7).",
        "Получивший короля треф не может пасовать и сбрасывать его (MI5, MI8). Без взяток он пишет ремиз "
        "{privileged_remiz}; со взяткой списывает ещё {privileged_bonus} (MI6-MI7).",
    ),
    "tui.rules.mistigri.3": (
        "Five of a suit after the deal or the exchange is paid {flush_payment} by every other player, "
        "in a side account (MI9-MI12); four of a suit and K♣ win the mushka (MI13).",
        "За пять карт одной масти после сдачи или прикупа каждый партнёр платит {flush_payment} отдельно "
        "от записей (MI9-MI12); четыре карты одной масти и король треф выигрывают мушку (MI13).",
    ),
    "tui.rules.kopilka.1": (
        "4 players, 32 cards, 5 each, no trumps; each pays {ante} into the pot; a session is {games} games "
        "(K1-K5). A♠ is the mushka and beats any trick (K9).",
        "4 игрока, 32 карты, по 5 каждому, без козырей; каждый вносит в кассу {ante}; игра из {games} "
        "сдач (K1-K5). Туз пик — мушка, он бьёт любую взятку (K9).",
    ),
    "tui.rules.kopilka.2": (
        "Three or more cards of a suit after the deal are laid face down; each other player takes one at "
        "random and then discards one (K6-K7, redistribution = {redistribution}).",
        "Три и более карты одной масти после сдачи кладутся крапом вверх; каждый партнёр берёт одну наугад "
        "и сбрасывает одну свою (K6-K7, redistribution = {redistribution}).",
    ),
    "tui.rules.kopilka.3": (
        "On a lead, play the led suit or the A♠, or draw from the talon when you have none, or pass; "
        "passing with the suit costs {remiz} (K11-K12, renege = {renege}).",
        "На ход кладут карту той же масти или туз пик, либо прикупают, если масти нет, либо пасуют; "
        "пас при масти стоит {remiz} (K11-K12, renege = {renege}).",
    ),
    "tui.rules.kopilka.4": (
        "One card on the lead makes a trick; if nobody covers it, the leader takes it back and the next "
        "player leads (K14-K15). The winner must lead another suit (K16).",
        "Одной карты на ход достаточно для взятки; если никто не дал карты, ходивший берёт её назад и ходит "
        "следующий (K14-K15). Взявший должен ходить с другой масти (K16).",
    ),
    "tui.rules.kopilka.5": (
        "The game ends when somebody has no cards (K18). Tricks are paid from the pot ({values}, double when "
        "the A♠ takes); no trick costs {remiz}; all but the one who went out pay {game_payment}; after game {games} "
        "(the last) the one who went out first in it takes the pot (K20-K23).",
        "Игра кончается, когда у кого-то не осталось карт (K18). Взятки оплачиваются из кассы ({values}, "
        "вдвойне, если взял туз пик); без взяток — ремиз {remiz}; все, кроме снёсшего карты, платят "
        "{game_payment}; после последней, {games}-й игры снёсший в ней карты первым берёт кассу (K20-K23).",
    ),
})


def _params(rules: Rules) -> dict[str, object]:
    values = " ".join(f"{'♠♣♦♥'[s]}{v}" for s, v in sorted(enumerate(rules.suit_values), key=lambda p: (-p[1], -p[0])))
    return {
        "players": rules.players, "deck": rules.deck_size, "max_exchange": rules.max_exchange,
        "initial_record": rules.initial_record, "trick_value": rules.trick_value, "remiz": rules.remiz,
        "stake": rules.stake, "flush": rules.flush, "privileged_remiz": rules.effective_privileged_remiz,
        "privileged_bonus": rules.privileged_bonus, "flush_payment": rules.flush_payment,
        "ante": rules.ante, "games": rules.session_games, "redistribution": rules.redistribution,
        "renege": rules.renege,
        "game_payment": rules.effective_game_payment, "values": values,
    }


def rules_summary(rules: Rules, lang: str) -> Text:
    """The variant in short (with this table's values), the rule texts when the
    rules core has them, and the table's options."""
    out = Text(tr("tui.rules_title", lang, title=rules.info.title(lang)) + "\n\n", style="bold")
    out.append(tr("tui.rules_essentials", lang) + "\n", style="bold underline")
    params = _params(rules)
    if rules.has_trumps:
        params["flush_effect"] = tr(f"tui.effect.{rules.flush}", lang, pay=rules.flush_payment)
        params["four_effect"] = tr(f"tui.effect.{rules.four_mode}", lang, pay=rules.flush_payment)
    for key in _ESSENTIALS[rules.variant]:
        out.append("• " + tr(key, lang, **params) + "\n")
    for title, entries in rule_texts(rules, lang):
        out.append("\n" + title + "\n", style="bold underline")
        for rule_id, text, changed in entries:
            out.append(f"{rule_id} ", style="bold")
            out.append(text, style="bold" if changed else "")
            if changed:
                out.append(f" ({tr('tui.changed', lang)})", style="dim")
            out.append("\n")
    out.append("\n" + tr("tui.rules_options", lang) + "\n", style="bold underline")
    for spec in options_for(rules.variant):
        value = format_value(spec.name, getattr(rules, spec.name))
        changed_opt = "" if rules.is_default(spec.name) else f" ({tr('tui.changed', lang)})"
        out.append(f"{spec.name} = {value}{changed_opt}", style="bold" if changed_opt else "")
        out.append(f"  {', '.join(spec.rules)}: {spec.help(lang)}\n", style="dim")
    out.rstrip()
    return out


RuleSection = tuple[str, list[tuple[str, str, bool]]]
"""A section title and its rules as ``(id, text, changed by an option)``."""


def rule_texts(rules: Rules, lang: str) -> list[RuleSection]:
    """The rules of the variant at this table, by section, from ``mushka.rules.texts``
    when the rules core has that module (its ``render_rules`` and ``section_title``);
    empty otherwise, and the summary then shows the essentials and the options only."""
    try:
        module = importlib.import_module("mushka.rules.texts")
    except ModuleNotFoundError as exc:
        if exc.name != "mushka.rules.texts":
            raise
        return []
    render_rules = getattr(module, "render_rules", None)
    section_title = getattr(module, "section_title", None)
    if not callable(render_rules) or not callable(section_title):
        return []
    sections: list[RuleSection] = []
    # The guarantees of §4 concern the program, not the table: they stay out of a player's summary.
    for rule in render_rules(rules, lang, guarantees=False):
        title = str(section_title(rule.section, lang))
        if not sections or sections[-1][0] != title:
            sections.append((title, []))
        sections[-1][1].append((str(rule.id), str(rule.text), bool(rule.changed)))
    return sections
