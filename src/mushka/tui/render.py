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
from mushka.engine import DealView, Event, Kind, Phase
from mushka.engine import events as ev
from mushka.i18n import tr
from mushka.match import GameView
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
    # A session counts its games (K4: "game 1 of 4"); a partie, whose length no rule fixes, its deals.
    if view.games:
        out.append(" · " + tr("tui.game_no", lang, number=view.number, games=view.games))
    else:
        out.append(" · " + tr("tui.deal_no", lang, number=view.number))
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
    trick_notes = _trick_actions(deal)  # kopilka's passes and draws (K11); none elsewhere
    # The trick just taken stays in its column, its winner marked, until the next lead:
    # the last card of a trick is never gone before the player could see it.
    taken = deal.tricks[-1] if not deal.trick and deal.tricks and deal.phase is Phase.PLAY else None
    if taken is not None:
        on_table = dict(taken.cards)
    leader = deal.trick[0][0] if deal.trick else (taken.cards[0][0] if taken is not None else None)
    middle = tr("tui.col_decl", lang) if deal.declarations else ""  # kopilka declares nothing (K5)
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
