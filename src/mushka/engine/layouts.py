"""The shapes of the tensors of what one seat knows: observation and information state.

Research environments feed networks with flat vectors of floats.  For a
:class:`~mushka.rules.Rules` value, :func:`observation_layout` and
:func:`information_state_layout` name every segment of the vector (its name,
offset and size) as a :class:`Layout`; :class:`mushka.engine.encode.Encoder`
fills one for a seat, and the research adapters read the layouts alone (to
name and size their spaces).

Card segments have one entry per card of the table's deck, in the order of
:attr:`Rules.deck_cards`; "seat" segments are relative to the viewer (entry 0
is the viewer, 1 the next seat in turn, …).  The layouts are listed in
``docs/research.md``.
"""

from __future__ import annotations

from typing import Final

from mushka.rules.model import Rules

TRUMP_TRICKS: Final = 5
"""C13: five tricks a deal."""
KOPILKA_TRICKS: Final = 16
"""K14/K18: at most 16 counted tricks (each takes two or more of 32 cards)."""
PHASES: Final = 5
"""Dealing (chance), declare, redistribute, play, over."""


class Layout:
    """The named segments of a tensor: ``(name, size)`` in order."""

    __slots__ = ("offsets", "segments", "size")

    segments: tuple[tuple[str, int], ...]
    offsets: dict[str, int]
    size: int

    def __init__(self, segments: tuple[tuple[str, int], ...]) -> None:
        """A layout of ``segments`` laid out one after another."""
        self.segments = segments
        self.offsets = {}
        off = 0
        for name, size in segments:
            self.offsets[name] = off
            off += size
        self.size = off

    def slice(self, name: str) -> slice:
        """Where segment ``name`` lies in the tensor."""
        off = self.offsets[name]
        return slice(off, off + dict(self.segments)[name])

    def __repr__(self) -> str:
        return f"Layout({', '.join(f'{n}[{s}]' for n, s in self.segments)}; size={self.size})"


def observation_layout(rules: Rules) -> Layout:
    """The segments of the observation tensor of ``rules`` (what a seat sees now)."""
    d = rules.deck_size
    n = rules.players
    if rules.has_trumps:
        return Layout((
            ("hand", d), ("turnup", d), ("trump", 4), ("phase", PHASES), ("to_act", n),
            ("dealer", n), ("declared", 3 * n), ("exchanged", 6 * n), ("turnup_taken", 1),
            ("own_discards", d), ("trick", n * d), ("played", d), ("tricks_won", 6 * n),
            ("shown", n * d), ("talon", 1), ("voids", 4 * n),
        ))
    return Layout((
        ("hand", d), ("phase", PHASES), ("to_act", n), ("dealer", n), ("own_discards", d),
        ("trick", n * d), ("played", d), ("taken_back", n * d), ("tricks_won", n), ("hand_sizes", n),
        ("banned_suit", 4), ("takebacks", 4), ("talon", 1), ("pot", 1), ("balances", n),
    ))


def information_state_layout(rules: Rules) -> Layout:
    """The segments of the information-state tensor: the observation, the seat's
    own hand as dealt and every trick in order (leader and cards by seat)."""
    d = rules.deck_size
    n = rules.players
    tricks = TRUMP_TRICKS if rules.has_trumps else KOPILKA_TRICKS
    return Layout((*observation_layout(rules).segments, ("own_dealt", d), ("trick_history", tricks * (n + n * d))))
