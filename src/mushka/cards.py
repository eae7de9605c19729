"""Cards, suits, ranks and their text forms (rules N1-N3).

A card is an interned value: there are exactly 52 :class:`Card` objects and
``Card("KC") is Card("K♣") is Card(37)``.  Internally the engine works with
*card indices* (``suit * 13 + rank``) and *masks* (``1 << index``) so that a
hand is one small ``int``; this module owns the conversions between the two
worlds.

The suit numbering is the flush order of MI10, low to high:
spades (пики) < clubs (трефы) < diamonds (бубны) < hearts (черви).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import Final

from mushka.errors import ParseError


class Suit(IntEnum):
    """A suit; the value is its place in the flush order of MI10 (low to high)."""

    SPADES = 0
    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3

    @property
    def letter(self) -> str:
        """The ASCII letter of N1: ``S``, ``C``, ``D`` or ``H``."""
        return "SCDH"[self]

    @property
    def symbol(self) -> str:
        """The Unicode suit symbol."""
        return "♠♣♦♥"[self]

    @property
    def mask(self) -> int:
        """The mask of all 13 cards of this suit."""
        return SUIT_MASKS[self]

    def name_in(self, lang: str) -> str:
        """The suit's name in ``lang`` (``en`` or ``ru``), plural as on a table."""
        return (_SUIT_NAMES_RU if lang == "ru" else _SUIT_NAMES_EN)[self]

    def genitive(self, lang: str) -> str:
        """The suit's name as it follows «масть» in Russian (``треф``, ``бубён``);
        in English the plain name."""
        return (_SUIT_GENITIVE_RU if lang == "ru" else _SUIT_NAMES_EN)[self]

    @property
    def of(self) -> SuitGenitive:
        """This suit for a sentence that needs the genitive (see :class:`SuitGenitive`)."""
        return SuitGenitive(self)

    @classmethod
    def parse(cls, text: object) -> Suit:
        """Parse a suit letter, symbol or Russian initial (``S``, ``♠``, ``п``)."""
        if not isinstance(text, str):  # anything may come in: named, not an AttributeError
            raise ParseError("bad_suit", rule="N1", text=repr(text)[:40])
        return cls(_read_input(_SUIT_INPUT, text.strip().lower(), "bad_suit", text))


class Rank(IntEnum):
    """A rank; the value is the pip order 2..A (not the trick order, see C3/MI2)."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def letter(self) -> str:
        """The ASCII rank character of N1 (``T`` for ten)."""
        return RANK_LETTERS[self]

    @property
    def points(self) -> int:
        """Card points of MI11: K 5, Q 4, J 2, A 1, other cards their pip value."""
        return _POINTS[self]

    def name_in(self, lang: str) -> str:
        """The rank's name in ``lang`` (``en`` or ``ru``)."""
        return (_RANK_NAMES_RU if lang == "ru" else _RANK_NAMES_EN)[self]

    @classmethod
    def parse(cls, text: object) -> Rank:
        """Parse a rank character (``A``, ``T``, ``10``, Russian ``Т``/``К``/``Д``/``В``)."""
        if not isinstance(text, str):  # anything may come in: named, not an AttributeError
            raise ParseError("bad_rank", rule="N1", text=repr(text)[:40])
        return cls(_read_input(_RANK_INPUT, text.strip().upper(), "bad_rank", text))


class SuitGenitive:
    """A suit rendered in the genitive in Russian messages («масть пик»).

    Error messages take parameters that render themselves in the message's
    language (:func:`mushka.errors.render_param`); this one picks the case
    Russian grammar needs after «масть».
    """

    __slots__ = ("suit",)

    def __init__(self, suit: Suit) -> None:
        self.suit = suit

    def render(self, lang: str) -> str:
        """The suit's name in ``lang``, genitive in Russian."""
        return self.suit.genitive(lang)

    def __str__(self) -> str:
        return self.suit.genitive("en")


RANK_LETTERS: Final = "23456789TJQKA"
SUIT_LETTERS: Final = "SCDH"
# ``tuple[int, ...]``, not ``tuple[int, int, int, int]``: compiled, a fixed-length tuple is
# kept unboxed and indexing it by a variable (a suit) boxed it anew, a tuple and four ints.
SUIT_MASKS: Final[tuple[int, ...]] = tuple(0x1FFF << (13 * s) for s in range(4))
ALL_CARDS_MASK: Final = (1 << 52) - 1

_POINTS: Final = (2, 3, 4, 5, 6, 7, 8, 9, 10, 2, 4, 5, 1)
_SUIT_NAMES_EN: Final = ("spades", "clubs", "diamonds", "hearts")
_SUIT_NAMES_RU: Final = ("пики", "трефы", "бубны", "черви")
_SUIT_GENITIVE_RU: Final = ("пик", "треф", "бубён", "червей")
_RANK_NAMES_EN: Final = (
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "jack", "queen", "king", "ace",
)
_RANK_NAMES_RU: Final = (
    "двойка", "тройка", "четвёрка", "пятёрка", "шестёрка", "семёрка", "восьмёрка",
    "девятка", "десятка", "валет", "дама", "король", "туз",
)
# Russian rank letters as printed on Russian cards: В(алет), Д(ама), К(ороль), Т(уз).
_RANK_LETTERS_RU: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "В", "Д", "К", "Т")

_SUIT_INPUT: Final[dict[str, int]] = {
    "s": 0, "♠": 0, "♤": 0, "п": 0,
    "c": 1, "♣": 1, "♧": 1, "т": 1, "к": 1,
    "d": 2, "♦": 2, "♢": 2, "б": 2,
    "h": 3, "♥": 3, "♡": 3, "ч": 3,
}
_RANK_INPUT: Final[dict[str, int]] = {
    **{ch: i for i, ch in enumerate(RANK_LETTERS)},
    "10": 8,
    # Cyrillic rank letters (N2 display form read back).
    "В": 9, "Д": 10, "К": 11, "Т": 12,
}



def _read_input(table: dict[str, int], key: str, error: str, text: str) -> int:
    """The value of ``key`` in a table of what N1 reads, or N1's refusal naming the ``text`` given."""
    if key in table:
        return table[key]
    raise ParseError(error, rule="N1", text=text)


class Card:
    """One playing card; interned, immutable, ordered by index.

    ``Card("KC")``, ``Card("k♣")``, ``Card("10h")`` and ``Card(37)`` all work
    (N2); a bad code raises :class:`~mushka.errors.ParseError` naming the input.
    ``str(card)`` is the canonical ASCII code and ``repr(card)`` reads back.
    """

    __slots__ = ("bit", "code", "index", "rank", "suit")

    index: int
    rank: Rank
    suit: Suit
    bit: int
    code: str

    def __new__(cls, code: object) -> Card:
        """Return the interned card for a code or an index 0..51 (an int, a bool included, as
        an int's index); anything else is refused with :class:`~mushka.errors.ParseError`
        by :func:`parse_card` (N2)."""
        # ``object``: compiled, ``str | int`` would refuse other types with a bare TypeError
        # where the pure build names them.
        if isinstance(code, int):
            if 0 <= code < len(_INTERNED):
                return _INTERNED[code]
            if code == len(_INTERNED) < 52:
                # The 52 cards are made here once, in order, while this module loads
                # (CARDS below); afterwards every card is the interned one.  Made in
                # __new__ itself so that compiled and pure builds share one path.
                self = object.__new__(cls)
                object.__setattr__(self, "index", code)
                object.__setattr__(self, "rank", Rank(code % 13))
                object.__setattr__(self, "suit", Suit(code // 13))
                object.__setattr__(self, "bit", 1 << code)
                object.__setattr__(self, "code", RANK_LETTERS[code % 13] + SUIT_LETTERS[code // 13])
                _INTERNED.append(self)
                return self
            raise ParseError("bad_card", rule="N2", text=str(code))
        return parse_card(code)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        # Pickling keeps the interning (needed by multiprocessing simulation).
        return (Card, (self.index,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __hash__(self) -> int:
        return self.index

    @property
    def symbol(self) -> str:
        """Display form with a suit symbol and ``10`` for ten, e.g. ``K♣``, ``10♥``."""
        rank = "10" if self.rank == Rank.TEN else self.rank.letter
        return rank + self.suit.symbol

    def display(self, lang: str = "en") -> str:
        """Short display form; in Russian with Cyrillic rank letters (``К♣``)."""
        if lang == "ru":
            return _RANK_LETTERS_RU[self.rank] + self.suit.symbol
        return self.symbol

    def name_in(self, lang: str = "en") -> str:
        """Full name: ``king of clubs`` / ``король треф``."""
        if lang == "ru":
            return f"{_RANK_NAMES_RU[self.rank]} {_SUIT_GENITIVE_RU[self.suit]}"
        return f"{_RANK_NAMES_EN[self.rank]} of {_SUIT_NAMES_EN[self.suit]}"


_INTERNED: list[Card] = []
"""The cards made so far, by index (filled once, just below)."""

CARDS: Final[tuple[Card, ...]] = tuple(Card(i) for i in range(52))
"""All 52 cards by index."""

_CODE_CACHE: dict[str, Card] = {}


def parse_card(text: object) -> Card:
    """Parse one card code (N2): rank then suit, any case, ``10`` or ``T`` for ten.

    Accepts ``KC``, ``Kc``, ``K♣``, ``10C`` and Russian forms such as ``Д♥``.
    Raises :class:`~mushka.errors.ParseError` naming the input otherwise.
    """
    # ``object``: callers from outside may pass anything (and the compiled build would
    # refuse a narrower annotation with a bare TypeError, docs/build.md).
    if not isinstance(text, str):
        # A value of another type is refused like a bad code (N2), not with an AttributeError.
        raise ParseError("bad_card", rule="N2", text=repr(text)[:40])
    hit = _CODE_CACHE.get(text)
    if hit is not None:
        return hit
    raw = text.strip()
    if len(raw) < 2:
        raise ParseError("bad_card", rule="N2", text=text)
    try:
        rank = Rank.parse(raw[:-1])
        suit = Suit.parse(raw[-1])
    except ParseError:
        raise ParseError("bad_card", rule="N2", text=text) from None
    card = CARDS[suit * 13 + rank]
    if len(_CODE_CACHE) < 4096:
        _CODE_CACHE[text] = card
    return card


def parse_cards(text: object) -> tuple[Card, ...]:
    """Parse cards separated by spaces or commas: ``"AS KH 10d"`` (N2)."""
    if not isinstance(text, str):  # anything may come in: named, not an AttributeError
        raise ParseError("bad_card", rule="N2", text=repr(text)[:40])
    parts = text.replace(",", " ").split()
    return tuple(parse_card(p) for p in parts)


def format_cards(cards: Iterable[Card], *, symbols: bool = False, lang: str = "en") -> str:
    """Join cards with spaces; canonical codes unless ``symbols`` is set."""
    if symbols:
        return " ".join(c.display(lang) for c in cards)
    return " ".join(c.code for c in cards)


def mask_of(cards: Iterable[Card]) -> int:
    """The mask (bit set) of some cards."""
    m = 0
    for c in cards:
        m |= c.bit
    return m


def index_list(mask: int) -> list[int]:
    """The card indices of a mask in increasing order, as a list (see :func:`indices`)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


POP13: Final[tuple[int, ...]] = tuple(m.bit_count() for m in range(1 << 13))
"""``POP13[m]`` is the number of cards of a one-suit mask ``m`` (13 bits)."""


def card_count(mask: int) -> int:
    """How many cards ``mask`` holds (``mask.bit_count()``, 0 <= mask < 2**52).

    Compiled, ``int.bit_count`` is a method looked up by name at every call
    (mypyc has no primitive for it); four lookups in a table of 13-bit
    counts are cheaper on the engine's hot paths."""
    pop = POP13
    return pop[mask & 8191] + pop[mask >> 13 & 8191] + pop[mask >> 26 & 8191] + pop[mask >> 39]


def indices(mask: int) -> Iterator[int]:
    """Yield the card indices of a mask in increasing order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a mask, sorted by index (suit, then pip rank)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def deck_mask(size: int) -> int:
    """Mask of the deck of N3: 32 (7..A), 36 (6..A) or 52 (2..A) cards."""
    lowest = {32: Rank.SEVEN, 36: Rank.SIX, 52: Rank.TWO}[size]
    per_suit = (0x1FFF >> lowest) << lowest
    return per_suit | (per_suit << 13) | (per_suit << 26) | (per_suit << 39)


def deck_cards(size: int) -> tuple[Card, ...]:
    """The cards of a deck of ``size`` in a fixed canonical order."""
    return cards_of(deck_mask(size))


def suit_of(index: int) -> int:
    """Suit number of a card index."""
    return index // 13


def sort_for_display(cards: Iterable[Card], strength: tuple[int, ...] | None = None) -> list[Card]:
    """Sort a hand as a player holds it: by suit (high suit first), then by
    ``strength`` (the variant's trick order, C3/MI2) or by pip rank."""
    if strength is None:
        return sorted(cards, key=lambda c: (-c.suit, -c.rank))
    return sorted(cards, key=lambda c: (-c.suit, -strength[c.index]))
