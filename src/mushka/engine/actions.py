"""Actions: what a player can do, as frozen values with a short text form.

==========  =======================  ===============================================
kind        text                     meaning
==========  =======================  ===============================================
PASS        ``pass``                 C7 throw the hand in / K11 pass on a trick
STAND       ``stand`` ``stand 7H 8D``  C7 play the deal, exchanging the named cards
TAKE        ``take 7H``              C6 dealer takes the turned-up card, discards 7H
PLAY        ``KC`` or ``play KC``    C13/K11 put a card on the trick
DRAW        ``draw``                 K11 draw one card from the talon
DISCARD     ``discard 7H``           K7 a taker gives up one card after taking
==========  =======================  ===============================================

Text forms round-trip: ``Action.parse(str(a)) == a``.  Parsing also accepts a
few Russian words (``пас``, ``играю``, ``беру``, ``прикуп``, ``сброс``).

Actions are interned where the set is small (every play, take and discard of
each card), so the fast path of the engine allocates nothing per move; a
stand is made when it is needed (a native object, some 30 ns compiled).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, Final

from mushka.cards import CARDS, Card, cards_of, parse_card
from mushka.errors import ParseError

ActionInput = object
"""What the checked entry points (``apply``, ``check``, ``is_legal``) take: an
:class:`Action` or its text form.  Anything else is refused with a
:class:`~mushka.errors.ParseError` naming a rule (§4).  Annotated as ``object``
because the compiled build enforces annotations: a narrower one would turn
that named refusal into a bare ``TypeError`` (docs/build.md)."""


class Kind(IntEnum):
    """The kind of an action."""

    PASS = 0
    STAND = 1
    TAKE = 2
    PLAY = 3
    DRAW = 4
    DISCARD = 5


class Action:
    """One action: its :class:`Kind` and the mask of the cards it names.

    An immutable value (equal and hashed by ``(kind, mask)``).  A plain class
    with final attributes rather than a frozen dataclass: compiled, a frozen
    dataclass is built by its interpreted ``__init__`` (each field set through
    ``object.__setattr__``, some 600 ns an action) and its fields are read by
    name lookup; this class is native, built in some 30 ns, its fields read
    directly, and assigning to a field raises ``AttributeError``.
    """

    __slots__ = ("kind", "mask")

    kind: Final[Kind]
    mask: Final[int]

    def __init__(self, kind: Kind, mask: int = 0) -> None:
        self.kind = kind
        self.mask = mask

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Action):
            return NotImplemented
        return self.kind is other.kind and self.mask == other.mask

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, Action):
            return NotImplemented
        return self.kind is not other.kind or self.mask != other.mask

    def __hash__(self) -> int:
        # The hash the frozen dataclass had: sets and dicts of actions keep their order.
        return hash((self.kind, self.mask))

    # --- constructors --------------------------------------------------------

    @staticmethod
    def pass_() -> Action:
        """C7/K11: pass."""
        return PASS

    @staticmethod
    def draw() -> Action:
        """K11: draw a card from the talon."""
        return DRAW

    @staticmethod
    def play(card: object) -> Action:
        """Put ``card`` (a card or its code) on the trick."""
        return PLAYS[_card(card).index]

    @staticmethod
    def take(discard: object) -> Action:
        """C6: the dealer takes the turned-up card and discards ``discard`` (a card or its code)."""
        return TAKES[_card(discard).index]

    @staticmethod
    def discard(card: object) -> Action:
        """K7: a taker discards ``card`` (a card or its code)."""
        return DISCARDS[_card(card).index]

    @staticmethod
    def stand(*discards: object) -> Action:
        """C7: stand, exchanging ``discards`` (cards or their codes; none: stand pat)."""
        mask = 0
        for c in discards:
            bit = _card(c).bit
            if mask & bit:
                raise ParseError("duplicate_cards", rule="C7", text=" ".join(str(d) for d in discards))
            mask |= bit
        return stand_mask(mask)

    # --- properties -------------------------------------------------------------

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards named by the action (discards of a stand, the played card…)."""
        return cards_of(self.mask)

    @property
    def card(self) -> Card:
        """The single card of a PLAY, TAKE or DISCARD action."""
        if self.mask == 0 or self.mask & (self.mask - 1):
            raise ValueError(f"{self} names no single card")
        return CARDS[self.mask.bit_length() - 1]

    @property
    def count(self) -> int:
        """How many cards the action names (the exchange size of a stand)."""
        return self.mask.bit_count()

    # --- text -------------------------------------------------------------------

    def __str__(self) -> str:
        kind = self.kind
        if kind is Kind.PLAY:
            return self.card.code
        if kind is Kind.PASS:
            return "pass"
        if kind is Kind.DRAW:
            return "draw"
        if kind is Kind.STAND:
            if not self.mask:
                return "stand"
            return "stand " + " ".join(c.code for c in self.cards)
        if kind is Kind.TAKE:
            return "take " + self.card.code
        return "discard " + self.card.code

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    def display(self, lang: str = "en") -> str:
        """The action for a player to read, in ``lang``.

        English uses the notation of records (``KC``, ``stand 7H 8D``), which
        is what English-speaking players type; Russian reads as a Russian
        player says it (``К♣``, ``пас``, ``играю, сброс 7♥ 8♦``).
        """
        ru = lang == "ru"
        if not ru:
            return str(self)
        kind = self.kind
        cards = " ".join(c.display(lang) for c in self.cards)
        if kind is Kind.PLAY:
            return cards
        if kind is Kind.PASS:
            return "пас"
        if kind is Kind.DRAW:
            return "прикуп"
        if kind is Kind.STAND:
            return f"играю, сброс {cards}" if self.mask else "играю без прикупа"
        if kind is Kind.TAKE:
            return f"беру открытую карту, сброс {cards}"
        return f"сброс {cards}"

    @staticmethod
    def parse(text: object, *, rule: str = "N2") -> Action:
        """Read an action from its text form (see the module table).

        Raises :class:`ParseError` naming the input if it is not an action.
        A bad card code in it names N2; any other text names ``rule``, which a
        deal sets to the rule of the phase that asked for an action (§4: every
        refusal names a rule); read on its own, an action is a verb and N2 card
        codes, a lone word being read as a card code, so the default is N2.
        """
        # ``object``: callers from outside may pass anything (and the compiled build would
        # refuse a narrower annotation with a bare TypeError, docs/build.md).
        if not isinstance(text, str):
            raise ParseError("bad_action_type", rule=rule, value=repr(text)[:40], kind=type(text).__name__)
        words = text.replace(",", " ").split()
        if not words:
            raise ParseError("bad_action", rule=rule, text=text)
        head = _WORDS.get(words[0].lower())
        rest = words[1:]
        try:
            if head is None:
                if len(words) == 1:
                    return PLAYS[parse_card(words[0]).index]
                raise ParseError("bad_action", rule=rule, text=text)
            if head in (Kind.PASS, Kind.DRAW):
                if rest:
                    raise ParseError("bad_action", rule=rule, text=text)
                return PASS if head is Kind.PASS else DRAW
            if head is Kind.STAND:
                return Action.stand(*(parse_card(w) for w in rest))
            if len(rest) != 1:
                raise ParseError("bad_action", rule=rule, text=text)
            card = parse_card(rest[0])
            table = {Kind.PLAY: PLAYS, Kind.TAKE: TAKES, Kind.DISCARD: DISCARDS}[head]
            return table[card.index]
        except ParseError as exc:
            if exc.code == "duplicate_cards":
                raise
            # A bad card code breaks the notation (N2); a bad verb or word count, ``rule``.
            raise ParseError("bad_action", rule=exc.rule or rule, text=text) from None

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return Action, (self.kind, self.mask)


def _card(card: object) -> Card:
    # ``object``: the actions' makers take anything a caller passes, and parse_card names
    # what is not a card (N2); compiled, ``Card | str`` would refuse it with a bare TypeError.
    return card if isinstance(card, Card) else parse_card(card)


_WORDS: Final[dict[str, Kind]] = {
    "pass": Kind.PASS, "p": Kind.PASS, "пас": Kind.PASS,
    "stand": Kind.STAND, "play-deal": Kind.STAND, "exchange": Kind.STAND, "buy": Kind.STAND,
    "играю": Kind.STAND, "вист": Kind.STAND, "прикупаю": Kind.STAND,
    "take": Kind.TAKE, "беру": Kind.TAKE,
    "play": Kind.PLAY, "хожу": Kind.PLAY,
    "draw": Kind.DRAW, "прикуп": Kind.DRAW, "добор": Kind.DRAW,
    "discard": Kind.DISCARD, "сброс": Kind.DISCARD, "сбрасываю": Kind.DISCARD,
}

PASS: Final = Action(Kind.PASS)
"""The interned pass action."""
DRAW: Final = Action(Kind.DRAW)
"""The interned draw action."""
PLAYS: Final = tuple(Action(Kind.PLAY, 1 << i) for i in range(52))
"""``PLAYS[i]`` plays the card of index ``i``."""
TAKES: Final = tuple(Action(Kind.TAKE, 1 << i) for i in range(52))
"""``TAKES[i]`` takes the turned-up card discarding card ``i``."""
DISCARDS: Final = tuple(Action(Kind.DISCARD, 1 << i) for i in range(52))
"""``DISCARDS[i]`` discards card ``i``."""
STAND_PAT: Final = Action(Kind.STAND, 0)
"""Stand without exchanging."""

_STAND: Final = Kind.STAND


def stand_mask(mask: int) -> Action:
    """The stand action exchanging the cards of ``mask``.

    Not interned (but for :data:`STAND_PAT`): the exchanges of a deck are too
    many for a table to stay in the processor's caches, and a native action is
    quicker to make than to look up in a large one."""
    if not mask:
        return STAND_PAT
    return Action(_STAND, mask)


SUIT_PLAYS: Final = tuple(
    tuple(
        tuple(PLAYS[suit * 13 + r] for r in range(13) if pattern >> r & 1)
        for pattern in range(1 << 13)
    )
    for suit in range(4)
)
"""``SUIT_PLAYS[s][p]``: the play actions of the cards of suit ``s`` whose
ranks are the bits of ``p`` (the engine's hot path looks its legal plays up
here instead of building lists)."""


def plays_of(mask: int) -> tuple[Action, ...]:
    """The play actions of the cards of ``mask``, in index order."""
    t = SUIT_PLAYS
    if not mask >> 13:
        return t[0][mask]
    return t[0][mask & 8191] + t[1][mask >> 13 & 8191] + t[2][mask >> 26 & 8191] + t[3][mask >> 39]


def pack_action(action: Action) -> int:
    """An action as one small int (its kind above the 52 card bits), for compact pickles."""
    return int(action.kind) << 52 | action.mask


def unpack_action(value: int) -> Action:
    """The (interned where it can be) action of :func:`pack_action`."""
    kind = Kind(value >> 52)
    mask = value & ((1 << 52) - 1)
    if kind is Kind.PLAY:
        return PLAYS[mask.bit_length() - 1]
    if kind is Kind.PASS:
        return PASS
    if kind is Kind.DRAW:
        return DRAW
    if kind is Kind.TAKE:
        return TAKES[mask.bit_length() - 1]
    if kind is Kind.DISCARD:
        return DISCARDS[mask.bit_length() - 1]
    return stand_mask(mask)
