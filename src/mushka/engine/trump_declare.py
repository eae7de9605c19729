"""The declarations of a trump deal (C6-C10) and the special hands shown along them (C22, MI9-MI13).

:class:`TrumpDeclarations` holds what happens between the deal and trick play
in classic мушка and мушка-мистигри: the choices of the seat to declare (pass,
stand with an exchange, the dealer's take of the turned-up card), who may
pass, an exchange from the talon, the special hands checked after the deal
and after each declaration, the flush payment and who plays the tricks (or
the lone player who takes them all, or nobody) once the dealer has declared;
and how a deal ends (:meth:`TrumpDeclarations._settle`, which trick play
calls too).  :class:`mushka.engine.trump.TrumpDeal`, its subclass, deals the
cards, dispatches the moves and plays the tricks.
"""

from __future__ import annotations

from typing import Final

from mushka.cards import card_count, cards_of
from mushka.engine.actions import PASS, TAKES, Action, stand_mask
from mushka.engine.events import (
    AllPassed,
    DealEnded,
    Declared,
    Event,
    FlushPaid,
    LoneTakesAll,
    MushkaWon,
    PlayStarted,
    Shown,
)
from mushka.engine.exchanges import DeclareChoices, exchange_subsets, subset_mask
from mushka.engine.trump_cards import special_hand
from mushka.engine.trump_state import STOOD, TrumpState
from mushka.engine.types import Phase
from mushka.rules.choices import FlushMode, LonePlayer

TRICKS_PER_DEAL: Final = 5
"""C13: the tricks of a deal (all five to a lone player, C10)."""
_OVER: Final = Phase.OVER
_PASS_ONLY: Final[tuple[Action, ...]] = (PASS,)

Why = tuple[str, str, dict[str, object]] | None
"""Why an action is illegal: (rule, reason key, params), or ``None`` when it is legal."""


class TrumpDeclarations(TrumpState):
    """The declarations of one trump deal and how the deal ends; see the module docstring."""

    __slots__ = ()

    # --- special hands (C22, MI9-MI13) --------------------------------------------

    def _special(self, seat: int) -> tuple[FlushMode, str, tuple[int, int, int], int] | None:
        """The special hand of ``seat``: (effect, kind, score, seat) or ``None``.

        ``score`` orders competing hands: suit (MI10), card points (MI11), then
        the earlier seat from the eldest.
        """
        hit = special_hand(self.rules, self.hands[seat], self._priv_bit)
        if hit is None:
            return None
        effect, kind, suit, points = hit
        rel = (seat - self.eldest) % self.n
        return effect, kind, (suit, points, -rel), seat

    def _show(self, found: list[tuple[FlushMode, str, tuple[int, int, int], int]],
              ev: list[Event] | None) -> None:
        """Show special hands; stop the deal if one wins the мушка (C22, MI13)."""
        if ev is not None:
            for effect, kind, _, seat in found:
                ev.append(Shown(seat, cards_of(self.hands[seat]), kind, effect))
        winners = [(score, seat) for effect, _, score, seat in found if effect is FlushMode.WINS_MUSHKA]
        if winners:
            # MI13 takes precedence over MI9 in the same deal; best hand wins.
            self._finish_mushka(max(winners)[1], ev)
            return
        for _, _, score, seat in found:
            self._open |= 1 << seat
            self._cands.append((score, seat))

    def _finish_mushka(self, seat: int, ev: list[Event] | None) -> None:
        # C21: the stopped deal scores nothing; the partie settles the records.
        self._final = (False, -1, seat)
        self.phase = Phase.OVER
        self.to_act = -1
        if ev is not None:
            ev.append(MushkaWon(seat))
            ev.append(DealEnded(self._final_result()))

    # --- declaring -----------------------------------------------------------------

    def _declaration_at(self, r: float) -> Action:
        """``choices[int(r * len(choices))]`` of :meth:`_declare_choices`, without making
        the choices (the same order: pass, the stands by size, the dealer's takes)."""
        seat = self.to_act
        rules = self.rules
        hand = self.hands[seat]
        head = 1 if self._why_pass(seat) is None else 0
        talon = len(self._talon)
        limit = rules.max_exchange if rules.max_exchange < talon else talon
        banned = 0 if rules.can_discard_privileged else hand & self._priv_bit
        takes = seat == self.dealer and not self._took and rules.dealer_takes_turnup
        size = card_count(hand)
        subs = exchange_subsets(size, limit, card_count(hand & (banned - 1)) if banned else -1)
        count = head + len(subs) + ((size - (banned != 0)) if takes else 0)
        index = int(r * count)
        if index < head:
            return PASS
        index -= head
        if index < len(subs):
            return stand_mask(subset_mask(hand, subs[index]))
        rest = hand & ~banned
        for _ in range(index - len(subs)):
            rest &= rest - 1
        return TAKES[(rest & -rest).bit_length() - 1]

    def _declare_choices(self) -> DeclareChoices:
        seat = self.to_act
        rules = self.rules
        hand = self.hands[seat]
        head: tuple[Action, ...] = _PASS_ONLY if self._why_pass(seat) is None else ()
        talon = len(self._talon)
        limit = rules.max_exchange if rules.max_exchange < talon else talon
        banned = 0 if rules.can_discard_privileged else hand & self._priv_bit
        takes = seat == self.dealer and not self._took and rules.dealer_takes_turnup
        return DeclareChoices(head, hand, limit, banned, takes)

    def may_pass(self, seat: int) -> bool:
        """Whether ``seat`` may pass at its declaration (C6, C10, MI8): ``_why_pass`` is
        ``None``, without building the reason."""
        if seat == self.dealer and (self._took or (self.rules.lone_player is LonePlayer.DEALER_MUST_PLAY
                                                   and self._stood_before_dealer == 1)):
            return False
        return not (self.rules.privileged_must_play and self.hands[seat] & self._priv_bit)

    def _why_pass(self, seat: int) -> Why:
        rules = self.rules
        if seat == self.dealer and self._took:
            return "C6", "why.took_turnup_must_play", {}
        if rules.privileged_must_play and self.hands[seat] & self._priv_bit:
            return "MI8", "why.privileged_no_pass", {"card": rules.privileged}
        if (
            seat == self.dealer
            and rules.lone_player is LonePlayer.DEALER_MUST_PLAY
            and self._stood_before_dealer == 1
        ):
            return "C10", "why.dealer_must_play", {}
        return None

    def _stand(self, mask: int, ev: list[Event] | None) -> None:
        seat = self.to_act
        hand = self.hands[seat] ^ mask
        k = card_count(mask)
        drawn = 0
        talon = self._talon
        for _ in range(k):
            drawn |= 1 << talon.pop()
        self.hands[seat] = hand | drawn
        self._dead[seat] = self._dead[seat] | mask
        self._decl[seat] = STOOD
        self._exch[seat] = k
        if seat != self.dealer:
            self._stood_before_dealer += 1
        if ev is not None:
            ev.append(Declared(seat, True, k, cards_of(mask), cards_of(drawn),
                               bool(self._open >> seat & 1)))
        if k or (seat == self.dealer and self._took):
            # C22/MI12: checked after the declaration that changed the hand.
            hit = self._special(seat)
            if hit is not None:
                self._show([hit], ev)
                if self.phase is _OVER:
                    return
        self._next_declarer(ev)

    def _next_declarer(self, ev: list[Event] | None) -> None:
        seat = self.to_act
        if seat != self.dealer:
            self.to_act = (seat + 1) % self.n
            return
        self._end_declarations(ev)

    def _end_declarations(self, ev: list[Event] | None) -> None:
        n = self.n
        side = [0] * n
        flush_seat = -1
        if self._cands:
            # MI10-MI12: only the best flush is paid, once, by every other seat.
            flush_seat = max(self._cands)[1]
            pay = self.rules.flush_payment
            for s in range(n):
                side[s] = pay * (n - 1) if s == flush_seat else -pay
            if ev is not None:
                ev.append(FlushPaid(flush_seat, pay, pay * (n - 1)))
        self._side = side
        self._flush_seat = flush_seat
        decl = self._decl
        order = [s for s in range(self.eldest, n) if decl[s] == STOOD]
        order += [s for s in range(self.eldest) if decl[s] == STOOD]
        self._order = order
        nxt = self._next = [-1] * n
        for i, s in enumerate(order):
            nxt[s] = order[(i + 1) % len(order)]
            # MI5: "held" the privileged card = had it when trick play began.
            if self.hands[s] & self._priv_bit:
                self._priv_holder = s
        if not order:
            self._settle(ev, all_passed=True)
        elif len(order) == 1:
            # C10: a lone player takes all five tricks without play.
            lone = order[0]
            self._won[lone] = TRICKS_PER_DEAL
            if ev is not None:
                ev.append(LoneTakesAll(lone, TRICKS_PER_DEAL))
            self._settle(ev, lone=lone)
        else:
            self.phase = Phase.PLAY
            self.to_act = order[0]
            if ev is not None:
                ev.append(PlayStarted(order[0], tuple(order)))

    def _settle(self, ev: list[Event] | None, *, all_passed: bool = False, lone: int = -1) -> None:
        """End the deal; the result itself is built on demand (fast path)."""
        self._final = (all_passed, lone, -1)
        self.phase = Phase.OVER
        self.to_act = -1
        if ev is not None:
            if all_passed:
                ev.append(AllPassed())
            ev.append(DealEnded(self._final_result()))

    # The declarations for encoders (see Deal.table_packed): the deal's own values.

    @property
    def declaration_codes(self) -> list[int]:
        """C7: each seat's declaration so far (UNDECIDED, PASSED or STOOD), by seat."""
        return self._decl

    @property
    def exchange_counts(self) -> list[int]:
        """C7: the cards each seat exchanged (-1 until it stands), by seat."""
        return self._exch

    @property
    def turnup_taken(self) -> bool:
        """C6: whether the dealer took the turned-up card."""
        return self._took

    @property
    def shown_mask(self) -> int:
        """The seats whose hands all see, as a mask: opened by a flush (MI9) or the
        special hand that won the мушка (C22, MI13)."""
        winner = self._final[2]
        return self._open | (1 << winner if winner >= 0 else 0)
