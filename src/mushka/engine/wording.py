"""How seats, counts and per-seat figures read in the engine's sentences.

An event's sentence names seats by the player's name when the caller knows
the names (the server, the terminal, a replay with its seats), and as
"seat 2" / "игрок 2" otherwise; never as a bare number or a ``2:+5`` dump.
A name does not decline, so the Russian sentences put a seat where the
nominative stands ("взятку берёт Анна", not "взятка — Анне").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from mushka.i18n import add_texts, tr

Names = Sequence[str | None] | None
"""The players' names by seat (``None``, or a ``None`` entry: no name known)."""

SEAT_FIELDS: Final = frozenset({"seat", "dealer", "leader", "taker", "owner", "next_leader", "winner"})
"""Event fields that hold a seat number (and read with the player's name)."""


def seat_name(seat: int, lang: str, names: Names = None) -> str:
    """The player's name, or "seat 2" ("игрок 2") when no name is known."""
    if names is not None and 0 <= seat < len(names):
        name = names[seat]
        if name:
            return name
    return tr("wording.seat", lang, seat=seat)


def seat_params(field: str, seat: int, lang: str, names: Names) -> dict[str, str]:
    """The template parameter of one seat field: ``{field: "Anna"}`` or ``{field: "seat 2"}``."""
    return {field: seat_name(seat, lang, names)}


def sentence(text: str, lang: str) -> str:
    """``text`` with a leading "seat 2" capitalised; a player's name is left as he wrote it."""
    if text.startswith(tr("wording.seat", lang, seat="")):
        return text[:1].upper() + text[1:]
    return text


def per_seat(values: Sequence[object], lang: str, names: Names = None, *,
             signed: bool = False, only: Sequence[bool] | None = None) -> str:
    """Figures by seat in words: "Anna +5, seat 1 −3" (``only`` picks the seats shown)."""
    parts = []
    for s, value in enumerate(values):
        if only is not None and not only[s]:
            continue
        shown = f"{value:+d}".replace("-", "−") if signed and isinstance(value, int) else str(value)
        parts.append(f"{seat_name(s, lang, names)} {shown}")
    return ", ".join(parts) if parts else "—"


def count_cards(count: int, lang: str) -> str:
    """"1 card", "3 cards"; in Russian the accusative after a verb: "1 карту", "3 карты", "5 карт"."""
    if lang == "ru":
        tens, units = count % 100, count % 10
        if units == 1 and tens != 11:
            word = "карту"
        elif 2 <= units <= 4 and not 12 <= tens <= 14:
            word = "карты"
        else:
            word = "карт"
        return f"{count} {word}"
    return f"{count} card" if count == 1 else f"{count} cards"


add_texts({
    "wording.seat": ("seat {seat}", "игрок {seat}"),
})
