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

from collections import namedtuple

import numba as nb
import numpy as np

from golfstats.kernels.core import powers
from golfstats.kernels.honest import win_rows
from golfstats.kernels.honest.blocks import transpose
from golfstats.kernels.honest.packed import new_store, put, row_bytes
from golfstats.kernels.honest.space import COLUMNS, STOCK_KINDS, play_groups, popcount
from golfstats.kernels.honest.win_rows import ALL, ZERO, Work


@nb.njit(cache=True, nogil=True, inline="always")
def win_bit(wt, g, d):
    """Is W[h][D] set, for dense heights code g and D-code d?  ``wt`` is the table of
    ``win_table``: one bit row over the height codes per D-code, so the look-ups of one
    block (one D) stay in one row."""
    return (wt[d, g >> 6] >> np.uint64(g & 63)) & np.uint64(1) != 0


@nb.njit(cache=True, nogil=True)
def win_table(kt, exposed, heights0, m0, pwd, size):
    """W as ``wt[d, g >> 6]`` bit ``g & 63`` (``win_bit``), with the W pass's stats
    (``win_sets``)."""
    widx, w_rows, gidx, g_rows, stats = win_sets(kt, exposed, heights0, m0, pwd, size)
    return transpose(widx, w_rows, size), stats


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


#: What the W pass returns beside its rows: the W rows kept, the most B rows of one level,
#: the words per row, the G rows kept and the pass's peak bytes (W and G stored, two
#: levels of B rows and its arrays by height vector).
WinStats = namedtuple("WinStats", "w_rows level_rows words g_rows peak_bytes")

@nb.njit(cache=True, nogil=True)
def win_sets_within(kt, exposed, heights0, m0, pwd, size, keep, max_bytes=-1):
    """``win_sets`` on the height vectors g with ``keep[g]`` only; the others are left
    empty (rows -1, B rows ZERO).  Exact at every (h, D) reachable from the position when
    ``keep`` holds every height where a reachable position has a legal move (the W
    recursion at a reachable (h, D) reads only reachable positions; one without a move
    is lost or cleared, and both are read as they would be computed: ZERO, ALL); see
    ``reach.reachable_heights``.

    ``max_bytes`` (-1: none) bounds the rows as they are made: once they take more, the
    pass stops there and ``stats.peak_bytes``, their bytes so far, is over it (the rows
    returned are then partial, to be thrown away: the caller reports the deal unresolved)."""
    pw, full, g_size = powers(heights0)
    words = ((size + 63) >> 6) + 1
    groups = play_groups(kt.play_next)  # (once, for both)
    ps = win_rows.pass_inputs(kt, exposed, m0, pw, pwd, size, groups)
    lv = win_rows.levels(kt, exposed, heights0, keep, full, g_size, groups)
    # level buffers: rows of B for the tops of a level; at most one per (h, top)
    cap = 1
    for k in range(lv.top_level + 1):
        need = 0
        for t in range(lv.n_lv[k], lv.n_lv[k + 1]):
            need += popcount(lv.tmask[lv.by_level[t]])
        cap = max(cap, need)
    bufs = np.empty((2, cap, words), np.uint64)
    widx = np.full(g_size, -1, np.int64)
    w_rows = new_store(g_size, words)
    gidx = np.full(g_size, -1, np.int64)
    g_rows = new_store(g_size, words)
    n_tops = kt.play_next.shape[0]
    ccode = np.zeros((2, COLUMNS), np.int64)
    ccode[1] = -1
    wk = Work(np.zeros((STOCK_KINDS + n_tops + 1, words), np.uint64), np.zeros((2, 128), np.int64),
              np.full((2, 128), -1, np.int64), np.zeros(n_tops, np.int64),
              np.zeros(n_tops, np.int64), np.zeros(COLUMNS, np.int64), ccode,
              np.zeros(words, np.uint64), np.zeros(words, np.uint64))
    n_g = 0
    n_w = 0
    peak = 0
    over = False  # the rows took more than max_bytes: the pass stopped
    # the pass's arrays by height vector, counted with its rows
    fixed = (lv.tmask.nbytes + lv.n_lv.nbytes + lv.by_level.nbytes + lv.n_lv.nbytes
             + lv.tbase.nbytes + lv.tcode.nbytes + widx.nbytes + gidx.nbytes + lv.gpk.nbytes
             + w_rows[1].nbytes + g_rows[1].nbytes + ps.kmask.nbytes)
    for t in range(lv.tbase[0], lv.tbase[1]):
        lv.tcode[t] = ALL  # the cleared tableau: every D wins
    # (the arrays the loop reads, once: a bundle's array read in a loop costs)
    n_lv, by_level, gpk = lv.n_lv, lv.by_level, lv.gpk
    xs, w, rows, grow = wk.xs, wk.w, wk.rows, wk.grow
    for k in range(1, lv.top_level + 1):
        cur = bufs[k & 1]
        below = bufs[(k - 1) & 1]
        n_rows = 0
        for ti in range(n_lv[k], n_lv[k + 1]):
            g = by_level[ti]
            seen = win_rows.exposed_at(exposed, gpk[g], xs)
            n_s = win_rows.play_rows(ps, lv, below, w_rows, g, seen, wk)
            win_rows.draw_row(ps, seen, wk)
            wcode = ZERO
            if win_rows.any_bit(w):
                put(w_rows, n_w, w)
                widx[g] = n_w
                wcode = -3 - n_w
                n_w += 1
            n_rows = win_rows.top_codes(ps, lv, cur, n_rows, g, seen, wcode, wk)
            # G(h): W(h) and every B' row of h
            for i in range(words):
                v = w[i]
                for s2 in range(n_s):
                    v |= rows[s2, i]
                grow[i] = v
            if win_rows.any_bit(grow):
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
    stats = WinStats(n_w, peak, words, n_g, _rows_bytes(w_rows, n_w, g_rows, n_g, peak, words, fixed))
    return widx, w_rows, gidx, g_rows, stats


@nb.njit(cache=True, nogil=True, inline="always")
def _rows_bytes(w_rows, n_w, g_rows, n_g, level_rows, words, fixed):
    """The W pass's bytes: its W and G rows, two levels of B rows and ``fixed``, its
    arrays by height vector."""
    return (row_bytes(w_rows, 0, n_w) + row_bytes(g_rows, 0, n_g) + 2 * level_rows * words * 8
            + fixed)
