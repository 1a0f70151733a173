"""Goal win, pass 2: the policy's own values (p, e), along the states it reaches.

Under goal win the doc's rule chooses among chain endpoints by p first, and e only
breaks ties (p within TOL) or, where nothing can be won (the best p* is at most TOL),
comes after the fewest cards.  So e is needed only at the endpoints that compete:

    after a draw (or at a position), the endpoints of the chains from it that may draw;
    p* their best p (``honest.winp``: p of the drawn-from states, 0 where no order wins,
    1 for the cleared tableau);
    competing: if p* > TOL those with p >= p* - TOL, else those with the fewest cards;
    chosen: if p* > TOL the smallest e (within TOL), then the fewest cards; else the
    smallest e; and the value is the chosen endpoint's own (p, e).

The value of a state (h, D) about to draw is the P(r | D)-weighted sum of the values
chosen after each kind r; of an endpoint, (1, -stock left) if cleared, (0, cards) when
no stock is left, else the value of the state.  ``policy_value`` evaluates this
depth-first (explicit stack) from any state and memoises every state it values in a
hash table (keys ``d * g_size + g``), so only the states the policy reaches from the
position, or that compete with those, are ever valued: the policy graph, with its
nothing-to-win part (the states W = 0, valued by the fewest-cards rule) included.

This is the doc's rule stated on the set of endpoints, the same as the play-out applies
(``honest.play_line``).  The endpoints of (h, drawn(r)) are cached per (h, r): distinct
height vectors, each with its cards and whether it may draw (always under any-time;
under when-stuck where some top it is reached with accepts no exposed card).

The table is one tuple ``pt`` (``new_policy``) that the functions take and return (its
arrays grow).  A table beyond its state budget sets ``failed`` (values NaN then).
No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.hashset import prefetch
from golfstats.kernels.honest.blocks import rank_of
from golfstats.kernels.honest.ends import ENDS, chain_ends, new_ends
from golfstats.kernels.honest.space import (
    STOCK_KINDS,
    TOL,
)

_COUNT, _EUSED, _CAP, _FAILED, _GSIZE = 0, 1, 2, 3, 4


@nb.njit(cache=True, nogil=True, inline="always")
def p_at(dr, cum, off, vals, hmap, g, d):
    """p of the state (dense heights g, D-code d) about to draw: its value when it is drawn
    from, else 0 (a reachable state that is not drawn from has W clear: Fact 1).  ``dr``
    the drawn-from table over the compact heights codes ``hmap[g]`` (-1: no state at g),
    ``cum`` its rank index, block d's values from ``vals[off[d]]``."""
    h = hmap[g]
    if h < 0:
        return 0.0
    k = rank_of(dr, cum, d, h)
    return vals[off[d] + k] if k >= 0 else 0.0


@nb.njit(cache=True, nogil=True, inline="always")
def p_of(sol, g, d):
    """``p_at`` with ``sol = (dr, cum, off, vals, hmap)``."""
    return p_at(sol[0], sol[1], sol[2], sol[3], sol[4], g, d)


@nb.njit(cache=True, nogil=True, inline="always")
def _drawn(dr, hmap, g, d):
    h = hmap[g]
    return h >= 0 and (dr[d, h >> 6] >> np.uint64(h & 63)) & np.uint64(1) != 0


@nb.njit(cache=True, nogil=True)
def new_policy(g_size, max_states):
    """An empty table for a position of ``g_size`` height codes (budget ``max_states``)."""
    tab = _empty_table(1 << 12)
    meta = np.zeros(8, np.int64)  # ..., choices made, endpoints scanned
    meta[_CAP] = max_states
    meta[_GSIZE] = g_size
    ecache = np.full(g_size * STOCK_KINDS, -1, np.int64)
    epool = np.empty(1 << 12, np.int64)
    mark = np.zeros(g_size, np.int64)
    return tab, meta, ecache, epool, mark


@nb.njit(cache=True, nogil=True)
def policy_count(pt):
    return pt[1][_COUNT]


@nb.njit(cache=True, nogil=True)
def policy_failed(pt):
    """The budget was hit (``1``), or not (``0``)."""
    return 1 if pt[1][_FAILED] else 0


@nb.njit(cache=True, nogil=True)
def _empty_table(slots):
    """A hash table of ``slots`` (a power of two) entries: key, p, e side by side in one
    array, so a probe reads one cache line; an empty slot's key is -1."""
    tab = np.empty(3 * slots, np.float64)
    for i in range(slots):
        tab[3 * i] = -1.0
    return tab


@nb.njit(cache=True, nogil=True, inline="always")
def _home(key, slots):
    """The home slot of ``key`` in a table of ``slots`` (a power of two, at most 2**32)
    entries: the top bits of the Fibonacci hash (its top 32 bits times ``slots``, shifted
    down), so that doubling the table sends home slot i to 2i or 2i + 1 and the doubling
    walks both tables in order."""
    h = np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)
    return np.int64(((h >> np.uint64(32)) * np.uint64(slots)) >> np.uint64(32))


@nb.njit(cache=True, nogil=True, inline="always")
def _find(tab, key):
    """The slot of ``key`` (an int below 2**53, stored exactly as a float), or the empty
    slot where it would go."""
    slots = tab.shape[0] // 3
    mask = slots - 1
    i = _home(key, slots)
    fkey = float(key)
    while True:
        k = tab[3 * i]
        if k == fkey or k == -1.0:
            return i
        i = (i + 1) & mask


@nb.njit(cache=True, nogil=True, inline="always")
def _put(tab, meta, key, p, e):
    """Store (p, e) under ``key``; returns the table (doubled when half full)."""
    i = _find(tab, key)
    if tab[3 * i] == -1.0:
        meta[_COUNT] += 1
        tab[3 * i] = float(key)
    tab[3 * i + 1] = p
    tab[3 * i + 2] = e
    slots = tab.shape[0] // 3
    if 2 * meta[_COUNT] > slots:
        tab2 = _empty_table(2 * slots)
        for s in range(slots):  # in order: the new home slots increase (but for wrapped runs)
            if tab[3 * s] != -1.0:
                t = _find(tab2, np.int64(tab[3 * s]))
                tab2[3 * t] = tab[3 * s]
                tab2[3 * t + 1] = tab[3 * s + 1]
                tab2[3 * t + 2] = tab[3 * s + 2]
        return tab2
    return tab


@nb.njit(cache=True, nogil=True, inline="always")
def choose(tab, meta, ends, at, cnt, d, j, n, dr, cum, off, vals, hmap, zero):
    """The doc's choice among the endpoints ``ends[at:at + ENDS * cnt]`` with D-code d drawn
    (|D| = j), p from ``p_at(dr, cum, off, vals, hmap, ...)``, e from the table ``tab``.  With
    ``zero`` the caller knows that no stock order wins from any of them (they follow a
    draw from a state whose W bit is 0), so their p is not looked up.

    Returns ``(status, p, e, cards, index, need)``: status 0 a value (of the endpoint
    ``index``, the first chosen in list order); 1 the value of the state ``need`` (a
    dense code, drawn from at d) is not in the table yet.
    """
    g_size = meta[_GSIZE]
    stuck_only = j < n
    meta[6] += 1
    meta[7] += cnt
    best_p = -1.0
    least = 1 << 30
    for i in range(cnt):
        o = at + ENDS * i
        if stuck_only and ends[o + 3] == 0:
            continue
        g, gp, cards = ends[o], ends[o + 1], ends[o + 2]
        least = min(least, cards)
        if zero:
            break  # fewest cards first: the first that may draw has the fewest
        if gp == 0:
            p = 1.0
        elif j == n:
            p = 0.0
        else:
            p = p_at(dr, cum, off, vals, hmap, g, d)
        best_p = max(best_p, p)
    win = best_p > TOL
    # the competing endpoints' own values: the smallest e (within TOL), then the fewest
    # cards, then the first (two passes: the smallest e, then the pick)
    be = np.inf
    best_e = 0.0
    n_comp = 0
    for rnd in range(2):
        bi = -1
        bp = 0.0
        bc = 1 << 30
        for i in range(cnt):
            o = at + ENDS * i
            if stuck_only and ends[o + 3] == 0:
                continue
            g, gp, cards = ends[o], ends[o + 1], ends[o + 2]
            if win:
                if gp == 0:
                    p = 1.0
                elif j == n or not _drawn(dr, hmap, g, d):
                    continue
                else:
                    p = p_at(dr, cum, off, vals, hmap, g, d)
                if p < best_p - TOL:
                    continue
            elif cards != least:
                if cards > least:
                    break  # fewest cards first: no more compete
                continue
            if gp == 0:
                vp, ve = 1.0, -float(n - j)
            elif j == n:
                vp, ve = 0.0, float(cards)
            else:
                s = _find(tab, d * g_size + g)
                if tab[3 * s] == -1.0:
                    return 1, 0.0, 0.0, 0, -1, g
                vp, ve = tab[3 * s + 1], tab[3 * s + 2]
            if rnd == 0:
                be = min(be, ve)
                if n_comp == 0:
                    bp, bc, bi, best_e = vp, cards, i, ve
                n_comp += 1
            elif ve <= be + TOL and cards < bc:
                bp, bc, bi = vp, cards, i
                best_e = ve
        if n_comp == 1:
            break  # one competitor: it is the choice
    return 0, bp, best_e, bc, bi, -1


@nb.njit(cache=True, nogil=True, inline="always")
def _ask_ahead(tab, ecache, epool, m0, pwd, g, d, g_size, r0):
    """Prefetch the table slots a draw at (g, d), nothing to win below it and stock left
    after the draw, will read: per kind from ``r0`` on that is left and whose endpoints
    are listed, the home slots of the endpoints that may draw with the fewest cards (the
    competitors).  The reads then overlap instead of waiting one after another; no
    effect on values."""
    slots = tab.shape[0] // 3
    base = g * STOCK_KINDS
    for r in range(r0, STOCK_KINDS):
        if m0[r] == (d // pwd[r]) % (m0[r] + 1):
            continue
        eo = ecache[base + r]
        if eo < 0:
            continue
        least = -1
        for i in range(epool[eo]):  # fewest cards first
            o = eo + 1 + ENDS * i
            if epool[o + 3] != 0:
                if least >= 0 and epool[o + 2] != least:
                    break
                least = epool[o + 2]
                if epool[o + 1] != 0:
                    prefetch(tab, 3 * _home((d + pwd[r]) * g_size + epool[o], slots))


@nb.njit(cache=True, nogil=True)
def policy_value(pt, kt, exposed, heights0, pw, m0, pwd, n, sol, g, d, j):
    """The policy's (p, e) of drawing at the state (dense code g, D-code d, |D| = j < n),
    memoised with everything it needs.  Returns ``(p, e, pt)`` (NaN once failed).

    The table's arrays are taken out of ``pt`` once: the depth-first walk below calls only
    inlined helpers on plain arrays (tuples of arrays passed on every call cost more
    than the work)."""
    tab, meta, ecache, epool, mark = pt
    dr, cum, off, vals, hmap = sol
    g_size = meta[_GSIZE]
    i = _find(tab, d * g_size + g)
    if tab[3 * i] != -1.0:
        return tab[3 * i + 1], tab[3 * i + 2], pt
    if meta[_FAILED]:
        return np.nan, np.nan, pt
    depth = n + 2
    fg = np.empty(depth, np.int64)
    fd = np.empty(depth, np.int64)
    fj = np.empty(depth, np.int64)
    fr = np.zeros(depth, np.int64)
    fp = np.zeros(depth, np.float64)
    fe = np.zeros(depth, np.float64)
    fz = np.zeros(depth, np.bool_)
    sp = 0
    fg[0], fd[0], fj[0] = g, d, j
    fz[0] = not _drawn(dr, hmap, g, d)
    while sp >= 0:
        g, d, j = fg[sp], fd[sp], fj[sp]
        r = fr[sp]
        child = False
        zero = fz[sp]  # not drawn from: nothing after a draw here can win
        if zero and j + 1 < n:  # (again after a child: its subtree may have evicted them)
            _ask_ahead(tab, ecache, epool, m0, pwd, g, d, g_size, r)
        while r < STOCK_KINDS:
            left = m0[r] - (d // pwd[r]) % (m0[r] + 1)
            if left == 0:
                r += 1
                continue
            slot = g * STOCK_KINDS + r
            eo = ecache[slot]
            if eo < 0:
                eo = meta[_EUSED]
                wrote, epool = new_ends(kt, exposed, heights0, pw, g, r, eo, mark, epool)
                meta[_EUSED] = eo + wrote
                ecache[slot] = eo
            status, p, e, c, _, need = choose(tab, meta, epool, eo + 1, epool[eo], d + pwd[r],
                                              j + 1, n, dr, cum, off, vals, hmap, zero)
            if status == 1:
                fr[sp] = r
                sp += 1
                fg[sp], fd[sp], fj[sp], fr[sp], fp[sp], fe[sp] = need, d + pwd[r], j + 1, 0, 0.0, 0.0
                fz[sp] = zero or not _drawn(dr, hmap, need, d + pwd[r])  # (Fact 1)
                child = True
                break
            w = left / (n - j)
            fp[sp] += w * p
            fe[sp] += w * e
            r += 1
        if child:
            continue
        tab = _put(tab, meta, d * g_size + g, fp[sp], fe[sp])
        if meta[_COUNT] >= meta[_CAP]:
            meta[_FAILED] = 1
            return np.nan, np.nan, (tab, meta, ecache, epool, mark)
        sp -= 1
    i = _find(tab, fd[0] * g_size + fg[0])
    return tab[3 * i + 1], tab[3 * i + 2], (tab, meta, ecache, epool, mark)


@nb.njit(cache=True, nogil=True)
def position_value(pt, kt, exposed, heights0, pw, m0, pwd, n, sol, gp, u, d, j):
    """The policy's (p, e) at the position (packed heights gp, top u, D-code d, |D| = j):
    the choice among its chain endpoints.  Returns ``(p, e, pt)`` (NaN once failed)."""
    ends = np.empty(64, np.int64)
    cnt, ends = chain_ends(kt, exposed, pw, gp, u, pt[4], ends, 0)
    while True:
        status, p, e, c, _, need = choose(pt[0], pt[1], ends, 0, cnt, d, j, n, sol[0], sol[1],
                                          sol[2], sol[3], sol[4], False)
        if status == 0:
            return p, e, pt
        vp, ve, pt = policy_value(pt, kt, exposed, heights0, pw, m0, pwd, n, sol, need, d, j)
        if np.isnan(vp):
            return np.nan, np.nan, pt
