"""Fixed-shape tensors of what one seat knows: observation and information state.

Research environments feed networks with flat vectors of floats, laid out
as :mod:`mushka.engine.layouts` names them (each segment's name, offset and
size).  An :class:`Encoder` fills one for a seat, never with a card the seat
may not know (§4 of RULES): other seats' hands appear only when shown
(MI9/C22), exchanges only as counts (C7).

The encoder is incremental: it keeps its vector and the masks it last wrote,
and a step rewrites only the entries that changed (a played card, a trick
taken), not the whole view; :meth:`DealView` is never built.
"""

from __future__ import annotations

from array import array
from typing import Final

from mushka.engine.deal import Deal
from mushka.engine.deal_state import check_seat
from mushka.engine.events import Played, TakenBack
from mushka.engine.kopilka import KopilkaDeal
from mushka.engine.layouts import KOPILKA_TRICKS, TRUMP_TRICKS, Layout, information_state_layout, observation_layout
from mushka.engine.trump import TrumpDeal
from mushka.engine.types import Phase
from mushka.rules.model import DerivedKey, Rules

_OVER: Final = Phase.OVER
_DECLARE: Final = Phase.DECLARE

# An encoder's layout and each card's place in the deck, among the rules' derived tables.
_OBSERVATION: Final[DerivedKey[tuple[Layout, tuple[int, ...]]]] = DerivedKey("observation layout")
_INFORMATION_STATE: Final[DerivedKey[tuple[Layout, tuple[int, ...]]]] = DerivedKey("information state layout")


class Encoder:
    """Fills the observation (or information-state) tensor of one seat, step by step.

    Call :meth:`encode` after every step with the deal (``None`` while the
    cards are being dealt, with ``dealt`` the seat's cards so far).  The
    ``array('f')`` returned is the encoder's own buffer (numpy reads it
    without a copy, ``numpy.frombuffer``): copy it to keep it.  :meth:`tolist`
    gives the same values as a new list of floats, cheaply: the encoder keeps a
    list beside the buffer, written with it, so no float is made per entry.
    """

    __slots__ = (
        "_dealer_done",
        "_decl_last",
        "_done_mask",
        "_exch_last",
        "_history",
        "_hots",
        "_kopilka",
        "_lists",
        "_masks",
        "_n",
        "_ndone",
        "_nevents",
        "_nscanned",
        "_ntricks",
        "_ntricks_history",
        "_o_declared",
        "_o_exchanged",
        "_o_hand",
        "_o_own_discards",
        "_o_phase",
        "_o_played",
        "_o_talon",
        "_o_to_act",
        "_o_trick",
        "_o_tricks_won",
        "_o_turnup_taken",
        "_o_voids",
        "_played",
        "_pos",
        "_seen",
        "_shown",
        "_table",
        "_taken_back",
        "_tbacks",
        "_tcards",
        "_tdone",
        "_tmask",
        "_values",
        "_vlog",
        "_vpicks",
        "_won_at",
        "_won_last",
        "buffer",
        "layout",
        "rules",
        "seat",
    )

    rules: Rules
    seat: int
    layout: Layout
    buffer: array[float]
    # The buffer's values as Python floats, kept in step with it when the encoder was made
    # for tolist() (OpenSpiel's tensors) or once tolist() was first asked for: None until
    # then, so that environments reading the buffer (numpy) make no float object per write.
    _values: list[float] | None
    _history: bool
    _lists: bool
    _kopilka: bool
    _n: int
    _pos: tuple[int, ...]
    # What was last written, per offset: the card mask of a mask segment (0: none) and
    # the index of a one-hot segment (-1: none).  Lists, not dicts: read at every step.
    _masks: list[int]
    _hots: list[int]
    _ntricks: int
    _ntricks_history: int
    # The step last encoded (actions, picks) and the trick state then (tricks taken,
    # cards on the table): plain ints, compared at every step without a tuple made.
    _vlog: int
    _vpicks: int
    _played: bool
    _shown: int
    _tdone: int
    _tcards: int
    _tmask: int
    _tbacks: int
    _done_mask: int
    _ndone: int
    _seen: int
    _taken_back: list[int]
    _nevents: int
    _dealer_done: bool
    _table: list[int]
    _won_at: int
    _won_last: list[int]
    _nscanned: int
    _decl_last: list[int]
    _exch_last: list[int]
    # Offsets of the segments written at every step (-1: not in this layout).
    _o_hand: int
    _o_phase: int
    _o_to_act: int
    _o_own_discards: int
    _o_trick: int
    _o_played: int
    _o_declared: int
    _o_exchanged: int
    _o_voids: int
    _o_tricks_won: int
    _o_turnup_taken: int
    _o_talon: int

    def __init__(self, rules: Rules, seat: object, *, history: bool = False, lists: bool = False) -> None:
        """An encoder for ``seat``; ``history`` gives the information-state tensor; ``lists``
        keeps the list of floats for :meth:`tolist` from the start (else from its first call)."""
        # ``object``: anything but a seat of the table (C1/K1) gets the named error; compiled,
        # an ``int`` parameter would refuse text with a bare TypeError and take a bool for 0 or 1.
        self.seat = check_seat(rules, seat)
        self.rules = rules
        self._history = history
        self._lists = lists
        self._kopilka = not rules.has_trumps
        self._n = rules.players
        key = _INFORMATION_STATE if history else _OBSERVATION
        cached = rules.cache.get(key)
        if cached is None:
            layout = information_state_layout(rules) if history else observation_layout(rules)
            pos = [-1] * 52
            for k, c in enumerate(rules.deck_indices):
                pos[c] = k
            cached = rules.cache.put(key, (layout, tuple(pos)))
        self.layout, self._pos = cached
        offsets = self.layout.offsets
        self._o_hand = offsets["hand"]
        self._o_phase = offsets["phase"]
        self._o_to_act = offsets["to_act"]
        self._o_own_discards = offsets["own_discards"]
        self._o_trick = offsets["trick"]
        self._o_played = offsets["played"]
        self._o_declared = offsets.get("declared", -1)
        self._o_exchanged = offsets.get("exchanged", -1)
        self._o_voids = offsets.get("voids", -1)
        self._o_tricks_won = offsets.get("tricks_won", -1)
        self._o_turnup_taken = offsets.get("turnup_taken", -1)
        self._o_talon = offsets.get("talon", -1)
        self.reset()

    def reset(self) -> None:
        """Start over (a new deal)."""
        self.buffer = array("f", bytes(4 * self.layout.size))
        self._values = [0.0] * self.layout.size if self._lists else None
        self._masks = [0] * self.layout.size
        self._hots = [-1] * self.layout.size
        self._ntricks = 0
        self._nscanned = 0
        self._ntricks_history = 0
        self._seen = 0
        self._vlog = -1
        self._vpicks = -1
        self._played = False
        self._shown = 0
        self._tdone = -1
        self._tcards = -1
        self._tmask = 0
        self._tbacks = 0
        self._done_mask = 0
        self._ndone = 0
        self._taken_back = [0] * self._n
        self._nevents = 0
        self._dealer_done = False
        self._table = [0] * self._n
        self._won_at = -1
        self._won_last = [-1] * self._n
        # Not a declaration nor a count (UNDECIDED is 0, "no exchange" -1): written at the first step.
        self._decl_last = [-2] * self._n
        self._exch_last = [-2] * self._n

    def copy(self) -> Encoder:
        """An independent copy (for a cloned state)."""
        # Built through __init__ (its tables are cached per rules): no __new__ tricks, so a
        # compiled build can copy it too.
        other = Encoder(self.rules, self.seat, history=self._history, lists=self._lists)
        other.buffer = self.buffer[:]
        values = self._values
        other._values = None if values is None else values[:]
        other._masks = self._masks[:]
        other._hots = self._hots[:]
        other._ntricks = self._ntricks
        other._nscanned = self._nscanned
        other._ntricks_history = self._ntricks_history
        other._vlog = self._vlog
        other._vpicks = self._vpicks
        other._played = self._played
        other._shown = self._shown
        other._tdone = self._tdone
        other._tcards = self._tcards
        other._tmask = self._tmask
        other._tbacks = self._tbacks
        other._done_mask = self._done_mask
        other._ndone = self._ndone
        other._seen = self._seen
        other._taken_back = self._taken_back[:]
        other._nevents = self._nevents
        other._dealer_done = self._dealer_done
        other._table = self._table[:]
        other._won_at = self._won_at
        other._won_last = self._won_last[:]
        other._decl_last = self._decl_last[:]
        other._exch_last = self._exch_last[:]
        return other

    def tolist(self) -> list[float]:
        """The tensor as it was last encoded, as a new list (``buffer.tolist()``, made cheaply)."""
        values = self._values
        if values is None:
            # From now on the list is kept in step with the buffer (one tolist here).
            self._lists = True
            values = self._values = self.buffer.tolist()
        return values[:]

    # --- writing helpers -----------------------------------------------------

    def _set(self, index: int, value: float) -> None:
        """Write entry ``index``; the list keeps the buffer's float32 value, as ``tolist`` would."""
        buf = self.buffer
        buf[index] = value
        values = self._values
        if values is not None:
            values[index] = buf[index]

    def _mask(self, name: str, mask: int, base: int = 0) -> None:
        """Set card segment ``name`` (at ``base`` entries into it) to ``mask``, flipping only changes."""
        self._mask_at(self.layout.offsets[name] + base, mask)

    def _mask_at(self, off: int, mask: int) -> None:
        """:meth:`_mask` at offset ``off`` of the tensor."""
        old = self._masks[off]
        diff = old ^ mask
        if not diff:
            return
        self._masks[off] = mask
        buf = self.buffer
        values = self._values
        pos = self._pos
        while diff:
            low = diff & -diff
            i = off + pos[low.bit_length() - 1]
            v = 1.0 if mask & low else 0.0
            buf[i] = v
            if values is not None:
                values[i] = v
            diff ^= low

    def _one_hot(self, name: str, index: int, base: int = 0) -> None:
        """One-hot ``index`` (-1: none) in segment ``name`` (at ``base`` entries into it)."""
        self._one_hot_at(self.layout.offsets[name] + base, index)

    def _one_hot_at(self, off: int, index: int) -> None:
        """:meth:`_one_hot` at offset ``off`` of the tensor."""
        old = self._hots[off]
        if old == index:
            return
        values = self._values
        if old >= 0:
            self.buffer[off + old] = 0.0
            if values is not None:
                values[off + old] = 0.0
        if index >= 0:
            self.buffer[off + index] = 1.0
            if values is not None:
                values[off + index] = 1.0
        self._hots[off] = index

    def _rel(self, seat: int) -> int:
        return -1 if seat < 0 else (seat - self.seat) % self._n

    # --- encoding --------------------------------------------------------------

    def encode(self, deal: Deal | None, dealt: int = 0) -> array[float]:
        """The tensor now: ``deal`` as the seat knows it (or the cards ``dealt`` so far)."""
        if deal is None:
            self._mask("hand", dealt)
            self._one_hot("phase", 0)
            if self._history:
                self._mask("own_dealt", dealt)
            return self.buffer
        # Asked twice at the same step (OpenSpiel does): nothing changed.
        nlog = deal.action_count
        npicks = deal.pick_count
        if nlog == self._vlog and npicks == self._vpicks and deal.phase is not _OVER:
            return self.buffer
        self._vlog = nlog
        self._vpicks = npicks
        seat = self.seat
        d = self.rules.deck_size
        # Each write below is looked up first and made only when the entry changed:
        # most steps change few of them, and a lookup is cheaper than a call.
        masks = self._masks
        hots = self._hots
        o = self._o_hand
        hand = deal.hands[seat]
        if masks[o] != hand:
            self._mask_at(o, hand)
        o = self._o_phase
        index = int(deal.phase) + 1
        if hots[o] != index:
            self._one_hot_at(o, index)
        to_act = deal.to_act
        o = self._o_to_act
        index = -1 if to_act < 0 else (to_act - seat) % self._n
        if hots[o] != index:
            self._one_hot_at(o, index)
        if not self._dealer_done:
            # The dealer is written once a deal (reset() starts a new one).
            self._one_hot("dealer", self._rel(deal.dealer))
            self._dealer_done = True
        dead = deal.discard_mask(seat)
        if dead != masks[self._o_own_discards]:
            self._mask_at(self._o_own_discards, dead)
        n = self._n
        trick = deal.table_packed
        tricks = deal.tricks_packed
        changed = len(tricks) != self._tdone or len(trick) != self._tcards
        if self._kopilka and not changed:
            # K15: a lead taken back and another card led leave as many cards on the
            # table as before; the cards themselves tell the difference.  A lead taken
            # back with nothing led since leaves the table as it was: the count of
            # take-backs in a row tells that one.
            on = 0
            for p in trick:
                on |= 1 << (p & 63)
            changed = on != self._tmask
            if not changed:
                assert isinstance(deal, KopilkaDeal)
                changed = deal.takebacks_in_row != self._tbacks
        if changed:
            # A card was played or a trick taken (or taken back, K15) since the last step.
            self._tdone = len(tricks)
            self._tcards = len(trick)
            if self._kopilka:
                on = 0
                for p in trick:
                    on |= 1 << (p & 63)
                self._tmask = on
                assert isinstance(deal, KopilkaDeal)
                self._tbacks = deal.takebacks_in_row
            done = self._done_mask
            for t in tricks[self._ndone:]:
                for p in t[1]:
                    done |= 1 << (p & 63)
            self._done_mask = done
            self._ndone = len(tricks)
            on_table = [0] * n
            played = done
            for p in trick:
                played |= 1 << (p & 63)
                on_table[((p >> 6) - seat) % n] = 1 << (p & 63)
            before = self._table
            for k in range(n):
                if on_table[k] != before[k]:  # only the seats whose card changed
                    self._mask_at(self._o_trick + k * d, on_table[k])
            self._table = on_table
            if masks[self._o_played] != played:
                self._mask_at(self._o_played, played)
        if self._history and self._seen == 0:
            self._mask("own_dealt", deal.dealt_mask(seat))
            self._seen = 1
        if self._kopilka:
            assert isinstance(deal, KopilkaDeal)
            if changed:
                self._taken_back_cards(deal)
            self._encode_kopilka(deal)
        else:
            assert isinstance(deal, TrumpDeal)
            self._encode_trump(deal, changed)
        if self._history:
            self._encode_history(deal)
        return self.buffer

    def _encode_trump(self, deal: TrumpDeal, changed: bool) -> None:
        n = self._n
        d = self.rules.deck_size
        if not self._played:
            self._mask("turnup", 1 << deal.turnup)
            self._one_hot("trump", deal.trump)
        if deal.phase is _DECLARE or not self._played:
            # Declarations are written once more when play begins, then never change (C7).
            decl = deal.declaration_codes
            exch = deal.exchange_counts
            decl_last = self._decl_last
            exch_last = self._exch_last
            for s in range(n):
                if decl[s] != decl_last[s] or exch[s] != exch_last[s]:  # only the seats that declared
                    r = (s - self.seat) % n
                    self._one_hot_at(self._o_declared + 3 * r, decl[s])
                    self._one_hot_at(self._o_exchanged + 6 * r, exch[s])
                    decl_last[s] = decl[s]
                    exch_last[s] = exch[s]
            self._set(self._o_turnup_taken, 1.0 if deal.turnup_taken else 0.0)
            self._set(self._o_talon, deal.talon_size / d)
            self._played = deal.phase is not _DECLARE
        shown = deal.shown_mask
        if shown or self._shown:
            for s in range(n):
                self._mask("shown", deal.hands[s] if shown >> s & 1 else 0, self._rel(s) * d)
            self._shown = shown
        if not changed:
            return
        tricks = deal.tricks_packed
        if len(tricks) != self._won_at:
            # A trick was taken since the last step (or it is the first step: zero tricks each):
            # only the seats whose count changed are rewritten.
            self._won_at = len(tricks)
            won = deal.won_counts
            won_last = self._won_last
            base = self._o_tricks_won
            for s in range(n):
                if won[s] != won_last[s]:
                    won_last[s] = won[s]
                    self._one_hot_at(base + 6 * ((s - self.seat) % n), won[s])
        # C14: a seat that did not follow suit has none of it left (nor trumps, if it
        # had to trump and did not); the privileged card may be played freely (C12).
        voids = self._o_voids
        priv = self.rules.privileged.index
        trump = deal.trump
        must_trump = self.rules.must_trump_if_void
        if not self.rules.must_follow:
            # C14: without the duty to follow, not following shows nothing.
            self._ntricks = len(tricks)
            return
        # Only the cards played since the last step are read: the trick that was on the
        # table then (from its first card not read yet), every trick taken since, and the
        # one on the table now.  A void, once shown, stays shown for the rest of the deal.
        table = deal.table_packed
        first = self._ntricks
        skip = self._nscanned
        for t in range(first, len(tricks) + 1):
            packed = tricks[t][1] if t < len(tricks) else table
            start = skip if t == first else 0
            start = max(start, 1)  # the lead shows nothing
            if start >= len(packed):
                continue
            lead = (packed[0] & 63) // 13
            for k in range(start, len(packed)):
                p = packed[k]
                card = p & 63
                suit = card // 13
                if suit != lead and card != priv:
                    r = self._rel(p >> 6)
                    self._set(voids + 4 * r + lead, 1.0)
                    if must_trump and suit != trump:
                        self._set(voids + 4 * r + trump, 1.0)
        self._ntricks = len(tricks)
        self._nscanned = len(table)

    def _encode_kopilka(self, deal: KopilkaDeal) -> None:
        off = self.layout.offsets
        n = self._n
        d = self.rules.deck_size
        won = deal.won_counts
        for s in range(n):
            r = self._rel(s)
            self._set(off["tricks_won"] + r, won[s] / KOPILKA_TRICKS)
            self._set(off["hand_sizes"] + r, deal.hands[s].bit_count() / d)
            self._set(off["balances"] + r, deal.balances[s] / max(1, self.rules.ante * n))
        self._one_hot("banned_suit", deal.banned_suit_index)
        self._one_hot("takebacks", min(deal.takebacks_in_row, 3))
        self._set(off["talon"], deal.talon_size / d)
        self._set(off["pot"], deal.pot / max(1, self.rules.ante * n))

    def _taken_back_cards(self, deal: KopilkaDeal) -> None:
        """K15: a lead taken back is public and stays in the leader's hand until he plays it."""
        events = deal.event_log()
        if len(events) < self._nevents:
            self._taken_back = [0] * self._n
            self._nevents = 0
        tb = self._taken_back
        for e in events[self._nevents:]:
            if isinstance(e, TakenBack):
                tb[e.seat] |= e.card.bit
            elif isinstance(e, Played):
                tb[e.seat] &= ~e.card.bit
        self._nevents = len(events)
        d = self.rules.deck_size
        for s in range(self._n):
            self._mask("taken_back", tb[s], self._rel(s) * d)

    def _encode_history(self, deal: Deal) -> None:
        n = self._n
        d = self.rules.deck_size
        width = n + n * d
        limit = TRUMP_TRICKS if not self._kopilka else KOPILKA_TRICKS
        base = self.layout.offsets["trick_history"]
        done = self._ntricks_history
        tricks = deal.tricks_packed
        for i in range(done, min(len(tricks), limit)):
            leader, packed = tricks[i][0], tricks[i][1]
            start = base + i * width
            self._set(start + self._rel(leader), 1.0)
            for p in packed:
                self._set(start + n + self._rel(p >> 6) * d + self._pos[p & 63], 1.0)
        self._ntricks_history = len(tricks)
