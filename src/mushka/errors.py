"""The one exception family of mushka.

Every error is a :class:`ValueError` subclass carrying a message *code*, its
parameters and, where a rule is broken, the rule id of RULES (``MI8``).  The
English text is ``str(error)``; :meth:`MushkaError.message` renders it in
Russian as well, so that every user interface can show the reason in the
player's language.
"""

from __future__ import annotations

from mushka.i18n import render_param, tr

# render_param is re-exported: callers that render error parameters import it from here.
__all__ = [
    "ChanceError",
    "IllegalActionError",
    "MushkaError",
    "OptionsError",
    "OutOfTurnError",
    "ParseError",
    "RecordError",
    "render_param",
]


class MushkaError(ValueError):
    """Base class: something given to mushka was wrong; nothing was changed."""

    code: str
    rule: str | None
    params: dict[str, object]

    def __init__(self, code: str, *, rule: str | None = None, **params: object) -> None:
        self.code = code
        self.rule = rule
        self.params = params
        super().__init__(self.message("en"))

    def message(self, lang: str = "en") -> str:
        """The full message in ``lang`` (``en`` or ``ru``), rule id first if any."""
        params = {k: render_param(v, lang) for k, v in self.params.items()}
        text = tr(f"error.{self.code}", lang, **params)
        # A wrapped error (a record's action) may already name the same rule.
        if self.rule and not text.startswith(f"{self.rule}:") and f" {self.rule}: " not in text:
            return f"{self.rule}: {text}"
        return text

    def render(self, lang: str = "en") -> str:
        """Same as :meth:`message`: lets an error be a parameter of another one."""
        return self.message(lang)

    def to_dict(self, lang: str = "en") -> dict[str, object]:
        """A JSON-ready description for machines (used by the CLI and the server)."""
        return {
            "error": type(self).__name__,
            "code": self.code,
            "rule": self.rule,
            "message": self.message(lang),
            # Rendered like the message: a suit or a phase reads as a word, not a number.
            "params": {k: str(render_param(v, lang)) for k, v in self.params.items()},
        }


class ParseError(MushkaError):
    """A text form (card, action, option value, record) could not be read."""


class OptionsError(MushkaError):
    """Unknown option, bad option value, or an impossible combination of them."""


class IllegalActionError(MushkaError):
    """An action that the rules do not allow in this position."""


class OutOfTurnError(IllegalActionError):
    """An action by a seat whose turn it is not."""


class RecordError(MushkaError):
    """A game record that is malformed or does not replay."""


class ChanceError(MushkaError):
    """A forced chance outcome (stacked deck, K7 pick) that is impossible here."""
