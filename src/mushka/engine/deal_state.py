"""What every deal is made of: its fields, its dealing from a deck, its copies, pickles and replays.

:class:`DealState` is the root of the deal classes: the state every variant
shares (hands as card masks, the deck, the talon, the log of actions, the
chance picks, the tricks) and the plumbing that moves it around without
playing: dealing a deck (N4) into a new deal, the cheap :meth:`DealState.copy`,
the compact pickle and the replay from deck, picks and actions.  How a deal is
played (what it shows, checks, applies and draws) is
:class:`mushka.engine.deal.Deal`, its subclass; the variants derive from that.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Sequence
from typing import Any, Self

from mushka.cards import Card
from mushka.engine.actions import Action, ActionInput, pack_action, unpack_action
from mushka.engine.chance import check_deck, check_picks, seeded, shuffle
from mushka.engine.events import Event
from mushka.engine.types import DealResult, Phase
from mushka.errors import MushkaError
from mushka.rules.model import Rules


def check_dealer(rules: Rules, dealer: object) -> int:
    """``dealer`` if it is a seat of the table; else a named error (C4/K4: the deal passes
    round the seats 0..n-1).  Anything may be given (the compiled build would refuse a
    non-int argument of a typed constructor with a bare ``TypeError``, and take a bool
    for 0 or 1)."""
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < rules.players:
        raise MushkaError("bad_seat", rule=rules.info.dealer_rule, seat=dealer,
                          players=rules.players)
    return dealer


def check_seat(rules: Rules, seat: object) -> int:
    """``seat`` if it is a seat of the table (C1/K1: the whole numbers 0..n-1), else the named
    error.  Anything may be given: the seats' methods take an ``object``, since compiled an
    ``int`` parameter would refuse text with a bare ``TypeError`` and take a bool for 0 or 1."""
    if type(seat) is not int or not 0 <= seat < rules.players:
        raise MushkaError("bad_seat", rule=rules.info.seat_rule, seat=repr(seat)[:20], players=rules.players)
    return seat


# Not an ABC: a mypyc-compiled subclass of abc.ABC shares ABC's own instance-check
# cache (`_abc_impl`) with every other compiled ABC, so after `isinstance(partie, Deal)`
# was False once, `isinstance(partie, Game)` was False too.  The abstract methods stay
# marked for mypy; only the concrete subclasses are ever made.
class DealState:
    """The fields of one deal of any variant and how it is made, copied, pickled and replayed
    (no moves: :class:`~mushka.engine.deal.Deal`).  See the module docstring."""

    __slots__ = (
        "_dead",
        "_deck",
        "_events",
        "_forced",
        "_forced_pos",
        "_lead_suit",
        "_leader",
        "_log",
        "_picks",
        "_result",
        "_rng",
        "_seen",
        "_steps",
        "_talon",
        "_trick",
        "_tricks",
        "_won",
        "dealer",
        "eldest",
        "hands",
        "n",
        "phase",
        "rules",
        "to_act",
    )

    rules: Rules
    n: int
    dealer: int
    eldest: int
    phase: Phase
    to_act: int
    hands: list[int]
    _deck: tuple[int, ...]
    _talon: list[int]
    _dead: list[int]
    _log: list[Action]
    _picks: list[int]
    _forced: tuple[int, ...]
    _forced_pos: int
    _rng: random.Random | None
    _steps: bool
    _result: DealResult | None
    _events: list[Event] | None
    _seen: list[list[Event]] | None
    _won: list[int]
    _tricks: list[tuple[int, tuple[int, ...], int, int, bool, int]]
    _trick: list[int]
    _leader: int
    _lead_suit: int

    def __init__(
        self,
        rules: Rules,
        dealer: object = 0,
        *,
        deck: Sequence[Card | str | int] | str | None = None,
        rng: object = None,
        picks: Sequence[Card | str | int] = (),
        record_events: bool = True,
        chance_steps: bool = False,
        _blank: object = False,
        **state: object,
    ) -> None:
        """Deal a hand.

        ``deck`` stacks the deck (N4: all cards, top first, as cards, codes or
        one space-separated string); otherwise it is shuffled with ``rng`` (a
        :class:`random.Random` or a seed).  ``picks`` forces the outcomes of
        the random picks of kopilka (K7) in order (cards, codes or one
        space-separated string).  ``record_events=False``
        skips building the event log (the fast path rebuilds it on demand by
        replay, see :meth:`events`).  ``chance_steps`` makes a random pick
        that is not forced stop the deal with :class:`PendingChance` instead of
        drawing it (:class:`mushka.engine.steps.StepDeal` drives chance one
        step at a time that way).  Extra keyword ``state`` is
        variant-specific (the pot and balances of a kopilka game).
        """
        if _blank:
            return  # Deal.copy and Deal.dealt fill in every attribute (see there)
        # ``dealer`` is an ``object`` so that check_dealer names anything but a seat (C4/K4).
        seat = check_dealer(rules, dealer)
        gen = seeded(rng)  # a random.Random, a seed or None; anything else named (N4)
        if deck is None:
            order = list(rules.deck_indices)
            shuffle(gen if gen is not None else random.Random(), order)
            dealt = tuple(order)
        else:
            dealt = check_deck(rules, deck)
        # Like ``deck``, the picks may be one space-separated string ("8H 7H 9H").
        forced = check_picks(picks)
        self._start(rules, seat, dealt, forced, gen, record_events, chance_steps, state)

    def _start(self, rules: Rules, dealer: int, deck: tuple[int, ...], forced: tuple[int, ...],
               rng: random.Random | None, record_events: bool, chance_steps: bool,
               state: dict[str, object]) -> None:
        """Deal ``deck`` (card indices, checked) and enter the first phase."""
        self.rules = rules
        self.n = rules.players
        self.dealer = dealer
        self.eldest = (dealer + 1) % self.n
        self._rng = rng
        self._steps = chance_steps
        self._deck = deck
        self._forced = forced
        self._forced_pos = 0
        self._picks = []
        self._log = []
        self._result = None
        self._events = [] if record_events else None
        self._seen = None
        self._won = [0] * self.n
        self._tricks = []
        self._trick = []
        self._leader = -1
        self._lead_suit = -1
        self._setup(state)

    # --- hooks of the deal and its variants ----------------------------------

    @abstractmethod
    def _setup(self, state: dict[str, object]) -> None:
        """Deal the cards and enter the first phase."""

    @abstractmethod
    def _do(self, action: Action, ev: list[Event] | None) -> None:
        """Apply a legal action, appending events to ``ev`` unless it is ``None``."""

    @abstractmethod
    def _copy_extra(self, other: Self) -> None:
        """Copy the variant-specific state into ``other``."""

    @abstractmethod
    def apply(self, action: ActionInput, seat: object = None) -> list[Event]:
        """Check and apply ``action``; return the events (:meth:`Deal.apply`)."""

    @abstractmethod
    def apply_unchecked(self, action: Action) -> None:
        """Apply an action known to be legal (:meth:`Deal.apply_unchecked`)."""

    # --- replays, copies and pickles -------------------------------------------

    def replayed(self) -> Self:
        """A fresh deal replayed from this one's deck, picks and actions."""
        state: dict[str, Any] = self._initial_state()
        other = type(self)(self.rules, self.dealer, deck=self._deck, picks=self._picks, **state)
        for a in self._log:
            other.apply(a)
        return other

    def _initial_state(self) -> dict[str, object]:
        """Keyword state a replay needs (kopilka money)."""
        return {}

    @property
    def initial_state(self) -> dict[str, object]:
        """The keyword state this deal started from (``new_deal(..., **state)``):
        empty for classic and mistigri, the pot and balances for kopilka."""
        return self._initial_state()

    def copy(self, rng: object = None) -> Self:
        """A cheap independent copy; ``rng`` (a :class:`random.Random` or a seed) replaces
        the chance generator."""
        # Anything else is named now (N4), not an AttributeError at the copy's first pick.
        gen = seeded(rng)
        # A blank instance (no deal dealt): object.__new__ is refused by a compiled class
        # and its __new__ runs __init__, so __init__ has a private blank path.
        other = type(self)(self.rules, _blank=True)
        other.rules = self.rules
        other.n = self.n
        other.dealer = self.dealer
        other.eldest = self.eldest
        other.phase = self.phase
        other.to_act = self.to_act
        other.hands = self.hands[:]
        other._deck = self._deck
        other._talon = self._talon[:]
        other._dead = self._dead[:]
        other._log = self._log[:]
        other._picks = self._picks[:]
        other._forced = self._forced
        other._forced_pos = self._forced_pos
        other._steps = self._steps
        if gen is None and self._rng is not None and self._chance_pending():
            # §4/STYLE 3: a copy must not draw from the original's generator,
            # or playing the copy would change the original's chance (K7 picks).
            gen = random.Random()
            gen.setstate(self._rng.getstate())
        other._rng = self._rng if gen is None else gen
        other._result = self._result
        other._events = None if self._events is None else self._events[:]
        other._seen = None
        other._won = self._won[:]
        other._tricks = self._tricks[:]
        other._trick = self._trick[:]
        other._leader = self._leader
        other._lead_suit = self._lead_suit
        self._copy_extra(other)
        return other

    def __deepcopy__(self, memo: dict[int, object]) -> Self:
        """``copy.deepcopy``: :meth:`copy`, with a chance generator of its own
        while chance may still be drawn (K7 picks; afterwards it is never used)."""
        other = self.copy()
        if self._rng is not None and other._rng is self._rng and self._chance_pending():
            rng = random.Random()
            rng.setstate(self._rng.getstate())
            other._rng = rng
        memo[id(self)] = other
        return other

    def __reduce__(self) -> tuple[Any, ...]:
        """A compact pickle: the rules' options, the deck, the picks and the
        actions as small ints (the deal is rebuilt by replay; the rules'
        derived tables are not carried)."""
        # Forced picks not drawn yet stay forced; drawn ones replay as forced.
        picks = self._forced if len(self._forced) > len(self._picks) else tuple(self._picks)
        rng = self._rng.getstate() if self._rng is not None and self._chance_pending() else None
        return (_restore_deal, (type(self), self.rules, self.dealer, self._deck, picks,
                                tuple(pack_action(a) for a in self._log), self._initial_state(),
                                self._events is not None, self._steps, rng))

    def _chance_pending(self) -> bool:
        """Whether chance outcomes may still be drawn in this deal (after the deck)."""
        return False


def _restore_deal(cls: type[DealState], rules: Rules, dealer: int, deck: tuple[int, ...],
                  picks: tuple[int, ...], actions: tuple[int, ...], state: dict[str, Any],
                  record_events: bool, steps: bool, rng: tuple[Any, ...] | None) -> DealState:
    """Unpickle a deal (see :meth:`DealState.__reduce__`): replay it."""
    deal = cls(rules, dealer, deck=deck, picks=picks, record_events=record_events,
               chance_steps=steps, **state)
    for value in actions:
        action = unpack_action(value)
        ev = deal._events
        if ev is None:
            deal.apply_unchecked(action)
        else:
            deal._log.append(action)
            new: list[Event] = []
            deal._do(action, new)
            ev.extend(new)
    if rng is not None:
        deal._rng = random.Random()
        deal._rng.setstate(rng)
    return deal
