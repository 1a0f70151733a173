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
hash table (``honest.memo``, keys ``memo.key_of``), so only the states the policy reaches
from the position, or that compete with those, are ever valued: the policy graph, with
its nothing-to-win part (the states W = 0, valued by the fewest-cards rule) included.
That part is pooled (``honest.pool``, Fact 5): one entry for the states of one h with the
same cards left of the kinds alive at h, valued from those cards alone.

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

from golfstats.kernels.honest.blocks import rank_of
from golfstats.kernels.honest.ends import ENDS, chain_ends, new_ends
from golfstats.kernels.honest.memo import (
    BYTES,
    CAP,
    COUNT,
    EUSED,
    FAILED,
    GSIZE,
    empty_table,
    find,
    key_of,
    put,
)
from golfstats.kernels.honest.pool import (
    alive_left,
    ask_ahead,
    canonical,
    cards_at,
    choose_zero,
    dead_kinds,
)
from golfstats.kernels.honest.space import (
    STOCK_KINDS,
    TOL,
)


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
    """``p_at`` with the values goal win kept, ``sol`` (``inputs.Kept``)."""
    return p_at(sol.dr, sol.cum, sol.off, sol.vals, sol.hmap, g, d)


@nb.njit(cache=True, nogil=True, inline="always")
def _drawn(dr, hmap, g, d):
    h = hmap[g]
    return h >= 0 and (dr[d, h >> 6] >> np.uint64(h & 63)) & np.uint64(1) != 0


@nb.njit(cache=True, nogil=True)
def new_policy(kt, exposed, heights0, m0, max_states, max_bytes, pooled=True):
    """An empty table for the position's heights ``heights0`` and stock ``m0`` (budgets
    ``max_states`` states and ``max_bytes`` bytes of table, ``memo.put``).  ``pooled``:
    the states that cannot be won are pooled by their alive cards (``pool``); without,
    every kind counts as alive (the same values, more states: for the tests)."""
    dead = dead_kinds(kt, exposed, heights0, m0)
    if not pooled:
        dead[:] = 0
    g_size = dead.shape[0]
    tab = empty_table(1 << 12)
    meta = np.zeros(8, np.int64)  # ..., choices made, endpoints scanned
    meta[CAP] = max_states
    meta[BYTES] = max_bytes
    meta[GSIZE] = g_size
    ecache = np.full(g_size * STOCK_KINDS, -1, np.int64)
    epool = np.empty(1 << 12, np.int64)
    mark = np.zeros(g_size, np.int64)
    return tab, meta, ecache, epool, mark, dead


@nb.njit(cache=True, nogil=True)
def policy_count(pt):
    return pt[1][COUNT]


@nb.njit(cache=True, nogil=True)
def policy_failed(pt):
    """The budget was hit (``1``), or not (``0``)."""
    return 1 if pt[1][FAILED] else 0


@nb.njit(cache=True, nogil=True, inline="always")
def choose(tab, meta, ends, at, cnt, d, j, n, sol, dead, m0, pwd):
    """The doc's choice among the endpoints ``ends[at:at + ENDS * cnt]`` with D-code d drawn
    (|D| = j), p from ``sol = (dr, cum, off, vals, hmap)`` (``p_at``; inlined, the tuple
    costs nothing), e from the table ``tab``; an
    endpoint that is not drawn from cannot be won (p = 0) and is looked up pooled
    (``pool``, the kinds dead there: ``dead``).

    Returns ``(status, p, e, cards, index, need, code, zero)``: status 0 a value (of the
    endpoint ``index``, the first chosen in list order); 1 the value of the state ``need``
    (a dense code) is not in the table yet: its D-code ``code``, canonical when ``zero``.
    """
    dr, cum, off, vals, hmap = sol
    g_size = meta[GSIZE]
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
            live = gp != 0 and j < n and _drawn(dr, hmap, g, d)
            if win:
                if gp == 0:
                    p = 1.0
                elif not live:
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
                code = d if live else canonical(d, dead[g], m0, pwd)
                s = find(tab, key_of(g, code, not live, g_size))
                if tab[3 * s] == -1.0:
                    return 1, 0.0, 0.0, 0, -1, g, code, not live
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
    return 0, bp, best_e, bc, bi, -1, 0, False


@nb.njit(cache=True, nogil=True)
def policy_value(pt, root, pw, pwd, n, sol, g, d, j):
    """The policy's (p, e) of drawing at the state (dense code g, D-code d, |D| = j < n)
    below the position ``root`` (``inputs``), memoised with everything it needs.  Returns
    ``(p, e, pt)`` (NaN once failed).

    The table's arrays are taken out of ``pt`` once: the depth-first walk below calls only
    inlined helpers on plain arrays (tuples of arrays passed on every call cost more
    than the work).  A frame below a state that cannot be won is pooled (``fz``): its
    D-code is canonical and ``fj`` is not used."""
    kt, exposed, heights0, _, m0 = root
    tab, meta, ecache, epool, mark, dead = pt
    dr, cum, off, vals, hmap = sol
    g_size = meta[GSIZE]
    zero = not _drawn(dr, hmap, g, d)
    if zero:
        d = canonical(d, dead[g], m0, pwd)
    key0 = key_of(g, d, zero, g_size)
    i = find(tab, key0)
    if tab[3 * i] != -1.0:
        return tab[3 * i + 1], tab[3 * i + 2], pt
    if meta[FAILED]:
        return np.nan, np.nan, pt
    depth = n + 2
    fg = np.empty(depth, np.int64)
    fd = np.empty(depth, np.int64)
    fj = np.empty(depth, np.int64)
    fr = np.zeros(depth, np.int64)
    fp = np.zeros(depth, np.float64)
    fe = np.zeros(depth, np.float64)
    fz = np.zeros(depth, np.bool_)
    fa = np.zeros(depth, np.int64)  # a pooled frame's alive cards left
    sp = 0
    fg[0], fd[0], fj[0], fz[0] = g, d, j, zero
    fa[0] = alive_left(d, dead[g], m0, pwd) if zero else 0
    while sp >= 0:
        g, d, j = fg[sp], fd[sp], fj[sp]
        r = fr[sp]
        child = False
        zero = fz[sp]
        alive = fa[sp]
        if zero and alive > 1:  # (again after a child: its subtree may have evicted them)
            ask_ahead(tab, ecache, epool, dead, m0, pwd, g, d, g_size, r)
        if zero and alive == 0:  # only dead cards left: nothing more is played
            fe[sp] = float(cards_at(g, pw, heights0))
            r = STOCK_KINDS
        while r < STOCK_KINDS:
            if zero and (dead[g] >> r) & 1:
                r += 1
                continue
            left = m0[r] - (d // pwd[r]) % (m0[r] + 1)
            if left == 0:
                r += 1
                continue
            slot = g * STOCK_KINDS + r
            eo = ecache[slot]
            if eo < 0:
                eo = meta[EUSED]
                wrote, epool = new_ends(kt, exposed, heights0, pw, g, r, eo, mark, epool)
                meta[EUSED] = eo + wrote
                ecache[slot] = eo
            if zero:
                status, p, e, c, _, need, code, nz = choose_zero(
                    tab, meta, epool, eo + 1, epool[eo], d + pwd[r], dead[g], alive == 1, dead,
                    m0, pwd)
            else:
                status, p, e, c, _, need, code, nz = choose(
                    tab, meta, epool, eo + 1, epool[eo], d + pwd[r], j + 1, n, sol, dead, m0, pwd)
            if status == 1:
                fr[sp] = r
                sp += 1
                fg[sp], fd[sp], fj[sp], fr[sp], fp[sp], fe[sp] = need, code, j + 1, 0, 0.0, 0.0
                fz[sp] = nz
                fa[sp] = alive_left(code, dead[need], m0, pwd) if nz else 0
                child = True
                break
            w = left / alive if zero else left / (n - j)
            fp[sp] += w * p
            fe[sp] += w * e
            r += 1
        if child:
            continue
        tab = put(tab, meta, key_of(g, d, zero, g_size), fp[sp], fe[sp])
        if meta[COUNT] >= meta[CAP] or meta[FAILED]:
            meta[FAILED] = 1
            return np.nan, np.nan, (tab, meta, ecache, epool, mark, dead)
        sp -= 1
    i = find(tab, key0)
    return tab[3 * i + 1], tab[3 * i + 2], (tab, meta, ecache, epool, mark, dead)


@nb.njit(cache=True, nogil=True)
def position_value(pt, root, pw, pwd, n, sol, gp, u, d, j):
    """The policy's (p, e) at a position below ``root`` (``inputs``; packed heights gp,
    top u, D-code d, |D| = j): the choice among its chain endpoints.  Returns
    ``(p, e, pt)`` (NaN once failed)."""
    kt, exposed, _, _, m0 = root
    ends = np.empty(64, np.int64)
    cnt, ends = chain_ends(kt, exposed, pw, gp, u, pt[4], ends, 0)
    while True:
        status, p, e, c, _, need, _, _ = choose(pt[0], pt[1], ends, 0, cnt, d, j, n, sol, pt[5],
                                                m0, pwd)
        if status == 0:
            return p, e, pt
        vp, ve, pt = policy_value(pt, root, pw, pwd, n, sol, need, d, j)
        if np.isnan(vp):
            return np.nan, np.nan, pt
