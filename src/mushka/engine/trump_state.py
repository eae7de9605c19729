"""The state of a trump deal: the fields of :class:`TrumpState`, shared by its moves and its views.

Classic мушка and мушка-мистигри keep their deal in the fields declared here;
:class:`mushka.engine.trump.TrumpDeal` plays moves on them, and
:mod:`mushka.engine.trump_view` reads them for a seat's view and the
result.  Both import this module, and neither the other's, so the view
does not reach back into the module of the moves.
"""

from __future__ import annotations

from typing import Final

from mushka.engine.deal import Deal

# The declaration of each seat (C7), as the deal keeps it.
UNDECIDED: Final = 0
PASSED: Final = 1
STOOD: Final = 2


class TrumpState(Deal):
    """The fields of one deal of classic мушка or мушка-мистигри (no moves: :class:`~mushka.engine.trump.TrumpDeal`)."""

    __slots__ = (
        "_best_card",
        "_best_key",
        "_best_seat",
        "_cands",
        "_decl",
        "_exch",
        "_final",
        "_flush_seat",
        "_ktab",
        "_ktabs",
        "_next",
        "_open",
        "_order",
        "_priv",
        "_priv_bit",
        "_priv_holder",
        "_side",
        "_stood_before_dealer",
        "_took",
        "_trump_mask",
        "trump",
        "turnup",
    )

    turnup: int
    trump: int
    _trump_mask: int
    _priv: int
    _priv_bit: int
    _ktabs: tuple[tuple[int, ...], ...]
    _ktab: tuple[int, ...]
    _decl: list[int]
    _exch: list[int]
    _took: bool
    _open: int
    _cands: list[tuple[tuple[int, int, int], int]]
    _order: list[int]
    _next: list[int]
    _priv_holder: int
    _best_key: int
    _best_seat: int
    _best_card: int
    _stood_before_dealer: int
    _side: list[int]
    _flush_seat: int
    _final: tuple[bool, int, int]


__all__ = ["PASSED", "STOOD", "UNDECIDED", "TrumpState"]
