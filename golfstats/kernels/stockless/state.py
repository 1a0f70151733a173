"""The state of one pass of the stockless search (``stockless.search``): its bundles, built
at the start, and the line's moves one card on and back.  No I/O.
"""

from __future__ import annotations

from collections import namedtuple

import numba as nb
import numpy as np

from golfstats.kernels.stockless.canon import canonical_tables
from golfstats.kernels.stockless.rules import card_data, kind_relations, walk_sums, walk_tables

#: Rules a pass may use (bit flags of ``opts``); ``DEFAULT_RULES`` are those that pay
#: for themselves (``kernels.stockless`` gives the measurements).
USE_WALK, USE_UNREACHED, USE_BURIED, USE_CANONICAL, USE_ORDER, USE_LAST = 1, 2, 4, 8, 16, 32
DEFAULT_RULES = USE_WALK | USE_CANONICAL | USE_ORDER
#: The rules a pass uses, read once from ``opts`` (``walk``, ``unreached`` and ``last``
#: only where the ranks wrap).
Use = namedtuple("Use", "walk unreached buried canon order last")
#: What a pass knows of its deal and never changes: ``rel`` (``rules.KindRelations``),
#: ``cards`` (``rules.CardData``), ``use``; ``shifts[c]``, where column c's height sits in a
#: key (the top in its low 4 bits); ``below[c, i]``, 1 if the card beneath card (c, i) may
#: follow it (successor rule); ``group``, ``place``, ``delta``, the canonical tables
#: (``canon.canonical_tables``); ``sig``, ``neg``, ``pos``, the walk rule's
#: (``rules.walk_tables``).
Pass = namedtuple("Pass", "rel cards use shifts below group place delta sig neg pos")
#: The state at the search's depth, kept in step as it plays and backtracks: heights ``h``;
#: by kind, ``cnt`` the cards left, ``colmask`` the columns whose exposed card is of that
#: kind, ``botcnt`` the non-empty columns with that bottom kind; ``gindex[g]`` canonical
#: group g's index; ``acnt`` the walk rule's sums of the cards left; ``av`` scratch for
#: the walk rule of one state (``rules.euler_ok_in``).
Counts = namedtuple("Counts", "h cnt colmask botcnt gindex acnt av")
#: Per depth d of the line: ``path[d]`` the column played, ``fkey[d]`` the state's raw key,
#: its candidates ``cand[d, :ncand[d]]`` in playing order (``ncand[d]`` -1: not expanded
#: yet), ``icand[d]`` the next one, ``cand_last[d]`` their successor-rule columns,
#: ``last[d]`` the columns whose bottom card can only be the last card, ``sd[d]`` the
#: stuck depths (pass 2).
Line = namedtuple("Line", "path fkey cand ncand icand cand_last last sd")
#: The children generated at one expansion (at most one a column) before their set
#: lookups: column, canonical key, set slot, order score, successor-rule columns; and
#: ``score``, the scores of the candidates as they are placed in order.
Children = namedtuple("Children", "col key slot sc last score")



@nb.njit(cache=True, nogil=True)
def pass_tables(kt, exposed, heights0, opts):
    """The ``Pass`` of a deal (cards ``exposed``, heights ``heights0``) under rules ``opts``."""
    rel = kind_relations(kt)
    cards = card_data(exposed, heights0, rel.pred)
    kinds, fol, wrap = cards.kinds, rel.fol, rel.wrap
    ncols = heights0.shape[0]
    hmax = kinds.shape[1] - 2
    bits = 1
    while (1 << bits) <= hmax:
        bits += 1
    use = Use(wrap and opts & USE_WALK != 0, wrap and opts & USE_UNREACHED != 0,
              opts & USE_BURIED != 0, opts & USE_CANONICAL != 0, opts & USE_ORDER != 0,
              wrap and opts & USE_LAST != 0)
    below = np.zeros(cards.above.shape, np.int64)
    for c in range(ncols):
        for i in range(2, heights0[c] + 1):
            if (fol[kinds[c, i]] >> kinds[c, i - 1]) & 1:
                below[c, i] = 1
    shifts = np.empty(ncols, np.int64)
    for c in range(ncols):
        shifts[c] = bits * c + 4
    group, place, delta = canonical_tables(kinds, heights0, shifts)
    sig, neg, pos = walk_tables()
    return Pass(rel, cards, use, shifts, below, group, place, delta, sig, neg, pos)


@nb.njit(cache=True, nogil=True)
def start_counts(heights0, top0, ps):
    """The ``Counts`` of the start, and its raw key, cards left, kinds left (``nz``, a mask),
    ``ends`` (the bottom kinds of non-empty columns, as ranks 0..12: where the walk may
    end) and ``canon`` (canonical key = raw key + canon, the groups' deltas, kept in step
    with the heights)."""
    kinds = ps.cards.kinds
    h = heights0.copy()
    cnt = np.zeros(16, np.int64)
    colmask = np.zeros(16, np.int64)
    botcnt = np.zeros(16, np.int64)
    key = top0
    left = 0
    for c in range(h.shape[0]):
        key += h[c] << ps.shifts[c]
        left += h[c]
        for i in range(1, h[c] + 1):
            cnt[kinds[c, i]] += 1
        if h[c] > 0:
            colmask[kinds[c, h[c]]] |= 1 << c
            botcnt[kinds[c, 1]] += 1
    nz = 0
    ends = 0
    for k in range(1, 14):
        if cnt[k] > 0:
            nz |= 1 << k
        if botcnt[k] > 0:
            ends |= 1 << (k - 1)
    gindex = np.zeros(ps.delta.shape[0], np.int64)
    for c in range(h.shape[0]):
        if ps.group[c] >= 0:
            gindex[ps.group[c]] += h[c] * ps.place[c]
    canon = 0
    if ps.use.canon:
        for g in range(gindex.shape[0]):
            canon += ps.delta[g, gindex[g]]
    acnt = walk_sums(cnt, ps.sig)
    counts = Counts(h, cnt, colmask, botcnt, gindex, acnt, np.empty(13, np.int64))
    return counts, key, left, nz, ends, canon


@nb.njit(cache=True, nogil=True)
def buffers(depth_max, ncols):
    """The ``Line`` of a pass (lines of at most ``depth_max`` states) and its ``Children``."""
    ln = Line(np.zeros(depth_max, np.int64), np.zeros(depth_max, np.int64),
              np.zeros((depth_max, ncols), np.int64), np.zeros(depth_max, np.int64),
              np.zeros(depth_max, np.int64), np.zeros((depth_max, ncols), np.int64),
              np.zeros(depth_max, np.int64), np.zeros((depth_max, ncols), np.int64))
    ch = Children(np.zeros(ncols, np.int64), np.zeros(ncols, np.int64),
                  np.zeros(ncols, np.int64), np.zeros(ncols, np.int64),
                  np.zeros(ncols, np.int64), np.zeros(ncols, np.int64))
    return ln, ch


@nb.njit(nogil=True, inline="always")
def play(d, nz, ends, canon, ps, st, ln):
    """Play the next candidate of depth d: the counts one card on, the line one longer.
    Returns the new ``(nz, ends, canon)``."""
    kinds = ps.cards.kinds
    i = ln.icand[d]
    c = ln.cand[d, i]
    ln.last[d + 1] = ln.cand_last[d, i]
    ln.icand[d] = i + 1
    hc = st.h[c]
    x = kinds[c, hc]
    st.colmask[x] &= ~(1 << c)
    st.h[c] = hc - 1
    g = ps.group[c]
    if ps.use.canon and g >= 0:
        canon += ps.delta[g, st.gindex[g] - ps.place[c]] - ps.delta[g, st.gindex[g]]
        st.gindex[g] -= ps.place[c]
    for r in range(13):
        st.acnt[r] -= ps.sig[r, x - 1]
    if hc > 1:
        st.colmask[kinds[c, hc - 1]] |= 1 << c
    else:
        st.botcnt[kinds[c, 1]] -= 1
        if st.botcnt[kinds[c, 1]] == 0:
            ends &= ~(1 << (kinds[c, 1] - 1))
    st.cnt[x] -= 1
    if st.cnt[x] == 0:
        nz &= ~(1 << x)
    ln.path[d] = c
    ln.fkey[d + 1] = (ln.fkey[d] & ~15) - (1 << ps.shifts[c]) + ps.rel.kind_top[x]
    return nz, ends, canon


@nb.njit(nogil=True, inline="always")
def unplay(d, nz, ends, canon, ps, st, ln):
    """Backtrack to depth d: take back the card played there.  Returns the new ``(nz, ends,
    canon)``."""
    kinds = ps.cards.kinds
    c = ln.path[d]
    hc = st.h[c] + 1
    x = kinds[c, hc]
    if hc > 1:
        st.colmask[kinds[c, hc - 1]] &= ~(1 << c)
    else:
        st.botcnt[kinds[c, 1]] += 1
        ends |= 1 << (kinds[c, 1] - 1)
    st.colmask[x] |= 1 << c
    st.h[c] = hc
    g = ps.group[c]
    if ps.use.canon and g >= 0:
        canon += ps.delta[g, st.gindex[g] + ps.place[c]] - ps.delta[g, st.gindex[g]]
        st.gindex[g] += ps.place[c]
    for r in range(13):
        st.acnt[r] += ps.sig[r, x - 1]
    st.cnt[x] += 1
    nz |= 1 << x
    return nz, ends, canon
