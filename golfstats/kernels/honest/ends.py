"""The chain endpoints of a position, each distinct height vector once, for the policy's
choices (``honest.policy``): their dense and packed codes, cards left and whether a draw
may follow there, fewest cards first.  No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.honest.space import BITS, COLUMNS, DIGIT, dense_of, exposed_bits

ENDS = 4  # ints per endpoint: dense code, packed code, cards, may draw


@nb.njit(cache=True, nogil=True)
def chain_ends(kt, exposed, pw, gp0, u0, mark, out, at):
    """The distinct height vectors of the chain endpoints from (packed ``gp0``, top ``u0``),
    fewest cards first, written from ``out[at]`` as ``ENDS`` ints each (grown if needed).  Returns
    ``(count, out)``.  Depth-first, each position (heights, top) once (``mark[g]``: the
    tops seen at g; left zero)."""
    play_next = kt.play_next
    depth = 6 * COLUMNS + 2
    st_gp = np.empty(depth, np.int64)
    st_t = np.empty(depth, np.int64)
    st_c = np.empty(depth, np.int64)
    visited = np.empty(64, np.int64)
    vis_gp = np.empty(64, np.int64)
    n_vis = 1
    sp = 0
    st_gp[0] = gp0
    st_t[0] = u0
    st_c[0] = 0
    g0 = dense_of(gp0, pw)
    mark[g0] = np.int64(1) << u0
    visited[0] = g0
    vis_gp[0] = gp0
    while sp >= 0:
        gp = st_gp[sp]
        c = st_c[sp]
        pushed = False
        while c < COLUMNS:
            hc = (gp >> (BITS * c)) & DIGIT
            if hc:
                v = play_next[st_t[sp], exposed[c, hc]]
                if v >= 0:
                    gp2 = gp - (np.int64(1) << (BITS * c))
                    g2 = dense_of(gp2, pw)
                    m = mark[g2]
                    if (m >> v) & 1 == 0:
                        if m == 0:
                            if n_vis == visited.shape[0]:
                                v2 = np.empty(2 * n_vis, np.int64)
                                v2[:n_vis] = visited
                                visited = v2
                                w2 = np.empty(2 * n_vis, np.int64)
                                w2[:n_vis] = vis_gp
                                vis_gp = w2
                            visited[n_vis] = g2
                            vis_gp[n_vis] = gp2
                            n_vis += 1
                        mark[g2] = m | (np.int64(1) << v)
                        st_c[sp] = c + 1
                        sp += 1
                        st_gp[sp] = gp2
                        st_t[sp] = v
                        st_c[sp] = 0
                        pushed = True
                        break
            c += 1
        if not pushed:
            sp -= 1
    if at + ENDS * n_vis > out.shape[0]:
        out2 = np.empty(max(2 * out.shape[0], at + ENDS * n_vis), np.int64)
        keep = min(at, out.shape[0])
        out2[:keep] = out[:keep]
        out = out2
    lv = np.empty(n_vis, np.int64)
    for i in range(n_vis):
        cards = 0
        for c in range(COLUMNS):
            cards += (vis_gp[i] >> (BITS * c)) & DIGIT
        lv[i] = cards
    by_cards = np.argsort(lv, kind="mergesort")  # fewest cards first (``choose`` stops early)
    for ii in range(n_vis):
        i = by_cards[ii]
        g = visited[i]
        gp = vis_gp[i]
        cards = lv[i]
        draw = 1
        if kt.when_stuck and gp != 0:
            seen = exposed_bits(gp, exposed)
            draw = 0
            m = mark[g]
            t = 0
            while m:
                if m & 1 and kt.accepts[t] & seen == 0:
                    draw = 1
                m >>= 1
                t += 1
        o = at + ENDS * ii
        out[o], out[o + 1], out[o + 2], out[o + 3] = g, gp, cards, draw
    for i in range(n_vis):
        mark[visited[i]] = 0
    return n_vis, out


@nb.njit(cache=True, nogil=True)
def new_ends(kt, exposed, heights0, pw, g, r, used, mark, epool):
    """List the endpoints of (h, drawn(r)) (h the dense code g) at ``epool[used]``:
    ``[count, ENDS ints each...]``; returns (the ints written, the pool, grown if needed)."""
    gp = 0
    x = g
    for c in range(COLUMNS):
        gp |= (x % (heights0[c] + 1)) << (BITS * c)
        x //= heights0[c] + 1
    cnt, epool = chain_ends(kt, exposed, pw, gp, kt.drawn[r], mark, epool, used + 1)
    epool[used] = cnt
    return 1 + ENDS * cnt, epool
