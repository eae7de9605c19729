"""A deal driven one step at a time, chance included: the engine's research API.

:class:`StepDeal` starts a deal *without* a deck.  Chance is a sequence of
steps like the players' (STYLE 5): each card of the deck, top first (N4), and
each random pick of kopilka (K7/K8) is one chance step, with its outcomes and
their probabilities; players act by numeric action ids
(:mod:`mushka.engine.ids`).  The deal underneath is an ordinary
:class:`~mushka.engine.Deal` with a stacked deck and forced picks, so it
records and replays exactly like any other.

Chance outcomes are deck positions: outcome ``k`` is the k-th card of
:attr:`Rules.deck_cards`.  A deal that ends before any decision (a special
hand that wins the мушка at the deal, C22/MI13) simply goes from its last
chance step to the end: no redeal, the distribution of deals is untouched.

Everything here is standard library: the adapters of :mod:`mushka.research`
turn the lists into arrays.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, Self, cast

from mushka.cards import CARDS, cards_of
from mushka.engine import new_deal
from mushka.engine.actions import Action
from mushka.engine.deal import Deal, PendingChance
from mushka.engine.deal_state import check_dealer, check_seat
from mushka.engine.encode import Encoder
from mushka.engine.events import Event
from mushka.engine.ids import TRUMP_PLAY_BASE, ActionSpace, action_space
from mushka.engine.stepped import Stepped
from mushka.engine.trump import TrumpDeal, dealt_trump_deal
from mushka.engine.trump_view import record_changes
from mushka.engine.types import Phase
from mushka.engine.utility import deal_utility, trump_payoffs
from mushka.errors import ChanceError, IllegalActionError
from mushka.i18n import add_texts
from mushka.rules.model import Rules

if TYPE_CHECKING:
    # Compiled, a local annotated ``i64`` is a machine integer (plain C arithmetic instead
    # of the tagged int's checked operations); the pure build never evaluates the
    # annotation, so the core needs no package at run time for it.
    from mypy_extensions import i64

CHANCE: Final = -1
""":attr:`StepDeal.current_player` at a chance step."""
TERMINAL: Final = -4
""":attr:`StepDeal.current_player` once the deal is over (OpenSpiel's value)."""

_OVER: Final = Phase.OVER
# The bits of a mask of listed ids that stay a machine word compiled (ids above it are
# checked in full; none is listed that far from its offset, see ActionSpace.id_offset).
_WORD: Final = 62


class StepDeal(Stepped):
    """One deal, dealt and played step by step; see the module docstring."""

    __slots__ = ("_deal", "_encoders", "_history", "_keys", "_left", "_left_cols", "_legal", "_legal_at",
                 "_legal_off", "_log", "_options", "_pairs", "_picks", "_plain", "_record", "_state", "dealer",
                 "rules", "space")

    rules: Rules
    dealer: int
    space: ActionSpace
    _state: dict[str, Any]
    _record: bool
    _plain: bool
    _left: int
    _left_cols: list[tuple[object, ...]]
    _picks: list[int]
    _options: tuple[int, ...]
    _deal: Deal | None
    _log: list[Action]
    _history: list[int]
    _encoders: list[Encoder | None]
    _keys: dict[int, tuple[int, list[Event]]]
    _pairs: tuple[tuple[object, ...], ...]
    _legal: int
    _legal_off: int
    _legal_at: int

    def __init__(self, rules: Rules, dealer: object = 0, *, record_events: bool = True, **state: object) -> None:
        """A deal of ``rules`` dealt by ``dealer``, its deck still to be dealt.

        ``record_events`` keeps the event log (views, records and
        :meth:`info_state_key` use it); without it the log is built the first
        time one of them asks (by replay) and kept from then on; ``state`` is a kopilka game's money
        (``pot=``, ``balances=``) as for :func:`~mushka.engine.new_deal`.
        """
        # ``dealer`` is an ``object`` for check_dealer to refuse anything but a seat by its rule
        # (compiled, an ``int`` parameter would be checked first, a bool taken for 0 or 1).
        self.dealer = check_dealer(rules, dealer)
        self.rules = rules
        space = self.space = action_space(rules)
        self._state = state  # a dictionary of this call's own (``**``)
        self._record = record_events
        # Classic and mistigri with no keyword state: the deal is made straight from the deck.
        self._plain = rules.has_trumps and not state
        # The deck positions not dealt yet: as a mask (bit k: position k) and as the sorted
        # list of their columns of outcomes (ActionSpace.columns).
        self._left = (1 << rules.deck_size) - 1
        self._left_cols = list(space.columns)
        self._picks = []
        self._options = ()
        self._deal = None
        # The actions so far, to replay when the deal is made again after a K7 pick; a plain
        # deal is made once, from the whole deck, and its own log is the record.
        self._log = []
        self._history = []
        # Encoder of (seat, history) at 2 * seat + history, made when first asked for
        # (a list, not a dict keyed by a tuple: no key made at every observation).
        self._encoders = [None] * (2 * rules.players)
        self._keys = {}
        self._pairs = space.pairs
        # The ids legal_action_ids() listed last, as a mask (bit ``i - _legal_off`` for id
        # ``i``), and the step they were listed at: apply_id of one of them needs no second
        # check (see there).
        self._legal = 0
        self._legal_off = 0
        self._legal_at = -1

    # --- where the deal stands -------------------------------------------------

    @property
    def deal(self) -> Deal | None:
        """The deal underneath (``None`` while a chance step is due)."""
        return self._deal

    def is_chance(self) -> bool:
        """Whether the next step is chance (a card of the deck or a K7 pick)."""
        return self._deal is None

    def is_over(self) -> bool:
        """Whether the deal is settled."""
        deal = self._deal
        return deal is not None and deal.phase is _OVER

    @property
    def current_player(self) -> int:
        """The seat to act, :data:`CHANCE` or :data:`TERMINAL`."""
        deal = self._deal
        if deal is None:
            return CHANCE
        return TERMINAL if deal.is_over else deal.to_act

    @property
    def history(self) -> tuple[int, ...]:
        """Every step so far: chance outcomes and action ids, in order."""
        return tuple(self._history)

    # --- chance ------------------------------------------------------------------

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of the chance step due, as (deck position, probability).

        N4: the next card of the deck is any card not dealt yet; K7/K8: a pick
        is any card of the group still there, all equally likely.
        """
        if self._deal is not None:
            return []
        out: list[object]
        left = self._left_cols
        if left:
            n = len(left)
            out = [col[n] for col in left]
        else:
            pos = self.space._pos_of
            cards = sorted(self._options)
            row = self._pairs[len(cards)]
            out = [row[pos[c]] for c in cards]
        return cast("list[tuple[int, float]]", out)

    def apply_chance(self, outcome: object) -> None:
        """Apply chance outcome ``outcome`` (an int, a deck position, see :meth:`chance_outcomes`).

        An outcome that is not possible now, or not an int at all, raises
        :class:`ChanceError` (N4) and changes nothing.
        """
        # ``object``, not ``int``: compiled, an int parameter would be checked (and a bool
        # taken for 0 or 1) before this method could name the rule, unlike the pure build.
        if self._deal is not None:
            raise ChanceError("chance_not_due", rule="N4")
        # The value as given, kept for the history: compiled, the checked int below is a
        # machine word, which the history would box anew.
        given: Any = outcome
        left = self._left_cols
        if left:
            bits = self._left
            if type(outcome) is not int or outcome < 0 or not bits >> outcome & 1:
                raise self._bad_outcome(outcome)
            # Its place among the positions left (they are sorted): how many of them are below
            # it, counted by bit arithmetic (positions < 52), with no table to read from memory
            # and none of the compares of objects list.remove makes.
            below: i64 = bits & ((1 << outcome) - 1)
            below -= below >> 1 & 0x5555555555555
            below = (below & 0x3333333333333) + (below >> 2 & 0x3333333333333)
            below = (below + (below >> 4)) & 0x0F0F0F0F0F0F0F
            below += below >> 8
            below += below >> 16
            below += below >> 32
            left.pop(below & 0x7F)
            self._left = bits ^ 1 << outcome
            self._history.append(given)
            if not left:
                self._build()
            return
        size = self.rules.deck_size
        card = self.rules.deck_indices[outcome] if type(outcome) is int and 0 <= outcome < size else -1
        if type(outcome) is not int or card not in self._options:
            raise ChanceError("chance_invalid", rule="K7", outcome=_code(card, outcome),
                              choices=" ".join(CARDS[c].code for c in sorted(self._options)))
        self._picks.append(card)
        self._history.append(outcome)
        self._build()

    def _bad_outcome(self, outcome: object) -> ChanceError:
        """N4: ``outcome`` is not a position of the deck left to deal (the error, naming the cards left)."""
        rules = self.rules
        size = rules.deck_size
        card = rules.deck_indices[outcome] if type(outcome) is int and 0 <= outcome < size else -1
        left = 0
        for k in range(size):
            if self._left >> k & 1:
                left |= 1 << rules.deck_indices[k]
        return ChanceError("chance_invalid", rule="N4", outcome=_code(card, outcome),
                           choices=" ".join(c.code for c in cards_of(left)))

    def apply_deck(self, outcomes: object) -> None:
        """Apply the chance steps of the whole deck at once: ``outcomes`` are the deck
        positions top first, each exactly once (N4), as :meth:`apply_chance` would take
        them one after another, with the same result.

        Only before the first card is dealt.  An outcome that is not possible, or
        ``outcomes`` that are no sequence of them, raise :class:`ChanceError` (N4) and
        change nothing.
        """
        if self._deal is not None or self._history:
            raise ChanceError("chance_not_due", rule="N4")
        if isinstance(outcomes, (str, bytes)) or not isinstance(outcomes, Sequence):
            raise ChanceError("bad_outcomes_type", rule="N4", value=repr(outcomes)[:40],
                              kind=type(outcomes).__name__)
        rules = self.rules
        size = rules.deck_size
        indices = rules.deck_indices
        count = 0
        left = self._left
        for outcome in outcomes:
            if type(outcome) is not int or outcome < 0 or not left >> outcome & 1:
                card = indices[outcome] if type(outcome) is int and 0 <= outcome < size else -1
                rest = 0
                for k in range(size):
                    if left >> k & 1:
                        rest |= 1 << indices[k]
                raise ChanceError("chance_invalid", rule="N4", outcome=_code(card, outcome),
                                  choices=" ".join(c.code for c in cards_of(rest)))
            count += 1
            left ^= 1 << outcome
        if left:
            raise ChanceError("chance_short", rule="N4", count=count, size=size)
        self._left = 0
        self._left_cols = []
        self._history.extend(cast("Sequence[int]", outcomes))  # each one checked above
        self._build()

    def _dealt(self) -> list[int]:
        """The cards of the deck dealt so far, top first (N4): the first chance outcomes, as
        card indices (kept as outcomes only: a list fewer to fill at every card)."""
        card_of = self.space._card_of
        return [card_of[k] for k in self._history[:self.rules.deck_size]]

    def _build(self) -> None:
        """Make the deal from the deck and the picks so far, replaying the actions."""
        try:
            deal: Deal
            if self._plain:
                # The deck is whole and checked card by card (apply_chance): dealt as it is,
                # with no keyword state passed on (a cheaper call, compiled).
                deal = dealt_trump_deal(self.rules, self.dealer, tuple(self._dealt()), self._record)
            else:
                deal = new_deal(self.rules, self.dealer, deck=self._dealt(), picks=self._picks,
                                record_events=self._record, chance_steps=True, **self._state)
            for action in self._log:
                if self._record:
                    deal.apply(action)
                else:
                    deal.apply_unchecked(action)
        except PendingChance as due:
            self._deal = None
            self._options = due.options
            return
        self._deal = deal
        self._options = ()

    # --- players' steps ------------------------------------------------------------

    def legal_action_ids(self) -> list[int]:
        """The legal action ids of the seat to act, sorted (empty at chance and at the end)."""
        out: list[int] = []
        deal = self._deal
        if deal is None:
            return out
        space = self.space
        self._legal = space.legal_into(deal, out)
        self._legal_off = space.id_offset(deal)
        self._legal_at = len(self._history)
        return out

    def legal_action_mask(self) -> bytearray:
        """The legal ids as a mask: one byte per id, 1 where it is legal (empty ids: all 0)."""
        out = bytearray(self.space.num_distinct_actions)
        deal = self._deal
        if deal is None:
            return out
        for i in self.legal_action_ids():
            out[i] = 1
        return out

    def legal_actions(self) -> Sequence[Action]:
        """The legal actions of the seat to act (empty at chance and at the end)."""
        deal = self._deal
        return () if deal is None else deal.legal_actions()

    def action_of(self, action_id: object) -> Action:
        """The action of id ``action_id`` (an int) for the seat to act."""
        if self._deal is None:
            raise IllegalActionError("chance_due", rule="N4", action=action_id)
        return self.space.action(self._deal, action_id)

    def id_of(self, action: object) -> int:
        """The id of ``action`` (an :class:`Action` or its text) for the seat to act; anything
        else is a :class:`ParseError` naming the phase's rule."""
        if self._deal is None:
            raise IllegalActionError("chance_due", rule="N4", action=action)
        return self.space.id_of(self._deal, action)

    def apply_id(self, action_id: object) -> None:
        """Check and apply action id ``action_id`` (an int) by the seat to act.

        An illegal id, or one that is not an int, raises :class:`IllegalActionError`
        naming the rule and changes nothing.
        """
        # ``object``, not ``int``: see apply_chance (and ``given`` there).
        given: Any = action_id
        deal = self._deal
        if deal is None:
            raise IllegalActionError("chance_due", rule="N4", action=action_id)
        # An id among those legal_action_ids() listed at this very step is legal;
        # anything else goes through the full check, which names the rule.
        if type(action_id) is int and self._legal_at == len(self._history):
            k = action_id - self._legal_off
            if 0 <= k < _WORD and self._legal >> k & 1:
                if self._plain and action_id >= TRUMP_PLAY_BASE and deal._events is None:
                    # C13: a card to the trick, with no events to record: straight to the deal.
                    self._history.append(given)
                    cast(TrumpDeal, deal).play_card(self.space._card_of[k])
                    return
                self._step(deal, self.space.listed_action(deal, action_id), action_id)
                return
        action = self.space.action(deal, action_id)  # refuses anything but an int id of the layout
        deal.check(action)
        self._step(deal, action, cast(int, action_id))

    def apply_action(self, action: object) -> None:
        """Check and apply ``action`` (or its text form) by the seat to act; anything that is
        neither is a :class:`ParseError` naming the phase's rule, and changes nothing."""
        deal = self._deal
        if deal is None:
            raise IllegalActionError("chance_due", rule="N4", action=action)
        act = deal.read_action(action)
        deal.check(act)
        self._step(deal, act, self.space.id_of(deal, act))

    def _step(self, deal: Deal, action: Action, action_id: int) -> None:
        if not self._plain:
            self._log.append(action)
        self._history.append(action_id)
        try:
            if deal._events is not None:
                # Checked already (apply_id / apply_action): apply with events, no second check.
                # Without record_events the log is made only once somebody asks for it (a view,
                # an information-state key: Deal.events replays the deal once), and from then
                # on it is kept up step by step like a recorded one.
                events: list[Event] = []
                deal._log.append(action)
                deal._do(action, events)
                if deal._events is not None:
                    deal._events.extend(events)
            else:
                deal.apply_unchecked(action)
        except PendingChance as due:
            # K7: the discard let the next group be shared out; its pick is chance.
            self._deal = None
            self._options = due.options

    # --- what a seat knows ----------------------------------------------------------

    def _dealt_to(self, seat: int) -> int:
        """The cards dealt to ``seat`` so far while the deck is being dealt (N4)."""
        n = self.rules.players
        k = (seat - self.dealer - 1) % n
        mask = 0
        for c in self._dealt()[k:5 * n:n]:
            mask |= 1 << c
        return mask

    def info_state_key(self, seat: object) -> tuple[object, ...]:
        """A canonical, hashable key of everything ``seat`` knows (perfect recall).

        Two states with the same key are indistinguishable to ``seat``: the
        key is the seat's own redacted event log (§4 of RULES), extended
        step by step rather than rebuilt.
        """
        seat = check_seat(self.rules, seat)
        deal = self._deal
        if deal is None:
            # Nobody decides at a chance step; the key only tells the steps apart.
            dealt = self.rules.deck_size - len(self._left_cols)
            return (seat, "chance", dealt, self._dealt_to(seat), tuple(self._history[self.rules.deck_size:]))
        return (seat, *self._seen(seat, deal))

    def _seen(self, seat: int, deal: Deal) -> tuple[Event, ...]:
        events = deal.events(omniscient=True)
        cached = self._keys.get(seat)
        if cached is None or cached[0] > len(events):
            cached = (0, [])
        done, seen = cached
        if done < len(events):
            seen = seen[:] if cached[0] else []
            seen.extend(e.seen_by(seat) for e in events[done:])
            self._keys[seat] = (len(events), seen)
        return tuple(seen)

    def observation(self, seat: object) -> array[float]:
        """The observation tensor of ``seat`` (layout: :func:`~mushka.engine.layouts.observation_layout`)."""
        deal = self._deal
        enc = self._encoder(seat, False)
        return enc.encode(deal, self._dealt_to(enc.seat) if deal is None else 0)

    def information_state(self, seat: object) -> array[float]:
        """The information-state tensor of ``seat`` (:func:`~mushka.engine.layouts.information_state_layout`)."""
        deal = self._deal
        enc = self._encoder(seat, True)
        return enc.encode(deal, self._dealt_to(enc.seat) if deal is None else 0)

    def tensor_list(self, seat: object, history: bool = False) -> list[float]:
        """:meth:`observation` (or, with ``history``, :meth:`information_state`) as a new
        list of floats: what OpenSpiel's Python API returns, without a float made per entry."""
        deal = self._deal
        enc = self._encoder(seat, history, lists=True)
        enc.encode(deal, self._dealt_to(enc.seat) if deal is None else 0)
        return enc.tolist()

    def _encoder(self, seat: object, history: bool, *, lists: bool = False) -> Encoder:
        at = check_seat(self.rules, seat)
        k = 2 * at + (1 if history else 0)
        enc = self._encoders[k]
        if enc is None:
            # ``lists``: made for tensor_list (OpenSpiel), which reads the list at every step.
            enc = self._encoders[k] = Encoder(self.rules, at, history=history, lists=lists)
        return enc

    # --- payoffs -----------------------------------------------------------------------

    def returns(self) -> tuple[float, ...]:
        """Each seat's payoff (:func:`~mushka.engine.utility.deal_utility`); zeros until the end."""
        deal = self._deal
        if deal is None or not deal.is_over:
            return (0.0,) * self.rules.players
        if isinstance(deal, TrumpDeal) and deal._result is None:
            # The payoff without the whole settlement (its trick log and every field):
            # environments ask for it at the end of every deal they play.
            mushka = deal._final[2]
            if mushka >= 0:
                return trump_payoffs(self.rules, mushka, (), ())
            return trump_payoffs(self.rules, None, record_changes(deal)[0], deal._side)
        result = deal.result
        assert result is not None
        return deal_utility(self.rules, result)

    def adopt_encoders(self, other: StepDeal) -> None:
        """Take over the observation encoders of ``other``, a deal of the same rules, reset
        for this one (which must not have encoded anything yet): an environment playing deal
        after deal then makes its encoders once.  ``other`` keeps working; it makes new
        encoders if it is asked for a tensor again."""
        same = other.rules is self.rules or other.rules == self.rules
        if not same or other is self or any(e is not None for e in self._encoders):
            return  # nothing to share: the encoders' layouts are those of their rules
        mine = other._encoders
        other._encoders = [None] * len(mine)
        for enc in mine:
            if enc is not None:
                enc.reset()
        self._encoders = mine

    # --- copies ---------------------------------------------------------------------------

    def _settings(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (self.rules, self.dealer), {"record_events": self._record, **self._state}

    def _steps_so_far(self) -> tuple[int, ...]:
        return tuple(self._history)

    def clone(self) -> Self:
        """A cheap independent copy."""
        other = self._fresh()
        other._left = self._left
        other._left_cols = self._left_cols[:]
        other._picks = self._picks[:]
        other._options = self._options
        other._deal = None if self._deal is None else self._deal.copy()
        other._log = self._log[:]
        other._history = self._history[:]
        other._encoders = [None if e is None else e.copy() for e in self._encoders]
        other._keys = dict(self._keys)
        other._legal = self._legal
        other._legal_off = self._legal_off
        other._legal_at = self._legal_at
        return other

    def __repr__(self) -> str:
        where = "chance" if self._deal is None else repr(self._deal)
        return f"<StepDeal {self.rules} dealer={self.dealer} steps={len(self._history)} {where}>"

    @classmethod
    def from_deal(cls, deal: Deal) -> StepDeal:
        """The steps that lead to ``deal`` (its deck and picks as chance outcomes)."""
        out = cls(deal.rules, deal.dealer, record_events=True, **deal.initial_state)
        pos = out.space._pos_of
        for c in deal._deck:
            out.apply_chance(pos[c])
        picks = iter(deal._picks)
        for action in deal.actions:
            while out.is_chance():
                out.apply_chance(pos[next(picks)])
            out.apply_action(action)
        while out.is_chance():
            out.apply_chance(pos[next(picks)])
        return out

    def playout(self, rng: random.Random) -> None:
        """Finish with uniformly random chance and actions (for tests and baselines)."""
        while True:
            if self._deal is None:
                outcomes = self.chance_outcomes()
                self.apply_chance(outcomes[rng.randrange(len(outcomes))][0])
                continue
            if self._deal.is_over:
                return
            ids = self.legal_action_ids()
            self.apply_id(ids[rng.randrange(len(ids))])


def _code(card: int, outcome: object) -> str:
    return CARDS[card].code if card >= 0 else str(outcome)


add_texts({
    "error.chance_due": (
        "{action} cannot be played: a chance step (a card of the deck or a random pick) is due first.",
        "ход {action} невозможен: сначала случай (карта колоды или случайный выбор карты).",
    ),
    "error.bad_outcomes_type": (
        "{value} is no list of chance outcomes: give the deck positions top first, not a {kind}",
        "{value} — не список исходов случая: нужны номера мест колоды сверху вниз, а не {kind}",
    ),
    "error.chance_short": (
        "a deck of {size} cards needs {size} chance outcomes, not {count}.",
        "колоде из {size} карт нужно {size} исходов случая, а не {count}.",
    ),
    "error.chance_not_due": (
        "no chance step is due: a player is to act.",
        "сейчас не ход случая: ходит игрок.",
    ),
})
