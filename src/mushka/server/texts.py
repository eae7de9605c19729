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
from mushka.i18n import add_text_file, tr
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
"""The names bots play under, by seat (the page is sent them, mushka.server.pagetexts)."""

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


# The texts of the protocol's errors and problems, of the database URL and of the serve command.
add_text_file("mushka.server", "texts.toml", "server.")
