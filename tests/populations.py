"""A population of deals shaped like the study's (tests of the honest optimum's estimators)."""

from __future__ import annotations

import numpy as np


def population(size: int = 20_000, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """A population shaped like the study's: per deal a clairvoyant share x and an honest
    chance y <= x, both 0 together on a lump of deals, a lump of shares at 1."""
    rng = np.random.default_rng(seed)
    x = rng.beta(0.7, 1.6, size)
    x[rng.random(size) < 0.35] = 0.0  # no order wins
    x[rng.random(size) < 0.10] = 1.0  # every order wins
    y = x * rng.beta(2.0, 3.0, size) ** (1 - 0.5 * x)
    return y, x
