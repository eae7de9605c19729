"""Per-player statistics and a rating per variant, computed from the stored games.

Who is who: a person is his nickname (the name he gave at the table, which the page
keeps in the browser), compared without regard to case; a seat without a name is not
counted.  A bot is its level (``expert``, ``club`` …): every seat a level held counts
for it.

Which games count (:class:`GameRating`, decided by the table when its game ends and
stored with it): only games that people played to the end.  Tables of bots only and
tutorial tables are not rated, nor a table that a person left at once (before making
:data:`MIN_OWN_MOVES` moves himself; the bots that finished it for him played the game,
not he).  A person who left later and did not come back within the grace time loses by
forfeit: he is placed last, and the others' results count as the game gave them.  A
table whose only person left ends after the grace time (nobody is left to play for),
and that forfeit is counted the same way.

Statistics per player: games, wins, the average record at the end of a partie in
classic and in mistigri (C20, lower is better), the money of kopilka sessions (the pot
taken at the end included, K23) and of all games.

The rating is openskill's Plackett-Luce model (Weng and Lin's Bayesian approximation, a
maintained library with no dependencies): it rates a game of any number of players from
their finishing order in one step, which is what a Мушка partie of three to seven
players gives, and it keeps each player's uncertainty (σ), so that a newcomer moves fast
and a regular slowly.  One rating per variant, since the three games ask for different
skills.  The finishing order is the winner first, then the others by the money the game
left them, forfeits last.  A level that held several seats of one game takes the mean of
its seats' updates.

Shown on a familiar scale: :data:`CENTRE` (1500) for a newcomer, one unit of openskill's
μ worth :data:`SCALE` points, so that a newcomer's uncertainty (σ = 25/3) is ±400
points; a rating is *provisional* for the first :data:`PROVISIONAL_GAMES` games of the
variant.  The board lists the established ratings first.

The ratings are rebuilt from every finished game at the server's start (the games are the
truth, the ratings a view of them: nothing else is stored) and moved on incrementally as
each game ends, on every process alike.  For a player's profile (docs/friends.md) each line also
keeps his rating after each of his last :data:`HISTORY` rated games, those games' tables, and
whom he played with and who finished ahead.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from openskill.models import PlackettLuce, PlackettLuceRating

from mushka.server.bodies import PlayerStats, RatingsReply, VariantRating
from mushka.server.store import GameRating, SeatSnapshot, TableSnapshot, TableStore

log = logging.getLogger("mushka.server")

PAGE: Final = 200
"""Finished games read from storage at a time while rebuilding."""

VARIANTS: Final = ("classic", "mistigri", "kopilka")
"""The variants rated apart."""

HISTORY: Final = 200
"""Rated games kept per player for his profile (his rating after each, the last tables)."""

CENTRE: Final = 1500
"""The shown rating of a newcomer."""

MU: Final = 25.0
"""openskill's μ of a newcomer."""

SCALE: Final = 48.0
"""Points of the shown rating per unit of μ: a newcomer's σ (25/3) is 400 points."""

PROVISIONAL_GAMES: Final = 10
"""Games of a variant after which a rating is no longer provisional."""

MIN_OWN_MOVES: Final = 3
"""Moves a person must have made himself for a table he left to be rated (as his forfeit);
one he left before that is not rated at all."""


def shown_rating(mu: float) -> int:
    """μ on the familiar scale (see the module docstring)."""
    return round(CENTRE + (mu - MU) * SCALE)


def player_key(seat: SeatSnapshot) -> str | None:
    """Who held ``seat`` for the ratings: ``p:nickname`` (case-folded), ``b:level``, or None."""
    if seat.kind == "bot" and seat.bot:
        return "b:" + seat.bot.split(":", maxsplit=1)[0]
    if seat.kind == "human" and seat.name and seat.name.strip():
        return "p:" + " ".join(seat.name.split()).casefold()
    return None


def default_rating(seats: Sequence[SeatSnapshot]) -> GameRating:
    """How a game stored before the table decided it is rated: as then, but never a table of
    bots only."""
    if not any(s.kind == "human" for s in seats):
        return GameRating(rated=False, why="bots_only")
    return GameRating(rated=True)


@dataclass(slots=True)
class Standing:
    """One player's rating in one variant."""

    rating: PlackettLuceRating
    games: int = 0
    history: list[tuple[str, int]] = field(default_factory=list)
    """(table id, shown rating after it) of the last :data:`HISTORY` rated games, oldest first."""

    def out(self) -> VariantRating:
        """As the board shows it."""
        return VariantRating(rating=shown_rating(self.rating.mu), games=self.games,
                             provisional=self.games < PROVISIONAL_GAMES)


@dataclass(slots=True)
class Line:
    """One player's or one level's statistics and ratings."""

    name: str
    bot: bool
    standings: dict[str, Standing] = field(default_factory=dict)
    games: int = 0
    wins: int = 0
    forfeits: int = 0
    records: dict[str, list[int]] = field(default_factory=lambda: {"classic": [0, 0], "mistigri": [0, 0]})
    """Per variant: [partie ends counted, sum of the final records]."""
    kopilka_games: int = 0
    kopilka_money: int = 0
    money: int = 0
    together: dict[str, list[int]] = field(default_factory=dict)
    """Per other person's key: [rated games together, finished ahead of him, behind him]."""
    recent: list[str] = field(default_factory=list)
    """The tables of the last :data:`HISTORY` rated games, oldest first."""

    def stats(self, variant: str, rank: int = 0) -> PlayerStats:
        """The line as the board of ``variant`` shows it."""
        def average(name: str) -> float | None:
            n, total = self.records[name]
            return round(total / n, 1) if n else None

        standing = self.standings.get(variant)
        shown = standing.out() if standing is not None else VariantRating(rating=CENTRE, games=0, provisional=True)
        return PlayerStats(
            name=self.name, bot=self.bot, games=self.games, wins=self.wins, forfeits=self.forfeits,
            classic_games=self.records["classic"][0], classic_record=average("classic"),
            mistigri_games=self.records["mistigri"][0], mistigri_record=average("mistigri"),
            kopilka_games=self.kopilka_games, kopilka_money=self.kopilka_money, money=self.money,
            rating=shown.rating, provisional=shown.provisional, variant_games=shown.games,
            ratings={v: s.out() for v, s in self.standings.items()}, rank=rank)


class Ratings:
    """Every player's line, moved on game by game (see the module docstring)."""

    def __init__(self) -> None:
        """No games counted yet."""
        self.model = PlackettLuce()
        self.lines: dict[str, Line] = {}
        self.counted: set[str] = set()
        """The tables whose games were looked at (each once, however it arrives)."""
        self.rated = 0
        """Games counted (rated ones)."""

    @property
    def games(self) -> int:
        """Rated games counted."""
        return self.rated

    def add(self, table_id: str, variant: str, seats: Sequence[SeatSnapshot], result: Mapping[str, Any] | None,
            rating: GameRating | None = None) -> bool:
        """Count one ended game (``result`` is ``GameResult.to_json``, None for a table that ended
        by a forfeit before its game did); False if it was counted already."""
        if table_id in self.counted:
            return False
        self.counted.add(table_id)
        how = rating if rating is not None else default_rating(seats)
        if not how.rated:
            return True
        forfeit = set(how.forfeit)
        game = result or {}
        money = [int(m) for m in game.get("money", [])]
        records = [int(r) for r in game.get("records", [])]
        winner = game.get("winner")
        if result is not None and len(money) != len(seats):
            return True
        if result is None and not forfeit:
            return True  # nothing to rate by
        keyed = [(s.seat, key) for s in seats if (key := player_key(s)) is not None]
        if not keyed:
            return True
        self.rated += 1
        for seat, key in keyed:
            line = self._line(key, seats[seat])
            line.games += 1
            if seat in forfeit:
                line.forfeits += 1
                continue
            if result is None:
                continue
            line.wins += winner == seat
            line.money += money[seat]
            if variant == "kopilka":
                line.kopilka_games += 1
                line.kopilka_money += money[seat]
            elif variant in line.records and len(records) == len(seats) and not game.get("truncated"):
                line.records[variant][0] += 1
                line.records[variant][1] += records[seat]
        if len({key for _, key in keyed}) >= 2 and variant in VARIANTS:
            self._rate(variant, keyed, money, winner, forfeit, table_id)
        return True

    def _line(self, key: str, seat: SeatSnapshot) -> Line:
        line = self.lines.get(key)
        bot = key.startswith("b:")
        name = key[2:] if bot else " ".join((seat.name or "").split())
        if line is None:
            line = self.lines[key] = Line(name=name, bot=bot)
        elif not bot:
            line.name = name  # the nickname as last written
        return line

    def _standing(self, key: str, variant: str) -> Standing:
        line = self.lines[key]
        standing = line.standings.get(variant)
        if standing is None:
            standing = line.standings[variant] = Standing(self.model.rating(name=key))
        return standing

    def _rate(self, variant: str, keyed: list[tuple[int, str]], money: list[int], winner: object,
              forfeit: set[int], table_id: str = "") -> None:
        # The finishing order: forfeits last; then the winner, then by money left (ties share a place).
        def order(seat: int) -> tuple[int, int, int]:
            if seat in forfeit:
                return (1, 0, 0)
            return (0, 0 if winner == seat else 1, -money[seat] if money else 0)

        places = sorted({order(seat) for seat, _ in keyed})
        self._meet(table_id, [(key, places.index(order(seat))) for seat, key in keyed])
        teams = [[self.model.create_rating([self._standing(key, variant).rating.mu,
                                            self._standing(key, variant).rating.sigma], name=key)]
                 for _, key in keyed]
        ranks = [float(places.index(order(seat)) + 1) for seat, _ in keyed]
        rated = self.model.rate(teams, ranks=ranks)
        updates: dict[str, list[tuple[float, float]]] = {}
        for (_, key), team in zip(keyed, rated, strict=True):
            updates.setdefault(key, []).append((team[0].mu, team[0].sigma))
        for key, seen in updates.items():
            mu = sum(m for m, _ in seen) / len(seen)
            sigma = sum(s for _, s in seen) / len(seen)
            standing = self._standing(key, variant)
            standing.rating = self.model.create_rating([mu, sigma], name=key)
            standing.games += 1
            standing.history.append((table_id, shown_rating(mu)))
            del standing.history[:-HISTORY]

    def _meet(self, table_id: str, placed: list[tuple[str, int]]) -> None:
        """Who played whom in one rated game, and who finished ahead (people only)."""
        people = [(key, place) for key, place in placed if key.startswith("p:")]
        for key, place in people:
            line = self.lines[key]
            if table_id and (not line.recent or line.recent[-1] != table_id):
                line.recent.append(table_id)
                del line.recent[:-HISTORY]
            for other, their in people:
                if other == key:
                    continue
                met = line.together.setdefault(other, [0, 0, 0])
                met[0] += 1
                met[1] += place < their
                met[2] += place > their

    def add_snapshot(self, snap: TableSnapshot) -> bool:
        """Count a stored ended game (its record holds the result; a forfeit has none)."""
        how = GameRating.loads(snap.rating) if snap.rating else None
        if snap.record is None:
            if how is None or not how.forfeit:
                return False
            return self.add(snap.id, snap.variant, snap.seats, None, how)
        result = json.loads(snap.record).get("result") or {}
        game = result.get("game")
        if not isinstance(game, dict):
            return False
        return self.add(snap.id, snap.variant, snap.seats, game, how)

    @classmethod
    def rebuild(cls, store: TableStore) -> Ratings:
        """Every stored ended game counted, oldest first (blocking: run it in a thread)."""
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

    def board(self, name: str | None = None, limit: int = 20, variant: str = "classic") -> RatingsReply:
        """The board of ``variant``: the best ``limit`` people who played it (established
        ratings first), every level, and the line of ``name``."""
        def order(ln: Line) -> tuple[bool, int, int, str]:
            standing = ln.standings[variant]
            return (standing.games < PROVISIONAL_GAMES, -shown_rating(standing.rating.mu), -standing.games,
                    ln.name.casefold())

        played = [ln for ln in self.lines.values() if variant in ln.standings]
        people = sorted((ln for ln in played if not ln.bot), key=order)
        bots = sorted((ln for ln in played if ln.bot), key=order)
        you = None
        if name and name.strip():
            line = self.lines.get("p:" + " ".join(name.split()).casefold())
            if line is not None:
                you = line.stats(variant, people.index(line) + 1 if line in people else 0)
        return RatingsReply(variant=variant, players=[ln.stats(variant, i) for i, ln in enumerate(people[:limit], 1)],
                            bots=[ln.stats(variant, i) for i, ln in enumerate(bots, 1)], you=you, games=self.games)
