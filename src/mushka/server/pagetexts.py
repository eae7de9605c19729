"""The page's texts, sent from the one catalogue as the module ``js/texts.js``.

The page's own texts live in ``server/pagetexts.toml`` and go into the catalogue
of :mod:`mushka.i18n` behind ``page.``; the page also shows some of the
catalogue's texts as they are (option words and the rules in plain words of
:mod:`mushka.rules.words`, the bots' levels, the chat's phrases).  The server
writes all of them, with the bots' names and the names of the cards, into one
JavaScript module that the page imports like any other (``web/js/i18n.js``), so
that the page keeps no copy of a text: a text is written once, in Python's
catalogue, whichever interface shows it.

The module is made once per process; its ETag is the hash of its bytes, so a
browser asks again on each visit and downloads it only when the texts changed.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from typing import Final

from starlette.requests import Request
from starlette.responses import Response

from mushka.cards import Rank, Suit
from mushka.i18n import LANGS, add_text_file, keys, templates
from mushka.rules import words
from mushka.server import chat  # noqa: F401  (registers the chat's phrases, which the page shows)
from mushka.server.texts import BOT_LEVELS, BOT_NAMES

PAGE: Final = "page."
"""The page's own keys stand behind this in the catalogue; the page calls them without it."""

add_text_file("mushka.server", "pagetexts.toml", PAGE)

SHOWN: Final = (*words.PREFIXES, "server.level.", "chat.phrase.")
"""The catalogue's own texts the page shows by their full key (``t("rule.plain.C14")``)."""

PATH: Final = "/js/texts.js"
"""Where the page finds the module (beside its other modules)."""


def page_texts() -> dict[str, tuple[str, str]]:
    """Every text the page shows: key -> (English, Russian), the page's own keys without ``page.``."""
    texts: dict[str, tuple[str, str]] = {}
    for key in keys():
        pair = templates(key)
        if pair is None:
            continue
        if key.startswith(PAGE):
            texts[key.removeprefix(PAGE)] = pair
        elif key.startswith(SHOWN):
            texts[key] = pair
    return texts


def card_words() -> dict[str, dict[str, object]]:
    """The cards' names by language: ranks low to high (as ``23456789TJQKA``), suits by letter,
    and the suits as they follow a rank in Russian (``король треф``)."""
    return {
        lang: {
            "ranks": [rank.name_in(lang) for rank in Rank],
            "suits": {suit.letter: suit.name_in(lang) for suit in Suit},
            "suits_of": {suit.letter: suit.genitive(lang) for suit in Suit},
        }
        for lang in LANGS
    }


def _const(name: str, value: object, doc: str) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return f"/** {doc} */\nexport const {name} = {text};\n"


@cache
def texts_module() -> bytes:
    """The JavaScript module the page imports as ``./texts.js``."""
    parts = [
        "// Made by the server from its text catalogue (mushka.server.pagetexts): not a file to edit.\n",
        _const("TEXTS", page_texts(), "Every text the page shows: key -> [English, Russian]; placeholders {name}."),
        _const("BOT_NAMES", BOT_NAMES, "The names bots play under, by seat, in each language."),
        _const("BOT_LEVELS", BOT_LEVELS, "The level of each bot: `server.level.` and this is its word."),
        _const("CARD_WORDS", card_words(), "The cards' names in each language."),
    ]
    return "\n".join(parts).encode("utf-8")


@cache
def _etag() -> str:
    return '"' + hashlib.sha256(texts_module()).hexdigest()[:32] + '"'


async def serve(request: Request) -> Response:
    """GET ``/js/texts.js``: the module, or 304 when the browser has it already."""
    headers = {"ETag": _etag(), "Cache-Control": "no-cache"}
    if request.headers.get("if-none-match") == _etag():
        return Response(status_code=304, headers=headers)
    return Response(texts_module(), media_type="text/javascript; charset=utf-8", headers=headers)
