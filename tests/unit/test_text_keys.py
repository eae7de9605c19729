"""No text key is defined twice: a second definition silently wins over the first.

A dict literal keeps its last value for a repeated key, and ``add_texts`` replaces an
entry another module added, so a key written twice loses one of its texts without a
word.  These tests read the sources (not the loaded catalogue, where the loss is
already invisible); the page's catalogue (web/js/texts.js) is checked in
tests/e2e/test_web_texts.py.
"""

from __future__ import annotations

import ast
import tomllib
from collections import Counter
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "mushka"
SOURCES = sorted(SRC.rglob("*.py"))


def literal_keys(node: ast.Dict) -> list[str]:
    """The string keys written in one dict literal, in order."""
    return [k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]


def repeated_in_literals(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, key) of every key written twice in the same dict literal."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            found += [(node.lineno, k) for k, n in Counter(literal_keys(node)).items() if n > 1]
    return found


def _toml_keys(table: dict[str, object], prefix: str) -> list[str]:
    """The entries of a catalogue file as the catalogue names them (tables before their keys)."""
    keys: list[str] = []
    for key, value in table.items():
        keys += _toml_keys(value, f"{prefix}{key}.") if isinstance(value, dict) else [prefix + key]
    return keys


def file_keys(node: ast.Call) -> list[str]:
    """The keys an ``add_text_file("package", "name.toml"[, prefix])`` call adds, read from the file."""
    args = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    if len(args) < 2:
        return []
    # A prefix held in a name (not a literal) is not followed: the file's keys count unprefixed.
    package, name, *rest = args
    path = SRC.parent.joinpath(*package.split("."), name)
    return _toml_keys(tomllib.loads(path.read_text(encoding="utf-8")), rest[0] if rest else "")


def catalogue_keys(tree: ast.AST) -> list[str]:
    """The keys a module puts into the shared text catalogue: ``add_texts({...})``, a ``TEXTS``
    table handed to it, the catalogue files read by ``add_text_file`` and the catalogue's own
    ``_CATALOGUE``."""
    keys: list[str] = []
    named: dict[str, ast.Dict] = {}
    for node in ast.walk(tree):
        target = node.target if isinstance(node, ast.AnnAssign) else (
            node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None)
        value = node.value if isinstance(node, ast.AnnAssign | ast.Assign) else None
        if isinstance(target, ast.Name) and isinstance(value, ast.Dict):
            named[target.id] = value
            if target.id == "_CATALOGUE":
                keys += literal_keys(value)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "add_text_file":
            keys += file_keys(node)
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "add_texts" and node.args:
            arg = node.args[0]
            if isinstance(arg, ast.Name) and arg.id in named:
                arg = named[arg.id]
            if isinstance(arg, ast.Dict):
                keys += literal_keys(arg)
    return keys


def test_no_dict_literal_repeats_a_key():
    problems = []
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        problems += [f"{path.relative_to(SRC)}:{line}: {key!r}" for line, key in repeated_in_literals(tree)]
    assert not problems, "keys written twice in one dict: " + ", ".join(problems)


def test_no_catalogue_key_is_added_by_two_modules():
    where: dict[str, list[str]] = {}
    for path in SOURCES:
        for key in catalogue_keys(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            where.setdefault(key, []).append(str(path.relative_to(SRC)))
    assert sum(len(v) for v in where.values()) > 300  # the scan does find the catalogue
    twice = {k: v for k, v in where.items() if len(v) > 1}
    assert not twice, f"text keys defined in more than one place: {twice}"


def test_the_checks_catch_a_repeated_key():
    """The checks above can fail: a repeated key in a literal and across two calls are found."""
    tree = ast.parse('add_texts({"a": ("x", "х"), "b": ("y", "у"), "a": ("z", "з")})\nadd_texts({"b": ("w", "в")})')
    assert repeated_in_literals(tree) == [(1, "a")]
    assert Counter(catalogue_keys(tree)) == Counter({"a": 2, "b": 2})
