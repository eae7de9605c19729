"""What the terminal shows, as Rich text built from the human's view.

Every function here is pure: a :class:`~mushka.match.GameView` (the human's),
the seat names and the language in, a :class:`rich.text.Text` out.  The
application (:mod:`mushka.tui.app`) only puts these into widgets, so what is
on the screen can be checked without a terminal.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from mushka.bots import BOTS, opponent_title
from mushka.cards import Card, Suit
from mushka.engine import DealResult, DealView, Event, Kind, Phase
from mushka.engine import events as ev
from mushka.i18n import tr
from mushka.match import GameResult, GameView
from mushka.rules import FlushMode, Rules
from mushka.tui import texts as _texts  # noqa: F401  (registers the catalogue)
from mushka.tui.moves import Mode, Selection, active_cards, hand_in_order, has_kind
from mushka.tui.table import HUMAN_NAME, PERSONAS

ACTIVE_STYLE = "bold"
"""Style of a card a key can use now (a legal move)."""
INACTIVE_STYLE = "dim"
"""Style of a card that cannot be used now (an illegal move)."""
CURSOR_STYLE = "reverse"
"""Style added to the card under the cursor."""
ERROR_STYLE = "bold red"
TURN_MARK = "▶"
CURSOR_MARK = "▲"
EXCHANGE_MARK = "⇄"
NAME_WIDTH = 15
SHORT_NAME = 13
LAST_NAME = 8
"""A player's name in the last-trick panel, two plays a line."""
DECL_WIDTH = 9
SLOT = 7


def card_style(card: Card) -> str:
    """Red for hearts and diamonds, the terminal's colour for spades and clubs."""
    return "red" if card.suit in (Suit.HEARTS, Suit.DIAMONDS) else ""


def card_text(card: Card, lang: str, extra: str = "") -> Text:
    """A card in display form (``К♣`` in Russian) in its suit's colour."""
    return Text(card.display(lang), style=" ".join(s for s in (extra, card_style(card)) if s))


def seat_name(names: Sequence[str], seat: int, human: int, lang: str) -> str:
    """``0 You`` / ``2 Mitya``: a seat's number and who plays it (a bot under a person's name)."""
    if seat == human:
        who = tr("tui.you", lang)
    elif names[seat].split(":", maxsplit=1)[0] in BOTS:
        personas = PERSONAS["ru" if lang == "ru" else "en"]
        who = personas[seat % len(personas)]
    else:
        who = names[seat]
    return f"{seat} {who}"


def _pad(text: str, width: int) -> str:
    return text[:width].ljust(width)


# --- the top line ------------------------------------------------------------------------


def title_line(view: GameView, lang: str, names: Sequence[str] = (), human: int = 0) -> Text:
    """Variant, players, the deal (or game) number and, given the seats' ``names``, the
    opponents' level (one level for all, or each bot's by its person's name)."""
    rules = view.deal.rules
    out = Text(rules.info.title(lang), style="bold")
    out.append(" · " + tr("tui.players", lang, n=rules.players))
    if rules.has_trumps:
        out.append(" · " + tr("tui.deal_no", lang, number=view.number))
    else:
        out.append(" · " + tr("tui.game_no", lang, number=view.number, games=view.games))
    bots = [(seat, name) for seat, name in enumerate(names) if seat != human]
    if bots:
        titles = {opponent_title(name, lang) for _, name in bots}
        if len(titles) == 1:
            who = titles.pop()
        else:
            personas = log_names(names, human, lang)
            who = ", ".join(f"{personas[seat] or name} {opponent_title(name, lang)}" for seat, name in bots)
        out.append(" · " + tr("tui.opponents", lang, who=who))
    return out


# --- the table ---------------------------------------------------------------------------


def _trick_actions(deal: DealView) -> dict[int, str]:
    """K11: who passed or drew (and kept the card) on the current kopilka trick."""
    out: dict[int, str] = {}
    for e in reversed(deal.events):
        if isinstance(e, (ev.TrickTaken, ev.TakenBack, ev.PlayStarted)):
            break
        if isinstance(e, ev.Passed):
            out.setdefault(e.seat, "tui.passed")
        elif isinstance(e, ev.Drew) and not e.played:
            out.setdefault(e.seat, "tui.drew")
    return out


def _declaration(deal: DealView, seat: int, lang: str) -> str:
    if not deal.declarations:
        return ""
    decl = deal.declarations[seat]
    if decl is None:
        return "…" if deal.phase is Phase.DECLARE else "—"
    if decl == "pass":
        return tr("tui.decl_pass", lang)
    count = deal.exchanged[seat] if deal.exchanged else 0
    return tr("tui.decl_stand_n", lang, n=count) if count > 0 else tr("tui.decl_stand", lang)


TAKES_MARK = "★"
"""Marks the card that took the trick just completed."""


def table_panel(view: GameView, names: Sequence[str], human: int, lang: str) -> Text:
    """One line per seat (turn, name, cards, declaration, tricks, card on the table)
    and a line with the dealer, the trump and the talon."""
    deal = view.deal
    rules = deal.rules
    on_table = dict(deal.trick)
    trick_notes = _trick_actions(deal) if not rules.has_trumps else {}
    # The trick just taken stays in its column, its winner marked, until the next lead:
    # the last card of a trick is never gone before the player could see it.
    taken = deal.tricks[-1] if not deal.trick and deal.tricks and deal.phase is Phase.PLAY else None
    if taken is not None:
        on_table = dict(taken.cards)
    leader = deal.trick[0][0] if deal.trick else (taken.cards[0][0] if taken is not None else None)
    middle = tr("tui.col_decl", lang) if rules.has_trumps else ""
    out = Text()
    header = (
        "  " + _pad(tr("tui.col_seat", lang), NAME_WIDTH) + " "
        + _pad(tr("tui.col_cards", lang), 5) + " " + _pad(middle, DECL_WIDTH) + " "
        + _pad(tr("tui.col_tricks", lang), 6) + " " + tr("tui.col_table", lang)
    )
    out.append(header + "\n", style="dim")
    for seat in range(rules.players):
        turn = deal.to_act == seat and deal.phase is not Phase.OVER
        name = seat_name(names, seat, human, lang)
        if seat == deal.dealer:
            name += tr("tui.dealer_tag", lang)
        style = "bold" if seat == human else ""
        out.append((TURN_MARK if turn else " ") + " ", style="bold yellow")
        out.append(_pad(name, NAME_WIDTH) + " ", style=style)
        out.append(_pad(str(deal.hand_sizes[seat]), 5) + " ")
        out.append(_pad(_declaration(deal, seat, lang), DECL_WIDTH) + " ")
        out.append(_pad(str(deal.tricks_won[seat]), 6) + " ")
        if seat in on_table:
            out.append_text(card_text(on_table[seat], lang, "dim" if taken is not None else "bold"))
            if seat == leader:
                out.append(" " + tr("tui.led", lang), style="dim")
            if taken is not None and seat == taken.winner:
                out.append(" " + TAKES_MARK + " " + tr("tui.takes", lang), style="bold yellow")
        elif seat in trick_notes:
            out.append(tr(trick_notes[seat], lang), style="dim")
        out.append("\n")
    out.append_text(info_line(view, lang))
    return out


def info_line(view: GameView, lang: str) -> Text:
    """The trump card (C5, also after the dealer took it, C6), the talon, the banned suit (K16)."""
    deal = view.deal
    out = Text()
    if deal.turnup is not None:
        out.append(tr("tui.trump", lang) + " ")
        out.append_text(card_text(deal.turnup, lang, "bold"))
        if deal.turnup_taken:
            out.append(" " + tr("tui.turnup_taken", lang), style="dim")
        out.append(" · ")
    out.append(tr("tui.talon", lang, n=deal.talon_size))
    if deal.banned_suit is not None and deal.phase is Phase.PLAY and not deal.trick:
        out.append(" · " + tr("tui.banned", lang, suit=deal.banned_suit.symbol))
    privileged = deal.rules.privileged
    out.append(" · " + tr("tui.privileged", lang) + " ")
    out.append_text(card_text(privileged, lang))
    return out


# --- the hand ------------------------------------------------------------------------------


def hand_panel(view: GameView, selection: Selection, lang: str) -> Text:
    """The human's hand in order, numbered for the keys; on his turn the cards a
    key can use are bright and the others dim; the cursor and exchange marks below."""
    deal = view.deal
    hand = hand_in_order(deal)
    mine = deal.is_my_turn
    active = active_cards(deal, selection.mode) if mine else set()
    out = Text(tr("tui.your_hand", lang) + "\n", style="bold")
    if not hand:
        out.append(tr("tui.no_cards", lang), style="dim")
        return out
    per_line = 7
    for start in range(0, len(hand), per_line):
        row = hand[start:start + per_line]
        marks = Text()
        for i, card in enumerate(row, start):
            label = f"{(i + 1) % 10}" if i < 10 else " "
            out.append(label + " ", style="dim")
            base = (ACTIVE_STYLE if card in active else INACTIVE_STYLE) if mine else ""
            extra = " ".join(s for s in (base, CURSOR_STYLE if i == selection.cursor else "") if s)
            shown = card.display(lang)
            out.append_text(card_text(card, lang, extra))
            out.append(" " * (SLOT - 2 - len(shown)))
            mark = (CURSOR_MARK if i == selection.cursor else " ") + (
                EXCHANGE_MARK if card in selection.marked else " ")
            marks.append("  " + mark + " " * (SLOT - 4), style="bold yellow")
        out.append("\n")
        out.append_text(marks)
        out.append("\n")
    out.rstrip()
    return out


# --- what to do --------------------------------------------------------------------------


def prompt_line(view: GameView, selection: Selection, names: Sequence[str], human: int,
                lang: str) -> Text:
    """One sentence: whose turn it is and, on the human's turn, what the keys do now."""
    deal = view.deal
    if view.is_over:
        return Text(tr("tui.prompt_over", lang), style="bold")
    if deal.to_act is None:
        return Text("")
    if not deal.is_my_turn:
        return Text(tr("tui.prompt_wait", lang, name=seat_name(names, deal.to_act, human, lang)),
                    style="italic")
    rules = deal.rules
    if selection.mode is Mode.TAKE:
        return Text(tr("tui.prompt_take", lang, card=deal.turnup.display(lang) if deal.turnup else "?"),
                    style="bold yellow")
    if deal.phase is Phase.DECLARE:
        limit = min(rules.max_exchange, deal.talon_size)
        parts = [tr("tui.prompt_declare", lang, limit=limit, marked=len(selection.marked))]
        if has_kind(deal, Kind.PASS):
            parts.append(tr("tui.prompt_can_pass", lang))
        if has_kind(deal, Kind.TAKE):
            parts.append(tr("tui.prompt_can_take", lang))
        return Text(" ".join(parts), style="bold yellow")
    if deal.phase is Phase.REDISTRIBUTE:
        return Text(tr("tui.prompt_discard", lang), style="bold yellow")
    if not deal.trick:
        key = "tui.prompt_lead"
    elif rules.has_trumps:
        key = "tui.prompt_follow"
    else:
        key = "tui.prompt_follow_kopilka"
    parts = [tr(key, lang)]
    if has_kind(deal, Kind.DRAW):
        parts.append(tr("tui.prompt_can_draw", lang))
    if deal.trick and has_kind(deal, Kind.PASS):
        parts.append(tr("tui.prompt_can_pass_trick", lang))
    return Text(" ".join(parts), style="bold yellow")


KEYS: tuple[tuple[str, str], ...] = (
    ("←→ 1-9", "tui.key_cards"),
    ("Space", "tui.key_mark"),
    ("Enter", "tui.key_confirm"),
    ("p", "tui.key_pass"),
    ("s", "tui.key_stand"),
    ("t", "tui.key_take"),
    ("d", "tui.key_draw"),
    ("f", "tui.key_fast"),
    (":", "tui.key_type"),
    ("Esc", "tui.key_cancel"),
    ("PgUp/Dn", "tui.key_log"),
    ("?", "tui.key_rules"),
    ("h", "tui.key_history"),
    ("q", "tui.key_quit"),
)
"""Every key of the game screen, with the catalogue key of what it does."""


def usable_keys(view: GameView, selection: Selection) -> set[str]:
    """The keys of :data:`KEYS` that do something now (the others are shown dim)."""
    keys = {"?", "h", "q", ":", "←→ 1-9", "PgUp/Dn"}
    deal = view.deal
    if view.is_over:
        return keys
    if not deal.is_my_turn:
        return keys | {"f"}
    keys.add("Enter")
    if selection.mode is Mode.TAKE or selection.marked:
        keys.add("Esc")
    if deal.phase is Phase.DECLARE:
        keys.update({"Space", "s"})
    if has_kind(deal, Kind.PASS):
        keys.add("p")
    if has_kind(deal, Kind.TAKE):
        keys.add("t")
    if has_kind(deal, Kind.DRAW):
        keys.add("d")
    return keys


NO_TRUMP_KEYS = frozenset({"Space", "s", "t"})
"""Keys of the declaration (C6, C7), which kopilka does not have (K5)."""
TRUMP_ONLY_NOT = frozenset({"d"})
"""Kopilka's draw (K11), which classic and mistigri do not have."""


def may_take(view: GameView) -> bool:
    """C6: whether the viewer may still take the turned-up card in this deal (the dealer, while
    the declarations last, at a table that allows it, before he has taken it)."""
    deal = view.deal
    return (deal.rules.has_trumps and deal.rules.dealer_takes_turnup and deal.seat == deal.dealer
            and deal.phase is Phase.DECLARE and not deal.turnup_taken and not view.is_over)


def key_bar(view: GameView, selection: Selection, lang: str) -> Text:
    """The keys of the game screen in this variant; those that do something now are bright.
    The take key is offered only to whoever may take (C6)."""
    usable = usable_keys(view, selection)
    absent = TRUMP_ONLY_NOT if view.deal.rules.has_trumps else NO_TRUMP_KEYS
    if "t" not in usable and not may_take(view):
        absent = absent | {"t"}
    out = Text()
    for i, (key, what) in enumerate(k for k in KEYS if k[0] not in absent):
        if i:
            out.append("  ")
        on = key in usable
        label = tr("tui.keyname_space", lang) if key == "Space" else key
        out.append(label, style="bold reverse" if on else "dim reverse")
        out.append(" " + tr(what, lang), style="" if on else "dim")
    return out


# --- the score sheet ---------------------------------------------------------------------


def has_side_account(rules: Rules) -> bool:
    """Whether flush side payments can happen (MI9, C22 with ``side_payment``)."""
    return rules.has_trumps and FlushMode.SIDE_PAYMENT in (rules.flush, rules.four_mode)


def score_panel(view: GameView, names: Sequence[str], human: int, lang: str) -> Text:
    """Classic and mistigri: each seat's record (запись, C16) and side account (MI9);
    kopilka: the pot and each seat's balance (K3, K24)."""
    rules = view.deal.rules
    out = Text()
    if rules.has_trumps:
        side = has_side_account(rules)
        head = _pad(tr("tui.col_seat", lang), SHORT_NAME) + " " + _pad(tr("tui.col_record", lang), 7)
        if side:
            head += " " + tr("tui.col_side", lang)
        out.append(tr("tui.score_title", lang) + "\n", style="bold")
        out.append(head + "\n", style="dim")
        for seat in range(rules.players):
            style = "bold" if seat == human else ""
            out.append(_pad(seat_name(names, seat, human, lang), SHORT_NAME) + " ", style=style)
            out.append(_pad(str(view.records[seat]), 7), style=style)
            if side:
                out.append(f" {view.side[seat]:+d}", style=style)
            out.append("\n")
    else:
        out.append(tr("tui.pot_title", lang, pot=view.pot) + "\n", style="bold")
        out.append(_pad(tr("tui.col_seat", lang), SHORT_NAME) + " " + tr("tui.col_balance", lang) + "\n",
                   style="dim")
        for seat in range(rules.players):
            style = "bold" if seat == human else ""
            out.append(_pad(seat_name(names, seat, human, lang), SHORT_NAME) + " ", style=style)
            out.append(f"{view.money[seat]:+d}\n", style=style)
    out.rstrip()
    return out


def last_trick_panel(view: GameView, names: Sequence[str], human: int, lang: str) -> Text:
    """The last completed trick of this deal (or the previous one): who played what, who took it."""
    deal = view.deal
    tricks = deal.tricks
    number = len(tricks)
    if not tricks and view.history:
        tricks = view.history[-1].trick_log
        number = len(tricks)
    out = Text(tr("tui.last_trick", lang) + "\n", style="bold")
    if not tricks:
        out.append(tr("tui.none_yet", lang), style="dim")
        return out
    last = tricks[-1]
    # Two plays a line, each under its player's name (the panel is 26 columns wide), so
    # that even seven players' trick fits in four lines; the winner's card is marked.
    for i, (seat, card) in enumerate(last.cards):
        out.append(" " if i % 2 else "")
        won = seat == last.winner
        out.append(_pad(seat_name(names, seat, human, lang), LAST_NAME) + " ", style="bold" if won else "")
        out.append_text(card_text(card, lang, "bold" if won else ""))
        out.append((TAKES_MARK if won else " ").ljust(4 - len(card.display(lang))))
        out.append("\n" if i % 2 else "")
    if len(last.cards) % 2:
        out.append("\n")
    text = tr("tui.trick_to", lang, number=number, name=seat_name(names, last.winner, human, lang))
    if last.value:
        text += " " + tr("tui.trick_worth", lang, value=last.value)
    out.append(text, style="dim")
    return out


# --- the log -------------------------------------------------------------------------------


def log_names(names: Sequence[str], human: int, lang: str) -> list[str | None]:
    """The names the log's sentences use: bots by their persons' names; the human seat by
    the name he gave (``--name``), else "Seat 0", since "You" would not agree with the
    sentences' verbs."""
    personas = PERSONAS["ru" if lang == "ru" else "en"]
    return [(None if name == HUMAN_NAME else name) if seat == human else
            personas[seat % len(personas)] if name.split(":", maxsplit=1)[0] in BOTS else name
            for seat, name in enumerate(names)]


def log_line(event: Event, lang: str, names: Sequence[str | None] | None = None) -> Text:
    """One event as the human saw it, in ``lang``; deal starts and the end stand out."""
    text = event.describe(lang, names)
    name = event.name
    if name in ("DealStarted", "GameEnded"):
        return Text(text, style="bold cyan")
    if name in ("DealEnded", "RecordsWritten", "MushkaWon", "Shown", "FlushPaid", "WentOut"):
        return Text(text, style="bold")
    return Text(text)


# --- summaries -----------------------------------------------------------------------------


def _result_note(result: DealResult, names: Sequence[str], human: int, lang: str) -> list[str]:
    notes = []
    if result.mushka is not None:
        rule = "MI13" if result.variant == "mistigri" else "C22"
        notes.append(tr("tui.note_mushka", lang, name=seat_name(names, result.mushka, human, lang), rule=rule))
    if result.all_passed:
        notes.append(tr("tui.note_all_passed", lang))
    if result.lone is not None:
        notes.append(tr("tui.note_lone", lang, name=seat_name(names, result.lone, human, lang)))
    if result.flush_seat is not None:
        # Five of a suit: C22 in classic, MI9 in mistigri; the amount is the side account's.
        amount = result.side[result.flush_seat] if result.side else 0
        notes.append(tr("tui.note_flush", lang, name=seat_name(names, result.flush_seat, human, lang),
                        amount=f"{amount:+d}", rule="MI9" if result.variant == "mistigri" else "C22"))
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
    after = records_after(rules, history) if rules.has_trumps else balances_after(rules, history)
    head = _pad("#", 3) + _pad(tr("tui.col_dealer", lang), 6) + "".join(_pad(str(s), 9) for s in range(n))
    out.append(head + "\n", style="dim")
    out.append(" " * 9 + tr("tui.history_cell", lang) + "\n", style="dim")
    for k, result in enumerate(history):
        row = _pad(str(k + 1), 3) + _pad(str(result.dealer), 6)
        for s in range(n):
            if rules.has_trumps and result.standing and not result.standing[s]:
                tricks = "–"
            else:
                tricks = str(result.tricks[s])
            value = f"{after[k][s]:+d}" if not rules.has_trumps else str(after[k][s])
            row += _pad(f"{tricks}/{value}", 9)
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
    if rules.has_trumps:
        head = _pad(tr("tui.col_seat", lang), NAME_WIDTH) + " " + _pad(tr("tui.col_side", lang), 8) \
            + _pad(tr("tui.col_settle", lang), 9) + tr("tui.col_money", lang)
        out.append(head + "\n", style="dim")
        for seat in range(rules.players):
            side = result.side[seat] if result.side else 0
            out.append(_pad(seat_name(names, seat, human, lang), NAME_WIDTH) + " " + _pad(f"{side:+d}", 8)
                       + _pad(f"{result.settlement[seat]:+d}", 9) + f"{result.money[seat]:+d}\n")
    else:
        head = _pad(tr("tui.col_seat", lang), NAME_WIDTH) + " " + _pad(tr("tui.col_ante", lang), 7) \
            + _pad(tr("tui.col_games", lang), 7) + _pad(tr("tui.col_pot", lang), 7) + tr("tui.col_money", lang)
        out.append(head + "\n", style="dim")
        for seat in range(rules.players):
            games = sum(r.money[seat] for r in history)
            pot = result.settlement[seat] if result.settlement else 0
            out.append(_pad(seat_name(names, seat, human, lang), NAME_WIDTH) + " " + _pad(f"{-rules.ante:+d}", 7)
                       + _pad(f"{games:+d}", 7) + _pad(f"{pot:+d}", 7) + f"{result.money[seat]:+d}\n")
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
    head = _pad(tr("tui.col_seat", lang), NAME_WIDTH) + " "
    if rules.has_trumps:
        head += _pad(tr("tui.col_record", lang), 8)
    head += tr("tui.col_money", lang)
    out.append(head + "\n", style="dim")
    for seat in range(rules.players):
        line = _pad(seat_name(names, seat, human, lang), NAME_WIDTH) + " "
        if rules.has_trumps and result.records:
            line += _pad(str(result.records[seat]), 8)
        line += f"{result.money[seat]:+d}"
        out.append(line + "\n", style="bold" if seat == human else "")
    if not rules.has_trumps or any(result.settlement):
        out.append("\n")
        out.append_text(money_parts(result, rules, history or (), names, human, lang))
    out.append("\n" + tr("tui.deals_played", lang, n=result.deals) + "\n")
    if saved:
        out.append(tr("tui.saved", lang, path=saved) + "\n")
    out.rstrip()
    return out
