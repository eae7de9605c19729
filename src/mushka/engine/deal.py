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

Its fields, its dealing from a deck and the plumbing that copies, pickles and
replays it are :class:`mushka.engine.deal_state.DealState`, its base.  The
variant classes are :class:`mushka.engine.trump.TrumpDeal` (classic and
mistigri) and :class:`mushka.engine.kopilka.KopilkaDeal`; :func:`new_deal`
picks the right one from the rules.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Sequence
from typing import Final

from mushka.cards import CARDS, Card, cards_of
from mushka.engine.actions import Action, ActionInput
from mushka.engine.chance import sample_order, shuffle
from mushka.engine.deal_state import DealState, check_seat
from mushka.engine.events import Event
from mushka.engine.types import DealResult, Phase, TrickRecord
from mushka.engine.views import DealView
from mushka.errors import (
    ChanceError,
    IllegalActionError,
    OutOfTurnError,
    ParseError,
)
from mushka.i18n import LocalText

# The value types moved to mushka.engine.types; they stay importable from here.
__all__ = ["Deal", "DealResult", "Phase", "TrickRecord", "sample_order", "shuffle"]

# Compiled, ``Phase.OVER`` is an attribute looked up on the enum class at every use;
# a module constant is read directly (phases are only ever Phase members: ``is``).
_OVER: Final = Phase.OVER


# Not an ABC, as DealState is not (see there).
class Deal(DealState):
    """One deal of any variant: how it is played over the fields of :class:`DealState`.
    See the module docstring."""

    __slots__ = ()

    # --- subclass hooks ------------------------------------------------------

    @abstractmethod
    def _legal(self) -> Sequence[Action]:
        """Legal actions of the seat to act (deal not over)."""

    @abstractmethod
    def _why(self, action: Action) -> tuple[str, str, dict[str, object]] | None:
        """Why ``action`` is illegal now for the seat to act: (rule, reason key,
        params), or ``None`` if it is legal."""

    @abstractmethod
    def view(self, seat: object = None) -> DealView:
        """What ``seat`` (or a spectator, ``None``) may know (§4 of RULES); anything else
        is refused by :meth:`_check_viewer`."""

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

    def hand(self, seat: object) -> tuple[Card, ...]:
        """The full hand of ``seat`` (omniscient; bots get views instead)."""
        return cards_of(self.hands[check_seat(self.rules, seat)])

    def discards(self, seat: object) -> tuple[Card, ...]:
        """Cards ``seat`` has put out of play face down (exchanges, K7 discards)."""
        return cards_of(self._dead[check_seat(self.rules, seat)])

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

    def events(self, seat: object = None, *, omniscient: bool = False) -> list[Event]:
        """Every event so far, as ``seat`` (or a spectator) saw it.

        ``omniscient`` returns the unredacted events (for records and tests).
        The log is rebuilt by replay when the fast path was used.
        """
        events = self.event_log()
        if omniscient:
            return list(events)
        viewer = self._check_viewer(seat)
        # Each viewer's redacted log is kept and extended by the events since it was last
        # asked for (the log only grows: a replay rebuilds the same events), instead of
        # redacting the whole log again at every decision of a long deal (kopilka).
        seen = self._seen
        if seen is None:
            seen = self._seen = [[] for _ in range(self.n + 1)]
        mine = seen[self.n if viewer is None else viewer]
        if len(mine) > len(events):
            mine.clear()
        if len(mine) < len(events):
            mine.extend([e.seen_by(viewer) for e in events[len(mine):]])
        return mine[:]

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

    def _check_viewer(self, seat: object) -> int | None:
        """``seat`` if it is a seat of this table (C1/K1) or ``None`` (a spectator); else the
        named error: never index a hand blindly.  The viewers' methods take an ``object``,
        since compiled an ``int`` parameter would refuse text with a bare ``TypeError`` and
        take a bool for 0 or 1."""
        if seat is None:
            return None
        return check_seat(self.rules, seat)

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



def _trick_record(raw: tuple[int, tuple[int, ...], int, int, bool, int]) -> TrickRecord:
    leader, packed, winner, suit, privileged, value = raw
    cards = tuple((p >> 6, CARDS[p & 63]) for p in packed)
    return TrickRecord(leader, cards, winner, suit, privileged, value)
