"""What the stockless search knows about a position besides its moves: proofs that a
state is lost, a bound on the cards it must leave, and canonical keys.  No I/O, no RNG.

A position of Black Hole or All in a Row is (column heights, top).  Every rule here
reads kinds only (suits never matter) and is derived from the tables, so the search
and the reference engine share one definition of what may follow what:
``pred[x]`` is the bitmask of kinds after which a card of kind ``x`` may be played,
``fol[y]`` the kinds that may follow ``y``.  The cycle rules (``euler_ok``,
``unreached``) also need the ranks to form one 13-cycle (``wrap`` below: each rank is
followed by exactly its two neighbours, K-A adjacent), as in both stockless games.

The rules, each a *necessary* condition for clearing the tableau, with its proof:

Walk rule (``euler_ok``).  The cards still to be played, in the order they are played,
form a walk on the 13-cycle of ranks that starts at the top's rank and moves one rank
up or down per card.  Write ``v[r]`` for the visits of rank r (cards left of rank r,
plus one for the top's rank) and ``n[r]`` for how often the walk crosses the edge
between ranks r and r+1.  Each visit is entered and left by one edge, except the start
(not entered) and the end (not left), so ``n[r-1] + n[r] = 2 v[r] - [r = start] -
[r = end]``.  On a cycle of odd length this linear system has exactly one solution,
``n[r] = A[r] - (s_r(start) + s_r(end)) / 2`` with ``A[r] = sum_k (-1)^k v[r+1+k]`` and
``s_r(x) = (-1)^((x - r - 1) mod 13)``; it is always integral.  A walk exists iff for
some end every ``n[r] >= 0`` and the edges used are connected (Euler's theorem for
trails: connected, and odd degree exactly at the two ends).  The end is the last card
played, the bottom card of the last column emptied, so only kinds at the bottom of a
non-empty column may end the walk.  If no end works, no order of the cards is a legal
chain, whatever the columns allow: the state is lost.

Unreached ranks (``unreached``): the top moves one rank per play and only onto ranks
that still have cards, so the ranks reachable from the top are its connected run in
the cycle of ranks with cards left.  A card of another rank can never be played.
(This is implied by the walk rule; it is kept because it also bounds the cards left.)

Buried card (``card_stuck``).  A card X at position i of column c (1 = bottom) is
played onto the card played just before it.  When X is still covered (i < height),
that card is either the one directly above X (played last, uncovering X) or a card in
another column played after X is uncovered: the cards above X at i+2 and higher are
gone before X is uncovered and before the card at i+1, so they are followed by
that card, not by X; cards below X are still under it.  When X is exposed the top
itself may also precede it.  So if no such card of a kind in ``pred[X]`` is left, X is
never played, and neither is any card beneath it.  Its eligible predecessors only go
down along a line (cards leave the tableau; the top's bonus passes to the card that
uncovered X), so a stuck card stays stuck.

Successor rule (``card_last``), the mirror image: the card played right after a card Y
at position i of column c is the card beneath it (i - 1, uncovered by Y) or a card of
another column still in the tableau; cards above Y are gone before Y, and cards further
down are still covered.  If no such card of a kind in ``fol[Y]`` is left, Y can only be
the last card of the hand, which is a bottom card (i = 1); so Y at i > 1 makes the
state lost, two such bottom cards make it lost, and one such bottom card is the only
possible end of the walk rule.  Its possible successors only go down along a line, so
such a card stays one.

Cards-left bound (``stuck_bound``): every stuck card and unreached card stays in the
tableau, with all cards beneath it; the bound is their number, column by column.  It
only grows along a line (stuck cards stay stuck), so ``stuck_depths_after`` updates
the parent's per-column depths with the cards whose predecessors just changed.
"""

from __future__ import annotations

from collections import namedtuple

import numba as nb
import numpy as np

from golfstats.cards import N_RANKS

#: What may follow what, read from the kernel tables (``kind_relations``): ``top_kind[t]``
#: the kind a top id stands for (-1: any kind may follow, an empty foundation);
#: ``kind_top[x]`` the top id a card of kind x makes (-1 where it makes none or more than
#: one: dead Queens, never a stockless game); ``pred[x]`` / ``fol[y]`` the predecessor and
#: follower masks of each kind; ``wrap``: the kinds 1..13 form the 13-cycle of wrapping ranks.
KindRelations = namedtuple("KindRelations", "top_kind kind_top pred fol wrap")
#: The per-card arrays of the buried-card rule (``card_data``), for the cards of a deal:
#: ``kinds[c, i]`` (i = 1..heights[c]); ``incol[c, i, h]``: cards of column c at positions
#: j <= h, j != i, of a kind that may precede card (c, i); ``above[c, i]``: 1 if the card
#: directly above may precede it; ``by_kind[k, :n_kind[k]]``: the cards of kind k as
#: ``c * 8 + i``.
CardData = namedtuple("CardData", "kinds incol above by_kind n_kind")

ALL_KINDS = 0x3FFE  # kinds 1..13
_DEBRUIJN = np.array([0, 1, 48, 2, 57, 49, 28, 3, 61, 58, 50, 42, 38, 29, 17, 4, 62, 55, 59, 36,
                      53, 51, 43, 22, 45, 39, 33, 30, 24, 18, 12, 5, 63, 47, 56, 27, 60, 41, 37,
                      16, 54, 35, 52, 21, 44, 32, 23, 11, 46, 26, 40, 15, 34, 20, 31, 10, 25, 14,
                      19, 9, 13, 8, 7, 6], np.int64)


@nb.njit(cache=True, nogil=True, inline="always")
def lowbit(x):
    """Index of the lowest set bit of ``x`` > 0 (de Bruijn multiplication)."""
    lsb = np.uint64(x & -x)
    return _DEBRUIJN[np.int64((lsb * np.uint64(0x03F79D71B4CB0A89)) >> np.uint64(58))]


@nb.njit(cache=True, nogil=True, inline="always")
def popcount(x):
    x = np.uint64(x)
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@nb.njit(cache=True, nogil=True)
def kind_relations(kt):
    """The ``KindRelations`` of the kernel tables ``kt``."""
    play_next = kt.play_next
    n_tops = play_next.shape[0]
    top_kind = np.full(n_tops, -1, np.int64)
    kind_top = np.full(16, -1, np.int64)
    for t in range(n_tops):
        for x in range(1, 14):
            u = play_next[t, x]
            if u >= 0:
                top_kind[u] = x
                if kind_top[x] >= 0 and kind_top[x] != u:
                    kind_top[x] = -2
                elif kind_top[x] == -1:
                    kind_top[x] = u
    pred = np.zeros(16, np.int64)
    fol = np.zeros(16, np.int64)
    for y in range(1, 14):
        u = kind_top[y]
        if u < 0:
            kind_top[y] = -1
            continue
        for x in range(1, 14):
            if play_next[u, x] >= 0:
                pred[x] |= 1 << y
                fol[y] |= 1 << x
    wrap = True
    for y in range(1, 14):
        up = y % N_RANKS + 1
        down = (y + N_RANKS - 2) % N_RANKS + 1
        if fol[y] != (1 << up) | (1 << down):
            wrap = False
    return KindRelations(top_kind, kind_top, pred, fol, wrap)


@nb.njit(cache=True, nogil=True)
def walk_tables():
    """``sig[r, x] = s_r(x)`` for ranks 0..12 (module docstring), ``neg[r]``: ends x with
    ``s_r(x) = -1``, ``pos[x]``: edges r with ``s_r(x) = +1`` (bitmasks)."""
    sig = np.empty((13, 13), np.int64)
    neg = np.zeros(13, np.int64)
    pos = np.zeros(13, np.int64)
    for r in range(13):
        for x in range(13):
            s = 1 - 2 * (((x - r - 1) % N_RANKS) & 1)
            sig[r, x] = s
            if s < 0:
                neg[r] |= 1 << x
            else:
                pos[x] |= 1 << r
    return sig, neg, pos


@nb.njit(cache=True, nogil=True)
def walk_sums(cnt, sig):
    """``A[r] = sum_j s_r(j) cnt[j]`` over ranks j (kinds j + 1): the walk rule's sums of
    ``cnt``.  A play of kind x subtracts ``sig[:, x - 1]``."""
    a = np.zeros(13, np.int64)
    for r in range(13):
        for j in range(13):
            a[r] += sig[r, j] * cnt[j + 1]
    return a


@nb.njit(cache=True, nogil=True, inline="always")
def walk_ok(av, t, ends, sig, neg, pos):
    """Walk rule on the sums ``av = A(v)`` of the visits ``v`` (cards left plus one for the
    top's rank ``t``, a kind 1..13) for walks ending on a rank of ``ends`` (bitmask over
    ranks 0..12, i.e. kind - 1).  False proves the state lost (module docstring).

    ``c[r] = 2 n[r] + s_r(end) = 2 A[r] - s_r(t)`` is odd: ``c <= -3`` leaves no end;
    ``c = -1`` needs an end with ``s_r(end) = -1`` (and then ``n[r] = 0``); with ``c = 1``
    the edge is unused iff ``s_r(end) = +1``."""
    if ends == 0:
        return True  # nothing left
    ti = t - 1
    rneg = 0
    rone = 0
    for r in range(13):
        c = 2 * av[r] - sig[r, ti]
        if c < 0:
            if c < -1:
                return False
            rneg |= 1 << r
        elif c == 1:
            rone |= 1 << r
    if rneg == 0 and rone == 0:
        return True  # every n[r] >= 1: any end works and the walk is connected
    es = ends
    rr = rneg
    while rr:
        es &= neg[lowbit(rr)]
        rr &= rr - 1
    while es:
        e = lowbit(es)
        es &= es - 1
        z = rneg | (rone & pos[e])  # edges the walk does not use
        starts = z & ~(((z << 1) | (z >> 12)) & 0x1FFF)
        if starts & (starts - 1) == 0:  # unused edges form one run: used edges connected
            return True
    return False


@nb.njit(cache=True, nogil=True)
def euler_ok(cnt, t, ends, sig, neg, pos):
    """Walk rule: can the cards left (``cnt`` by kind) be played as one chain from top kind
    ``t`` (1..13) ending on a rank of ``ends``?  False proves the state lost."""
    return euler_ok_in(cnt, t, ends, sig, neg, pos, np.empty(13, np.int64))


@nb.njit(cache=True, nogil=True)
def euler_ok_in(cnt, t, ends, sig, neg, pos, av):
    """``euler_ok`` with ``av`` (13 slots) as its scratch: it allocates nothing."""
    for r in range(13):
        a = 0
        for j in range(13):
            a += sig[r, j] * cnt[j + 1]
        av[r] = a + sig[r, t - 1]
    return walk_ok(av, t, ends, sig, neg, pos)


@nb.njit(cache=True, nogil=True, inline="always")
def reach(t, nz, fol):
    """Kinds reachable from top kind ``t`` through kinds of ``nz`` (bitmask, cards left)."""
    r = 1 << t
    while True:
        nr = r
        rr = r
        while rr:
            nr |= fol[lowbit(rr)] & nz
            rr &= rr - 1
        if nr == r:
            return r
        r = nr


@nb.njit(cache=True, nogil=True, inline="always")
def unreached(t, nz, fol):
    """Kinds with cards left that the top (kind ``t``, -1 for any) can never reach."""
    if t < 0:
        return 0
    return nz & ~reach(t, nz, fol)


@nb.njit(cache=True, nogil=True)
def card_data(exposed, heights, pred):
    """The ``CardData`` of the cards of ``heights``."""
    ncols = heights.shape[0]
    hmax = 1
    for c in range(ncols):
        hmax = max(hmax, heights[c])
    kinds = np.zeros((ncols, hmax + 2), np.int64)
    incol = np.zeros((ncols, hmax + 1, hmax + 1), np.int64)
    above = np.zeros((ncols, hmax + 1), np.int64)
    by_kind = np.zeros((16, ncols * hmax), np.int64)
    n_kind = np.zeros(16, np.int64)
    for c in range(ncols):
        for i in range(1, heights[c] + 1):
            kinds[c, i] = exposed[c, i]
    for c in range(ncols):
        for i in range(1, heights[c] + 1):
            pm = pred[kinds[c, i]]
            for hh in range(hmax + 1):
                n = 0
                for j in range(1, min(hh, heights[c]) + 1):
                    if j != i and (pm >> kinds[c, j]) & 1:
                        n += 1
                incol[c, i, hh] = n
            if i < heights[c] and (pm >> kinds[c, i + 1]) & 1:
                above[c, i] = 1
            k = kinds[c, i]
            by_kind[k, n_kind[k]] = c * 8 + i
            n_kind[k] += 1
    return CardData(kinds, incol, above, by_kind, n_kind)


@nb.njit(cache=True, nogil=True, inline="always")
def card_stuck(c, i, h, cnt, tk, kinds, incol, above, pred):
    """Buried-card rule: can card (c, i) (still in the tableau) never be played?  ``tk`` is
    the top's kind (-1: any)."""
    pm = pred[kinds[c, i]]
    e = -incol[c, i, h[c]]
    pp = pm
    while pp:
        e += cnt[lowbit(pp)]
        pp &= pp - 1
    if i < h[c]:
        e += above[c, i]
    elif tk < 0 or (pm >> tk) & 1:
        e += 1
    return e == 0


@nb.njit(cache=True, nogil=True, inline="always")
def card_last(c, i, h, cnt, kinds, incol, below, fol):
    """Successor rule: can card (c, i) (still in the tableau) be followed by no card, so that
    it can only be the last card played?  (Wrapping ranks: ``incol`` counts followers.)"""
    e = below[c, i] - incol[c, i, h[c]]
    ff = fol[kinds[c, i]]
    while ff:
        e += cnt[lowbit(ff)]
        ff &= ff - 1
    return e == 0


@nb.njit(cache=True, nogil=True)
def stuck_depths(h, cnt, nz, tk, kinds, incol, above, pred, fol, wrap, out):
    """``out[c]``: the highest stuck or unreached card of column c (0: none).  The cards
    there and beneath stay in the tableau for good.  Returns their number (the bound)."""
    lost = unreached(tk, nz, fol) if wrap else 0
    bound = 0
    for c in range(h.shape[0]):
        out[c] = 0
        for i in range(h[c], 0, -1):
            if (lost >> kinds[c, i]) & 1 or card_stuck(c, i, h, cnt, tk, kinds, incol, above, pred):
                out[c] = i
                bound += i
                break
    return bound


@nb.njit(cache=True, nogil=True)
def stuck_bound(h, cnt, nz, tk, kinds, incol, above, pred, fol, wrap):
    """Cards-left bound: the stuck and unreached cards with all cards beneath them."""
    return stuck_depths(h, cnt, nz, tk, kinds, incol, above, pred, fol, wrap,
                        np.zeros(h.shape[0], np.int64))


@nb.njit(cache=True, nogil=True)
def stuck_depths_after(h, cnt, nz, x, tk, cards, rel, before, out):
    """``stuck_depths`` of a state from those of its parent (``before``), after a card of
    kind ``x`` was played on top kind ``tk``: stuck cards stay stuck, and only the cards of
    kinds that lost a possible predecessor (after x; after the old top, when exposed) can
    become stuck.  ``cards``: the deal's ``CardData``, ``rel`` its ``KindRelations``.
    Returns the bound."""
    fol = rel.fol
    ks = (fol[x] | (ALL_KINDS if tk < 0 else fol[tk])) & nz
    lost = unreached(x, nz, fol) if rel.wrap else 0
    ks |= lost
    for c in range(h.shape[0]):
        out[c] = before[c]
    while ks:
        k = lowbit(ks)
        ks &= ks - 1
        for j in range(cards.n_kind[k]):
            c = cards.by_kind[k, j] >> 3
            i = cards.by_kind[k, j] & 7
            if out[c] < i <= h[c] and ((lost >> k) & 1 or card_stuck(
                    c, i, h, cnt, x, cards.kinds, cards.incol, cards.above, rel.pred)):
                out[c] = i
    bound = 0
    for c in range(h.shape[0]):
        bound += out[c]
    return bound
