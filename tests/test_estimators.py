"""The study's estimators of a mean (``golfstats.stats``): their 95% intervals cover the
truth 95% of the time on a population whose mean is known.

The population is built like the study's: per deal a clairvoyant share x (the fraction of
random stock orders the exact solver wins) and an honest chance of winning y with
0 <= y <= x, both 0 on the deals no order wins (Fact 1 of docs/honest-play.md), a lump of
shares at 1, and y a noisy, non-linear function of x.  Repeated simple random samples of
the study's sizes are drawn from it and each interval is checked against the population
mean, which is known exactly.
"""

from __future__ import annotations

import numpy as np
import pytest

from golfstats.stats import plain_mean, regression_mean, t_quantile


def _population(size: int = 20_000, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.beta(0.7, 1.6, size)
    x[rng.random(size) < 0.35] = 0.0  # no order wins
    x[rng.random(size) < 0.10] = 1.0  # every order wins
    y = x * rng.beta(2.0, 3.0, size) ** (1 - 0.5 * x)  # y <= x, both 0 together
    return y, x


@pytest.mark.parametrize("n", [40, 80])  # the study values at least 40 deals
def test_intervals_cover_the_known_mean(n):
    y, x = _population()
    truth, x_mean = float(y.mean()), float(x.mean())
    rng = np.random.default_rng(7)
    reps = 4000
    covered = {"plain": 0, "regression": 0}
    widths = {"plain": 0.0, "regression": 0.0}
    for _ in range(reps):
        pick = rng.choice(len(y), n, replace=False)
        for name, est in (("plain", plain_mean(y[pick])),
                          ("regression", regression_mean(y[pick], x[pick], x_mean))):
            covered[name] += est.low <= truth <= est.high
            widths[name] += est.half_width / reps
    for name in covered:  # 95% nominal; 4000 repetitions give +/-0.7% of sampling noise
        assert 0.93 <= covered[name] / reps <= 0.975, (name, covered[name] / reps)
    assert widths["regression"] < 0.75 * widths["plain"]  # the covariate earns its keep


def test_regression_estimator_by_hand():
    y = np.array([0.0, 0.1, 0.3, 0.2, 0.6])
    x = np.array([0.0, 0.2, 0.5, 0.3, 0.9])
    est = regression_mean(y, x, x_mean=0.5)
    b = np.cov(x, y)[0, 1] / np.var(x, ddof=1)
    assert est.mean == pytest.approx(y.mean() + b * (0.5 - x.mean()), abs=1e-15)
    left_out = []
    for i in range(5):
        yi, xi = np.delete(y, i), np.delete(x, i)
        bi = np.cov(xi, yi)[0, 1] / np.var(xi, ddof=1)
        left_out.append(yi.mean() + bi * (0.5 - xi.mean()))
    half = t_quantile(3) * np.sqrt(4 / 5 * np.sum((np.array(left_out) - np.mean(left_out)) ** 2))
    assert (est.low, est.high) == pytest.approx((est.mean - half, est.mean + half), abs=1e-14)
    flat = regression_mean(y, np.ones(5), x_mean=1.0)  # a covariate that says nothing
    assert (flat.mean, flat.low, flat.high) == pytest.approx(
        (plain_mean(y).mean, plain_mean(y).low, plain_mean(y).high), abs=1e-15)


@pytest.mark.parametrize("df, exact", [(5, 2.570582), (10, 2.228139), (30, 2.042272),
                                       (120, 1.979930)])
def test_t_quantile(df, exact):
    assert t_quantile(df) == pytest.approx(exact, rel=2e-3 if df < 10 else 1e-4)
