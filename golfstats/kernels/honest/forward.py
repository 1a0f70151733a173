"""Forward pass of the honest expectimax: every state reachable from the position.

Layer by layer in |D| and, within a layer, D-code by D-code, it lists the *block* of
D: the positions (h, t) reachable with exactly D drawn.  A block's positions are the
closure under plays of its *starts*: the position itself (block D = {} of layer 0),
or, for every kind r in D and every state (h, D - r) of layer j - 1 where a draw is
legal, the position (h, drawn(r)).  Every position reached is a state a player may
stop at and draw from under draw any-time; under when-stuck only where its top
accepts no exposed card, so each stored state carries that flag.

Output (all states of all layers, layer after layer, blocks in code order, keys
increasing within a block): ``keys[i]`` the state key (``honest.space``), ``masks[i]`` the set of
tops reached there (bit ``flag`` set when a draw is legal from the state),
``blk_lo[d], blk_hi[d]`` the block of D-code d (-1 if empty), and the layer bounds.
The scratch array ``mark`` (over dense codes) is left zero.

It is the state space of goal strokes (``honest.backward``), which needs every reachable
state; goal win lists far fewer (``honest.reach``).  No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.honest.space import (
    BITS,
    COLUMNS,
    DIGIT,
    LEVEL_SHIFT,
    PACKED,
    STOCK_KINDS,
    after_bits,
    dense_of,
    exposed_bits,
    play_groups,
    popcount,
)

LEVELS = 36  # cards left 0..35


@nb.njit(cache=True, nogil=True, inline="always")
def _drawable(kt, exposed, gp, mask):
    """May a player stop at heights ``gp`` (reached with the tops in ``mask``) and draw?"""
    if gp == 0:
        return False  # the tableau is clear: the hand is won
    if not kt.when_stuck:
        return True
    seen = exposed_bits(gp, exposed)
    t = 0
    while mask:
        if mask & 1 and kt.accepts[t] & seen == 0:
            return True
        mask >>= 1
        t += 1
    return False


@nb.njit(cache=True, nogil=True)
def _level_offsets(heights0):
    """``off[k]``: how many height vectors below ``heights0`` hold fewer than k cards, so
    that a level's states fit in ``lvl[off[k]:off[k + 1]]`` whatever the block."""
    count = np.zeros(LEVELS + 1, np.int64)
    count[0] = 1
    for c in range(COLUMNS):  # polynomial product: cards in the first c columns
        nxt = np.zeros(LEVELS + 1, np.int64)
        for k in range(LEVELS + 1):
            if count[k]:
                for h in range(heights0[c] + 1):
                    if k + h <= LEVELS:
                        nxt[k + h] += count[k]
        count = nxt
    off = np.zeros(LEVELS + 2, np.int64)
    for k in range(LEVELS + 1):
        off[k + 1] = off[k] + count[k]
    return off


@nb.njit(cache=True, nogil=True)
def forward(root, pw, pwd, order, layer_start, mark, keys, masks, flag, max_states):
    """Fill ``keys``/``masks`` (capacity = their length) with every state reachable from
    the position ``root`` (``inputs``).

    Returns ``(ok, n_states, layer_lo, blk_lo, blk_hi, positions)``; ``ok`` is False when
    the states would exceed ``max_states`` (or the arrays), and nothing else is valid
    then.  ``positions`` counts (heights, top) pairs reached, for the record.

    A block's closure runs level by level, from the most cards left down: a state is
    expanded once, with every top it is reached with (``mark[g]``, a bit set), and each
    column is tried once for all of them.
    """
    kt, exposed, heights0, top0, m0 = root
    n = layer_start.shape[0] - 2
    size = order.shape[0]
    blk_lo = np.full(size, -1, np.int64)
    blk_hi = np.full(size, -1, np.int64)
    layer_lo = np.zeros(n + 2, np.int64)
    cap = min(max_states, keys.shape[0])
    play_next = kt.play_next
    acc_of, after_of = play_groups(play_next)
    full_gp = 0
    full_g = 0
    top_level = 0
    for c in range(COLUMNS):
        full_gp |= heights0[c] << (BITS * c)
        full_g += heights0[c] * pw[c]
        top_level += heights0[c]
    lvl_off = _level_offsets(heights0)
    lvl = np.empty(lvl_off[LEVELS + 1], np.int64)  # level k: lvl[lvl_off[k]:lvl_off[k] + lvl_n[k]]
    lvl_n = np.zeros(LEVELS, np.int64)
    n_states = 0
    positions = 0
    flag_bit = np.int64(1) << flag
    for j in range(n + 1):
        layer_lo[j] = n_states
        for oi in range(layer_start[j], layer_start[j + 1]):
            d = order[oi]
            lvl_n[:] = 0
            if j == 0:
                mark[full_g] = np.int64(1) << top0
                lvl[lvl_off[top_level]] = (full_g << LEVEL_SHIFT) | full_gp
                lvl_n[top_level] = 1
            else:
                for r in range(STOCK_KINDS):
                    if (d // pwd[r]) % (m0[r] + 1) == 0:
                        continue
                    dm = d - pwd[r]
                    lo = blk_lo[dm]
                    if lo < 0:
                        continue
                    bu = np.int64(1) << kt.drawn[r]
                    for i in range(lo, blk_hi[dm]):
                        if np.int64(masks[i]) & flag_bit == 0:
                            continue
                        key = np.int64(keys[i])
                        gp = key & PACKED
                        g = dense_of(gp, pw)
                        m = np.int64(mark[g])
                        if m == 0:
                            k = key >> LEVEL_SHIFT
                            lvl[lvl_off[k] + lvl_n[k]] = (g << LEVEL_SHIFT) | gp
                            lvl_n[k] += 1
                        mark[g] = m | bu
            for k in range(top_level, 0, -1):
                for t in range(lvl_off[k], lvl_off[k] + lvl_n[k]):
                    e = lvl[t]
                    g = e >> LEVEL_SHIFT
                    gp = e & PACKED
                    m = np.int64(mark[g])
                    positions += popcount(m)
                    for c in range(COLUMNS):
                        hc = (gp >> (BITS * c)) & DIGIT
                        if hc == 0:
                            continue
                        bits = after_bits(play_next, acc_of, after_of, m, exposed[c, hc])
                        if bits:
                            g2 = g - pw[c]
                            m2 = np.int64(mark[g2])
                            if m2 == 0:
                                lvl[lvl_off[k - 1] + lvl_n[k - 1]] = (
                                    (g2 << LEVEL_SHIFT) | (gp - (np.int64(1) << (BITS * c))))
                                lvl_n[k - 1] += 1
                            mark[g2] = m2 | bits
            positions += lvl_n[0]
            total = 0
            for k in range(top_level + 1):
                total += lvl_n[k]
            if total == 0:
                for k in range(top_level + 1):
                    for t in range(lvl_off[k], lvl_off[k] + lvl_n[k]):
                        mark[lvl[t] >> LEVEL_SHIFT] = 0
                continue
            if n_states + total > cap:
                for k in range(top_level + 1):
                    for t in range(lvl_off[k], lvl_off[k] + lvl_n[k]):
                        mark[lvl[t] >> LEVEL_SHIFT] = 0
                return False, n_states, layer_lo, blk_lo, blk_hi, positions
            blk_lo[d] = n_states
            last = j == n
            for k in range(top_level + 1):
                if lvl_n[k] == 0:
                    continue
                seg = lvl[lvl_off[k]:lvl_off[k] + lvl_n[k]]
                seg.sort()
                for t in range(seg.shape[0]):
                    g = seg[t] >> LEVEL_SHIFT
                    gp = seg[t] & PACKED
                    m = np.int64(mark[g])
                    mark[g] = 0
                    if not last and _drawable(kt, exposed, gp, m):
                        m |= flag_bit
                    keys[n_states] = (k << LEVEL_SHIFT) | gp
                    masks[n_states] = m
                    n_states += 1
            blk_hi[d] = n_states
    layer_lo[n + 1] = n_states
    return True, n_states, layer_lo, blk_lo, blk_hi, positions
