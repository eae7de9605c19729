"""Build of mushka: the rules core compiled with mypyc where it can be (docs/build.md).

The project's metadata lives in pyproject.toml; this file adds only the compiled
extension modules.  The Python source stays the source of truth: the same modules
are compiled by mypyc into C extensions when a C compiler is present, and every
import falls back to the source when they are not built, are out of date
(:mod:`mushka._build`) or when ``MUSHKA_PURE=1`` asks for the pure build.

``MUSHKA_PURE=1`` at install time builds no extension at all (and at run time
makes every import take the source).
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
SRC = HERE / "src"


def _compiled_sources(build_module: Path) -> tuple[str, ...]:
    """The source files (``mushka/cards.py``, ...) of the modules in ``mushka/_build.py``'s
    ``COMPILED``, read from its text: the build does not import the package it builds."""
    for node in ast.parse(build_module.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.AnnAssign):
            targets = [node.target]
        elif isinstance(node, ast.Assign):
            targets = node.targets
        else:
            continue
        if node.value is not None and any(getattr(t, "id", "") == "COMPILED" for t in targets):
            return tuple(m.replace(".", "/") + ".py" for m in ast.literal_eval(node.value))
    raise RuntimeError(f"no COMPILED list in {build_module}")


# The compiled modules, listed once: in mushka/_build.py, which also chooses at run time
# between them and their sources.
COMPILED = _compiled_sources(SRC / "mushka" / "_build.py")
GROUP = "mushka_core"  # the shared library: mushka_core__mypyc
STAMP = "mushka/_build_stamp.json"
_BUILT_FROM: dict[str, object] = {}  # the stamp, taken when mypyc reads the sources


def _pure_requested() -> bool:
    return os.environ.get("MUSHKA_PURE", "").strip() not in ("", "0")


def _have_compiler() -> bool:
    cc = (sysconfig.get_config_var("CC") or "cc").split()
    return bool(cc) and shutil.which(cc[0]) is not None


def _metadata_only() -> bool:
    """Whether setuptools runs this file only for metadata (egg_info, dist_info, sdist):
    the build backend does so before the build, and mypyc need not run then."""
    commands = [a for a in sys.argv[1:] if not a.startswith("-")]
    return bool(commands) and commands[0] in ("egg_info", "dist_info", "sdist", "clean")


def _extensions() -> list[object]:
    if _metadata_only():
        return []
    if _pure_requested():
        print("mushka: MUSHKA_PURE is set: pure-Python build", file=sys.stderr)
        return []
    if not _have_compiler():
        print("mushka: no C compiler found: pure-Python build", file=sys.stderr)
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:  # an install without the build requirements (no isolation)
        print("mushka: mypyc is not installed: pure-Python build", file=sys.stderr)
        return []
    # mypyc type-checks from the project root with pyproject's [tool.mypy] (strict).
    _BUILT_FROM.update(_stamp())  # before mypyc reads them: a source edited meanwhile shows as stale
    cwd = os.getcwd()
    os.chdir(HERE)
    try:
        # MUSHKA_MYPYC_OPT=0 gives a quick build for development (the C compiler's -O level).
        opt = os.environ.get("MUSHKA_MYPYC_OPT", "3")
        return list(mypycify([f"src/{m}" for m in COMPILED], group_name=GROUP, opt_level=opt,
                             target_dir="build/mypyc"))
    finally:
        os.chdir(cwd)


def _stamp() -> dict[str, object]:
    """What the compiled modules were built from: one SHA-256 per source file."""
    return {
        "compiled": {m: hashlib.sha256((SRC / m).read_bytes()).hexdigest() for m in COMPILED},
        "python": sys.implementation.cache_tag,
    }


def _remove_stale_extensions() -> None:
    """Delete compiled modules left in the tree by an earlier build whose module is no longer
    compiled (renamed, moved or removed): Python would import such a file before any source,
    an old module under its old name beside the new one."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    kept = {m.removesuffix(".py") + suffix for m in COMPILED}
    for path in (SRC / "mushka").rglob("*" + suffix):
        if path.relative_to(SRC).as_posix() not in kept:
            print(f"mushka: removing {path.relative_to(SRC)}, no longer a compiled module", file=sys.stderr)
            path.unlink()


class BuildExt(build_ext):
    """build_ext that also writes the build stamp next to the compiled modules."""

    def run(self) -> None:
        """Build the extensions, then stamp them (in the tree too for an editable install)."""
        super().run()
        if not self.extensions:
            return
        text = json.dumps(_BUILT_FROM or _stamp(), indent=1, sort_keys=True)
        targets = {Path(self.build_lib) / STAMP}
        if self.inplace or getattr(self, "editable_mode", False):
            targets.add(SRC / STAMP)
        for target in targets:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text + "\n", encoding="utf-8")
        if self.inplace or getattr(self, "editable_mode", False):
            _remove_stale_extensions()

    def get_outputs(self) -> list[str]:
        """The extension files and the stamp (so a wheel carries it)."""
        outputs = list(super().get_outputs())
        if self.extensions:
            outputs.append(str(Path(self.build_lib) / STAMP))
        return outputs


setup(ext_modules=_extensions(), cmdclass={"build_ext": BuildExt})
