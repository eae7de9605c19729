"""Statistics for simulations: means and rates with confidence intervals,
bootstrap intervals over groups of games, and a Bradley-Terry rating fit.

* :func:`mean_ci`: Student's *t* interval of a mean (money per game).
* :func:`proportion_ci`: Wilson's score interval of a rate (wins, recoups);
  unlike the normal approximation it stays inside [0, 1] and is sensible for
  rates near 0 or 1 and for small samples.
* :func:`bootstrap_means`: percentile bootstrap over *groups* of games (a
  duplicate-deal group shares its cards, so its games are not independent;
  resampling whole groups keeps that dependence).
* :func:`bradley_terry`: strengths from a matrix of pairwise wins by the
  minorisation-maximisation algorithm of Hunter (2004), on an Elo-like scale
  (400 · log10 of the strength, centred on 0).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy import stats

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Estimate:
    """A point estimate with its confidence interval (``None`` if undefined)."""

    value: float
    low: float | None
    high: float | None
    n: int
    """How many independent observations the interval rests on."""

    def to_json(self, digits: int = 4) -> dict[str, object]:
        """``{"value", "low", "high", "n"}``, rounded for reading."""
        return {
            "value": _round(self.value, digits), "low": _round(self.low, digits),
            "high": _round(self.high, digits), "n": self.n,
        }

    def contains(self, x: float) -> bool:
        """Whether ``x`` lies in the interval (an undefined interval holds nothing)."""
        return self.low is not None and self.high is not None and self.low <= x <= self.high

    def text(self, fmt: str = "{:+.2f}") -> str:
        """``value [low, high]`` for a table cell."""
        if self.low is None or self.high is None:
            return fmt.format(self.value)
        return f"{fmt.format(self.value)} [{fmt.format(self.low)}, {fmt.format(self.high)}]"


def _round(x: float | None, digits: int) -> float | None:
    if x is None or math.isnan(x):
        return None
    return round(float(x), digits)


def mean_ci(values: Sequence[float] | FloatArray, confidence: float = 0.95) -> Estimate:
    """The mean of ``values`` with Student's *t* interval.

    With fewer than two values, or no spread at all, the interval is
    degenerate: ``None`` for one value, the value itself for constant data.
    """
    data = np.asarray(values, dtype=np.float64)
    n = int(data.size)
    if n == 0:
        return Estimate(math.nan, None, None, 0)
    mean = float(data.mean())
    if n < 2:
        return Estimate(mean, None, None, n)
    sd = float(data.std(ddof=1))
    if sd == 0.0:
        return Estimate(mean, mean, mean, n)
    half = float(stats.t.ppf(0.5 + confidence / 2, n - 1)) * sd / math.sqrt(n)
    return Estimate(mean, mean - half, mean + half, n)


def proportion_ci(successes: int, trials: int, confidence: float = 0.95) -> Estimate:
    """The rate ``successes / trials`` with Wilson's score interval."""
    if trials <= 0:
        return Estimate(math.nan, None, None, 0)
    ci = stats.binomtest(successes, trials).proportion_ci(confidence, method="wilson")
    return Estimate(successes / trials, float(ci.low), float(ci.high), trials)


def percentile_interval(samples: FloatArray, confidence: float = 0.95) -> tuple[FloatArray, FloatArray]:
    """The percentile interval of bootstrap ``samples`` along the first axis."""
    alpha = (1 - confidence) / 2
    low = np.quantile(samples, alpha, axis=0)
    high = np.quantile(samples, 1 - alpha, axis=0)
    return np.asarray(low, dtype=np.float64), np.asarray(high, dtype=np.float64)


def bootstrap_weights(groups: int, resamples: int, seed: int) -> FloatArray:
    """How often each of ``groups`` groups is drawn in each resample (rows)."""
    rng = np.random.default_rng(seed)
    counts = rng.multinomial(groups, np.full(groups, 1.0 / groups), size=resamples)
    return np.asarray(counts, dtype=np.float64)


def bootstrap_means(
    sums: FloatArray, counts: FloatArray, weights: FloatArray, confidence: float = 0.95,
) -> tuple[FloatArray, FloatArray]:
    """Percentile intervals of ratios ``sum / count`` per column over resampled groups.

    ``sums`` and ``counts`` are (groups × columns): e.g. each bot's money and
    seat-games in each duplicate group; ``weights`` comes from
    :func:`bootstrap_weights`.  A resample in which a column has no count
    is left out of that column's interval.
    """
    s = weights @ sums
    c = weights @ counts
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = np.where(c > 0, s / np.where(c > 0, c, 1.0), np.nan)
    alpha = (1 - confidence) / 2
    low = np.nanquantile(ratio, alpha, axis=0)
    high = np.nanquantile(ratio, 1 - alpha, axis=0)
    return np.asarray(low, dtype=np.float64), np.asarray(high, dtype=np.float64)


def bradley_terry(wins: FloatArray, prior: float = 0.5, *, tol: float = 1e-10,
                  max_iter: int = 10_000) -> FloatArray:
    """Bradley-Terry ratings on the Elo scale from pairwise ``wins``.

    ``wins[..., i, j]`` is how often ``i`` beat ``j`` (halves for ties);
    leading axes are independent problems (bootstrap resamples) fitted
    together.  ``prior`` adds that many virtual wins each way to every pair
    that met, so that a player who never lost still gets a finite rating.
    Returns ``400 · log10(strength)`` with ratings centred on 0, so a
    difference of *d* means the first wins a comparison with probability
    ``1 / (1 + 10 ** (-d / 400))``.
    """
    w = np.array(wins, dtype=np.float64)
    k = w.shape[-1]
    eye = np.eye(k, dtype=bool)
    w[..., eye] = 0.0
    games = w + np.swapaxes(w, -1, -2)
    met = games > 0
    w = w + prior * met
    games = w + np.swapaxes(w, -1, -2)
    total = w.sum(axis=-1)
    p = np.ones(w.shape[:-1], dtype=np.float64)
    for _ in range(max_iter):
        denom = (games / (p[..., :, None] + p[..., None, :])).sum(axis=-1)
        with np.errstate(invalid="ignore", divide="ignore"):
            new = np.where(denom > 0, total / np.where(denom > 0, denom, 1.0), 1.0)
        # A player without any comparison keeps strength 1 (rating 0).
        new = np.where(new > 0, new, 1e-300)
        new = new / np.exp(np.log(new).mean(axis=-1, keepdims=True))
        done = bool(np.max(np.abs(np.log(new) - np.log(p))) < tol)
        p = new
        if done:
            break
    ratings = 400.0 * np.log10(p)
    return np.asarray(ratings - ratings.mean(axis=-1, keepdims=True), dtype=np.float64)


def elo_expectation(diff: float) -> float:
    """The chance that a player rated ``diff`` points higher wins a comparison."""
    return float(1.0 / (1.0 + 10.0 ** (-diff / 400.0)))
