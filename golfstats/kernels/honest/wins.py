"""Which (heights, drawn) states some stock order still wins: the bitsets W (Fact 1), and
the rows G that say where a chain may still lead to one.

For goal ``win`` the honest kernel values exactly only the states whose win probability
is positive, and by Fact 1 of ``docs/honest-play.md`` those are the states from which
some order of the remaining stock lets a clairvoyant player clear the tableau.  This
module decides that question for every height vector h below the position's heights
at once, as a bitset ``W[h]`` over all D-codes (``honest.space``): bit d is set when,
with the multiset of D-code d drawn, a player about to draw at h can still win for
some order of the cards left.  Clairvoyant winnability is a yes/no question, so it
obeys the same chain recursion as the values with "best" replaced by "or":

* B(h, t)[D]: some chain of plays from (h, t) ends at a cleared tableau, or at an
  endpoint (h', t') that may draw (any-time: always; when-stuck: t' accepts no exposed
  card of h') with W[h'][D].  So B(h, t) = (W[h] if (h, t) may draw) | OR over the
  columns c whose exposed card x_c the top t accepts of B(h - e_c, t after x_c), and
  B(cleared, t) is every D.
* W[h][D] = OR over kinds r still in the stock (D[r] < M0[r]) of B(h, drawn(r))[D + r],
  and no D with nothing left to draw is set.

B(h, drawn(r)) contains W[h] itself (draw again at once: "draw and play nothing"),
where (h, drawn(r)) may draw.  Write B'(h, t) for B without that term; then
X[D] = OR_r B'(h, drawn(r))[D + r] and W[h][D] = X[D] | OR over the kinds r whose
(h, drawn(r)) may draw of W[h][D + r].  Unrolled, W[h][D] is the OR of X[D'] over the
D' above D along those kinds' axes: a suffix-OR along each such axis in turn
(``_close``).  Every term read belongs to a height vector with fewer cards, so the
levels (cards left) are computed upwards and only two levels of B are alive at once.

Bit d of a row stands for D-code d; adding a card of kind r adds ``pwd[r]`` to the
code, so "bit D + r into place D" is a right shift by ``pwd[r]`` masked to the D with
D[r] < M0[r] (``kmask[r]``).  B(h, t) depends on t only through the set S of columns
whose exposed card t accepts (and the top each play makes): rows are computed once per
distinct S at h (for tops that make one top per played kind) and shared.  A row that is
all zero is not stored (code -1); B of the cleared tableau is the all-ones row (code -2).

G(h) is W(h) together with every row B'(h, t) the pass computes at h: bit D is set when
some top (h, t) may be reached with leads, by a chain of plays, to a draw that W wins or
to the cleared tableau.  It is a superset of where any position at h is worth valuing
(``honest.reach`` keeps the reachable positions inside it).

No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.core import powers
from golfstats.kernels.honest import space
from golfstats.kernels.honest.blocks import transpose
from golfstats.kernels.honest.packed import new_store, or_into, put, row_bytes
from golfstats.kernels.honest.space import COLUMNS, STOCK_KINDS, after_bits, play_groups, popcount

ZERO, ALL = -1, -2  # row codes: the empty row, the full row; >= 0 a level row; <= -3 a W row


@nb.njit(cache=True, nogil=True)
def kind_masks(m0, pwd, size):
    """``(kmask, full_row)``: per kind r the D-codes with D[r] < M0[r]; every D-code."""
    words = ((size + 63) >> 6) + 1  # one spare zero word (``_or_shifted``)
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
def _or_shifted(dst, src, shift, mask):
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
def _close(w, closing, m0, pwd, kmask):
    """W[D] |= W[D + r] for every kind r in ``closing`` (a bit set), to the fixed point:
    M0[r] shifted ORs per kind (after the t-th, W[D] holds W[D + s r] for s <= t)."""
    for r in range(STOCK_KINDS):
        if (closing >> r) & 1:
            for _ in range(m0[r]):
                _or_shifted(w, w, pwd[r], kmask[r])  # in place: word i reads words >= i only


@nb.njit(cache=True, nogil=True, inline="always")
def win_bit(wt, g, d):
    """Is W[h][D] set, for dense heights code g and D-code d?  ``wt`` is the table of
    ``win_table``: one bit row over the height codes per D-code, so the look-ups of one
    block (one D) stay in one row."""
    return (wt[d, g >> 6] >> np.uint64(g & 63)) & np.uint64(1) != 0


@nb.njit(cache=True, nogil=True)
def win_table(kt, exposed, heights0, m0, pwd, size):
    """W as ``wt[d, g >> 6]`` bit ``g & 63`` (``win_bit``), with ``stats`` as ``win_sets``'s
    (and the table's bytes in ``stats[1]``)."""
    widx, w_rows, gidx, g_rows, stats = win_sets(kt, exposed, heights0, m0, pwd, size)
    wt = transpose(widx, w_rows, size)
    stats[1] = wt.shape[0] * wt.shape[1] * 8
    return wt, stats


@nb.njit(cache=True, nogil=True)
def win_sets(kt, exposed, heights0, m0, pwd, size):
    """The W bitsets and G rows of every height vector below ``heights0`` (dense codes).

    Returns ``(widx, w_rows, gidx, g_rows, stats)``: W[g] is row ``widx[g]`` of the store
    ``w_rows`` (``honest.packed``; ``widx[g] = -1``: W[g] is empty), G[g] likewise,
    ``stats = [W rows kept, peak level rows, words per row, G rows kept, the pass's peak
    bytes (W and G stored, two levels of B rows)]``.  The stores are allocated for every
    height vector but only the rows written are touched.
    """
    g_size = powers(heights0)[2]
    return win_sets_within(kt, exposed, heights0, m0, pwd, size, np.ones(g_size, np.bool_))


@nb.njit(cache=True, nogil=True)
def win_sets_within(kt, exposed, heights0, m0, pwd, size, keep, max_bytes=-1):
    """``win_sets`` on the height vectors g with ``keep[g]`` only; the others are left
    empty (rows -1, B rows ZERO).  Exact at every (h, D) reachable from the position when
    ``keep`` holds every height where a reachable position has a legal move (the W
    recursion at a reachable (h, D) reads only reachable positions; one without a move
    is lost or cleared, and both are read as they would be computed: ZERO, ALL); see
    ``reach.reachable_heights``.

    ``max_bytes`` (-1: none) bounds the rows as they are made: once they take more, the
    pass stops there and ``stats[4]``, their bytes so far, is over it (the rows returned are
    then partial, to be thrown away: the caller reports the deal unresolved)."""
    pw, full, g_size = powers(heights0)
    words = ((size + 63) >> 6) + 1
    kmask, full_row = kind_masks(m0, pwd, size)
    play_next = kt.play_next
    accepts = kt.accepts
    n_tops = play_next.shape[0]
    acc_of, after_of = play_groups(play_next)
    all_tops = (np.int64(1) << n_tops) - 1
    mixed = np.int64(0)  # kinds a play of which makes a top that depends on the top
    for x in np.flatnonzero(after_of < 0):
        mixed |= np.int64(1) << x
    kinds = np.flatnonzero(m0 > 0)
    gpk = space.packed_codes(heights0)
    # the kept height vectors by level (cards left), and the tops a play into each can make
    top_level = space.cards_left(gpk[full])
    tmask = np.zeros(g_size, np.int64)
    n_lv = np.zeros(top_level + 2, np.int64)
    for g in range(g_size):
        if keep[g] or g == 0:  # others' B: ZERO
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
    # level buffers: rows of B for the tops of a level; at most one per (h, top)
    cap = 1
    for k in range(top_level + 1):
        need = 0
        for t in range(n_lv[k], n_lv[k + 1]):
            need += popcount(tmask[by_level[t]])
        cap = max(cap, need)
    bufs = np.empty((2, cap, words), np.uint64)
    widx = np.full(g_size, -1, np.int64)
    w_rows = new_store(g_size, words)
    gidx = np.full(g_size, -1, np.int64)
    g_rows = new_store(g_size, words)
    grow = np.zeros(words, np.uint64)
    n_g = 0
    n_w = 0
    peak = 0
    over = False  # the rows took more than max_bytes: the pass stopped
    # the pass's arrays by height vector, counted with its rows
    fixed = (tmask.nbytes + n_lv.nbytes + by_level.nbytes + fill.nbytes + tbase.nbytes
             + tcode.nbytes + widx.nbytes + gidx.nbytes + gpk.nbytes + w_rows[1].nbytes
             + g_rows[1].nbytes + kmask.nbytes)
    # per h: the B' rows in scratch, memoised by column set (< 128: ``memo[0]``; the level's
    # B row ``memo[1]``), an entry this h's when its stamp is g; per top u its set (``tkey``)
    # and B' row (``trow``).  In place: each row view or array passed costs a reference count.
    scratch = np.zeros((STOCK_KINDS + n_tops + 1, words), np.uint64)
    memo = np.zeros((2, 128), np.int64)
    stamp = np.full((2, 128), -1, np.int64)
    tkey = np.zeros(n_tops, np.int64)
    trow = np.zeros(n_tops, np.int64)
    xs = np.zeros(COLUMNS, np.int64)  # exposed kinds (-1: an empty column)
    ccode = np.zeros((2, COLUMNS), np.int64)  # B(h - e_c, the top after x_c) once asked at h
    ccode[1] = -1
    drawtops = np.int64(0)
    for r in kinds:
        drawtops |= np.int64(1) << kt.drawn[r]
    w = np.zeros(words, np.uint64)
    for t in range(tbase[0], tbase[1]):
        tcode[t] = ALL  # the cleared tableau: every D wins
    for k in range(1, top_level + 1):
        cur = bufs[k & 1]
        below = bufs[(k - 1) & 1]
        n_rows = 0
        for ti in range(n_lv[k], n_lv[k + 1]):
            g = by_level[ti]
            gp = gpk[g]
            seen = np.int64(0)
            for c in range(COLUMNS):
                d = (gp >> (space.BITS * c)) & space.DIGIT
                xs[c] = -1
                if d:
                    xs[c] = exposed[c, d]
                    seen |= np.int64(1) << xs[c]
            # B'(h, u) (B without the draw at h) of the tops drawn or played into h
            n_s = 0
            need = drawtops | tmask[g]
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
                            scratch[n_s, i] = 0
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
                                    code = tcode[tbase[g2]
                                                 + popcount(tmask[g2] & ((np.int64(1) << v) - 1))]
                                if key > 0:
                                    ccode[0, c], ccode[1, c] = code, g
                            if code == ZERO:
                                continue
                            if code == ALL:
                                for i in range(words):
                                    scratch[n_s, i] |= full_row[i]
                            elif code >= 0:
                                for i in range(words):
                                    scratch[n_s, i] |= below[code, i]
                            else:
                                or_into(scratch[n_s], w_rows, -3 - code)
                            any_bit = True
                        if any_bit:
                            s = n_s
                            n_s += 1
                        if key > 0:
                            stamp[0, key], memo[0, key] = g, s
                    trow[u] = s
                need >>= 1
                u += 1
            # X = OR_r kmask[r] & (B'(h, drawn r) >> pwd[r])
            for i in range(words):
                w[i] = 0
            closing = 0
            for r in kinds:
                u = kt.drawn[r]
                if not kt.when_stuck or accepts[u] & seen == 0:
                    closing |= np.int64(1) << r
                s = trow[u]
                if s < 0:
                    continue
                q = pwd[r] >> 6
                b = np.uint64(pwd[r] & 63)
                uq = np.uint64(q)  # (unsigned: as in ``_or_shifted``)
                end = np.uint64(words - 1 - q)
                if b == 0:
                    for i in range(end):
                        w[i] |= scratch[s, i + uq] & kmask[r, i]
                else:
                    cb = np.uint64(64) - b
                    uq1 = np.uint64(q + 1)
                    for i in range(end):
                        w[i] |= ((scratch[s, i + uq] >> b) | (scratch[s, i + uq1] << cb)) & kmask[r, i]
            if kt.when_stuck:  # any-time: X is already closed (every row is a down-set)
                _close(w, closing, m0, pwd, kmask)
            wcode = ZERO
            nonzero = np.uint64(0)
            for i in range(words):
                nonzero |= w[i]
            if nonzero:
                put(w_rows, n_w, w)
                widx[g] = n_w
                wcode = -3 - n_w
                n_w += 1
            # B(h, u) for the tops u a play into h can make
            m = tmask[g]
            u = 0
            slot = tbase[g]
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
                            code = ZERO if kt.when_stuck else wcode
                        else:  # B' is not empty, nor then B
                            for i in range(words):
                                cur[n_rows, i] = scratch[s, i] if kt.when_stuck else scratch[s, i] | w[i]
                            code = n_rows
                            n_rows += 1
                        tcode[slot] = code
                        if key >= 0:
                            stamp[1, key], memo[1, key] = g, code
                    slot += 1
                m >>= 1
                u += 1
            # G(h): W(h) and every B' row of h
            nonzero = np.uint64(0)
            for i in range(words):
                v = w[i]
                for s2 in range(n_s):
                    v |= scratch[s2, i]
                grow[i] = v
                nonzero |= v
            if nonzero:
                put(g_rows, n_g, grow)
                gidx[g] = n_g
                n_g += 1
            if max_bytes >= 0 and (_rows_bytes(w_rows, n_w, g_rows, n_g, max(peak, n_rows), words,
                                               fixed) > max_bytes):
                over = True
                break
        peak = max(peak, n_rows)
        if over:
            break
    stats = np.zeros(5, np.int64)
    stats[0] = n_w
    stats[1] = peak
    stats[2] = words
    stats[3] = n_g
    stats[4] = _rows_bytes(w_rows, n_w, g_rows, n_g, peak, words, fixed)
    return widx, w_rows, gidx, g_rows, stats


@nb.njit(cache=True, nogil=True, inline="always")
def _rows_bytes(w_rows, n_w, g_rows, n_g, level_rows, words, fixed):
    """The W pass's bytes: its W and G rows, two levels of B rows and ``fixed``, its
    arrays by height vector."""
    return (row_bytes(w_rows, 0, n_w) + row_bytes(g_rows, 0, n_g) + 2 * level_rows * words * 8
            + fixed)
