"""Goal win, pass 1: the win probability p of every state some stock order still wins.

The forward pass under goal win (``honest_forward.forward`` with ``restrict``) lists,
per block D, only the positions some order still wins from (W, ``honest_wins``), and
flags the states with W set (those that are drawn from).  This pass values them, p
only, by the chain DP of ``honest_backward`` with "best" the largest p:

    P(h, t) = max of ( p(h, D)               [the state may draw there and is flagged]
                       1                     [h is the cleared tableau]
                       P(h - e_c, t after x_c)  for the listed children )
    p(h, D) = sum over r of P(r | D) * P(h, drawn(r)) in block D + r (0 if not listed).

Why the maximum is the policy's p.  A position or start left out has p = 0 at every
endpoint (Fact 1), and is worth 0 here; so P is the largest p over all chain endpoints.
The doc's rule picks, where that largest p* exceeds TOL, an endpoint with p >= p* - TOL,
so the policy's p is p* up to TOL (genuinely different values differ by far more); where
p* <= TOL it may pick another endpoint, with p <= TOL as well.  The values the policy
reports (p and e) are computed exactly along its own choices by ``honest_policy``,
which reads these p only to see which endpoints compete.

Output: ``pvals[i]`` for every flagged state i (0 elsewhere) and the p of the position.
No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.honest_space import (
    BITS,
    COLUMNS,
    DIGIT,
    LEVEL_SHIFT,
    PACKED,
    draw_sources,
    find_key,
    play_groups,
    popcount,
    rank_in,
)


@nb.njit(cache=True, nogil=True)
def win_backward(kt, exposed, m0, pwd, order, layer_start, keys, masks, flag, layer_lo, blk_lo,
                 blk_hi, pvals):
    """Fill ``pvals`` (one slot per listed state) with p of every flagged state.

    Returns ``(lookups, positive)``: the chain-DP and draw look-ups, and the states with
    p > 0 (every flagged state, by Fact 1).
    """
    n = layer_start.shape[0] - 2
    flag_bit = np.int64(1) << flag
    acc_of, after_of = play_groups(kt.play_next)
    pvals[:layer_lo[n + 1]] = 0.0
    pos_off = np.zeros(1025, np.int64)
    bp = np.empty(1024, np.float64)
    lookups = 0
    for j in range(n, -1, -1):
        for oi in range(layer_start[j], layer_start[j + 1]):
            d = order[oi]
            lo = blk_lo[d]
            if lo < 0:
                continue
            size = blk_hi[d] - lo
            if size + 1 > pos_off.shape[0]:
                pos_off = np.zeros(2 * (size + 1), np.int64)
            for t in range(size):
                pos_off[t + 1] = pos_off[t] + popcount(np.int64(masks[lo + t]) & ~flag_bit)
            if pos_off[size] > bp.shape[0]:
                bp = np.empty(2 * pos_off[size], np.float64)
            lookups += _block_p(kt, exposed, acc_of, after_of, keys, masks, flag_bit, lo, size,
                                pvals, pos_off, bp)
            if j > 0:
                lookups += _scatter_p(kt, keys, masks, flag_bit, m0, pwd, d, lo, size, n, j,
                                      blk_lo, blk_hi, pos_off, bp, pvals)
    positive = 0
    for i in range(layer_lo[n + 1]):
        positive += pvals[i] > 0
    return lookups, positive


@nb.njit(cache=True, nogil=True)
def _block_p(kt, exposed, acc_of, after_of, keys, masks, flag_bit, lo, size, pvals, pos_off, bp):
    """P of every listed position of the block ``keys[lo:lo+size]`` into ``bp`` (state t's
    positions from ``pos_off[t]``, tops in increasing order).  Returns the look-ups."""
    play_next = kt.play_next
    accepts = kt.accepts
    when_stuck = kt.when_stuck
    cur = np.zeros(COLUMNS, np.int64)
    cbase = np.zeros(COLUMNS, np.int64)
    cmask = np.zeros(COLUMNS, np.int64)
    ckind = np.zeros(COLUMNS, np.int64)
    cval = np.zeros(COLUMNS, np.float64)
    lookups = 0
    level = -1
    below_lo = lo  # the level below the current one: keys[below_lo:level_lo]
    level_lo = lo
    for t in range(size):
        i = lo + t
        key = np.int64(keys[i])
        k = key >> LEVEL_SHIFT
        if k != level:
            below_lo = level_lo if k == level + 1 else i
            level_lo = i
            level = k
            cur[:] = below_lo
        gp = key & PACKED
        raw = np.int64(masks[i])
        mask = raw & ~flag_bit
        if gp == 0:
            wp = 1.0
        elif raw & flag_bit:
            wp = pvals[i]
        else:
            wp = -1.0  # no draw here can win
        seen = 0
        nc = 0
        uniform = True
        for c in range(COLUMNS):
            hc = (gp >> (BITS * c)) & DIGIT
            if hc == 0:
                continue
            x = exposed[c, hc]
            seen |= np.int64(1) << x
            if mask & acc_of[x] == 0:
                continue
            child = key - (np.int64(1) << LEVEL_SHIFT) - (np.int64(1) << (BITS * c))
            q = cur[c]
            while q < level_lo and np.int64(keys[q]) < child:
                q += 1
            cur[c] = q
            if q >= level_lo or np.int64(keys[q]) != child:
                continue  # no order wins from that child
            ckind[nc] = x
            cbase[nc] = pos_off[q - lo]
            cmask[nc] = np.int64(masks[q]) & ~flag_bit
            if after_of[x] >= 0:
                if (cmask[nc] >> after_of[x]) & 1 == 0:
                    continue
                cval[nc] = bp[cbase[nc] + rank_in(cmask[nc], after_of[x])]
                lookups += 1
            else:
                uniform = False
            nc += 1
        slot = pos_off[t]
        u = 0
        m = mask
        while m:
            if m & 1:
                acc = accepts[u]
                best = wp if not (when_stuck and acc & seen) else -1.0
                for a in range(nc):
                    x = ckind[a]
                    if (acc >> x) & 1 == 0:
                        continue
                    if uniform:
                        v = cval[a]
                    else:
                        nxt = play_next[u, x]
                        if (cmask[a] >> nxt) & 1 == 0:
                            continue
                        v = bp[cbase[a] + rank_in(cmask[a], nxt)]
                        lookups += 1
                    if v > best:
                        best = v
                bp[slot] = best
                slot += 1
            m >>= 1
            u += 1
    return lookups


@nb.njit(cache=True, nogil=True)
def _scatter_p(kt, keys, masks, flag_bit, m0, pwd, d, lo, size, n, j, blk_lo, blk_hi, pos_off, bp,
               pvals):
    """Add P(r | D - r) * P(h, drawn(r)) to p(h, D - r) for every flagged state of layer
    j - 1 whose start is listed in block D (an unlisted start adds 0)."""
    cur, end, prob, top, na = draw_sources(kt, m0, pwd, d, n, j, blk_lo, blk_hi)
    lookups = 0
    for t in range(size):
        key = np.int64(keys[lo + t])
        mask = np.int64(masks[lo + t]) & ~flag_bit
        for a in range(na):
            if (mask >> top[a]) & 1 == 0:
                continue
            q = cur[a]
            e = end[a]
            while q < e and np.int64(keys[q]) < key:
                q += 1
            cur[a] = q
            if q < e and np.int64(keys[q]) == key and np.int64(masks[q]) & flag_bit:
                pvals[q] += prob[a] * bp[pos_off[t] + rank_in(mask, top[a])]
                lookups += 1
    return lookups


@nb.njit(cache=True, nogil=True)
def listed_p(keys, masks, flag, blk_lo, blk_hi, pvals, d, key):
    """p of the flagged state ``key`` in block d, or -1 when it is not listed and flagged."""
    lo = blk_lo[d]
    if lo < 0:
        return -1.0
    i = find_key(keys, lo, blk_hi[d], key)
    if i < 0 or np.int64(masks[i]) & (np.int64(1) << flag) == 0:
        return -1.0
    return pvals[i]
