"""Which heights the position's reachable positions play or draw at: ``keep`` for
``wins.win_sets_within`` (``docs/honest-play.md``, "W at the reachable heights only").

The reach pass of ``honest.reach`` with W and G every D: its Dr and Q rows then hold every
drawn-from state reached and every reached position with a play, and a height is kept
where either is not empty.  Here the pass keeps only that answer: no W, G or Q rows (their
ANDs with every D change nothing), the position rows of two levels only, and the rows
indexed in place (a row view costs an atomic reference count).  No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.core import powers
from golfstats.kernels.honest import space
from golfstats.kernels.honest.reach import _levels, up_masks
from golfstats.kernels.honest.space import COLUMNS, STOCK_KINDS, cards_left, play_groups, rank_in


@nb.njit(cache=True, nogil=True)
def reachable_heights(kt, exposed, heights0, top0, m0, pwd, size, full_row):
    """``keep[g]``: some position (h, t, D) reachable from the position has a legal play,
    or draws, at the dense heights code g: ``reach_sets`` with W and G every D (so Dr is
    every drawn-from state reached and Q every reached position with a play), here without
    the W, G and Q rows (ANDs with every D) and the rows kept: only whether Dr or Q would
    hold a row at g.  What ``wins.win_sets_within`` needs to be exact at every reachable
    state."""
    pw, full, g_size = powers(heights0)
    words = full_row.shape[0]
    kup = up_masks(m0, pwd, size)
    play_next = kt.play_next
    accepts = kt.accepts
    n_tops = play_next.shape[0]
    acc_of, _ = play_groups(play_next)
    gpk = space.packed_codes(heights0)
    by_level, n_lv = _levels(heights0, g_size)
    top_level = cards_left(gpk[full])
    cap = 1
    for k in range(top_level + 1):
        cap = max(cap, (n_lv[k + 1] - n_lv[k]) * n_tops)
    tkinds = np.zeros(n_tops, np.int64)  # per top: the stock kinds whose turn makes it
    drawable = np.int64(0)  # the kinds a draw may turn
    for r in range(STOCK_KINDS):
        if m0[r]:
            tkinds[kt.drawn[r]] |= np.int64(1) << r
            drawable |= np.int64(1) << r
    bufs = np.empty((2, cap, words), np.uint64)  # touched only where rows are written
    pmask = np.zeros(g_size, np.int64)  # tops with a position row at g, in its level's buffer
    pbase = np.zeros(g_size, np.int64)
    keep = np.zeros(g_size, np.bool_)
    inrow = np.zeros((n_tops, words), np.uint64)
    z = np.zeros((1, words), np.uint64)  # (2-D: rows indexed, never viewed)
    y = np.zeros((1, words), np.uint64)
    for k in range(top_level, 0, -1):
        cur = bufs[k & 1]
        above = bufs[(k + 1) & 1]
        n_rows = 0
        for ti in range(n_lv[k], n_lv[k + 1]):
            g = by_level[ti]
            gp = gpk[g]
            touched = np.int64(0)  # tops with an In row
            seen = np.int64(0)
            for c in range(COLUMNS):
                d = (gp >> (space.BITS * c)) & space.DIGIT
                if d:
                    seen |= np.int64(1) << exposed[c, d]
                if d == heights0[c]:
                    continue
                p = g + pw[c]
                m = pmask[p]
                if m == 0:
                    continue
                xk = exposed[c, d + 1]
                src = m & acc_of[xk]
                t = 0
                while src:
                    if src & 1:
                        v = play_next[t, xk]
                        j = pbase[p] + rank_in(m, t)
                        if (touched >> v) & 1:
                            for i in range(words):
                                inrow[v, i] |= above[j, i]
                        else:
                            for i in range(words):
                                inrow[v, i] = above[j, i]
                            touched |= np.int64(1) << v
                    src >>= 1
                    t += 1
            if g == full:
                if (touched >> top0) & 1 == 0:
                    for i in range(words):
                        inrow[top0, i] = 0
                    touched |= np.int64(1) << top0
                inrow[top0, 0] |= np.uint64(1)
            if touched == 0:
                continue
            have_dr = _drawn_from(kt, m0, pwd, kup, full_row, drawable, inrow, touched, seen, z, y)
            any_row = False
            for t in range(n_tops):
                if accepts[t] & seen == 0:
                    continue
                any_src = False
                if (touched >> t) & 1:
                    for i in range(words):
                        cur[n_rows, i] = inrow[t, i]
                    any_src = True
                if have_dr and tkinds[t]:
                    if not any_src:
                        for i in range(words):
                            cur[n_rows, i] = 0
                        any_src = True
                    for r in range(STOCK_KINDS):
                        if (tkinds[t] >> r) & 1:
                            _up_row(cur, n_rows, z, 0, pwd[r], kup, r)
                if not any_src:
                    continue
                nonzero = np.uint64(0)
                for i in range(words):
                    nonzero |= cur[n_rows, i]
                if nonzero == 0:
                    continue
                any_row = True
                if pmask[g] == 0:
                    pbase[g] = n_rows
                pmask[g] |= np.int64(1) << t
                n_rows += 1
            keep[g] = have_dr or any_row
    return keep


@nb.njit(cache=True, nogil=True, inline="always")
def _drawn_from(kt, m0, pwd, kup, full_row, drawable, inrow, touched, seen, z, y):
    """Dr at h into ``z[0]``: the In rows of the tops that may draw, closed under the draws
    that may follow (of the kinds ``drawable``; ``y`` scratch), written out in place: each
    row view costs an atomic reference count.  Returns whether it is not empty."""
    words = z.shape[1]
    accepts = kt.accepts
    for i in range(words):
        z[0, i] = 0
    m = touched
    t = 0
    while m:
        if m & 1 and (not kt.when_stuck or accepts[t] & seen == 0):
            for i in range(words):
                z[0, i] |= inrow[t, i]
        m >>= 1
        t += 1
    nonzero = np.uint64(0)
    for i in range(words):
        nonzero |= z[0, i]
    if nonzero == 0:
        return False
    for i in range(words):
        y[0, i] = z[0, i]
    for r in range(STOCK_KINDS):
        if (drawable >> r) & 1 == 0 or (kt.when_stuck and accepts[kt.drawn[r]] & seen):
            continue
        for _ in range(m0[r]):
            _up_row(y, 0, y, 0, pwd[r], kup, r)
    for i in range(words):
        z[0, i] = (z[0, i] | y[0, i]) & full_row[i]
    return True


@nb.njit(cache=True, nogil=True, inline="always")
def _up_row(dst, j, src, k, shift, mask, r):
    """``dst[j] |= (src[k] << shift) & mask[r]`` over rows of 64-bit words (bit D of a
    row lands on bit D + shift), without the row views (each costs an atomic reference
    count).  Safe in place: word i reads words <= i, visited from the top down."""
    words = src.shape[1]
    q = shift >> 6
    b = np.uint64(shift & 63)
    for i in range(words - 1, q - 1, -1):
        v = src[k, i - q] << b
        if b and i > q:
            v |= src[k, i - q - 1] >> (np.uint64(64) - b)
        dst[j, i] |= v & mask[r, i]
