"""Which states the position reaches: the rows R over drawn multisets, level by level down.

Goal win values only the states a draw is taken from (``docs/honest-play.md``, "Reach and
drawn-from states"): Dr(h)[D] is set when the position (h0, t0) with nothing drawn reaches,
through states drawn from, a position at heights h with D drawn from which a draw may
follow, and W(h)[D] is set (some order of the stock left still wins from there, Fact 1; a
state with W clear is worth 0 and nothing after it is needed).  The pass also keeps, per
h, the row Q(h) of the D at which some position (h, t) is worth a chain DP: Dr(h), and
the reachable positions (h, t) from which a play is legal, inside G(h) (``honest.wins``).

Rows are bitsets over D-codes (``honest.space``; adding a card of kind r adds ``pwd[r]``,
a left shift).  For the positions (h, t), a level (cards left) at a time from the
position's own level down:

* In(h, t): the positions a play leads to.  A play of column c from (h + e_c, t') with
  t' accepting its card x gives (h, t' after x), so In(h, t) is the OR of the rows of the
  level above with that move; the position itself adds the bit of D = {} at (h0, t0).
* Dr(h) = W(h) AND the closure of Z = OR of In(h, t) over the tops that may draw at h
  (any-time: all; when-stuck: those accepting no exposed card) under adding a kind r
  whose turned top may draw at h (a draw that plays nothing is followed by another
  draw).  Every D between a bit of Z AND W(h) and a bit of the closure is in W(h):
  W(h) is closed under removing such kinds (draw the removed card first, then follow
  the order that wins), so the closure of (Z AND W(h)), AND W(h), is exactly the set of
  D reached through drawn-from states.
* The position rows of h for the level below: In(h, t) OR, for each kind r turning top
  t, Dr(h) shifted by r (the draw from (h, D) reaches (h, drawn(r)) with D + r drawn),
  kept only for tops t that accept an exposed card (others start no chain) and ANDed
  with G(h) (a position outside G(h) reaches no winning draw, and neither do the
  positions its chains lead to: they would put it inside).  The position's own rows
  are not ANDed: its top need not be one G(h0) was made for.
* Q(h) = Dr(h) OR the position rows of h.

Only two levels of position rows are alive.  No I/O, no RNG.
"""

from __future__ import annotations

from collections import namedtuple

import numba as nb
import numpy as np

from golfstats.kernels.core import powers
from golfstats.kernels.honest.memory import level_rows, release_store
from golfstats.kernels.honest.packed import (
    and_into,
    last_word,
    new_store,
    or_into,
    put,
    row_bytes,
    unpack,
)
from golfstats.kernels.honest.space import (
    COLUMNS,
    STOCK_KINDS,
    cards_left,
    packed_codes,
    play_groups,
    rank_in,
)


@nb.njit(cache=True, nogil=True)
def up_masks(m0, pwd, size):
    """Per kind r the D-codes with D[r] >= 1: where a card of kind r added may land."""
    words = ((size + 63) >> 6) + 1
    kup = np.zeros((STOCK_KINDS, words), np.uint64)
    for d in range(size):
        bit = np.uint64(1) << np.uint64(d & 63)
        for r in range(STOCK_KINDS):
            if m0[r] > 0 and (d // pwd[r]) % (m0[r] + 1) >= 1:
                kup[r, d >> 6] |= bit
    return kup


@nb.njit(cache=True, nogil=True, inline="always")
def up_within(dst, src, shift, mask, lo, end):
    """``dst |= (src << shift) & mask`` on the words of dst below ``end``, for a src
    that is 0 below word ``lo`` (bit D of src lands on bit D + shift).  The words are done
    in increasing order, so in place (``dst`` is ``src``) word i reads words already done:
    with a shift of 64 or more (below word i) the bits it adds are added to again, and one
    call adds every multiple of the shift that the mask lets through one step at a time
    (the closure along it); a smaller shift also reads word i itself, as it was."""
    q = shift >> 6
    b = np.uint64(shift & 63)
    if lo + q >= end:
        return
    dst[lo + q] |= (src[lo] << b) & mask[lo + q]
    uq = np.uint64(q)  # (unsigned indices: no test for a negative one, so the loop vectorises)
    uq1 = np.uint64(q + 1)
    if b:
        cb = np.uint64(64) - b
        for i in range(np.uint64(lo + q + 1), np.uint64(end)):
            dst[i] |= ((src[i - uq] << b) | (src[i - uq1] >> cb)) & mask[i]
    else:
        for i in range(np.uint64(lo + q + 1), np.uint64(end)):
            dst[i] |= src[i - uq] & mask[i]


@nb.njit(cache=True, nogil=True, inline="always")
def close_up(z, kinds, m0, pwd, kup, lo, end):
    """The row z closed under adding a card of each kind in the bit set ``kinds`` (up to
    the counts ``m0``), on its words below ``end``, for a z that is 0 below word ``lo``:
    the closure along each kind in turn (their steps commute).  Along kind r, in place
    over the words in increasing order (``up_within``): with a shift of a word or more,
    one pass; a smaller one (the lowest kinds' digits) takes its count of passes, each
    adding at least one more card of r (``kup[r]``, D[r] >= 1, keeps a card from carrying
    into the next digit)."""
    for r in range(STOCK_KINDS):
        if (kinds >> r) & 1:
            for _ in range(1 if pwd[r] >= 64 else m0[r]):
                up_within(z, z, pwd[r], kup[r], lo, end)


@nb.njit(cache=True, nogil=True, inline="always")
def _first_word(row):
    """The first word of row that is not 0 (its length when none)."""
    i = 0
    while i < row.shape[0] and row[i] == 0:
        i += 1
    return i


@nb.njit(cache=True, nogil=True, inline="always")
def _last_word(row):
    """One more than the last word of row that is not 0 (0 when none)."""
    i = row.shape[0]
    while i > 0 and row[i - 1] == 0:
        i -= 1
    return i


@nb.njit(cache=True, nogil=True, inline="always")
def _is_zero(row):
    return _first_word(row) == row.shape[0]


@nb.njit(cache=True, nogil=True)
def _levels(heights0, g_size):
    """Dense codes by level (cards left): ``by_level[n_lv[k]:n_lv[k + 1]]``."""
    gpk = packed_codes(heights0)  # (no division per digit)
    level = np.zeros(g_size, np.int64)
    n_lv = np.zeros(COLUMNS * 6 + 2, np.int64)
    for g in range(g_size):
        level[g] = cards_left(gpk[g])
        n_lv[level[g] + 1] += 1
    for k in range(n_lv.shape[0] - 1):
        n_lv[k + 1] += n_lv[k]
    by_level = np.empty(g_size, np.int64)
    fill = n_lv.copy()
    for g in range(g_size):
        by_level[fill[level[g]]] = g
        fill[level[g]] += 1
    return by_level, n_lv


#: What ``reach_sets`` returns beside its rows: the Dr rows and Q rows kept, the most
#: position rows of one level, the position rows in all, and the peak bytes alive (W and
#: G not yet released, Dr, Q, and two levels of position rows).
ReachStats = namedtuple("ReachStats", "r_rows q_rows level_rows position_rows peak_bytes")

@nb.njit(cache=True, nogil=True)
def reach_sets(kt, exposed, heights0, top0, m0, pwd, size, widx, w_rows, gidx, g_rows, release):
    """Dr and Q, h-major: rows ``ridx[g]`` and ``qidx[g]`` (-1: empty) of the stores
    ``r_rows`` and ``q_rows`` (``honest.packed``), from W and G as ``wins.win_sets`` gives
    them.  With ``release`` the pages of the W and G rows of a level are handed back once
    the level is done (``honest.memory``: those rows read 0 afterwards; the stores must be
    no one else's).  Returns ``(ridx, r_rows, qidx, q_rows, stats)`` (``ReachStats``).
    """
    pw, full, g_size = powers(heights0)
    words = ((size + 63) >> 6) + 1
    kup = up_masks(m0, pwd, size)
    play_next = kt.play_next
    accepts = kt.accepts
    n_tops = play_next.shape[0]
    acc_of, after_of = play_groups(play_next)
    by_level, n_lv = _levels(heights0, g_size)
    top_level = 0
    for c in range(COLUMNS):
        top_level += heights0[c]
    cap = 1
    for k in range(top_level + 1):
        cap = max(cap, (n_lv[k + 1] - n_lv[k]) * n_tops)
    cur = new_store(cap, words)  # the position rows of this level and of the one above
    above = new_store(cap, words)
    row = np.zeros(words, np.uint64)
    pmask = np.zeros(g_size, np.int64)  # tops with a position row at g, in its level's buffer
    pbase = np.zeros(g_size, np.int64)
    ridx = np.full(g_size, -1, np.int64)
    r_rows = new_store(g_size, words)
    qidx = np.full(g_size, -1, np.int64)
    q_rows = new_store(g_size, words)
    q = np.zeros(words, np.uint64)
    grow = np.zeros(words, np.uint64)
    n_r = 0
    n_q = 0
    inrow = np.zeros((n_tops, words), np.uint64)
    z = np.zeros(words, np.uint64)
    dig = np.zeros(COLUMNS, np.int64)
    peak = 0
    all_rows = 0
    n_w = 0
    n_g = 0
    for g in range(g_size):
        n_w += widx[g] >= 0
        n_g += gidx[g] >= 0
    live_in = row_bytes(w_rows, 0, n_w) + row_bytes(g_rows, 0, n_g)  # not yet released
    peak_live = 0
    prev_rows = 0
    for k in range(top_level, 0, -1):
        cur, above = above, cur
        n_rows = 0
        for ti in range(n_lv[k], n_lv[k + 1]):
            g = by_level[ti]
            # In(h, t) of every top, from the position rows of the level above
            x = g
            for c in range(COLUMNS):
                dig[c] = x % (heights0[c] + 1)
                x //= heights0[c] + 1
            touched = np.int64(0)  # tops with an In row
            for c in range(COLUMNS):
                if dig[c] == heights0[c]:
                    continue
                p = g + pw[c]
                m = pmask[p]
                if m == 0:
                    continue
                xk = exposed[c, dig[c] + 1]
                src = m & acc_of[xk]
                t = 0
                while src:
                    if src & 1:
                        v = play_next[t, xk]
                        i = pbase[p] + rank_in(m, t)
                        if (touched >> v) & 1:
                            or_into(inrow[v], above, i)
                        else:
                            unpack(inrow[v], above, i)
                            touched |= np.int64(1) << v
                    src >>= 1
                    t += 1
            if g == full:
                if (touched >> top0) & 1 == 0:
                    inrow[top0, :] = 0
                    touched |= np.int64(1) << top0
                inrow[top0, 0] |= np.uint64(1)
            if touched == 0:
                continue
            seen = np.int64(0)
            for c in range(COLUMNS):
                if dig[c]:
                    seen |= np.int64(1) << exposed[c, dig[c]]
            # Dr(h): W(h) AND the closure of the In rows of the tops that may draw at h
            have_dr = False
            wi = widx[g]
            if wi >= 0:
                z[:] = 0
                m = touched
                t = 0
                while m:
                    if m & 1 and (not kt.when_stuck or accepts[t] & seen == 0):
                        for i in range(words):
                            z[i] |= inrow[t, i]
                    m >>= 1
                    t += 1
                and_into(z, w_rows, wi)
                lo = _first_word(z)
                if lo < words:
                    closing = np.int64(0)  # the kinds whose turned top may draw at h
                    for r in range(STOCK_KINDS):
                        if m0[r] and not (kt.when_stuck and accepts[kt.drawn[r]] & seen):
                            closing |= np.int64(1) << r
                    # what lies above W's last word is cleared by the AND
                    close_up(z, closing, m0, pwd, kup, lo, last_word(w_rows, wi))
                    and_into(z, w_rows, wi)
                    lo = _first_word(z)
                    hi = _last_word(z)
                    put(r_rows, n_r, z)
                    ridx[g] = n_r
                    n_r += 1
                    have_dr = True
            if have_dr:
                q[:] = z
            else:
                q[:] = 0
            # the position rows of h for the level below, and Q(h)
            gi = gidx[g]
            if gi >= 0 and g != full:
                unpack(grow, g_rows, gi)
            for t in range(n_tops):
                if accepts[t] & seen == 0 or (gi < 0 and g != full):
                    continue
                any_src = False
                if (touched >> t) & 1:
                    row[:] = inrow[t]
                    any_src = True
                if have_dr:
                    for r in range(STOCK_KINDS):
                        if m0[r] and kt.drawn[r] == t:
                            if not any_src:
                                row[:] = 0
                                any_src = True
                            up_within(row, z, pwd[r], kup[r], lo,
                                      min(hi + (pwd[r] >> 6) + 1, words))
                if not any_src:
                    continue
                if g != full:
                    for i in range(words):
                        row[i] &= grow[i]
                if _is_zero(row):
                    continue
                for i in range(words):
                    q[i] |= row[i]
                put(cur, n_rows, row)
                if pmask[g] == 0:
                    pbase[g] = n_rows
                pmask[g] |= np.int64(1) << t
                n_rows += 1
            if not _is_zero(q):
                put(q_rows, n_q, q)
                qidx[g] = n_q
                n_q += 1
        all_rows += n_rows
        peak = max(peak, n_rows)
        if k < top_level:  # the rows of level k + 1 are no longer read
            for ti in range(n_lv[k + 1], n_lv[k + 2]):
                pmask[by_level[ti]] = 0
        peak_live = max(peak_live, live_in + row_bytes(r_rows, 0, n_r) + row_bytes(q_rows, 0, n_q)
                        + row_bytes(cur, 0, n_rows) + row_bytes(above, 0, prev_rows))
        prev_rows = n_rows
        if release:  # this level's W and G rows are read no more
            first, end, _ = level_rows(widx, by_level, n_lv[k], n_lv[k + 1])
            live_in -= release_store(w_rows, first, end)
            first, end, _ = level_rows(gidx, by_level, n_lv[k], n_lv[k + 1])
            live_in -= release_store(g_rows, first, end)
    return ridx, r_rows, qidx, q_rows, ReachStats(n_r, n_q, peak, all_rows, peak_live)
