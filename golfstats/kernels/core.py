"""Small compiled functions every kernel shares: card kinds, plays, mixed-radix heights.

A tableau state is its vector of column heights ``h``; ``exposed[c, h]`` is the kind of
column c's exposed card when it holds h cards (``NO_CARD`` at h = 0).  A state is
numbered by the mixed-radix code ``sum(h[c] * pw[c])`` with radix ``heights0[c] + 1``,
so playing from column c subtracts ``pw[c]`` and codes of states reachable from
``heights0`` run from 0 (cleared) to ``full``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.cards import kind
from golfstats.kernels.constants import NO_CARD

#: Kind of a card id: 1..13 for a rank, 0 for a joker (``golfstats.cards.kind``, compiled).
card_kind = nb.njit(cache=True, nogil=True, inline="always")(kind)


@nb.njit(cache=True, nogil=True, inline="always")
def can_play(play_next, exposed, heights, top):
    """Is any exposed card playable on ``top``?"""
    for c in range(heights.shape[0]):
        h = heights[c]
        if h > 0 and play_next[top, exposed[c, h]] >= 0:
            return True
    return False


@nb.njit(cache=True, nogil=True)
def powers(heights):
    """``(pw, full, size)``: the place value of each column, the code of ``heights``
    and the number of codes (``prod(heights + 1)``)."""
    n = heights.shape[0]
    pw = np.empty(n, np.int64)
    p = 1
    full = 0
    for c in range(n):
        pw[c] = p
        full += heights[c] * p
        p *= heights[c] + 1
    return pw, full, p


@nb.njit(cache=True, nogil=True)
def height_code(heights, radix):
    """Code of ``heights`` with one radix for every column (``radix`` > max height)."""
    code = 0
    p = 1
    for c in range(heights.shape[0]):
        code += heights[c] * p
        p *= radix
    return code


@nb.njit(cache=True, nogil=True)
def decode(code, heights0, out):
    """The heights of ``code`` (radix ``heights0 + 1``) into ``out``."""
    for c in range(heights0.shape[0]):
        r = heights0[c] + 1
        out[c] = code % r
        code //= r


@nb.njit(cache=True, nogil=True, inline="always")
def step_down(dig, heights0):
    """Mixed-radix decrement: ``dig`` becomes the heights of (its code - 1)."""
    c = 0
    while dig[c] == 0:
        dig[c] = heights0[c]
        c += 1
    dig[c] -= 1


@nb.njit(cache=True, nogil=True)
def reverse(moves, n):
    """Reverse ``moves[:n]`` in place."""
    for i in range(n // 2):
        moves[i], moves[n - 1 - i] = moves[n - 1 - i], moves[i]


_ = NO_CARD  # re-exported for kernels that build exposed arrays
