"""Engine values in their wire form: events, views and the text of table names.

Only already-redacted values come here: the table calls
:meth:`~mushka.engine.Event.seen_by` and ``view(seat)`` first, so this
module cannot leak anything by itself; it only turns cards into codes
(``KC``), suits into letters and tuples into lists.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from mushka.cards import Card, Suit
from mushka.engine import DealResult, Event
from mushka.server.protocol import EventOut


def plain(value: object) -> Any:
    """A JSON-ready form of an event field."""
    if isinstance(value, Suit):  # before int: a suit is an IntEnum
        return value.letter
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, Card):
        return value.code
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    if isinstance(value, DealResult):
        return value.to_json()
    to_json = getattr(value, "to_json", None)
    if callable(to_json):
        return to_json()
    return str(value)


def event_out(event: Event, lang: str) -> EventOut:
    """An event (already seen by its receiver) as sent on the wire."""
    data = {f.name: plain(getattr(event, f.name)) for f in fields(event)}
    return EventOut(event=event.name, data=data, text=event.describe(lang))


def clean_name(name: str | None) -> str | None:
    """A person's or table's name without control characters and extra spaces; empty is None."""
    if name is None:
        return None
    printable = "".join(ch if ch.isprintable() else " " for ch in name)
    cleaned = " ".join(printable.split())
    return cleaned or None
