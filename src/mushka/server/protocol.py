"""The wire protocol of ``mushka serve``: typed, versioned messages.

Every message on the WebSocket is one JSON object with a ``type``; the
models here are the single source of truth for its fields, and
``docs/protocol.md`` describes each with an example (a test checks that every
example there validates against these models).  The HTTP API's request and
reply bodies are in :mod:`mushka.server.bodies`.

:data:`PROTOCOL_VERSION` changes whenever a message changes incompatibly; a
client says which version it speaks in its ``hello`` and the server refuses
any other (rule P3 of the protocol).

The protocol rules have ids (P1-P12) so that an error can name the rule it
enforces, just as the game's errors name the rules of RULES.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

PROTOCOL_VERSION: Final = 2
"""The version of this protocol; a ``hello`` must carry exactly this number.

Version 2: ``update`` carries only what changed in the view, and ``pong``
the table's version."""

MAX_MESSAGE_BYTES: Final = 4096
"""P1: the largest client message the server reads (UTF-8 bytes)."""

MAX_NAME: Final = 32
"""The longest player or table name."""

MAX_CHAT: Final = 200
"""P16: the longest line of free chat text (characters, after clean-up)."""

CHAT_PHRASES: Final = ("hello", "good_luck", "good_game", "well_played", "nice_trick", "thanks", "sorry",
                       "oops", "one_moment", "bye")
"""P16: the quick phrases of the table chat (each receiver reads them in his own language)."""

TURN_SECONDS: Final = (0, 15, 30, 60, 120)
"""P15: the turn timers a table may have, in seconds per move (0: no timer)."""

BANK_SECONDS: Final = (0, 60, 180, 300)
"""P15: the time banks a table may give every seat for the whole game, in seconds (0: none)."""

Lang = Literal["en", "ru"]
"""The languages of every text the server sends."""

TableStatus = Literal["waiting", "playing", "over"]
"""A table waits for players, plays, or is over."""

SeatKind = Literal["open", "human", "bot"]
"""A seat is free, held by a person (through a token) or played by a bot."""

RequestId = Annotated[int, Field(ge=0, le=2**53)]
"""A number the client may attach to a request; replies and errors echo it."""


class Message(BaseModel):
    """Base of every message: unknown fields are refused (P2), values are frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# --- client to server ------------------------------------------------------------


class Hello(Message):
    """P3: the first message of every connection: protocol, seat token, language.

    Without a ``token`` the connection watches as a spectator.
    """

    type: Literal["hello"]
    protocol: int
    token: str | None = Field(default=None, min_length=1, max_length=128)
    lang: Lang = "en"
    since: int | None = Field(default=None, ge=0)
    """The version the client has (a reconnection): if it is the table's, the server answers
    ``resumed`` instead of a whole ``state``."""
    name: str | None = Field(default=None, max_length=MAX_NAME)
    """P16: a spectator's name in the chat (``Boris (spectator)``); without it, or with a bot's
    name, he is ``Spectator 2``.  A seat's connection speaks under its seat's name."""
    id: RequestId | None = None


class Act(Message):
    """P5: the seat's action in the text notation (``pass``, ``stand 7H 8D``, ``KC``,
    ``take 9S``, ``draw``, ``discard 7H``).

    ``version``, when given, must be the table's current version (P9), so that
    an action chosen from an outdated view is refused rather than misapplied.
    """

    type: Literal["act"]
    action: str = Field(min_length=1, max_length=64)
    version: int | None = Field(default=None, ge=0)
    id: RequestId | None = None


class Resync(Message):
    """P7: ask for the full current state (after a gap in versions)."""

    type: Literal["resync"]
    id: RequestId | None = None


class SetSeat(Message):
    """P8: the host puts a bot on an open seat (``bot`` a name) or opens a bot seat
    again (``bot`` null), while the table is waiting."""

    type: Literal["set_seat"]
    seat: int = Field(ge=0, le=6)
    bot: str | None = Field(default=None, max_length=32)
    id: RequestId | None = None


class Start(Message):
    """P8: the host starts the game; open seats get the bot ``fill`` (default: the
    server's default bot)."""

    type: Literal["start"]
    fill: str | None = Field(default=None, max_length=32)
    id: RequestId | None = None


class Leave(Message):
    """P8: a player gives his seat up while the table is waiting; his token dies and
    the connection goes on as a spectator."""

    type: Literal["leave"]
    id: RequestId | None = None


class Rematch(Message):
    """A seated player asks for the same table again once the game is over: the same
    rules and seats (each person keeps his token), a new game; everybody at the old
    table is told its id (``TableInfo.next``)."""

    type: Literal["rematch"]
    id: RequestId | None = None


class SetLang(Message):
    """Switch the language of this connection's texts; a ``state`` follows."""

    type: Literal["lang"]
    lang: Lang
    id: RequestId | None = None


class Back(Message):
    """P15: the player takes his seat back from the bot that plays for him (after his
    turn timer ran out); a ``presence`` and a ``clock`` follow."""

    type: Literal["back"]
    id: RequestId | None = None


class TakeBack(Message):
    """P21: the player takes back the card he has just played, while nobody has acted after
    it (a ``taken_back`` and a whole ``state`` follow for everybody at the table)."""

    type: Literal["take_back"]
    id: RequestId | None = None


class Chat(Message):
    """P16: a line of table chat: a quick ``phrase`` (an id of :data:`CHAT_PHRASES`) or free
    ``text`` (at most :data:`MAX_CHAT` characters), exactly one of the two.  A player's line
    goes to everybody at the table, a spectator's to the spectators (and to the players
    who listen to them, ``listen``)."""

    type: Literal["chat"]
    text: str | None = Field(default=None, max_length=1000)
    phrase: str | None = Field(default=None, max_length=32)
    id: RequestId | None = None


class Listen(Message):
    """P16: whether this connection hears the spectators' chat (players do not, until they ask)."""

    type: Literal["listen"]
    spectators: bool
    id: RequestId | None = None


class AskHint(Message):
    """P17: suggest a move: the heuristic bot's choice for this seat, with its reason
    (only at a table where every other seat is a bot, on the seat's turn)."""

    type: Literal["hint"]
    id: RequestId | None = None


class Ping(Message):
    """Keep-alive; answered by ``pong``."""

    type: Literal["ping"]
    id: RequestId | None = None


ClientMessage = Annotated[
    Hello | Act | Resync | SetSeat | Start | Leave | Rematch | SetLang | Back | Chat | Listen | AskHint | Ping
    | TakeBack,
    Field(discriminator="type"),
]
"""Any message a client may send."""

CLIENT_MESSAGE: Final[TypeAdapter[ClientMessage]] = TypeAdapter(ClientMessage)
"""Validates one decoded client message."""

CLIENT_TYPES: Final = ("hello", "act", "resync", "set_seat", "start", "leave", "rematch", "lang", "back", "chat",
                        "listen", "hint", "ping", "take_back")
"""The ``type`` of every client message."""


# --- shared parts --------------------------------------------------------------------


class SeatInfo(Message):
    """One seat as everybody may see it (never its token)."""

    seat: int
    kind: SeatKind
    name: str | None = None
    bot: str | None = None
    """The bot's name on a bot seat."""
    connected: bool = False
    """A person's seat: at least one connection holds it now."""
    substitute: bool = False
    """A person's seat: he has been away longer than the grace time and a bot plays for him."""
    timed_out: bool = False
    """A substitute because the player's turn timer ran out (P15), not because he left."""


class TableInfo(Message):
    """A table as the lobby and its players see it."""

    id: str
    title: str | None = None
    variant: str
    variant_title: str
    players: int
    options: dict[str, str]
    """The options that differ from the variant's defaults (name -> text form)."""
    status: TableStatus
    host: int | None
    """The seat that may set seats and start; null when the table starts by itself."""
    seats: list[SeatInfo]
    spectators: int = 0
    listed: bool = True
    invite: str
    """The path of the invitation link (``/?table=ID``)."""
    version: int
    created: str
    """ISO 8601 time, UTC."""
    result: dict[str, Any] | None = None
    """The game's result once it is over (``GameResult.to_json``)."""
    next: str | None = None
    """The table of the rematch, once a player asked for one (same rules and seats)."""
    turn_seconds: int = 0
    """P15: seconds each person has per move (0: no turn timer)."""
    bank_seconds: int = 0
    """P15: the time bank each seat has for the whole game once a move's own time is up (0: none)."""
    takeback: bool = False
    """P21: whether the players may take back their last card although other people play
    (where every other seat is a bot, a player always may)."""


class EventOut(Message):
    """One event of the game, as the receiving seat saw it (``Event.seen_by``).

    ``data`` holds the event's fields (cards as codes, suits as letters,
    hidden cards as null); ``text`` is the sentence in the connection's language.
    """

    event: str
    data: dict[str, Any]
    text: str


# --- server to client -----------------------------------------------------------------


class Welcome(Message):
    """The answer to ``hello``: who this connection is."""

    type: Literal["welcome"] = "welcome"
    protocol: int = PROTOCOL_VERSION
    server: str
    """The mushka version of the server."""
    table: str
    seat: int | None
    """The connection's seat, or null for a spectator."""
    host: bool = False
    lang: Lang = "en"
    id: RequestId | None = None


class Clock(Message):
    """P15: the turn timer: whose move it counts and how long he has left.

    ``remaining`` is measured by the server when it sends the message, so a
    client counts down from its own receipt of it and never compares clocks;
    ``deadline`` is the same moment in UTC for logs and scripts.  ``seat`` is
    null when no person's move is being timed (no timer, a bot's turn, a bot
    playing for an absent player, the game over).
    """

    type: Literal["clock"] = "clock"
    version: int
    seat: int | None = None
    seconds: int = 0
    """The table's time per move (0: no timer)."""
    remaining: float | None = None
    """Seconds left until the time is up, the seat's bank included."""
    deadline: str | None = None
    """ISO 8601 time, UTC."""
    bank: int = 0
    """The table's time bank per seat for the whole game (0: none)."""
    banks: list[float] | None = None
    """Every seat's bank left when the message left (null: the table has no bank); the timed
    seat's bank is part of ``remaining``: his move's own time is ``remaining`` minus his bank, and
    once that is gone his bank runs."""


class ChatLine(Message):
    """P16: one line of the table chat, as this receiver reads it."""

    type: Literal["chat"] = "chat"
    channel: Literal["players", "spectators"]
    seat: int | None = None
    """The speaker's seat (null for a spectator)."""
    name: str
    """The speaker as everybody sees him (a player's name, ``Spectator 2``)."""
    phrase: str | None = None
    """The id of a quick phrase (``text`` holds it in the receiver's language)."""
    text: str
    """Plain text: a client shows it as text, never as markup."""
    at: str
    """ISO 8601 time, UTC."""
    past: bool = False
    """Sent again to a connection that just arrived (the recent lines of the table)."""


class Hint(Message):
    """P17: the suggested move for the receiver's seat and why, in his language."""

    type: Literal["hint"] = "hint"
    version: int
    action: str
    """The action in the text notation (what ``act`` would send)."""
    words: str
    """The action in words (``play 7♥``)."""
    reason: str
    rule: str | None = None
    """The rule the reason rests on, where one does (C14, K15 …)."""
    id: RequestId | None = None


class State(Message):
    """The full current state for this connection (after ``welcome`` and on ``resync``).

    ``view`` is ``GameView.to_json`` of the connection's seat (or the public
    view), null while the table waits; ``log`` is the current deal's events
    as the seat saw them.  ``version`` is the baseline for gap detection.
    """

    type: Literal["state"] = "state"
    version: int
    ply: int
    """Actions applied in the game so far."""
    table: TableInfo
    view: dict[str, Any] | None = None
    log: list[EventOut] = []
    clock: Clock | None = None
    """P15: the turn timer now (null at a table without one)."""
    id: RequestId | None = None


class Update(Message):
    """P7: one applied action (or the start of the game): its events and what changed in the view.

    ``view`` holds only the changes since the receiver's previous message:
    each top-level key of the view whose value changed, under ``deal`` the
    keys of the deal that changed, and under ``history`` the results of the
    deals finished since (to append to the history).  A client that had no
    view yet (the table was waiting) gets the whole view.
    """

    type: Literal["update"] = "update"
    version: int
    ply: int
    seat: int | None
    """Who acted (null for the start of the game)."""
    events: list[EventOut]
    view: dict[str, Any]


class TableChanged(Message):
    """P7: the seats or the status of the table changed (join, bot, start, end)."""

    type: Literal["table"] = "table"
    version: int
    table: TableInfo


class Presence(Message):
    """Who is connected and where a bot stands in for an absent player.

    Not versioned: presence is not stored, and a resync reports it anyway.
    """

    type: Literal["presence"] = "presence"
    seats: list[SeatInfo]
    spectators: int


class Error(Message):
    """A refused message: ``code`` for programs, ``message`` (naming the rule) for people.

    Nothing changed on the server.  ``fatal`` means the server closes the
    connection after this message.
    """

    type: Literal["error"] = "error"
    code: str
    rule: str | None = None
    message: str
    id: RequestId | None = None
    fatal: bool = False


class TakenBack(Message):
    """P21: a player took back the card he had just played; the whole ``state`` of the
    position before it follows.  ``text`` says so in the connection's language."""

    type: Literal["taken_back"] = "taken_back"
    version: int
    seat: int
    action: str
    """The card as the record writes it (``7H``)."""
    text: str


class Pong(Message):
    """The answer to ``ping``, with the table's current version: a client whose last
    message was lost sees that it is behind and sends ``resync`` (P7)."""

    type: Literal["pong"] = "pong"
    version: int | None = None
    """The table's version now (null before the ``hello`` was answered)."""
    id: RequestId | None = None


class Resumed(Message):
    """The answer to a ``hello`` whose ``since`` is the table's version: the client has
    everything already (after ``welcome``; ``presence`` and ``clock`` follow as usual)."""

    type: Literal["resumed"] = "resumed"
    version: int


class Moved(Message):
    """The table is served by another process (node) of this server now: reconnect with
    ``?node=NODE`` (the proxy routes it there), after a short random wait.  The connection
    is closed next, with code 4307."""

    type: Literal["moved"] = "moved"
    table: str
    node: str | None
    """The owner's node name, or null when the table waits for a new owner (try again)."""


ServerMessage = Annotated[
    Welcome | State | Update | TableChanged | Presence | Error | Pong | Clock | ChatLine | Hint | Resumed | Moved
    | TakenBack,
    Field(discriminator="type"),
]
"""Any message the server sends."""

SERVER_MESSAGE: Final[TypeAdapter[ServerMessage]] = TypeAdapter(ServerMessage)
"""Validates one server message (used by tests and Python clients)."""
