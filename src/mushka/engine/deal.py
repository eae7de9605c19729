"""One deal (сдача): the state machine shared by every variant.

A :class:`Deal` plays one hand from the stacked deck to the settlement.  It
changes only through :meth:`Deal.apply` (checked, returns the events) or
:meth:`Deal.apply_unchecked` (the fast path for simulations that pick from
:meth:`Deal.legal_actions`).  :meth:`Deal.copy` is cheap: the state is a few
lists of small ints (hands are card masks), never deep-copied.

Chance is explicit (STYLE 5): the deck order is given (N4) or shuffled from a
seeded :class:`random.Random`; the random picks of kopilka (K7) come from a
forced list or from that generator, and both are kept so that the deal can
be written to a record and replayed exactly.

The variant classes are :class:`mushka.engine.trump.TrumpDeal` (classic and
mistigri) and :class:`mushka.engine.kopilka.KopilkaDeal`; :func:`new_deal`
picks the right one from the rules.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Sequence
from typing import Any, Final, Self

from mushka.cards import CARDS, Card, cards_of
from mushka.engine.actions import Action, ActionInput, pack_action, unpack_action
from mushka.engine.chance import card_index, check_deck, sample_order, shuffle
from mushka.engine.events import Event
from mushka.engine.types import DealResult, Phase, TrickRecord
from mushka.engine.views import DealView
from mushka.errors import (
    ChanceError,
    IllegalActionError,
    MushkaError,
    OutOfTurnError,
    ParseError,
)
from mushka.i18n import LocalText
from mushka.rules.model import Rules

# The value types moved to mushka.engine.types; they stay importable from here.
__all__ = ["Deal", "DealResult", "Phase", "TrickRecord", "sample_order", "shuffle"]

# Compiled, ``Phase.OVER`` is an attribute looked up on the enum class at every use;
# a module constant is read directly (phases are only ever Phase members: ``is``).
_OVER: Final = Phase.OVER


def check_dealer(rules: Rules, dealer: object) -> None:
    """Refuse a dealer that is not a seat of the table (C4/K4: the deal passes round the
    seats 0..n-1) with a named error; anything may be given (the compiled build would
    refuse a non-int argument of a typed constructor with a bare ``TypeError``)."""
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < rules.players:
        raise MushkaError("bad_seat", rule=rules.info.dealer_rule, seat=dealer,
                          players=rules.players)


# Not an ABC: a mypyc-compiled subclass of abc.ABC shares ABC's own instance-check
# cache (`_abc_impl`) with every other compiled ABC, so after `isinstance(partie, Deal)`
# was False once, `isinstance(partie, Game)` was False too.  The abstract methods stay
# marked for mypy; only the concrete subclasses are ever made.
class Deal:
    """One deal of any variant.  See the module docstring."""

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
        dealer: int = 0,
        *,
        deck: Sequence[Card | str | int] | str | None = None,
        rng: random.Random | int | None = None,
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
        check_dealer(rules, dealer)
        if isinstance(rng, int):
            rng = random.Random(rng)
        if deck is None:
            order = list(rules.deck_indices)
            shuffle(rng if rng is not None else random.Random(), order)
            dealt = tuple(order)
        else:
            dealt = check_deck(rules, deck)
        # Like ``deck``, the picks may be one space-separated string ("8H 7H 9H");
        # a string is a sequence too, and must not be read letter by letter.
        if isinstance(picks, str):
            picks = picks.split()
        forced = tuple(card_index(p) for p in picks) if picks else ()
        self._start(rules, dealer, dealt, forced, rng, record_events, chance_steps, state)

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

    # --- subclass hooks ------------------------------------------------------

    @abstractmethod
    def _setup(self, state: dict[str, object]) -> None:
        """Deal the cards and enter the first phase."""

    @abstractmethod
    def _legal(self) -> Sequence[Action]:
        """Legal actions of the seat to act (deal not over)."""

    @abstractmethod
    def _why(self, action: Action) -> tuple[str, str, dict[str, object]] | None:
        """Why ``action`` is illegal now for the seat to act: (rule, reason key,
        params), or ``None`` if it is legal."""

    @abstractmethod
    def _do(self, action: Action, ev: list[Event] | None) -> None:
        """Apply a legal action, appending events to ``ev`` unless it is ``None``."""

    @abstractmethod
    def _copy_extra(self, other: Self) -> None:
        """Copy the variant-specific state into ``other``."""

    @abstractmethod
    def view(self, seat: int | None = None) -> DealView:
        """What ``seat`` (or a spectator, ``None``) may know (§4 of RULES)."""

    # --- public API ---------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Whether the deal is settled."""
        return self.phase is _OVER

    @property
    def result(self) -> DealResult | None:
        """The settlement, once the deal is over (built on first access)."""
        if self.phase != Phase.OVER:
            return None
        return self._final_result()

    def _final_result(self) -> DealResult:
        if self._result is None:
            self._result = self._build_result()
        return self._result

    @abstractmethod
    def _build_result(self) -> DealResult:
        """The settlement of a finished deal."""

    @property
    def deck(self) -> tuple[Card, ...]:
        """The stacked deck of this deal, top first (N4)."""
        return tuple(CARDS[i] for i in self._deck)

    @property
    def picks(self) -> tuple[Card, ...]:
        """The chance outcomes of K7/K8 picks so far, in order."""
        return tuple(CARDS[i] for i in self._picks)

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action applied so far, in order."""
        return tuple(self._log)

    @property
    def talon_size(self) -> int:
        """Cards left in the talon."""
        return len(self._talon)

    @property
    def tricks_won(self) -> tuple[int, ...]:
        """Counted tricks per seat so far."""
        return tuple(self._won)

    @property
    def tricks(self) -> tuple[TrickRecord, ...]:
        """The completed (counted) tricks so far."""
        return tuple(_trick_record(t) for t in self._tricks)

    @property
    def current_trick(self) -> tuple[tuple[int, Card], ...]:
        """The cards on the table: (seat, card) in play order."""
        return tuple((p >> 6, CARDS[p & 63]) for p in self._trick)

    def trick_cards(self) -> list[int]:
        """The indices of the cards on the table, in play order: :attr:`current_trick`
        without the cards and tuples (for playouts, which ask at every step)."""
        return [p & 63 for p in self._trick]

    def trick_leader(self) -> int:
        """The seat that led the cards on the table; -1 while the table is empty."""
        return self._trick[0] >> 6 if self._trick else -1

    def tricks_won_by(self, seat: int) -> int:
        """The counted tricks of ``seat`` so far: :attr:`tricks_won` without the tuple."""
        return self._won[seat]

    # The raw state for encoders, which read it at every step: the deal's own values,
    # not copies (read them, never change them); packed cards are ``seat << 6 | card``.

    @property
    def action_count(self) -> int:
        """Actions applied so far: :attr:`actions` without the tuple."""
        return len(self._log)

    @property
    def pick_count(self) -> int:
        """K7/K8 picks drawn so far: :attr:`picks` without the tuple."""
        return len(self._picks)

    @property
    def won_counts(self) -> list[int]:
        """Counted tricks per seat: :attr:`tricks_won` without the tuple."""
        return self._won

    @property
    def table_packed(self) -> list[int]:
        """The cards on the table, packed, in play order: :attr:`current_trick` unbuilt."""
        return self._trick

    @property
    def tricks_packed(self) -> list[tuple[int, tuple[int, ...], int, int, bool, int]]:
        """The counted tricks as raw tuples (leader, packed cards, winner, suit, privileged,
        value): :attr:`tricks` unbuilt."""
        return self._tricks

    def discard_mask(self, seat: int) -> int:
        """The card mask of :meth:`discards`."""
        return self._dead[seat]

    def dealt_mask(self, seat: int) -> int:
        """N4: the card mask ``seat`` was dealt, read from the deck (its own cards only)."""
        n = self.n
        mask = 0
        for c in self._deck[(seat - self.eldest) % n:5 * n:n]:
            mask |= 1 << c
        return mask

    def event_log(self) -> list[Event]:
        """The unredacted events so far: :meth:`events` (``omniscient``) without the copy."""
        if self._events is None:
            self._events = self.replayed()._events
            self._seen = None
        events = self._events
        assert events is not None
        return events

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The full hand of ``seat`` (omniscient; bots get views instead)."""
        return cards_of(self.hands[seat])

    def discards(self, seat: int) -> tuple[Card, ...]:
        """Cards ``seat`` has put out of play face down (exchanges, K7 discards)."""
        return cards_of(self._dead[seat])

    def talon(self) -> tuple[Card, ...]:
        """The talon, top first (omniscient)."""
        return tuple(CARDS[i] for i in reversed(self._talon))

    def legal_actions(self) -> Sequence[Action]:
        """The legal actions of the seat to act; empty once the deal is over."""
        if self.phase is _OVER:
            return ()
        return self._legal()

    def is_legal(self, action: ActionInput, seat: object = None) -> bool:
        """Whether ``action`` (or its text form; by ``seat``, default the seat to
        act) is legal now.  Text that is not an action is not legal."""
        try:
            action = self.read_action(action)
        except ParseError:
            return False
        if self.phase == Phase.OVER or (seat is not None and seat != self.to_act):
            return False
        return self._why(action) is None

    def check(self, action: ActionInput, seat: object = None) -> None:
        """Raise :class:`IllegalActionError` (or :class:`OutOfTurnError`) naming
        the rule if ``action`` by ``seat`` is not legal now; return otherwise.
        Text is read as by :meth:`apply` (:class:`ParseError` if it is no action)."""
        action = self.read_action(action)
        # The phase itself, not its English title, so that the message renders
        # in the language it is shown in (MushkaError.message).
        phase = self.phase
        if phase == Phase.OVER:
            raise IllegalActionError("deal_over", rule=self._action_rule(), action=action)
        # ``seat`` may be anything a caller from outside passes (a seat or None).
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.n):
            # C1/K1: the seats of the table are the whole numbers 0..n-1.
            raise IllegalActionError("bad_seat", rule=self.rules.info.seat_rule,
                                     seat=repr(seat)[:20], players=self.n)
        if seat is not None and seat != self.to_act:
            # §4: a refusal names the rule; here the rule that sets the order of turns.
            raise OutOfTurnError("out_of_turn", rule=self._turn_rule(), seat=seat,
                                 action=action, to_act=self.to_act, phase=phase)
        why = self._why(action)
        if why is not None:
            rule, key, params = why
            raise IllegalActionError(
                "illegal", rule=rule, action=action, seat=self.to_act, phase=phase,
                reason=LocalText(key, **params),
            )

    def read_action(self, action: ActionInput) -> Action:
        """The :class:`Action` that ``action`` stands for: an action, or its text form.

        Anything else (text that is no action, a number, ``None``, a tuple …)
        raises :class:`ParseError` naming a rule (§4): N2 for a bad card code,
        otherwise the rule of the phase that asked for an action.  Nothing changes.
        """
        if isinstance(action, Action):
            return action
        if not isinstance(action, str):
            raise ParseError("bad_action_type", rule=self._action_rule(), value=repr(action)[:40],
                             kind=type(action).__name__)
        return Action.parse(action, rule=self._action_rule())

    def _action_rule(self) -> str:
        """The rule of the phase that asks for an action now (§4: refusals name one)."""
        if self.phase != Phase.OVER:
            return self._turn_rule()
        result = self.result
        if result is None:  # not scored yet: the rule of the phase that ended it
            return "C13" if self.rules.has_trumps else "K18"
        if not self.rules.has_trumps:
            return "K19" if result.deadlock else "K18"  # the game ended when a hand emptied
        if result.mushka is not None:
            return self.rules.info.mushka_rule  # C22, MI13
        if result.all_passed:
            return "C9"
        if result.lone is not None:
            return "C10"
        return "C13"  # five tricks were played

    def _turn_rule(self) -> str:
        """The rule that says whose turn it is in the current phase."""
        if self.phase == Phase.DECLARE:
            return "C7"  # C7: each player in turn, from the eldest to the dealer
        if self.phase == Phase.REDISTRIBUTE:
            return "K7"  # K7 step 5: the takers discard in playing order
        return self.rules.info.play_rule  # C13, K11

    def apply(self, action: ActionInput, seat: object = None) -> list[Event]:
        """Check and apply ``action`` (or its text form); return the events.

        An illegal action raises and leaves the deal unchanged.
        """
        action = self.read_action(action)
        self.check(action, seat)
        events: list[Event] = []
        self._log.append(action)
        self._do(action, events)
        if self._events is not None:
            self._events.extend(events)
        return events

    def apply_unchecked(self, action: Action) -> None:
        """Apply an action known to be legal (taken from :meth:`legal_actions`).

        The fast path: no checks, no events.  Applying an illegal action here
        corrupts the deal.
        """
        self._log.append(action)
        self._events = None
        self._do(action, None)

    def events(self, seat: int | None = None, *, omniscient: bool = False) -> list[Event]:
        """Every event so far, as ``seat`` (or a spectator) saw it.

        ``omniscient`` returns the unredacted events (for records and tests).
        The log is rebuilt by replay when the fast path was used.
        """
        events = self.event_log()
        if omniscient:
            return list(events)
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.n):
            return [e.seen_by(seat) for e in events]
        # Each viewer's redacted log is kept and extended by the events since it was last
        # asked for (the log only grows: a replay rebuilds the same events), instead of
        # redacting the whole log again at every decision of a long deal (kopilka).
        seen = self._seen
        if seen is None:
            seen = self._seen = [[] for _ in range(self.n + 1)]
        mine = seen[self.n if seat is None else seat]
        if len(mine) > len(events):
            mine.clear()
        if len(mine) < len(events):
            mine.extend([e.seen_by(seat) for e in events[len(mine):]])
        return mine[:]

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

    def playout(self, rng: random.Random) -> None:
        """Finish the deal, each seat choosing uniformly among its legal actions.

        The same policy as ``rng.choice(deal.legal_actions())`` at every
        step, on the fast path; variants may do it without building the
        action lists (search rollouts and benchmarks use this).  The actions
        are logged as usual, so the deal can still be recorded and replayed.
        """
        random_ = rng.random
        while self.phase is not _OVER:
            options = self.legal_actions()
            self.apply_unchecked(options[int(random_() * len(options))])

    def copy(self, rng: random.Random | None = None) -> Self:
        """A cheap independent copy; ``rng`` replaces the chance generator."""
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
        if rng is None and self._rng is not None and self._chance_pending():
            # §4/STYLE 3: a copy must not draw from the original's generator,
            # or playing the copy would change the original's chance (K7 picks).
            rng = random.Random()
            rng.setstate(self._rng.getstate())
        other._rng = self._rng if rng is None else rng
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

    def _check_viewer(self, seat: int | None) -> None:
        """A view is for a seat of this table or a spectator; never index a hand blindly."""
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                                 or not 0 <= seat < self.n):
            raise MushkaError("bad_seat", seat=seat, players=self.n)

    # --- chance ---------------------------------------------------------------

    def _pick(self, options: list[int], what: str) -> int:
        """K7/K8: a card picked at random from ``options`` (forced or drawn)."""
        if self._forced_pos < len(self._forced):
            card = self._forced[self._forced_pos]
            if card not in options:
                raise ChanceError(
                    "chance_invalid", rule="N4", outcome=CARDS[card].code,
                    choices=" ".join(CARDS[i].code for i in options),
                )
            self._forced_pos += 1
        else:
            if self._steps:
                raise PendingChance(tuple(options))
            if self._rng is None:
                if self._forced:
                    raise ChanceError("chance_exhausted", rule="N4", what=what)
                self._rng = random.Random()
            card = options[self._rng.randrange(len(options))]
        self._picks.append(card)
        return card

    # --- helpers ------------------------------------------------------------------

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self.rules} dealer={self.dealer} phase={self.phase.name} "
            f"to_act={self.to_act} actions={len(self._log)}>"
        )


class PendingChance(Exception):
    """Raised by a deal made with ``chance_steps=True`` when a random pick (K7/K8)
    is due and not forced: ``options`` are the card indices it picks from,
    uniformly.  The deal that raised it is left half-way and must be dropped;
    :class:`mushka.engine.steps.StepDeal` rebuilds it with the pick forced.
    """

    def __init__(self, options: tuple[int, ...]) -> None:
        super().__init__(options)
        self.options = options


def _restore_deal(cls: type[Deal], rules: Rules, dealer: int, deck: tuple[int, ...],
                  picks: tuple[int, ...], actions: tuple[int, ...], state: dict[str, Any],
                  record_events: bool, steps: bool, rng: tuple[Any, ...] | None) -> Deal:
    """Unpickle a deal (see :meth:`Deal.__reduce__`): replay it."""
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


def _trick_record(raw: tuple[int, tuple[int, ...], int, int, bool, int]) -> TrickRecord:
    leader, packed, winner, suit, privileged, value = raw
    cards = tuple((p >> 6, CARDS[p & 63]) for p in packed)
    return TrickRecord(leader, cards, winner, suit, privileged, value)
