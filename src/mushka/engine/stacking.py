"""Stacked decks (N4): the deck order that deals given hands.

A deal is fixed by the order of its deck, top first (N4): the cards go out
one at a time from the eldest round the table until everyone has five, then
(classic, mistigri) the next card is turned up, and the rest is the talon,
drawn from its top.  People at a physical table and tests think the other
way round: *these* hands, *this* trump card, *this* talon.
:func:`stack_deck` turns that description into the deck order that
:func:`mushka.engine.new_deal` (``deck=``) deals back exactly, and
:func:`unstack_deck` reads a deck order back into hands, turned card and
talon.

Every mistake (a card named twice, a card not in the table's deck, a hand
that is not five cards, a talon of the wrong length, a turned card in
kopilka, which has none, K5) raises :class:`~mushka.errors.ChanceError`
naming N4 and the problem; nothing is guessed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mushka._pickle import FrozenValue
from mushka.cards import CARDS, Card, parse_card, parse_cards
from mushka.errors import ChanceError, ParseError
from mushka.i18n import add_texts, tr
from mushka.rules.model import Rules

HAND_SIZE = 5
"""Cards dealt to each seat (C5, K5)."""

CardsSpec = Sequence[Card | str] | str
"""Some cards: :class:`Card` values, codes, or one string such as ``"AS KH 7D"``."""


@dataclass(frozen=True, slots=True)
class Stack(FrozenValue):
    """What a stacked deck deals: each seat's hand, the turned card, the talon."""

    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    """``hands[seat]``, in the order the cards were dealt to that seat."""
    turnup: Card | None
    """C5: the turned-up trump card (``None`` in kopilka, K5)."""
    talon: tuple[Card, ...]
    """The talon, top first."""


def stack_deck(
    rules: Rules,
    hands: Sequence[CardsSpec | None],
    turnup: Card | str | None = None,
    talon: CardsSpec = (),
    *,
    dealer: object = 0,
    fill: bool = False,
) -> tuple[Card, ...]:
    """The deck order, top first, that deals ``hands`` for ``dealer`` (N4).

    ``hands[seat]`` lists the five cards seat ``seat`` must receive (its
    first card is dealt first); ``turnup`` is the card turned up as trump
    (required in classic and mistigri, refused in kopilka, K5); ``talon``
    lists the talon from its top.  With ``fill`` the description may be
    partial: a hand given as ``None`` and the bottom of the talon are made of
    the cards nobody named, lowest ranks first but, as long as the spare
    cards allow, never more than two of a suit in a filled hand (so that it
    holds no flush, C22, and no group of three, K6); in a trump variant a
    missing ``turnup`` is the lowest card left, and the talon ends with the
    rest from the lowest rank up.  Without ``fill``
    every card of the deck must be named exactly once.

    Raises :class:`~mushka.errors.ChanceError` (rule N4) for a card named
    twice, a card that is not in this table's deck, a hand that is not five
    cards, a wrong number of hands, or a talon of the wrong length.
    """
    n = rules.players
    deals = _dealer(dealer, n)
    if len(hands) != n:
        raise ChanceError("stack_hand_count", rule="N4", given=len(hands), players=n)
    has_turnup = rules.has_trumps
    if turnup is not None and not has_turnup:
        raise ChanceError("stack_no_turnup", rule="N4")
    named: dict[int, _Where] = {}

    def take(cards: tuple[Card, ...], where: _Where) -> tuple[Card, ...]:
        for card in cards:
            if not rules.deck_bits >> card.index & 1:
                raise ChanceError("stack_foreign", rule="N4", card=card, where=where,
                                  size=rules.deck_size)
            if card.index in named:
                raise ChanceError("stack_twice", rule="N4", card=card, first=named[card.index],
                                  second=where)
            named[card.index] = where
        return cards

    given: list[tuple[Card, ...] | None] = []
    for seat, spec in enumerate(hands):
        if spec is None:
            if not fill:
                raise ChanceError("stack_hand_size", rule="N4", seat=seat, given=0, size=HAND_SIZE)
            given.append(None)
            continue
        cards = take(_cards(spec), _Where("hand", seat))
        if len(cards) != HAND_SIZE:
            raise ChanceError("stack_hand_size", rule="N4", seat=seat, given=len(cards),
                              size=HAND_SIZE)
        given.append(cards)
    up: Card | None = None
    if turnup is not None:
        up = take((turnup if isinstance(turnup, Card) else _one(turnup),), _Where("turnup"))[0]
    top = take(_cards(talon), _Where("talon"))
    talon_size = rules.deck_size - HAND_SIZE * n - (1 if has_turnup else 0)
    if len(top) > talon_size or (not fill and len(top) != talon_size):
        raise ChanceError("stack_talon_size", rule="N4", given=len(top), size=talon_size)
    if has_turnup and up is None and not fill:
        raise ChanceError("stack_turnup_missing", rule="N4")
    spare = sorted((CARDS[i] for i in rules.deck_indices if i not in named),
                   key=lambda c: (c.rank, c.suit))
    full = [cards if cards is not None else _spread(spare) for cards in given]
    if has_turnup and up is None:
        up = spare.pop(0)
    rest = top + tuple(spare)
    eldest = (deals + 1) % n
    deck: list[Card] = [full[(eldest + i) % n][i // n] for i in range(HAND_SIZE * n)]
    if up is not None:
        deck.append(up)
    deck.extend(rest)
    return tuple(deck)


def _dealer(dealer: object, n: int) -> int:
    """``dealer`` if it is a seat of a table of ``n`` (N4: the deal starts left of him), else
    the named error.  An ``object``: compiled, an ``int`` parameter would refuse text with a
    bare TypeError and take a bool for 0 or 1."""
    if type(dealer) is not int or not 0 <= dealer < n:
        raise ChanceError("stack_bad_dealer", rule="N4", seat=repr(dealer)[:20], players=n, last=n - 1)
    return dealer


def unstack_deck(rules: Rules, deck: CardsSpec, dealer: object = 0) -> Stack:
    """Read a deck order (top first) into what it deals for ``dealer`` (N4).

    The inverse of :func:`stack_deck`:
    ``stack_deck(rules, s.hands, s.turnup, s.talon, dealer=s.dealer)`` gives
    ``deck`` back.  Raises :class:`~mushka.errors.ChanceError` if ``deck``
    is not every card of the table's deck exactly once.
    """
    n = rules.players
    deals = _dealer(dealer, n)
    cards = _cards(deck)
    seen = 0
    for card in cards:
        if seen & card.bit:
            raise ChanceError("stack_twice", rule="N4", card=card, first=_Where("deck"),
                              second=_Where("deck"))
        seen |= card.bit
    if seen != rules.deck_bits:
        raise ChanceError("stack_deck_size", rule="N4", given=len(cards), size=rules.deck_size)
    eldest = (deals + 1) % n
    hands: list[list[Card]] = [[] for _ in range(n)]
    for i in range(HAND_SIZE * n):
        hands[(eldest + i) % n].append(cards[i])
    pos = HAND_SIZE * n
    turnup = None
    if rules.has_trumps:
        turnup = cards[pos]
        pos += 1
    return Stack(deals, tuple(tuple(h) for h in hands), turnup, tuple(cards[pos:]))


def _spread(spare: list[Card]) -> tuple[Card, ...]:
    """Five spare cards for a hand nobody named, taken from ``spare``.

    Lowest ranks first, but at most two of a suit while the spare cards
    allow it, so that a filled hand holds no flush (C22, MI9) and no group of
    three (K6) that the caller did not ask for.
    """
    counts = [0, 0, 0, 0]
    hand = []
    for _ in range(HAND_SIZE):
        pick = next((c for c in spare if counts[c.suit] < 2), spare[0])
        spare.remove(pick)
        counts[pick.suit] += 1
        hand.append(pick)
    return tuple(hand)


class _Where:
    """Where a card was named (a hand, the turned card, the talon), in either language."""

    __slots__ = ("place", "seat")

    def __init__(self, place: str, seat: int = -1) -> None:
        self.place = place
        self.seat = seat

    def __str__(self) -> str:
        return self.render("en")

    def render(self, lang: str) -> str:
        """The place in ``lang``."""
        return tr("stack." + self.place, lang, seat=self.seat)


def _cards(spec: CardsSpec) -> tuple[Card, ...]:
    try:
        if isinstance(spec, str):
            return parse_cards(spec)
        return tuple(c if isinstance(c, Card) else _one(c) for c in spec)
    except ParseError as exc:
        raise ChanceError("stack_bad_card", rule="N4", problem=exc.message("en")) from None


def _one(code: str) -> Card:
    if not isinstance(code, str):
        raise ChanceError("stack_bad_card", rule="N4", problem=f"{code!r} is not a card")
    try:
        return parse_card(code)
    except ParseError as exc:
        raise ChanceError("stack_bad_card", rule="N4", problem=exc.message("en")) from None


add_texts({
    "error.stack_bad_dealer": (
        "the dealer must be a seat from 0 to {last}, not {seat}",
        "сдающий должен быть местом от 0 до {last}, а не {seat}",
    ),
    "error.stack_hand_count": (
        "a stacked deal needs one hand per seat: {given} given for {players} players",
        "для подобранной сдачи нужна рука на каждое место: дано {given} на {players} игроков",
    ),
    "error.stack_hand_size": (
        "seat {seat} is given {given} cards; every hand is {size} cards",
        "месту {seat} дано карт: {given}; в каждой руке {size} карт",
    ),
    "error.stack_no_turnup": (
        "мушка-копилка has no turned-up card (K5); give the talon instead",
        "в мушке-копилке карту не открывают (K5); укажите прикуп",
    ),
    "error.stack_turnup_missing": (
        "a trump variant needs the turned-up card (C5)",
        "в игре с козырем нужна открытая карта (C5)",
    ),
    "error.stack_foreign": (
        "{card} ({where}) is not in the {size}-card deck of this table (N3)",
        "{card} ({where}) нет в колоде этого стола из {size} карт (N3)",
    ),
    "error.stack_twice": (
        "{card} is named twice ({first} and {second})",
        "{card} названа дважды ({first} и {second})",
    ),
    "error.stack_talon_size": (
        "the talon must hold {size} cards, {given} given",
        "в прикупе должно быть {size} карт, дано {given}",
    ),
    "error.stack_deck_size": (
        "a deck order must list each of the {size} cards once ({given} given)",
        "порядок колоды должен перечислять каждую из {size} карт один раз (дано {given})",
    ),
    "error.stack_bad_card": ("{problem}", "{problem}"),
    "stack.hand": ("the hand of seat {seat}", "рука места {seat}"),
    "stack.turnup": ("the turned-up card", "открытая карта"),
    "stack.talon": ("the talon", "прикуп"),
    "stack.deck": ("the deck order", "порядок колоды"),
})
