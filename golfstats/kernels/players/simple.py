"""The two players who look one move ahead: random and greedy.

Each is a plan function of the play-out's contract (``kernels.players.playout``): the
visible position in, a plan and ``(length, truncated)`` out.  No I/O; random's draws come
from the deal's key (``kernels.players.rng``).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.constants import DRAW
from golfstats.kernels.players.rng import below


@nb.njit(cache=True, nogil=True, inline="always")
def random_plan(params, kt, exposed, heights, top, n_left, unseen, rng, kv, kb, plan):
    """A uniformly random legal move."""
    ncols = heights.shape[0]
    options = np.empty(ncols + 1, np.int64)
    n = 0
    for c in range(ncols):
        h = heights[c]
        if h > 0 and kt.play_next[top, exposed[c, h]] >= 0:
            options[n] = c
            n += 1
    if n_left > 0 and (n == 0 or not kt.when_stuck):
        options[n] = DRAW
        n += 1
    if n == 0:
        return 0, False
    plan[0] = options[below(rng, n)]
    return 1, False


@nb.njit(cache=True, nogil=True, inline="always")
def greedy_plan(params, kt, exposed, heights, top, n_left, unseen, rng, kv, kb, plan):
    """Play whenever possible, else draw.  Tie-break: the tallest column, then the
    leftmost (uncovering the deepest column first)."""
    best = -1
    for c in range(heights.shape[0]):
        h = heights[c]
        if h > 0 and kt.play_next[top, exposed[c, h]] >= 0 and (best < 0 or h > heights[best]):
            best = c
    if best >= 0:
        plan[0] = best
        return 1, False
    if n_left > 0:
        plan[0] = DRAW
        return 1, False
    return 0, False
