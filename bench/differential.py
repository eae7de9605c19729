"""Fingerprints of what the engine and the bots do, to compare two builds or two commits.

A restructuring of the code must not change one result.  This script plays a
fixed sample and prints one SHA-256 per part, so that two checkouts (or the
compiled and the pure build of one) can be compared by their hashes alone:

* **games**: for every variant, at least 300 whole games between the cheap bots
  and levels (``mushka simulate --records``, one process, fixed seeds), at
  several table sizes and with house rules changed; the hash covers every
  record written, byte for byte.
* **choices**: the search bots' choices on fixed positions.  The positions come
  from games between ``heuristic`` bots (seeded); at each one, every search level
  and the ISMCTS bot choose with a seeded generator.  The levels' time budgets
  are replaced by a playout budget (``seconds`` is set far beyond reach), since a
  clock makes a choice depend on the machine's load.

Usage::

    python bench/differential.py              # everything, one JSON line
    python bench/differential.py --part games
    MUSHKA_PURE=1 python bench/differential.py  # the pure build

The sample is fixed here and never depends on the command line, so two runs
with the same code print the same hashes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# (variant, players, bots, options, games): 300 games or more per variant.
GAME_RUNS: tuple[tuple[str, int, str, tuple[str, ...], int], ...] = (
    ("classic", 4, "heuristic,casual,beginner,random", (), 100),
    ("classic", 3, "heuristic,beginner,casual", (), 60),
    ("classic", 6, "heuristic,random,casual,beginner,heuristic,random", (), 40),
    (
        "classic",
        4,
        "heuristic,casual,heuristic,beginner",
        ("must_head_trick=true", "must_overtrump=true", "lone_player=dealer_must_play"),
        60,
    ),
    (
        "classic",
        5,
        "heuristic,casual,beginner,random,heuristic",
        ("all_pass=same_dealer", "remiz=0", "flush=wins_mushka", "privileged_four=as_flush"),
        40,
    ),
    ("mistigri", 4, "heuristic,casual,beginner,random", (), 120),
    ("mistigri", 5, "heuristic,casual,beginner,random,heuristic", (), 100),
    (
        "mistigri",
        3,
        "heuristic,beginner,casual",
        ("must_head_trick=true", "flush=none", "lone_player=dealer_must_play"),
        80,
    ),
    ("kopilka", 4, "heuristic,casual,beginner,random", (), 120),
    ("kopilka", 4, "heuristic,heuristic,beginner,casual", (), 100),
    ("kopilka", 4, "heuristic,casual,beginner,random", ("remiz=0", "renege=forbid", "redistribution=old"), 80),
)

# (variant, players, game seeds, decisions skipped between two positions)
POSITION_TABLES: tuple[tuple[str, int, tuple[int, ...], int], ...] = (
    ("classic", 4, (11, 12, 13), 9),
    ("classic", 3, (21, 22), 7),
    ("mistigri", 4, (31, 32, 33), 9),
    ("kopilka", 4, (41, 42, 43), 9),
    ("kopilka", 4, (51, 52), 7),
)
POSITIONS_PER_GAME = 4
SEARCH_LEVELS = ("strong", "expert")
ISMCTS_SPEC = "ismcts:iterations=120"
PLAYOUTS = 120


def _sha(chunks: list[bytes]) -> str:
    digest = hashlib.sha256()
    for chunk in chunks:
        digest.update(len(chunk).to_bytes(8, "big"))
        digest.update(chunk)
    return digest.hexdigest()


def games_hash() -> dict[str, object]:
    """Play the fixed game sample through ``mushka simulate`` and hash its records."""
    per_variant: dict[str, list[bytes]] = {}
    counts: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for index, (variant, players, bots, options, games) in enumerate(GAME_RUNS):
            out = Path(tmp) / f"run{index}"
            cmd = [
                str(Path(sys.executable).with_name("mushka")),
                "simulate",
                "-n",
                str(games),
                "-v",
                variant,
                "-p",
                str(players),
                "-b",
                bots,
                "-s",
                str(1000 + index),
                "-j",
                "1",
                "--no-progress",
                "--records",
                str(out),
                "--json",
                "--lang",
                "en",
            ]
            for option in options:
                cmd += ["-o", option]
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            files = sorted(out.glob("*.json"))
            per_variant.setdefault(variant, []).extend(f.read_bytes() for f in files)
            counts[variant] = counts.get(variant, 0) + len(files)
    hashes = {v: _sha(chunks) for v, chunks in sorted(per_variant.items())}
    return {"games": counts, "hashes": hashes}


def _budgeted(spec: str) -> str:
    """``spec`` with its clock budget out of reach and ``PLAYOUTS`` playouts."""
    name, _, args = spec.partition(":")
    kept = [a for a in args.split(",") if a and not a.startswith(("seconds=", "iterations="))]
    return f"{name}:" + ",".join([*kept, f"iterations={PLAYOUTS}", "seconds=1000"])


def choices_hash() -> dict[str, object]:
    """The search bots' choices on the fixed positions, hashed."""
    from mushka.bots import make_bot
    from mushka.bots.levels import LEVELS
    from mushka.match import new_game
    from mushka.rules import make_rules

    levels = {lv.id: lv for lv in LEVELS}
    lines: list[bytes] = []
    decisions = 0
    for variant, players, seeds, stride in POSITION_TABLES:
        rules = make_rules(variant, players)
        searchers = [(lid, make_bot(_budgeted(levels[lid].spec_for(variant, players)))) for lid in SEARCH_LEVELS]
        searchers.append(("ismcts", make_bot(ISMCTS_SPEC)))
        for seed in seeds:
            game = new_game(rules, rng=seed)
            walker = make_bot("heuristic")
            walk_rng = random.Random(seed)
            taken = 0
            step = 0
            while not game.is_over and taken < POSITIONS_PER_GAME:
                seat = game.to_act
                view = game.view(seat)
                if step % stride == stride - 1 and len(game.legal_actions()) > 1:
                    for name, bot in searchers:
                        choice = bot.choose(view, random.Random(seed * 1000 + step))
                        lines.append(f"{variant}/{players}/{seed}/{step}/{name}: {choice}".encode())
                        decisions += 1
                    taken += 1
                game.apply(walker.choose(view, walk_rng), seat)
                step += 1
    return {"decisions": decisions, "hash": _sha(lines), "lines": [ln.decode() for ln in lines]}


def main() -> None:
    """Print the fingerprints as one JSON object."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--part", choices=("games", "choices", "all"), default="all")
    parser.add_argument("--lines", action="store_true", help="also print every choice (to find a difference)")
    args = parser.parse_args()
    from mushka import _build

    out: dict[str, object] = {"build": _build.BUILD}
    started = time.perf_counter()
    if args.part in ("games", "all"):
        out["games"] = games_hash()
    if args.part in ("choices", "all"):
        choices = choices_hash()
        if not args.lines:
            choices.pop("lines")
        out["choices"] = choices
    out["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    main()
