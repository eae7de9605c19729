"""Which build of the rules core this process runs: compiled (mypyc) or pure Python.

The package's build (setup.py, docs/build.md) compiles the modules of
:data:`COMPILED` with mypyc into C extensions next to their sources.  The Python
source stays the source of truth: :func:`select` runs before any of them is
imported (from ``mushka/__init__.py``) and makes every one of them load from its
``.py`` file when

* ``MUSHKA_PURE`` is set to anything but ``0`` (the switch that forces the pure build),
* the extensions are not built (no C compiler, or ``MUSHKA_PURE=1`` at install time), or
* they are out of date: a source changed since the build (its SHA-256 differs from
  the one in the build stamp), so that an edited module never runs as its old
  compiled self.  ``pip install -e .`` rebuilds them.

The compiled modules are one group (they call each other natively), so it is all
of them or none.  :data:`BUILD` says which build was chosen and :data:`REASON` why.

This module stays interpreted and uses the standard library only.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import shutil
import sys
import sysconfig
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

# The rules core's hot paths and everything they call in a loop.  mushka.errors stays
# interpreted (applications subclass its exceptions, which compiled exception classes would
# not allow), and so do the catalogues of texts (i18n, rules/texts: looked up, never looped
# over).  setup.py reads this tuple from the text, so it stays a literal: one dotted name a line.
COMPILED: tuple[str, ...] = (
    "mushka._pickle",
    "mushka.cards",
    "mushka.match",
    "mushka.match_types",
    "mushka.game_steps",
    "mushka.rules.choices",
    "mushka.rules.model",
    "mushka.rules.options",
    "mushka.rules.variants",
    "mushka.engine.actions",
    "mushka.engine.chance",
    "mushka.engine.deal",
    "mushka.engine.deal_state",
    "mushka.engine.encode",
    "mushka.engine.events",
    "mushka.engine.exchanges",
    "mushka.engine.ids",
    "mushka.engine.kopilka",
    "mushka.engine.layouts",
    "mushka.engine.stacking",
    "mushka.engine.stepped",
    "mushka.engine.steps",
    "mushka.engine.trump",
    "mushka.engine.trump_cards",
    "mushka.engine.trump_declare",
    "mushka.engine.trump_state",
    "mushka.engine.trump_view",
    "mushka.engine.types",
    "mushka.engine.utility",
    "mushka.engine.views",
    "mushka.records.format",
    "mushka.worlds.facts",
    "mushka.worlds.fill",
    "mushka.worlds.kopilka",
    "mushka.worlds.resample",
    "mushka.worlds.sampler",
    "mushka.worlds.trump",
    "mushka.bots.belief",
    "mushka.bots.declaring",
    "mushka.bots.policy",
    "mushka.bots.playout",
    "mushka.bots.heuristic",
    "mushka.bots.sampler",
    "mushka.bots.value",
)
"""The modules mypyc compiles: the build's one list of them (setup.py reads it)."""

PURE_SWITCH = "MUSHKA_PURE"
"""The environment variable that forces the pure-Python build (any value but ``0``)."""

_ROOT = Path(__file__).resolve().parent.parent  # the directory that holds the package
_STAMP = Path(__file__).resolve().parent / "_build_stamp.json"

BUILD = "pure"
"""``"compiled"`` or ``"pure"``: the build this process imports (set by :func:`select`)."""

REASON = "not selected yet"
"""Why :data:`BUILD` was chosen, in English (``mushka bench`` prints it)."""


def source_path(module: str) -> Path:
    """The ``.py`` file of a module of :data:`COMPILED`."""
    return _ROOT.joinpath(*module.split(".")).with_suffix(".py")


def extension_path(module: str) -> Path | None:
    """The compiled extension file of ``module`` next to its source, if there is one."""
    src = source_path(module)
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = src.with_name(src.stem + suffix)
        if candidate.exists():
            return candidate
    return None


def pure_requested() -> bool:
    """Whether ``MUSHKA_PURE`` asks for the pure-Python build."""
    return os.environ.get(PURE_SWITCH, "").strip() not in ("", "0")


def _stale_module(stamp_path: Path = _STAMP) -> str | None:
    """The first compiled module whose source differs from what was built (or a reason)."""
    try:
        stamp = json.loads(stamp_path.read_text(encoding="utf-8"))
        built: dict[str, str] = stamp["compiled"]
    except (OSError, ValueError, KeyError, TypeError):
        return "no build stamp"
    if stamp.get("python") != sys.implementation.cache_tag:
        return "built for another Python"
    for module in COMPILED:
        rel = module.replace(".", "/") + ".py"
        try:
            digest = hashlib.sha256(source_path(module).read_bytes()).hexdigest()
        except OSError:
            return rel
        if built.get(rel) != digest:
            return rel
    return None


class _SourceFirst(importlib.abc.MetaPathFinder):
    """Finds the modules of :data:`COMPILED` as their ``.py`` sources, never the extensions."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        """A source spec for a compiled module; ``None`` (the usual search) for the rest."""
        if fullname not in _COMPILED_SET:
            return None
        return importlib.util.spec_from_file_location(fullname, source_path(fullname))


_COMPILED_SET = frozenset(COMPILED)


def select() -> str:
    """Choose the build (once, before the core is imported); return :data:`BUILD`."""
    global BUILD, REASON
    if any(isinstance(f, _SourceFirst) for f in sys.meta_path):
        return BUILD
    if pure_requested():
        BUILD, REASON = "pure", f"{PURE_SWITCH} is set"
    elif any(extension_path(m) is None for m in COMPILED):
        BUILD, REASON = "pure", "the compiled core is not built"
    else:
        stale = _stale_module()
        if stale is None:
            BUILD, REASON = "compiled", "built by mypyc from the present sources"
        else:
            BUILD, REASON = "pure", f"the compiled core is out of date ({stale}): rebuild with `pip install -e .`"
    if BUILD == "pure":
        sys.meta_path.insert(0, _SourceFirst())
    return BUILD


def compiler_available() -> bool:
    """Whether the C compiler Python was built with is on this machine (setup.py asks the same)."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()
    return bool(cc) and shutil.which(cc[0]) is not None


def needs_rebuild() -> bool:
    """Whether ``pip install -e .`` would build a compiled core newer than the one imported
    (the Makefile asks before running the tests, ``make core``)."""
    return BUILD == "pure" and not pure_requested() and compiler_available()


def imported_build() -> str:
    """The build the imported core modules really came from: ``"compiled"``, ``"pure"``
    or ``"mixed"`` (never expected: the test suite checks it)."""
    kinds = set()
    for module in COMPILED:
        loaded = sys.modules.get(module)
        if loaded is None:
            continue
        origin = getattr(loaded, "__file__", "") or ""
        kinds.add("pure" if origin.endswith(".py") else "compiled")
    if len(kinds) == 1:
        return kinds.pop()
    return "mixed" if kinds else BUILD


select()
