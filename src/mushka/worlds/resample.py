"""Resampling a deal from one seat's view: a full state consistent with what it knows.

Information-set search (IS-MCTS, determinized sampling) needs whole deals
that a seat cannot tell from the real one.  :func:`resample_deal` reads only
the seat's own redacted events (§4 of RULES: what the seat saw), builds a
deck that agrees with them and proves it by replaying every action on the
engine with checks and comparing the seat's events: a proposal the seat
could tell apart is thrown away and drawn again.

What a proposal respects in classic and mistigri: the seat's own cards, the
turned-up card (C5) and where it went (C6), cards shown (C22/MI9/MI12), each
seat's passes and exchange counts (C7-C8), cards played by each seat, and the
suits a seat showed it lacks by not following (C14).  Hidden cards are
otherwise spread uniformly; the replay check removes the rest (a hand that
would have been a flush, an overtrump the seat was obliged to make…).

Kopilka has its own proposal (:mod:`mushka.worlds.kopilka`: K6-K8 groups
and picks, draws, passes and take-backs, built backwards from the seat's
view read into :class:`~mushka.worlds.facts.KopilkaFacts`; the search bots
draw their kopilka worlds from the same proposal), checked the same way.

The classic and mistigri proposal here (:func:`_propose`) is not the search
bots' (:mod:`mushka.worlds.trump`): it draws its cards seat by seat, in its
own order, and the research environments' resampled states (OpenSpiel's
``resample_from_infostate``) are tied to those draws seed by seed.

Like the bots' sampler this is a consistent sampler, not the exact
posterior: docs/research.md reports its acceptance and how its marginals
compare with exact counting.
"""

from __future__ import annotations

import random
from typing import Final

from mushka.cards import Card, index_list
from mushka.engine import new_deal
from mushka.engine.actions import PASS, PLAYS, TAKES, Action, stand_mask
from mushka.engine.deal import Deal
from mushka.engine.deal_state import check_seat
from mushka.engine.events import Dealt, Declared, Event, Played, Shown, TookTurnup, TrickTaken, TurnedUp
from mushka.engine.steps import StepDeal
from mushka.errors import MushkaError
from mushka.i18n import add_texts
from mushka.worlds.facts import kopilka_facts
from mushka.worlds.fill import WorldFailed
from mushka.worlds.kopilka import propose_kopilka

TRIES: Final = 500
"""Proposals drawn before giving up (each one checked by a replay)."""


def resample_steps(steps: StepDeal, seat: object, rng: random.Random, *, tries: int = TRIES) -> StepDeal:
    """:func:`resample_deal` on a step deal: the steps leading to a consistent deal."""
    me = check_seat(steps.rules, seat)
    deal = steps.deal
    if deal is None and not steps._left:
        # K7: a pick is due; nobody decides at a chance step.
        raise MushkaError("resample_at_chance", rule="K7")
    if deal is None:
        # While the deck is being dealt the seat knows only its cards so far:
        # deal the rest of its view again from the same prefix of its own cards.
        out = StepDeal(steps.rules, steps.dealer, **steps._state)
        for outcome in _dealing_prefix(steps, me, rng):
            out.apply_chance(outcome)
        return out
    return StepDeal.from_deal(resample_deal(deal, me, rng, tries=tries))


def _dealing_prefix(steps: StepDeal, seat: int, rng: random.Random) -> list[int]:
    """N4: the same cards for ``seat`` at the same places, the others' drawn anew."""
    rules = steps.rules
    n = rules.players
    k0 = (seat - steps.dealer - 1) % n
    dealt = steps._dealt()
    mine = {i: c for i, c in enumerate(dealt) if i < 5 * n and i % n == k0}
    others = [c for i, c in enumerate(dealt) if i not in mine]
    rest = [c for c in rules.deck_indices if c not in dealt]
    pool = others + rest
    rng.shuffle(pool)
    pos = steps.space._pos_of
    out = []
    for i in range(len(dealt)):
        out.append(pos[mine[i]] if i in mine else pos[pool.pop()])
    return out


def resample_deal(deal: Deal, seat: object, rng: random.Random, *, tries: int = TRIES) -> Deal:
    """A deal ``seat`` cannot tell from ``deal``, drawn from its view (see the module docstring).

    Raises :class:`MushkaError` if no consistent deal turned up in ``tries``
    proposals.
    """
    rules = deal.rules
    me = check_seat(rules, seat)
    if not rules.has_trumps:
        return _resample_kopilka(deal, me, rng, tries)
    seen = deal.events(me)
    for _ in range(tries):
        try:
            deck, actions = _propose(deal, me, seen, rng)
        except WorldFailed:
            continue
        other = new_deal(rules, deal.dealer, deck=deck)
        if _shows(other, actions, me, seen):
            return other
    raise MushkaError("resample_failed", rule="C14", tries=tries)


def _resample_kopilka(deal: Deal, seat: int, rng: random.Random, tries: int) -> Deal:
    """A kopilka deal ``seat`` cannot tell from ``deal``, built from ``seat``'s view alone.

    Raises :class:`MushkaError` (``resample_failed``, K7) if no proposal of
    ``tries`` was accepted.
    """
    view = deal.view(seat)
    facts = kopilka_facts(view)
    seen = list(view.events)
    for _ in range(tries):
        try:
            deck, picks, actions = propose_kopilka(view, facts, rng)
        except WorldFailed:
            continue
        # K7: picks still to come (groups not checked yet) come from a generator of their own.
        other = new_deal(deal.rules, deal.dealer, deck=deck, picks=picks, rng=random.Random(rng.getrandbits(64)),
                         pot=facts.initial_pot, balances=list(facts.initial_balances))
        if _shows(other, actions, seat, seen):
            return other
    raise MushkaError("resample_failed", rule="K7", tries=tries)


def _shows(other: Deal, actions: list[Action], seat: int, seen: list[Event]) -> bool:
    """Whether ``actions``, replayed on ``other`` with checks, show ``seat`` exactly the events ``seen``.

    A proposal that breaks a rule on the way (an illegal action: a void
    or an exchange the view rules out; in kopilka also a K7 pick the group
    cannot give) is not the seat's deal either.
    """
    try:
        for action in actions:
            other.apply(action)
    except MushkaError:
        return False
    return other.events(seat) == seen


def _mask(cards: tuple[Card | None, ...] | None) -> int:
    mask = 0
    for c in cards or ():
        if c is not None:
            mask |= c.bit
    return mask


def _propose(deal: Deal, me: int, seen: list[Event], rng: random.Random) -> tuple[list[int], list[Action]]:
    """One candidate deck and the actions to replay on it (:class:`WorldFailed` if stuck)."""
    rules = deal.rules
    n = deal.n
    dealer = deal.dealer
    priv = rules.privileged.index
    known = 0
    dealt = [0] * n          # hands as dealt, where known
    shown_at_deal = [False] * n
    turnup = -1
    took_discard: dict[int, int] = {}
    decls: list[Declared] = []
    final_known = [0] * n    # C22/MI12: a hand shown after its exchange
    played = [0] * n
    voids = [0] * n          # suit bits a seat showed it lacks (C14)
    order: list[tuple[str, Event]] = []
    trick: list[tuple[int, int]] = []
    took = -1
    for e in seen:
        if isinstance(e, Dealt):
            hand = e.hands[me]
            dealt[me] = _mask(hand)
            known |= dealt[me]
        elif isinstance(e, TurnedUp):
            turnup = e.card.index
            known |= e.card.bit
        elif isinstance(e, Shown):
            known |= _mask(e.cards)
            if any(d.seat == e.seat for d in decls) or (took == e.seat):
                final_known[e.seat] = _mask(e.cards)
            else:
                dealt[e.seat] = _mask(e.cards)
                shown_at_deal[e.seat] = True
        elif isinstance(e, TookTurnup):
            took = e.seat
            if e.discard is not None:
                took_discard[e.seat] = e.discard.index
                known |= e.discard.bit
            order.append(("take", e))
        elif isinstance(e, Declared):
            decls.append(e)
            known |= _mask(e.discards) | _mask(e.drawn)
            order.append(("declare", e))
        elif isinstance(e, Played):
            c = e.card.index
            known |= 1 << c
            played[e.seat] |= 1 << c
            if not trick:
                trick = [(e.seat, c)]
            else:
                lead = trick[0][1] // 13
                # C14: not following shows a void only where following is compulsory.
                if rules.must_follow and c // 13 != lead and c != priv:
                    voids[e.seat] |= 1 << lead
                    if rules.must_trump_if_void and c // 13 != turnup // 13:
                        voids[e.seat] |= 1 << (turnup // 13)
                trick.append((e.seat, c))
            order.append(("play", e))
        elif isinstance(e, TrickTaken):
            trick = []
    pool = [c for c in rules.deck_indices if not known >> c & 1]
    rng.shuffle(pool)
    # The turned-up card taken by the dealer (C6) is public until he may have
    # discarded it in his exchange: it is either in his hand or his discards.
    turnup_open = took >= 0 and not (played[took] >> turnup & 1)

    def draw(count: int, avoid: int = 0, extra: tuple[int, ...] = ()) -> list[int] | None:
        cands = [c for c in (*extra, *pool) if not avoid >> (c // 13) & 1]
        if len(cands) < count:
            return None
        chosen = rng.sample(cands, count)
        for c in chosen:
            if c in pool:
                pool.remove(c)
        return chosen

    declared = {d.seat: d for d in decls}
    drawn_of: dict[int, list[int]] = {}
    stand_discards: dict[int, int] = {}
    take_discard: dict[int, int] = {}
    # Most constrained seats first: they have the fewest cards to choose from.
    seats = sorted((s for s in range(n) if s != me), key=lambda s: -bin(voids[s]).count("1"))
    for s in seats:
        d = declared.get(s)
        if shown_at_deal[s]:
            if d is not None and d.stand:
                stand_discards[s] = _mask(d.discards)
                drawn_of[s] = [c.index for c in d.drawn or ()]
            if s in took_discard:
                take_discard[s] = took_discard[s]
            continue
        if d is None or not d.stand:
            # C7: a pass keeps the hand as dealt (no constraint but the replay's).
            if d is None and s == took:
                # C6: the dealer took the turned-up card and has not declared yet: he holds
                # it with four hidden cards and discarded one more.
                rest = draw(4)
                if s in took_discard:
                    got: list[int] | None = [took_discard[s]]
                else:
                    got = draw(1)
                if rest is None or got is None:
                    raise WorldFailed
                take_discard[s] = got[0]
                dealt[s] = sum(1 << c for c in rest) | 1 << got[0]
                continue
            cards = draw(5)
            if cards is None:
                raise WorldFailed
            dealt[s] = sum(1 << c for c in cards)
            continue
        k = d.count
        if final_known[s]:
            final = final_known[s]
        else:
            size = 5 - played[s].bit_count()
            extra = (turnup,) if s == took and turnup_open else ()
            rest = draw(size, voids[s], extra)
            if rest is None:
                raise WorldFailed
            final = played[s] | sum(1 << c for c in rest)
            if s == took and turnup_open and not final >> turnup & 1 and k == 0:
                raise WorldFailed
        keep_turnup = s == took and final >> turnup & 1
        cands = [c for c in index_list(final) if not (s == took and c == turnup)]
        drawn = rng.sample(cands, k) if k <= len(cands) else None
        if drawn is None:
            raise WorldFailed
        drawn_of[s] = drawn
        need_turnup_discard = s == took and not keep_turnup
        discards: list[int] = [turnup] if need_turnup_discard else []
        avoid_priv = not rules.can_discard_privileged
        cands_d = [c for c in pool if not (avoid_priv and c == priv)]
        if k - len(discards) > len(cands_d) or k < len(discards):
            raise WorldFailed
        more = rng.sample(cands_d, k - len(discards))
        for c in more:
            pool.remove(c)
        discards += more
        stand_discards[s] = sum(1 << c for c in discards)
        before = (final & ~sum(1 << c for c in drawn)) | stand_discards[s]
        if s == took:
            if s in took_discard:
                x = took_discard[s]
            else:
                got = draw(1)
                if got is None:
                    raise WorldFailed
                x = got[0]
            take_discard[s] = x
            before = (before & ~(1 << turnup)) | 1 << x
        dealt[s] = before
    # My own exchange: known to me.
    if me in declared and declared[me].stand:
        drawn_of[me] = [c.index for c in declared[me].drawn or ()]
        stand_discards[me] = _mask(declared[me].discards)
    if me in took_discard:
        take_discard[me] = took_discard[me]
    # N4: deal order from the eldest, the turned-up card, then the talon in draw order.
    eldest = (dealer + 1) % n
    deck = [0] * rules.deck_size
    for k in range(n):
        cards = index_list(dealt[(eldest + k) % n])
        if len(cards) != 5:
            raise WorldFailed
        rng.shuffle(cards)
        for j, c in enumerate(cards):
            deck[k + n * j] = c
    deck[5 * n] = turnup
    talon: list[int] = []
    for d in decls:
        if d.stand and d.count:
            got = drawn_of.get(d.seat, [])
            rng.shuffle(got)
            talon.extend(got)
    rng.shuffle(pool)
    talon.extend(pool)
    if len(talon) != rules.deck_size - 5 * n - 1:
        raise WorldFailed
    deck[5 * n + 1:] = talon
    actions: list[Action] = []
    for kind, e in order:
        if kind == "play":
            assert isinstance(e, Played)
            actions.append(PLAYS[e.card.index])
        elif kind == "take":
            assert isinstance(e, TookTurnup)
            actions.append(TAKES[take_discard[e.seat]])
        else:
            assert isinstance(e, Declared)
            actions.append(stand_mask(stand_discards.get(e.seat, 0)) if e.stand else PASS)
    return deck, actions


add_texts({
    "error.resample_at_chance": (
        "a random pick is due: resample at a player's decision, not at a chance step.",
        "сейчас очередь случайного выбора карты: пересдавать можно перед решением игрока, не на шаге случая.",
    ),
    "error.resample_failed": (
        "no deal consistent with the seat's view turned up in {tries} tries.",
        "за {tries} попыток не нашлось сдачи, согласной с тем, что знает игрок.",
    ),
})
