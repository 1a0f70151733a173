"""The honest expectimax kernel (``docs/honest-play.md``) and the ``optimal`` play-out.

Goal strokes (``solve_strokes``): a forward pass lists every reachable state
(``kernels.honest_forward``), a backward pass values them layer by layer
(``kernels.honest_backward``), keeping the values of the blocks the actual stock order
will visit, for ``honest_play.play_strokes``.

Goal win (``solve_win``), in three parts:

1. W (``kernels.honest_wins``): for every height vector h and every drawn multiset D,
   whether some order of the stock left wins from a draw at h (Fact 1: exactly where
   p > 0).  A chain DP on bitsets over all D at once, height levels upwards.
2. The positive part (``honest_forward`` with ``restrict``, ``honest_winp``): only the
   positions some order wins from are listed, only the states with W set are drawn
   from, and their p is the chain DP with "best" the largest p.
3. The policy's values (``honest_policy``): p and e of the position, of each move and of
   every state the doc's rule reaches from them (the endpoints that compete: those with
   p within TOL of the best where the best exceeds TOL, else those with the fewest cards
   left), the nothing-to-win states included; exactly the rule ``honest_play.play_win`` applies.

Why the strokes pass computes the doc's value (M0 the stock multiset, n = |M0|, D drawn):

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
   where a draw is legal) under plays.  Every value read is of a listed position.
   Under goal win the same induction lists exactly the reachable positions some order
   wins from (a start or position left out has p = 0 at every endpoint), which is all
   the maximum of p needs (``honest_winp``).
4. Order.  Keys are ``cards_left << 21 | packed heights``.  A play lowers the level by
   one; within a level the packed code orders states like the dense code, and
   gp -> gp - (1 << 3c) is increasing, so the children through column c of a level's
   states come in increasing order (one cursor per column), and the states (h, D - r)
   of layer j - 1 come in the order of the states (h, D) of block D (one cursor per r).
5. Play-out information.  The values depend on the tableau, the top and M0 only; the
   stock order names which blocks to keep (it changes no value) and turns the next card.
   After k draws the policy reads only values of states with the k cards turned drawn,
   so its decision is the same for every order of the cards not yet turned.

Measured on PySol deals (strict, one contended core): W 2-6 s and 65-360 MB; the
positive part lists 0-84 M states (pass-through positions included; 0-37 M drawn from);
the policy's part values 1-21 M states at a few microseconds each (memory-latency
bound: a hash table keyed by (D, heights)).  Pooling the dead kinds (Fact 2) would
merge 7 % of the full space's states (13 % of the policy's nothing-to-win part of PySol
deal 1), so the blocks are kept unpooled.

The play-out is ``kernels.honest_play``.  No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.core import powers
from golfstats.kernels.honest_backward import backward
from golfstats.kernels.honest_forward import forward
from golfstats.kernels.honest_policy import (
    new_policy,
    policy_count,
    policy_failed,
    policy_value,
    position_value,
)
from golfstats.kernels.honest_space import BITS, COLUMNS, STROKES, d_codes, dense_of
from golfstats.kernels.honest_winp import win_backward
from golfstats.kernels.honest_wins import win_table


@nb.njit(cache=True, nogil=True)
def solve_strokes(kt, exposed, heights0, top0, m0, max_states, stock_order, mask_proto, flag):
    """Goal strokes: value the position (heights0, top0) with stock multiset ``m0``.

    Every reachable state is listed (forward) and valued (backward).  ``stock_order``
    (kinds, possibly empty) only names the blocks to keep for the play-out.
    ``mask_proto`` is a one-element array of the dtype of the per-state top sets (it must
    hold the ``n_tops`` bits and the drawable bit ``flag``).

    Returns ``(resolved, root, moves, path, stats)``: ``path = (path_lo, path_keys,
    path_val)`` for ``play_strokes``, ``stats`` as ``solve_win``'s.
    """
    pw, full, g_size = powers(heights0)
    pwd, size, order, layer_start = d_codes(m0)
    n = layer_start.shape[0] - 2
    mark = np.zeros(g_size, mask_proto.dtype)
    keys = np.empty(max_states, np.int32)
    masks = np.empty(max_states, mask_proto.dtype)
    ok, n_states, layer_lo, blk_lo, blk_hi, positions = forward(
        kt, exposed, heights0, top0, m0, pwd, order, layer_start, pw, mark, keys, masks, flag,
        max_states, False, np.zeros((1, 1), np.uint64))
    stats = np.zeros(10, np.int64)
    stats[0] = n_states
    stats[1] = positions
    stats[3] = n_states * (4 + mask_proto.itemsize)
    path_d = np.full(n + 1, -1, np.int64)
    path_d[0] = 0
    for k in range(min(n, stock_order.shape[0])):
        path_d[k + 1] = path_d[k] + pwd[stock_order[k]]
    if not ok:
        return (False, np.full(2, np.nan), (np.full(COLUMNS + 1, np.nan), np.full(COLUMNS + 1, np.nan)),
                (np.zeros((n + 1, 2), np.int64), np.zeros(0, np.int64), np.zeros(0, np.float64)),
                stats)
    root, moves, path_lo, path_keys, path_val, lookups, peak_values, positive = backward(
        kt, exposed, top0, m0, pwd, order, layer_start, STROKES, keys, masks, flag, layer_lo,
        blk_lo, blk_hi, path_d)
    stats[2] = lookups
    stats[4] = peak_values * 8
    stats[5] = positive
    return True, root, moves, (path_lo, path_keys, path_val), stats


@nb.njit(cache=True, nogil=True)
def solve_win(kt, exposed, heights0, top0, m0, max_states, mask_proto, flag):
    """Goal win: value the position (heights0, top0) with stock multiset ``m0``.

    1. W (``honest_wins``): which (heights, drawn) states some stock order still wins.
    2. The forward pass lists the positions some order wins from, reachable from the
       position (``honest_forward``, restrict); pass 1 (``honest_winp``) gives their p.
    3. Pass 2 (``honest_policy``) values the position, each legal move and everything
       the policy reaches from them by the doc's rule: (p, e) exactly.
    The budget ``max_states`` bounds the listed states plus the states pass 2 values.

    Returns ``(resolved, root, moves, sol, pt, stats)``: ``sol`` and ``pt`` are what
    ``play_win`` needs; ``stats = [listed states, positions, lookups, state_bytes,
    value_bytes, positive, policy_states, win_bytes, win_rows, policy_bytes]``.
    """
    pw, full, g_size = powers(heights0)
    pwd, size, order, layer_start = d_codes(m0)
    n = layer_start.shape[0] - 2
    wt, wstats = win_table(kt, exposed, heights0, m0, pwd, size)
    mark = np.zeros(g_size, mask_proto.dtype)
    keys = np.empty(max_states, np.int32)
    masks = np.empty(max_states, mask_proto.dtype)
    ok, n_states, layer_lo, blk_lo, blk_hi, positions = forward(
        kt, exposed, heights0, top0, m0, pwd, order, layer_start, pw, mark, keys, masks, flag,
        max_states, True, wt)
    stats = np.zeros(10, np.int64)
    stats[0] = n_states
    stats[1] = positions
    stats[3] = n_states * (4 + mask_proto.itemsize)
    stats[7] = wstats[1]
    stats[8] = wstats[0]
    root = np.full(2, np.nan)
    moves = np.full(COLUMNS + 1, np.nan), np.full(COLUMNS + 1, np.nan)
    pvals = np.zeros(max(n_states, 1), np.float64)
    sol = (keys, masks, flag, blk_lo, blk_hi, pvals, wt)
    pt = new_policy(g_size, max(max_states - n_states, 0))
    if not ok:
        return False, root, moves, sol, pt, stats
    lookups, positive = win_backward(kt, exposed, m0, pwd, order, layer_start, keys, masks, flag,
                                     layer_lo, blk_lo, blk_hi, pvals)
    stats[2] = lookups
    stats[4] = n_states * 8
    stats[5] = positive
    gp0 = 0
    for c in range(COLUMNS):
        gp0 |= heights0[c] << (BITS * c)
    root[0], root[1], pt = position_value(pt, kt, exposed, heights0, pw, m0, pwd, n, sol, gp0,
                                          top0, 0, 0)
    mp, me = moves
    for c in range(COLUMNS):
        h = heights0[c]
        if h == 0 or kt.play_next[top0, exposed[c, h]] < 0:
            continue
        mp[c], me[c], pt = position_value(pt, kt, exposed, heights0, pw, m0, pwd, n, sol,
                                          gp0 - (np.int64(1) << (BITS * c)),
                                          kt.play_next[top0, exposed[c, h]], 0, 0)
    stuck = True
    for c in range(COLUMNS):
        if heights0[c] and kt.play_next[top0, exposed[c, heights0[c]]] >= 0:
            stuck = False
    if n > 0 and gp0 != 0 and (stuck or not kt.when_stuck):
        mp[COLUMNS], me[COLUMNS], pt = policy_value(pt, kt, exposed, heights0, pw, m0, pwd, n,
                                                    sol, dense_of(gp0, pw), 0, 0)
    stats[6] = policy_count(pt)
    stats[9] = pt[0].shape[0] * 24 + pt[3].shape[0] * 8 + pt[4].shape[0] * 8
    if policy_failed(pt) == 2:
        raise RuntimeError("honest kernel: a listed value is missing (internal error)")
    return policy_failed(pt) == 0, root, moves, sol, pt, stats
