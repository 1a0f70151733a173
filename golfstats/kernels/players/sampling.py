"""The sampling player: perfect-information Monte Carlo over the unseen stock.

At each decision it lists the chains of plays available now (the empty chain
included; the skeleton ``chains.chain_candidates`` / ``chain_plan``), deals
``samples`` random stock orders consistent with what it sees (the multiset of unseen
kinds, shuffled), and for each order and each chain solves the position after the
chain and the next draw exactly (``kernels.solve``).  It plays the chain with the
best mean score (ties: the longer chain, then the first found) and draws.  The score
of a solved sample is its optimal strokes, minus ``WIN_FIRST`` if that is a win:
winning more often comes first, strokes second.

Samples are spent by successive halving: all chains are scored on a few orders,
the better half on twice as many, and so on, so the leading chains get all
``samples`` orders while clearly worse ones stop early.  Every chain is judged on the
same sampled orders.  With the stock empty nothing is hidden, so it plays the exact
solver's line.  No I/O; the shuffles come from the deal's key (``kernels.players.rng``).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.constants import KIND_SLOTS, STOCKLESS_MAX_STATES, TRUNCATED
from golfstats.kernels.golf.chains import chain_candidates, chain_plan, enumerate_chains
from golfstats.kernels.players.rng import below
from golfstats.kernels.solve import solve_position

WIN_FIRST = 100.0


@nb.njit(cache=True, nogil=True)
def solved_plan(kt, exposed, heights, stock, top, kv, kb, plan):
    """The exact solver's line from a position whose stock is known (empty, when a player
    calls it: nothing is hidden).  Returns ``(length, truncated)``."""
    r = solve_position(kt, exposed, heights, stock, top, stock.shape[0], False,
                       STOCKLESS_MAX_STATES, kv, kb, plan)
    return r[4], r[0] == TRUNCATED


@nb.njit(cache=True, nogil=True, inline="always")
def solved_line(params, kt, exposed, heights, top, n_left, unseen, rng, kv, kb, plan):
    """Lookahead in a game without a stock (the play-out's contract, ``players.playout``):
    nothing is hidden and the hand is one chain, so the best plan is the exact solver's
    line.  A plan function of its own, so that lookahead in golf never compiles the
    stockless search."""
    return solved_plan(kt, exposed, heights, np.empty(0, np.int64), top, kv, kb, plan)


@nb.njit(cache=True, nogil=True)
def _orders(samples, n_left, unseen, rng):
    """``samples`` random orders of the unseen stock kinds (one per row)."""
    orders = np.empty((samples, n_left), np.int64)
    pool = np.empty(n_left, np.int64)
    j = 0
    for r in range(KIND_SLOTS):
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
    r = solve_position(kt, exposed, heights, order[1:], kt.drawn[order[0]], order.shape[0] - 1,
                       False, STOCKLESS_MAX_STATES, kv, kb, moves)
    return r[2] - (WIN_FIRST if r[1] else 0.0)


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
def _before(a, b, totals, done, candidates, el):
    """Does candidate ``a`` rank before ``b``: lower mean score, then the longer chain,
    then the one found first (compared one key after the other, never folded into one
    float, where the last keys would be lost to rounding)."""
    mean_a = totals[a] / done[a]
    mean_b = totals[b] / done[b]
    if mean_a != mean_b:
        return mean_a < mean_b
    len_a = el[candidates[a]]
    len_b = el[candidates[b]]
    if len_a != len_b:
        return len_a > len_b
    return a < b


@nb.njit(cache=True, nogil=True)
def _rank(totals, done, alive, candidates, el):
    """Alive candidates best first (insertion sort by ``_before``: a stable, total order)."""
    idx = np.empty(alive.sum(), np.int64)
    n = 0
    for ci in range(alive.shape[0]):
        if alive[ci]:
            j = n
            while j > 0 and _before(ci, idx[j - 1], totals, done, candidates, el):
                idx[j] = idx[j - 1]
                j -= 1
            idx[j] = ci
            n += 1
    return idx


@nb.njit(cache=True, nogil=True)
def sampling_plan(params, kt, exposed, heights, top, n_left, unseen, rng, kv, kb, plan):
    """The sampling player's plan (the play-out's contract, ``players.playout``):
    ``params[0]`` samples; returns ``(length, truncated)``."""
    samples = params[0]
    if n_left == 0:  # nothing hidden: the exact line from here (plays only)
        return solved_plan(kt, exposed, heights, np.empty(0, np.int64), top, kv, kb, plan)
    n, eh, et, el, parent, move = enumerate_chains(kt, exposed, heights, top)
    candidates, n_cand = chain_candidates(kt, exposed, eh, et, n, n_left)
    if n_cand == 0:
        return 0, False
    best_i = candidates[0]
    if n_cand > 1:
        best_i = _halving(samples, kt, exposed, n_left, unseen, rng, kv, kb, candidates[:n_cand],
                          eh, el)
    return chain_plan(best_i, eh, el, parent, move, n_left, plan), False
