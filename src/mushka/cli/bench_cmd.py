"""``mushka bench``: speed of random self-play on the engine's fast path.

One line per variant and table size, each deal shuffled from a seeded
generator and played by uniformly random legal actions, measured two ways:

* ``deals_per_s`` / ``actions_per_s``: through the per-action API, choosing
  with ``random.choice(deal.legal_actions())`` and applying with
  :meth:`Deal.apply_unchecked` — what any Python driver (a bot loop, an RL
  environment) pays;
* ``playout_deals_per_s``: :meth:`Deal.playout`, the same random policy run
  inside the engine (what search rollouts use).

Every line names the build of the rules core that ran (``compiled`` by mypyc
or ``pure`` Python, docs/build.md).  ``bench/openspiel_compare.py`` compares
the first loop with OpenSpiel side by side, in both builds.
"""

from __future__ import annotations

import json
import platform
import random
import time
from typing import Annotated

import typer

from mushka import _build
from mushka.cli.common import console
from mushka.engine import new_deal
from mushka.rules import Rules, make_rules

CONFIGS = [("classic", 3), ("classic", 4), ("classic", 5), ("classic", 7),
           ("mistigri", 3), ("mistigri", 4), ("mistigri", 5), ("mistigri", 7),
           ("kopilka", 4)]


def measure(rules: Rules, seconds: float, seed: int = 1) -> dict[str, object]:
    """Play random deals for about ``seconds`` (half per method); return the rates."""
    rng = random.Random(seed)
    choice = rng.choice
    deals = actions = 0
    n = rules.players
    start = time.perf_counter()
    deadline = start + seconds / 2
    while True:
        for _ in range(100):
            deal = new_deal(rules, deals % n, rng=rng, record_events=False)
            legal = deal.legal_actions
            apply = deal.apply_unchecked
            while not deal.is_over:
                apply(choice(legal()))
                actions += 1
            deals += 1
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    playouts = 0
    begin = time.perf_counter()
    deadline = begin + seconds / 2
    while True:
        for _ in range(100):
            new_deal(rules, playouts % n, rng=rng, record_events=False).playout(rng)
            playouts += 1
        if time.perf_counter() >= deadline:
            break
    playout_rate = playouts / (time.perf_counter() - begin)
    return {
        "variant": rules.variant,
        "players": n,
        "deals": deals,
        "seconds": round(elapsed, 3),
        "deals_per_s": round(deals / elapsed, 1),
        "actions_per_s": round(actions / elapsed, 1),
        "actions_per_deal": round(actions / deals, 2),
        "playout_deals_per_s": round(playout_rate, 1),
        "build": _build.imported_build(),
    }


def register(app: typer.Typer) -> None:
    """Add ``bench`` to the app."""

    @app.command()
    def bench(
        as_json: Annotated[bool, typer.Option("--json", help="One JSON object per line.")] = False,
        seconds: Annotated[float, typer.Option("--seconds", help="Time per configuration.")] = 2.0,
        variant: Annotated[str | None, typer.Option("--variant", "-v", help="Only this variant.")] = None,
        players: Annotated[int | None, typer.Option("--players", "-p", help="Only this table size.")] = None,
        seed: Annotated[int, typer.Option("--seed", "-s")] = 1,
    ) -> None:
        """Measure random self-play on the fast path, per variant and table size."""
        configs = CONFIGS
        if variant is not None:
            wanted = make_rules(variant, 4 if players is None else players).variant
            configs = [c for c in configs if c[0] == wanted]
        if players is not None:
            configs = [c for c in configs if c[1] == players]
        if not as_json:
            console.print(f"[dim]{platform.python_implementation()} {platform.python_version()}, "
                          f"{_build.imported_build()} core ({_build.REASON}), {seconds:g} s per line[/]")
        for name, n in configs:
            row = measure(make_rules(name, n), seconds, seed)
            if as_json:
                print(json.dumps(row), flush=True)
            else:
                console.print(f"{name:9} {n} players: {row['deals_per_s']:>9,.0f} deals/s  "
                              f"{row['actions_per_s']:>10,.0f} actions/s  "
                              f"({row['actions_per_deal']} actions/deal); "
                              f"playout {row['playout_deals_per_s']:>9,.0f} deals/s")
