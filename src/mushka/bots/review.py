"""The review of a recorded game: each decision of one seat against the expert's.

For every decision of the seat (a position where it had more than one legal
action), the review rebuilds what that seat saw, asks the expert level what
it would play there, and, where the two differ, measures how much money the
difference is worth to the seat on average, with the search's own tools:
worlds drawn as the expert draws them (:class:`~mushka.bots.sampler.WorldSampler`,
with the same beliefs about the others' declarations and plays), each world
played out once after the expert's move and once after the move played, with
the same random numbers (:func:`~mushka.bots.value.world_values`), valued in
money at the end of the partie or session (:class:`~mushka.bots.value.Outlook`,
C21, K23).  The loss is the mean of those paired differences (0 where the
estimate finds the move played no worse), and its error is the standard error
of that mean.

The review is deterministic given the record: the expert plays with its
budget of playouts and no time limit, and every decision's random numbers are
seeded from the record itself (:func:`decision_seed`: the deal's cards, its
dealer, the deal's number and the action's place in it), never from the
clock.  A move the expert would make itself therefore costs exactly 0: the
review asks the expert under that very seed, and a move that is the expert's
choice is not measured at all.
"""

from __future__ import annotations

import hashlib
import math
import os
import random
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from mushka.bots.base import make_bot
from mushka.bots.levels import level
from mushka.bots.playout import Playout, Root
from mushka.bots.search import SearchBot, standard_error
from mushka.bots.value import Outlook, world_values
from mushka.cards import Card
from mushka.engine import Action, Deal, Kind, Phase, new_deal
from mushka.errors import MushkaError
from mushka.i18n import add_text_file, tr
from mushka.match import Game, GameView, new_game
from mushka.records import Record, replay

EXPERT = "expert"
"""The level the review measures against."""

WORLDS = 200
"""Worlds on which a move that differs from the expert's is measured against it."""

class ReviewError(MushkaError):
    """The review cannot be made: a seat that is not at the table, or a bad budget."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the reviewed seat."""

    deal: int
    """The deal's number in the record, from 1."""
    index: int
    """The action's place among the deal's actions, from 1."""
    seat: int
    phase: Phase
    position: str
    """What the seat saw, in words (hand, trump, the trick so far)."""
    choice: Action
    """What was played."""
    best: Action
    """What the expert would play."""
    loss: float
    """The money the difference is worth to the seat on average (0 where the two agree)."""
    error: float
    """The standard error of ``loss`` (0 where the two agree)."""
    worlds: int
    """Worlds the difference was measured on (0 where the two agree)."""

    @property
    def agrees(self) -> bool:
        """Whether the move played is the expert's."""
        return self.choice == self.best

    def to_json(self) -> dict[str, object]:
        """The JSON form (actions as their text forms, ``stand 7H 8D``)."""
        return {
            "deal": self.deal, "index": self.index, "seat": self.seat, "phase": self.phase.name.lower(),
            "position": self.position, "choice": str(self.choice), "best": str(self.best),
            "loss": round(self.loss, 4), "error": round(self.error, 4), "worlds": self.worlds,
        }


@dataclass(frozen=True, slots=True)
class Review:
    """Every decision of one seat in a recorded game, against the expert's."""

    seat: int
    decisions: tuple[Decision, ...]

    def costliest(self, count: int = 3) -> list[Decision]:
        """The ``count`` decisions with the largest loss (none that cost 0), costliest first."""
        costly = [d for d in self.decisions if d.loss > 0]
        return sorted(costly, key=lambda d: (-d.loss, d.deal, d.index))[:count]

    @property
    def total(self) -> float:
        """The sum of the losses: the money the seat's departures from the expert cost."""
        return sum(d.loss for d in self.decisions)

    def to_json(self) -> dict[str, object]:
        """``{"decisions": [...]}``, each decision marked ``costly`` when among the three costliest."""
        top = {(d.deal, d.index) for d in self.costliest()}
        return {"decisions": [{**d.to_json(), "costly": (d.deal, d.index) in top} for d in self.decisions]}


def decision_seed(deck: Sequence[Card], dealer: int, deal: int, index: int) -> int:
    """The seed of the review's random numbers for one decision, from the record alone.

    ``deck`` and ``dealer`` are the deal's (as the record lists them),
    ``deal`` its number from 1 and ``index`` the action's place in it from 1.
    """
    text = f"{' '.join(c.code for c in deck)}|{dealer}|{deal}|{index}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def expert_bot(level_id: str = EXPERT, variant: str | None = None, players: int | None = None) -> SearchBot:
    """The bot of level ``level_id`` with its budget of playouts and no limit in seconds.

    With a table (``variant`` and ``players``) it is the level's spec at that
    table where that is a search (a level may play another spec at some
    tables, docs/bots.md); else, and without a table, the level's own spec.
    A time limit would make the choice depend on the machine's speed; the
    review must give the same answer everywhere.
    """
    lv = level(level_id)
    spec = lv.spec
    if variant is not None and players is not None:
        at_table = lv.spec_for(variant, players)
        spec = at_table if at_table.partition(":")[0] == "search" else spec  # the review measures with a search
    name, _, args = spec.partition(":")
    parts = [p for p in args.split(",") if p and not p.startswith("seconds=")]
    bot = make_bot(f"{name}:{','.join([*parts, 'seconds=0'])}")
    if not isinstance(bot, SearchBot):
        raise ReviewError("review_not_search", level=level_id)
    return bot


def expert_choice(bot: SearchBot, view: GameView, seed: int) -> Action:
    """What ``bot`` plays from ``view`` with the random numbers of ``seed`` (see :func:`decision_seed`)."""
    return bot.choose(view, random.Random(seed))


def measure(bot: SearchBot, view: GameView, best: Action, choice: Action, seed: int,
            worlds: int = WORLDS) -> tuple[float, float, int]:
    """How much more ``best`` is worth than ``choice`` to the view's seat: (mean, standard error, worlds).

    The worlds are drawn as ``bot`` draws them for its own search (the same
    beliefs) and each is played out after both moves with
    the same random numbers, so the difference is measured on equal terms.
    """
    d = view.deal
    c = bot.config
    sampler = bot.sampler(view)
    outlook = Outlook.of(view, c.tau)
    playout = Playout(d.rules, outlook.records, epsilon=c.epsilon, last_game=outlook.last_game)
    root = Root.of(d)
    rng = random.Random(seed ^ 0x5EED)
    moves = random.Random()
    cands = [best, choice]
    s1 = s2 = 0.0
    count = 0
    for _ in range(worlds):
        world = sampler.sample(rng)
        if world is None:
            break
        values = world_values(world, cands, (0, 1), rng.getrandbits(32), moves, playout, root, outlook)
        diff = values[0] - values[1]
        s1 += diff
        s2 += diff * diff
        count += 1
    if not count:
        return 0.0, 0.0, count
    n = float(count)
    mean = s1 / n
    if n <= 1:
        return mean, math.inf, count
    return mean, standard_error(s1, s2, n, n), count


# --- walking through a record -----------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Spot:
    deal: int
    index: int
    view: GameView
    choice: Action
    seed: int


def _spots(record: Record, seat: int) -> Iterator[_Spot]:
    """Every decision of ``seat`` in ``record`` (checked beforehand), in the order played."""
    rules = record.rules()
    if record.level == "deal":
        from mushka.bots.base import deal_game_view

        d = record.deals[0]
        deal = new_deal(rules, d.dealer, deck=d.deck, picks=d.picks, **d.state)
        for i, action in enumerate(d.actions, 1):
            if deal.to_act == seat and len(deal.legal_actions()) > 1:
                yield _Spot(1, i, deal_game_view(deal, seat), action, decision_seed(d.deck, d.dealer, 1, i))
            deal.apply(action)
        return
    extra = {"max_deals": record.meta["max_deals"]} if record.meta.get("max_deals") is not None else {}
    game: Game = new_game(rules, first_dealer=record.first_dealer, rng=0, decks=[d.deck for d in record.deals],
                          picks=[d.picks for d in record.deals], **extra)
    for number, d in enumerate(record.deals, 1):
        for i, action in enumerate(d.actions, 1):
            current: Deal = game.deal
            if game.to_act == seat and len(current.legal_actions()) > 1:
                yield _Spot(number, i, game.view(seat), action, decision_seed(d.deck, d.dealer, number, i))
            game.apply(action)


def _review_spots(record_text: str, seat: int, wanted: Sequence[int], level_id: str, worlds: int,
                  lang: str) -> list[Decision]:
    """The decisions of ``seat`` whose order numbers are in ``wanted`` (one worker's share)."""
    record = Record.loads(record_text)
    bot = expert_bot(level_id, record.variant, record.players)
    keep = set(wanted)
    out = []
    for k, spot in enumerate(_spots(record, seat)):
        if k not in keep:
            continue
        best = expert_choice(bot, spot.view, spot.seed)
        loss = error = 0.0
        used = 0
        if best != spot.choice:
            mean, error, used = measure(bot, spot.view, best, spot.choice, spot.seed, worlds)
            loss = max(0.0, mean)
        out.append(Decision(spot.deal, spot.index, seat, spot.view.deal.phase, position(spot.view, lang),
                            spot.choice, best, loss, error, used))
    return out


def review(record: Record, seat: int, *, level_id: str = EXPERT, worlds: int = WORLDS, workers: int = 0,
           lang: str = "en") -> Review:
    """Review every decision of ``seat`` in ``record`` against level ``level_id``.

    The record is replayed and checked first (a broken one raises its
    :class:`~mushka.errors.RecordError`, naming the deal, the action and the rule); a seat
    that is not at the table raises :class:`ReviewError`.  ``workers``
    processes share the decisions (0: one per core, at most 2 on a small
    machine); the result does not depend on their number.  ``lang`` is the
    language of the positions' descriptions.
    """
    replay(record)
    players = record.players
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise ReviewError("review_seat", rule="C1" if record.variant != "kopilka" else "K1",
                          seat=seat, players=players, last=players - 1)
    if isinstance(worlds, bool) or not isinstance(worlds, int) or worlds < 1:
        raise ReviewError("review_worlds", worlds=worlds)
    expert_bot(level_id)  # an unknown level is refused here, before any work
    count = sum(1 for _ in _spots(record, seat))
    if workers <= 0:
        workers = min(os.cpu_count() or 1, 4)
    workers = max(1, min(workers, count))
    text = record.dumps(indent=None)
    shares = [list(range(w, count, workers)) for w in range(workers)]
    if workers == 1:
        decisions = _review_spots(text, seat, shares[0], level_id, worlds, lang)
    else:
        with ProcessPoolExecutor(workers) as pool:
            parts = pool.map(_review_spots, [text] * workers, [seat] * workers, shares, [level_id] * workers,
                             [worlds] * workers, [lang] * workers)
            decisions = [d for part in parts for d in part]
    decisions.sort(key=lambda d: (d.deal, d.index))
    return Review(seat, tuple(decisions))


# --- words ------------------------------------------------------------------------


def action_words(action: Action, lang: str = "en") -> str:
    """An action as a player says it: ``stand, exchanging 7♥ 8♦``, ``играю, прикуп вместо 7♥``."""
    cards = " ".join(c.display(lang) for c in action.cards)
    kind = action.kind
    if kind is Kind.PLAY:
        return cards
    if kind is Kind.STAND and action.mask:
        return tr("review.act.exchange", lang, cards=cards)
    if kind is Kind.TAKE or kind is Kind.DISCARD:
        return tr(f"review.act.{kind.name.lower()}", lang, cards=cards)
    return tr(f"review.act.{kind.name.lower()}", lang)


def position(view: GameView, lang: str = "en") -> str:
    """What the seat saw when it decided, in one line: phase, hand, trump, the trick so far."""
    d = view.deal
    parts = [tr(f"review.phase.{d.phase.name.lower()}", lang),
             tr("review.hand", lang, cards=" ".join(c.display(lang) for c in d.hand))]
    if d.trump is not None and d.turnup is not None:
        parts.append(tr("review.trump", lang, card=d.turnup.display(lang)))
    if d.trick:
        played = ", ".join(tr("review.by", lang, card=c.display(lang), seat=s) for s, c in d.trick)
        parts.append(tr("review.trick", lang, cards=played))
    elif d.phase == Phase.PLAY:
        parts.append(tr("review.lead", lang))
    return "; ".join(parts)


add_text_file("mushka.bots", "review.toml")

__all__ = ["EXPERT", "WORLDS", "Decision", "Review", "ReviewError", "action_words",
           "decision_seed", "expert_bot", "expert_choice", "measure", "position", "review"]
