"""The study's estimators of a mean (``golfstats.stats``): their 95% intervals cover the
truth 95% of the time on a population whose mean is known, stay within [0, 1], and are
computed as their documents say.

The population (``tests/populations.py``) is built like the study's: per deal a
clairvoyant share x (the fraction of random stock orders the exact solver wins) and an
honest chance of winning y with 0 <= y <= x, both 0 on the deals no order wins (Fact 1
of docs/honest-play.md), a lump of shares at 1, and y a noisy, non-linear function of x.
Repeated simple random samples are drawn from it and each interval is checked against
the population mean, which is known exactly.  Coverage under the study's sequential
stopping: tests/test_coverage.py.
"""

from __future__ import annotations

import itertools

import numpy as np
import polars as pl
import pytest
from populations import population

from golfstats.stats import (
    MIN_N,
    plain_mean,
    ratio_of_differences,
    regression_jackknife,
    regression_mean,
    regression_weights,
    t_quantile,
)


@pytest.mark.parametrize("n", [60])  # the study values at least 60 deals
def test_intervals_cover_the_known_mean(n):
    y, x = population()
    truth, x_mean = float(y.mean()), float(x.mean())
    rng = np.random.default_rng(7)
    reps = 1000
    covered = {"plain": 0, "regression t": 0, "regression bootstrap-t": 0, "regression union": 0}
    widths = dict.fromkeys(covered, 0.0)
    for _ in range(reps):
        pick = rng.choice(len(y), n, replace=False)
        yp, xp = y[pick], x[pick]
        for name, est in (("plain", plain_mean(yp)),
                          ("regression t", regression_mean(yp, xp, x_mean, interval="t")),
                          ("regression bootstrap-t", regression_mean(yp, xp, x_mean, interval="bootstrap-t",
                                                                     b=199)),
                          ("regression union", regression_mean(yp, xp, x_mean, b=199))):
            covered[name] += est.low <= truth <= est.high
            widths[name] += est.half_width / reps
    for name in covered:  # 95% nominal; 1000 repetitions give +/-1.4% (two standard errors)
        assert 0.93 <= covered[name] / reps <= 0.98, (name, covered[name] / reps)
    assert widths["regression t"] < 0.75 * widths["plain"]  # the covariate earns its keep


def test_regression_estimator_by_hand():
    y = np.array([0.0, 0.1, 0.3, 0.2, 0.6])
    x = np.array([0.0, 0.2, 0.5, 0.3, 0.9])
    est = regression_mean(y, x, x_mean=0.5, interval="t")
    b = np.cov(x, y)[0, 1] / np.var(x, ddof=1)
    assert est.mean == pytest.approx(y.mean() + b * (0.5 - x.mean()), abs=1e-15)
    left_out = []
    for i in range(5):
        yi, xi = np.delete(y, i), np.delete(x, i)
        bi = np.cov(xi, yi)[0, 1] / np.var(xi, ddof=1)
        left_out.append(yi.mean() + bi * (0.5 - xi.mean()))
    se = np.sqrt(4 / 5 * np.sum((np.array(left_out) - np.mean(left_out)) ** 2))
    half = 3.182446305284263 * se  # t(3) 97.5%
    assert (est.low, est.high) == pytest.approx((max(0, est.mean - half), est.mean + half), abs=1e-12)
    assert regression_jackknife(y, x, 0.5)[1] == pytest.approx(se, abs=1e-15)
    # the weights reproduce the estimate
    assert regression_weights(x, 0.5) @ y == pytest.approx(est.mean, abs=1e-15)
    flat = regression_mean(y, np.ones(5), x_mean=1.0, interval="t")  # a covariate that says nothing
    assert flat.mean == pytest.approx(y.mean(), abs=1e-15)
    assert list(regression_weights(np.ones(5), 1.0)) == [0.2] * 5


def test_bootstrap_t_by_hand():
    """The bootstrap-t interval is [mean - q_hi se, mean - q_lo se] over the resamples."""
    y, x = population(size=200, seed=3)
    est = regression_mean(y[:30], x[:30], 0.3, interval="bootstrap-t", b=199, seed=5)
    mean, se = regression_jackknife(y[:30], x[:30], 0.3)
    pick = np.random.default_rng(5).integers(0, 30, (199, 30))
    t = []
    for row in pick:
        m, s = regression_jackknife(y[:30][row], x[:30][row], 0.3)
        t.append((m - mean) / s)
    q_lo, q_hi = np.quantile(t, [0.025, 0.975])
    assert (est.low, est.high) == pytest.approx((max(0, mean - q_hi * se), min(1, mean - q_lo * se)),
                                                abs=1e-12)
    assert est.high - est.mean != pytest.approx(est.mean - est.low, abs=1e-6)  # asymmetric
    # the default takes each end from whichever of the two intervals reaches farther
    t = regression_mean(y[:30], x[:30], 0.3, interval="t")
    union = regression_mean(y[:30], x[:30], 0.3, b=199, seed=5)
    assert (union.low, union.high) == (min(t.low, est.low), max(t.high, est.high))
    assert union.mean == est.mean == t.mean


@pytest.mark.parametrize("n", [3, 40, 1000])
@pytest.mark.parametrize("shape", ["study", "all zero", "all one", "extreme"])
def test_intervals_stay_within_0_and_1(n, shape):
    """Every estimator's interval of a rate lies in [0, 1], at any n (a small study once
    printed [-1.0201, 1.1994])."""
    rng = np.random.default_rng(n)
    y, x = population(size=n, seed=n)
    if shape == "all zero":
        y = np.zeros(n)
    elif shape == "all one":
        y, x = np.ones(n), np.ones(n)
    elif shape == "extreme":  # a few deals at the ends, the covariate's mean far off
        y = (rng.random(n) < 0.5).astype(float)
        x = np.clip(y + rng.normal(0, 0.3, n), 0, 1)
    x_means = (0.0, 0.5, 1.0)
    estimates = [plain_mean(y)]
    for x_mean in x_means:
        estimates += [regression_mean(y, x, x_mean, interval=kind, b=199)
                      for kind in ("t", "bootstrap-t", "union")]
    for est in estimates:
        assert 0.0 <= est.low <= est.mean <= est.high <= 1.0, est
        assert est.calibrated == (n >= MIN_N)


def test_tiny_samples_are_refused():
    with pytest.raises(ValueError, match="at least 2"):
        plain_mean([0.5])
    with pytest.raises(ValueError, match="at least 3"):
        regression_mean([0.1, 0.2], [0.3, 0.4], 0.5)
    with pytest.raises(ValueError, match="unknown interval"):
        regression_mean([0.1, 0.2, 0.3], [0.3, 0.4, 0.5], 0.5, interval="normal")


@pytest.mark.parametrize("df", [1, 2, 5, 10, 30, 120])
def test_t_quantile(df):
    exact = {1: 12.706204736, 2: 4.302652730, 5: 2.570581836, 10: 2.228138852, 30: 2.042272456,
             120: 1.979930405}[df]
    assert t_quantile(df) == pytest.approx(exact, rel=1e-9)


def test_unresolved_deals_are_bracketed_by_0_and_1_with_the_weights():
    """An unresolved deal's win_p may be anything in [0, 1] (the sampled share is no bound),
    and a negative regression weight reverses which end lowers the estimate: every filling
    of the unknown values gives an estimate inside the reported interval, and the
    interval's ends are the intervals at the extreme fillings."""
    from golfstats.study.optimum import ESTIMATOR, estimate

    y, x = population(size=30, seed=11)
    exact_rate = 0.9  # far above the sample's mean share (0.25): some weights are negative
    w = regression_weights(x, exact_rate)
    negative, positive = int(np.argmin(w)), int(np.argmax(w))
    assert w[negative] < 0 < w[positive]
    unknown = [negative, positive]
    resolved = np.ones(30, bool)
    resolved[unknown] = False
    rows = pl.DataFrame({"deal_index": range(30), "win_p": np.where(resolved, y, np.nan), "share": x,
                         "resolved": resolved})
    regression, plain, count = estimate(rows, exact_rate)
    assert count == 2
    for fill in itertools.product((0.0, 0.25, 1.0), repeat=2):
        filled = y.copy()
        filled[unknown] = fill
        assert regression.low <= regression_mean(filled, x, exact_rate).mean <= regression.high
        assert plain.low <= filled.mean() <= plain.high
    lowest, highest = y.copy(), y.copy()
    lowest[unknown], highest[unknown] = (1.0, 0.0), (0.0, 1.0)  # by the signs of the weights
    assert regression.low == regression_mean(lowest, x, exact_rate, ESTIMATOR).low
    assert regression.high == regression_mean(highest, x, exact_rate, ESTIMATOR).high


def test_the_way_from_greedy_to_the_optimum_has_its_interval():
    r, low, high = ratio_of_differences(0.0845, 0.0062, 0.0083, 0.0001, 0.1315, 0.0101)
    assert r == pytest.approx((0.0845 - 0.0083) / (0.1315 - 0.0083))
    # by simulation: normal errors, the delta method's interval holds r about 95% of the time
    rng = np.random.default_rng(3)
    a = rng.normal(0.0845, 0.0062, 200_000)
    base = rng.normal(0.0083, 0.0001, 200_000)
    top = rng.normal(0.1315, 0.0101, 200_000)
    spread = np.std((a - base) / (top - base))
    assert (high - low) / (2 * 1.959963984540054) == pytest.approx(spread, rel=0.1)
    assert all(np.isnan(ratio_of_differences(0.1, 0.01, 0.2, 0.01, 0.2, 0.01)))
