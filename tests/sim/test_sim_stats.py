"""Statistics functions checked against values computed by hand from their formulas."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mushka.sim.stats import (
    Estimate,
    bootstrap_means,
    bootstrap_weights,
    bradley_terry,
    elo_expectation,
    mean_ci,
    percentile_interval,
    proportion_ci,
)

# Student's t quantile for 97.5% and 4 degrees of freedom, from printed tables.
T_975_4 = 2.776445
Z_975 = 1.959964


def test_mean_ci_matches_the_t_formula():
    est = mean_ci([1, 2, 3, 4, 5])
    half = T_975_4 * math.sqrt(2.5) / math.sqrt(5)  # sample variance of 1..5 is 2.5
    assert est.value == pytest.approx(3.0)
    assert est.low == pytest.approx(3.0 - half, abs=1e-5)
    assert est.high == pytest.approx(3.0 + half, abs=1e-5)
    assert est.n == 5
    assert est.contains(3.0)
    assert not est.contains(5.0)


def test_mean_ci_degenerate_cases():
    one = mean_ci([7])
    assert one.value == 7 and one.low is None and one.high is None and not one.contains(7)
    flat = mean_ci([2, 2, 2])
    assert (flat.low, flat.high) == (2, 2)
    empty = mean_ci([])
    assert empty.n == 0 and math.isnan(empty.value)
    assert empty.to_json()["value"] is None


def test_wilson_interval_by_hand():
    for k, n in [(5, 10), (0, 20), (19, 20), (37, 120)]:
        p = k / n
        centre = (p + Z_975**2 / (2 * n)) / (1 + Z_975**2 / n)
        half = Z_975 * math.sqrt(p * (1 - p) / n + Z_975**2 / (4 * n * n)) / (1 + Z_975**2 / n)
        est = proportion_ci(k, n)
        assert est.value == pytest.approx(p)
        assert est.low == pytest.approx(centre - half, abs=1e-6)
        assert est.high == pytest.approx(centre + half, abs=1e-6)
        assert 0.0 <= est.low <= est.value <= est.high <= 1.0


def test_proportion_without_trials_has_no_interval():
    est = proportion_ci(0, 0)
    assert est.n == 0 and est.low is None


def test_estimate_text():
    assert Estimate(1.5, 1.0, 2.0, 3).text("{:.1f}") == "1.5 [1.0, 2.0]"
    assert Estimate(1.5, None, None, 1).text("{:.1f}") == "1.5"


def test_bradley_terry_two_players_is_the_log_odds():
    wins = np.array([[0.0, 3.0], [1.0, 0.0]])
    plain = bradley_terry(wins, prior=0.0)
    assert plain[0] - plain[1] == pytest.approx(400 * math.log10(3.0), abs=1e-6)
    assert plain.sum() == pytest.approx(0.0, abs=1e-9)
    smoothed = bradley_terry(wins, prior=0.5)
    assert smoothed[0] - smoothed[1] == pytest.approx(400 * math.log10(3.5 / 1.5), abs=1e-6)
    assert elo_expectation(plain[0] - plain[1]) == pytest.approx(0.75)


def test_bradley_terry_three_players_consistent_odds():
    # Strengths 4 : 2 : 1 and comparisons in exactly those odds: the MLE recovers them.
    p = [4.0, 2.0, 1.0]
    wins = np.zeros((3, 3))
    for i in range(3):
        for j in range(3):
            if i != j:
                wins[i, j] = 60 * p[i] / (p[i] + p[j])
    r = bradley_terry(wins, prior=0.0)
    assert r[0] - r[1] == pytest.approx(400 * math.log10(2), abs=1e-5)
    assert r[1] - r[2] == pytest.approx(400 * math.log10(2), abs=1e-5)


def test_bradley_terry_unbeaten_player_stays_finite_and_batches_agree():
    wins = np.array([[0.0, 5.0], [0.0, 0.0]])
    r = bradley_terry(wins)
    assert np.all(np.isfinite(r)) and r[0] > r[1]
    batch = bradley_terry(np.stack([wins, wins.T]))
    assert batch.shape == (2, 2)
    assert batch[0] == pytest.approx(r)
    assert batch[1] == pytest.approx(r[::-1])


def test_bootstrap_weights_resample_every_group_count():
    w = bootstrap_weights(7, 50, seed=3)
    assert w.shape == (50, 7)
    assert np.all(w.sum(axis=1) == 7)
    assert np.array_equal(w, bootstrap_weights(7, 50, seed=3))


def test_bootstrap_means_by_hand():
    sums = np.array([[2.0], [4.0], [9.0]])
    counts = np.array([[1.0], [1.0], [3.0]])
    weights = np.array([[1.0, 1.0, 1.0], [3.0, 0.0, 0.0], [0.0, 0.0, 3.0]])
    # ratios: (2+4+9)/(1+1+3) = 3, 6/3 = 2, 27/9 = 3
    low, high = bootstrap_means(sums, counts, weights, confidence=0.5)
    expected = np.quantile([3.0, 2.0, 3.0], [0.25, 0.75])
    assert low[0] == pytest.approx(expected[0])
    assert high[0] == pytest.approx(expected[1])


def test_percentile_interval():
    samples = np.arange(101, dtype=float)[:, None]
    low, high = percentile_interval(samples, 0.9)
    assert low[0] == pytest.approx(5.0)
    assert high[0] == pytest.approx(95.0)
