"""The ``optimal`` play-out: the actual deal played with the values of ``kernels.honest``.

At the start and after every draw the player lists the chain endpoints a draw may follow
(``chains.enumerate_chains``, ``chain_candidates``), values each, picks one by the doc's
rule on the set (ties last: the first in enumeration order), plays the chain and draws.
An unresolved deal is played by the registry's fallback (``golfstats.honest.optimal``).
No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.constants import DRAW
from golfstats.kernels.core import powers
from golfstats.kernels.golf.chains import chain_candidates, chain_moves, enumerate_chains
from golfstats.kernels.honest.inputs import Root
from golfstats.kernels.honest.policy import p_of, policy_value
from golfstats.kernels.honest.space import (
    COLUMNS,
    LEVEL_SHIFT,
    STOCK_KINDS,
    STROKES,
    TOL,
    d_codes,
    find_key,
    state_key,
)


@nb.njit(cache=True, nogil=True)
def _kept_value(path_slot, path_lo, path_keys, path_val, d, key):
    """V of the state ``key`` with the stock kinds of D-code d drawn (NaN if not kept)."""
    if key & ((np.int64(1) << LEVEL_SHIFT) - 1) == 0 or path_slot[d] < 0:
        return np.nan, np.nan
    s = path_slot[d]
    i = find_key(path_keys, path_lo[s, 0], path_lo[s, 1], key)
    if i < 0:
        return np.nan, np.nan
    return path_val[2 * i], path_val[2 * i + 1]


@nb.njit(cache=True, nogil=True)
def play_strokes(kt, exposed, heights0, top0, stock, path, moves_out):
    """Play the deal (stock in draw order, kinds) with the values of ``solve_strokes``.

    At the start and after every draw it plays the chain to the endpoint with the
    smallest e (within TOL), then the largest p, then the fewest cards, then the first
    in ``chains.enumerate_chains`` order, and draws.  ``path`` must hold the blocks this
    order visits (``solve_strokes``'s ``stock_orders``).  Returns ``(status, won, strokes,
    n_moves)``; status 1 is a value missing from the kept blocks (an internal error).
    """
    pwd, path_slot, path_lo, path_keys, path_val = path
    n = stock.shape[0]
    heights = heights0.copy()
    top = top0
    k = 0
    d = 0
    n_moves = 0
    plan = np.empty(64, np.int64)
    while True:
        chains = enumerate_chains(kt, exposed, heights, top)
        n_end, ends_h, ends_top = chains[0], chains[1], chains[2]
        cands, n_c = chain_candidates(kt, exposed, ends_h, ends_top, n_end, n - k)
        vp = np.zeros(n_c)
        ve = np.zeros(n_c)
        left = np.zeros(n_c, np.int64)
        for ci in range(n_c):
            i = cands[ci]
            for c in range(COLUMNS):
                left[ci] += ends_h[i, c]
            if left[ci] == 0:
                vp[ci], ve[ci] = 1.0, -float(n - k)
            elif k == n:
                vp[ci], ve[ci] = 0.0, float(left[ci])
            else:
                vp[ci], ve[ci] = _kept_value(path_slot, path_lo, path_keys, path_val, d,
                                             state_key(ends_h[i]))
                if np.isnan(vp[ci]):
                    return 1, False, 0, n_moves
        pick = _pick(STROKES, vp, ve, left, n_c)
        k, n_moves, heights, top, over, won, strokes = _advance(
            kt, stock, cands[pick], left[pick], chains, plan, moves_out, n_moves, k)
        if over:
            return 0, won, strokes, n_moves
        d += pwd[stock[k - 1]]


@nb.njit(cache=True, nogil=True)
def play_win(kt, exposed, heights0, top0, stock, sol, pt, moves_out):
    """Play the deal (stock in draw order, kinds) with the values of ``honest.solve.solve_win``.

    At the start and after every draw it lists the chain endpoints a draw may follow
    (``chains.enumerate_chains``, ``chain_candidates``), gives each its p (1 cleared, 0 out
    of stock or where W is 0, else the listed p) and applies the doc's rule on the set:
    p* the best p; if p* > TOL the endpoints with p >= p* - TOL, the smallest e (within
    TOL), then the fewest cards; otherwise the fewest cards, then the smallest e; last the
    first in enumeration order.  The e of the competing endpoints are the policy's
    (``honest_policy``, memoised in ``pt``).  Returns ``(status, won, strokes, n_moves)``;
    status 1 is a value that could not be found (an internal error or the budget).
    """
    n = stock.shape[0]
    m0 = np.zeros(STOCK_KINDS, np.int64)
    for i in range(n):
        m0[stock[i]] += 1
    pw, full, g_size = powers(heights0)
    pwd, size, order, layer_start = d_codes(m0)
    position = Root(kt, exposed, heights0, top0, m0)
    heights = heights0.copy()
    top = top0
    k = 0
    d = 0
    n_moves = 0
    plan = np.empty(64, np.int64)
    while True:
        chains = enumerate_chains(kt, exposed, heights, top)
        n_end, ends_h, ends_top = chains[0], chains[1], chains[2]
        cands, n_c = chain_candidates(kt, exposed, ends_h, ends_top, n_end, n - k)
        vp, left, dense, best_p = _endpoint_p(sol, pw, ends_h, cands, n_c, d, k, n)
        ve = np.full(n_c, np.inf)
        least = 1 << 30
        for ci in range(n_c):
            least = min(least, left[ci])
        for ci in range(n_c):  # the competing endpoints' own values
            if (vp[ci] >= best_p - TOL) if best_p > TOL else (left[ci] == least):
                if left[ci] == 0:
                    vp[ci], ve[ci] = 1.0, -float(n - k)
                elif k == n:
                    vp[ci], ve[ci] = 0.0, float(left[ci])
                else:
                    vp[ci], ve[ci], pt = policy_value(pt, position, pw, pwd, n, sol, dense[ci], d,
                                                      k)
                    if np.isnan(vp[ci]):
                        return 1, False, 0, n_moves
            else:
                vp[ci] = -1.0  # not competing
        pick = _pick_win(best_p, vp, ve, left, n_c)
        k, n_moves, heights, top, over, won, strokes = _advance(
            kt, stock, cands[pick], left[pick], chains, plan, moves_out, n_moves, k)
        if over:
            return 0, won, strokes, n_moves
        d += pwd[stock[k - 1]]


@nb.njit(cache=True, nogil=True)
def _endpoint_p(sol, pw, ends_h, cands, n_c, d, k, n):
    """p of each candidate endpoint (1 cleared, 0 out of stock, else the state's p), its
    cards left and dense code, and the best p."""
    vp = np.zeros(n_c)
    left = np.zeros(n_c, np.int64)
    dense = np.zeros(n_c, np.int64)
    best_p = -1.0
    for ci in range(n_c):
        i = cands[ci]
        for c in range(COLUMNS):
            left[ci] += ends_h[i, c]
            dense[ci] += ends_h[i, c] * pw[c]
        if left[ci] == 0:
            vp[ci] = 1.0
        elif k < n:
            vp[ci] = p_of(sol, dense[ci], d)
        best_p = max(best_p, vp[ci])
    return vp, left, dense, best_p


@nb.njit(cache=True, nogil=True)
def play_winp(kt, exposed, heights0, top0, stock, sol, moves_out):
    """Play the deal (stock in draw order, kinds) with the chances of winning alone (goal
    win without the expected strokes): at the start and after every draw, the chain to
    the endpoint with the largest p (within TOL), then the fewest cards left, then the
    first in ``chains.enumerate_chains`` order.  ``sol`` need hold only the blocks the
    stock order visits.  Returns ``(won, strokes, n_moves)``."""
    n = stock.shape[0]
    pw, full, g_size = powers(heights0)
    m0 = np.zeros(STOCK_KINDS, np.int64)
    for i in range(n):
        m0[stock[i]] += 1
    pwd, size, order, layer_start = d_codes(m0)
    heights = heights0.copy()
    top = top0
    k = 0
    d = 0
    n_moves = 0
    plan = np.empty(64, np.int64)
    while True:
        chains = enumerate_chains(kt, exposed, heights, top)
        n_end, ends_h, ends_top = chains[0], chains[1], chains[2]
        cands, n_c = chain_candidates(kt, exposed, ends_h, ends_top, n_end, n - k)
        vp, left, dense, best_p = _endpoint_p(sol, pw, ends_h, cands, n_c, d, k, n)
        pick = -1
        for ci in range(n_c):
            if vp[ci] >= best_p - TOL and (pick < 0 or left[ci] < left[pick]):
                pick = ci
        k, n_moves, heights, top, over, won, strokes = _advance(
            kt, stock, cands[pick], left[pick], chains, plan, moves_out, n_moves, k)
        if over:
            return won, strokes, n_moves
        d += pwd[stock[k - 1]]


@nb.njit(cache=True, nogil=True)
def _advance(kt, stock, best, bl, chains, plan, moves_out, n_moves, k):
    """Play the chain to endpoint ``best`` (``bl`` cards left there; ``chains`` as
    ``chains.enumerate_chains`` gives them) and draw, unless the hand is over.  Returns
    ``(k, n_moves, heights, top, over, won, strokes)``."""
    _, ends_h, ends_top, ends_len, parent, move = chains
    n = stock.shape[0]
    m = chain_moves(best, ends_len, parent, move, plan)
    for t in range(m):
        moves_out[n_moves] = plan[t]
        n_moves += 1
    heights = ends_h[best].copy()
    top = ends_top[best]
    if bl == 0:
        return k, n_moves, heights, top, True, True, -(n - k)
    if k == n:
        return k, n_moves, heights, top, True, False, bl
    moves_out[n_moves] = DRAW
    return k + 1, n_moves + 1, heights, kt.drawn[stock[k]], False, False, 0


@nb.njit(cache=True, nogil=True)
def _pick_win(best_p, vp, ve, left, n_c):
    """Goal win on the competing candidates (vp >= 0): if best_p > TOL the smallest e
    (within TOL), then the fewest cards; else (all with the fewest cards) the smallest e;
    then the first."""
    best_e = np.inf
    for ci in range(n_c):
        if vp[ci] >= 0:
            best_e = min(best_e, ve[ci])
    least = 1 << 30
    for ci in range(n_c):
        if vp[ci] >= 0 and ve[ci] <= best_e + TOL:
            least = min(least, left[ci])
    for ci in range(n_c):
        if vp[ci] >= 0 and ve[ci] <= best_e + TOL and left[ci] == least:
            return ci
    return -1


@nb.njit(cache=True, nogil=True)
def _pick(goal, vp, ve, left, n_c):
    """Goal strokes: the smallest e (within TOL), then the largest p, then the fewest cards,
    then the first."""
    best_e = np.inf
    for ci in range(n_c):
        best_e = min(best_e, ve[ci])
    best_p = -1.0
    for ci in range(n_c):
        if ve[ci] <= best_e + TOL:
            best_p = max(best_p, vp[ci])
    least = 1 << 30
    for ci in range(n_c):
        if ve[ci] <= best_e + TOL and vp[ci] >= best_p - TOL:
            least = min(least, left[ci])
    for ci in range(n_c):
        if ve[ci] <= best_e + TOL and vp[ci] >= best_p - TOL and left[ci] == least:
            return ci
    return -1
