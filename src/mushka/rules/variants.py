"""The three variants as named presets, found by English or Russian name.

=========  ===========================  ===========================================
name       Russian                      what it is
=========  ===========================  ===========================================
classic    обычная (каноническая) мушка  the base game: trumps, A♠ is the мушка
mistigri   мушка-мистигри               K♣ is the privileged card, ace below jack
kopilka    мушка-копилка                4 players, no trumps, a money pot, 4 deals
=========  ===========================  ===========================================

A variant is metadata and the answers callers need about its structure (is
there a trump suit, is the game a partie or a session, which rule names the seats,
the dealer, the turn of play and a мушка won), so that no caller asks which variant
it has; its option defaults live with each option in :mod:`mushka.rules.options`,
and the behaviours that data cannot express are hooks of the deal and game classes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from mushka._pickle import FrozenValue
from mushka.cards import Card
from mushka.errors import OptionsError
from mushka.rules.choices import VariantName


@dataclass(frozen=True, slots=True)
class Variant(FrozenValue):
    """A variant's name, aliases, titles, table sizes, privileged card and structure."""

    name: VariantName
    aliases: tuple[str, ...]
    title_en: str
    title_ru: str
    players: tuple[int, ...]
    default_players: int
    privileged: Card
    rule_prefix: str
    has_trumps: bool = True
    """A trump suit and a turned-up card (C5-C6); kopilka has neither (K5)."""
    game: str = "partie"
    """The game above the deal: ``"partie"`` (C16-C22) or ``"session"`` (K3-K4)."""
    seat_rule: str = "C1"
    """The rule that sets the table's seats (C1, K1)."""
    dealer_rule: str = "C4"
    """The rule by which the deal passes round (C4, K4)."""
    play_rule: str = "C13"
    """The rule that says whose turn it is in the trick play (C13, K11)."""
    mushka_rule: str = ""
    """The rule by which a special hand wins the мушка (C22, MI13; none in kopilka)."""
    flush_rule: str = ""
    """The rule of the five of a suit paid by every other player (C22, MI9; none in kopilka)."""

    def title(self, lang: str = "en") -> str:
        """The variant's title in ``lang``."""
        return self.title_ru if lang == "ru" else self.title_en

    def name_in(self, lang: str = "en") -> str:
        """The title, as messages render a variant."""
        return self.title(lang)


VARIANTS: Final[dict[VariantName, Variant]] = {
    "classic": Variant(
        "classic", ("classic", "обычная", "каноническая", "мушка", "mouche", "loo"),
        "Classic Mushka", "Обычная мушка", (3, 4, 5, 6, 7), 4, Card("AS"), "C",
        mushka_rule="C22", flush_rule="C22",
    ),
    "mistigri": Variant(
        "mistigri", ("mistigri", "мистигри", "мушка-мистигри"),
        "Mushka-mistigri", "Мушка-мистигри", (3, 4, 5, 6, 7), 4, Card("KC"), "MI",
        mushka_rule="MI13", flush_rule="MI9",
    ),
    "kopilka": Variant(
        "kopilka", ("kopilka", "копилка", "мушка-копилка"),
        "Mushka-kopilka", "Мушка-копилка", (4,), 4, Card("AS"), "K",
        has_trumps=False, game="session", seat_rule="K1", dealer_rule="K4", play_rule="K11",
    ),
}
"""The variants by canonical name."""

_ALIASES: Final[dict[str, VariantName]] = {
    alias.casefold(): v.name for v in VARIANTS.values() for alias in v.aliases
}


def find_variant(name: object) -> Variant:
    """The variant called ``name`` in English or Russian, any case.

    Raises :class:`OptionsError` listing the known names otherwise.
    """
    # ``object``: a variant from JSON or a form may be anything (and the compiled build
    # would refuse a narrower annotation with a bare TypeError, docs/build.md).
    if not isinstance(name, str):
        raise OptionsError("unknown_variant", name=name, known=_known())
    key = name.strip().casefold().replace("_", "-")
    found = _ALIASES.get(key)
    if found is None:
        raise OptionsError("unknown_variant", name=name, known=_known())
    return VARIANTS[found]


def _known() -> str:
    return ", ".join(f"{v.name}/{v.aliases[1]}" for v in VARIANTS.values())
