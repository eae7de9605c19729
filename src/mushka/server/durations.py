"""The lobby's short games: presets of a table's options, each with about how long it takes.

A partie of classic or mistigri is played from a record of 30 down to 0 (C16); the lobby
offers shorter ones from 20, 15 or 10, and says for each, at the chosen table size and
level, about how many minutes a person should expect.  Kopilka's session (K4) is offered
as it is or as a short session of two games (option ``session_games``, K23 after the
second), each with its own estimate.

The minutes come from ``durations.json`` beside this module, written by
``bench/lobby_durations.py``: bot self-play measured the deals and moves of each preset,
and a stated model turns them into a person's minutes (a person's seconds a move, the
server's delay before a bot's move, the page's pause on a trick; see that script).  Where
a level was measured only at four players (the search levels), its figure at another
size is the quick ``club`` level's there, scaled by the two levels' ratio at four.  A
table or level the file does not cover has no estimate: the page then says nothing.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any, Final

from mushka.server.bodies import PresetInfo

DATA: Final = Path(__file__).with_name("durations.json")

PRESETS: Final[dict[str, tuple[tuple[str, dict[str, str]], ...]]] = {
    "classic": (("full", {}), ("record20", {"initial_record": "20"}), ("record15", {"initial_record": "15"}),
                ("record10", {"initial_record": "10"})),
    "mistigri": (("full", {}), ("record20", {"initial_record": "20"}), ("record15", {"initial_record": "15"}),
                 ("record10", {"initial_record": "10"})),
    "kopilka": (("full", {}), ("session2", {"session_games": "2"})),
}
"""Each variant's presets, the full game first: an id and the options it sets (C16's record,
kopilka's session_games)."""

FULL_RECORD: Final = "30"
"""The record of a full partie (the option's default, C16): the data file's key for "full"."""

REFERENCE: Final = "club"
"""The quick level measured at every table size, which scales the search levels' figures."""


@cache
def _tables() -> dict[str, dict[str, dict[str, Any]]]:
    """The measured tables of the data file (empty if there is none)."""
    try:
        data = json.loads(DATA.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    tables = data.get("tables") if isinstance(data, dict) else None
    return tables if isinstance(tables, dict) else {}


def _key(variant: str, options: dict[str, str]) -> str:
    """The data file's name of a preset: ``classic:20``, ``kopilka``, ``kopilka:2``."""
    if variant == "kopilka":
        games = options.get("session_games")
        return variant if games in (None, "4") else f"{variant}:{games}"
    return f"{variant}:{options.get('initial_record', FULL_RECORD)}"


def minutes(variant: str, options: dict[str, str], players: int, level: str) -> float | None:
    """About how many minutes a person plays a game of this preset, or None if not measured."""
    tables = _tables()
    key = _key(variant, options)
    cell = tables.get(f"{key}/{players}", {})
    if level in cell:
        return float(cell[level]["minutes"])
    # Measured at four players only: scale the reference level's figure at this size.
    at_four = tables.get(f"{key}/4", {})
    if level in at_four and REFERENCE in at_four and REFERENCE in cell and at_four[REFERENCE]["minutes"] > 0:
        ratio = float(at_four[level]["minutes"]) / float(at_four[REFERENCE]["minutes"])
        return float(cell[REFERENCE]["minutes"]) * ratio
    return None


def presets(variant: str, players: Sequence[int], levels: Sequence[str]) -> list[PresetInfo]:
    """The presets of ``variant``, each with its minutes by level and table size (where known)."""
    out = []
    for preset_id, options in PRESETS.get(variant, ()):
        table: dict[str, dict[str, float]] = {}
        for level in levels:
            by_size = {str(p): round(m, 1) for p in players
                       if (m := minutes(variant, options, p, level)) is not None}
            if by_size:
                table[level] = by_size
        out.append(PresetInfo(id=preset_id, options=dict(options), minutes=table))
    return out
