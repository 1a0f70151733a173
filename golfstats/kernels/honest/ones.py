"""Where the chance of winning is exactly 1: the bitsets ONE, by logic alone.

``docs/honest-play.md``, "States won for certain": p(h, D) = 1 exactly when every kind r
still in the stock leads, turned, to a position (h, drawn(r), D + r) from which some chain
of plays ends at the cleared tableau or at a draw (h', D + r) with p = 1 (a maximum of
values at most 1 is 1 only when one of them is, and a sum of probabilities times values
at most 1 is 1 only when every term with a positive probability is).  So ONE obeys the
recursion of W (``honest.wins``) with the OR over kinds turned into an AND:

* B1(h, t)[D]: some chain of plays from (h, t) ends at the cleared tableau or at an
  endpoint (h', t') that may draw with ONE[h'][D].  B1(h, t) = (ONE[h] if (h, t) may
  draw) | OR over the plays of B1(h - e_c, t after x_c); B1(cleared, t) is every D.
* ONE[h][D] = (some card left) AND, for every kind r left (D[r] < M0[r]),
  B1'(h, drawn(r))[D + r] or, where (h, drawn(r)) may draw, ONE[h][D + r]
  (B1' is B1 without the draw at h).

ONE[h] reads itself at D + r (draw, play nothing, draw again).  Every D + r has one card
fewer left, so the equation has one solution, and iterating it from the empty row
reaches it (each round is monotone and adds the D whose terms have become true; a round
that changes nothing is at the fixed point, the least one, which is the solution).
ONE is inside W (p = 1 > 0), so the rounds start only where W[h] is not empty and are
ANDed with W[h].

Rows and codes as in ``honest.wins`` (a row per h, one spare zero word; B1 rows of a
level in a buffer; ``ZERO`` the empty row, ``ALL`` the cleared tableau's, <= -3 a ONE
row).  No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.core import powers
from golfstats.kernels.honest.space import COLUMNS, STOCK_KINDS, after_bits, play_groups, popcount
from golfstats.kernels.honest.wins import ALL, ZERO, _is_zero, _or_shifted, _rank, kind_masks


@nb.njit(cache=True, nogil=True)
def _layout(kt, exposed, heights0, keep):
    """Height codes by level (``by_level``, ``n_lv``), and per code the tops a play into
    it can make (``tmask``) with their slots (``tbase``): as ``wins.win_sets_within``."""
    pw, full, g_size = powers(heights0)
    play_next = kt.play_next
    acc_of, after_of = play_groups(play_next)
    all_tops = (np.int64(1) << play_next.shape[0]) - 1
    level = np.zeros(g_size, np.int64)
    tmask = np.zeros(g_size, np.int64)
    n_lv = np.zeros(COLUMNS * 6 + 2, np.int64)
    for g in range(g_size):
        x = g
        k = 0
        for c in range(COLUMNS):
            dc = x % (heights0[c] + 1)
            x //= heights0[c] + 1
            k += dc
            if dc < heights0[c] and (keep[g] or g == 0):
                tmask[g] |= after_bits(play_next, acc_of, after_of, all_tops, exposed[c, dc + 1])
        level[g] = k
        n_lv[k + 1] += 1
    for k in range(n_lv.shape[0] - 1):
        n_lv[k + 1] += n_lv[k]
    by_level = np.empty(g_size, np.int64)
    fill = n_lv.copy()
    for g in range(g_size):
        by_level[fill[level[g]]] = g
        fill[level[g]] += 1
    tbase = np.zeros(g_size + 1, np.int64)
    for g in range(g_size):
        tbase[g + 1] = tbase[g] + popcount(tmask[g])
    return pw, level[full], by_level, n_lv, tmask, tbase


@nb.njit(cache=True, nogil=True)
def _plays_row(kt, exposed, pw, dig, g, u, tmask, tbase, tcode, below, full_row, opool, row):
    """B1'(h, u) (plays only) into ``row``; returns whether it has a bit."""
    row[:] = 0
    any_bit = False
    for c in range(COLUMNS):
        if dig[c] == 0:
            continue
        v = kt.play_next[u, exposed[c, dig[c]]]
        if v < 0:
            continue
        g2 = g - pw[c]
        code = tcode[tbase[g2] + _rank(tmask[g2], v)] if (tmask[g2] >> v) & 1 else ZERO
        if code == ZERO:
            continue
        if code == ALL:
            src = full_row
        elif code >= 0:
            src = below[code]
        else:
            src = opool[-3 - code]
        for i in range(row.shape[0]):
            row[i] |= src[i]
        any_bit = True
    return any_bit


@nb.njit(cache=True, nogil=True)
def one_sets_within(kt, exposed, heights0, m0, pwd, size, keep, widx, wpool):
    """ONE[g] = ``opool[oidx[g]]`` (-1: empty) at the height codes ``keep`` (as
    ``wins.win_sets_within``, whose W rows ``widx``/``wpool`` bound it).  Returns ``(oidx,
    opool, stats)``, ``stats = [ONE rows, rounds in all]``."""
    pw, top_level, by_level, n_lv, tmask, tbase = _layout(kt, exposed, heights0, keep)
    g_size = tmask.shape[0]
    words = wpool.shape[1]
    kmask, full_row = kind_masks(m0, pwd, size)
    anyleft = np.zeros(words, np.uint64)
    notk = np.zeros((STOCK_KINDS, words), np.uint64)
    for r in range(STOCK_KINDS):
        if m0[r] > 0:
            for i in range(words):
                anyleft[i] |= kmask[r, i]
                notk[r, i] = full_row[i] & ~kmask[r, i]
    cap = 1
    for k in range(top_level + 1):
        need = 0
        for t in range(n_lv[k], n_lv[k + 1]):
            need += popcount(tmask[by_level[t]])
        cap = max(cap, need)
    bufs = np.empty((2, cap, words), np.uint64)
    tcode = np.full(tbase[g_size], ZERO, np.int64)
    for t in range(tbase[0], tbase[1]):
        tcode[t] = ALL
    oidx = np.full(g_size, -1, np.int64)
    opool = np.empty((max(1, _count_rows(widx)), words), np.uint64)
    n_o = 0
    rounds = 0
    dig = np.zeros(COLUMNS, np.int64)
    term = np.zeros((STOCK_KINDS, words), np.uint64)  # per kind: not left, or B1' shifted
    one = np.zeros(words, np.uint64)
    nxt = np.zeros(words, np.uint64)
    tmp = np.zeros(words, np.uint64)
    for k in range(1, top_level + 1):
        cur = bufs[k & 1]
        below = bufs[(k - 1) & 1]
        n_rows = 0
        for ti in range(n_lv[k], n_lv[k + 1]):
            g = by_level[ti]
            if not keep[g]:
                continue
            x = g
            seen = 0
            for c in range(COLUMNS):
                dig[c] = x % (heights0[c] + 1)
                x //= heights0[c] + 1
                if dig[c]:
                    seen |= np.int64(1) << exposed[c, dig[c]]
            one[:] = 0
            wi = widx[g]
            if wi >= 0:
                closing = 0
                for r in range(STOCK_KINDS):
                    if m0[r] == 0:
                        continue
                    u = kt.drawn[r]
                    if not kt.when_stuck or kt.accepts[u] & seen == 0:
                        closing |= np.int64(1) << r
                    term[r] = notk[r]
                    if _plays_row(kt, exposed, pw, dig, g, u, tmask, tbase, tcode, below,
                                  full_row, opool, tmp):
                        _or_shifted(term[r], tmp, pwd[r], kmask[r])
                while True:  # the rounds, from the empty row to the fixed point
                    rounds += 1
                    for i in range(words):
                        nxt[i] = anyleft[i] & wpool[wi, i]
                    for r in range(STOCK_KINDS):
                        if m0[r] == 0:
                            continue
                        tmp[:] = term[r]
                        if (closing >> r) & 1:
                            _or_shifted(tmp, one, pwd[r], kmask[r])
                        for i in range(words):
                            nxt[i] &= tmp[i]
                    same = True
                    for i in range(words):
                        if nxt[i] != one[i]:
                            same = False
                            break
                    if same:
                        break
                    one[:] = nxt
            ocode = ZERO
            if not _is_zero(one):
                opool[n_o] = one
                oidx[g] = n_o
                ocode = -3 - n_o
                n_o += 1
            m = tmask[g]
            u = 0
            slot = tbase[g]
            while m:
                if m & 1:
                    if kt.accepts[u] & seen == 0:
                        tcode[slot] = ocode  # nothing to play: B1 = ONE (it may draw)
                    else:
                        row = cur[n_rows]
                        _plays_row(kt, exposed, pw, dig, g, u, tmask, tbase, tcode, below,
                                   full_row, opool, row)
                        if not kt.when_stuck:
                            for i in range(words):
                                row[i] |= one[i]
                        if _is_zero(row):
                            tcode[slot] = ZERO
                        else:
                            tcode[slot] = n_rows
                            n_rows += 1
                    slot += 1
                m >>= 1
                u += 1
    stats = np.zeros(2, np.int64)
    stats[0] = n_o
    stats[1] = rounds
    return oidx, opool, stats


@nb.njit(cache=True, nogil=True)
def _count_rows(idx):
    n = 0
    for g in range(idx.shape[0]):
        if idx[g] >= 0:
            n += 1
    return n
