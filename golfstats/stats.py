"""Small statistics shared by simulate, the reports and the study.

Every interval of a rate (a win rate, a mean chance of winning) lies within [0, 1]: the
estimators clip their ends there.  Quantiles of Student's t come from scipy.stats.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054
#: The fewest values an estimator's interval is calibrated for: the coverage of the study's
#: interval is checked from here up (benchmarks/bench_coverage.py, tests/test_coverage.py),
#: and the study values at least this many deals.  Below it ``plain_mean`` and
#: ``regression_mean`` still answer (from 2 and 3 values: a smoke study's) but mark the
#: estimate ``calibrated = False``, and the study says so wherever it prints one (its
#: progress line and the README's estimator table).
MIN_N = 60
#: Resamples of the bootstrap-t interval, and the seed of its generator (fixed, so that a
#: figure is the same on every run and machine).
BOOTSTRAP_B = 999
BOOTSTRAP_SEED = 2026


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95% by default).

    Returns (low, high); (0, 1) when n == 0.  Preferred over the normal
    approximation because it stays inside [0, 1] and is accurate near 0 and 1,
    where some variants' win rates sit.
    """
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def t_quantile(df: int, level: float = 0.95) -> float:
    """The two-sided ``level`` quantile of Student's t with ``df`` degrees of freedom
    (scipy.stats.t: 12.706 at 1 df, 1.960 in the limit)."""
    if df < 1:
        raise ValueError("t needs at least one degree of freedom")
    from scipy.stats import t

    return float(t.ppf(0.5 + level / 2, df))


@dataclass(frozen=True)
class MeanEstimate:
    """An estimate of a population mean with its 95% interval (``estimator`` says how),
    clipped to [0, 1]; ``calibrated`` is False below ``MIN_N`` values."""

    estimator: str
    n: int
    mean: float
    low: float
    high: float

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    @property
    def calibrated(self) -> bool:
        return self.n >= MIN_N


def _clipped(label: str, n: int, mean: float, low: float, high: float) -> MeanEstimate:
    """A rate's estimate with its interval clipped to [0, 1] (the mean too, which only a
    covariate's extrapolation can push outside)."""
    def clip(v: float) -> float:
        return min(max(float(v), 0.0), 1.0)

    return MeanEstimate(label, n, clip(mean), clip(low), clip(high))


def plain_mean(y) -> MeanEstimate:
    """The sample mean of values in [0, 1] with its t interval (s / sqrt(n), n - 1
    degrees of freedom), clipped to [0, 1]."""
    y = np.asarray(y, float)
    n = len(y)
    if n < 2:
        raise ValueError("a mean's interval needs at least 2 values")
    half = t_quantile(n - 1) * float(np.std(y, ddof=1)) / math.sqrt(n)
    mean = float(y.mean())
    return _clipped("plain mean", n, mean, mean - half, mean + half)


def regression_mean(y, x, x_mean: float, label: str = "regression", interval: str = "union",
                    b: int = BOOTSTRAP_B, seed: int = BOOTSTRAP_SEED) -> MeanEstimate:
    """The regression (control-variate) estimator of the mean of ``y`` (values in [0, 1])
    with a covariate ``x`` whose population mean ``x_mean`` is known (Cochran, Sampling
    Techniques, 7.1):

        mean = ybar + b (x_mean - xbar),   b = s_xy / s_xx,

    studentized by its jackknife standard error, se^2 = (n - 1) / n * sum_i (mean_(i) -
    mean_(.))^2, mean_(i) the estimate without value i.  Its 95% interval (clipped to
    [0, 1]) is, with ``interval``:

    - ``"t"``: mean +/- t(n - 2) se.
    - ``"bootstrap-t"``: [mean - q_hi se, mean - q_lo se], q_lo and q_hi the 2.5% and
      97.5% quantiles of (mean* - mean) / se* over ``b`` resamples of the n pairs (a
      generator seeded by ``seed``): asymmetric where the population is skewed.
    - ``"union"`` (the default): each end the farther of the two intervals' ends.  On the
      study's populations (a lump of deals nobody wins, a few nearly sure ones, win_p
      convex in the share) the t interval misses low up to twice as often as it says
      where win_p is rare (strict), the bootstrap-t where it is common (putt-putt); under
      the study's sequential stopping neither alone keeps both tails within 3%, and the
      union does (benchmarks/README.md, "Coverage of the optimum's interval").

    Assumes a simple random sample; ``x_mean`` is taken as exact (its own error is left
    out of the interval).  When x does not vary, the slope is 0 and it is the plain mean."""
    y, x = np.asarray(y, float), np.asarray(x, float)
    n = len(y)
    if n < 3 or len(x) != n:
        raise ValueError("the regression estimator needs at least 3 (y, x) pairs")
    mean, se = (float(v) for v in regression_jackknife(y, x, x_mean))
    if interval == "t":
        half = t_quantile(n - 2) * se
        return _clipped(label, n, mean, mean - half, mean + half)
    if interval not in ("bootstrap-t", "union"):
        raise ValueError(f"unknown interval {interval!r} (t, bootstrap-t or union)")
    pick = np.random.default_rng(seed).integers(0, n, (b, n))
    q_lo, q_hi = bootstrap_t_quantiles(y[pick], x[pick], x_mean, mean)
    low, high = mean - q_hi * se, mean - q_lo * se
    if interval == "union":
        half = t_quantile(n - 2) * se
        low, high = min(low, mean - half), max(high, mean + half)
    return _clipped(label, n, mean, low, high)


def regression_jackknife(y, x, x_mean: float) -> tuple[np.ndarray, np.ndarray]:
    """The regression estimate and its jackknife standard error of each sample along the
    last axis of ``y`` and ``x`` (arrays of shape (..., n)): vectorised, O(n) a sample."""
    y, x = np.asarray(y, float), np.asarray(x, float)
    n = y.shape[-1]
    sy, sx, sxy, sxx = y.sum(-1), x.sum(-1), (y * x).sum(-1), (x * x).sum(-1)
    mean = _regression(n, sy, sx, sxy, sxx, x_mean)
    left_out = _regression(n - 1, sy[..., None] - y, sx[..., None] - x, sxy[..., None] - y * x,
                           sxx[..., None] - x * x, x_mean)
    spread = left_out - left_out.mean(-1, keepdims=True)
    return mean, np.sqrt((n - 1) / n * np.sum(spread * spread, -1))


def bootstrap_t_quantiles(y_star, x_star, x_mean: float, mean, level: float = 0.95
                          ) -> tuple[np.ndarray, np.ndarray]:
    """The (1 - level) / 2 and (1 + level) / 2 quantiles of the studentized statistic
    (mean* - mean) / se* over resamples along the second-to-last axis (``y_star``,
    ``x_star`` of shape (..., b, n); ``mean`` of shape (...)).  A resample with se* = 0
    (every pair alike) counts as 0 when its estimate equals ``mean`` and as +/-inf
    otherwise, so the quantiles stay conservative."""
    est, se = regression_jackknife(y_star, x_star, x_mean)
    diff = est - np.asarray(mean)[..., None]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(se > 0, diff / np.where(se > 0, se, 1.0),
                     np.where(np.abs(diff) <= 1e-15, 0.0, np.copysign(np.inf, diff)))
    with np.errstate(invalid="ignore"):  # inf - inf between two infinite resamples: nan
        lo, hi = np.quantile(t, [(1 - level) / 2, (1 + level) / 2], axis=-1, method="linear")
    return np.nan_to_num(lo, nan=-np.inf), np.nan_to_num(hi, nan=np.inf)


def regression_weights(x, x_mean: float) -> np.ndarray:
    """The weight of each value in the regression estimate: mean = sum_i w_i y_i with
    w_i = 1/n + (x_mean - xbar) (x_i - xbar) / s_xx (all 1/n when x does not vary).  A
    weight can be negative, so the estimate's extremes over unknown values y_i in
    [lo_i, hi_i] put y_i at lo_i or hi_i by the sign of w_i."""
    x = np.asarray(x, float)
    n = len(x)
    dx = x - x.mean()
    cxx = float(dx @ dx)
    if cxx <= 1e-12 * float(x @ x):
        return np.full(n, 1.0 / n)
    return 1.0 / n + (x_mean - x.mean()) * dx / cxx


def ratio_of_differences(a: float, se_a: float, base: float, se_base: float, top: float,
                         se_top: float, z: float = Z95) -> tuple[float, float, float]:
    """(a - base) / (top - base) with its delta-method 95% interval, the three estimates
    independent but for ``base``, which is in both differences (its covariance is kept):
    how far ``a`` lies from ``base`` towards ``top``.  NaN ends when top == base."""
    den = top - base
    if den == 0:
        return math.nan, math.nan, math.nan
    r = (a - base) / den
    # d r / d a = 1/den, d r / d top = -r/den, d r / d base = (r - 1)/den
    var = (se_a ** 2 + (r * se_top) ** 2 + ((r - 1) * se_base) ** 2) / den ** 2
    half = z * math.sqrt(var)
    return r, r - half, r + half


def _regression(n, sy, sx, sxy, sxx, x_mean):
    """The regression estimate from the sums of n pairs (arrays of sums: one each)."""
    cxx = np.asarray(sxx - sx * sx / n, float)
    slope = np.divide(sxy - sx * sy / n, cxx, out=np.zeros_like(cxx), where=cxx > 1e-12 * sxx)
    return sy / n + slope * (x_mean - sx / n)
