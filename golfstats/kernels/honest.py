"""The honest expectimax kernel (``docs/honest-play.md``) and the ``optimal`` play-out.

``solve_position`` values a golf position for a player who sees everything but the
stock order: a forward pass lists every reachable state (``kernels.honest_forward``),
a backward pass values them layer by layer (``kernels.honest_backward``).  It reports
the value of the position, of each legal move, and keeps the values of the blocks the
actual stock order will visit, for ``play_line``.  A state budget that is hit returns
``resolved = False`` and no value (the forward pass stops before anything is valued).

Why this computes the doc's value (M0 the stock multiset, n = |M0|, D the drawn part):

1. Organised around draws (the doc's second form): V(h, D) = sum_r P(r | D) *
   best over Reach(h, drawn(r)) of W(., D + r), P(r | D) = (M0[r] - D[r]) / (n - |D|),
   and the position's value is the best W over Reach(h0, t0) with D = {}.
2. Chain DP.  A chain from (h, t) is empty or starts with a play of an exposed card
   x_c that t accepts, so Reach(h, t) = {(h, t)} + the union over those c of
   Reach(h - e_c, t after x_c).  The best over a union is the best of the bests, so
   B(h, t) = best(W(h), B(h - e_c, t after x_c) for those c) is the best over Reach(h, t);
   under when-stuck an endpoint may draw only where t accepts no exposed card, so W
   enters only there (a cleared tableau accepts nothing: it always enters).  A play
   removes a card, so the recursion ends; it is evaluated children first because a
   block is visited by increasing (cards left, heights).
3. Completeness.  By induction on |D| and on the cards played since the last draw, the
   block of D lists exactly the positions (h, t) reachable with D drawn: the closure of
   its starts (the position itself for D = {}; (h, drawn(r)) for every state (h, D - r)
   where a draw is legal) under plays.  Every value read is of a listed position: B
   reads its children (listed by closure), V(h, D) reads B(h, drawn(r), D + r) (a start
   of block D + r).  So the values are exact, and none is computed for an unreachable
   state.
4. Order.  Keys are ``cards_left << 21 | packed heights``.  A play lowers the level by
   one; within a level the packed code orders states like the dense code, and
   gp -> gp - (1 << 3c) is increasing, so the children through column c of a level's
   states come in increasing order (one cursor per column), and the states (h, D - r)
   of layer j - 1 come in the order of the states (h, D) of block D (one cursor per r).
5. Play-out information.  The values depend on the tableau, the top and M0 only; the
   stock order names which blocks to keep (it changes no value) and turns the next card.
   After k draws the policy reads only the block of the k cards turned, so its decision
   is the same for every order of the cards not yet turned.

The doc's Facts 1-4 are proven there and tested (``tests/test_honest_kernel.py``); the
kernel does not rely on them.  Measured on PySol deal 1 (strict, 40.9 M states): pooling
the dead kinds (Fact 2) would merge only 7 % of the states (pooling every pair of kinds
that play alike on the cards left, 7 % as well), so the blocks are kept unpooled; and
under goal win the e tie-break needs e at every state with p = 0 (for a deal no order
wins, all of them), so the W-bitset cut (Fact 1) would not shrink the work either.

``play_line`` plays the actual deal with those values: at the start and after every
draw it plays the chain whose endpoint has the best value (ties: fewest cards left, then
the first in ``chains.enumerate_chains`` order) and draws.  ``play_greedy`` is the
documented fallback for an unresolved deal.  No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.chains import chain_candidates, chain_moves, enumerate_chains
from golfstats.kernels.constants import DRAW
from golfstats.kernels.core import powers
from golfstats.kernels.honest_backward import backward
from golfstats.kernels.honest_forward import forward
from golfstats.kernels.honest_space import COLUMNS, better, d_codes, find_key, state_key


@nb.njit(cache=True, nogil=True)
def solve_position(kt, exposed, heights0, top0, m0, goal, max_states, stock_order, mask_proto,
                   flag):
    """Value the position (heights0, top0) with stock multiset ``m0`` (per kind).

    ``stock_order`` (kinds, possibly empty) only names the blocks to keep for the
    play-out.  ``mask_proto`` is a one-element array of the dtype of the per-state top
    sets (it must hold the ``n_tops`` bits and the drawable bit ``flag``).

    Returns ``(resolved, root, moves, path_lo, path_keys, path_val, stats)`` with
    ``stats = [states, positions, lookups, state_bytes, value_bytes, positive]`` (see
    ``honest_forward.forward`` and ``honest_backward.backward``).
    """
    pw, full, g_size = powers(heights0)
    pwd, size, order, layer_start = d_codes(m0)
    n = layer_start.shape[0] - 2
    mark = np.zeros(g_size, mask_proto.dtype)
    keys = np.empty(max_states, np.int32)
    masks = np.empty(max_states, mask_proto.dtype)
    ok, n_states, layer_lo, blk_lo, blk_hi, positions = forward(
        kt, exposed, heights0, top0, m0, pwd, order, layer_start, pw, mark, keys, masks, flag,
        max_states)
    stats = np.zeros(6, np.int64)
    stats[0] = n_states
    stats[1] = positions
    stats[3] = n_states * (4 + mask_proto.itemsize)
    path_d = np.full(n + 1, -1, np.int64)
    path_d[0] = 0
    for k in range(min(n, stock_order.shape[0])):
        path_d[k + 1] = path_d[k] + pwd[stock_order[k]]
    if not ok:
        return (False, np.full(2, np.nan), (np.full(COLUMNS + 1, np.nan), np.full(COLUMNS + 1, np.nan)),
                np.zeros((n + 1, 2), np.int64), np.zeros(0, np.int64), np.zeros(0, np.float64), stats)
    root, moves, path_lo, path_keys, path_val, lookups, peak_values, positive = backward(
        kt, exposed, top0, m0, pwd, order, layer_start, goal, keys, masks, flag, layer_lo,
        blk_lo, blk_hi, path_d)
    stats[2] = lookups
    stats[4] = peak_values * 8
    stats[5] = positive
    return True, root, moves, path_lo, path_keys, path_val, stats


@nb.njit(cache=True, nogil=True)
def _state_value(path_lo, path_keys, path_val, k, key, n):
    """W of the state ``key`` with the first k stock cards drawn (NaN if not kept)."""
    if key == 0:
        return 1.0, -float(n - k)
    i = find_key(path_keys, path_lo[k, 0], path_lo[k, 1], key)
    if i < 0:
        return np.nan, np.nan
    return path_val[2 * i], path_val[2 * i + 1]


@nb.njit(cache=True, nogil=True)
def play_line(kt, exposed, heights0, top0, stock, goal, path_lo, path_keys, path_val, moves_out):
    """Play the deal (stock in draw order, kinds) with the kept values.

    Returns ``(status, won, strokes, n_moves)``; status 0 is a finished hand, 1 a value
    missing from the kept blocks (an internal error).
    """
    n = stock.shape[0]
    heights = heights0.copy()
    top = top0
    k = 0
    n_moves = 0
    plan = np.empty(64, np.int64)
    while True:
        n_end, ends_h, ends_top, ends_len, parent, move = enumerate_chains(kt, exposed, heights, top)
        cands, n_c = chain_candidates(kt, exposed, ends_h, ends_top, n_end, n - k)
        best = -1
        bp, be, bl = 0.0, 0.0, 0
        for ci in range(n_c):
            i = cands[ci]
            left = 0
            for c in range(COLUMNS):
                left += ends_h[i, c]
            if k == n and left > 0:
                vp, ve = 0.0, float(left)
            else:
                vp, ve = _state_value(path_lo, path_keys, path_val, k, state_key(ends_h[i]), n)
                if np.isnan(vp):
                    return 1, False, 0, n_moves
            if best < 0 or better(goal, vp, ve, bp, be) or (
                    not better(goal, bp, be, vp, ve) and left < bl):
                best, bp, be, bl = i, vp, ve, left
        m = chain_moves(best, ends_len, parent, move, plan)
        for t in range(m):
            moves_out[n_moves] = plan[t]
            n_moves += 1
        heights[:] = ends_h[best]
        top = ends_top[best]
        if bl == 0:
            return 0, True, -(n - k), n_moves
        if k == n:
            return 0, False, bl, n_moves
        moves_out[n_moves] = DRAW
        n_moves += 1
        top = kt.drawn[stock[k]]
        k += 1


@nb.njit(cache=True, nogil=True)
def play_greedy(kt, exposed, heights0, top0, stock, moves_out):
    """Fallback player of an unresolved deal: play whenever possible (the tallest column
    first, then the leftmost), else draw.  Returns ``(won, strokes, n_moves)``."""
    n = stock.shape[0]
    heights = heights0.copy()
    top = top0
    k = 0
    n_moves = 0
    while True:
        left = 0
        best = -1
        for c in range(COLUMNS):
            h = heights[c]
            left += h
            if h > 0 and kt.play_next[top, exposed[c, h]] >= 0 and (best < 0 or h > heights[best]):
                best = c
        if left == 0:
            return True, -(n - k), n_moves
        if best >= 0:
            top = kt.play_next[top, exposed[best, heights[best]]]
            heights[best] -= 1
            moves_out[n_moves] = best
        elif k < n:
            top = kt.drawn[stock[k]]
            k += 1
            moves_out[n_moves] = DRAW
        else:
            return False, left, n_moves
        n_moves += 1

