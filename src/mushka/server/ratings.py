"""Per-player statistics and a rating, computed from the stored games.

Who is who: a person is his nickname (the name he gave at the table, which
the page keeps in the browser), compared without regard to case; a seat
without a name is not counted.  There is no account system: anybody may
play under any nickname, so the board is a friendly one, not a proof of
strength.  A bot is its level (``expert``, ``club`` …): every seat a level
held counts for it.

Statistics per player: games, wins, the average record at the end of a
partie in classic and in mistigri (C20, lower is better), the money of
kopilka sessions (the pot taken at the end included, K23) and of all games.

The rating is openskill's Plackett-Luce model (Weng and Lin's Bayesian
approximation, a maintained library with no dependencies): it rates a game
of any number of players from their finishing order in one step, which is
what a Мушка partie of three to seven players gives, and it keeps each
player's uncertainty (σ) so that a newcomer moves fast and a regular slowly.
The finishing order is the winner first, then the others by the money the
game left them.  The board is sorted by the conservative rating μ − 3σ.  A
level that held several seats of one game takes the mean of its seats'
updates.

The ratings are rebuilt from every finished game at the server's start (the
games are the truth, the ratings a view of them: nothing else is stored) and
moved on incrementally as each game ends.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from openskill.models import PlackettLuce, PlackettLuceRating

from mushka.server.bodies import PlayerStats, RatingsReply
from mushka.server.store import SeatSnapshot, TableSnapshot, TableStore

log = logging.getLogger("mushka.server")

PAGE: Final = 200
"""Finished games read from storage at a time while rebuilding."""


def player_key(seat: SeatSnapshot) -> str | None:
    """Who held ``seat`` for the ratings: ``p:nickname`` (case-folded), ``b:level``, or None."""
    if seat.kind == "bot" and seat.bot:
        return "b:" + seat.bot.split(":", maxsplit=1)[0]
    if seat.kind == "human" and seat.name and seat.name.strip():
        return "p:" + " ".join(seat.name.split()).casefold()
    return None


@dataclass(slots=True)
class Line:
    """One player's or one level's statistics and rating."""

    name: str
    bot: bool
    rating: PlackettLuceRating
    games: int = 0
    wins: int = 0
    records: dict[str, list[int]] = field(default_factory=lambda: {"classic": [0, 0], "mistigri": [0, 0]})
    """Per variant: [partie ends counted, sum of the final records]."""
    kopilka_games: int = 0
    kopilka_money: int = 0
    money: int = 0

    def stats(self, rank: int = 0) -> PlayerStats:
        """The line as the lobby shows it."""
        def average(variant: str) -> float | None:
            n, total = self.records[variant]
            return round(total / n, 1) if n else None

        return PlayerStats(
            name=self.name, bot=self.bot, games=self.games, wins=self.wins,
            classic_games=self.records["classic"][0], classic_record=average("classic"),
            mistigri_games=self.records["mistigri"][0], mistigri_record=average("mistigri"),
            kopilka_games=self.kopilka_games, kopilka_money=self.kopilka_money, money=self.money,
            mu=round(self.rating.mu, 2), sigma=round(self.rating.sigma, 2),
            rating=round(self.rating.ordinal(), 2), rank=rank)


class Ratings:
    """Every player's line, moved on game by game (see the module docstring)."""

    def __init__(self) -> None:
        """No games counted yet."""
        self.model = PlackettLuce()
        self.lines: dict[str, Line] = {}
        self.counted: set[str] = set()
        """The tables whose games are counted (each once, however it arrives)."""

    @property
    def games(self) -> int:
        """Finished games counted."""
        return len(self.counted)

    def add(self, table_id: str, variant: str, seats: Sequence[SeatSnapshot], result: Mapping[str, Any]) -> bool:
        """Count one finished game (``result`` is ``GameResult.to_json``); False if it was counted."""
        if table_id in self.counted:
            return False
        self.counted.add(table_id)
        money = [int(m) for m in result.get("money", [])]
        records = [int(r) for r in result.get("records", [])]
        winner = result.get("winner")
        keyed = [(s.seat, key) for s in seats if (key := player_key(s)) is not None]
        if not keyed or len(money) != len(seats):
            return True
        for seat, key in keyed:
            line = self._line(key, seats[seat])
            line.games += 1
            line.wins += winner == seat
            line.money += money[seat]
            if variant == "kopilka":
                line.kopilka_games += 1
                line.kopilka_money += money[seat]
            elif variant in line.records and len(records) == len(seats) and not result.get("truncated"):
                line.records[variant][0] += 1
                line.records[variant][1] += records[seat]
        if len(keyed) >= 2:
            self._rate(keyed, money, winner)
        return True

    def _line(self, key: str, seat: SeatSnapshot) -> Line:
        line = self.lines.get(key)
        bot = key.startswith("b:")
        name = key[2:] if bot else " ".join((seat.name or "").split())
        if line is None:
            line = self.lines[key] = Line(name=name, bot=bot, rating=self.model.rating(name=key))
        elif not bot:
            line.name = name  # the nickname as last written
        return line

    def _rate(self, keyed: list[tuple[int, str]], money: list[int], winner: object) -> None:
        # The finishing order: the winner, then by money left (ties share a place).
        def order(seat: int) -> tuple[int, int]:
            return (0 if winner == seat else 1, -money[seat])

        places = sorted({order(seat) for seat, _ in keyed})
        teams = [[self.model.create_rating([self.lines[key].rating.mu, self.lines[key].rating.sigma], name=key)]
                 for _, key in keyed]
        ranks = [float(places.index(order(seat)) + 1) for seat, _ in keyed]
        rated = self.model.rate(teams, ranks=ranks)
        updates: dict[str, list[tuple[float, float]]] = {}
        for (_, key), team in zip(keyed, rated, strict=True):
            updates.setdefault(key, []).append((team[0].mu, team[0].sigma))
        for key, seen in updates.items():
            mu = sum(m for m, _ in seen) / len(seen)
            sigma = sum(s for _, s in seen) / len(seen)
            self.lines[key].rating = self.model.create_rating([mu, sigma], name=key)

    def add_snapshot(self, snap: TableSnapshot) -> bool:
        """Count a stored finished game (its record holds the result)."""
        if snap.record is None:
            return False
        result = json.loads(snap.record).get("result") or {}
        game = result.get("game")
        if not isinstance(game, dict):
            return False
        return self.add(snap.id, snap.variant, snap.seats, game)

    @classmethod
    def rebuild(cls, store: TableStore) -> Ratings:
        """Every stored finished game counted, oldest first (blocking: run it in a thread)."""
        ratings = cls()
        offset = 0
        while True:
            page = store.finished_records(PAGE, offset)
            for snap in page:
                try:
                    ratings.add_snapshot(snap)
                except (ValueError, TypeError, KeyError, AttributeError) as exc:
                    log.warning("ratings: game %s left out: %s", snap.id, exc)
            if len(page) < PAGE:
                break
            offset += PAGE
        return ratings

    def board(self, name: str | None = None, limit: int = 20) -> RatingsReply:
        """The leaderboard: the best ``limit`` people, every level, and the line of ``name``."""
        people = sorted((ln for ln in self.lines.values() if not ln.bot),
                        key=lambda ln: (-ln.rating.ordinal(), -ln.games, ln.name.casefold()))
        bots = sorted((ln for ln in self.lines.values() if ln.bot), key=lambda ln: -ln.rating.ordinal())
        you = None
        if name and name.strip():
            key = "p:" + " ".join(name.split()).casefold()
            line = self.lines.get(key)
            if line is not None:
                you = line.stats(people.index(line) + 1)
        return RatingsReply(players=[ln.stats(i) for i, ln in enumerate(people[:limit], 1)],
                            bots=[ln.stats(i) for i, ln in enumerate(bots, 1)], you=you, games=self.games)
