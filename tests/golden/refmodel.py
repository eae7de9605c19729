"""A reference model of trick play written from the rules text alone.

It shares nothing with the engine but the card values: the perft test and the
differential property test compare the engine with it move by move.
"""

from __future__ import annotations

from mushka.cards import Card


class TrumpPlay:
    """Trick play of classic and mistigri from the rules text alone."""

    def __init__(self, rules, hands, order, leader, trump):
        self.r = rules
        self.hands = hands  # seat -> frozenset of Card
        self.order = order  # the standing seats in playing order
        self.to_act = leader
        self.trump = trump
        self.trick: tuple[tuple[int, Card], ...] = ()
        self.over = False
        self.priv = Card("KC") if rules.variant == "mistigri" else Card("AS")
        self.log: tuple[tuple[int, int, bool], ...] = ()  # (winner, led suit, won by the privileged card)

    def rank(self, card):  # higher is better (C3, MI2, rank_order)
        return len(self.r.rank_order) - self.r.rank_order.index(card.rank.letter)

    def power(self, card, lead):
        """C12/C15/MI4: (class, rank) of a card in a trick led in ``lead``."""
        if card == self.priv:
            if card.suit == self.trump:
                return (3, 99)  # simply the top trump
            if self.r.privileged_beats_trumps:
                return (4, 0)
            return (1, 99)  # above the led suit, below every trump
        if card.suit == self.trump:
            return (2, self.rank(card))
        if card.suit == lead:
            return (1, self.rank(card))
        return (0, 0)

    def winner(self, trick):
        lead = trick[0][1].suit
        best = trick[0]
        for seat, card in trick[1:]:
            if self.power(card, lead) > self.power(best[1], lead):
                best = (seat, card)
        return best[0]

    def moves(self):
        hand = self.hands[self.to_act]
        if not self.trick:
            return sorted(hand)
        r = self.r
        lead = self.trick[0][1].suit
        follow = {c for c in hand if c.suit == lead}
        trumps = {c for c in hand if c.suit == self.trump}
        legal = set(hand)
        if follow and r.must_follow:
            legal = follow
        elif not follow:
            restricted = False
            trumps_on = [c for _, c in self.trick if c.suit == self.trump]
            if r.must_overtrump and trumps and trumps_on:
                top = max(self.rank(c) if c != self.priv else 99 for c in trumps_on)
                higher = {c for c in trumps if (99 if c == self.priv else self.rank(c)) > top}
                if higher:
                    legal, restricted = higher, True
            if not restricted and trumps and r.must_trump_if_void:
                legal = trumps
        if r.must_head_trick:
            winners = {c for c in legal if self.winner((*self.trick, (self.to_act, c))) == self.to_act}
            if winners:
                legal = winners
        if r.privileged_free_play and self.priv in hand:
            legal = legal | {self.priv}
        return sorted(legal)

    def after(self, card):
        nxt = object.__new__(TrumpPlay)
        nxt.__dict__.update(self.__dict__)
        hands = dict(self.hands)
        hands[self.to_act] = hands[self.to_act] - {card}
        nxt.hands = hands
        trick = (*self.trick, (self.to_act, card))
        if len(trick) < len(self.order):
            nxt.trick = trick
            nxt.to_act = self.order[(self.order.index(self.to_act) + 1) % len(self.order)]
            return nxt
        nxt.trick = ()
        nxt.to_act = self.winner(trick)
        won_by = dict(trick)[nxt.to_act]
        nxt.log = (*self.log, (nxt.to_act, trick[0][1].suit, won_by == self.priv))
        nxt.over = not any(hands[s] for s in self.order)
        return nxt


class KopilkaPlay:
    """Trick play of kopilka from the rules text alone (K9-K19)."""

    ACE = Card("AS")

    def __init__(self, rules, hands, talon, leader):
        self.r = rules
        self.hands = hands
        self.talon = talon  # top first
        self.leader = leader
        self.to_act = leader
        self.trick: tuple[tuple[int, Card], ...] = ()
        self.acted = 0
        self.banned = None
        self.takebacks = 0
        self.over = False
        self.reneges: tuple[int, ...] = ()  # K12: seats that passed holding the led suit
        self.log: tuple[tuple[int, int, bool], ...] = ()  # (winner, led suit, taken by the A♠)
        self.out: int | None = None

    def rank(self, card):
        return len(self.r.rank_order) - self.r.rank_order.index(card.rank.letter)

    def moves(self):
        hand = self.hands[self.to_act]
        if not self.trick:
            # K16: not the suit of the trick just won, unless he has nothing else.
            other = {c for c in hand if c.suit != self.banned}
            return sorted(other or hand)
        lead = self.trick[0][1].suit
        holds = {c for c in hand if c.suit == lead}
        out: list[object] = sorted(holds | ({self.ACE} & hand))  # K9, K11
        if not holds and self.talon:
            out.append("draw")
        if not (holds and self.r.renege == "forbid"):
            out.append("pass")
        return out

    def _copy(self):
        nxt = object.__new__(KopilkaPlay)
        nxt.__dict__.update(self.__dict__)
        nxt.hands = dict(self.hands)
        return nxt

    def after(self, move):
        nxt = self._copy()
        seat = self.to_act
        if not self.trick:
            nxt.hands[seat] = self.hands[seat] - {move}
            nxt.trick = ((seat, move),)
            nxt.leader = seat
            nxt.acted = 0
            nxt.to_act = (seat + 1) % 4
            return nxt
        lead = self.trick[0][1].suit
        if move == "draw":
            card, nxt.talon = self.talon[0], self.talon[1:]
            if card.suit == lead:  # played at once
                nxt.trick = (*self.trick, (seat, card))
            else:
                nxt.hands[seat] = self.hands[seat] | {card}
        elif move == "pass":
            if any(c.suit == lead for c in self.hands[seat]):
                nxt.reneges = (*self.reneges, seat)
        else:
            nxt.hands[seat] = self.hands[seat] - {move}
            nxt.trick = (*self.trick, (seat, move))
        nxt.acted = self.acted + 1
        if nxt.acted < 3:
            nxt.to_act = (seat + 1) % 4
            return nxt
        trick = nxt.trick
        if len(trick) == 1:  # K15
            leader, card = trick[0]
            nxt.hands[leader] = nxt.hands[leader] | {card}
            nxt.trick = ()
            nxt.banned = None
            nxt.takebacks = self.takebacks + 1
            nxt.over = nxt.takebacks == 4  # K19
            nxt.to_act = (leader + 1) % 4
            return nxt
        ace = [s for s, c in trick if c == self.ACE]
        winner = ace[0] if ace else max((s for s, c in trick if c.suit == lead),
                                        key=lambda s: self.rank(dict(trick)[s]))
        nxt.trick = ()
        nxt.banned = lead
        nxt.takebacks = 0
        nxt.log = (*self.log, (winner, lead, bool(ace)))
        empty = [s for s, _ in trick if not nxt.hands[s]]
        nxt.over = bool(empty)  # K18: the first of them in the order the cards were played
        nxt.out = empty[0] if empty else None
        nxt.to_act = winner
        return nxt


def trump_declare_moves(rules, hand, talon, seat, dealer, took, stood_before_dealer, priv):
    """C6-C10, MI5, MI8: the declarations open to ``seat`` (as action texts)."""
    out = set()
    may_pass = not (seat == dealer and took)
    if rules.privileged_must_play and priv in hand:
        may_pass = False
    if seat == dealer and rules.lone_player == "dealer_must_play" and stood_before_dealer == 1:
        may_pass = False
    if may_pass:
        out.add("pass")
    limit = min(rules.max_exchange, talon)
    cards = sorted(hand)
    for mask in range(1 << len(cards)):
        chosen = [c for i, c in enumerate(cards) if mask >> i & 1]
        if len(chosen) > limit or (priv in chosen and not rules.can_discard_privileged):
            continue
        out.add(" ".join(["stand", *(c.code for c in chosen)]))
    if seat == dealer and not took and rules.dealer_takes_turnup:
        out.update(f"take {c.code}" for c in cards if c != priv or rules.can_discard_privileged)
    return out


def trump_record_deltas(rules, order, log, holder):
    """C17, C18, MI6, MI7: each standing seat's record change from the tricks."""
    deltas = {}
    for seat in order:
        tricks = sum(1 for w, _, _ in log if w == seat)
        if tricks == 0:
            priv_remiz = rules.remiz if rules.privileged_remiz is None else rules.privileged_remiz
            deltas[seat] = priv_remiz if seat == holder else rules.remiz
        else:
            deltas[seat] = -tricks * rules.trick_value - (rules.privileged_bonus if seat == holder else 0)
    return deltas


def kopilka_money(rules, pot, reneges, log, out):
    """K12, K21, K22: each seat's money in one game and the pot after it."""
    money = [0, 0, 0, 0]
    for seat in reneges:
        money[seat] -= rules.remiz
        pot += rules.remiz
    for seat in range(4):
        if not any(w == seat for w, _, _ in log):
            money[seat] -= rules.remiz
            pot += rules.remiz
    for winner, suit, ace in log:
        pay = min(rules.suit_values[suit] * (2 if ace else 1), pot)
        money[winner] += pay
        pot -= pay
    payment = rules.ante if rules.game_payment is None else rules.game_payment
    for seat in range(4):
        if seat != out:
            money[seat] -= payment
            pot += payment
    return money, pot


POINTS = {"K": 5, "Q": 4, "J": 2, "A": 1, "T": 10}


def special_hand(rules, hand, seat, eldest, players):
    """C22, MI9-MI13: (effect, kind, score) of a five-card hand, or None.

    Four of a suit and the privileged card (five of its suit included) is the
    privileged four; five of a suit otherwise a flush.  The score orders hands:
    suit (spades < clubs < diamonds < hearts), card points, earlier seat from the eldest.
    """
    if len(hand) != 5:
        return None
    priv = rules.privileged
    suits = {c.suit for c in hand}
    kind = None
    if priv in hand and len({c.suit for c in hand if c != priv}) == 1:
        kind, suit = "privileged_four", next(c.suit for c in hand if c != priv)
    elif len(suits) == 1:
        kind, suit = "flush", next(iter(suits))
    if kind is None:
        return None
    if kind == "privileged_four":
        effect = rules.flush if rules.privileged_four == "as_flush" else rules.privileged_four
    else:
        effect = rules.flush
    if effect == "none":
        return None
    points = sum(POINTS.get(c.rank.letter, int(c.rank.letter) if c.rank.letter.isdigit() else 0) for c in hand)
    return effect, kind, (int(suit), points, -((seat - eldest) % players))


class Redistribution:
    """K6-K8 from the rules text: who declares a group, who takes, who discards."""

    def __init__(self, rules, hands, talon, dealer, picks):
        self.r = rules
        self.hands = {s: set(h) for s, h in hands.items()}
        self.talon = list(talon)  # top first
        self.eldest = (dealer + 1) % 4
        self.picks = list(picks)
        self.checked = 0
        self.pending: list[int] = []
        self.groups: list[tuple[int, int]] = []  # (owner, size)
        self._run()

    def _run(self):
        while not self.pending and self.checked < 4:
            owner = (self.eldest + self.checked) % 4
            self.checked += 1
            for suit in range(4):
                group = {c for c in self.hands[owner] if c.suit == suit}
                if len(group) >= 3:
                    self._share(owner, group)
                    break

    def _share(self, owner, group):
        self.groups.append((owner, len(group)))
        if self.r.redistribution == "old":
            takers = [(owner + 1) % 4, (owner + 2) % 4]  # K8
        else:
            takers = [(owner + k) % 4 for k in (1, 2, 3)]  # K7
        self.hands[owner] -= group
        for taker in takers:
            card = self.picks.pop(0)
            assert card in group, "a pick outside the group"
            group.discard(card)
            self.hands[taker].add(card)
        self.hands[owner] |= group
        for _ in range(min(len(takers), len(self.talon))):
            self.hands[owner].add(self.talon.pop(0))
        self.pending = takers

    @property
    def to_act(self):
        return self.pending[0] if self.pending else None

    def discard(self, card):
        self.hands[self.pending.pop(0)].remove(card)
        self._run()
