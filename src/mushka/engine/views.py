"""Per-seat views: what one seat (or a spectator) may know of a deal.

Views, not states, leave the engine (STYLE 7).  A :class:`DealView` holds the
viewer's own hand, the public facts (cards played, the turned-up trump, shown
flush hands, declarations and exchange counts, counts of cards everywhere)
and the viewer's own event log, redacted by :meth:`Event.seen_by`.  It never
holds a card of another seat that the rules keep hidden (§4 of RULES).
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from mushka._pickle import FrozenValue
from mushka.cards import Card, Suit
from mushka.engine.actions import Action
from mushka.engine.events import Event
from mushka.engine.types import DealResult, Phase, TrickRecord
from mushka.rules.model import Rules


@dataclass(frozen=True, slots=True)
class DealView(FrozenValue):
    """A seat's (or a spectator's, ``seat=None``) knowledge of one deal."""

    rules: Rules
    seat: int | None
    dealer: int
    phase: Phase
    to_act: int | None
    hand: tuple[Card, ...]
    """The viewer's own hand (empty for a spectator)."""
    hand_sizes: tuple[int, ...]
    talon_size: int
    discard_counts: tuple[int, ...]
    """Cards each seat has put out of play face down."""
    own_discards: tuple[Card, ...]
    legal: tuple[Action, ...]
    """The viewer's legal actions when it is his turn, else empty."""
    events: tuple[Event, ...]
    """Everything the viewer has seen, in order, redacted for him."""
    trick: tuple[tuple[int, Card], ...]
    """The current trick, (seat, card) in play order."""
    leader: int | None
    tricks_won: tuple[int, ...]
    tricks: tuple[TrickRecord, ...]
    open_hands: tuple[tuple[Card, ...] | None, ...]
    """MI9: hands shown as flushes stay public; ``None`` for hidden hands."""
    result: DealResult | None
    turnup: Card | None = None
    """C5: the turned-up card (still shown after the dealer took it)."""
    trump: Suit | None = None
    turnup_taken: bool = False
    declarations: tuple[str | None, ...] = ()
    """C7: ``"pass"``, ``"stand"`` or ``None`` (not yet) per seat."""
    exchanged: tuple[int, ...] = ()
    """C7: cards exchanged per seat (-1 before the seat declared)."""
    playing: tuple[int, ...] = ()
    """The seats taking part in trick play, in order from the eldest."""
    banned_suit: Suit | None = None
    """K16: the suit the leader may not lead (if he has another)."""
    pot: int = 0
    balances: tuple[int, ...] = ()
    takebacks: int = 0
    """K19: leads taken back in a row."""

    @property
    def privileged(self) -> Card:
        """The privileged card: A♠ (C11, K9) or K♣ (MI3)."""
        return self.rules.privileged

    @property
    def players(self) -> int:
        """Number of seats."""
        return self.rules.players

    @property
    def is_my_turn(self) -> bool:
        """Whether the viewer is to act."""
        return self.seat is not None and self.seat == self.to_act

    def known_cards(self) -> dict[Card, str]:
        """Every card that appears anywhere in this view, with where it shows.

        Used by tests to prove that nothing hidden leaks (§4).
        """
        seen: dict[Card, str] = {}
        for c in self.hand:
            seen[c] = "hand"
        for c in self.own_discards:
            seen[c] = "own discard"
        for _, c in self.trick:
            seen[c] = "trick"
        for t in self.tricks:
            for _, c in t.cards:
                seen[c] = "trick"
        for s, h in enumerate(self.open_hands):
            for c in h or ():
                seen.setdefault(c, f"open hand {s}")
        if self.turnup is not None:
            seen.setdefault(self.turnup, "turnup")
        for e in self.events:
            for c in event_cards(e):
                seen.setdefault(c, f"event {e.name}")
        for a in self.legal:
            for c in a.cards:
                seen.setdefault(c, "legal action")
        return seen

    def to_json(self, lang: str = "en") -> dict[str, object]:
        """A JSON-ready dict for clients (cards as codes)."""
        def codes(cards: tuple[Card, ...] | None) -> list[str] | None:
            return None if cards is None else [c.code for c in cards]

        out: dict[str, object] = {
            "variant": self.rules.variant,
            "players": self.rules.players,
            "seat": self.seat,
            "dealer": self.dealer,
            "phase": self.phase.name.lower(),
            "to_act": self.to_act,
            "hand": codes(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "talon_size": self.talon_size,
            "discard_counts": list(self.discard_counts),
            "own_discards": codes(self.own_discards),
            "legal": [str(a) for a in self.legal],
            "trick": [[s, c.code] for s, c in self.trick],
            "leader": self.leader,
            "tricks_won": list(self.tricks_won),
            "tricks": [
                {"leader": t.leader, "cards": [[s, c.code] for s, c in t.cards],
                 "winner": t.winner, "suit": "SCDH"[t.suit], "privileged": t.privileged,
                 "value": t.value}
                for t in self.tricks
            ],
            "open_hands": [codes(h) for h in self.open_hands],
            "privileged": self.privileged.code,
            "result": None if self.result is None else self.result.to_json(),
        }
        if self.rules.has_trumps:
            out.update(
                turnup=None if self.turnup is None else self.turnup.code,
                trump=None if self.trump is None else self.trump.letter,
                turnup_taken=self.turnup_taken,
                declarations=list(self.declarations),
                exchanged=list(self.exchanged),
                playing=list(self.playing),
            )
        else:
            out.update(
                banned_suit=None if self.banned_suit is None else self.banned_suit.letter,
                pot=self.pot, balances=list(self.balances), takebacks=self.takebacks,
            )
        return out


def event_cards(event: Event) -> list[Card]:
    """All cards an event mentions (after redaction, hidden ones are ``None``)."""
    out: list[Card] = []
    for f in fields(event):
        _collect(getattr(event, f.name), out)
    return out


def _collect(value: object, out: list[Card]) -> None:
    if isinstance(value, Card):
        out.append(value)
    elif isinstance(value, tuple):
        for v in value:
            _collect(v, out)
