"""Worlds consistent with one seat's view: the sampler behind the search bot.

A *world* is a full deal, every hidden card placed, at the very point the
view shows.  The sampler builds one in three steps:

1. **Where are the unknown cards now?**  Every card whose place the viewer
   does not know goes to a hidden place: another seat's hand, a seat's
   discards, or the talon.  Places carry bans read from the view
   (:mod:`mushka.bots.knowledge`): the suits a seat has shown it lacks (C14,
   K11), the privileged card a passer cannot hold (MI8) or nobody may
   discard (MI5), the turned card the dealer took (C6), the cards taken from
   the viewer's group that only the takers can hold (K7).
2. **How did they get there?**  The history is rebuilt backwards: which
   drawn cards came from the talon (C7, K11), which cards were discarded,
   the hands as dealt, and in kopilka the redistribution (K7/K8): the suit of
   each group, the random picks, the owner's replacements, with every seat
   checked without a group holding at most two cards of a suit at its check.
   This gives a stacked deck (N4) and the chance outcomes of the picks.
3. **Does the engine agree?**  The deck and the picks are dealt again with
   :func:`mushka.engine.new_deal` and the history replayed through the
   engine's checked path; the world is kept only if every event the viewer
   would have seen in it equals the event he did see.  So an accepted world
   never breaks a rule nor anything the viewer saw: by construction, not by
   the care of steps 1 and 2, which only make acceptance likely.

The sampler reads only the view; the world it returns is its own invention.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from mushka.bots.knowledge import (
    KopilkaFacts,
    Observation,
    Step,
    TrumpFacts,
    kopilka_facts,
    suits_mask,
    trump_facts,
)
from mushka.bots.policy import bit_list
from mushka.cards import SUIT_MASKS
from mushka.engine import Action, Deal, DealView, new_deal
from mushka.engine.actions import DISCARDS, DRAW, PASS, PLAYS, TAKES, stand_mask
from mushka.errors import MushkaError
from mushka.i18n import add_texts
from mushka.rules import Rules


@dataclass(frozen=True)
class BeliefModel:
    """How much less likely a world is for each action of another seat that the rules of thumb would not make.

    A world's weight is the product, over the other seats' declarations (and
    with ``believe`` 2 their plays), of 1 when the rules of thumb, given the
    world's hand, do what the seat did, and of these factors otherwise; never
    below ``floor``.  The factors are fitted by maximum likelihood of the
    true deal on self-play (``bench/bots_inference.py``).
    """

    other_kind: float = 0.25
    """Standing where the rules would pass, passing where they would stand, or taking (C6-C7)."""
    count_off_one: float = 0.5
    """Exchanging one card more or fewer than the rules would (C7)."""
    count_off_more: float = 0.25
    """Exchanging two or more cards more or fewer."""
    other_play: float = 0.3
    """Playing another card than the rules would (C13-C15)."""
    floor: float = 0.02
    """The least weight of a world (a belief never rules a world out)."""


BELIEF = BeliefModel()
"""The factors the search uses."""


def pick_bits(mask: int, k: int, rng: random.Random) -> int:
    """``k`` cards of ``mask`` chosen uniformly (``mask`` must hold at least ``k``)."""
    chosen = 0
    for c in rng.sample(bit_list(mask), k):
        chosen |= 1 << c
    return chosen


def is_special(rules: Rules, hand: int) -> bool:
    """Whether a five-card hand is one the rules show at once (C22, MI9, MI13)."""
    if hand.bit_count() != 5:
        return False
    priv = 1 << rules.privileged.index
    if hand & priv and rules.four_mode != "none":
        rest = hand ^ priv
        if any(rest & ~m == 0 for m in SUIT_MASKS):
            return True
    if rules.flush != "none":
        return any(hand & ~m == 0 for m in SUIT_MASKS)
    return False


def _mask(cards: Sequence[object] | None) -> int:
    out = 0
    for c in cards or ():
        out |= 1 << c.index  # type: ignore[attr-defined]
    return out


def _legal_trump(rules: Rules, t: object, trump: int, hand: int, trick: list[int]) -> int:
    """C14 with its default options: the cards ``hand`` may play to ``trick``."""
    if not trick:
        return hand
    lead = trick[0] // 13
    legal = hand & SUIT_MASKS[lead]
    if not legal:
        legal = hand & SUIT_MASKS[trump] or hand
    priv = 1 << rules.privileged.index
    if rules.privileged_free_play:
        legal |= hand & priv
    return legal


def max_suit_count(hand: int) -> int:
    """The length of the longest suit of a hand."""
    return max((hand & m).bit_count() for m in SUIT_MASKS)


def assign(cards: list[int], bins: Sequence[tuple[int, int, int]], rng: random.Random, *,
           caps: Sequence[Sequence[int]] = (), musts: Sequence[tuple[Sequence[int], int, int]] = (),
           tries: int = 12) -> list[int] | None:
    """Deal ``cards`` into ``bins`` of (capacity, allowed mask, cap group).

    Capacities must add up to the number of cards.  A bin's cap group (an
    index into ``caps``, or -1) limits how many cards of each suit its group
    of bins may get; each of ``musts`` (bins, suit, count) asks for at least
    ``count`` cards of ``suit`` among those bins, and is served first (in
    the order given, counting what earlier demands put there).  Then
    the most constrained cards go first, each to an allowed bin with room,
    chosen in proportion to the room left; a dead end starts again.  ``None``
    if no filling is found.
    """
    nb = len(bins)
    options: list[list[int]] = []
    for c in cards:
        bit = 1 << c
        options.append([b for b in range(nb) if bins[b][1] & bit and bins[b][0] > 0])
    for _ in range(tries):
        room = [b[0] for b in bins]
        left = [list(g) for g in caps]
        out = [0] * nb
        used = 0
        ok = True
        for where, suit, count in musts:
            # Cards placed for an earlier, narrower demand count here too.
            have = sum((out[b] & SUIT_MASKS[suit]).bit_count() for b in where)
            for _ in range(count - have):
                cand = [(b, c) for b in where if room[b] > 0
                        and (bins[b][2] < 0 or left[bins[b][2]][suit] > 0)
                        for c in cards if c // 13 == suit and not used >> c & 1 and bins[b][1] >> c & 1]
                if not cand:
                    ok = False
                    break
                b, c = rng.choice(cand)
                room[b] -= 1
                if bins[b][2] >= 0:
                    left[bins[b][2]][suit] -= 1
                out[b] |= 1 << c
                used |= 1 << c
            if not ok:
                break
        if not ok:
            continue
        keys = [(len(options[i]), rng.random(), i) for i in range(len(cards)) if not used >> cards[i] & 1]
        keys.sort()
        for _, _, i in keys:
            c = cards[i]
            suit = c // 13
            total = 0
            eligible = []
            for b in options[i]:
                g = bins[b][2]
                if room[b] > 0 and (g < 0 or left[g][suit] > 0):
                    eligible.append(b)
                    total += room[b]
            if total == 0:
                ok = False
                break
            r = rng.random() * total
            chosen = eligible[-1]
            for b in eligible:
                r -= room[b]
                if r < 0:
                    chosen = b
                    break
            room[chosen] -= 1
            g = bins[chosen][2]
            if g >= 0:
                left[g][suit] -= 1
            out[chosen] |= 1 << c
        if ok:
            return out
    return None


class SampleFailed(Exception):
    """A proposed world broke a constraint; the sampler tries again."""


class WorldSampler:
    """Samples full deals consistent with everything a seat's view shows.

    >>> sampler = WorldSampler(view.deal)            # doctest: +SKIP
    >>> world = sampler.sample(random.Random(1))     # a Deal, or None  # doctest: +SKIP

    A world is built on the engine's fast path (no event log) at the view's
    point of play, with the viewer to act when it is his turn; ``attempts``
    and ``accepted`` count the proposals made and kept.
    """

    def __init__(self, view: DealView, *, strict: bool | None = None, believe: int = 0,
                 records: tuple[int, ...] = (), model: BeliefModel | None = None) -> None:
        """Read ``view`` (a seat's :class:`DealView`, not a spectator's).

        ``strict`` compares every event of each world with the view (the
        default in kopilka); otherwise (the default in classic and mistigri)
        worlds are proven on the engine's checked fast path, which is quicker.
        ``believe`` weighs worlds by how well they explain the other seats'
        declarations (1), and their plays too (2), as the rules of thumb
        would make them (see :meth:`_belief`; classic and mistigri);
        ``records`` are the partie's records, which shape those declarations;
        ``model`` holds the likelihood factors (:data:`BELIEF`, fitted by
        ``bench/bots_inference.py``).
        """
        self.model = model or BELIEF
        self.last_belief_args: tuple[list[int], int, list[int], list[int]] | None = None
        """The hands behind the last proposal (dealt, the take's discard, at play, discards), for measurement."""
        if view.seat is None:
            raise MushkaError("spectator_world")
        self.believe = bool(believe) and view.rules.has_trumps
        self.believe_plays = self.believe and believe >= 2
        self.records = records
        self.view = view
        self.strict = strict if strict is not None else not view.rules.has_trumps
        self.rules = view.rules
        self.me = view.seat
        self.attempts = 0
        self.accepted = 0
        self._events = list(view.events)
        self.trump: TrumpFacts | None = None
        self.kopilka: KopilkaFacts | None = None
        if self.rules.has_trumps:
            self.trump = trump_facts(view)
        else:
            self.kopilka = kopilka_facts(view)

    # --- public ---------------------------------------------------------------

    def sample(self, rng: random.Random, tries: int = 200) -> Deal | None:
        """One world, or ``None`` if ``tries`` proposals all failed."""
        believe = self.believe
        for attempt in range(tries):
            self.attempts += 1
            # A belief about the players is a preference, never a reason to find nothing.
            self.believe = believe and attempt < tries // 2
            try:
                proposal = self._propose(rng)
            except SampleFailed:
                continue
            world = self._verify(*proposal)
            if world is not None:
                self.accepted += 1
                self.believe = believe
                return world
        self.believe = believe
        return None

    def samples(self, rng: random.Random, count: int, tries: int = 200) -> list[Deal]:
        """Up to ``count`` worlds (fewer if proposals keep failing)."""
        out = []
        for _ in range(count):
            w = self.sample(rng, tries)
            if w is None:
                break
            out.append(w)
        return out

    def propose(self, rng: random.Random) -> tuple[list[int], list[int], list[Action]] | None:
        """An unverified proposal (deck, picks, actions), for tests of step 1-2."""
        try:
            return self._propose(rng)
        except SampleFailed:
            return None

    # --- shared -----------------------------------------------------------------

    def _propose(self, rng: random.Random) -> tuple[list[int], list[int], list[Action]]:
        if self.trump is not None:
            return self._propose_trump(self.trump, rng)
        assert self.kopilka is not None
        return self._propose_kopilka(self.kopilka, rng)

    def _verify(self, deck: list[int], picks: list[int], actions: list[Action]) -> Deal | None:
        """Replay the proposal through the engine; keep it if the viewer would have seen the same.

        Strictly: every event the viewer would have seen must equal the one
        he saw.  Otherwise (classic and mistigri) each action is checked by
        the engine on the fast path, which proves every void, pass and
        exchange; what legality cannot show, a special hand that would
        have been shown (C22, MI9, MI13), the proposal has ruled out itself.
        """
        k = self.kopilka
        try:
            if k is not None:
                # K24: the deal starts from the pot and balances it had before its payments.
                deal = new_deal(self.rules, self.view.dealer, deck=deck, picks=picks, record_events=self.strict,
                                pot=k.initial_pot, balances=list(k.initial_balances))
            else:
                deal = new_deal(self.rules, self.view.dealer, deck=deck, picks=picks, record_events=self.strict)
            if self.strict:
                for a in actions:
                    deal.apply(a)
            else:
                for a in actions:
                    deal.check(a)
                    deal.apply_unchecked(a)
        except MushkaError:
            return None
        if self.strict:
            if deal.events(self.me) != self._events:
                return None
        elif deal.phase != self.view.phase or deal.to_act != (-1 if self.view.to_act is None else self.view.to_act):
            return None
        return deal

    def _deal_deck(self, h0: list[int], talon: list[int], turnup: int, rng: random.Random) -> list[int]:
        """N4: the stacked deck giving these hands, turned card and talon (top first)."""
        n = self.rules.players
        eldest = (self.view.dealer + 1) % n
        lists = []
        for s in range(n):
            cards = bit_list(h0[s])
            if len(cards) != 5:
                raise SampleFailed
            rng.shuffle(cards)
            lists.append(cards)
        deck = [lists[(eldest + i) % n][i // n] for i in range(5 * n)]
        if turnup >= 0:
            deck.append(turnup)
        deck.extend(talon)
        return deck

    # --- classic and mistigri ----------------------------------------------------

    def _propose_trump(self, f: TrumpFacts, rng: random.Random) -> tuple[list[int], list[int], list[Action]]:
        view = self.view
        rules = self.rules
        n = f.n
        me = f.me
        priv_bit = 1 << f.priv
        turn_bit = 1 << f.turnup
        seen = f.seen
        took_hidden = (f.took and f.dealer != me and not f.played_all & turn_bit
                       and view.open_hands[f.dealer] is None)
        if took_hidden:
            # C6: the dealer took the turned card; it is in his hand or his discards.
            seen &= ~turn_bit
        pool = rules.deck_bits & ~seen
        bins: list[tuple[int, int, int]] = []
        hand_bin = [-1] * n
        dead_bin = [-1] * n
        for j in range(n):
            if j == me:
                continue
            not_turnup = 0 if (took_hidden and j == f.dealer) else turn_bit
            if view.open_hands[j] is None:
                allowed = pool & ~suits_mask(f.lacks[j]) & ~not_turnup
                if f.decl[j] == "pass" and rules.privileged_must_play:
                    allowed &= ~priv_bit  # MI8: the holder of the privileged card may not pass
                hand_bin[j] = len(bins)
                bins.append((view.hand_sizes[j], allowed, -1))
            known_dead = self._known_dead(f, j)
            hidden_dead = view.discard_counts[j] - known_dead.bit_count()
            if hidden_dead:
                allowed = pool & ~not_turnup
                if not rules.can_discard_privileged:
                    allowed &= ~priv_bit  # MI5
                dead_bin[j] = len(bins)
                bins.append((hidden_dead, allowed, -1))
        talon_bin = len(bins)
        bins.append((view.talon_size, pool & ~turn_bit, -1))
        filled = assign(bit_list(pool), bins, rng)
        if filled is None:
            raise SampleFailed
        h0 = [0] * n
        hand_after = [0] * n
        drawn = [0] * n
        dead_ex = [0] * n
        take_d = -1
        for j in range(n):
            if j == me:
                h0[j] = f.h0[me]
                drawn[j] = max(f.exch_drawn[me], 0)
                dead_ex[j] = max(f.exch_discards[me], 0)
                if f.took and f.dealer == me:
                    take_d = f.take_discard
                continue
            open_now = view.open_hands[j]
            if open_now is None:
                now = filled[hand_bin[j]]
            else:
                now = 0
                for c in open_now:
                    now |= 1 << c.index
            dead = self._known_dead(f, j) | (filled[dead_bin[j]] if dead_bin[j] >= 0 else 0)
            took = f.took and j == f.dealer
            d = -1
            if took:
                d = f.take_discard
                if d < 0:
                    options = dead & ~turn_bit
                    if not options:
                        raise SampleFailed
                    d = rng.choice(bit_list(options))
                dead &= ~(1 << d)
                take_d = d
            if f.decl[j] == "stand":
                h1 = now | f.played[j]
                if f.exch_discards[j] >= 0:
                    disc, got = f.exch_discards[j], f.exch_drawn[j]
                else:
                    disc = dead
                    k = f.exch[j]
                    candidates = h1 & ~(turn_bit if took else 0)
                    if candidates.bit_count() < k:
                        raise SampleFailed
                    got = pick_bits(candidates, k, rng)
                before = (h1 & ~got) | disc
                hand_after[j] = h1
            else:
                before = now
            if took:
                if not before & turn_bit:
                    raise SampleFailed
                before = (before & ~turn_bit) | 1 << d
            if f.h0[j] >= 0 and f.h0[j] != before:
                raise SampleFailed
            h0[j] = before
            drawn[j] = got if f.decl[j] == "stand" else 0
            dead_ex[j] = disc if f.decl[j] == "stand" else 0
        for j in range(n):
            if j == me or (f.h0[j] >= 0 and f.h1[j] < 0 and view.open_hands[j] is not None):
                continue
            # C22/MI9/MI13: a special hand would have been shown.
            if f.h0[j] < 0 and is_special(rules, h0[j]):
                raise SampleFailed
            changed = drawn[j] or (f.took and j == f.dealer)
            if changed and f.h1[j] < 0 and f.decl[j] == "stand" and is_special(rules, hand_after[j]):
                raise SampleFailed
        talon: list[int] = []
        for j in f.draw_order:
            cards = bit_list(drawn[j])
            rng.shuffle(cards)
            talon.extend(cards)
        rest = bit_list(filled[talon_bin])
        rng.shuffle(rest)
        talon.extend(rest)
        play_start = [0] * n
        if self.believe_plays:
            for j in range(n):
                now_j = filled[hand_bin[j]] if hand_bin[j] >= 0 else 0
                if j == me:
                    now_j = _mask(view.hand)
                elif view.open_hands[j] is not None:
                    now_j = _mask(view.open_hands[j])
                play_start[j] = now_j | f.played[j]
        dead_of = [dead_ex[j] | (1 << take_d if f.took and j == f.dealer and take_d >= 0 else 0) for j in range(n)]
        if not self.believe_plays:
            for j in range(n):
                now_j = _mask(view.hand) if j == me else (
                    _mask(view.open_hands[j]) if view.open_hands[j] is not None
                    else filled[hand_bin[j]] if hand_bin[j] >= 0 else 0)
                play_start[j] = now_j | f.played[j]
        self.last_belief_args = (h0[:], take_d, play_start[:], dead_of[:])
        if self.believe and rng.random() >= self._belief(f, h0, take_d, play_start, dead_of):
            raise SampleFailed
        deck = self._deal_deck(h0, talon, f.turnup, rng)
        actions: list[Action] = []
        for st in f.steps:
            if st.kind == "play":
                actions.append(PLAYS[st.card])
            elif st.kind == "pass":
                actions.append(PASS)
            elif st.kind == "stand":
                actions.append(stand_mask(dead_ex[st.seat]))
            else:  # take
                actions.append(TAKES[take_d])
        return deck, [], actions

    def belief_weight(self, h0: list[int], take_d: int, start: list[int], dead: list[int],
                      plays: bool = True) -> float:
        """The likelihood weight of a world given by its hands (dealt, at play) and discards (classic, mistigri).

        For measurement: the weight :meth:`sample` gives a world when
        ``believe`` is on, here for any world, the true one included.
        """
        assert self.trump is not None
        keep = self.believe_plays
        self.believe_plays = plays
        try:
            return self._belief(self.trump, h0, take_d, start, dead)
        finally:
            self.believe_plays = keep

    def _belief(self, f: TrumpFacts, h0: list[int], take_d: int, start: list[int], dead: list[int]) -> float:
        """How well the hidden hands explain the others' declarations (C6-C8).

        Each other seat is taken to declare roughly as the rules of thumb
        would with its hand (:func:`mushka.bots.policy.trump_declare`): a
        world in which it would have done the same is kept, one in which it
        would not is kept less often.  This is a belief about the players,
        not a rule: it never rules a world out entirely.  With ``believe``
        at 2 the cards they played are weighed the same way against
        :func:`mushka.bots.policy.trump_play`, from ``start``, the hands
        when play began.
        """
        from mushka.bots.policy import stakes_for, tables, trump_declare

        m = self.model
        rules = self.rules
        t = tables(rules)
        n = f.n
        weight = 1.0
        standing = 0
        stood_before_dealer = 0
        took = False
        talon = rules.deck_size - 5 * n - 1
        hands = h0[:]
        turn_bit = 1 << f.turnup
        plays = []
        for st in f.steps:
            if st.kind == "play":
                plays.append(st)
                continue
            j = st.seat
            hand = hands[j]
            if j != f.me and self.view.open_hands[j] is None:
                after = (f.dealer - j) % n
                can_pass = not (took and j == f.dealer) and not (rules.privileged_must_play and hand & t.priv_bit)
                if (j == f.dealer and rules.lone_player == "dealer_must_play" and stood_before_dealer == 1):
                    can_pass = False
                can_take = rules.dealer_takes_turnup and j == f.dealer and not took
                kind, cards = trump_declare(t, hand, j, f.dealer, f.trump, f.turnup, took, standing, after, talon,
                                            rules.deck_bits & ~hand & ~turn_bit, can_pass, can_take,
                                            stakes_for(rules, j, self.records))
                if st.kind != kind:
                    weight *= m.other_kind
                elif kind == "stand":
                    diff = abs(cards.bit_count() - f.exch[j])
                    weight *= 1.0 if diff == 0 else m.count_off_one if diff == 1 else m.count_off_more
                weight = max(weight, m.floor)
            if st.kind == "take":
                took = True
                hands[j] = (hand & ~(1 << take_d)) | turn_bit
            elif st.kind == "stand":
                standing += 1
                if j != f.dealer:
                    stood_before_dealer += 1
                talon -= max(f.exch[j], 0)
        if self.believe_plays and plays:
            weight *= self._play_belief(f, t, plays, start, dead, standing)
        return max(weight, m.floor)

    def _play_belief(self, f: TrumpFacts, t: object, plays: list[Step], start: list[int], dead: list[int],
                     standing: int) -> float:
        """C13-C15: how often the others played the card the rules of thumb would have."""
        from mushka.bots.policy import Tables
        from mushka.bots.policy import trump_play as play_fn

        assert isinstance(t, Tables)
        rules = self.rules
        hands = start[:]
        played = 0
        won = [0] * f.n
        trick: list[int] = []
        seats: list[int] = []
        weight = 1.0
        keys = t.keys[f.trump]
        turn_bit = 1 << f.turnup
        for st in plays:
            j = st.seat
            if j != f.me and self.view.open_hands[j] is None:
                hand = hands[j]
                unknown = rules.deck_bits & ~hand & ~played & ~turn_bit & ~dead[j]
                legal = _legal_trump(rules, t, f.trump, hand, trick)
                guess = play_fn(t, f.trump, hand, legal, trick, unknown, standing - len(trick) - 1, won[j] == 0)
                if guess != st.card:
                    weight *= self.model.other_play
            hands[j] &= ~(1 << st.card)
            played |= 1 << st.card
            trick.append(st.card)
            seats.append(j)
            if len(trick) == standing:
                k = keys[trick[0] // 13]
                best = max(range(len(trick)), key=lambda i: k[trick[i]])
                won[seats[best]] += 1
                trick = []
                seats = []
        return weight

    def _known_dead(self, f: TrumpFacts, j: int) -> int:
        out = max(f.exch_discards[j], 0)
        if f.took and j == f.dealer and f.take_discard >= 0:
            out |= 1 << f.take_discard
        return out

    # --- kopilka ---------------------------------------------------------------------

    def _propose_kopilka(self, f: KopilkaFacts, rng: random.Random) -> tuple[list[int], list[int], list[Action]]:
        view = self.view
        rules = self.rules
        n = f.n
        me = f.me
        pool = rules.deck_bits & ~f.seen
        # K7: a card taken from the viewer's group is with one of its takers.
        suits = self._block_suits(f, rng)
        forced, taken_from_me = self._owner_links(f, suits, rng)
        # Play phase: which played cards came from the hand at the start and
        # which from kept draws (K11), and the bans of the hidden cards left.
        slots_of: list[list[_Slot]] = [[] for _ in range(n)]
        has: list[tuple[int, list[_Slot], int]] = []
        for j in range(n):
            if j != me:
                slots_of[j] = self._play_slots(f, j, rng, has, taken_from_me)
        bins: list[tuple[int, int, int]] = []
        bin_slots: list[list[_Slot]] = []
        bin_seat: list[int] = []
        seat_bins: list[list[int]] = [[] for _ in range(n)]
        caps: list[list[int]] = []
        cap_group = self._suit_caps(f, slots_of, caps)
        for j in range(n):
            if j == me:
                continue
            groups: dict[tuple[bool, int], list[_Slot]] = {}
            for sl in slots_of[j]:
                if sl.alive and sl.card < 0:
                    groups.setdefault((sl.draw < 0, sl.ban), []).append(sl)
            for (base, ban), members in groups.items():
                allowed = pool & ~ban
                if not base:
                    allowed &= ~taken_from_me  # those never were in the talon
                else:
                    seat_bins[j].append(len(bins))
                bins.append((len(members), allowed, cap_group[j] if base else -1))
                bin_slots.append(members)
                bin_seat.append(j)
        dead_bin = [-1] * n
        for j in range(n):
            if j != me and f.discard_counts[j]:
                dead_bin[j] = len(bins)
                seat_bins[j].append(len(bins))
                bins.append((f.discard_counts[j], pool, -1))
                bin_slots.append([])
                bin_seat.append(j)
        talon_bin = len(bins)
        bins.append((view.talon_size, pool & ~taken_from_me, -1))
        bin_slots.append([])
        bin_seat.append(-1)
        if forced:
            for b in range(len(bins)):
                cap, allowed, group = bins[b]
                for c, seat in forced.items():
                    if bin_seat[b] != seat or (not bin_slots[b] and b != dead_bin[seat]) or (
                            bin_slots[b] and bin_slots[b][0].draw >= 0):
                        allowed &= ~(1 << c)
                bins[b] = (cap, allowed, group)
        musts: list[tuple[list[int], int, int]] = []
        # K12: a remiz paid for passing shows a card of the led suit then.
        for suit, members, _ in has:
            where = [b for b in range(len(bins)) if any(sl in members for sl in bin_slots[b])]
            musts.append((where, suit, 1))
        # K7: every other taker got a card of the group's suit, the owner kept the rest.
        for (j, suit), count in self._group_musts(f, slots_of, suits).items():
            if count > 0:
                musts.append((seat_bins[j], suit, count))
        musts.sort(key=lambda m: len(m[0]))
        filled = assign(bit_list(pool), bins, rng, caps=caps, musts=musts)
        if filled is None:
            raise SampleFailed
        for b in range(len(bins)):
            members = bin_slots[b]
            if members:
                cards = bit_list(filled[b])
                rng.shuffle(cards)
                for sl, c in zip(members, cards, strict=True):
                    sl.card = c
        # Hands when play began, and the cards drawn during play.
        hands = [0] * n
        draw_cards = [c for _, c, _ in f.draws]
        for j in range(n):
            if j == me:
                hands[j] = f.start_me if f.play_started else self._hand_now()
                continue
            for sl in slots_of[j]:
                if sl.draw < 0:
                    hands[j] |= 1 << sl.card
                else:
                    draw_cards[sl.draw] = sl.card
        if any(c < 0 for c in draw_cards):
            raise SampleFailed
        dead_left = [filled[dead_bin[j]] if dead_bin[j] >= 0 else 0 for j in range(n)]
        discarded: dict[tuple[int, int], int] = {}
        for j in f.checked_after:
            if max_suit_count(hands[j]) >= 3:
                raise SampleFailed
        picks_rev: list[list[int]] = []
        draws_rev: list[list[int]] = []
        for bi in range(len(f.blocks) - 1, -1, -1):
            picks, drawn = self._undo_block(f, bi, suits[bi], hands, dead_left, discarded, rng)
            picks_rev.append(picks)
            draws_rev.append(drawn)
            for j in f.blocks[bi].checked_before:
                if max_suit_count(hands[j]) >= 3:
                    raise SampleFailed
        if hands[me] != f.h0_me:
            raise SampleFailed
        talon: list[int] = []
        for drawn in reversed(draws_rev):
            talon.extend(drawn)
        talon.extend(draw_cards)
        rest = bit_list(filled[talon_bin])
        rng.shuffle(rest)
        talon.extend(rest)
        deck = self._deal_deck(hands, talon, -1, rng)
        picks_all: list[int] = []
        for p in reversed(picks_rev):
            picks_all.extend(p)
        actions: list[Action] = []
        for st in f.steps:
            if st.kind == "play":
                actions.append(PLAYS[st.card])
            elif st.kind == "pass":
                actions.append(PASS)
            elif st.kind == "draw":
                actions.append(DRAW)
            else:  # discard
                card = st.card if st.seat == me else discarded[st.seat, st.ref]
                actions.append(DISCARDS[card])
        return deck, picks_all, actions

    def _hand_now(self) -> int:
        out = 0
        for c in self.view.hand:
            out |= 1 << c.index
        return out

    def _play_slots(self, f: KopilkaFacts, j: int, rng: random.Random,
                    musts: list[tuple[int, list[_Slot], int]], from_me: int) -> list[_Slot]:
        """The cards seat ``j`` has held since play began, as slots (K11)."""
        obs = [o for o in f.observations if o.seat == j]
        slots = [_Slot(-1, -1, -1) for _ in range(f.start_sizes[j])]
        # The kept draws of this seat, in order (its played draws are public cards).
        kept = [i for i, (seat, c, _) in enumerate(f.draws) if seat == j and c < 0]
        kept_no = 0
        consumed: dict[int, _Slot] = {}
        for t, what, c, led in f.timeline[j]:
            if what == "keep":
                slots.append(_Slot(t, led, kept[kept_no]))
                kept_no += 1
            elif what == "play":
                known = [sl for sl in slots if sl.alive and sl.card == c]
                if known:
                    sl = known[0]
                else:
                    options = [sl for sl in slots if sl.alive and sl.card < 0 and _fits(sl, c, t, obs)
                               and not (sl.draw >= 0 and from_me >> c & 1)]
                    if not options:
                        raise SampleFailed
                    sl = rng.choice(options)
                    sl.card = c
                sl.alive = False
                consumed[c] = sl
            else:  # back: K15, the card returns to the hand it came from
                sl = consumed[c]
                sl.alive = True
        for sl in slots:
            if sl.alive and sl.card < 0:
                ban = 0
                if sl.led >= 0:
                    ban |= SUIT_MASKS[sl.led]
                for o in obs:
                    if o.time > sl.acq:
                        if o.kind == "lacks":
                            ban |= SUIT_MASKS[o.suit]
                        elif o.kind == "only":
                            ban |= ~SUIT_MASKS[o.suit] & ((1 << 52) - 1)
                sl.ban = ban
        for o in obs:
            if o.kind != "has":
                continue
            held = [sl for sl in slots if sl.acq < o.time]
            if any(sl.card >= 0 and sl.card // 13 == o.suit and _held_at(sl, o.time, f.timeline[j])
                   for sl in held):
                continue
            members = [sl for sl in held if sl.alive and sl.card < 0]
            musts.append((o.suit, members, j))
        return slots

    def _owner_links(self, f: KopilkaFacts, suits: list[int],
                     rng: random.Random) -> tuple[dict[int, int], int]:
        """K7: each card taken from the viewer's group went to a different taker.

        Returns the taker chosen for each such card not played yet, and the
        mask of all cards taken from the viewer.
        """
        forced: dict[int, int] = {}
        taken_all = 0
        played_by: dict[int, int] = {}
        for j in range(f.n):
            for _, what, c, _ in f.timeline[j]:
                if what == "play":
                    played_by[c] = j
        for bi, b in enumerate(f.blocks):
            if b.owner != f.me or b.taken < 0:
                continue
            taken_all |= b.taken
            # A taker who later lays down a group of this suit may pass the card on.
            suit = bit_list(b.taken)[0] // 13
            later_owners = {bb.owner for bb, s in zip(f.blocks[bi + 1:], suits[bi + 1:], strict=True)
                            if s in (suit, -1)}
            free_takers = list(b.takers)
            loose = []
            for c in bit_list(b.taken):
                if c in played_by and played_by[c] in free_takers and played_by[c] not in later_owners:
                    free_takers.remove(played_by[c])
                elif c not in played_by:
                    loose.append(c)
            rng.shuffle(free_takers)
            for c, seat in zip(loose, free_takers, strict=False):
                if seat not in later_owners:
                    forced[c] = seat
        return forced, taken_all

    def _block_suits(self, f: KopilkaFacts, rng: random.Random) -> list[int]:
        """The suit of each group (K7): known to its owner and takers, else a guess."""
        pool = self.rules.deck_bits & ~f.seen
        out = []
        for b in f.blocks:
            if b.owner == f.me:
                out.append(bit_list(b.taken)[0] // 13 if b.taken > 0 else -1)
            elif b.my_pick >= 0:
                out.append(b.my_pick // 13)
            else:
                seats = [b.owner, *b.takers]
                feasible = []
                for s in range(4):
                    sm = SUIT_MASKS[s]
                    could = (pool & sm).bit_count()
                    for t in seats:
                        could += (f.played_by_seat[t] & sm).bit_count()
                    if could >= b.count:
                        feasible.append(s)
                if not feasible:
                    raise SampleFailed
                out.append(rng.choice(feasible))
        return out

    def _suit_caps(self, f: KopilkaFacts, slots_of: list[list[_Slot]], caps: list[list[int]]) -> list[int]:
        """K7: a seat checked without a group held at most two cards of a suit then.

        Each later group it took a card from may have added one; the caps
        apply to the cards it held when play began.
        """
        group = [-1] * f.n
        later: list[tuple[int, int]] = []
        for bi, b in enumerate(f.blocks):
            for j in b.checked_before:
                later.append((j, bi))
        for j in f.checked_after:
            later.append((j, len(f.blocks)))
        for j, bi in later:
            if j == f.me:
                continue
            extra = sum(1 for b in f.blocks[bi:] if j in b.takers)
            cap = [2 + extra] * 4
            for sl in slots_of[j]:
                if sl.draw < 0 and sl.card >= 0:
                    cap[sl.card // 13] -= 1
            if min(cap) < 0:
                raise SampleFailed
            group[j] = len(caps)
            caps.append(cap)
        return group

    def _group_musts(self, f: KopilkaFacts, slots_of: list[list[_Slot]],
                     suits: list[int]) -> dict[tuple[int, int], int]:
        """K7: the cards of each group's suit its takers and its owner must still account for."""
        need: dict[tuple[int, int], int] = {}
        for bi, (b, suit) in enumerate(zip(f.blocks, suits, strict=True)):
            if b.owner == f.me or suit < 0:
                continue
            later_owners = {bb.owner for bb in f.blocks[bi + 1:]}
            for t in b.takers:
                if t != f.me and t not in later_owners:
                    need[t, suit] = need.get((t, suit), 0) + 1
            need[b.owner, suit] = need.get((b.owner, suit), 0) + b.returned
        for (j, suit) in list(need):
            for sl in slots_of[j]:
                if sl.draw < 0 and sl.card >= 0 and sl.card // 13 == suit:
                    need[j, suit] -= 1
        return need

    def _cap_at(self, f: KopilkaFacts, t: int, bi: int) -> int:
        """K7: the most cards of a suit seat ``t`` may hold just before group ``bi``, or -1 if free.

        A seat checked without a group held at most two of a suit; each
        group between its check and this one may have given it one more.
        """
        for cb, bb in enumerate(f.blocks):
            if t in bb.checked_before:
                if cb > bi:
                    return -1
                return 2 + sum(1 for x in f.blocks[cb:bi] if t in x.takers)
        return -1

    def _undo_block(self, f: KopilkaFacts, bi: int, suit: int, hands: list[int], dead_left: list[int],
                    discarded: dict[tuple[int, int], int], rng: random.Random) -> tuple[list[int], list[int]]:
        """Undo one redistribution (K7/K8) on ``hands``; return its picks and the owner's draws.

        For each taker the card he discarded here (one of his dead cards not
        given to a later discard) and the card he took (one of the viewer's,
        or one of the group's suit) are chosen together, so that a seat
        checked without a group stays within what the caps allow then.
        """
        me = f.me
        b = f.blocks[bi]
        disc_of = {seat: (card, ref) for seat, card, ref in b.discards}
        taken = b.taken if b.owner == me else -1
        choice: dict[int, tuple[int, int]] = {}
        for t in b.takers:
            if t == me:
                y = disc_of[t][0] if t in disc_of else -1
                choice[t] = (y, b.my_pick)
                continue
            ys = bit_list(dead_left[t]) if t in disc_of else [-1]
            bound = self._cap_at(f, t, bi)
            pairs = []
            for y in ys:
                hand = hands[t] | (1 << y if y >= 0 else 0)
                pool = hand & taken if taken >= 0 else hand & SUIT_MASKS[suit]
                for z in bit_list(pool):
                    if bound < 0 or max_suit_count(hand & ~(1 << z)) <= bound:
                        pairs.append((y, z))
            if not pairs:
                raise SampleFailed
            y, z = rng.choice(pairs)
            if taken >= 0:
                taken &= ~(1 << z)
            choice[t] = (y, z)
        for t, (y, _) in choice.items():
            if y >= 0:
                hands[t] |= 1 << y
                if t != me:
                    dead_left[t] &= ~(1 << y)
                    discarded[t, disc_of[t][1]] = y
        o = b.owner
        takers = b.takers
        if o == me:
            drawn = b.drawn
        else:
            sm = SUIT_MASKS[suit]
            extra = (hands[o] & sm).bit_count() - b.returned
            if extra < 0 or extra > b.drawn_count or (hands[o] & ~sm).bit_count() < b.drawn_count - extra:
                raise SampleFailed
            drawn = pick_bits(hands[o] & sm, extra, rng) | pick_bits(hands[o] & ~sm, b.drawn_count - extra, rng)
        hands[o] &= ~drawn
        picks = []
        for t in takers:
            z = choice[t][1]
            if not hands[t] >> z & 1:
                raise SampleFailed
            hands[t] &= ~(1 << z)
            hands[o] |= 1 << z
            picks.append(z)
        if suit >= 0 and (hands[o] & SUIT_MASKS[suit]).bit_count() != b.count:
            raise SampleFailed
        drawn_list = bit_list(drawn)
        rng.shuffle(drawn_list)
        return picks, drawn_list


class _Slot:
    """One card a kopilka seat has held since play began (K11)."""

    __slots__ = ("acq", "alive", "ban", "card", "draw", "led")

    def __init__(self, acq: int, led: int, draw: int) -> None:
        self.acq = acq
        """When it came into the hand: -1 at the start of play, else the time of the draw."""
        self.led = led
        """The led suit when it was drawn (it is not of that suit), -1 for a starting card."""
        self.draw = draw
        """Its place among the draws of the play, -1 for a starting card."""
        self.card = -1
        self.alive = True
        self.ban = 0


def _fits(sl: _Slot, card: int, t: int, obs: list[Observation]) -> bool:
    """Whether ``card`` played at time ``t`` can be the card of slot ``sl``."""
    suit = card // 13
    if sl.led == suit:
        return False
    for o in obs:
        if sl.acq < o.time < t:
            if o.kind == "lacks" and o.suit == suit:
                return False
            if o.kind == "only" and o.suit != suit:
                return False
    return True


def _held_at(sl: _Slot, time: int, timeline: list[tuple[int, str, int, int]]) -> bool:
    """Whether the known card of ``sl`` was in the hand at ``time``.

    It was not while it lay on the table: from its play to its take-back
    (K15), or from its last play on.
    """
    out = 0
    for t, what, c, _ in timeline:
        if c != sl.card:
            continue
        if what == "play":
            out = t
        elif what == "back" and out and out < time < t:
            return False
        elif what == "back":
            out = 0
    return not (out and out < time)


add_texts({
    "error.spectator_world": ("worlds are sampled for a seat's view, not for a spectator's",
                              "миры строятся по обзору игрока, а не зрителя"),
})

__all__ = ["SampleFailed", "Step", "WorldSampler", "assign"]
