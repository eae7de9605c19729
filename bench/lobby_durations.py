"""How long a game of each lobby preset lasts, from bot self-play: the lobby's "≈ 12 min".

The lobby offers short games (classic and mistigri with a record of 10, 15 or 20 instead
of 30; kopilka's session as it is, 4 games, or a short one of 2, option session_games) and
says about how long each takes.  The length of a
game in deals and decisions is measured here by bot self-play; the time a person takes is
a model on top of it (below), since no bot thinks like a person.

Sample, fixed in advance (the machine is shared: it is small on purpose):

- the person's seat (0) is played by the ``club`` level, the other seats by the level
  the lobby would seat (``beginner``, ``casual``, ``club``, ``strong``, ``expert``);
- the three quick levels: every table the lobby offers (classic and mistigri for 3-7,
  kopilka for 4), each preset, ``FAST_GAMES`` games on seeds 1..FAST_GAMES;
- the two search levels (``strong``, ``expert``, as shipped: 0.3 s a decision at most):
  four players only, each preset, ``SEARCH_GAMES`` games on seeds 1..SEARCH_GAMES; at
  other table sizes the lobby scales the quick levels' figure by the ratio measured at 4.

Measured per game: deals, the person's declarations and cards, the bots' decisions and
their mean thinking time, the tricks.  The model of a game's minutes for a person:

    person_declarations × PERSON_DECLARE_S + person_cards × PERSON_CARD_S
    + bot_decisions × (BOT_DELAY_S + measured thinking time)
    + tricks × TRICK_PAUSE_S + deals × DEAL_END_S

with the constants below: a person's seconds are an assumption (a player who knows the
rules; a newcomer is slower), the bots' delay and the pause on a completed trick are the
server's and the page's defaults.  The mean over the sample is written, with its standard
error, to ``src/mushka/server/durations.json``, which the server ships to the lobby.

    python bench/lobby_durations.py              # the whole sample (some minutes)
    python bench/lobby_durations.py --quick      # 5 games a table, quick levels only (a check)
    python bench/lobby_durations.py --only kopilka:2   # measure one preset (the same sample),
                                                       # merged into the data file's other figures
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

from mushka import make_rules, new_game
from mushka.bots import make_bot

OUT = Path(__file__).resolve().parents[1] / "src" / "mushka" / "server" / "durations.json"

PRESETS: dict[str, list[dict[str, int]]] = {
    "classic": [{"initial_record": r} for r in (10, 15, 20, 30)],
    "mistigri": [{"initial_record": r} for r in (10, 15, 20, 30)],
    "kopilka": [{}, {"session_games": 2}],
}
"""The lobby's presets: the record a partie starts from (C16); kopilka's session as it is (K4)
or a short one of two games (option session_games, K23 after the second)."""

QUICK_LEVELS = ("beginner", "casual", "club")
SEARCH_LEVELS = ("strong", "expert")
FAST_GAMES = 200
SEARCH_GAMES = 6

PERSON_DECLARE_S = 8.0
"""Seconds a person takes to declare (look at the hand, choose the cards to exchange)."""
PERSON_CARD_S = 4.0
"""Seconds a person takes to play a card."""
BOT_DELAY_S = 0.7
"""The server's pause before a bot's move (ServerConfig.bot_delay)."""
TRICK_PAUSE_S = 1.5
"""The page's pause on a completed trick at the normal speed (motion.js PAUSE_MS)."""
DEAL_END_S = 6.0
"""Reading the end-of-deal box and the new deal being dealt."""


@dataclass
class Tally:
    """What one game took."""

    deals: int = 0
    person_declare: int = 0
    person_cards: int = 0
    bot_decisions: int = 0
    bot_seconds: float = 0.0
    tricks: int = 0

    def seconds(self) -> float:
        """The model's seconds for a person at this game."""
        think = self.bot_seconds / self.bot_decisions if self.bot_decisions else 0.0
        return (self.person_declare * PERSON_DECLARE_S + self.person_cards * PERSON_CARD_S
                + self.bot_decisions * (BOT_DELAY_S + think) + self.tricks * TRICK_PAUSE_S
                + self.deals * DEAL_END_S)


def play(variant: str, players: int, options: dict[str, int], level: str, seed: int) -> Tally:
    """One game: seat 0 by ``club`` (the person), the others by ``level``."""
    rules = make_rules(variant, players, **options)
    game = new_game(rules, rng=seed)
    bots = [make_bot("club")] + [make_bot(level) for _ in range(players - 1)]
    rng = random.Random(seed)
    tally = Tally()
    while not game.is_over:
        seat = game.to_act
        view = game.view(seat)
        started = time.perf_counter()
        action = bots[seat].choose(view, rng)
        spent = time.perf_counter() - started
        if seat == 0:
            if view.deal.phase == "play":
                tally.person_cards += 1
            else:
                tally.person_declare += 1
        else:
            tally.bot_decisions += 1
            tally.bot_seconds += spent
        game.apply(action, seat)
    final = game.view(0)
    tally.deals = final.number
    tally.tricks = sum(sum(result.tricks) for result in final.history)
    return tally


@dataclass
class Cell:
    """The sample of one table, preset and level."""

    games: list[Tally] = field(default_factory=list)

    def summary(self) -> dict[str, float]:
        """Means (and the minutes' standard error) over the sample."""
        minutes = [g.seconds() / 60 for g in self.games]
        n = len(minutes)
        se = statistics.stdev(minutes) / math.sqrt(n) if n > 1 else 0.0
        think = sum(g.bot_seconds for g in self.games) / max(1, sum(g.bot_decisions for g in self.games))
        return {"games": n, "minutes": round(statistics.fmean(minutes), 2), "minutes_se": round(se, 2),
                "deals": round(statistics.fmean(g.deals for g in self.games), 2),
                "person_moves": round(statistics.fmean(g.person_declare + g.person_cards for g in self.games), 1),
                "bot_moves": round(statistics.fmean(g.bot_decisions for g in self.games), 1),
                "bot_think_s": round(think, 4)}


def preset_key(variant: str, options: dict[str, int]) -> str:
    """``classic:10`` for a record of 10, ``kopilka`` for the session as it is, ``kopilka:2``
    for a session of two games."""
    if "initial_record" in options:
        return f"{variant}:{options['initial_record']}"
    if "session_games" in options:
        return f"{variant}:{options['session_games']}"
    return variant


def main(argv: list[str] | None = None) -> None:
    """Play the sample and write the data file (or print it)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="5 games a table, quick levels only (a check); written only with --out")
    parser.add_argument("--out", type=Path, help=f"where to write the data (default: {OUT.name} beside the server)")
    parser.add_argument("--only", metavar="PRESET",
                        help="measure only this preset (e.g. kopilka:2) and keep the data file's other figures")
    args = parser.parse_args(argv)
    known = {preset_key(v, o) for v, presets in PRESETS.items() for o in presets}
    if args.only is not None and args.only not in known:
        parser.error(f"--only {args.only}: the presets are {', '.join(sorted(known))}")
    fast_games = 5 if args.quick else FAST_GAMES
    levels = QUICK_LEVELS if args.quick else QUICK_LEVELS + SEARCH_LEVELS
    cells: dict[str, dict[str, dict[str, float]]] = {}
    started = time.perf_counter()
    for variant, presets in PRESETS.items():
        sizes = (4,) if variant == "kopilka" else (3, 4, 5, 6, 7)
        for players in sizes:
            for options in presets:
                if args.only is not None and preset_key(variant, options) != args.only:
                    continue
                key = f"{preset_key(variant, options)}/{players}"
                for level in levels:
                    search = level in SEARCH_LEVELS
                    if search and players != 4:
                        continue
                    cell = Cell([play(variant, players, options, level, seed)
                                 for seed in range(1, (SEARCH_GAMES if search else fast_games) + 1)])
                    cells.setdefault(key, {})[level] = cell.summary()
                print(key, {lv: s["minutes"] for lv, s in cells[key].items()}, flush=True)
    data = {
        "method": ("bench/lobby_durations.py: bot self-play, the person's seat played by the club level; "
                   f"minutes = person's declarations × {PERSON_DECLARE_S} s + cards × {PERSON_CARD_S} s"
                   f" + bots' moves × ({BOT_DELAY_S} s + their measured thinking) + tricks × {TRICK_PAUSE_S} s"
                   f" + deals × {DEAL_END_S} s"),
        "sample": {"quick_levels": list(QUICK_LEVELS), "search_levels": list(SEARCH_LEVELS),
                   "quick_games": fast_games, "search_games": SEARCH_GAMES, "search_players": 4},
        "seconds_run": round(time.perf_counter() - started),
        "tables": cells,
    }
    out = args.out or (None if args.quick else OUT)
    if args.only is not None and out is not None and out.exists():
        # One preset measured anew: the other figures stay as the last whole run wrote them.
        old = json.loads(out.read_text(encoding="utf-8"))
        old["tables"].update(cells)
        old.setdefault("seconds_run_by_preset", {})[args.only] = data["seconds_run"]
        data = old
    if out is None:
        print(json.dumps(data, indent=1)[:2000])
        return
    out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {out} in {round(time.perf_counter() - started)} s")


if __name__ == "__main__":
    main()
