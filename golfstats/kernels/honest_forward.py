"""Forward pass of the honest expectimax: every state reachable from the position.

Layer by layer in |D| and, within a layer, D-code by D-code, it lists the *block* of
D: the positions (h, t) reachable with exactly D drawn.  A block's positions are the
closure under plays of its *starts*: the position itself (block D = {} of layer 0),
or, for every kind r in D and every state (h, D - r) of layer j - 1 where a draw is
legal, the position (h, drawn(r)).  Every position reached is a state a player may
stop at and draw from under draw any-time; under when-stuck only where its top
accepts no exposed card, so each stored state carries that flag.

Output (all states of all layers, layer after layer, blocks in code order, heights
increasing within a block): ``keys[i]`` the packed heights, ``masks[i]`` the set of
tops reached there (bit ``flag`` set when a draw is legal from the state),
``blk_lo[d], blk_hi[d]`` the block of D-code d (-1 if empty), and the layer bounds.
The scratch arrays (``mark`` over dense codes) are left zero.  No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.honest_space import BITS, COLUMNS, DIGIT, STOCK_KINDS, dense_of, exposed_bits

_G_SHIFT = 27  # stack entry: dense code << 27 | packed code << 6 | top
_P_MASK = (1 << 21) - 1


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
def forward(kt, exposed, heights0, top0, m0, pwd, order, layer_start, pw, mark, keys, masks,
            flag, max_states):
    """Fill ``keys``/``masks`` (capacity = their length) with every reachable state.

    Returns ``(ok, n_states, layer_lo, blk_lo, blk_hi, positions)``; ``ok`` is False when
    the states would exceed ``max_states`` (or the arrays), and nothing else is valid
    then.  ``positions`` counts (heights, top) pairs reached, for the record.
    """
    n = layer_start.shape[0] - 2
    size = order.shape[0]
    blk_lo = np.full(size, -1, np.int64)
    blk_hi = np.full(size, -1, np.int64)
    layer_lo = np.zeros(n + 2, np.int64)
    cap = min(max_states, keys.shape[0])
    play_next = kt.play_next
    full_gp = 0
    full_g = 0
    for c in range(COLUMNS):
        full_gp |= heights0[c] << (BITS * c)
        full_g += heights0[c] * pw[c]
    touched = np.empty(1024, np.int64)
    stack = np.empty(1024, np.int64)
    n_states = 0
    positions = 0
    flag_bit = np.int64(1) << flag
    for j in range(n + 1):
        layer_lo[j] = n_states
        for oi in range(layer_start[j], layer_start[j + 1]):
            d = order[oi]
            nt = 0
            sp = 0
            if j == 0:
                mark[full_g] = np.int64(1) << top0
                touched[0] = (full_g << 21) | full_gp
                stack[0] = (full_g << _G_SHIFT) | (full_gp << 6) | top0
                nt = 1
                sp = 1
            else:
                for r in range(STOCK_KINDS):
                    if (d // pwd[r]) % (m0[r] + 1) == 0:
                        continue
                    dm = d - pwd[r]
                    lo = blk_lo[dm]
                    if lo < 0:
                        continue
                    u = kt.drawn[r]
                    bu = np.int64(1) << u
                    for i in range(lo, blk_hi[dm]):
                        if np.int64(masks[i]) & flag_bit == 0:
                            continue
                        gp = np.int64(keys[i])
                        g = dense_of(gp, pw)
                        m = np.int64(mark[g])
                        if m & bu:
                            continue
                        if m == 0:
                            if nt == touched.shape[0]:
                                touched = _grow(touched)
                            touched[nt] = (g << 21) | gp
                            nt += 1
                        mark[g] = m | bu
                        if sp == stack.shape[0]:
                            stack = _grow(stack)
                        stack[sp] = (g << _G_SHIFT) | (gp << 6) | u
                        sp += 1
            while sp > 0:
                sp -= 1
                v = stack[sp]
                positions += 1
                g = v >> _G_SHIFT
                gp = (v >> 6) & _P_MASK
                u = v & 63
                for c in range(COLUMNS):
                    hc = (gp >> (BITS * c)) & DIGIT
                    if hc == 0:
                        continue
                    u2 = play_next[u, exposed[c, hc]]
                    if u2 < 0:
                        continue
                    g2 = g - pw[c]
                    gp2 = gp - (np.int64(1) << (BITS * c))
                    m = np.int64(mark[g2])
                    b2 = np.int64(1) << u2
                    if m & b2:
                        continue
                    if m == 0:
                        if nt == touched.shape[0]:
                            touched = _grow(touched)
                        touched[nt] = (g2 << 21) | gp2
                        nt += 1
                    mark[g2] = m | b2
                    if sp == stack.shape[0]:
                        stack = _grow(stack)
                    stack[sp] = (g2 << _G_SHIFT) | (gp2 << 6) | u2
                    sp += 1
            if nt == 0:
                continue
            if n_states + nt > cap:
                for i in range(nt):
                    mark[touched[i] >> 21] = 0
                return False, n_states, layer_lo, blk_lo, blk_hi, positions
            tt = np.sort(touched[:nt])
            blk_lo[d] = n_states
            last = j == n
            for i in range(nt):
                g = tt[i] >> 21
                gp = tt[i] & _P_MASK
                m = np.int64(mark[g])
                mark[g] = 0
                if not last and _drawable(kt, exposed, gp, m):
                    m |= flag_bit
                keys[n_states] = gp
                masks[n_states] = m
                n_states += 1
            blk_hi[d] = n_states
    layer_lo[n + 1] = n_states
    return True, n_states, layer_lo, blk_lo, blk_hi, positions


@nb.njit(cache=True, nogil=True)
def _grow(a):
    b = np.empty(2 * a.shape[0], a.dtype)
    b[:a.shape[0]] = a
    return b
