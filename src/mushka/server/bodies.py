"""The HTTP API's request and reply bodies of ``mushka serve`` (``/api/...``).

The WebSocket's messages are in :mod:`mushka.server.protocol`; these are the
bodies of the HTTP calls beside it, described with an example each in
``docs/protocol.md`` ("HTTP API"; a test validates every example against
these models).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from mushka.server.protocol import MAX_CHAT, MAX_NAME, PROTOCOL_VERSION, Lang, Message, TableInfo

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
    bank_seconds: int | None = Field(default=None, ge=0, le=3600)
    """P15: a time bank for every seat for the whole game, running once a move's own time is up:
    one of 0 (none, the default), 60, 180, 300; needs a time per move."""
    takeback: bool = False
    """P21: the players may take back their last card although other people play (shown to
    everybody at the table); at a table of one person and bots he always may."""


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
    """The WebSocket path of the table (with ``?node=`` naming the process that owns it)."""
    node: str | None = None
    """The node that owns the table."""


class QuickMatchRequest(Message):
    """``POST /api/quickmatch``: seat me with the people who ask for the same kind of table within
    a few seconds, and bots of ``level`` on the other seats."""

    variant: str = Field(default="classic", max_length=32)
    players: int = Field(default=4, ge=1, le=16)
    level: str | None = Field(default=None, max_length=32)
    """The bots' level (an id of ``GET /api/meta``'s ``levels``); default: the server's default bot."""
    name: str | None = Field(default=None, max_length=MAX_NAME)
    lang: Lang | None = None


class QuickMatchTicket(Message):
    """A place in the quick match's queue, or the seat it led to (``GET /api/quickmatch/{ticket}``)."""

    ticket: str
    status: Literal["waiting", "seated"]
    wait: float = 0.0
    """Seconds until the table is made, as things stand (people may still come sooner)."""
    waiting: int = 1
    """People who would sit at that table now, this one included."""
    table: str | None = None
    url: str | None = None
    """Once seated: the path that brings the player to his seat (token in the fragment)."""
    node: str | None = None


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


class PresetInfo(Message):
    """A short-game preset of the table form (``server/durations.py``): the options it sets and
    about how many minutes a game of it takes a person, by level and table size."""

    id: str
    """``full`` (the variant as it is), ``record20``, ``record15``, ``record10`` (C16's record)."""
    options: dict[str, str] = Field(default_factory=dict)
    minutes: dict[str, dict[str, float]] = Field(default_factory=dict)
    """Level id -> number of players (as text) -> minutes; absent where not measured."""


class VariantInfo(Message):
    """One variant, for the table form."""

    name: str
    title_en: str
    title_ru: str
    players: list[int]
    default_players: int
    privileged: str
    options: list[OptionInfo]
    presets: list[PresetInfo] = Field(default_factory=list)
    """Short games offered in the lobby, the full game first."""


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
    turn_choices: list[int] = Field(default_factory=list)
    """P15: the turn timers a new table may ask for (seconds per move; 0: none)."""
    bank_choices: list[int] = Field(default_factory=list)
    """P15: the time banks a new table may ask for (seconds per seat for the game; 0: none)."""
    max_chat: int = MAX_CHAT
    """P16: the longest chat line (characters)."""
    chat_rate: float = 0.0
    """P16: chat lines per second a connection may send on average."""
    chat_burst: int = 0


class LevelInfo(Message):
    """One level of the bots offered to people (``mushka.bots.levels``), in both languages."""

    id: str
    """The level's stable id, also its bot name (``beginner`` … ``expert``)."""
    name_en: str
    name_ru: str
    blurb_en: str
    """One line on how the level plays."""
    blurb_ru: str


class Meta(Message):
    """``GET /api/meta``: what a client needs to offer a new table."""

    protocol: int = PROTOCOL_VERSION
    server: str
    variants: list[VariantInfo]
    bots: list[str]
    default_bot: str
    levels: list[LevelInfo] = Field(default_factory=list)
    """The levels among ``bots``, weakest first, with their names and descriptions."""
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
    modified_by: list[str] = Field(default_factory=list)
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
    records: list[int] = Field(default_factory=list)
    """Classic and mistigri: the records after this deal."""
    money: list[int] = Field(default_factory=list)
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


class ReviewDecision(Message):
    """One decision of the reviewed seat (P11): what was played, the expert's move, and what the
    difference is worth (as ``mushka review --json`` gives it, with the actions in words)."""

    deal: int
    """The deal's number, from 1."""
    index: int
    """The action's place among the deal's actions, from 1: the replay's step ``index - 1`` is
    the position the seat decided in."""
    seat: int
    phase: str
    choice: str
    """What was played, in the record's text form (``7H``, ``stand TS QC``)."""
    best: str
    """What the expert would have played."""
    choice_words: str
    best_words: str
    loss: float
    """Money the difference costs the seat on average (0 where the moves agree)."""
    error: float
    """The standard error of ``loss``."""
    worlds: int
    """Deals played out to measure it (0 where the moves agree)."""
    costly: bool
    """One of the three costliest decisions."""


class ReviewReply(Message):
    """``GET /api/records/{id}/review?seat=&lang=`` (P11): every decision of one seat in a
    finished game against the expert level's."""

    id: str
    seat: int
    players: int
    seats: list[str]
    lang: Lang
    expert: str
    """The level the decisions are measured against."""
    decisions: list[ReviewDecision]
    costliest: list[list[int]]
    """``[deal, index]`` of the costliest decisions (at most three, none that cost 0), costliest first."""
    differ: int
    """Decisions where the move played was not the expert's."""
    total: float
    """The sum of the losses."""


class VariantRating(Message):
    """One player's rating in one variant, on the familiar scale (1500 for a newcomer)."""

    rating: int
    games: int
    """Rated games of the variant."""
    provisional: bool
    """Fewer than ten rated games of the variant: the rating may still move a lot."""


class PlayerStats(Message):
    """One player (a nickname) or one bot level in ``GET /api/ratings``, from the stored games."""

    name: str
    """The nickname as last written (players), or the level's id (bots)."""
    bot: bool = False
    games: int
    """Rated games, every variant (forfeits included)."""
    wins: int
    forfeits: int = 0
    """Games left before their end and not come back to within the grace time: lost by forfeit."""
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
    rating: int
    """The rating in the board's variant (1500 for a newcomer; see docs/play.md, "Ratings")."""
    provisional: bool = True
    """That rating rests on fewer than ten games."""
    variant_games: int = 0
    """Rated games of the board's variant."""
    ratings: dict[str, VariantRating] = Field(default_factory=dict)
    """The rating in every variant played."""
    rank: int = 0
    """The place on the board, from 1 (0: not on it)."""


class RatingsReply(Message):
    """``GET /api/ratings?variant=&name=&limit=``: the board of one variant, people and the bots by level."""

    variant: str = "classic"
    players: list[PlayerStats]
    bots: list[PlayerStats]
    you: PlayerStats | None = None
    """The line of the nickname asked for (``name``), if it has played a rated game."""
    games: int
    """Rated games counted, every variant."""


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


class LeaseHealth(Message):
    """How this process keeps its tables' leases (``/api/health``)."""

    ttl: float
    """Seconds a lease lasts unless renewed."""
    renewed_ago: float | None
    """Seconds since the last stored renewal (null: none yet)."""
    current: bool
    """Renewed within two thirds of the lease time: no other process can take its tables."""


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
    node: str | None = None
    """This process's node name (the proxy routes ``?node=NAME`` to it)."""
    owned: int = 0
    """Tables whose lease this process holds."""
    owned_tables: list[str] = Field(default_factory=list)
    """Their ids."""
    lease: LeaseHealth | None = None
    """Whether its lease renewals are current (``degraded`` when not)."""
    nodes: list[str] = Field(default_factory=list)
    """The names of the live nodes on the database, this one included."""


class ErrorBody(Message):
    """The ``error`` object of an HTTP error reply."""

    code: str
    rule: str | None = None
    message: str


class ErrorReply(Message):
    """Every HTTP error: status 400, 404, 409, 413, 429 or 503 with this body."""

    error: ErrorBody
