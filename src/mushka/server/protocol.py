"""The wire protocol of ``mushka serve``: typed, versioned messages.

Every message on the WebSocket is one JSON object with a ``type``; the
models here are the single source of truth for its fields, and
``docs/protocol.md`` describes each with an example (a test checks that every
example there validates against these models).  The HTTP API's request and
reply bodies are here too.

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
    Hello | Act | Resync | SetSeat | Start | Leave | Rematch | SetLang | Back | Chat | Listen | AskHint | Ping,
    Field(discriminator="type"),
]
"""Any message a client may send."""

CLIENT_MESSAGE: Final[TypeAdapter[ClientMessage]] = TypeAdapter(ClientMessage)
"""Validates one decoded client message."""

CLIENT_TYPES: Final = ("hello", "act", "resync", "set_seat", "start", "leave", "rematch", "lang", "back", "chat",
                        "listen", "hint", "ping")
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
    deadline: str | None = None
    """ISO 8601 time, UTC."""


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


class Pong(Message):
    """The answer to ``ping``, with the table's current version: a client whose last
    message was lost sees that it is behind and sends ``resync`` (P7)."""

    type: Literal["pong"] = "pong"
    version: int | None = None
    """The table's version now (null before the ``hello`` was answered)."""
    id: RequestId | None = None


ServerMessage = Annotated[
    Welcome | State | Update | TableChanged | Presence | Error | Pong | Clock | ChatLine | Hint,
    Field(discriminator="type"),
]
"""Any message the server sends."""

SERVER_MESSAGE: Final[TypeAdapter[ServerMessage]] = TypeAdapter(ServerMessage)
"""Validates one server message (used by tests and Python clients)."""


# --- HTTP ------------------------------------------------------------------------------

OptionInput = str | int | bool
"""An option value as JSON may carry it; text is parsed as on the command line."""


class CreateTable(Message):
    """``POST /api/tables``: a new table.

    ``seats`` lists one entry per seat: ``"me"`` (the caller takes it and gets
    its token; several are allowed, e.g. for a script driving every seat),
    ``"open"`` (for a friend with the invitation), ``"bot"`` (the default bot)
    or ``"bot:NAME"``.  Default: the caller at seat 0 and bots elsewhere.
    ``start`` starts at once, filling open seats with the default bot.
    """

    variant: str = Field(default="classic", max_length=32)
    players: int | None = Field(default=None, ge=1, le=16)
    options: dict[str, OptionInput] = Field(default_factory=dict, max_length=40)
    seats: list[str] | None = Field(default=None, max_length=16)
    name: str | None = Field(default=None, max_length=MAX_NAME)
    """The caller's name on his ``me`` seats."""
    title: str | None = Field(default=None, max_length=MAX_NAME)
    start: bool = False
    listed: bool = True
    """Listed tables appear in ``GET /api/tables``; others only by invitation."""
    lang: Lang | None = None
    turn_seconds: int | None = Field(default=None, ge=0, le=600)
    """P15: seconds per move, one of 0 (off), 15, 30, 60, 120; default: off at a table of one
    person and bots (practice) or of one caller holding every seat (a script), 60 where friends are
    invited (an ``open`` seat)."""


class SeatToken(Message):
    """A seat's secret token, given once, to the person who takes the seat."""

    seat: int
    token: str
    url: str
    """The path that brings the player back to this seat (token in the fragment)."""


class CreateTableReply(Message):
    """The reply to ``POST /api/tables``."""

    table: TableInfo
    tokens: list[SeatToken]
    invite: str
    ws: str
    """The WebSocket path of the table."""


class JoinTable(Message):
    """``POST /api/tables/{id}/join``: take an open seat (the first one unless ``seat``)."""

    name: str | None = Field(default=None, max_length=MAX_NAME)
    seat: int | None = Field(default=None, ge=0, le=6)
    lang: Lang | None = None


class JoinReply(Message):
    """The reply to a join."""

    table: TableInfo
    token: SeatToken
    ws: str


class TableList(Message):
    """``GET /api/tables``."""

    tables: list[TableInfo]


class RecordSummary(Message):
    """One finished game in ``GET /api/records``."""

    id: str
    variant: str
    players: int
    seats: list[str]
    finished: str
    winner: int | None
    record: str
    """The path of the record's JSON."""


class RecordList(Message):
    """``GET /api/records``."""

    records: list[RecordSummary]


class OptionInfo(Message):
    """One house-rule option of a variant, for the table form."""

    name: str
    rules: list[str]
    default: str
    values: list[str]
    """The accepted words, where the option has a closed set (else any value of its kind)."""
    help_en: str
    help_ru: str


class VariantInfo(Message):
    """One variant, for the table form."""

    name: str
    title_en: str
    title_ru: str
    players: list[int]
    default_players: int
    privileged: str
    options: list[OptionInfo]


class Limits(Message):
    """The server's limits, so that a client can stay within them."""

    max_message_bytes: int
    rate: float
    """P6: messages per second allowed on a connection (sustained)."""
    burst: int
    grace: float
    """Seconds an absent player keeps his seat before a bot stands in."""
    bot_delay: float
    bot_tables: int = 0
    """P12: tables of bots only the server holds at once (0: it makes none)."""
    bot_tables_per_address: int = 0
    """P12: tables of bots only one address may have at once."""
    bot_tables_now: int = 0
    """Tables of bots only being played now."""
    bot_workers: int = 1
    """Processes the bots of every table share for thinking (the CPU they may take, in cores)."""
    turn_choices: list[int] = []
    """P15: the turn timers a new table may ask for (seconds per move; 0: none)."""
    max_chat: int = MAX_CHAT
    """P16: the longest chat line (characters)."""
    chat_rate: float = 0.0
    """P16: chat lines per second a connection may send on average."""
    chat_burst: int = 0


class Meta(Message):
    """``GET /api/meta``: what a client needs to offer a new table."""

    protocol: int = PROTOCOL_VERSION
    server: str
    variants: list[VariantInfo]
    bots: list[str]
    default_bot: str
    limits: Limits
    public_url: str | None = None
    """The address friends reach the server at, if the host gave one (invitation links use it)."""


class RuleOut(Message):
    """One rule of a table's variant, as it reads at that table (``render_rules``)."""

    id: str
    """The rule's id in the rules specification (C14, MI6, K15 …)."""
    section: str
    section_title: str
    tags: list[str]
    """Where the rule comes from: SEED, RU, XC or DEC."""
    text: str
    """The rule's statement, filled from the table's options."""
    options: list[str]
    """The options that change this rule."""
    modified_by: list[str] = []
    """Mistigri: the MI rules that change this C rule."""
    changed: bool = False
    """Whether the table's options change the text."""


class RulesReply(Message):
    """``GET /api/tables/{id}/rules?lang=``: every rule of the table's variant, by id."""

    table: str
    variant: str
    lang: Lang
    rules: list[RuleOut]


class ReplayStep(Message):
    """One position of a replay: after ``step`` actions of the deal, with every hand open."""

    step: int
    actor: int | None
    """Who made the action that led here (null for the deal's opening)."""
    action: str | None
    """That action in the text notation."""
    texts: list[str]
    """What happened, sentence by sentence, in the language asked for."""
    hands: list[list[str]]
    """Every seat's hand (the game is over: nothing is hidden any more)."""
    discards: list[list[str]]
    """The cards each seat has put out of play face down."""
    deal: dict[str, Any]
    """The public view of the deal (``DealView.to_json`` of a spectator, without its
    own ``seat``, ``hand``, ``own_discards`` and ``legal``)."""


class ReplayDeal(Message):
    """One deal of a replay: its steps, its result and the score after it."""

    number: int
    dealer: int
    steps: list[ReplayStep]
    result: dict[str, Any] | None
    """``DealResult.to_json``."""
    records: list[int] = []
    """Classic and mistigri: the records after this deal."""
    money: list[int] = []
    """Each seat's money after this deal."""
    pot: int = 0
    """Kopilka: the pot after this deal."""


class Replay(Message):
    """``GET /api/records/{id}/replay?lang=``: every position of a finished game,
    computed by the engine from its record."""

    id: str
    variant: str
    variant_title: str
    players: int
    options: dict[str, str]
    """The options that differ from the variant's defaults."""
    seats: list[str]
    lang: Lang
    deals: list[ReplayDeal]
    result: dict[str, Any] | None
    """``GameResult.to_json``."""


class PlayerStats(Message):
    """One player (a nickname) or one bot level in ``GET /api/ratings``, from the stored games."""

    name: str
    """The nickname as last written (players), or the level's id (bots)."""
    bot: bool = False
    games: int
    wins: int
    classic_games: int = 0
    classic_record: float | None = None
    """Classic Мушка: the average record at the end of a partie (C20; lower is better)."""
    mistigri_games: int = 0
    mistigri_record: float | None = None
    """Mistigri: the average record at the end of a partie."""
    kopilka_games: int = 0
    kopilka_money: int = 0
    """Kopilka: the money won (or lost, negative) over every session, the pot included (K23)."""
    money: int = 0
    """Money over every game of every variant."""
    mu: float
    sigma: float
    rating: float
    """The conservative rating μ − 3σ (openskill, Plackett-Luce), what the board is sorted by."""
    rank: int = 0
    """The place on the board, from 1 (0: not on it)."""


class RatingsReply(Message):
    """``GET /api/ratings?name=&limit=``: the leaderboard of people and of the bots by level."""

    players: list[PlayerStats]
    bots: list[PlayerStats]
    you: PlayerStats | None = None
    """The line of the nickname asked for (``name``), if it has played a rated game."""
    games: int
    """Finished games counted."""


class BotPool(Message):
    """The pool the bots of every table think in (and replays are built in): its cap and its work."""

    kind: Literal["process", "thread"] = "process"
    workers: int
    """The cap: processes (or threads) that may think at once, whatever the number of tables."""
    nice: int = 0
    """How much lower than the server's the workers' scheduling priority is."""
    busy: int = 0
    """Jobs being worked on now."""
    waiting: int = 0
    """Jobs waiting for a free worker."""
    moves: int = 0
    """Bot moves made in the pool since the start."""
    cpu_seconds: float = 0.0
    """CPU seconds the workers spent on those moves."""
    restarts: int = 0
    """Times the pool was started afresh (a worker died, or a move ran past its time)."""
    fallbacks: int = 0
    """Moves played by the rules of thumb in the server itself because the pool could not make them."""


class Health(Message):
    """``GET /api/health`` (status 200 when ``ok``, 503 when ``degraded``)."""

    status: Literal["ok", "degraded"] = "ok"
    """``degraded`` when storage does not answer or does not store (then tables wait, P14)."""
    protocol: int = PROTOCOL_VERSION
    server: str
    tables: int
    """Tables held in memory."""
    playing: int
    connections: int
    database: bool
    """Whether the database answered a read within two seconds and the last commit was stored."""
    storage: Literal["ok", "failing", "unreachable"] = "ok"
    """``failing``: commits fail (disk full, a lock held for long); ``unreachable``: reads fail too."""
    waiting_for_storage: int = 0
    """Tables whose last change waits for storage (they take no other meanwhile, P14)."""
    pending_saves: int = 0
    """Changes queued for the next commit."""
    quarantined: int = 0
    """Tables set aside since the start because their stored rows are damaged."""
    bots: BotPool | None = None
    """The bots' pool: its cap and what it does now."""


class ErrorBody(Message):
    """The ``error`` object of an HTTP error reply."""

    code: str
    rule: str | None = None
    message: str


class ErrorReply(Message):
    """Every HTTP error: status 400, 404, 409, 413, 429 or 503 with this body."""

    error: ErrorBody
