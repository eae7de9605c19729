"""The page's tables of constants read without a browser: no key defined twice, no text kept.

A JavaScript object literal keeps the last of two equal keys without a word
(issue 35, B1: ``hint_play`` was defined twice in ``texts.js`` and the help
under the hand read "Play it").  The page's texts now come from the server's
one catalogue (``js/texts.js`` is made by ``mushka.server.pagetexts``, where a
key given twice is refused when the catalogue is loaded); these tests read
every table of constants left in ``web/js/*.js`` (``const NAME = { … }`` at
the top level of a module) with a small tokenizer that skips strings,
template literals and comments, and refuse a key given twice in one table,
and a text in English and Russian kept in the page instead of the catalogue.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

WEB_JS = Path(__file__).resolve().parents[2] / "src" / "mushka" / "web" / "js"
TABLE_START = re.compile(r"^(?:export\s+)?const\s+([A-Za-z_$][\w$]*)\s*=\s*\{", re.M)
CYRILLIC = re.compile(r"[А-Яа-яЁё]")


@dataclass
class Entry:
    """One key of a table: its name, its line and its value's text."""

    key: str
    line: int
    value: str


def _skip_string(src: str, i: int) -> int:
    """The index just past the string, template literal or comment that starts at ``i``."""
    c = src[i]
    if src.startswith("//", i):
        end = src.find("\n", i)
        return len(src) if end < 0 else end
    if src.startswith("/*", i):
        return src.index("*/", i + 2) + 2
    j = i + 1
    while src[j] != c:
        if src[j] == "\\":
            j += 1
        elif c == "`" and src.startswith("${", j):
            j = _close(src, j + 1) - 1  # an expression inside a template literal
        j += 1
    return j + 1


def _close(src: str, i: int) -> int:
    """The index just past the bracket that closes the one at ``i``."""
    depth = 0
    j = i
    while j < len(src):
        c = src[j]
        if c in "\"'`" or src.startswith("//", j) or src.startswith("/*", j):
            j = _skip_string(src, j)
            continue
        if c in "{[(":
            depth += 1
        elif c in "}])":
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    raise AssertionError(f"unclosed bracket at offset {i}")


class NotATable(Exception):
    """The object literal holds code (methods, spreads), not data."""


def table_entries(src: str, start: int) -> list[Entry]:
    """The top-level entries of the object literal whose ``{`` is at ``start``."""
    end = _close(src, start) - 1
    entries: list[Entry] = []
    j = start + 1
    expect_key = True
    key_re = re.compile(r"""\s*(?:"([^"\\]*)"|'([^'\\]*)'|([A-Za-z_$0-9][\w$]*))\s*:""")
    while j < end:
        c = src[j]
        if c.isspace():
            j += 1
            continue
        if src.startswith("//", j) or src.startswith("/*", j):
            j = _skip_string(src, j)
            continue
        if expect_key:
            m = key_re.match(src, j)
            if not m:  # a method or a spread: an object of code, not a table of data
                raise NotATable(f"line {src.count(chr(10), 0, j) + 1}: {src[j:j + 40]!r}")
            key = next(g for g in m.groups() if g is not None)
            value_start = m.end()
            k = value_start
            while k < end and src[k] != ",":  # the value runs to the next comma at this level
                if src[k] in "\"'`" or src.startswith("//", k) or src.startswith("/*", k):
                    k = _skip_string(src, k)
                elif src[k] in "{[(":
                    k = _close(src, k)
                else:
                    k += 1
            entries.append(Entry(key, src.count("\n", 0, j) + 1, src[value_start:k].strip()))
            j = k
            expect_key = False
            continue
        if c != ",":
            raise NotATable(f"line {src.count(chr(10), 0, j) + 1}: {src[j:j + 40]!r}")
        expect_key = True
        j += 1
    return entries


def tables() -> list[tuple[str, str, list[Entry]]]:
    """Every top-level constant table of the front end: (file, name, entries)."""
    out = []
    for path in sorted(WEB_JS.glob("*.js")):
        src = path.read_text(encoding="utf-8")
        for m in TABLE_START.finditer(src):
            try:
                out.append((path.name, m.group(1), table_entries(src, m.end() - 1)))
            except NotATable:
                continue  # feltMethods and the like: checked by their own tests
    return out


def pair_strings(value: str) -> list[str] | None:
    """The strings of a value ``["…", "…"]`` made only of string literals, else None."""
    if not (value.startswith("[") and value.endswith("]")):
        return None
    items = re.findall(r'"((?:[^"\\]|\\.)*)"\s*(?:,|$)', value[1:-1].strip() + ",")
    rebuilt = ", ".join(f'"{s}"' for s in items)
    if re.sub(r"\s+", " ", value[1:-1].strip().rstrip(",")) != re.sub(r"\s+", " ", rebuilt):
        return None
    return items


def duplicates(entries: list[Entry]) -> list[str]:
    """Each key given again after its first line, with both lines."""
    seen: dict[str, int] = {}
    twice = []
    for e in entries:
        if e.key in seen:
            twice.append(f"{e.key!r} at lines {seen[e.key]} and {e.line}")
        seen.setdefault(e.key, e.line)
    return twice


ALL = tables()


def test_the_tables_are_found():
    names = {(f, n) for f, n, _ in ALL}
    assert {("cards.js", "SYMBOLS"), ("cards.js", "RANK_SHORT_RU"), ("optionwords.js", "SUIT_SIGNS"),
            ("optionwords.js", "ORDERS"), ("sound.js", "SOUNDS")} <= names
    # The texts are the server's: no page module defines them any more.
    assert not {("texts.js", "TEXTS"), ("optionwords.js", "TITLES"), ("optionwords.js", "VALUES"),
                ("rulehelp.js", "PLAIN"), ("seats.js", "BOT_NAMES")} & names
    assert not (WEB_JS / "texts.js").exists()


@pytest.mark.parametrize(("file", "name", "entries"), ALL, ids=[f"{f}:{n}" for f, n, _ in ALL])
def test_no_key_is_defined_twice(file: str, name: str, entries: list[Entry]):
    twice = duplicates(entries)
    assert not twice, f"{file} {name}: a key defined twice (the last one silently wins): {twice}"


@pytest.mark.parametrize(("file", "name", "entries"), ALL, ids=[f"{f}:{n}" for f, n, _ in ALL])
def test_no_table_keeps_a_text_of_the_catalogue(file: str, name: str, entries: list[Entry]):
    """A text in English and Russian belongs in the server's catalogue, which the page is sent:
    a table of the page holding one (a pair of texts, or a table by language) is a second copy."""
    keys = {e.key for e in entries}
    assert not keys >= {"en", "ru"}, f"{file} {name}: a table by language belongs in the catalogue"
    for e in entries:
        pair = pair_strings(e.value)
        if pair is not None and len(pair) == 2 and re.search(r"[A-Za-z]{3}", pair[0]) and CYRILLIC.search(pair[1]):
            pytest.fail(f"{file} {name}: {e.key} (line {e.line}) is a text in both languages: {pair}")


def test_a_key_given_twice_is_caught():
    """The reader itself: a table with a repeated key (the B1 slip) is seen as such."""
    src = 'export const T = {\n  a: ["A", "А"], // a, b\n  b: [`x${{ y: 1 }.y}`, "б"],\n  a: ["again", "снова"],\n};\n'
    entries = table_entries(src, src.index("{"))
    assert [e.key for e in entries] == ["a", "b", "a"]
    assert duplicates(entries) == ["'a' at lines 2 and 4"]
    assert [e.line for e in entries] == [2, 3, 4]
    assert pair_strings(entries[0].value) == ["A", "А"]
    assert pair_strings('["only English"]') == ["only English"]
