"""The game-record format (JSON, schema-versioned) and its replay.

A record holds everything needed to rebuild a game exactly (STYLE 6): the
variant, the players, every option (explicitly, so that later changes of a
default cannot change an old game), the seats, the first dealer and, per deal,
the stacked deck (N4), the chance picks of kopilka (K7) and every action in
the text notation of :mod:`mushka.engine.actions`.  See ``docs/records.md``.

:func:`replay` rebuilds the game (or the single deal) from a record, checking
every action; a broken record raises :class:`~mushka.errors.RecordError`
naming the deal, the action and the rule, and returns nothing half-built.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal, TypeVar

import mushka.records.texts  # noqa: F401  (the record's messages, in English and Russian)
from mushka._pickle import FrozenValue
from mushka.cards import Card, parse_cards
from mushka.engine import Action, Deal, new_deal, unstack_deck
from mushka.errors import MushkaError, RecordError
from mushka.i18n import LocalText
from mushka.match import Game, new_game
from mushka.rules.model import Rules
from mushka.rules.variants import find_variant

FORMAT: Final = "mushka-record"
VERSION: Final = 1
"""The current record version; readers refuse newer versions."""

MAX_RECORD_BYTES: Final = 16 * 1024 * 1024
"""The largest record text :meth:`Record.loads` reads (16 MiB).  A partie of three
played at random to the largest ``initial_record`` (1000, no special hands) lasts some
1,250 deals and writes about 1 MB; a reader that accepted any size could be made to
hold or print gigabytes."""

MAX_SEAT_NAME: Final = 64
"""The longest name of a seat, in characters: room for any player's or bot's name,
while a replay that prints a name in every sentence stays small."""

MAX_TEXT: Final = 256
"""The longest variant name, option name or value, or action text of a record, in characters
(the longest real one has a few dozen): an error that quotes a field stays a sentence."""

MAX_CARDS_TEXT: Final = 1024
"""The longest ``deck`` or ``picks`` text: 52 cards in any form of N2 with separators fit in a
few hundred characters."""

Level = Literal["game", "deal"]
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class DealRecord(FrozenValue):
    """One deal of a record: dealer, stacked deck, chance picks, actions."""

    dealer: int
    deck: tuple[Card, ...]
    actions: tuple[Action, ...]
    picks: tuple[Card, ...] = ()
    state: Mapping[str, Any] = field(default_factory=dict)
    """The money a kopilka deal started from (``pot``, ``balances``), kept in a
    record of one deal taken out of a session; empty when it starts like game 1
    (K24) and in classic and mistigri."""

    def to_json(self) -> dict[str, object]:
        """The JSON form: cards and actions as text."""
        out: dict[str, object] = {
            "dealer": self.dealer,
            "deck": " ".join(c.code for c in self.deck),
            "actions": [str(a) for a in self.actions],
        }
        if self.picks:
            out["picks"] = " ".join(c.code for c in self.picks)
        if self.state:
            out["state"] = dict(self.state)
        return out


@dataclass(frozen=True, slots=True)
class Record(FrozenValue):
    """A game (partie or kopilka session) or a single deal, replayable."""

    variant: str
    players: int
    options: Mapping[str, str]
    deals: tuple[DealRecord, ...]
    level: Level = "game"
    first_dealer: int = 0
    seats: tuple[str, ...] = ()
    result: Mapping[str, Any] | None = None
    meta: Mapping[str, Any] = field(default_factory=dict)

    def rules(self) -> Rules:
        """The record's rules (raises :class:`RecordError` if they are invalid)."""
        try:
            return Rules.make(self.variant, self.players, **dict(self.options))
        except MushkaError as exc:
            # The rule the options break (C1 players, C18 remiz, ...) stays with the error.
            raise RecordError("record_syntax", rule=exc.rule, problem=exc) from None

    def to_json(self) -> dict[str, object]:
        """The JSON object of the record."""
        out: dict[str, object] = {
            "format": FORMAT,
            "version": VERSION,
            "variant": self.variant,
            "players": self.players,
            "options": dict(self.options),
            "level": self.level,
            "first_dealer": self.first_dealer,
            "seats": list(self.seats),
            "deals": [d.to_json() for d in self.deals],
        }
        if self.result is not None:
            out["result"] = dict(self.result)
        if self.meta:
            out["meta"] = dict(self.meta)
        return out

    def dumps(self, *, indent: int | None = 1) -> str:
        """The record as JSON text."""
        return json.dumps(self.to_json(), ensure_ascii=False, indent=indent)

    @classmethod
    def loads(cls, text: object) -> Record:
        """Read a record from JSON text, or from bytes in UTF-8 (see :meth:`from_json`);
        text longer than :data:`MAX_RECORD_BYTES` is refused before it is parsed."""
        # ``object``: anything else gets the named error (compiled, ``str | bytes`` would
        # refuse it with a bare TypeError).
        if not isinstance(text, (str, bytes, bytearray)):
            raise RecordError("record_syntax", problem=LocalText("rec.not_text", kind=type(text).__name__))
        # A character takes one to four bytes in UTF-8: only text near the limit is encoded
        # to be measured in bytes, as a file of it would be.
        size = len(text)
        if isinstance(text, str) and MAX_RECORD_BYTES // 4 < size <= MAX_RECORD_BYTES:
            size = len(text.encode("utf-8", "surrogatepass"))
        if size > MAX_RECORD_BYTES:
            raise RecordError("record_syntax", problem=LocalText("rec.too_large", limit=MAX_RECORD_BYTES))
        try:
            data = json.loads(text)
        except UnicodeDecodeError as exc:
            raise RecordError("record_syntax", problem=LocalText(
                "rec.not_utf8", position=exc.start)) from None
        except json.JSONDecodeError as exc:
            raise RecordError("record_syntax", problem=LocalText("rec.not_json", detail=str(exc))) from None
        except RecursionError:
            raise RecordError("record_syntax", problem=LocalText("rec.too_deep")) from None
        return cls.from_json(data)

    @classmethod
    def from_json(cls, data: object) -> Record:
        """Read and validate a record object; raises :class:`RecordError`."""
        if not isinstance(data, dict):
            raise RecordError("record_syntax", problem=LocalText("rec.object"))
        if data.get("format") != FORMAT:
            raise RecordError("record_syntax", problem=LocalText("rec.format", format=FORMAT))
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise RecordError("record_syntax", problem=LocalText("rec.version_type"))
        if version > VERSION or version < 1:
            raise RecordError("record_syntax",
                              problem=LocalText("rec.version", version=version, known=VERSION))
        variant = _get(data, "variant", str)
        try:
            _check_length("variant", variant, MAX_TEXT)
            variant = find_variant(variant).name
        except MushkaError as exc:
            raise RecordError("record_syntax", rule=exc.rule, problem=exc) from None
        players = _get(data, "players", int)
        options = data.get("options", {})
        if not isinstance(options, dict) or not all(
            isinstance(k, str) and isinstance(v, (str, int, bool)) for k, v in options.items()
        ):
            raise RecordError("record_syntax", problem=LocalText("rec.options"))
        try:
            for name, value in options.items():
                _check_length(f"options.{name}", name, MAX_TEXT)
                _check_length(f"options.{name}", str(value), MAX_TEXT)
        except MushkaError as exc:
            raise RecordError("record_syntax", problem=exc) from None
        level = data.get("level", "game")
        if level not in ("game", "deal"):
            raise RecordError("record_syntax", problem=LocalText("rec.level"))
        first_dealer = data.get("first_dealer", 0)
        if not isinstance(first_dealer, int) or isinstance(first_dealer, bool):
            raise RecordError("record_syntax", problem=LocalText("rec.first_dealer"))
        seats = data.get("seats", [])
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise RecordError("record_syntax", problem=LocalText("rec.seats"))
        if len(seats) > players:
            raise RecordError("record_syntax", problem=LocalText("rec.seats_count", seats=len(seats),
                                                                 players=players))
        for seat, name in enumerate(seats):
            if len(name) > MAX_SEAT_NAME:
                raise RecordError("record_syntax", problem=LocalText(
                    "rec.seat_name", seat=seat, length=len(name), limit=MAX_SEAT_NAME))
        raw_deals = data.get("deals")
        if not isinstance(raw_deals, list) or not raw_deals:
            raise RecordError("record_syntax", problem=LocalText("rec.deals"))
        deals = tuple(_deal_from_json(i, d) for i, d in enumerate(raw_deals, 1))
        result = data.get("result")
        if result is not None and not isinstance(result, dict):
            raise RecordError("record_syntax", problem=LocalText("rec.result"))
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise RecordError("record_syntax", problem=LocalText("rec.meta"))
        if "max_deals" in meta:
            limit = meta["max_deals"]
            if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
                raise RecordError("record_syntax", problem=LocalText("rec.max_deals", value=repr(limit)[:32]))
        if level == "game":
            for number, deal in enumerate(deals, 1):
                if deal.state:
                    # A game carries the money from deal to deal itself (K24); a starting
                    # state belongs to a record of one deal only.
                    raise RecordError("record_syntax", rule="K24",
                                      problem=LocalText("rec.state_in_game", deal=number))
        return cls(
            variant=variant, players=players,
            options={k: _option_text(v) for k, v in options.items()},
            deals=deals, level=level, first_dealer=first_dealer, seats=tuple(seats),
            result=result, meta=meta,
        )


def _option_text(value: str | int | bool) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _get(data: Mapping[str, object], key: str, kind: type) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError("record_syntax", problem=LocalText("rec.field", field=key, kind=kind.__name__))
    return value


def _deal_from_json(number: int, data: object) -> DealRecord:
    if not isinstance(data, dict):
        raise RecordError("record_syntax", problem=LocalText("rec.deal_object", deal=number))
    dealer = data.get("dealer")
    if not isinstance(dealer, int) or isinstance(dealer, bool):
        raise RecordError("record_syntax", problem=LocalText("rec.deal_dealer", deal=number))
    try:
        deck = _cards(data.get("deck"), "deck")
        picks = _cards(data.get("picks", ""), "picks")
    except MushkaError as exc:
        # N2: a card code that cannot be read; the parser names the rule.
        raise RecordError("record_syntax", rule=exc.rule,
                          problem=LocalText("record.in_deal", deal=number, problem=exc)) from None
    state = _state(number, data.get("state", {}))
    raw = data.get("actions", [])
    if isinstance(raw, str):
        raw = [a.strip() for a in raw.split(";") if a.strip()]
    if not isinstance(raw, list):
        raise RecordError("record_syntax", problem=LocalText("rec.deal_actions", deal=number))
    actions = []
    for i, text in enumerate(raw, 1):
        if isinstance(text, str) and len(text) > MAX_TEXT:
            # N2: no action is that long; the message quotes its start only.
            raise RecordError("record_action", rule="N2", deal=number, index=i, action=_clip(text),
                              problem=LocalText("rec.action_too_long", length=len(text), limit=MAX_TEXT))
        try:
            # A non-text entry is refused by the parser too, under the notation's rule (N2).
            actions.append(Action.parse(text))
        except MushkaError as exc:
            raise RecordError("record_action", rule=exc.rule, deal=number, index=i,
                              action=text if isinstance(text, str) else repr(text)[:40],
                              problem=exc) from None
    return DealRecord(dealer=dealer, deck=deck, actions=tuple(actions), picks=picks, state=state)


def _state(number: int, value: object) -> dict[str, Any]:
    """K24: a kopilka deal's starting money: a whole-number pot and balances."""
    if not isinstance(value, dict) or set(value) - {"pot", "balances"}:
        raise RecordError("record_syntax", rule="K24", problem=LocalText("rec.state_keys", deal=number))
    if not value:
        return {}
    pot = value.get("pot")
    balances = value.get("balances")
    if (not isinstance(pot, int) or isinstance(pot, bool) or not isinstance(balances, list)
            or not all(isinstance(b, int) and not isinstance(b, bool) for b in balances)):
        raise RecordError("record_syntax", rule="K24",
                          problem=LocalText("rec.state_values", deal=number))
    if pot + sum(balances) != 0:
        raise RecordError("record_syntax", rule="K24",
                          problem=LocalText("rec.state_sum", deal=number))
    return {"pot": pot, "balances": list(balances)}


def _cards(value: object, field: str) -> tuple[Card, ...]:
    if isinstance(value, list):
        value = " ".join(str(v) for v in value)
    if not isinstance(value, str):
        raise RecordError("record_syntax", problem=LocalText("rec.cards"))
    _check_length(field, value, MAX_CARDS_TEXT)
    return parse_cards(value)


def _check_length(field: str, text: str, limit: int) -> None:
    """Refuse a text field longer than ``limit``, naming it by its start only (a message that
    echoed a megabyte would be no message)."""
    if len(text) > limit:
        raise MushkaError("record_field_too_long", field=_clip(field), length=len(text), limit=limit)


def _clip(text: str, keep: int = 40) -> str:
    return text if len(text) <= keep else text[:keep] + "…"


# --- building records ----------------------------------------------------------


def record_of_deal(deal: Deal, *, seats: Sequence[str] = (), meta: Mapping[str, Any] | None = None) -> Record:
    """A record of one deal (finished or not)."""
    names, extra = _names(seats, deal.rules.players), _meta(meta)
    result = deal.result
    return Record(
        variant=deal.rules.variant, players=deal.rules.players,
        options=deal.rules.options_text(), level="deal", first_dealer=deal.dealer,
        seats=names, deals=(_deal_record(deal, alone=True),),
        result=None if result is None else {"deals": [result.to_json()]},
        meta=extra,
    )


def record_of_game(game: Game, *, seats: Sequence[str] = (), meta: Mapping[str, Any] | None = None) -> Record:
    """A record of a partie or session (finished or in progress)."""
    names, extra = _names(seats, game.rules.players), _meta(meta)
    deals = tuple(_deal_record(d) for d in game.deals)
    result = None
    if game.result is not None:
        result = {
            "game": game.result.to_json(),
            "deals": [d.result.to_json() for d in game.finished if d.result is not None],
        }
    limit = getattr(game, "max_deals", None)
    if isinstance(limit, int):
        # Not a rule but part of how this partie ended (GameResult.truncated):
        # replay needs it to stop where the game stopped.
        extra.setdefault("max_deals", limit)
    return Record(
        variant=game.rules.variant, players=game.rules.players, options=game.rules.options_text(),
        level="game", first_dealer=game.first_dealer, seats=names, deals=deals,
        result=result, meta=extra,
    )


def _names(seats: object, players: int) -> tuple[str, ...]:
    """The seats' names a record is written with, refused as a read record's would be (a
    list of at most ``players`` names: not one string read letter by letter, not numbers)."""
    if not isinstance(seats, (list, tuple)) or not all(isinstance(s, str) for s in seats):
        raise RecordError("record_syntax", problem=LocalText("rec.seats"))
    if len(seats) > players:
        raise RecordError("record_syntax", problem=LocalText("rec.seats_count", seats=len(seats), players=players))
    return tuple(seats)


def _meta(meta: object) -> dict[str, Any]:
    """A new copy of the meta data a record is written with: a mapping, or ``None`` for none."""
    if meta is None:
        return {}
    if not isinstance(meta, Mapping):
        raise RecordError("record_syntax", problem=LocalText("rec.meta"))
    return dict(meta)


def _deal_record(deal: Deal, *, alone: bool = False) -> DealRecord:
    state: dict[str, Any] = {}
    if alone:
        # K24: a deal of a session replays on its own only with the money it started from.
        start = deal.initial_state
        if start and start != new_deal(deal.rules, deal.dealer, deck=deal.deck, picks=deal.picks).initial_state:
            state = start
    return DealRecord(dealer=deal.dealer, deck=deal.deck, actions=deal.actions, picks=deal.picks,
                      state=state)


# --- replay -------------------------------------------------------------------------


def replay(record: Record) -> Game | Deal:
    """Rebuild the game (or deal) of ``record``, checking every action.

    Returns a :class:`~mushka.match.Game` for game records and a
    :class:`~mushka.engine.Deal` for deal records.  Raises
    :class:`RecordError` naming the deal, the action and the rule.
    """
    rules = record.rules()
    for number, d in enumerate(record.deals, 1):
        _check_deck(rules, d, number)
    if record.level == "deal":
        if len(record.deals) != 1:
            raise RecordError("record_syntax", problem=LocalText("rec.one_deal"))
        d = record.deals[0]
        if not 0 <= record.first_dealer < rules.players:
            # C4/K4 as in a game record: the field names a seat even where it is not used.
            rule = rules.info.dealer_rule
            raise RecordError("record_deal", rule=rule, deal=1, problem=MushkaError(
                "bad_seat", rule=rule, seat=record.first_dealer, players=rules.players))
        if d.state and (rules.has_trumps or len(d.state["balances"]) != rules.players):
            raise RecordError("record_syntax", rule="K24",
                              problem=LocalText("rec.state_seats"))
        deal = _make(lambda: new_deal(rules, d.dealer, deck=d.deck, picks=d.picks, **d.state), 1)
        _apply_all(deal, d, 1)
        _check_picks(deal, d, 1)
        _check_result(record, [deal], None)
        return deal
    limit = record.meta.get("max_deals")
    extra: dict[str, Any] = {}
    if limit is not None:
        if not rules.has_trumps:
            raise RecordError("record_syntax", problem=LocalText("rec.max_deals_kopilka"))
        extra["max_deals"] = limit  # the safety limit the partie was played with (checked when read)
    # rng=0: a record that lacks some chance outcomes still replays the same way
    # every time, and _check_picks then reports it (N4).
    game = _make(lambda: new_game(
        rules, first_dealer=record.first_dealer, rng=0,
        decks=[d.deck for d in record.deals], picks=[d.picks for d in record.deals], **extra), 1)
    for number, d in enumerate(record.deals, 1):
        # Every deal of the game so far, the current one last: a deal that
        # ended as it was dealt (C22, MI13) is listed with no actions.
        deals = game.deals
        if number > len(deals):
            raise RecordError("record_syntax",
                              problem=LocalText("rec.after_end", deal=number))
        deal = deals[number - 1]
        if deal.dealer != d.dealer:
            raise RecordError("record_syntax", rule="C4",
                              problem=LocalText("rec.dealer", deal=number, listed=d.dealer, actual=deal.dealer))
        _apply_all(game, d, number)
        if number < len(record.deals) and not deal.is_over:
            raise RecordError("record_syntax",
                              problem=LocalText("rec.unfinished", deal=number))
        _check_picks(deal, d, number)
    _check_result(record, game.finished, game)
    return game


def _check_deck(rules: Rules, d: DealRecord, number: int) -> None:
    """N4: every deck is checked before anything is played, so that a bad deck
    is reported against its own deal, not against the action before it."""
    try:
        unstack_deck(rules, d.deck, d.dealer)
    except MushkaError as exc:
        raise RecordError("record_deal", rule=exc.rule, deal=number, problem=exc) from None


def _check_picks(deal: Deal, d: DealRecord, number: int) -> None:
    """K7/N4: the deal used exactly the chance outcomes the record lists."""
    if deal.picks != d.picks:
        raise RecordError("record_deal", rule="N4", deal=number,
                          problem=LocalText("rec.picks", listed=_codes(d.picks), drawn=_codes(deal.picks)))


def _codes(cards: Sequence[Card]) -> str:
    return " ".join(c.code for c in cards)


def _make(build: Callable[[], T], number: int) -> T:
    try:
        return build()
    except MushkaError as exc:
        raise RecordError("record_deal", rule=exc.rule, deal=number, problem=exc) from None


def _apply_all(target: Game | Deal, d: DealRecord, number: int) -> None:
    for i, action in enumerate(d.actions, 1):
        over = target.is_over if isinstance(target, Deal) else (
            target.is_over or len(target.finished) + 1 != number)
        # An action after the deal is over goes to the finished deal itself, which refuses
        # it naming the rule that ended it (C9, C13, K18, ...), like any other refusal.
        deal = target if isinstance(target, Deal) else target.deals[number - 1]
        try:
            (deal if over else target).apply(action)
        except MushkaError as exc:
            raise RecordError("record_action", rule=exc.rule, deal=number, index=i,
                              action=str(action), problem=exc) from None


def _check_result(record: Record, deals: Sequence[Deal], game: Game | None) -> None:
    """A stored result must agree with the replay (else the record was edited)."""
    stored = record.result
    if not stored:
        return
    if "deals" in stored:
        replayed = [d.result.to_json() for d in deals if d.result is not None]
        if stored["deals"] != replayed:
            raise RecordError("record_mismatch", problem=LocalText("rec.deal_results"))
    if "game" in stored and game is not None and (
        game.result is None or stored["game"] != game.result.to_json()
    ):
        raise RecordError("record_mismatch", problem=LocalText("rec.game_result"))
