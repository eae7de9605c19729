"""The :class:`Rules` value: one frozen, validated description of a table.

A table's rules are the variant, the number of players and every option of
:mod:`mushka.rules.options`.  The three variants are presets of this one value
(:mod:`mushka.rules.variants`); an impossible combination is refused here, at
construction, with a message that names it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Final, Generic, TypeVar, cast

from mushka.cards import CARDS, RANK_LETTERS, Card, Rank, deck_mask
from mushka.errors import OptionsError
from mushka.rules.choices import AllPass, FlushMode, LonePlayer, PrivilegedFour, Redistribution, Renege, VariantName
from mushka.rules.options import (
    KOPILKA,
    MISTIGRI,
    OPTION_BY_NAME,
    OptionValue,
    format_value,
    options_for,
    parse_value,
    rank_letters_missing,
)
from mushka.rules.variants import Variant, find_variant

_LOWEST_RANK: Final = {32: Rank.SEVEN, 36: Rank.SIX, 52: Rank.TWO}

_T = TypeVar("_T")


class DerivedKey(Generic[_T]):
    """The key of one table derived from a :class:`Rules` value, typed by what it holds.

    A module that derives a table makes its key once (``_SPACE: Final[DerivedKey[Space]] =
    DerivedKey("action space")``); keys are compared by identity, so two modules never
    share a table by accident.
    """

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"DerivedKey({self.name!r})"


class DerivedTables:
    """Tables the engine derives from one :class:`Rules` value, each computed once per rules
    value (the first time a deal, an encoder or an action space asks) and kept with it."""

    def __init__(self) -> None:
        self._found: dict[DerivedKey[Any], object] = {}

    def get(self, key: DerivedKey[_T]) -> _T | None:
        """The table under ``key``, or ``None`` before it is first put."""
        return cast("_T | None", self._found.get(key))

    def put(self, key: DerivedKey[_T], table: _T) -> _T:
        """Keep ``table`` under ``key``; returns it."""
        self._found[key] = table
        return table


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything that decides how a table plays; frozen and hashable.

    Build one with :meth:`Rules.make` (or :func:`mushka.rules.make_rules`);
    the fields mirror the options of RULES and keep their defaults in the
    variants they do not apply to.
    """

    variant: VariantName
    players: int
    deck_by_players: tuple[tuple[int, int], ...]
    deck: int | None
    rank_order: str
    dealer_takes_turnup: bool
    max_exchange: int
    all_pass: AllPass
    lone_player: LonePlayer
    privileged_beats_trumps: bool
    privileged_free_play: bool
    must_follow: bool
    must_trump_if_void: bool
    must_head_trick: bool
    must_overtrump: bool
    initial_record: int
    trick_value: int
    remiz: int
    stake: int
    flush: FlushMode
    privileged_four: PrivilegedFour
    flush_payment: int
    can_discard_privileged: bool
    privileged_remiz: int | None
    privileged_bonus: int
    privileged_must_play: bool
    ante: int
    game_payment: int | None
    suit_values: tuple[int, ...]
    renege: Renege
    redistribution: Redistribution
    session_games: int
    # Derived tables, computed once in __post_init__ (not part of equality).
    deck_size: int = field(init=False, compare=False, repr=False)
    deck_bits: int = field(init=False, compare=False, repr=False)
    strength: tuple[int, ...] = field(init=False, compare=False, repr=False)
    privileged: Card = field(init=False, compare=False, repr=False)
    deck_indices: tuple[int, ...] = field(init=False, compare=False, repr=False)
    plain_play: bool = field(init=False, compare=False, repr=False)
    four_mode: FlushMode = field(init=False, compare=False, repr=False)
    """C22/MI13: what four of a suit plus the privileged card do (``privileged_four`` with
    ``as_flush`` read as ``flush``)."""
    cache: DerivedTables = field(init=False, compare=False, repr=False, hash=False)
    """Tables the engine derives from these rules, computed once per table."""

    def __post_init__(self) -> None:
        info = find_variant(self.variant)
        if self.players not in info.players:
            raise OptionsError(
                "bad_players", rule="K1" if self.variant == KOPILKA else "C1",
                variant=info, players=self.players,
                allowed=_range_text(info.players),
            )
        if self.variant == KOPILKA:
            size = 32  # K2
        elif self.deck is not None:
            size = self.deck
        else:
            size = dict(self.deck_by_players)[self.players]
        # C5/N4: five cards each and, outside kopilka, one turned-up card.
        needed = 5 * self.players + (0 if self.variant == KOPILKA else 1)
        if size < needed:
            raise OptionsError("deck_too_small", rule="C5", deck=size, players=self.players)
        missing = rank_letters_missing(self.rank_order, _LOWEST_RANK[size])
        if missing:
            raise OptionsError(
                "rank_order_missing", rule="C3", order=self.rank_order, deck=size, missing=missing
            )
        bits = deck_mask(size)
        # Trick strength of each card within its suit: higher wins (C3, MI2, K2).
        place = {ch: len(self.rank_order) - i for i, ch in enumerate(self.rank_order)}
        strength = tuple(
            place[RANK_LETTERS[i % 13]] if bits >> i & 1 else -1 for i in range(52)
        )
        object.__setattr__(self, "deck_size", size)
        object.__setattr__(self, "deck_bits", bits)
        object.__setattr__(self, "strength", strength)
        object.__setattr__(self, "privileged", info.privileged)
        object.__setattr__(self, "cache", DerivedTables())
        object.__setattr__(self, "deck_indices", tuple(i for i in range(52) if bits >> i & 1))
        # C14 with its default options: the engine's fast path handles exactly these.
        object.__setattr__(self, "plain_play", self.must_follow and self.must_trump_if_void
                           and not self.must_head_trick and not self.must_overtrump)
        four = self.privileged_four
        object.__setattr__(self, "four_mode", self.flush if four is PrivilegedFour.AS_FLUSH else FlushMode(four.value))

    # --- construction ------------------------------------------------------

    @classmethod
    def make(cls, __variant: object = "classic", __players: object = None, **options: object) -> Rules:
        """Build the rules of ``variant`` (a name or alias) with ``options``.

        Options are given as Python values or as their text forms
        (``remiz=7`` or ``remiz="7"``); ``players`` defaults to the variant's
        usual table.  Raises :class:`OptionsError` for an unknown variant or
        option, a bad value, or an impossible combination.  ``variant`` and
        ``players`` may be given by keyword as well, but not twice: a
        ``players`` among the options of a record or a command line next to
        the table size is refused, not a crash.
        """
        # The two are positional-only so that options coming from text (records,
        # ``-o name=value``, the server) can never collide with them as keywords.
        # (Named the pre-PEP 570 way, ``__name``: a compiled build ignores ``/``.)  Typed
        # ``object``: anything may come in and is refused with a named error (OptionsError),
        # which a narrower annotation would turn into a bare TypeError in the compiled build.
        variant, players = __variant, __players
        if "variant" in options:
            given = options.pop("variant")
            if variant != "classic" or not isinstance(given, str):
                raise OptionsError("reserved_option", name="variant")
            variant = given
        if "players" in options:
            count = options.pop("players")
            if players is not None:
                raise OptionsError("reserved_option", name="players")
            if isinstance(count, str) and count.strip().isdigit():
                count = int(count)
            if isinstance(count, bool) or not isinstance(count, int):
                info = find_variant(variant)
                raise OptionsError("bad_players", rule="K1" if info.name == KOPILKA else "C1",
                                   variant=info, players=count,
                                   allowed=_range_text(info.players))
            players = count
        info = find_variant(variant)
        values: dict[str, OptionValue] = {o.name: o.default(info.name) for o in options_for(info.name)}
        for name, value in options.items():
            values[name.replace("-", "_")] = parse_value(name.replace("-", "_"), info.name, value)
        return cls._from_values(info, info.default_players if players is None else players, values)

    @classmethod
    def _from_values(cls, info: Variant, players: object, values: Mapping[str, OptionValue]) -> Rules:
        full: dict[str, object] = {}
        for f in fields(cls):
            if not f.init or f.name in ("variant", "players"):
                continue
            spec = OPTION_BY_NAME[f.name]
            # Options that do not apply to a variant keep the first variant's
            # default, so every Rules value has every field.
            full[f.name] = values.get(f.name, spec.defaults[spec.variants[0]])
        if isinstance(players, bool) or not isinstance(players, int):
            raise OptionsError("bad_players", rule="K1" if info.name == KOPILKA else "C1",
                               variant=info, players=players,
                               allowed=_range_text(info.players))
        return cls(variant=info.name, players=players, **full)  # type: ignore[arg-type]

    def replace(self, players: object = None, **options: object) -> Rules:
        """A copy with other players and/or options (validated like :meth:`make`: ``players``
        is an ``object`` so that anything but a table size gets its named error, C1/K1)."""
        current: dict[str, object] = dict(self.option_values())
        current.update(options)
        return Rules.make(self.variant, self.players if players is None else players, **current)

    def __reduce__(self) -> tuple[object, ...]:
        """A compact pickle: the variant, the table size and the changed options
        (the derived tables and the engine's cache are rebuilt, not carried)."""
        return (rules_from_text, (self.variant, self.players, self.options_text(changed_only=True)))

    # --- introspection -----------------------------------------------------

    @property
    def info(self) -> Variant:
        """The variant's metadata."""
        return find_variant(self.variant)

    def option_values(self) -> dict[str, OptionValue]:
        """The value of every option that applies to this variant."""
        return {o.name: getattr(self, o.name) for o in options_for(self.variant)}

    def options_text(self, *, changed_only: bool = False) -> dict[str, str]:
        """Options as ``name -> text``; records store all of them explicitly, except an
        option added later (``stored_when_changed``), written only when it is not the default."""
        out = {}
        for o in options_for(self.variant):
            value = getattr(self, o.name)
            if (changed_only or o.stored_when_changed) and value == o.default(self.variant):
                continue
            out[o.name] = format_value(o.name, value)
        return out

    def is_default(self, name: object) -> bool:
        """Whether option ``name`` has the variant's default value (an unknown name, or
        anything but text, is an :class:`OptionsError` naming it)."""
        found = OPTION_BY_NAME.get(name) if isinstance(name, str) else None
        if found is None:
            raise OptionsError("unknown_option", name=name if isinstance(name, str) else repr(name)[:40],
                               variant=self.variant, known=", ".join(o.name for o in options_for(self.variant)))
        return bool(getattr(self, found.name) == found.default(self.variant))

    def __str__(self) -> str:
        changed = self.options_text(changed_only=True)
        extra = "".join(f" -o {k}={v}" for k, v in changed.items())
        return f"{self.variant} {self.players}p{extra}"

    # --- derived values used by the engine ---------------------------------

    @property
    def has_trumps(self) -> bool:
        """Classic and mistigri have a trump suit; kopilka has none (K5)."""
        return self.variant != KOPILKA

    @property
    def deck_cards(self) -> tuple[Card, ...]:
        """The cards of this table's deck (N3), in canonical order."""
        return tuple(CARDS[i] for i in self.deck_indices)

    @property
    def effective_privileged_remiz(self) -> int:
        """MI6: remiz of a trickless holder of the privileged card."""
        return self.remiz if self.privileged_remiz is None else self.privileged_remiz

    @property
    def effective_game_payment(self) -> int:
        """K22.3: the payment after each game (defaults to the ante)."""
        return self.ante if self.game_payment is None else self.game_payment

    @property
    def is_mistigri(self) -> bool:
        """Whether this is мушка-мистигри."""
        return self.variant == MISTIGRI


def _range_text(allowed: tuple[int, ...]) -> str:
    if len(allowed) == 1:
        return str(allowed[0])
    return f"{allowed[0]}-{allowed[-1]}"


def make_rules(__variant: object = "classic", __players: object = None, **options: object) -> Rules:
    """Build validated :class:`Rules`; see :meth:`Rules.make`."""
    # Positional-only the pre-PEP 570 way (``__name``), which the compiled build honours too.
    return Rules.make(__variant, __players, **options)


def rules_from_text(variant: object, players: object, assignments: Mapping[str, str]) -> Rules:
    """Rules from text options, e.g. from a record or ``-o name=value`` pairs (the variant
    and the table size are checked by :meth:`Rules.make`, which names what is wrong)."""
    return Rules.make(variant, players, **dict(assignments))
