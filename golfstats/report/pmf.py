"""Distributions on whole strokes, and the round total of independent holes.

``Pmf`` is one distribution (``P(X = lo + k) = probs[k]``); ``Pmf.total(holes)`` is the
distribution of the sum of ``holes`` independent draws, by exact discrete convolution.
``round_medians`` does the same for many distributions at once (the rows of a matrix, as
a bootstrap makes them): the ``holes``-th power of each row's discrete Fourier transform,
which is the ``holes``-fold convolution up to float rounding (about 1e-15), and from it
each row's median and continuous median (``continuous_median``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: A cumulative probability counts as reaching q when it is within this of q (float sums).
_EPS = 1e-12


@dataclass(frozen=True)
class Pmf:
    """A distribution on whole strokes: ``P(X = lo + k) = probs[k]``."""

    lo: int
    probs: np.ndarray

    @classmethod
    def from_counts(cls, strokes, counts) -> Pmf:
        strokes = np.asarray(strokes, np.int64)
        counts = np.asarray(counts, np.float64)
        if strokes.size == 0 or counts.sum() <= 0:
            raise ValueError("an empty stroke distribution")
        lo, hi = int(strokes.min()), int(strokes.max())
        probs = np.zeros(hi - lo + 1)
        np.add.at(probs, strokes - lo, counts)
        return cls(lo, probs / probs.sum())

    @property
    def values(self) -> np.ndarray:
        return np.arange(self.lo, self.lo + self.probs.size)

    def __add__(self, other: Pmf) -> Pmf:
        """The distribution of the sum of independent draws from ``self`` and ``other``."""
        return Pmf(self.lo + other.lo, np.convolve(self.probs, other.probs))

    def total(self, holes: int) -> Pmf:
        """Sum of ``holes`` independent draws, by exact convolution (square-and-multiply)."""
        if holes < 1:
            raise ValueError("a round has at least one hole")
        result, power, k = None, self, holes
        while k:
            if k & 1:
                result = power if result is None else result + power
            k >>= 1
            if k:
                power = power + power
        return Pmf(result.lo, np.clip(result.probs, 0.0, None))

    def cdf(self, t: int) -> float:
        k = t - self.lo
        return 0.0 if k < 0 else float(self.probs[:k + 1].sum())

    def prob(self, lo: int | None, hi: int | None) -> float:
        """P(lo <= X <= hi), an open end for None."""
        v = self.values
        mask = np.ones(v.size, bool)
        if lo is not None:
            mask &= v >= lo
        if hi is not None:
            mask &= v <= hi
        return float(self.probs[mask].sum())

    def quantile(self, q: float) -> int:
        """Smallest value t with P(X <= t) >= q."""
        cum = np.cumsum(self.probs)
        return self.lo + int(np.searchsorted(cum, q - _EPS))

    @property
    def mean(self) -> float:
        return float((self.values * self.probs).sum())

    @property
    def sd(self) -> float:
        return float(np.sqrt(((self.values - self.mean) ** 2 * self.probs).sum()))

    @property
    def continuous_median(self) -> float:
        return float(continuous_median(self.probs[None, :], self.lo)[0])


def continuous_median(probs: np.ndarray, lo: int) -> np.ndarray:
    """Per row of ``probs`` (distributions on ``lo, lo+1, ...``), the median of the
    distribution with each whole value's mass spread evenly over [v - 1/2, v + 1/2]: a
    number that moves smoothly with the probabilities and rounds to the median ``t``
    (it lies in [t - 1/2, t + 1/2])."""
    cum = np.cumsum(probs, axis=1)
    k = np.argmax(cum >= 0.5 - _EPS, axis=1)
    rows = np.arange(probs.shape[0])
    below = np.where(k > 0, cum[rows, np.maximum(k - 1, 0)], 0.0)
    mass = np.maximum(probs[rows, k], 1e-300)
    return lo + k - 0.5 + np.clip((0.5 - below) / mass, 0.0, 1.0)


def round_medians(probs: np.ndarray, lo: int, holes: int) -> tuple[np.ndarray, np.ndarray]:
    """The median round total of ``holes`` independent holes for each row of ``probs``
    (per-hole distributions on ``lo, lo+1, ...``), and its continuous median: (int array,
    float array), by the ``holes``-th power of each row's discrete Fourier transform."""
    probs = np.asarray(probs, np.float64)
    size = holes * (probs.shape[1] - 1) + 1  # every round total: no wrap-around
    totals = np.fft.irfft(np.fft.rfft(probs, n=size, axis=1) ** holes, n=size, axis=1)
    totals = np.clip(totals, 0.0, None)
    totals /= totals.sum(axis=1, keepdims=True)
    cum = np.cumsum(totals, axis=1)
    median = holes * lo + np.argmax(cum >= 0.5 - _EPS, axis=1)
    return median.astype(np.int64), continuous_median(totals, holes * lo)
