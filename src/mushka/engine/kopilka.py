"""Мушка-копилка: one game (deal) with the pot.

Four players, 32 cards, no trumps (K1-K5).  A game runs: the deal → the
redistribution of groups of three or more cards of a suit (K6-K8, with the
random picks as chance events) → trick play in which a player follows suit,
passes or draws from the talon (K10-K16) → the end when somebody has no cards
left or the leads deadlock (K18-K19) → the money (K22).

The pot and the balances enter as keyword state (``pot=``, ``balances=``) so
that :class:`mushka.match.Session` can chain four games; a game played on its
own starts like game 1, with every ante paid (K24).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from mushka.cards import CARDS, SUIT_MASKS, Suit, cards_of
from mushka.engine.actions import DISCARDS, DRAW, PASS, PLAYS, Action, Kind
from mushka.engine.deal import Deal, DealResult, Phase
from mushka.engine.events import (
    CardTaken,
    Deadlock,
    DealEnded,
    Dealt,
    Discarded,
    Drew,
    Event,
    GroupDeclared,
    GroupSettled,
    Paid,
    Passed,
    Played,
    PlayStarted,
    TakenBack,
    TrickTaken,
    WentOut,
)
from mushka.engine.views import DealView
from mushka.errors import OptionsError
from mushka.rules.choices import Redistribution, Renege

DEADLOCK_LEADS: Final = 4
"""K19: this many leads taken back in a row end the game."""
PRIV_KEY: Final = 1000

Why = tuple[str, str, dict[str, object]] | None


def _whole(values: list[object] | tuple[object, ...]) -> bool:
    """Whether every one of ``values`` is a whole number (a bool is not): a loop, not
    ``all()`` over a generator, made at every deal."""
    for v in values:  # noqa: SIM110 (a loop: compiled, all() makes a generator at every deal)
        if type(v) is not int:
            return False
    return True


class KopilkaDeal(Deal):
    """One game of мушка-копилка; see the module docstring."""

    __slots__ = (
        "_acted",
        "_banned",
        "_best_key",
        "_best_seat",
        "_check_k",
        "_deadlock",
        "_money",
        "_out",
        "_pending",
        "_priv",
        "_remiz_paid",
        "_start_bal",
        "_start_pot",
        "_takebacks",
        "balances",
        "pot",
    )

    pot: int
    balances: list[int]
    _start_pot: int
    _start_bal: tuple[int, ...]
    _priv: int
    _check_k: int
    _pending: list[int]
    _acted: int
    _best_key: int
    _best_seat: int
    _banned: int
    _takebacks: int
    _out: int
    _deadlock: bool
    _money: list[int]
    _remiz_paid: list[int]

    def _setup(self, state: dict[str, object]) -> None:
        n = self.n
        rules = self.rules
        pot = state.pop("pot", None)
        balances = state.pop("balances", None)
        if state:
            raise TypeError(f"unexpected deal state {sorted(state)}")
        if pot is None and balances is None:
            # K24: a game on its own starts like game 1 of a session.
            pot = rules.ante * n
            balances = [-rules.ante] * n
        if (type(pot) is not int or not isinstance(balances, (list, tuple)) or len(balances) != n
                or not _whole(balances)):
            # K3/K24: the money of a game is whole: the pot and a balance per seat.
            raise OptionsError("bad_money_state", rule="K24", pot=repr(pot)[:40],
                               balances=repr(balances)[:80], players=n)
        if pot + sum(balances) != 0:
            raise OptionsError("bad_money", rule="K24", pot=pot, balances=list(balances))
        self.pot = pot
        self.balances = list(balances)
        self._start_pot = pot
        self._start_bal = tuple(balances)
        self._money = [0] * n
        self._remiz_paid = [0] * n
        deck = self._deck
        hands = [0] * n
        for i in range(5 * n):
            hands[(self.eldest + i) % n] = hands[(self.eldest + i) % n] | (1 << deck[i])
        self.hands = hands
        # K5: no turned card; the other cards are the talon.
        self._talon = list(reversed(deck[5 * n:]))
        self._dead = [0] * n
        self._priv = rules.privileged.index
        self._check_k = 0
        self._pending = []
        self._acted = 0
        self._best_key = -1
        self._best_seat = -1
        self._banned = -1
        self._takebacks = 0
        self._out = -1
        self._deadlock = False
        self.phase = Phase.REDISTRIBUTE
        self.to_act = -1
        ev = self._events
        if ev is not None:
            ev.append(Dealt(self.dealer, tuple(cards_of(h) for h in hands), len(self._talon)))
        self._redistribute(ev)

    def _initial_state(self) -> dict[str, object]:
        return {"pot": self._start_pot, "balances": list(self._start_bal)}

    def _chance_pending(self) -> bool:
        # K7/K8: picks happen only while groups are being shared out.
        return self.phase == Phase.REDISTRIBUTE

    # --- redistribution (K6-K8) ------------------------------------------------

    def _redistribute(self, ev: list[Event] | None) -> None:
        """Check seats in order from the eldest, until a taker must discard."""
        n = self.n
        while not self._pending and self._check_k < n:
            owner = (self.eldest + self._check_k) % n
            self._check_k += 1
            hand = self.hands[owner]
            for s in range(4):
                group = hand & SUIT_MASKS[s]
                if group.bit_count() >= 3:
                    self._share(owner, group, ev)
                    break
        if self._pending:
            self.phase = Phase.REDISTRIBUTE
            self.to_act = self._pending[0]
            return
        self.phase = Phase.PLAY
        self.to_act = self._leader = self.eldest
        if ev is not None:
            ev.append(PlayStarted(self.eldest, tuple((self.eldest + k) % n for k in range(n))))

    def _share(self, owner: int, group: int, ev: list[Event] | None) -> None:
        """K7 (modern) or K8 (old): share out ``owner``'s group of one suit."""
        n = self.n
        if ev is not None:
            ev.append(GroupDeclared(owner, group.bit_count()))
        self.hands[owner] = self.hands[owner] ^ group
        remaining = [c for c in range(52) if group >> c & 1]
        if self.rules.redistribution is Redistribution.OLD:
            # K8: the right-hand neighbour draws two at random for the next two seats.
            takers = [(owner + 1) % n, (owner + 2) % n]
        else:
            takers = [(owner + k) % n for k in range(1, n)]
        taken = 0
        for taker in takers:
            card = self._pick(remaining, f"K7 pick for seat {taker}")
            remaining.remove(card)
            self.hands[taker] = self.hands[taker] | (1 << card)
            taken |= 1 << card
            if ev is not None:
                ev.append(CardTaken(taker, owner, CARDS[card]))
        back = group & ~taken
        self.hands[owner] = self.hands[owner] | back
        drawn = 0
        for _ in range(min(len(takers), len(self._talon))):
            drawn |= 1 << self._talon.pop()
        self.hands[owner] = self.hands[owner] | drawn
        if ev is not None:
            ev.append(GroupSettled(owner, cards_of(taken), back.bit_count(), cards_of(drawn),
                                   drawn.bit_count()))
        self._pending = takers

    # --- legal actions --------------------------------------------------------------

    def _legal(self) -> Sequence[Action]:
        seat = self.to_act
        hand = self.hands[seat]
        if self.phase == Phase.REDISTRIBUTE:
            return _plays(hand, DISCARDS)
        if not self._trick:
            return _plays(self._lead_mask(hand), PLAYS)
        led = hand & SUIT_MASKS[self._lead_suit]
        out = _plays(led | (hand & 1 << self._priv), PLAYS)
        if not led and self._talon:
            out.append(DRAW)
        if not (led and self.rules.renege is Renege.FORBID):
            out.append(PASS)
        return out

    def _lead_mask(self, hand: int) -> int:
        """K16: the cards the leader may lead (not the banned suit if he can avoid it)."""
        banned = self._banned
        if banned >= 0 and hand & ~SUIT_MASKS[banned]:
            return hand & ~SUIT_MASKS[banned]
        return hand

    def _why(self, action: Action) -> Why:
        kind = action.kind
        seat = self.to_act
        hand = self.hands[seat]
        if self.phase == Phase.REDISTRIBUTE:
            if kind is not Kind.DISCARD:
                return "K7", "why.discard_one", {}
            if action.mask & ~hand:
                return "K7", "why.not_your_card", {"card": action.card}
            return None
        if kind is Kind.DISCARD:
            return "K11", "why.wrong_phase", {"kind": "discard", "phase": Phase.PLAY}
        if kind is Kind.STAND or kind is Kind.TAKE:
            return "K5", "why.wrong_phase", {"kind": kind.name.lower(), "phase": Phase.PLAY}
        lead = self._lead_suit
        if not self._trick:
            if kind is not Kind.PLAY:
                return "K10", "why.leader_cannot_pass", {}
            if action.mask & ~hand:
                return "K10", "why.not_your_card", {"card": action.card}
            if not action.mask & self._lead_mask(hand):
                return "K16", "why.banned_suit", {"suit": Suit(self._banned).of}
            return None
        led = hand & SUIT_MASKS[lead]
        if kind is Kind.PLAY:
            if action.mask & ~hand:
                return "K11", "why.not_your_card", {"card": action.card}
            if action.mask & (SUIT_MASKS[lead] | 1 << self._priv):
                return None
            return "K11", "why.other_suit", {"suit": Suit(lead).of, "priv": self.rules.privileged}
        if kind is Kind.DRAW:
            if led:
                return "K11", "why.draw_holding_suit", {"suit": Suit(lead).of}
            if not self._talon:
                return "K11", "why.talon_empty", {}
            return None
        if led and self.rules.renege is Renege.FORBID:
            return "K12", "why.renege_forbidden", {"suit": Suit(lead).of}
        return None

    # --- applying actions -------------------------------------------------------

    def _do(self, action: Action, ev: list[Event] | None) -> None:
        seat = self.to_act
        kind = action.kind
        if self.phase == Phase.REDISTRIBUTE:
            # K7 step 5: the taker discards one card face down.
            self.hands[seat] = self.hands[seat] ^ action.mask
            self._dead[seat] = self._dead[seat] | action.mask
            self._pending.pop(0)
            if ev is not None:
                ev.append(Discarded(seat, action.card))
            self._redistribute(ev)
            return
        if kind is Kind.PLAY:
            self._put(seat, action.mask.bit_length() - 1, ev)
        elif kind is Kind.DRAW:
            card = self._talon.pop()
            lead = self._lead_suit
            if card // 13 == lead:
                # K11: a drawn card of the led suit is played at once.
                if ev is not None:
                    ev.append(Drew(seat, CARDS[card], True))
                self.hands[seat] = self.hands[seat] | (1 << card)
                self._put(seat, card, ev, announce=False)
            else:
                self.hands[seat] = self.hands[seat] | (1 << card)
                if ev is not None:
                    ev.append(Drew(seat, CARDS[card], False))
                self._follower_done(ev)
        else:  # PASS
            # K12: passing while holding the led suit costs a remiz at once.
            penalty = self.rules.remiz if self.hands[seat] & SUIT_MASKS[self._lead_suit] else 0
            if ev is not None:
                ev.append(Passed(seat, penalty))
            if penalty:
                self._pay(seat, penalty, "renege", ev)
            self._follower_done(ev)

    def _put(self, seat: int, card: int, ev: list[Event] | None, *, announce: bool = True) -> None:
        # ``x[i] = x[i] ^ y`` rather than ``^=`` on list items: compiled, it works on unboxed ints.
        self.hands[seat] = self.hands[seat] ^ (1 << card)
        key = PRIV_KEY if card == self._priv else self.rules.strength[card]
        if ev is not None and announce:
            ev.append(Played(seat, CARDS[card]))
        if not self._trick:
            self._leader = seat
            self._lead_suit = card // 13
            self._best_key = key
            self._best_seat = seat
            self._acted = 0
            self._trick.append(seat << 6 | card)
            self.to_act = (seat + 1) % self.n
            return
        # K13: the A♠ beats everything; otherwise the highest card of the led suit.
        if key > self._best_key:
            self._best_key = key
            self._best_seat = seat
        self._trick.append(seat << 6 | card)
        self._follower_done(ev)

    def _follower_done(self, ev: list[Event] | None) -> None:
        self._acted += 1
        if self._acted < self.n - 1:
            self.to_act = (self.to_act + 1) % self.n
            return
        trick = self._trick
        leader = self._leader
        lead = self._lead_suit
        if len(trick) == 1:
            # K15: nobody put a card on it: the leader takes it back, the next leads.
            card = trick[0] & 63
            self.hands[leader] = self.hands[leader] | (1 << card)
            self._trick = []
            self._banned = -1
            self._takebacks += 1
            nxt = (leader + 1) % self.n
            if ev is not None:
                ev.append(TakenBack(leader, CARDS[card], nxt))
            if self._takebacks >= DEADLOCK_LEADS:
                # K19: four take-backs in a row end the game with nobody out.
                self._deadlock = True
                if ev is not None:
                    ev.append(Deadlock())
                self._finish(ev)
                return
            self.to_act = self._leader = nxt
            return
        # K14: one card on it is enough for the trick to count.
        winner = self._best_seat
        by_priv = self._best_key == PRIV_KEY
        value = self.rules.suit_values[lead] * (2 if by_priv else 1)  # K21
        self._won[winner] = self._won[winner] + 1
        self._tricks.append((leader, tuple(trick), winner, lead, by_priv, value))
        self._trick = []
        self._takebacks = 0
        self._banned = lead  # K16
        if ev is not None:
            ev.append(TrickTaken(winner, len(self._tricks),
                                 tuple((p >> 6, CARDS[p & 63]) for p in trick),
                                 Suit(lead), by_priv, value))
        for p in trick:
            seat = p >> 6
            if not self.hands[seat]:
                # K18: the first to empty his hand, in the order the cards were played.
                self._out = seat
                if ev is not None:
                    ev.append(WentOut(seat))
                self._finish(ev)
                return
        self.to_act = self._leader = winner

    # --- money (K12, K22) ---------------------------------------------------------

    def _pay(self, seat: int, amount: int, reason: str, ev: list[Event] | None) -> None:
        """``seat`` pays ``amount`` into the pot (negative: receives from it)."""
        self.balances[seat] = self.balances[seat] - amount
        self._money[seat] = self._money[seat] - amount
        self.pot += amount
        if ev is not None and amount:
            ev.append(Paid(seat, amount, reason))

    def _finish(self, ev: list[Event] | None) -> None:
        rules = self.rules
        n = self.n
        for s in range(n):
            if self._won[s] == 0:
                # K22.1: a ремиз from every player without a trick.
                self._remiz_paid[s] = rules.remiz
                self._pay(s, rules.remiz, "remiz", ev)
        for t in self._tricks:
            # K22.2: tricks are paid in order; a short pot cuts the payment.
            pay = min(t[5], self.pot)
            self._pay(t[2], -pay, "trick", ev)
        gp = rules.effective_game_payment
        for s in range(n):
            if s != self._out:
                # K22.3: everybody but the one who went out pays (all after a deadlock).
                self._pay(s, gp, "game", ev)
        self.phase = Phase.OVER
        self.to_act = -1
        if ev is not None:
            ev.append(DealEnded(self._final_result()))

    def _build_result(self) -> DealResult:
        n = self.n
        return DealResult(
            variant=self.rules.variant, dealer=self.dealer, tricks=tuple(self._won),
            remiz=tuple(self._remiz_paid), out=None if self._out < 0 else self._out,
            deadlock=self._deadlock, money=tuple(self._money), pot=self.pot,
            trick_log=self.tricks, standing=(True,) * n,
        )

    # --- copy and views ---------------------------------------------------------------

    def _copy_extra(self, other: KopilkaDeal) -> None:
        other.pot = self.pot
        other.balances = self.balances[:]
        other._start_pot = self._start_pot
        other._start_bal = self._start_bal
        other._priv = self._priv
        other._check_k = self._check_k
        other._pending = self._pending[:]
        other._acted = self._acted
        other._best_key = self._best_key
        other._best_seat = self._best_seat
        other._banned = self._banned
        other._takebacks = self._takebacks
        other._out = self._out
        other._deadlock = self._deadlock
        other._money = self._money[:]
        other._remiz_paid = self._remiz_paid[:]

    @property
    def takebacks_in_row(self) -> int:
        """K15, K19: the leads taken back in a row on the current trick (for encoders)."""
        return self._takebacks

    @property
    def banned_suit_index(self) -> int:
        """K16: the suit that may not be led now, -1 for none (for encoders)."""
        return self._banned

    def view(self, seat: object = None) -> DealView:
        """What ``seat`` (or a spectator) may know: see :class:`DealView`."""
        viewer = self._check_viewer(seat)
        mine = viewer is not None
        legal: tuple[Action, ...] = ()
        if mine and viewer == self.to_act and self.phase != Phase.OVER:
            legal = tuple(self._legal())
        return DealView(
            rules=self.rules, seat=viewer, dealer=self.dealer, phase=self.phase,
            to_act=None if self.to_act < 0 else self.to_act,
            hand=cards_of(self.hands[viewer]) if viewer is not None else (),
            hand_sizes=tuple(h.bit_count() for h in self.hands),
            talon_size=len(self._talon),
            discard_counts=tuple(d.bit_count() for d in self._dead),
            own_discards=cards_of(self._dead[viewer]) if viewer is not None else (),
            legal=legal,
            events=tuple(self.events(viewer)),
            trick=self.current_trick,
            leader=self._leader if self.phase == Phase.PLAY else None,
            tricks_won=tuple(self._won),
            tricks=self.tricks,
            open_hands=(None,) * self.n,
            result=self.result,
            playing=tuple(range(self.n)),
            banned_suit=None if self._banned < 0 else Suit(self._banned),
            pot=self.pot,
            balances=tuple(self.balances),
            takebacks=self._takebacks,
        )


def _plays(mask: int, table: tuple[Action, ...]) -> list[Action]:
    out = []
    while mask:
        low = mask & -mask
        out.append(table[low.bit_length() - 1])
        mask ^= low
    return out
