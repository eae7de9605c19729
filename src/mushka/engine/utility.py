"""Utilities of a deal for research: payoffs with documented bounds, and lengths.

A deal on its own is scored in money (stake units), as if it were the whole
game:

* classic and mistigri: ``-record_delta * stake + side`` (C17-C18, MI6-MI7:
  a trick writes the record down, a remiz writes it up; MI9: flush side
  payments), and a deal stopped by a special hand (C22/MI13) is settled as
  C21 settles a partie with every record still at ``initial_record``: each
  other seat pays the winner ``initial_record * stake``;
* kopilka: the change of each balance in the game (K12, K22).

Neither is zero-sum (records are written, not paid; kopilka pays the pot).
The bounds below are guaranteed, not always attained.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from mushka.engine.types import DealResult
from mushka.rules.choices import FlushMode, Renege
from mushka.rules.model import Rules

TRICKS_PER_DEAL: Final = 5
"""C13: five tricks a deal (classic, mistigri)."""
KOPILKA_GROUP_DISCARDS: Final = 3
"""K7/K8: at most three takers discard per shared group, one group per seat."""
KOPILKA_LEADS_PER_TRICK: Final = 4
"""K15/K19: three take-backs in a row at most before a trick counts (the fourth ends the game)."""


def kopilka_max_tricks(rules: Rules, discards: int = 0) -> int:
    """K14/K18: the most counted tricks of a kopilka deal after ``discards`` K7 discards.

    A counted trick takes two cards out of play at least (the lead and one card
    on it, K14), discards take one each (K7), and the deal ends after the first
    trick that leaves a hand empty (K18): before the last trick every seat still
    holds a card.  So ``2 (T - 1) + players + discards <= deck``.
    """
    return (rules.deck_size - discards - rules.players) // 2 + 1


def deal_utility(rules: Rules, result: DealResult) -> tuple[float, ...]:
    """Each seat's payoff of a finished deal in money (see the module docstring)."""
    if not rules.has_trumps:
        return tuple(float(m) for m in result.money)
    return trump_payoffs(rules, result.mushka, result.record_delta, result.side)


def trump_payoffs(rules: Rules, mushka: int | None, record_delta: Sequence[int],
                  side: Sequence[int]) -> tuple[float, ...]:
    """:func:`deal_utility` of a classic or mistigri deal from its parts: the seat that won
    the мушка (or ``None``), each record's change and the side payments (MI9)."""
    n = rules.players
    stake = rules.stake
    if mushka is not None:
        # C21/C22: the deal stops; every record is still the initial one.
        pay = rules.initial_record * stake
        return tuple(float(pay * (n - 1) if s == mushka else -pay) for s in range(n))
    return tuple(float(-record_delta[s] * stake + side[s]) for s in range(n))


def max_deal_length(rules: Rules) -> int:
    """The most decisions (player actions) a deal can take.

    Classic/mistigri: one declaration each, the dealer's take (C6), five
    tricks of every seat (C13).  Kopilka: the K7 discards (three a group, a
    group a seat at most), then the leads, each asking every seat once (K11).
    Leads come in runs: up to three taken back (K15), then one that counts or
    a fourth taken back that ends the deal (K19).  A deal has at most
    :func:`kopilka_max_tricks` runs either way (a deadlock after ``T`` counted
    tricks needs every hand still holding a card after the ``T``-th, so
    ``T + 1`` runs at most are as many), and each discard costs a card of play.
    A bound from the rules, not the longest deal found: no search has shown a
    deal that reaches it.
    """
    n = rules.players
    if rules.has_trumps:
        return n + 1 + TRICKS_PER_DEAL * n
    return max(d + kopilka_max_tricks(rules, d) * KOPILKA_LEADS_PER_TRICK * n
               for d in range(KOPILKA_GROUP_DISCARDS * n + 1))


def deal_utility_bounds(rules: Rules) -> tuple[float, float]:
    """``(min_utility, max_utility)`` of :func:`deal_utility` under ``rules``."""
    n = rules.players
    if rules.has_trumps:
        stake = rules.stake
        flush = rules.flush_payment if FlushMode.SIDE_PAYMENT in (rules.flush, rules.four_mode) else 0
        remiz = max(rules.remiz, rules.effective_privileged_remiz)
        mushka = rules.initial_record * stake if FlushMode.WINS_MUSHKA in (rules.flush, rules.four_mode) else 0
        low = -max(remiz * stake + flush, mushka)
        gain = (TRICKS_PER_DEAL * rules.trick_value + rules.privileged_bonus) * stake + flush * (n - 1)
        return float(low), float(max(gain, mushka * (n - 1)))
    # K12: a pass while holding the led suit costs a remiz; in a run of leads (see
    # max_deal_length) the leaders are consecutive seats, so a seat answers three
    # leads of a run at most.  K22: a trickless seat's remiz, then the game payment.
    runs = kopilka_max_tricks(rules)
    passes = (KOPILKA_LEADS_PER_TRICK - 1) * runs if rules.renege is Renege.PENALTY else 0
    worst = rules.remiz * (passes + 1) + rules.effective_game_payment
    # K21-K22.2: what a seat receives is its tricks' worth, each its suit's value, and
    # one trick (the A♠'s, K21) worth double.
    best = (runs + 1) * max(rules.suit_values)
    return float(-worst), float(best)
