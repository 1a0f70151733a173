"""A counter-based generator for the kernels: every random draw is a pure function of
the 63-bit key a deal was given in Python (``deals.seeded_deals``) and a counter.

SplitMix64 (Steele, Lea and Flood, 2014): the state is ``key + n * golden gamma``
and each output is its 64-bit finaliser.  No global state anywhere.
"""

from __future__ import annotations

import numba as nb
import numpy as np

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@nb.njit(cache=True, nogil=True)
def new_state(key):
    """A one-element state array for ``key``."""
    state = np.empty(1, np.uint64)
    state[0] = np.uint64(key)
    return state


@nb.njit(cache=True, nogil=True)
def next_u64(state):
    state[0] += _GAMMA
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@nb.njit(cache=True, nogil=True)
def below(state, n):
    """A uniform integer in ``[0, n)`` (n >= 1), by rejection so there is no modulo bias."""
    un = np.uint64(n)
    limit = np.uint64(0xFFFFFFFFFFFFFFFF) - (np.uint64(0xFFFFFFFFFFFFFFFF) % un)
    while True:
        z = next_u64(state)
        if z < limit:
            return np.int64(z % un)
