"""The W pass's steps (``wins``): its inputs and scratch, one named bundle each, and
what it does at one height vector h: the B' rows of the tops drawn or played into h
(``play_rows``), W(h) from them (``draw_row``) and B of the tops a play into h makes
(``top_codes``).  A row code is ``ZERO`` (the empty row), ``ALL`` (the full row), >= 0 a
row of the level's buffer or <= -3 a W row (-3 - its index).  No I/O, no RNG.
"""

from __future__ import annotations

from collections import namedtuple

import numba as nb
import numpy as np

from golfstats.kernels.honest import space
from golfstats.kernels.honest.packed import or_into
from golfstats.kernels.honest.space import COLUMNS, STOCK_KINDS, after_bits, popcount

ZERO, ALL = -1, -2  # row codes: the empty row, the full row; >= 0 a level row; <= -3 a W row


#: The W pass's fixed inputs: the rule set's tables ``kt``, the exposed cards, the stock
#: multiset ``m0`` and its kinds, the codes' place values ``pw`` and ``pwd``, ``kmask``
#: and ``full_row`` (``kind_masks``), ``mixed`` (the kinds a play of which makes a top
#: that depends on the top) and ``drawtops`` (the tops a draw makes).
Pass = namedtuple("Pass", "kt exposed m0 kinds pw pwd kmask full_row mixed drawtops")

#: The kept height vectors (dense codes g) by level (cards left): level k's are
#: ``by_level[n_lv[k]:n_lv[k + 1]]``; ``gpk[g]`` their packed heights; ``tmask[g]`` the tops
#: a play into g can make, and ``tcode[tbase[g] + i]`` the row code of B at g for the i-th
#: of them (``ZERO``, ``ALL``, a level row >= 0 or a W row <= -3).
Levels = namedtuple("Levels", "gpk tmask n_lv by_level tbase tcode top_level")

#: The scratch of one height vector h: ``rows`` its B' rows (B without the draw at h),
#: memoised by column set (``memo[0]``; the level's B row ``memo[1]``), an entry this h's
#: when its ``stamp`` is g; per top u its column set (``tkey``) and B' row (``trow``); the
#: exposed kinds ``xs`` (-1: an empty column); ``ccode`` B(h - e_c, the top after x_c) once
#: asked at h; ``w`` the W row and ``grow`` the G row being made.  In place: each row view
#: or array passed costs a reference count.
Work = namedtuple("Work", "rows memo stamp tkey trow xs ccode w grow")


@nb.njit(cache=True, nogil=True)
def kind_masks(m0, pwd, size):
    """``(kmask, full_row)``: per kind r the D-codes with D[r] < M0[r]; every D-code."""
    words = ((size + 63) >> 6) + 1  # one spare zero word (``or_shifted``)
    kmask = np.zeros((STOCK_KINDS, words), np.uint64)
    full_row = np.zeros(words, np.uint64)
    for d in range(size):
        bit = np.uint64(1) << np.uint64(d & 63)
        full_row[d >> 6] |= bit
        for r in range(STOCK_KINDS):
            if m0[r] > 0 and (d // pwd[r]) % (m0[r] + 1) < m0[r]:
                kmask[r, d >> 6] |= bit
    return kmask, full_row


@nb.njit(cache=True, nogil=True, inline="always")
def or_shifted(dst, src, shift, mask):
    """dst |= (src >> shift) & mask over rows of 64-bit words (bit i of a row is bit
    i & 63 of word i >> 6).  Rows carry one spare zero word at the end, so the loop
    needs no bounds test, and its indices are unsigned, so it needs no test for a negative
    one (numba's wrap-around) either: it vectorises."""
    words = dst.shape[0] - 1
    q = shift >> 6
    b = np.uint64(shift & 63)
    uq = np.uint64(q)
    end = np.uint64(words - q)
    if b == 0:
        for i in range(end):
            dst[i] |= src[i + uq] & mask[i]
    else:
        cb = np.uint64(64) - b
        uq1 = np.uint64(q + 1)
        for i in range(end):
            dst[i] |= ((src[i + uq] >> b) | (src[i + uq1] << cb)) & mask[i]


@nb.njit(cache=True, nogil=True)
def close(w, closing, m0, pwd, kmask):
    """W[D] |= W[D + r] for every kind r in ``closing`` (a bit set), to the fixed point:
    M0[r] shifted ORs per kind (after the t-th, W[D] holds W[D + s r] for s <= t)."""
    for r in range(STOCK_KINDS):
        if (closing >> r) & 1:
            for _ in range(m0[r]):
                or_shifted(w, w, pwd[r], kmask[r])  # in place: word i reads words >= i only


@nb.njit(cache=True, nogil=True)
def pass_inputs(kt, exposed, m0, pw, pwd, size, groups):
    """The W pass's fixed inputs (``Pass``; ``groups``: ``space.play_groups`` of the rule
    set)."""
    kmask, full_row = kind_masks(m0, pwd, size)
    after_of = groups[1]
    mixed = np.int64(0)
    for x in np.flatnonzero(after_of < 0):
        mixed |= np.int64(1) << x
    kinds = np.flatnonzero(m0 > 0)
    drawtops = np.int64(0)
    for r in kinds:
        drawtops |= np.int64(1) << kt.drawn[r]
    return Pass(kt, exposed, m0, kinds, pw, pwd, kmask, full_row, mixed, drawtops)


@nb.njit(cache=True, nogil=True)
def levels(kt, exposed, heights0, keep, full, g_size, groups):
    """The kept height vectors by level and the tops a play into each can make (``Levels``;
    the height vector 0, the cleared tableau, is always kept: the others' B is ZERO)."""
    play_next = kt.play_next
    acc_of, after_of = groups
    all_tops = (np.int64(1) << play_next.shape[0]) - 1
    gpk = space.packed_codes(heights0)
    top_level = space.cards_left(gpk[full])
    tmask = np.zeros(g_size, np.int64)
    n_lv = np.zeros(top_level + 2, np.int64)
    for g in range(g_size):
        if keep[g] or g == 0:
            gp = gpk[g]
            m = np.int64(0)
            for c in range(COLUMNS):
                d = (gp >> (space.BITS * c)) & space.DIGIT
                if d < heights0[c]:
                    m |= after_bits(play_next, acc_of, after_of, all_tops, exposed[c, d + 1])
            tmask[g] = m
            n_lv[space.cards_left(gp) + 1] += 1
    for k in range(top_level + 1):
        n_lv[k + 1] += n_lv[k]
    by_level = np.empty(n_lv[top_level + 1], np.int64)
    fill = n_lv.copy()
    for g in range(g_size):
        if keep[g] or g == 0:
            k = space.cards_left(gpk[g])
            by_level[fill[k]] = g
            fill[k] += 1
    tbase = np.zeros(g_size + 1, np.int32)
    for g in range(g_size):
        tbase[g + 1] = tbase[g] + popcount(tmask[g])
    tcode = np.full(tbase[g_size], ZERO, np.int32)
    return Levels(gpk, tmask, n_lv, by_level, tbase, tcode, top_level)


@nb.njit(cache=True, nogil=True, inline="always")
def any_bit(row):
    """Is some bit of ``row`` set?"""
    nonzero = np.uint64(0)
    for i in range(row.shape[0]):
        nonzero |= row[i]
    return nonzero != 0


@nb.njit(cache=True, nogil=True, inline="always")
def exposed_at(exposed, gp, xs):
    """The kinds exposed at the packed heights ``gp`` into ``xs`` (-1: an empty column);
    returns their set."""
    seen = np.int64(0)
    for c in range(COLUMNS):
        d = (gp >> (space.BITS * c)) & space.DIGIT
        xs[c] = -1
        if d:
            xs[c] = exposed[c, d]
            seen |= np.int64(1) << xs[c]
    return seen


@nb.njit(cache=True, nogil=True, inline="always")
def play_rows(ps, lv, below, w_rows, g, seen, wk):
    """B'(h, u) (B without the draw at h) of the tops u drawn or played into h, into
    ``wk.rows`` (``wk.trow[u]``: its row, -1 when empty; ``wk.tkey[u]``: the columns u plays
    on, -1 when the tops made depend on u); returns the rows made."""
    kt, full_row, pw = ps.kt, ps.full_row, ps.pw
    play_next, accepts = kt.play_next, kt.accepts
    tmask, tbase, tcode = lv.tmask, lv.tbase, lv.tcode
    rows, memo, stamp, xs, ccode = wk.rows, wk.memo, wk.stamp, wk.xs, wk.ccode
    tkey, trow = wk.tkey, wk.trow
    mixed = ps.mixed
    words = rows.shape[1]
    n_s = 0
    need = ps.drawtops | tmask[g]
    u = 0
    while need:
        if need & 1:
            a = accepts[u] & seen
            key = 0  # the columns u plays on; -1: the tops made depend on u
            if a & mixed:
                key = -1
            elif a:
                for c in range(COLUMNS):
                    if xs[c] >= 0 and (a >> xs[c]) & 1:
                        key |= 1 << c
            tkey[u] = key
            s = -1
            if key > 0 and stamp[0, key] == g:
                s = memo[0, key]
            elif key != 0:
                for i in range(words):
                    rows[n_s, i] = 0
                any_bit = False
                for c in range(COLUMNS):
                    if xs[c] < 0 or (key > 0 and (key >> c) & 1 == 0):
                        continue
                    if key > 0 and ccode[1, c] == g:
                        code = ccode[0, c]
                    else:
                        g2 = g - pw[c]
                        v = play_next[u, xs[c]]
                        code = ZERO  # (a height left out has no tops: ZERO)
                        if v >= 0 and (tmask[g2] >> v) & 1:
                            code = tcode[tbase[g2] + popcount(tmask[g2] & ((np.int64(1) << v) - 1))]
                        if key > 0:
                            ccode[0, c], ccode[1, c] = code, g
                    if code == ZERO:
                        continue
                    if code == ALL:
                        for i in range(words):
                            rows[n_s, i] |= full_row[i]
                    elif code >= 0:
                        for i in range(words):
                            rows[n_s, i] |= below[code, i]
                    else:
                        or_into(rows[n_s], w_rows, -3 - code)
                    any_bit = True
                if any_bit:
                    s = n_s
                    n_s += 1
                if key > 0:
                    stamp[0, key], memo[0, key] = g, s
            trow[u] = s
        need >>= 1
        u += 1
    return n_s


@nb.njit(cache=True, nogil=True, inline="always")
def draw_row(ps, seen, wk):
    """W(h) into ``wk.w``: X = OR_r kmask[r] & (B'(h, drawn r) >> pwd[r]), closed along the
    kinds whose draw may be followed by another (``close``)."""
    kt, kmask, pwd = ps.kt, ps.kmask, ps.pwd
    rows, w, trow = wk.rows, wk.w, wk.trow
    words = w.shape[0]
    for i in range(words):
        w[i] = 0
    closing = 0
    for r in ps.kinds:
        u = kt.drawn[r]
        if not kt.when_stuck or kt.accepts[u] & seen == 0:
            closing |= np.int64(1) << r
        s = trow[u]
        if s < 0:
            continue
        q = pwd[r] >> 6
        b = np.uint64(pwd[r] & 63)
        uq = np.uint64(q)  # (unsigned: as in ``or_shifted``)
        end = np.uint64(words - 1 - q)
        if b == 0:
            for i in range(end):
                w[i] |= rows[s, i + uq] & kmask[r, i]
        else:
            cb = np.uint64(64) - b
            uq1 = np.uint64(q + 1)
            for i in range(end):
                w[i] |= ((rows[s, i + uq] >> b) | (rows[s, i + uq1] << cb)) & kmask[r, i]
    if kt.when_stuck:  # any-time: X is already closed (every row is a down-set)
        close(w, closing, ps.m0, pwd, kmask)


@nb.njit(cache=True, nogil=True, inline="always")
def top_codes(ps, lv, cur, n_rows, g, seen, wcode, wk):
    """B(h, u) for the tops u a play into h can make: their row codes into ``lv.tcode``,
    the new rows into the level's buffer ``cur`` from ``n_rows``; returns its rows."""
    kt = ps.kt
    accepts, when_stuck = kt.accepts, kt.when_stuck
    memo, stamp, w, rows, tkey, trow = wk.memo, wk.stamp, wk.w, wk.rows, wk.tkey, wk.trow
    tcode = lv.tcode
    words = w.shape[0]
    m = lv.tmask[g]
    u = 0
    slot = lv.tbase[g]
    while m:
        if m & 1:
            key = tkey[u]
            if accepts[u] & seen == 0:
                tcode[slot] = wcode  # nothing to play: B = W (it may draw)
            elif key >= 0 and stamp[1, key] == g:
                tcode[slot] = memo[1, key]
            else:
                s = trow[u]
                if s < 0:  # B = W (any-time) or empty
                    code = ZERO if when_stuck else wcode
                else:  # B' is not empty, nor then B
                    for i in range(words):
                        cur[n_rows, i] = rows[s, i] if when_stuck else rows[s, i] | w[i]
                    code = n_rows
                    n_rows += 1
                tcode[slot] = code
                if key >= 0:
                    stamp[1, key], memo[1, key] = g, code
            slot += 1
        m >>= 1
        u += 1
    return n_rows
