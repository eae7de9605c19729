"""A learned correction of the search's values at the declaration (C6-C8, classic and mistigri).

The search values each declaration candidate by playouts in worlds drawn
uniformly from what its seat has seen.  Those worlds give the seats that
have already stood average hands, although a seat that stood (and more so
one that exchanged one card or none) holds a hand worth standing on, so
the search overrates standing behind them.  Instead of modelling the hands,
:class:`DeclareModel` learns how far the search's value of a candidate is
off, from public facts only: who stood and passed before, how many cards
they exchanged, the seats still to declare, the cards the candidate
exchanges.

The model is linear in differences with the rules of thumb's candidate
(candidate 0 of the search): for candidate *c*,

    corrected(c) − corrected(0) = a · (search(c) − search(0)) + w · (φ(c) − φ(0))

where *φ* are the features of :func:`features`, fitted by ridge regression
on the oracle's values (``bench/fit_declare.py``, docs/bots.md).  Its
weights ship in ``data/declare.json``; reading them needs no dependency.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from mushka.engine import Action, DealView
from mushka.engine.actions import Kind
from mushka.errors import MushkaError
from mushka.i18n import add_texts

FEATURES: tuple[str, ...] = (
    "stand",                  # the candidate stands (pat or exchanging, C7)
    "stand_x_stood",          # ... times the seats that stood before
    "stand_x_passed",         # ... times the seats that passed before
    "stand_x_strong",         # ... times those who stood exchanging at most one card
    "stand_x_after",          # ... times the seats still to declare after this one
    "drawn",                  # cards the candidate exchanges (0-5)
    "drawn_x_stood",          # ... times the seats that stood before
    "take",                   # the dealer takes the turned-up card (C6)
    "take_x_stood",           # ... times the seats that stood before
)
"""The names of the features, in the order of :func:`features` and of the weights."""


def features(view: DealView, action: Action) -> list[float]:
    """The public features of declaring ``action`` in ``view`` (all 0 for a pass)."""
    return _features(_tally(view), action)


def _tally(view: DealView) -> tuple[int, int, int, int]:
    """The declarations so far as the features count them: stood, passed, stood on at most one card, still to come."""
    assert view.seat is not None
    me = view.seat
    stood = passed = strong = 0
    for seat, said in enumerate(view.declarations):
        if seat == me or said is None:
            continue
        if said == "stand":
            stood += 1
            if 0 <= view.exchanged[seat] <= 1:
                strong += 1
        elif said == "pass":
            passed += 1
    after = (view.dealer - me) % view.rules.players  # the dealer declares last (C7)
    return stood, passed, strong, after


def _features(tally: tuple[int, int, int, int], action: Action) -> list[float]:
    """:func:`features` from the view's :func:`_tally`, read once for all of a declaration's candidates."""
    stood, passed, strong, after = tally
    kind = action.kind
    if kind is Kind.STAND:
        drawn = float(action.mask.bit_count())
        return [1.0, float(stood), float(passed), float(strong), float(after), drawn, drawn * stood, 0.0, 0.0]
    if kind is Kind.TAKE:
        return [0.0] * 7 + [1.0, float(stood)]
    return [0.0] * len(FEATURES)


class ModelFileError(MushkaError):
    """The shipped declaration model is missing a variant or has the wrong shape."""


@dataclass(frozen=True)
class DeclareModel:
    """The fitted weights of one variant: ``search`` on the search's difference, ``weights`` on the features."""

    search: float
    weights: tuple[float, ...]

    def corrected(self, view: DealView, cands: list[Action], means: list[float]) -> list[float]:
        """The corrected value of every candidate, relative to candidate 0 (which gets 0)."""
        tally = _tally(view)
        base = _features(tally, cands[0])
        out = []
        for action, mean in zip(cands, means, strict=True):
            phi = _features(tally, action)
            value = self.search * (mean - means[0])
            for w, x, x0 in zip(self.weights, phi, base, strict=True):
                value += w * (x - x0)
            out.append(value)
        return out


@cache
def shipped(variant: str) -> DeclareModel:
    """The model fitted for ``variant`` (classic or mistigri), from ``data/declare.json``."""
    text = resources.files("mushka.bots").joinpath("data/declare.json").read_text(encoding="utf-8")
    data = json.loads(text)
    if data.get("features") != list(FEATURES):
        raise ModelFileError("model_file", detail="features differ from the code's")
    fit = data.get("variants", {}).get(variant)
    if fit is None:
        raise ModelFileError("model_file", detail=f"no model for {variant}")
    weights = tuple(float(w) for w in fit["weights"])
    if len(weights) != len(FEATURES):
        raise ModelFileError("model_file", detail="wrong number of weights")
    return DeclareModel(search=float(fit["search"]), weights=weights)


add_texts({
    "error.model_file": ("the learned declaration model (bots/data/declare.json) cannot be used: {detail}",
                         "выученная модель объявления (bots/data/declare.json) непригодна: {detail}"),
})

__all__ = ["FEATURES", "DeclareModel", "ModelFileError", "features", "shipped"]
