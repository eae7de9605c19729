"""Regenerate the engine's golden data in tests/golden/data/.

Usage::

    python scripts/regen_golden.py          # rewrite every file
    python scripts/regen_golden.py --check  # exit 1 if a file differs from what the engine gives now

Two kinds of regression data:

* **Playthroughs** (``playthrough-*.json``): seeded deals of every variant and
  one whole short game of each, played by a seeded random policy.  Each step
  lists the seat to act, what its view offers (hand, legal actions), the
  action, and the events it produced as every seat and a spectator saw them.
* **Trick-perft** (``perft.json``): from fixed stacked positions, the number of
  legal play sequences of each length (a sequence that ends the deal early
  counts once).  ``tests/golden/test_golden_perft.py`` checks the numbers both
  against the engine and against an independent brute-force walk written from
  the rules.

Change the engine on purpose, run this script, and review the diff: every
changed line is a behaviour that changed.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from dataclasses import fields, is_dataclass
from enum import Enum, StrEnum
from pathlib import Path
from typing import Any

from mushka import make_rules, new_deal, new_game
from mushka.cards import Card
from mushka.engine import Deal, DealResult, stack_deck
from mushka.engine.events import Event
from mushka.match import Game
from mushka.rules import Rules

DATA = Path(__file__).resolve().parents[1] / "tests" / "golden" / "data"

# (file stem, variant, players, options, seed, what the deal shows)
DEALS: list[tuple[str, str, int, dict[str, Any], int, str]] = [
    ("classic-3p-take", "classic", 3, {}, 5, "the dealer takes the turned card (C6), five tricks"),
    ("classic-4p", "classic", 4, {}, 10, "exchanges and five tricks"),
    ("classic-7p", "classic", 7, {}, 0, "a full table, 52 cards"),
    ("classic-3p-lone", "classic", 3, {}, 737, "a lone player takes all tricks (C10)"),
    ("classic-4p-loo", "classic", 4, {"must_head_trick": True, "must_overtrump": True}, 4,
     "Loo-style play restrictions (C14)"),
    ("classic-4p-flush", "classic", 4, {}, 106, "five of a suit shown and paid, the deal goes on (C22)"),
    ("classic-4p-mushka", "classic", 4, {}, 41, "four of a suit and the A♠ after an exchange win the мушка (C22)"),
    ("classic-4p-mushka-dealt", "classic", 4, {}, 605, "four of a suit and the A♠ dealt: the мушка at once (C22)"),
    ("mistigri-3p-flush", "mistigri", 3, {}, 222, "a flush is shown and paid (MI9)"),
    ("mistigri-5p-mushka", "mistigri", 5, {}, 114, "a special hand after the dealer's take (MI13)"),
    ("mistigri-4p", "mistigri", 4, {}, 10, "the king of clubs in play"),
    ("kopilka-groups", "kopilka", 4, {}, 0, "groups shared out (K7), draws, a take-back, a player out"),
    ("kopilka-deadlock", "kopilka", 4, {}, 8, "four leads taken back: a deadlock (K19)"),
    ("kopilka-old", "kopilka", 4, {"redistribution": "old"}, 0, "the old redistribution (K8)"),
]
# (file stem, variant, players, options, seed, what the game shows)
GAMES: list[tuple[str, str, int, dict[str, Any], int, str]] = [
    ("game-classic", "classic", 4, {"initial_record": 5}, 1, "a short partie to its settlement (C20, C21)"),
    ("game-mistigri", "mistigri", 4, {"initial_record": 5}, 2, "a short partie of mistigri"),
    ("game-kopilka", "kopilka", 4, {}, 3, "a whole session of four games and the pot (K23)"),
]

# Trick-perft positions: stacked deals, the declarations that lead to trick play,
# and the depths to count.
PERFT: list[dict[str, Any]] = [
    {"name": "classic-3p", "variant": "classic", "players": 3, "options": {}, "dealer": 2,
     "hands": ["KD 8C 9C TC JC", "AD 8S 9S TS JS", "7D AS QC KC AC"], "turnup": "TH",
     "actions": ["stand", "stand", "stand"], "depth": 9},
    {"name": "classic-3p-loo", "variant": "classic", "players": 3,
     "options": {"must_head_trick": True, "must_overtrump": True}, "dealer": 2,
     "hands": ["QD 8C 9C TC JC", "9H 8S 9S TS JS", "8H KH AS QS KS"], "turnup": "TH",
     "actions": ["stand", "stand", "stand"], "depth": 10},
    {"name": "classic-4p", "variant": "classic", "players": 4, "options": {}, "dealer": 0,
     "hands": ["TH 9D 7C AC 6S", "AH KD 7S 8C 6H", "QH JD 9S TC 7H", "JH TD 8S 9C 6D"], "turnup": "KC",
     "actions": ["stand", "stand", "stand", "stand"], "depth": 8},
    {"name": "classic-4p-free", "variant": "classic", "players": 4,
     "options": {"must_follow": False, "privileged_beats_trumps": True}, "dealer": 0,
     "hands": ["TH 9D 7C AC 6S", "AH KD 7S 8C 6H", "QH JD 9S TC 7H", "JH TD 8S 9C 6D"], "turnup": "KC",
     "actions": ["stand", "stand", "stand", "stand"], "depth": 6},
    {"name": "mistigri-3p", "variant": "mistigri", "players": 3, "options": {}, "dealer": 2,
     "hands": ["AD 8C 9C 7S 8S", "KC 9D TD JS QS", "8H QD KD 9S TS"], "turnup": "7H",
     "actions": ["stand", "stand", "stand"], "depth": 15},
    {"name": "mistigri-4p-two", "variant": "mistigri", "players": 4, "options": {}, "dealer": 0,
     "hands": [None, "KC 7D 8D 7S 8S", "AH AD KH QS JS", None], "turnup": "7H",
     "actions": ["stand", "stand", "pass", "pass"], "depth": 10},
    {"name": "kopilka", "variant": "kopilka", "players": 4, "options": {}, "dealer": 0,
     "hands": ["7H 8H QD QC JS", "KH 7D AD 7C 9S", "8D 9D 8C 9C 8S", "TD JD TC JC TS"], "turnup": None,
     "talon": "AH AS 9H JH QH KS", "actions": [], "depth": 10},
    {"name": "kopilka-forbid", "variant": "kopilka", "players": 4, "options": {"renege": "forbid"}, "dealer": 0,
     "hands": ["9S TS TH TD TC", "AH AD KH 7D AC", "7H 8D 8H KD 7C", "7S 8S 9H 9D 9C"], "turnup": None,
     "actions": [], "depth": 14},
]


# --- serialising -------------------------------------------------------------------------


def plain(value: Any) -> Any:
    """A JSON-ready form of an event field: cards as codes, suits as letters."""
    if isinstance(value, Card):
        return value.code
    if isinstance(value, DealResult):
        return value.to_json()
    if isinstance(value, StrEnum):
        return value.value  # an option's word (Shown.effect), as the rules write it
    if isinstance(value, Enum):
        return getattr(value, "letter", value.name)
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in fields(value)}
    return value


def event_json(event: Event) -> dict[str, Any]:
    return {"event": event.name, **{f.name: plain(getattr(event, f.name)) for f in fields(event)}}


def viewers(n: int) -> list[int | None]:
    return [*range(n), None]


def key(viewer: int | None) -> str:
    return "spectator" if viewer is None else str(viewer)


class _Log:
    """New events, per viewer, of every deal of a game (or of one deal) since the last call."""

    def __init__(self, target: Deal | Game) -> None:
        self.target = target
        self.seen: dict[int, int] = {}
        self.game_seen = 0

    def _deals(self) -> list[Deal]:
        return self.target.deals if isinstance(self.target, Game) else [self.target]

    def fresh(self) -> dict[str, list[dict[str, Any]]]:
        out: dict[str, list[dict[str, Any]]] = {}
        deals = self._deals()
        n = deals[0].n
        for index, deal in enumerate(deals):
            start = self.seen.get(index, 0)
            for viewer in viewers(n):
                new = deal.events(viewer)[start:]
                out.setdefault(key(viewer), []).extend(event_json(e) for e in new)
            self.seen[index] = len(deal.events(omniscient=True))
        if isinstance(self.target, Game):
            game_events = self.target.game_events()
            for viewer in viewers(n):
                out[key(viewer)].extend(event_json(e.seen_by(viewer)) for e in game_events[self.game_seen:])
            self.game_seen = len(game_events)
        return out


def playthrough(target: Deal | Game, seed: int) -> dict[str, Any]:
    """Play ``target`` with a random policy seeded by ``seed``; record every step."""
    rng = random.Random(seed)
    log = _Log(target)
    steps: list[dict[str, Any]] = []
    start = log.fresh()
    while not target.is_over:
        deal = target.deal if isinstance(target, Game) else target
        seat = target.to_act
        view = deal.view(seat)
        legal = list(target.legal_actions())
        action = legal[rng.randrange(len(legal))]
        target.apply(action, seat)
        steps.append({
            "seat": seat, "hand": [c.code for c in view.hand], "legal": [str(a) for a in view.legal],
            "action": str(action), "events": log.fresh(),
        })
    result = target.result.to_json() if target.result is not None else None
    return {"start": start, "steps": steps, "result": result}


def deal_file(stem: str, variant: str, players: int, options: dict[str, Any], seed: int, about: str) -> dict[str, Any]:
    rules = make_rules(variant, players, **options)
    deal = new_deal(rules, seed % players, rng=seed)
    head = {"about": about, "variant": variant, "players": players, "options": rules.options_text(changed_only=True),
            "seed": seed, "dealer": deal.dealer, "deck": " ".join(c.code for c in deal.deck)}
    body = playthrough(deal, seed)
    head["picks"] = " ".join(c.code for c in deal.picks)
    return {**head, **body}


def game_file(stem: str, variant: str, players: int, options: dict[str, Any], seed: int, about: str) -> dict[str, Any]:
    rules = make_rules(variant, players, **options)
    game = new_game(rules, rng=seed, first_dealer=0)
    head = {"about": about, "variant": variant, "players": players, "options": rules.options_text(changed_only=True),
            "seed": seed, "first_dealer": 0}
    body = playthrough(game, seed)
    head["decks"] = [" ".join(c.code for c in d.deck) for d in game.finished]
    return {**head, **body}


def dump(data: dict[str, Any]) -> str:
    """One step per line, so that a diff shows which step changed."""
    lines = ["{"]
    items = list(data.items())
    for i, (k, v) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        if k == "steps":
            lines.append(f"  {json.dumps(k)}: [")
            for j, step in enumerate(v):
                sep = "," if j < len(v) - 1 else ""
                lines.append("    " + json.dumps(step, ensure_ascii=False, sort_keys=True) + sep)
            lines.append("  ]" + comma)
        else:
            lines.append(f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False, sort_keys=True)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


# --- trick-perft -------------------------------------------------------------------------


def perft_rules(spec: dict[str, Any]) -> Rules:
    return make_rules(spec["variant"], spec["players"], **spec["options"])


def perft_position(spec: dict[str, Any]) -> Deal:
    """The stacked deal of a perft entry, with its declarations applied."""
    rules = perft_rules(spec)
    deck = stack_deck(rules, spec["hands"], spec["turnup"], spec.get("talon", ()), dealer=spec["dealer"], fill=True)
    deal = new_deal(rules, spec["dealer"], deck=deck)
    for action in spec["actions"]:
        deal.apply(action)
    return deal


def engine_perft(deal: Deal, depth: int) -> list[int]:
    """``counts[k - 1]``: legal action sequences of ``k`` actions, for ``k`` = 1..``depth``
    (a sequence that ends the deal after fewer actions counts once at every greater length)."""
    counts = [0] * depth

    def walk(node: Deal, level: int) -> None:
        if node.is_over:
            for k in range(level, depth):
                counts[k] += 1
            return
        if level == depth:
            return
        for action in node.legal_actions():
            child = node.copy()
            child.apply_unchecked(action)
            counts[level] += 1
            if child.is_over:
                for k in range(level + 1, depth):
                    counts[k] += 1
            else:
                walk(child, level + 1)

    walk(deal, 0)
    return counts


def perft_file() -> list[dict[str, Any]]:
    out = []
    for spec in PERFT:
        deal = perft_position(spec)
        counts = engine_perft(deal, spec["depth"])
        entry = {k: v for k, v in spec.items() if k != "depth"}
        entry["deck"] = " ".join(c.code for c in deal.deck)
        entry["counts"] = counts
        out.append(entry)
    return out


def dump_perft(entries: list[dict[str, Any]]) -> str:
    body = ",\n".join("  " + json.dumps(e, ensure_ascii=False, sort_keys=True) for e in entries)
    return "[\n" + body + "\n]\n"


# --- the files ------------------------------------------------------------------------------


def files() -> Iterator[tuple[str, str]]:
    """Every golden file's name and the text the engine gives for it now."""
    for stem, *args in DEALS:
        yield f"playthrough-{stem}.json", dump(deal_file(stem, *args))
    for stem, *args in GAMES:
        yield f"playthrough-{stem}.json", dump(game_file(stem, *args))
    yield "perft.json", dump_perft(perft_file())


def main(argv: list[str]) -> int:
    check = "--check" in argv
    DATA.mkdir(parents=True, exist_ok=True)
    stale = []
    for name, text in files():
        path = DATA / name
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(DATA.parents[2])}")
    if stale:
        print("stale golden files: " + ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
