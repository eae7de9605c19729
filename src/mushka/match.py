"""The game above the deal: a partie (classic, mistigri) or a kopilka session.

* :class:`Partie` (партия, C16-C22): every record starts at ``initial_record``
  and is written off towards zero deal after deal, the deal passing round the
  table (C4); the partie ends after the deal in which a record reaches zero,
  or at once when a special hand wins the мушка (C22, MI13).  The winner takes
  the records (C21); flush side payments (MI9) are money as well.
* :class:`Session` (K3-K4, K23): four games of kopilka with the pot (or two, option
  ``session_games``); the player who went out first in the last game takes what is left.

Both are :class:`Game` objects with the same API as a deal (``legal_actions``,
``apply``, ``view`` …) that steps from one deal to the next by itself; the
deck of each new deal is a chance outcome, forced (``decks=``) or shuffled
from the game's seeded generator.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Sequence
from typing import Any, Final, Self

from mushka.cards import Card
from mushka.engine import Action, Deal, DealResult, Event, new_deal
from mushka.engine.actions import ActionInput
from mushka.engine.chance import seeded
from mushka.engine.events import Paid
from mushka.engine.kopilka import KopilkaDeal
from mushka.errors import ChanceError, IllegalActionError, MushkaError, OptionsError
from mushka.i18n import add_texts
from mushka.match_types import DealStarted, GameEnded, GameResult, GameView, RecordsWritten
from mushka.rules.choices import AllPass
from mushka.rules.model import Rules

__all__ = [
    "DealStarted", "DeckSpec", "Game", "GameEnded", "GameResult", "GameView", "Partie",
    "RecordsWritten", "Session", "deal_limit", "new_game", "planned_deals",
]

DeckSpec = Sequence[Card | str | int] | str


# Not an ABC: a mypyc-compiled subclass of abc.ABC shares ABC's own instance-check
# cache (`_abc_impl`) with every other compiled ABC, so after `isinstance(partie, Deal)`
# was False once, `isinstance(partie, Game)` was False too.  The abstract methods stay
# marked for mypy; only the concrete subclasses are ever made.
class Game:
    """A partie or a session: deals in a row, driven through one API."""

    rules: Rules
    n: int
    deal: Deal
    finished: list[Deal]
    first_dealer: int
    _rng: random.Random
    _chance_seed: int
    _decks: list[DeckSpec]
    _picks: list[Sequence[Card | str | int]]
    _result: GameResult | None
    _record_events: bool
    _game_events: list[tuple[int, Event]]
    _steps: bool
    _waiting: int

    def __init__(
        self,
        rules: Rules,
        *,
        max_deals: object = None,
        rng: object = None,
        first_dealer: object = None,
        decks: Sequence[DeckSpec] = (),
        picks: Sequence[Sequence[Card | str | int] | str] = (),
        record_events: bool = True,
        chance_steps: bool = False,
        first_deal: Deal | None = None,
        _blank: bool = False,
    ) -> None:
        """Start a game.  ``first_dealer`` is drawn by lot unless given (C4);
        ``decks`` and ``picks`` force the chance outcomes of the deals in order.

        ``max_deals`` is a partie's optional safety limit for simulations (no rule
        limits the length of a partie; a session has its games, K4, and takes no
        other limit).  With
        ``chance_steps`` a deal beyond the forced decks is not dealt by
        the game: the game waits (:attr:`waiting_dealer`) until the caller
        deals it step by step and hands it over with :meth:`start_deal`;
        ``first_deal`` is the first deal, dealt that way
        (:class:`mushka.game_steps.StepGame` drives a game so).
        """
        if _blank:
            return  # Game.copy fills in every attribute (see there)
        # ``max_deals`` and ``first_dealer`` are ``object``s so that anything a caller passes
        # gets the named error (compiled, an ``int`` parameter would refuse text with a bare
        # ``TypeError`` and take a bool for 0 or 1).
        self._configure(rules, None if max_deals is None else deal_limit(rules, max_deals))
        self.rules = rules
        self.n = rules.players
        # A random.Random, a seed or None (seeded from the system); anything else named (N4).
        gen = seeded(rng)
        self._rng = gen if gen is not None else random.Random()
        # Each deal draws its chance (deck, K7 picks) from its own generator,
        # seeded from this one and the deal's number, so that deal i of two
        # games with the same seed is the same whatever was played before:
        # duplicate tournaments replay the same cards with the seats permuted.
        self._chance_seed = self._rng.getrandbits(64)
        if first_dealer is None:
            first_dealer = self._rng.randrange(self.n)  # C4: the first dealer by lot
        if type(first_dealer) is not int or not 0 <= first_dealer < self.n:
            # The dealer is a seat of the table: C4 (the deal passes round), K4 (each deals once).
            raise IllegalActionError("bad_seat", rule=rules.info.dealer_rule,
                                     seat=repr(first_dealer)[:20], players=self.n)
        self.first_dealer = first_dealer
        self._decks = _listed(decks, "bad_deck_type", "N4")
        # Each deal's picks as new_deal reads them (one string of codes is split, not read
        # letter by letter); their cards are checked when the deal is dealt.
        self._picks = [p.split() if isinstance(p, str) else _listed(p, "bad_picks_type", "K7")
                       for p in _listed(picks, "bad_picks_type", "K7")]
        self._result = None
        self._record_events = record_events
        self._game_events = []
        self.finished = []
        self._steps = chance_steps
        self._waiting = -1
        self._start()
        if first_deal is not None:
            if first_deal.rules != rules or first_deal.dealer != first_dealer or first_deal.actions:
                raise IllegalActionError("bad_first_deal", rule=rules.info.dealer_rule,
                                         seat=first_deal.dealer)
            self.deal = first_deal
            self._game_events.append((0, DealStarted(1, first_dealer, self._deals_planned())))
        else:
            self.deal = self._new_deal(first_dealer)
        self._advance()

    # --- hooks -------------------------------------------------------------------

    @abstractmethod
    def _configure(self, rules: Rules, max_deals: int | None) -> None:
        """Refuse the rules of another kind of game; keep the sheet's settings."""

    def _deals_planned(self) -> int:
        """How many deals the game has by rule (0: until somebody wins)."""
        return 0

    @abstractmethod
    def _start(self) -> None:
        """Set up the score sheet."""

    @abstractmethod
    def _deal_state(self) -> dict[str, object]:
        """Keyword state for the next deal (kopilka money)."""

    @abstractmethod
    def _after_deal(self, result: DealResult) -> int | None:
        """Score a finished deal; return the next dealer, or ``None`` if the game ended."""

    @abstractmethod
    def view(self, seat: object = None) -> GameView:
        """What ``seat`` (or a spectator) may know of the game; anything but a seat of the
        table or ``None`` is refused by the deal's view (C1/K1)."""

    @property
    @abstractmethod
    def money(self) -> tuple[int, ...]:
        """Each seat's money so far."""

    # --- driving ---------------------------------------------------------------------

    def _new_deal(self, dealer: int) -> Deal:
        index = len(self.finished)
        deck = self._decks[index] if index < len(self._decks) else None
        picks = self._picks[index] if index < len(self._picks) else ()
        chance = random.Random(self._chance_seed * 1_000_003 + index)
        state: dict[str, Any] = self._deal_state()
        deal = new_deal(self.rules, dealer, deck=deck, rng=chance, picks=picks,
                        record_events=self._record_events, **state)
        self._game_events.append((index, DealStarted(index + 1, dealer, self._deals_planned())))
        return deal

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self._result is not None

    @property
    def result(self) -> GameResult | None:
        """How the game ended, once it has."""
        return self._result

    @property
    def to_act(self) -> int:
        """The seat to act (-1 when the game is over)."""
        return -1 if self._result is not None else self.deal.to_act

    @property
    def deals(self) -> list[Deal]:
        """Every deal so far, finished ones first, the current one last."""
        return [*self.finished, self.deal] if self.finished[-1:] != [self.deal] else self.finished

    def legal_actions(self) -> Sequence[Action]:
        """The legal actions of the seat to act."""
        return () if self._result is not None else self.deal.legal_actions()

    def is_legal(self, action: ActionInput, seat: object = None) -> bool:
        """Whether ``action`` (or its text form) by ``seat`` is legal now."""
        return self._result is None and self.deal.is_legal(action, seat)

    def check(self, action: ActionInput, seat: object = None) -> None:
        """Raise naming the rule if ``action`` by ``seat`` is not legal now."""
        action = self.deal.read_action(action)
        if self._result is not None:
            raise IllegalActionError("game_over", rule=self._end_rule(), action=action)
        self.deal.check(action, seat)

    def apply(self, action: ActionInput, seat: object = None) -> list[Event]:
        """Check and apply an action; return every event it produced, in order.

        That is the deal's events and, when the deal ends, the game's events
        (records written, the end of the game) and the opening events of the
        next deal (its start, the hands dealt, the turned card, a flush shown
        at once …).  The events are unredacted, like :meth:`Deal.apply`'s: show
        a seat ``event.seen_by(seat)`` only.
        """
        action = self.deal.read_action(action)
        self.check(action, seat)
        events = self.deal.apply(action, seat)
        if self.deal.is_over:
            self._advance(events)
        return events

    @abstractmethod
    def _end_rule(self) -> str:
        """The rule by which the finished game ended (§4: a refusal names one)."""

    def apply_unchecked(self, action: Action) -> None:
        """The fast path: apply an action taken from :meth:`legal_actions`."""
        deal = self.deal
        deal.apply_unchecked(action)
        if deal.is_over:
            self._advance()

    def _advance(self, out: list[Event] | None = None) -> None:
        """Score finished deals and deal the next ones, collecting events in ``out``."""
        # A new deal can end at once (C22: a мушка shown right after the deal).
        while self.deal.is_over and self._result is None and self._waiting < 0:
            result = self.deal.result
            assert result is not None
            self.finished.append(self.deal)
            before = len(self._game_events)
            nxt = self._after_deal(result)
            if nxt is not None and self._steps and len(self.finished) >= len(self._decks):
                # The next deal is dealt step by step by the caller (start_deal).
                self._waiting = nxt
                if out is not None:
                    out.extend(e for _, e in self._game_events[before:])
                return
            if nxt is not None:
                self.deal = self._new_deal(nxt)
            if out is not None:
                out.extend(e for _, e in self._game_events[before:])
                if nxt is not None:
                    out.extend(self.deal.events(omniscient=True))

    @property
    def waiting_dealer(self) -> int:
        """The dealer of the next deal while the game waits for it to be dealt
        step by step (see ``chance_steps``); -1 otherwise."""
        return self._waiting

    def next_deal_state(self) -> dict[str, object]:
        """The keyword state the next deal starts from (kopilka's pot and balances)."""
        return self._deal_state()

    def start_deal(self, deal: Deal) -> list[Event]:
        """Go on with ``deal``, dealt step by step for :attr:`waiting_dealer`; the events it starts with."""
        if self._waiting < 0 or deal.dealer != self._waiting or deal.rules != self.rules or deal.actions:
            raise IllegalActionError("bad_first_deal", rule=self.rules.info.dealer_rule,
                                     seat=deal.dealer)
        index = len(self.finished)
        self._waiting = -1
        self.deal = deal
        self._game_events.append((index, DealStarted(index + 1, deal.dealer, self._deals_planned())))
        out: list[Event] = [self._game_events[-1][1]]
        if deal.is_over:
            self._advance(out)
        return out

    def continue_with(self, deal: Deal) -> list[Event]:
        """Replace the current deal by ``deal``, the same deal rebuilt by the caller after
        a chance step (a K7 pick dealt step by step); score it if it is over."""
        if deal.rules != self.rules or deal.dealer != self.deal.dealer or self._waiting >= 0:
            raise IllegalActionError("bad_first_deal", rule=self.rules.info.dealer_rule,
                                     seat=deal.dealer)
        self.deal = deal
        out: list[Event] = []
        if deal.is_over:
            self._advance(out)
        return out

    def game_events(self) -> list[Event]:
        """The game-level events so far (public)."""
        return [e for _, e in self._game_events]

    def copy(self, rng: object = None) -> Self:
        """An independent copy (deals copied cheaply, finished deals shared); ``rng`` (a
        :class:`random.Random` or a seed) replaces the chance generator."""
        gen = seeded(rng)  # anything else named (N4), before any copy
        # Attribute by attribute (a compiled class has no __dict__), into a blank instance
        # (__init__'s private blank path: a compiled class refuses object.__new__).
        other = type(self)(self.rules, _blank=True)
        other.rules = self.rules
        other.n = self.n
        other.first_dealer = self.first_dealer
        other._rng = self._rng
        other._chance_seed = self._chance_seed
        other._decks = self._decks
        other._picks = self._picks
        other._result = self._result
        other._record_events = self._record_events
        other._steps = self._steps
        other._waiting = self._waiting
        other.deal = self.deal.copy(gen)
        other.finished = self.finished[:]
        other._game_events = self._game_events[:]
        if gen is not None:
            # A new generator means new chance for the deals still to come.
            other._rng = gen
            other._chance_seed = gen.getrandbits(64)
        self._copy_sheet(other)
        return other

    @abstractmethod
    def _copy_sheet(self, other: Self) -> None:
        """Copy the mutable score sheet into ``other``."""

    def _finish(self, result: GameResult) -> None:
        self._result = result
        self._game_events.append((len(self.finished), GameEnded(result.winner, result.money)))


class Partie(Game):
    """A partie of classic мушка or мушка-мистигри (C16-C22)."""

    records: list[int]
    side: list[int]
    max_deals: int | None

    def _configure(self, rules: Rules, max_deals: int | None) -> None:
        if rules.info.game != "partie":
            # K4: kopilka is played in sessions of games; classic and mistigri in parties (C16).
            raise OptionsError("wrong_game", rule="K4", game="Partie", variant=rules.variant,
                               other="Session")
        self.max_deals = max_deals

    def _end_rule(self) -> str:
        result = self._result
        if result is not None and result.ended_by_mushka:
            return self.rules.info.mushka_rule  # C22, MI13
        return "C20"  # a record reached zero

    def _start(self) -> None:
        self.records = [self.rules.initial_record] * self.n  # C16
        self.side = [0] * self.n

    def _deal_state(self) -> dict[str, object]:
        return {}

    def _copy_sheet(self, other: Partie) -> None:
        other.max_deals = self.max_deals
        other.records = self.records[:]
        other.side = self.side[:]

    @property
    def money(self) -> tuple[int, ...]:
        """Side payments so far, plus the settlement once the partie is over."""
        if self._result is not None:
            return self._result.money
        return tuple(self.side)

    def _after_deal(self, result: DealResult) -> int | None:
        n = self.n
        eldest = (result.dealer + 1) % n
        if result.mushka is not None:
            # C21/C22/MI13: the stopped deal scores nothing; its holder wins.
            self._settle(result.mushka, by_mushka=True)
            return None
        for s in range(n):
            self.records[s] += result.record_delta[s]
            self.side[s] += result.side[s]
        self._game_events.append((len(self.finished) - 1, RecordsWritten(tuple(self.records))))
        if min(self.records) <= 0:
            # C20: the lowest record wins; ties go to the earlier seat from the eldest.
            winner = min(range(n), key=lambda s: (self.records[s], (s - eldest) % n))
            self._settle(winner)
            return None
        if self.max_deals is not None and len(self.finished) >= self.max_deals:
            winner = min(range(n), key=lambda s: (self.records[s], (s - eldest) % n))
            self._settle(winner, truncated=True)
            return None
        if result.all_passed and self.rules.all_pass is AllPass.SAME_DEALER:
            return result.dealer  # C9 option: the same dealer deals again
        return (result.dealer + 1) % n  # C4

    def _settle(self, winner: int, *, by_mushka: bool = False, truncated: bool = False) -> None:
        """C21: every other player pays the winner his positive record times the stake."""
        n = self.n
        pay = [0] * n
        for s in range(n):
            if s != winner and self.records[s] > 0:
                amount = self.records[s] * self.rules.stake
                pay[s] -= amount
                pay[winner] += amount
        money = tuple(self.side[s] + pay[s] for s in range(n))
        self._finish(GameResult(
            winner=winner, money=money, records=tuple(self.records), settlement=tuple(pay),
            side=tuple(self.side), deals=len(self.finished), ended_by_mushka=by_mushka,
            truncated=truncated,
        ))

    def view(self, seat: object = None) -> GameView:
        """The current deal as ``seat`` sees it, with the records (public)."""
        return GameView(
            deal=self.deal.view(seat), number=len(self.finished) + (0 if self.is_over else 1),
            history=tuple(d.result for d in self.finished if d.result is not None),
            money=self.money, records=tuple(self.records), side=tuple(self.side),
            result=self._result, events=tuple(self.game_events()),
        )


class Session(Game):
    """A session of мушка-копилка: four games with the pot (K3-K4, K22-K24).

    Option ``session_games`` = 2 makes it a short session of two games: the deal still
    passes round from the first dealer (so the first two seats in turn deal) and K23
    applies after the second game."""

    pot: int
    balances: list[int]
    games: int = 4
    """Games in the session: K4's four, or ``rules.session_games``."""

    def _configure(self, rules: Rules, max_deals: int | None) -> None:
        if rules.info.game != "session":
            raise OptionsError("wrong_game", rule="C16", game="Session", variant=rules.variant,
                               other="Partie")
        if max_deals is not None and max_deals != rules.session_games:
            raise OptionsError("session_max_deals", rule="K4", games=rules.session_games,
                               value=max_deals)
        self.games = rules.session_games  # K4 (set before the first deal is planned)

    def _end_rule(self) -> str:
        return "K4"  # a session is four games (or session_games)

    def _deals_planned(self) -> int:
        return self.games

    def _start(self) -> None:
        ante = self.rules.ante
        self.balances = [-ante] * self.n  # K3, K24: paying in lowers a balance
        self.pot = ante * self.n
        for s in range(self.n):
            self._game_events.append((0, Paid(s, ante, "ante")))

    def _deal_state(self) -> dict[str, object]:
        return {"pot": self.pot, "balances": list(self.balances)}

    def _copy_sheet(self, other: Session) -> None:
        other.games = self.games
        other.pot = self.pot
        other.balances = self.balances[:]

    @property
    def money(self) -> tuple[int, ...]:
        """Each seat's balance now (K24: balances plus the pot sum to zero)."""
        deal = self.deal
        if self._result is None and isinstance(deal, KopilkaDeal):
            return tuple(deal.balances)
        return tuple(self.balances)

    @property
    def current_pot(self) -> int:
        """The pot now, including payments made during the current game."""
        deal = self.deal
        if self._result is None and isinstance(deal, KopilkaDeal):
            return deal.pot
        return self.pot

    def _after_deal(self, result: DealResult) -> int | None:
        deal = self.deal
        assert isinstance(deal, KopilkaDeal)
        self.pot = deal.pot
        self.balances = list(deal.balances)
        if len(self.finished) < self.games:
            return (result.dealer + 1) % self.n  # K4: the deal passes round, each deals at most once
        # K23: the player out first in the last game takes the pot; a deadlock shares it.
        pay = [0] * self.n
        winner = result.out
        if winner is not None:
            pay[winner] = self.pot
        else:
            share, rest = divmod(self.pot, self.n)
            eldest = (result.dealer + 1) % self.n
            for k in range(self.n):
                pay[(eldest + k) % self.n] = share + (1 if k < rest else 0)
        for s in range(self.n):
            if pay[s]:
                self.balances[s] += pay[s]
                self._game_events.append((len(self.finished) - 1, Paid(s, -pay[s], "pot")))
        self.pot = 0
        self._finish(GameResult(winner=winner, money=tuple(self.balances),
                                settlement=tuple(pay), deals=len(self.finished)))
        return None

    def view(self, seat: object = None) -> GameView:
        """The current game as ``seat`` sees it, with the pot and balances (public)."""
        return GameView(
            deal=self.deal.view(seat), number=len(self.finished) + (0 if self.is_over else 1),
            history=tuple(d.result for d in self.finished if d.result is not None),
            money=self.money, pot=self.current_pot, games=self.games, result=self._result,
            events=tuple(self.game_events()),
        )


def _listed(values: object, code: str, rule: str) -> list[Any]:
    """``values`` (a list or tuple of the decks or picks of the deals in order) as a new list;
    anything else is refused with the named error ``code`` of ``rule``, not a bare TypeError."""
    if not isinstance(values, (list, tuple, Sequence)) or isinstance(values, str):
        raise ChanceError(code, rule=rule, value=repr(values)[:40], kind=type(values).__name__)
    return list(values)


def deal_limit(rules: Rules, max_deals: object) -> int:
    """``max_deals`` if it is a limit of deals (a whole number from 1), else the named error
    (C20: no rule limits a partie, the limit is a simulation's count of deals; K4: a session
    has its games).  ``object``: compiled, an ``int`` parameter would refuse text with a bare
    ``TypeError`` and take a bool for 0 or 1."""
    if type(max_deals) is not int or max_deals < 1:
        raise MushkaError("bad_max_deals", rule="C20" if rules.info.game == "partie" else "K4",
                          value=repr(max_deals)[:20])
    return max_deals


def planned_deals(rules: Rules, max_deals: object) -> int:
    """The deals a game of ``rules`` has at most: a session's games (K4), else the partie's
    safety limit ``max_deals`` (no rule limits a partie; checked by :func:`deal_limit`)."""
    limit = deal_limit(rules, max_deals)
    return rules.session_games if rules.info.game == "session" else limit


def new_game(rules: Rules, **kwargs: Any) -> Game:
    """A :class:`Partie` or a :class:`Session`, as the variant of ``rules`` plays."""
    first_dealer = kwargs.get("first_dealer")
    if first_dealer is not None and (isinstance(first_dealer, bool) or not isinstance(first_dealer, int)
                                     or not 0 <= first_dealer < rules.players):
        # Named here, before the typed constructors (the compiled build enforces their types).
        raise IllegalActionError("bad_seat", rule=rules.info.dealer_rule,
                                 seat=first_dealer, players=rules.players)
    return _GAMES[rules.info.game](rules, **kwargs)


_GAMES: Final[dict[str, type[Game]]] = {"partie": Partie, "session": Session}
"""The game of each :attr:`Variant.game <mushka.rules.variants.Variant.game>`."""


add_texts({
    "error.bad_max_deals": (
        "the deal limit of a game must be a whole number of at least 1, not {value}.",
        "предел числа сдач в игре — целое число не меньше 1, а не {value}.",
    ),
    "error.wrong_game": (
        "{variant} is not played as a {game}: use {other}.",
        "в {variant} играют {other}, а не {game}.",
    ),
    "error.session_max_deals": (
        "a session has its {games} games (option session_games), no other deal limit: not {value}.",
        "в сессии свои {games} игры (настройка session_games), другого предела сдач нет: не {value}.",
    ),
    "error.bad_first_deal": (
        "the deal handed to the game is not its next deal (seat {seat} dealing, or the wrong rules).",
        "переданная сдача — не следующая сдача игры (сдаёт игрок {seat}, или правила не те).",
    ),
})
