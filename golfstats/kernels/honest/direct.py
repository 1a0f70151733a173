"""The honest expectimax of a small position, directly: the doc's recursion around draws
(``docs/honest-play.md``, "The same computation, organised around draws") as a memoised
depth-first search, for positions with few stock cards left (``honest.table`` picks it
with at most ``DIRECT_MAX_STOCK`` stock cards when no table is kept; else the tables of
``solve``).

    V(h, D) = sum over kinds r left of  P(r | D) * best over the endpoints (h', t') of the
              chains from (h, drawn(r)) of  W(h', D + r)
    W(h', D') = (1, -(stock left))   if h' is the cleared tableau
                (0, cards at h')     if no stock is left
                V(h', D')            otherwise (under when-stuck only endpoints where a top
                                     the chain ends with accepts no exposed card)

Every state (h, D) a draw is taken from, reachable from the position, is valued once and
kept in a hash table keyed by ``D-code * g_size + dense heights code`` (both codes of
``space``; a key names one state of this position).  The endpoints of (h, drawn(r)) come
from ``ends.chain_ends`` (distinct height vectors, fewest cards first), cached per (h, r).
"best" is the goal's (``pick``): ``WIN`` (win-strokes, whose p is goal win's too) the
largest p; ties within TOL by the smallest e, then the fewest cards; where the best p is at
most TOL the fewest cards, then the smallest e; ``STROKES`` the smallest e, ties by the
largest p, then the fewest cards; remaining ties to the first endpoint in list order.

Nothing is bounded: every value is the recursion's own.  The one shortcut (goals win and
win-strokes): a state ``lost.dead`` finds lost is worth p = 0 (Fact 1), and so is every
state after it, so below it only the fewest-cards endpoints are valued (the doc's rule
where nothing can be won).  The cost is about the reachable drawn-from states times their
kinds and endpoints: it grows threefold or more a stock card, faster than the tables'
(docs/honest-play.md, "Small positions: the direct search").  A search that reaches
``max_states`` stops and says so (not resolved; ``honest.table`` then asks the tables,
which report the position unresolved if it is over their budget too).  No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.core import powers
from golfstats.kernels.hashset import slot_of
from golfstats.kernels.honest.ends import ENDS, chain_ends, new_ends
from golfstats.kernels.honest.inputs import Root
from golfstats.kernels.honest.lost import dead, dead_aux
from golfstats.kernels.honest.space import (
    BITS,
    COLUMNS,
    STOCK_KINDS,
    STROKES,
    TOL,
    d_codes,
    dense_of,
    packed_of,
)

_COUNT, _EUSED, _CAP, _FAILED, _GSIZE = 0, 1, 2, 3, 4
#: Bytes a memoised state costs at the table's peak: a key and (p, e), 24 bytes a slot, at
#: most half full, and the old table live while it doubles.
BYTES_PER_STATE = 144


@nb.njit(cache=True, nogil=True)
def _table(slots):
    return np.full(slots, -1, np.int64), np.empty(2 * slots, np.float64)


@nb.njit(cache=True, nogil=True, inline="always")
def _slot(keys, key):
    """The slot of ``key``, or the empty slot where it would go."""
    mask = keys.shape[0] - 1
    i = slot_of(key, mask)
    while True:
        k = keys[i]
        if k == key or k == -1:
            return i
        i = (i + 1) & mask


@nb.njit(cache=True, nogil=True)
def new_memo(g_size, max_states):
    """An empty memo for a position of ``g_size`` height codes (at most ``max_states``)."""
    keys, vals = _table(1 << 10)
    meta = np.zeros(8, np.int64)
    meta[_CAP] = max_states
    meta[_GSIZE] = g_size
    ecache = np.full(g_size * STOCK_KINDS, -1, np.int64)
    return keys, vals, meta, ecache, np.empty(1 << 12, np.int64), np.zeros(g_size, np.int64)


@nb.njit(cache=True, nogil=True, inline="always")
def _end_value(keys, vals, key_base, ends, o, j, n):
    """W of the endpoint at ``ends[o]``: cleared, out of stock, or the memo's (NaN if absent)."""
    if ends[o + 1] == 0:
        return 1.0, -float(n - j)
    if j == n:
        return 0.0, float(ends[o + 2])
    s = _slot(keys, key_base + ends[o])
    if keys[s] == -1:  # left out by a dead frame: no order wins from it
        return 0.0, np.nan
    return vals[2 * s], vals[2 * s + 1]


@nb.njit(cache=True, nogil=True)
def pick(goal, keys, vals, g_size, ends, at, cnt, d, j, n):
    """The best endpoint of ``ends[at:at + ENDS * cnt]`` (fewest cards first) with D-code d
    drawn (|D| = j of n), by the goal (module docstring); every non-terminal endpoint that
    may draw must be in the memo.  Returns its (p, e)."""
    stuck_only = j < n
    base = d * g_size
    best_p = -1.0
    best_e = np.inf
    least = 1 << 30
    for i in range(cnt):
        o = at + ENDS * i
        if stuck_only and ends[o + 3] == 0:
            continue
        p, e = _end_value(keys, vals, base, ends, o, j, n)
        best_p = max(best_p, p)
        best_e = min(best_e, e)
        least = min(least, ends[o + 2])
    if goal == STROKES:  # the smallest e, then the largest p, then the first (fewest cards)
        top = -1.0
        for i in range(cnt):
            o = at + ENDS * i
            if stuck_only and ends[o + 3] == 0:
                continue
            p, e = _end_value(keys, vals, base, ends, o, j, n)
            if e <= best_e + TOL:
                top = max(top, p)
        for i in range(cnt):
            o = at + ENDS * i
            if stuck_only and ends[o + 3] == 0:
                continue
            p, e = _end_value(keys, vals, base, ends, o, j, n)
            if e <= best_e + TOL and p >= top - TOL:
                return p, e
        return np.nan, np.nan
    win = best_p > TOL
    be = np.inf  # the smallest e among the competitors
    for i in range(cnt):
        o = at + ENDS * i
        if stuck_only and ends[o + 3] == 0:
            continue
        p, e = _end_value(keys, vals, base, ends, o, j, n)
        if (win and p >= best_p - TOL) or (not win and ends[o + 2] == least):
            be = min(be, e)
    for i in range(cnt):  # the first competitor within TOL of it has the fewest cards
        o = at + ENDS * i
        if stuck_only and ends[o + 3] == 0:
            continue
        p, e = _end_value(keys, vals, base, ends, o, j, n)
        if ((win and p >= best_p - TOL) or (not win and ends[o + 2] == least)) and e <= be + TOL:
            return p, e
    return np.nan, np.nan


@nb.njit(cache=True, nogil=True)
def _ends_at(kt, exposed, heights0, pw, meta, ecache, epool, mark, g, r):
    """The offset of the endpoints of (h, drawn(r)) in ``epool`` (listed on first use)."""
    slot = g * STOCK_KINDS + r
    eo = ecache[slot]
    if eo < 0:
        eo = meta[_EUSED]
        wrote, epool = new_ends(kt, exposed, heights0, pw, g, r, eo, mark, epool)
        meta[_EUSED] = eo + wrote
        ecache[slot] = eo
    return eo, epool


@nb.njit(cache=True, nogil=True)
def draw_value(memo, root, pw, pwd, n, goal, aux, g, d, j):
    """(p, e) of drawing at the state (dense heights g, D-code d, |D| = j < n) below the
    position ``root`` (``inputs``; ``pw``, ``pwd`` the codes' place values), with every
    state below it that the value reads memoised.  Depth-first with an explicit stack (a
    frame per card drawn).  A frame goes through the kinds left; for each, phase 0 makes
    sure every endpoint that may draw is valued (pushing the first that is not), except
    those ``dead`` finds lost: they get p = 0 and no e yet (NaN); phase 1, where the best
    p is at most TOL (the fewest cards compete), values the fewest-cards endpoints that
    lack an e.  A dead state's frame (``zero``: nothing after it can win) has phase 1 only.
    Goal ``STROKES`` needs every e: nothing is left out.  Then the frame sums the picks.
    Returns ``(p, e, memo)``, NaN once the budget is hit."""
    kt, exposed, heights0, _, m0 = root
    keys, vals, meta, ecache, epool, mark = memo
    g_size = meta[_GSIZE]
    prune = goal != STROKES
    s = _slot(keys, d * g_size + g)
    if keys[s] != -1 and not np.isnan(vals[2 * s + 1]):
        return vals[2 * s], vals[2 * s + 1], memo
    if meta[_FAILED]:
        return np.nan, np.nan, memo
    depth = n + 2
    fg = np.empty(depth, np.int64)
    fgp = np.empty(depth, np.int64)
    fd = np.empty(depth, np.int64)
    fj = np.empty(depth, np.int64)
    fr = np.zeros(depth, np.int64)
    fph = np.zeros(depth, np.int64)
    fi = np.zeros(depth, np.int64)
    fz = np.zeros(depth, np.bool_)
    gp = 0
    x = g
    for c in range(COLUMNS):
        gp |= (x % (heights0[c] + 1)) << (BITS * c)
        x //= heights0[c] + 1
    sp = 0
    fg[0], fgp[0], fd[0], fj[0] = g, gp, d, j
    fz[0] = prune and dead(aux, exposed, m0, pwd, gp, d)
    while sp >= 0:
        g, d, j, zero = fg[sp], fd[sp], fj[sp], fz[sp]
        r, ph, i = fr[sp], fph[sp], fi[sp]
        pushed = False
        while r < STOCK_KINDS and not pushed:
            if m0[r] - (d // pwd[r]) % (m0[r] + 1) == 0:
                r += 1
                continue
            eo, epool = _ends_at(kt, exposed, heights0, pw, meta, ecache, epool, mark, g, r)
            cnt = epool[eo]
            at = eo + 1
            d2 = d + pwd[r]
            base = d2 * g_size
            if j + 1 < n:
                if ph == 0 and zero:
                    ph = 1
                while ph == 0 and i < cnt:
                    o = at + ENDS * i
                    i += 1
                    if epool[o + 3] == 0 or epool[o + 1] == 0:
                        continue
                    s = _slot(keys, base + epool[o])
                    if keys[s] != -1:
                        continue
                    if prune and dead(aux, exposed, m0, pwd, epool[o + 1], d2):
                        keys[s] = base + epool[o]
                        vals[2 * s], vals[2 * s + 1] = 0.0, np.nan
                        meta[_COUNT] += 1
                        if 2 * meta[_COUNT] > keys.shape[0]:
                            keys, vals = _grown(keys, vals)
                        continue
                    fr[sp], fph[sp], fi[sp] = r, 0, i
                    sp += 1
                    fg[sp], fgp[sp], fd[sp], fj[sp] = epool[o], epool[o + 1], d2, j + 1
                    fr[sp], fph[sp], fi[sp], fz[sp] = 0, 0, 0, False
                    pushed = True
                    break
                if pushed:
                    break
                if ph == 0:
                    ph, i = 1, 0
                if prune and _nothing_to_win(keys, vals, epool, at, cnt, base, zero):
                    least = -1
                    while i < cnt:
                        o = at + ENDS * i
                        i += 1
                        if epool[o + 3] == 0:
                            continue
                        if least < 0:
                            least = epool[o + 2]
                        if epool[o + 2] != least:
                            break
                        s = _slot(keys, base + epool[o])
                        if keys[s] == -1 or np.isnan(vals[2 * s + 1]):
                            fr[sp], fph[sp], fi[sp] = r, 1, i - 1
                            sp += 1
                            fg[sp], fgp[sp], fd[sp], fj[sp] = epool[o], epool[o + 1], d2, j + 1
                            fr[sp], fph[sp], fi[sp], fz[sp] = 0, 0, 0, True
                            pushed = True
                            break
                if pushed:
                    break
            r += 1
            ph, i = 0, 0
        if pushed:
            continue
        p, e = _frame_value(goal, keys, vals, g_size, ecache, epool, m0, pwd, g, d, j, n)
        key = d * g_size + g
        s = _slot(keys, key)
        if keys[s] == -1:
            keys[s] = key
            meta[_COUNT] += 1
        vals[2 * s], vals[2 * s + 1] = p, e
        if 2 * meta[_COUNT] > keys.shape[0]:
            keys, vals = _grown(keys, vals)
        if meta[_COUNT] >= meta[_CAP]:
            meta[_FAILED] = 1
            return np.nan, np.nan, (keys, vals, meta, ecache, epool, mark)
        sp -= 1
    s = _slot(keys, fd[0] * g_size + fg[0])
    return vals[2 * s], vals[2 * s + 1], (keys, vals, meta, ecache, epool, mark)


@nb.njit(cache=True, nogil=True, inline="always")
def _frame_value(goal, keys, vals, g_size, ecache, epool, m0, pwd, g, d, j, n):
    """A frame's (p, e) once every endpoint it reads is memoised: over the kinds r left,
    their chance times the pick among the endpoints of (h, drawn(r))."""
    p = 0.0
    e = 0.0
    for r in range(STOCK_KINDS):
        left = m0[r] - (d // pwd[r]) % (m0[r] + 1)
        if left == 0:
            continue
        eo = ecache[g * STOCK_KINDS + r]
        vp, ve = pick(goal, keys, vals, g_size, epool, eo + 1, epool[eo], d + pwd[r], j + 1, n)
        w = left / (n - j)
        p += w * vp
        e += w * ve
    return p, e


@nb.njit(cache=True, nogil=True, inline="always")
def _nothing_to_win(keys, vals, ends, at, cnt, base, zero):
    """Is the best p of the endpoints (that may draw) at most TOL?  Every one is in the
    memo (phase 0), or the frame is ``zero``."""
    if zero:
        return True
    for i in range(cnt):
        o = at + ENDS * i
        if ends[o + 3] == 0:
            continue
        if ends[o + 1] == 0:
            return False
        s = _slot(keys, base + ends[o])
        if vals[2 * s] > TOL:
            return False
    return True


@nb.njit(cache=True, nogil=True)
def _grown(keys, vals):
    k2, v2 = _table(2 * keys.shape[0])
    for s in range(keys.shape[0]):
        if keys[s] != -1:
            t = _slot(k2, keys[s])
            k2[t] = keys[s]
            v2[2 * t], v2[2 * t + 1] = vals[2 * s], vals[2 * s + 1]
    return k2, v2


@nb.njit(cache=True, nogil=True)
def position_value(memo, root, pw, pwd, n, goal, aux, gp, u):
    """(p, e) of the position (packed heights gp, top u) below ``root`` with nothing drawn:
    the best of its chain endpoints.  Returns ``(p, e, memo)``, NaN once the budget is hit."""
    ends = np.empty(64, np.int64)
    cnt, ends = chain_ends(root.kt, root.exposed, pw, gp, u, memo[5], ends, 0)
    for i in range(cnt):
        o = ENDS * i
        if ends[o + 1] != 0 and n > 0 and ends[o + 3] != 0:
            p, e, memo = draw_value(memo, root, pw, pwd, n, goal, aux, ends[o], 0, 0)
            if np.isnan(p):
                return np.nan, np.nan, memo
    p, e = pick(goal, memo[0], memo[1], memo[2][_GSIZE], ends, 0, cnt, 0, 0, n)
    return p, e, memo


@nb.njit(cache=True, nogil=True)
def solve_direct(kt, exposed, heights0, top0, m0, goal, max_states):
    """The position (heights0, top0) with stock multiset ``m0``: its (p, e) and every legal
    move's (index c: after playing column c; ``COLUMNS``: after a draw; NaN where illegal).
    ``goal``: ``space.WIN`` (the win-strokes rule) or ``STROKES``.  Returns ``(resolved,
    root, moves_p, moves_e, states, peak bytes)``; not resolved when ``max_states`` states
    were memoised before the end."""
    pw, full, g_size = powers(heights0)
    pwd, size, order, layer_start = d_codes(m0)
    n = layer_start.shape[0] - 2
    memo = new_memo(g_size, max(max_states, 1))
    aux = dead_aux(kt)
    gp0 = packed_of(heights0)
    position = Root(kt, exposed, heights0, top0, m0)
    root = np.full(2, np.nan)
    mp = np.full(COLUMNS + 1, np.nan)
    me = np.full(COLUMNS + 1, np.nan)
    root[0], root[1], memo = position_value(memo, position, pw, pwd, n, goal, aux, gp0, top0)
    stuck = True
    for c in range(COLUMNS):
        h = heights0[c]
        if h == 0 or kt.play_next[top0, exposed[c, h]] < 0:
            continue
        stuck = False
        mp[c], me[c], memo = position_value(memo, position, pw, pwd, n, goal, aux,
                                            gp0 - (np.int64(1) << (BITS * c)),
                                            kt.play_next[top0, exposed[c, h]])
    if n > 0 and gp0 != 0 and (stuck or not kt.when_stuck):
        mp[COLUMNS], me[COLUMNS], memo = draw_value(memo, position, pw, pwd, n, goal, aux,
                                                    dense_of(gp0, pw), 0, 0)
    keys, vals, meta, ecache, epool, mark = memo
    peak = (keys.nbytes + vals.nbytes) * 3 // 2 + ecache.nbytes + epool.nbytes + mark.nbytes
    if meta[_FAILED]:
        return False, np.full(2, np.nan), np.full(COLUMNS + 1, np.nan), \
            np.full(COLUMNS + 1, np.nan), meta[_COUNT], peak
    return True, root, mp, me, meta[_COUNT], peak
