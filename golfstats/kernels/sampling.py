"""The sampling player: perfect-information Monte Carlo over the unseen stock.

At each decision it lists the chains of plays available now (the empty chain
included), deals ``samples`` random stock orders consistent with what it sees
(the multiset of unseen kinds, shuffled), and for each order and each chain solves
the position after the chain and the next draw exactly (``kernels.sweep``).  It
plays the chain with the best mean score (ties: the longer chain, then the first
found) and draws.  The score of a solved sample is its optimal strokes, minus
``WIN_FIRST`` if that is a win: winning more often comes first, strokes second.

Samples are spent by successive halving: all chains are scored on a few orders,
the better half on twice as many, and so on, so the leading chains get all
``samples`` orders while clearly worse ones stop early.  Every chain is judged on the same sampled orders.
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
def _orders(samples, n_left, unseen, rng):
    """``samples`` random orders of the unseen stock kinds (one per row)."""
    orders = np.empty((samples, n_left), np.int64)
    pool = np.empty(n_left, np.int64)
    j = 0
    for r in range(16):
        for _ in range(unseen[r]):
            pool[j] = r
            j += 1
    for s in range(samples):
        for a in range(n_left - 1, 0, -1):  # Fisher-Yates
            b = below(rng, a + 1)
            pool[a], pool[b] = pool[b], pool[a]
        orders[s] = pool
    return orders


@nb.njit(cache=True, nogil=True)
def _score(kt, exposed, heights, order, kv, kb, moves):
    """Win-first score of the position after drawing ``order[0]``, knowing the rest."""
    if heights.sum() == 0:
        return -float(order.shape[0]) - WIN_FIRST
    won, strokes, _ = _solve(kt, exposed, heights, order[1:], kt.drawn[order[0]], kv, kb, moves)
    return strokes - (WIN_FIRST if won else 0.0)


@nb.njit(cache=True, nogil=True)
def _halving(samples, kt, exposed, n_left, unseen, rng, kv, kb, candidates, eh, el):
    """The candidate chain with the best mean score, by successive halving: every
    candidate is scored on the first few sampled orders, the better half goes on to
    twice as many, and so on until one is left or the leaders have all ``samples``.
    All candidates are scored on the same orders (common random numbers)."""
    orders = _orders(samples, n_left, unseen, rng)
    moves = np.empty(exposed.shape[0] * exposed.shape[1] + n_left + 2, np.int64)
    n_cand = candidates.shape[0]
    totals = np.zeros(n_cand, np.float64)
    done = np.zeros(n_cand, np.int64)
    alive = np.ones(n_cand, np.bool_)
    n_alive = n_cand
    m = max(min(samples, 4), samples // 4)
    while True:
        for ci in range(n_cand):
            if alive[ci]:
                while done[ci] < m:
                    totals[ci] += _score(kt, exposed, eh[candidates[ci]], orders[done[ci]], kv, kb,
                                         moves)
                    done[ci] += 1
        if n_alive <= 1 or m >= samples:
            break
        keep = (n_alive + 1) // 2
        ranked = _rank(totals, done, alive, candidates, el)
        for r in range(keep, n_alive):
            alive[ranked[r]] = False
        n_alive = keep
        m = min(samples, 2 * m)
    return candidates[_rank(totals, done, alive, candidates, el)[0]]


@nb.njit(cache=True, nogil=True)
def _rank(totals, done, alive, candidates, el):
    """Alive candidates best first: lowest mean score, then the longer chain, then order."""
    idx = np.empty(alive.sum(), np.int64)
    n = 0
    for ci in range(alive.shape[0]):
        if alive[ci]:
            idx[n] = ci
            n += 1
    keys = np.empty(n, np.float64)
    for j in range(n):
        ci = idx[j]
        # mean score, then longer chain, then position: folded into one sortable key
        keys[j] = totals[ci] / done[ci] * 1e6 - el[candidates[ci]] * 1e-3 + j * 1e-9
    return idx[np.argsort(keys)]


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
        best_i = _halving(samples, kt, exposed, n_left, unseen, rng, kv, kb, candidates[:n_cand],
                          eh, el)
    m = chain_moves(best_i, el, parent, move, plan)
    if eh[best_i].sum() > 0:
        plan[m] = DRAW
        m += 1
    return m
