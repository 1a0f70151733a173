"""The state space of the honest expectimax (``docs/honest-play.md``): codes and comparisons.

A *state* is (h, D): the column heights h just before a draw and the multiset D of
kinds drawn since the position being valued (the stock still holds M0 - D, where M0
is the stock's multiset then).  A *position* is (h, t, D): heights, top, drawn.

* D is numbered by the mixed-radix *D-code* ``sum(D[r] * pwd[r])``, radix ``M0[r] + 1``
  per kind r (kinds 0..13, the joker being 0).  Adding a card of kind r adds ``pwd[r]``.
  A *layer* is the set of D with |D| = j; a draw moves from layer j to layer j + 1.
* h has three codes.  The *dense* code ``sum(h[c] * pw[c])`` (radix ``heights0[c] + 1``,
  as ``kernels.core``) indexes scratch arrays; the *packed* code ``sum(h[c] << 3c)``
  (3 bits a column) gives every column's exposed kind with a shift; the *key*
  ``cards_left << 21 | packed`` is what state lists store, sorted.  Sorted by key, a
  list runs level by level (cards left), and within a level in the order of both
  other codes (column 6 most significant): a play goes to the level below, and the
  children of a level's states through one column come in increasing order.

Values are pairs (p, e): win probability and expected strokes, compared by the goal
(``WIN``: larger p, ties smaller e; ``STROKES``: smaller e, ties larger p), two numbers
tying when they differ by at most ``TOL``.  No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.goals import TOL, Goal
from golfstats.kernels.constants import COLUMNS

WIN, STROKES = Goal.WIN.code, Goal.STROKES.code
#: Kinds a stock card can have (joker 0, ranks 1..13).
STOCK_KINDS = 14
BITS = 3
DIGIT = 7
LEVEL_SHIFT = 21
PACKED = (1 << LEVEL_SHIFT) - 1


@nb.njit(cache=True, nogil=True, inline="always")
def better(goal, p1, e1, p2, e2):
    """Is the value (p1, e1) strictly better than (p2, e2) for ``goal``?"""
    if goal == WIN:
        if p1 > p2 + TOL:
            return True
        if p1 < p2 - TOL:
            return False
        return e1 < e2 - TOL
    if e1 < e2 - TOL:
        return True
    if e1 > e2 + TOL:
        return False
    return p1 > p2 + TOL


@nb.njit(cache=True, nogil=True, inline="always")
def better3(goal, p1, e1, c1, p2, e2, c2):
    """Is (p1, e1, c1) strictly better than (p2, e2, c2) for ``goal``?  c is the cards left
    where the chosen chain stops.  ``WIN`` is the doc's rule move by move: the larger p;
    where the p tie and are positive (above TOL) the smaller e, then the smaller c; where
    they are at most TOL the smaller c, then the smaller e.  ``STROKES`` ignores c (a tie
    of (p, e) is a tie of values)."""
    if goal != WIN:
        return better(goal, p1, e1, p2, e2)
    if p1 > p2 + TOL:
        return True
    if p1 < p2 - TOL:
        return False
    if p1 > TOL or p2 > TOL:
        if e1 < e2 - TOL:
            return True
        if e1 > e2 + TOL:
            return False
        return c1 < c2
    if c1 != c2:
        return c1 < c2
    return e1 < e2 - TOL


@nb.njit(cache=True, nogil=True)
def d_codes(m0):
    """``(pwd, size, order, layer_start)`` for the stock multiset ``m0`` (per kind).

    ``order`` lists every D-code by layer (|D|), increasing codes within a layer;
    layer j is ``order[layer_start[j]:layer_start[j + 1]]``.
    """
    pwd = np.zeros(STOCK_KINDS, np.int64)
    size = 1
    n = 0
    for r in range(STOCK_KINDS):
        pwd[r] = size
        size *= m0[r] + 1
        n += m0[r]
    weight = np.zeros(size, np.int64)
    for d in range(size):
        x = d
        w = 0
        for r in range(STOCK_KINDS):
            w += x % (m0[r] + 1)
            x //= m0[r] + 1
        weight[d] = w
    order = np.argsort(weight, kind="mergesort")
    layer_start = np.zeros(n + 2, np.int64)
    for d in range(size):
        layer_start[weight[d] + 1] += 1
    for j in range(n + 1):
        layer_start[j + 1] += layer_start[j]
    return pwd, size, order, layer_start


@nb.njit(cache=True, nogil=True, inline="always")
def d_digit(d, r, pwd, m0):
    """How many cards of kind r the D-code ``d`` holds."""
    return (d // pwd[r]) % (m0[r] + 1)


@nb.njit(cache=True, nogil=True)
def state_key(heights):
    """Key (cards left, packed code) of a height vector."""
    gp = 0
    k = 0
    for c in range(heights.shape[0]):
        gp |= heights[c] << (BITS * c)
        k += heights[c]
    return (k << LEVEL_SHIFT) | gp


@nb.njit(cache=True, nogil=True)
def find_key(keys, lo, hi, key):
    """Index of ``key`` in the sorted ``keys[lo:hi]``, or -1."""
    end = hi
    while lo < hi:
        mid = (lo + hi) // 2
        if keys[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    if lo < end and keys[lo] == key:
        return lo
    return -1


@nb.njit(cache=True, nogil=True, inline="always")
def dense_of(gp, pw):
    """Dense code of the packed code ``gp``."""
    g = 0
    for c in range(COLUMNS):
        g += ((gp >> (BITS * c)) & DIGIT) * pw[c]
    return g


@nb.njit(cache=True, nogil=True, inline="always")
def exposed_bits(gp, exposed):
    """Bit set of the kinds exposed at ``gp`` (``NO_CARD`` for an empty column)."""
    m = 0
    for c in range(COLUMNS):
        m |= 1 << exposed[c, (gp >> (BITS * c)) & DIGIT]
    return m


@nb.njit(cache=True, nogil=True, inline="always")
def accepts_none(kt, exposed, gp, mask):
    """The tops of ``mask`` (a bit set) that accept no exposed card at packed heights gp."""
    seen = exposed_bits(gp, exposed)
    out = 0
    t = 0
    while mask:
        if mask & 1 and kt.accepts[t] & seen == 0:
            out |= np.int64(1) << t
        mask >>= 1
        t += 1
    return out


@nb.njit(cache=True, nogil=True, inline="always")
def cards_left(gp):
    k = 0
    for c in range(COLUMNS):
        k += (gp >> (BITS * c)) & DIGIT
    return k


@nb.njit(cache=True, nogil=True, inline="always")
def popcount(x):
    """Set bits of a non-negative int64 (SWAR: no loop)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0xFF


@nb.njit(cache=True, nogil=True, inline="always")
def low_bit(x):
    """Index of the lowest set bit of the non-zero uint64 ``x``."""
    return popcount(np.int64((x & (~x + np.uint64(1))) - np.uint64(1)))


@nb.njit(cache=True, nogil=True, inline="always")
def rank_in(mask, u):
    """Index of bit ``u`` among the set bits of ``mask``."""
    return popcount(mask & ((np.int64(1) << u) - 1))


@nb.njit(cache=True, nogil=True)
def play_groups(play_next):
    """``(acc_of, after_of)`` per card kind x: the tops that accept x (bit set), and the
    top every one of them makes by playing x (-1 when they make different tops, as
    with dead Queens and jokers)."""
    n_kinds = play_next.shape[1]
    acc_of = np.zeros(n_kinds, np.int64)
    after_of = np.full(n_kinds, -1, np.int64)
    for x in range(n_kinds):
        first = -2
        for u in range(play_next.shape[0]):
            v = play_next[u, x]
            if v < 0:
                continue
            acc_of[x] |= np.int64(1) << u
            if first == -2:
                first = v
            elif first != v:
                first = -1
        after_of[x] = first if first >= 0 else -1
    return acc_of, after_of


@nb.njit(cache=True, nogil=True, inline="always")
def after_bits(play_next, acc_of, after_of, mask, x):
    """Tops reached by playing kind x from any top in ``mask`` (bit set)."""
    m = mask & acc_of[x]
    if m == 0:
        return 0
    if after_of[x] >= 0:
        return np.int64(1) << after_of[x]
    bits = 0
    u = 0
    while m:
        if m & 1:
            bits |= np.int64(1) << play_next[u, x]
        m >>= 1
        u += 1
    return bits


@nb.njit(cache=True, nogil=True)
def draw_sources(kt, m0, pwd, d, n, j, blk_lo, blk_hi):
    """The kinds r in the drawn multiset D (code ``d``, |D| = j of n) whose block D - r
    has states, compacted: for each, a cursor and the end of that block (``blk_lo``,
    ``blk_hi``), P(r | D - r) = (copies of r left before it was drawn) / (cards left then),
    and the top a turned r makes.  Returns ``(cur, end, prob, top, na)``."""
    cur = np.zeros(STOCK_KINDS, np.int64)
    end = np.zeros(STOCK_KINDS, np.int64)
    prob = np.zeros(STOCK_KINDS, np.float64)
    top = np.zeros(STOCK_KINDS, np.int64)
    na = 0
    for r in range(STOCK_KINDS):
        have = (d // pwd[r]) % (m0[r] + 1)
        if have == 0:
            continue
        dm = d - pwd[r]
        if blk_lo[dm] < 0:
            continue
        cur[na] = blk_lo[dm]
        end[na] = blk_hi[dm]
        prob[na] = (m0[r] - have + 1) / (n - j + 1)
        top[na] = kt.drawn[r]
        na += 1
    return cur, end, prob, top, na


@nb.njit(cache=True, nogil=True, inline="always")
def packed_of(heights):
    """The packed code of the height vector ``heights`` (column c in bits ``BITS * c``)."""
    gp = np.int64(0)
    for c in range(COLUMNS):
        gp |= np.int64(heights[c]) << (BITS * c)
    return gp


@nb.njit(cache=True, nogil=True)
def packed_codes(heights0):
    """The packed code of every dense heights code below ``heights0`` (an odometer over the
    digits: no division)."""
    g_size = 1
    for c in range(heights0.shape[0]):
        g_size *= heights0[c] + 1
    out = np.empty(g_size, np.int64)
    dig = np.zeros(heights0.shape[0], np.int64)
    gp = 0
    out[0] = 0
    for g in range(1, g_size):
        c = 0
        while dig[c] == heights0[c]:  # carry: this digit wraps to 0
            gp -= dig[c] << (BITS * c)
            dig[c] = 0
            c += 1
        dig[c] += 1
        gp += np.int64(1) << (BITS * c)
        out[g] = gp
    return out
