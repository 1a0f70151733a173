"""The sampling player: perfect-information Monte Carlo over the unseen stock.

At each decision it lists the chains of plays available now (the empty chain
included), deals ``samples`` random stock orders consistent with what it sees
(the multiset of unseen kinds, shuffled), and for each order and each chain solves
the position after the chain and the next draw exactly (``kernels.sweep``).  It
plays the chain with the best mean score (ties: the longer chain, then the first
found) and draws.  The score of a solved sample is its optimal strokes, minus
``WIN_FIRST`` if that is a win: winning more often comes first, strokes second.  Every chain is judged on the same sampled orders.
With the stock empty nothing is hidden, so it plays the exact solver's line.
No I/O; the shuffles come from the deal's key.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.chains import can_play, chain_moves, enumerate_chains
from golfstats.kernels.rng import below
from golfstats.kernels.search import search_no_stock
from golfstats.kernels.sweep import COLUMNS, sweep_any_time, sweep_when_stuck

DRAW = -1
CHAIN_LIMIT = 100_000
WIN_FIRST = 100.0


@nb.njit(cache=True, nogil=True)
def _solve(kt, exposed, heights, stock, top, kv, kb, moves):
    """Optimal (won, strokes, n_moves) of a golf position with a known stock."""
    if kt.when_stuck:
        r = sweep_when_stuck(exposed, heights, stock, top, kt.drawn, kt.accepts, kt.play_next,
                             kt.stride, stock.shape[0], False, kb, moves)
    else:
        r = sweep_any_time(exposed, heights, stock, top, kt.drawn, kt.play_next, kt.pull_src,
                           kt.pull_dst, kt.width, kt.stride, stock.shape[0], False, kv, moves)
    return r[0], r[1], r[3]


@nb.njit(cache=True, nogil=True)
def sampling_plan(samples, kt, exposed, heights, top, n_left, unseen, rng, kv, kb, plan):
    if n_left == 0:
        # nothing hidden: the exact line from here (plays only)
        if heights.shape[0] == COLUMNS:
            _, _, m = _solve(kt, exposed, heights, np.empty(0, np.int64), top, kv, kb, plan)
            return m
        r = search_no_stock(exposed, heights, top, kt.play_next, kt.play_next.shape[0], plan)
        return r[3]
    n, eh, et, el, parent, move = enumerate_chains(exposed, heights, top, kt.play_next, CHAIN_LIMIT)
    candidates = np.empty(n, np.int64)
    n_cand = 0
    for i in range(n):
        if kt.when_stuck and can_play(exposed, eh[i], et[i], kt.play_next):
            continue
        candidates[n_cand] = i
        n_cand += 1
    if n_cand == 0:
        return 0
    best_i = candidates[0]
    if n_cand > 1:
        pool = np.empty(n_left, np.int64)
        j = 0
        for r in range(16):
            for _ in range(unseen[r]):
                pool[j] = r
                j += 1
        totals = np.zeros(n_cand, np.float64)
        moves = np.empty(heights.sum() + n_left + 2, np.int64)
        for _ in range(samples):
            for a in range(n_left - 1, 0, -1):  # Fisher-Yates
                b = below(rng, a + 1)
                pool[a], pool[b] = pool[b], pool[a]
            drawn_top = kt.drawn[pool[0]]
            rest = pool[1:]
            for ci in range(n_cand):
                i = candidates[ci]
                if eh[i].sum() == 0:
                    totals[ci] += -n_left - WIN_FIRST
                else:
                    won, strokes, _ = _solve(kt, exposed, eh[i], rest, drawn_top, kv, kb, moves)
                    totals[ci] += strokes - (WIN_FIRST if won else 0.0)
        best = 1e300
        for ci in range(n_cand):
            i = candidates[ci]
            v = totals[ci]
            if v < best - 1e-9 or (v < best + 1e-9 and el[i] > el[best_i]):
                best = v
                best_i = i
    m = chain_moves(best_i, el, parent, move, plan)
    if eh[best_i].sum() > 0:
        plan[m] = DRAW
        m += 1
    return m
