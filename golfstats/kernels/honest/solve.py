"""The honest expectimax's compiled entries: goal strokes (``solve_strokes``: every
reachable state listed, ``forward``, and valued, ``backward``) and the win-strokes policy's
values at a position and after each move (``policy_values``).  Goal win's passes are
sequenced in Python by ``golfstats.honest.solve``.  See ``docs/honest-play.md`` for the
value and the proofs.  No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.core import powers
from golfstats.kernels.honest import inputs, policy
from golfstats.kernels.honest.backward import backward
from golfstats.kernels.honest.forward import forward
from golfstats.kernels.honest.space import (
    BITS,
    COLUMNS,
    STROKES,
    d_codes,
    dense_of,
    packed_of,
    popcount,
)


@nb.njit(cache=True, nogil=True)
def solve_strokes(kt, exposed, heights0, top0, m0, max_states, max_bytes, stock_orders,
                  mask_proto, flag):
    """Goal strokes: value the position (heights0, top0) with stock multiset ``m0``.

    Every reachable state is listed (forward) and valued (backward).  ``stock_orders``
    (K x n kinds in draw order, K possibly 0) only names the blocks to keep for the
    play-outs: every block one of the orders visits (one table serves them all).
    ``mask_proto`` is a one-element array of the dtype of the per-state top sets (it must
    hold the ``n_tops`` bits and the drawable bit ``flag``).  The listing stops at
    ``max_states``; once it is whole, the backward pass's bytes are known exactly
    (``strokes_bytes``) and a position whose listing and values exceed ``max_bytes`` is
    refused before the pass.

    Returns ``(resolved, root, moves, path, stats)``: ``path`` (``inputs.KeptPath``) for
    ``play_strokes``, ``stats`` an ``inputs.StrokesStats`` (``listed``: whether the listing
    was whole; ``value_bytes`` what the pass allocates, ``strokes_bytes``, also where
    refused).
    """
    pw, full, g_size = powers(heights0)
    pwd, size, order, layer_start = d_codes(m0)
    n = layer_start.shape[0] - 2
    mark = np.zeros(g_size, mask_proto.dtype)
    keys = np.empty(max_states, np.int32)
    masks = np.empty(max_states, mask_proto.dtype)
    position = inputs.Root(kt, exposed, heights0, top0, m0)
    ok, n_states, layer_lo, blk_lo, blk_hi, positions = forward(
        position, pw, pwd, order, layer_start, mark, keys, masks, flag, max_states)
    state_bytes = n_states * (4 + mask_proto.itemsize)
    path_slot = np.full(size, -1, np.int64)
    slots = 0
    for o in range(stock_orders.shape[0]):
        d = 0
        for k in range(min(n, stock_orders.shape[1]) + 1):
            if path_slot[d] < 0:
                path_slot[d] = slots
                slots += 1
            if k < min(n, stock_orders.shape[1]):
                d += pwd[stock_orders[o, k]]
    flag_bit = np.int64(1) << flag
    need = strokes_bytes(n, layer_lo, blk_lo, blk_hi, masks, flag_bit, path_slot) if ok else 0
    if not ok or state_bytes + need > max_bytes:
        return (False, np.full(2, np.nan), (np.full(COLUMNS + 1, np.nan), np.full(COLUMNS + 1, np.nan)),
                inputs.KeptPath(pwd, path_slot, np.zeros((0, 2), np.int64), np.zeros(0, np.int64),
                                np.zeros(0, np.float64)),
                inputs.StrokesStats(n_states, positions, np.int64(0), state_bytes, need,
                                    np.int64(0), ok))
    listing = inputs.Listing(keys, masks, flag_bit, layer_lo, blk_lo, blk_hi)
    root, moves, path_lo, path_keys, path_val, lookups, _, positive = backward(
        position, pwd, order, layer_start, STROKES, listing, path_slot)
    return (True, root, moves, inputs.KeptPath(pwd, path_slot, path_lo, path_keys, path_val),
            inputs.StrokesStats(n_states, positions, lookups, state_bytes, need, positive, True))


@nb.njit(cache=True, nogil=True)
def strokes_bytes(n, layer_lo, blk_lo, blk_hi, masks, flag_bit, path_slot):
    """The bytes ``backward`` allocates beside the listing: its two layers of values (p, e)
    alive at once, the largest block's scratch (two offsets a state, four floats a position
    at most) and the kept blocks' states (a key and (p, e) each)."""
    pair = 0
    for j in range(n + 1):
        below = layer_lo[j] - layer_lo[j - 1] if j > 0 else 0
        pair = max(pair, layer_lo[j + 1] - layer_lo[j] + below)
    scratch = 0
    kept = 0
    for d in range(blk_lo.shape[0]):
        lo = blk_lo[d]
        if lo < 0:
            continue
        reached = 0
        for t in range(lo, blk_hi[d]):
            reached += popcount(np.int64(masks[t]) & ~flag_bit)
        scratch = max(scratch, 16 * (blk_hi[d] - lo + 1) + 32 * reached)
        if path_slot[d] >= 0:
            kept += blk_hi[d] - lo
    return 16 * pair + scratch + 24 * kept


@nb.njit(cache=True, nogil=True)
def policy_values(kt, exposed, heights0, top0, m0, sol, max_states, max_bytes, pooled=True):
    """The policy's (p, e) at the position, after each legal play and after a draw (the
    doc's rule, ``policy``), from the chances ``sol``.  Returns ``(ok, root, moves_p,
    moves_e, pt, states valued)``.  ``max_bytes``, ``pooled``: ``policy.new_policy``'s."""
    pw, full, g_size = powers(heights0)
    pwd, size, order, layer_start = d_codes(m0)
    n = layer_start.shape[0] - 2
    pt = policy.new_policy(kt, exposed, heights0, m0, max_states, max_bytes, pooled)
    gp0 = packed_of(heights0)
    position = inputs.Root(kt, exposed, heights0, top0, m0)
    root = np.full(2, np.nan)
    mp = np.full(COLUMNS + 1, np.nan)
    me = np.full(COLUMNS + 1, np.nan)
    root[0], root[1], pt = policy.position_value(pt, position, pw, pwd, n, sol, gp0, top0, 0, 0)
    for c in range(COLUMNS):
        h = heights0[c]
        if h == 0 or kt.play_next[top0, exposed[c, h]] < 0:
            continue
        mp[c], me[c], pt = policy.position_value(pt, position, pw, pwd, n, sol,
                                                 gp0 - (np.int64(1) << (BITS * c)),
                                                 kt.play_next[top0, exposed[c, h]], 0, 0)
    stuck = True
    for c in range(COLUMNS):
        if heights0[c] and kt.play_next[top0, exposed[c, heights0[c]]] >= 0:
            stuck = False
    if n > 0 and gp0 != 0 and (stuck or not kt.when_stuck):
        mp[COLUMNS], me[COLUMNS], pt = policy.policy_value(pt, position, pw, pwd, n, sol,
                                                           dense_of(gp0, pw), 0, 0)
    return policy.policy_failed(pt) == 0, root, mp, me, pt, policy.policy_count(pt)
