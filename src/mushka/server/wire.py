"""Engine values in their wire form: events, their sentences, and the text of names.

Only already-redacted values come here: the table calls
:meth:`~mushka.engine.Event.seen_by` first, so this module cannot leak
anything by itself; it only turns cards into codes (``KC``), suits into
letters and tuples into lists.

:class:`EventWriter` turns the events of one change into the JSON each
receiver gets, doing each piece of work once: an event is redacted once per
seat, rendered once per distinct redaction and language, and serialised
once.  Sentences name seats by their players' names where the table has
them ("Anna plays K♣"), as the page shows them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import fields
from typing import Any, Final

from mushka.cards import Card, Suit
from mushka.engine import DealResult, Event
from mushka.match import DealStarted, Game
from mushka.server.protocol import EventOut

_FIELDS: dict[type, tuple[str, ...]] = {}


def field_names(event: Event) -> tuple[str, ...]:
    """The fields of an event's class (looked up once per class)."""
    kind = type(event)
    names = _FIELDS.get(kind)
    if names is None:
        names = _FIELDS[kind] = tuple(f.name for f in fields(event))
    return names


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


def event_data(event: Event) -> dict[str, Any]:
    """The fields of an (already redacted) event in their wire form."""
    return {name: plain(getattr(event, name)) for name in field_names(event)}


def describe(event: Event, lang: str, names: Sequence[str | None] | None = None) -> str:
    """The event's sentence in ``lang``, with the players' names if given."""
    return event.describe(lang, names)


def event_out(event: Event, lang: str, names: Sequence[str | None] | None = None) -> EventOut:
    """An event (already seen by its receiver) as sent on the wire."""
    return EventOut(event=event.name, data=event_data(event), text=describe(event, lang, names))


def dumps(value: object) -> str:
    """Compact JSON text, UTF-8 as it is (Cyrillic and card symbols unescaped)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class EventWriter:
    """The events of one change as JSON for each (audience, language) that wants them."""

    def __init__(self, events: Sequence[Event], names: dict[str, list[str | None]]) -> None:
        """``names`` gives the players' names per language (empty: seats by number)."""
        self.events = events
        self.names = names
        self._public = [e.seen_by(None) for e in events]
        self._pieces: dict[tuple[int, str], str] = {}
        self._seen: dict[int | None, list[Event]] = {None: self._public}

    def _for(self, audience: int | None) -> list[Event]:
        seen = self._seen.get(audience)
        if seen is None:
            seen = []
            for event, public in zip(self.events, self._public, strict=True):
                own = event.seen_by(audience)
                # The common case: the seat sees what everybody sees; share its JSON.
                seen.append(public if own is public or own == public else own)
            self._seen[audience] = seen
        return seen

    def _piece(self, event: Event, lang: str) -> str:
        key = (id(event), lang)
        piece = self._pieces.get(key)
        if piece is None:
            text = describe(event, lang, self.names.get(lang))
            piece = self._pieces[key] = dumps({"event": event.name, "data": event_data(event), "text": text})
        return piece

    def json(self, audience: int | None, lang: str) -> str:
        """The JSON list of the events as ``audience`` saw them, sentences in ``lang``."""
        return "[" + ",".join(self._piece(e, lang) for e in self._for(audience)) + "]"


def opening_events(game: Game) -> list[Event]:
    """Every event of a game that has just begun, unredacted, in the order they happened:
    each ``DealStarted`` followed by what its deal did at once (the deal, the turned
    card, kopilka's redistribution, a special hand shown)."""
    deals = game.deals
    out: list[Event] = []
    for event in game.game_events():
        out.append(event)
        if isinstance(event, DealStarted):
            out.extend(deals[event.number - 1].events(omniscient=True))
    return out


def clean_name(name: str | None) -> str | None:
    """A person's or table's name without control characters and extra spaces; empty is None."""
    if name is None:
        return None
    printable = "".join(ch if ch.isprintable() else " " for ch in name)
    cleaned = " ".join(printable.split())
    return cleaned or None



MAX_DEPTH: Final = 16
"""P1: the deepest nesting of arrays and objects a client's JSON may have (the protocol's
deepest is three: a table's options inside a request)."""


class JsonRefused(ValueError):
    """JSON text the server does not read: ``kind`` is ``syntax``, ``deep`` or ``duplicate``
    (then ``key`` is the key given twice)."""

    def __init__(self, kind: str, key: str = "") -> None:
        """A refusal of ``kind``."""
        super().__init__(kind)
        self.kind = kind
        self.key = key


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            # Two values for one field: which one a reader takes differs between readers,
            # so the message means nothing certain and is refused (P2).
            raise JsonRefused("duplicate", key[:32])
        out[key] = value
    return out


def _too_deep(text: str | bytes, limit: int) -> bool:
    """Whether brackets outside strings nest deeper than ``limit`` (checked before parsing,
    so that a deeply nested text costs one scan, not the parser's recursion)."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if data.count(b"[") + data.count(b"{") <= limit:
        return False  # the common case, at C speed: too few brackets to nest that deep
    depth = 0
    in_string = escaped = False
    for byte in data:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > limit:
                return True
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return False


def strict_loads(text: str | bytes, *, max_depth: int = MAX_DEPTH) -> Any:
    """JSON text as Python values, refusing what a strict reader must (:class:`JsonRefused`):
    text that is not JSON or not UTF-8, nesting deeper than ``max_depth``, and an object
    with the same key twice."""
    if _too_deep(text, max_depth):
        raise JsonRefused("deep")
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates)
    except JsonRefused:
        raise
    except (ValueError, RecursionError):  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise JsonRefused("syntax") from None
