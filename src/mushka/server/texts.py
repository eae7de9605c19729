"""The server's own texts (English and Russian) and its errors.

A :class:`ProtocolError` names the protocol rule it enforces (P1-P12, see
``docs/protocol.md``) the way the engine's errors name the rules of the game;
both render in the connection's language through :meth:`message`.  A
:class:`StorageError` says why a database URL cannot be used, at startup.
"""

from __future__ import annotations

from typing import Final

from pydantic import ValidationError

from mushka.engine.refusal import refusal_words
from mushka.errors import IllegalActionError, MushkaError, OptionsError, render_param
from mushka.i18n import add_texts, tr
from mushka.rules.options import OPTION_BY_NAME


class ProtocolError(MushkaError):
    """A message or request the protocol does not allow; nothing was changed.

    ``code`` is stable for programs (``not_json``, ``stale`` …); ``fatal``
    errors end the WebSocket connection with ``close_code``.
    """

    fatal: bool
    close_code: int

    def __init__(self, code: str, *, rule: str | None = None, fatal: bool = False,
                 close_code: int = 4400, **params: object) -> None:
        """An error ``code`` breaking ``rule``, with the parameters of its text."""
        self.fatal = fatal
        self.close_code = close_code
        super().__init__(code, rule=rule, **params)

    def message(self, lang: str = "en") -> str:
        """The full message in ``lang``, rule id first."""
        params = {k: render_param(v, lang) for k, v in self.params.items()}
        text = tr(f"server.error.{self.code}", lang, **params)
        return f"{self.rule}: {text}" if self.rule else text


class StorageError(MushkaError):
    """The database URL cannot be used as given: it is not a URL, names a database the server
    does not know, or its driver is not installed.  Raised before anything is connected."""

    def message(self, lang: str = "en") -> str:
        """The full message in ``lang``."""
        params = {k: render_param(v, lang) for k, v in self.params.items()}
        return tr(f"server.store.{self.code}", lang, **params)


class Problem:
    """A sentence inside an error's text, rendered in the error's language."""

    def __init__(self, key: str, **params: object) -> None:
        """The catalogue entry ``key`` with its parameters."""
        self.key = key
        self.params = params

    def __str__(self) -> str:
        return self.render("en")

    def __format__(self, spec: str) -> str:
        return str(self)

    def render(self, lang: str) -> str:
        """The sentence in ``lang``."""
        return tr(self.key, lang, **self.params)


class ValidationProblem(Problem):
    """The first problem of a pydantic validation error, in the error's language."""

    def __init__(self, error: ValidationError) -> None:
        """Wrap ``error``."""
        super().__init__("server.problem.invalid")
        self.error = error

    def render(self, lang: str) -> str:
        """The sentence in ``lang`` naming the field."""
        return validation_problem(self.error, lang)


class EngineText(Problem):
    """An engine error's own sentence (without its rule id), in the error's language."""

    def __init__(self, error: MushkaError) -> None:
        """Wrap ``error``."""
        super().__init__(f"error.{error.code}")
        self.error = error

    def render(self, lang: str) -> str:
        """The engine's sentence in ``lang``."""
        text = self.error.message(lang)
        prefix = f"{self.error.rule}: "
        return text.removeprefix(prefix) if self.error.rule else text


BOT_NAMES: Final[dict[str, tuple[str, ...]]] = {
    "en": ("Fyodor", "Glasha", "Mitya", "Varya", "Savva", "Dunya", "Tikhon"),
    "ru": ("Фёдор", "Глаша", "Митя", "Варя", "Савва", "Дуня", "Тихон"),
}
"""The names bots play under, by seat (the page uses the same, js/seats.js)."""

BOT_LEVELS: Final[dict[str, str]] = {
    "random": "random", "novice": "casual", "heuristic": "club", "search": "strong",
    "beginner": "beginner", "casual": "casual", "club": "club", "strong": "strong", "expert": "expert",
}
"""The level word of each bot (a bot not listed reads as a plain bot)."""


def bot_persona(seat: int, bot: str, lang: str) -> str:
    """A bot as players see it: a person's name and a level, ``Фёдор · сильный``."""
    names = BOT_NAMES["ru" if lang == "ru" else "en"]
    level = tr(f"server.level.{BOT_LEVELS.get(bot.split(':', maxsplit=1)[0], 'bot')}", lang)
    return f"{names[seat % len(names)]} · {level}"


class Refusal(Problem):
    """An action the engine refused, told to the player who tried it: his action in
    words, the reason, and whose turn it is by name (never a seat number or a code;
    :func:`mushka.engine.refusal.refusal_words`, which the terminal uses too)."""

    def __init__(self, error: MushkaError, names: list[list[str]] | None = None) -> None:
        """Wrap ``error``; ``names`` gives each seat's name in English and Russian."""
        super().__init__(f"error.{error.code}")
        self.error = error
        self.names = names

    def render(self, lang: str) -> str:
        """The refusal in ``lang``."""
        names = self.names[1 if lang == "ru" else 0] if self.names else None
        return refusal_words(self.error, lang, names)


def refusal(error: IllegalActionError, names: list[list[str]]) -> ProtocolError:
    """The error a player gets for an action the engine refused, under the engine's rule."""
    code = error.code if f"server.error.{error.code}" in _REFUSAL_CODES else "refused"
    return ProtocolError(code, rule=error.rule, problem=Refusal(error, names))


_REFUSAL_CODES: Final = frozenset(
    f"server.error.{c}" for c in ("illegal", "out_of_turn", "deal_over", "game_over"))
"""The engine's refusal codes kept as they are on the wire (docs/protocol.md)."""


def options_error(error: OptionsError) -> ProtocolError:
    """P10: a table the engine refused to make, under the rule of the option at fault."""
    code = {"unknown_variant": "bad_variant", "bad_players": "bad_players"}.get(error.code, "bad_options")
    rule = error.rule
    name = error.params.get("name")
    if rule is None and isinstance(name, str) and name in OPTION_BY_NAME:
        rule = OPTION_BY_NAME[name].rules[0]
    return ProtocolError(code, rule=rule or "P10", problem=EngineText(error))


HTTP_STATUS: Final[dict[str, int]] = {
    "no_table": 404, "no_record": 404, "no_ticket": 404,
    "not_over": 409, "not_waiting": 409, "seat_taken": 409, "no_open_seat": 409,
    "body_too_large": 413, "rate_limited": 429, "full": 503,
    "bot_tables": 503, "bot_tables_yours": 429, "bad_origin": 403, "bad_content_type": 415,
    "storage_down": 503, "moving": 503, "too_many_connections": 429,
    # Accounts (P18-P20, mushka.server.accountweb and .passkeys)
    "name_claimed": 409, "signed_in": 409, "account_playing": 409, "not_signed_in": 401,
    "signin_failed": 401, "signin_limited": 429, "csrf": 403, "passkey_failed": 401,
    "challenge_expired": 409,
}
"""HTTP status of each error code (400 for the rest)."""


def refused_json(refusal: ValueError) -> ProtocolError:
    """P1/P2: the error for JSON text the server does not read (a ``wire.JsonRefused``)."""
    kind = getattr(refusal, "kind", "syntax")
    if kind == "deep":
        return ProtocolError("too_deep", rule="P1")
    if kind == "duplicate":
        return ProtocolError("duplicate_key", rule="P2", key=getattr(refusal, "key", ""))
    return ProtocolError("not_json", rule="P1")


def validation_problem(exc: ValidationError, lang: str) -> str:
    """The first problem pydantic found, as one sentence in ``lang`` naming the field."""
    first = exc.errors(include_url=False)[0]
    where = ".".join(str(part) for part in first["loc"]) or "—"
    kind = first["type"]
    ctx = first.get("ctx") or {}
    if kind == "missing":
        return tr("server.problem.missing", lang, field=where)
    if kind == "extra_forbidden":
        return tr("server.problem.extra", lang, field=where)
    if kind == "literal_error":
        return tr("server.problem.choice", lang, field=where, expected=ctx.get("expected", ""))
    if kind in ("string_too_long", "too_long"):
        return tr("server.problem.too_long", lang, field=where)
    if kind in ("string_too_short", "too_short"):
        return tr("server.problem.too_short", lang, field=where)
    if kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        return tr("server.problem.range", lang, field=where)
    if kind.endswith(("_type", "_parsing")):
        return tr("server.problem.kind", lang, field=where)
    return tr("server.problem.invalid", lang, field=where)


add_texts({
    # --- protocol errors (the rule ids are those of docs/protocol.md) -----------------
    "server.error.too_large": ("the message has {size} bytes; at most {limit} are allowed",
                               "в сообщении {size} байт; допускается не больше {limit}"),
    "server.error.not_json": ("the message is not JSON text", "сообщение — не текст JSON"),
    "server.error.too_deep": ("the message nests arrays and objects too deeply",
                              "в сообщении слишком глубоко вложены массивы и объекты"),
    "server.error.duplicate_key": ("the field {key!r} is given twice", "поле {key!r} указано дважды"),
    "server.error.not_object": ("the message must be a JSON object", "сообщение должно быть объектом JSON"),
    "server.error.unknown_type": ("unknown message type {kind!r}; known: {known}",
                                  "неизвестный тип сообщения {kind!r}; известны: {known}"),
    "server.error.bad_message": ("message {kind!r}: {problem}", "сообщение {kind!r}: {problem}"),
    "server.error.hello_first": ("the first message must be hello", "первым сообщением должно быть hello"),
    "server.error.hello_again": ("hello was already received", "hello уже получено"),
    "server.error.protocol": ("this server speaks protocol {server}, the client {client}",
                              "сервер говорит на протоколе {server}, а клиент — на {client}"),
    "server.error.bad_token": ("no seat of this table has this token",
                               "ни у одного места за этим столом нет такого ключа"),
    "server.error.spectator": ("a spectator cannot act", "зритель не может ходить"),
    "server.error.not_playing": ("the game is not being played (the table is {status})",
                                 "игра не идёт (стол: {status})"),
    "server.error.rate_limited": ("too many messages: at most {rate} a second",
                                  "слишком много сообщений: не больше {rate} в секунду"),
    "server.error.stale": ("the action was chosen at version {given}, the table is at version {current}; "
                           "resync and choose again",
                           "ход выбран при версии {given}, а стол уже в версии {current}; "
                           "запросите состояние и выберите снова"),
    "server.error.not_host": ("only the host (seat {host}) may do this",
                              "это может делать только хозяин стола (место {host})"),
    "server.error.not_waiting": ("the game has already started", "игра уже началась"),
    "server.error.seat_taken": ("seat {seat} is not open", "место {seat} не свободно"),
    "server.error.bad_seat": ("seat {seat} does not exist at a table of {players}",
                              "места {seat} нет за столом на {players} игроков"),
    "server.error.no_open_seat": ("no seat is open at this table", "за этим столом нет свободных мест"),
    "server.error.host_leaves": ("the host cannot leave the table", "хозяин стола не может уйти"),
    "server.error.bad_bot": ("unknown bot {name!r}; known: {known}", "неизвестный бот {name!r}; известны: {known}"),
    "server.error.bad_seats": ("seats: {problem}", "места: {problem}"),
    "server.error.bad_options": ("{problem}", "{problem}"),
    "server.error.bad_variant": ("{problem}", "{problem}"),
    "server.error.bad_players": ("{problem}", "{problem}"),
    "server.error.bad_action": ("{problem}", "{problem}"),
    "server.error.refused": ("{problem}", "{problem}"),
    "server.error.not_over_yet": ("a rematch is asked for once the game is over",
                                  "новую игру за этим столом можно начать, когда эта окончена"),
    "server.error.illegal": ("{problem}", "{problem}"),
    "server.error.out_of_turn": ("{problem}", "{problem}"),
    "server.error.deal_over": ("{problem}", "{problem}"),
    "server.error.game_over": ("{problem}", "{problem}"),
    "server.level.random": ("plays at random", "наугад"),
    "server.level.beginner": ("beginner", "новичок"),
    "server.level.casual": ("casual", "любитель"),
    "server.level.club": ("club player", "клубный игрок"),
    "server.level.strong": ("strong", "сильный"),
    "server.level.expert": ("expert", "мастер"),
    "server.level.bot": ("bot", "бот"),
    "server.error.duplicate_cards": ("{problem}", "{problem}"),
    "server.error.no_table": ("there is no table {id!r}", "стола {id!r} нет"),
    "server.error.name_reserved": (
        "{name!r} is the name of a bot here; choose another name",
        "«{name}» — имя бота за этими столами; выберите другое имя",
    ),
    "server.error.no_ticket": (
        "this quick match request is unknown, or its seat was given already (ask again)",
        "такого запроса быстрой игры нет или место по нему уже выдано (попросите снова)",
    ),
    "server.error.no_record": ("there is no finished game {id!r}", "законченной игры {id!r} нет"),
    # --- accounts (P18-P20) ---------------------------------------------------------------
    "server.error.name_claimed": (
        "the name {name!r} belongs to a player's account; sign in as that player, or choose another name",
        "имя «{name}» принадлежит учётной записи игрока; войдите как этот игрок или выберите другое имя",
    ),
    "server.error.name_deleted": (
        "names beginning with 'deleted player' mark the games of deleted accounts; choose another name",
        "имена, начинающиеся с «deleted player», отмечают игры удалённых учётных записей; выберите другое имя",
    ),
    "server.error.name_missing": (
        "give the name you want to keep",
        "укажите имя, которое хотите закрепить за собой",
    ),
    "server.error.weak_password": (
        "a password needs at least {least} characters",
        "в пароле должно быть не меньше {least} символов",
    ),
    "server.error.password_is_name": (
        "the password must not be the name itself",
        "пароль не должен совпадать с именем",
    ),
    "server.error.signed_in": (
        "you are signed in as {name!r} already; sign out first to claim another name",
        "вы уже вошли как «{name}»; выйдите, чтобы закрепить другое имя",
    ),
    "server.error.signin_failed": (
        "wrong name or password",
        "неверное имя или пароль",
    ),
    "server.error.signin_limited": (
        "too many failed sign-ins; try again in {minutes} min",
        "слишком много неудачных попыток входа; повторите через {minutes} мин",
    ),
    "server.error.not_signed_in": (
        "you are not signed in (or your session has ended); sign in again",
        "вы не вошли (или сеанс закончился); войдите снова",
    ),
    "server.error.confirm_name": (
        "to delete the account, type its name {name!r} exactly",
        "чтобы удалить учётную запись, введите её имя «{name}» точно",
    ),
    "server.error.account_playing": (
        "you are still seated at {count} unfinished tables; finish or leave them before deleting the account",
        "вы ещё сидите за незаконченными столами ({count}); доиграйте или покиньте их, прежде чем удалять "
        "учётную запись",
    ),
    "server.error.csrf": (
        "this request lacks your session's security token; reload the page and try again",
        "в запросе нет защитного ключа вашего сеанса; перезагрузите страницу и повторите",
    ),
    "server.error.passkey_failed": (
        "the passkey was not accepted; try again, or sign in with your password",
        "ключ доступа не принят; попробуйте ещё раз или войдите по паролю",
    ),
    "server.error.challenge_expired": (
        "the passkey request has expired or was used already; start again",
        "запрос ключа доступа устарел или уже использован; начните заново",
    ),
    "server.error.seat_account": (
        "this seat belongs to a player's account; sign in as that player to play it",
        "это место принадлежит учётной записи игрока; войдите как этот игрок, чтобы играть за него",
    ),
    "server.error.not_over": ("the game of table {id!r} is not over; its record would show hidden cards",
                              "игра за столом {id!r} не окончена; её запись показала бы скрытые карты"),
    "server.error.full": ("the server is full ({what}); try later",
                          "сервер заполнен ({what}); попробуйте позже"),
    "server.error.body_too_large": ("the request body is larger than {limit} bytes",
                                    "тело запроса больше {limit} байт"),
    "server.error.bad_body": ("the request: {problem}", "запрос: {problem}"),
    "server.error.bad_query": ("parameter {name}: {problem}", "параметр {name}: {problem}"),
    "server.error.hello_timeout": ("no hello within {seconds} seconds", "нет hello в течение {seconds} секунд"),
    "server.error.internal": ("the server failed to handle this message; resync to see the table as it is",
                              "сервер не смог обработать это сообщение; запросите состояние стола заново"),
    "server.error.slow_client": ("the connection does not keep up with the table",
                                 "соединение не успевает за игрой"),
    # --- problems inside bad_message / bad_body ------------------------------------------
    "server.problem.missing": ("field {field} is missing", "нет поля {field}"),
    "server.problem.extra": ("unknown field {field}", "лишнее поле {field}"),
    "server.problem.choice": ("field {field} must be one of {expected}",
                              "поле {field} должно быть одним из {expected}"),
    "server.problem.too_long": ("field {field} is too long", "поле {field} слишком длинное"),
    "server.problem.too_short": ("field {field} is empty or too short", "поле {field} пустое или слишком короткое"),
    "server.problem.range": ("field {field} is out of range", "поле {field} вне допустимых пределов"),
    "server.problem.kind": ("field {field} has the wrong kind of value", "у поля {field} значение не того вида"),
    "server.problem.invalid": ("field {field} is not valid", "поле {field} недопустимо"),
    "server.problem.not_json": ("the body is not a JSON object", "тело — не объект JSON"),
    "server.problem.seat_count": ("{count} entries for {players} players",
                                  "{count} записей на {players} игроков"),
    "server.problem.seat_entry": ("{entry!r}: use me, open, bot or bot:NAME",
                                  "{entry!r}: пишите me, open, bot или bot:ИМЯ"),
    "server.problem.number": ("expected a whole number from {low} to {high}",
                              "нужно целое число от {low} до {high}"),
    "server.problem.status": ("expected waiting, playing or over", "нужно waiting, playing или over"),
    "server.problem.variant": ("expected classic, mistigri or kopilka", "нужно classic, mistigri или kopilka"),
    # --- the database URL (StorageError) -------------------------------------------------
    "server.store.bad_url": (
        "{url!r} is not a database URL; give sqlite:///FILE or postgresql://USER:PASSWORD@HOST:PORT/DATABASE",
        "{url!r} — не адрес базы данных; укажите sqlite:///ФАЙЛ или "
        "postgresql://ПОЛЬЗОВАТЕЛЬ:ПАРОЛЬ@ХОСТ:ПОРТ/БАЗА",
    ),
    "server.store.unknown_database": (
        "the server does not know the kind of database {scheme!r}; use sqlite:///FILE or postgresql://…",
        "сервер не знает вида базы данных {scheme!r}; укажите sqlite:///ФАЙЛ или postgresql://…",
    ),
    "server.store.no_postgres_driver": (
        "the PostgreSQL driver (psycopg) is not installed; install it with: pip install 'mushka[postgres]'",
        "драйвер PostgreSQL (psycopg) не установлен; установите его командой: pip install 'mushka[postgres]'",
    ),
    "server.store.no_driver": (
        "the Python module {module!r} that {scheme} needs is not installed",
        "не установлен модуль Python {module!r}, нужный для {scheme}",
    ),
    "server.store.damaged": (
        "the database {url} is damaged ({problem}); restore it from a backup (docs/deploy.md) or start with "
        "another --database-url",
        "база данных {url} повреждена ({problem}); восстановите её из резервной копии (docs/deploy.md) или "
        "запустите сервер с другим --database-url",
    ),
    "server.store.database_in_use": (
        "another mushka server (node {name}, process {pid}, at {where}) uses this SQLite database; stop it, "
        "give this one another --database-url, or run it beside the other as another node with --join",
        "эту базу SQLite использует другой сервер mushka (узел {name}, процесс {pid}, {where}); остановите его, "
        "укажите этому другой --database-url или запустите его рядом как ещё один узел с --join",
    ),
    "server.store.node_taken": (
        "a live mushka server (process {pid}, at {where}) on this database is already node {name}; give this "
        "one another --node",
        "на этой базе уже работает сервер mushka с именем узла {name} (процесс {pid}, {where}); дайте этому "
        "другое имя: --node",
    ),
    "server.error.moved": (
        "this table is served by node {node} of this server now; the page follows it there",
        "этот стол теперь обслуживает узел {node} этого сервера; страница переходит туда",
    ),
    "server.error.taken_over": (
        "another process of this server has taken this table over; the page reconnects to it",
        "этот стол перешёл к другому процессу этого сервера; страница подключается к нему",
    ),
    "server.error.moving": (
        "the table {id} is moving to another process of this server; try again in a second",
        "стол {id} переходит к другому процессу этого сервера; повторите через секунду",
    ),
    # --- the serve command and the logs ---------------------------------------------------
    "server.open": ("mushka serve: open {url} in a browser (database {db}; Ctrl+C stops).",
                    "mushka serve: откройте {url} в браузере (база {db}; Ctrl+C — остановить)."),
    "server.no_web": ("The browser front end is not installed; the API is at {url}api/meta.",
                      "Браузерная часть не установлена; API: {url}api/meta."),
    "server.bot_name": ("bot {bot}", "бот {bot}"),
    "server.seat_name": ("seat {seat}", "место {seat}"),
    "server.player_name": ("player {seat}", "игрок {seat}"),
})
