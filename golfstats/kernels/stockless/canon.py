"""Canonical keys of the stockless search: states equal up to exchanging columns that
hold the same remaining cards are one state.  No I/O.

Canonical keys (``canonical_key``, ``canonical_tables``): two states whose columns hold the same multiset
of remaining card sequences (and the same top) have the same futures up to renaming
columns, so they are one state.  Sequences that equal are prefixes of the dealt
columns, so the classes are the nodes of the trie of dealt columns; a node shared by
several columns (same kinds from the bottom up to its depth) is where columns can be
exchanged.  The canonical heights give each shared node, deepest first, its count of
columns from the lowest-numbered columns of its set still free; the result depends
only on the multiset (counts per node) and always exists (a node's set holds its
count plus the columns above it that are not yet assigned).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.stockless.rules import lowbit, popcount


@nb.njit(cache=True, nogil=True)
def trie_nodes(kinds, heights):
    """Shared trie nodes, deepest first: ``(cols, depth, n)``; ``cols[m]`` is the column
    mask of node m (columns whose cards 1..depth[m] have equal kinds), and
    ``shared_at[c, j]`` is 1 where column c at height j sits on a shared node (or j = 0)."""
    ncols = heights.shape[0]
    hmax = kinds.shape[1] - 2
    cols = np.zeros(ncols * hmax, np.int64)
    depth = np.zeros(ncols * hmax, np.int64)
    shared_at = np.zeros((ncols, hmax + 1), np.int64)
    n = 0
    for j in range(hmax, 0, -1):
        done = 0
        for c in range(ncols):
            if heights[c] < j or (done >> c) & 1:
                continue
            mask = 1 << c
            for d in range(c + 1, ncols):
                if heights[d] < j:
                    continue
                same = True
                for i in range(1, j + 1):
                    if kinds[c, i] != kinds[d, i]:
                        same = False
                        break
                if same:
                    mask |= 1 << d
            done |= mask
            if mask & (mask - 1):
                cols[n] = mask
                depth[n] = j
                n += 1
                m = mask
                while m:
                    shared_at[lowbit(m), j] = 1
                    m &= m - 1
    for c in range(ncols):
        shared_at[c, 0] = 1
    return cols[:n], depth[:n], shared_at


@nb.njit(cache=True, nogil=True, inline="always")
def canonical_key(key, free, hmask, cols, depth, shifts):
    """The key of the canonical representative of a state (module docstring).  ``free``:
    columns on shared nodes or empty; ``hmask[j]``: columns of height j."""
    fr = free
    for m in range(cols.shape[0]):
        at = cols[m] & hmask[depth[m]]
        if at == 0:
            continue
        avail = cols[m] & fr
        choose = 0
        k = popcount(at)
        for _ in range(k):
            lb = avail & -avail
            choose |= lb
            avail ^= lb
        fr &= ~choose
        if choose != at:
            moved = choose ^ at
            while moved:
                c = lowbit(moved)
                moved &= moved - 1
                if (choose >> c) & 1:
                    key += depth[m] << shifts[c]
                else:
                    key -= depth[m] << shifts[c]
    return key


@nb.njit(cache=True, nogil=True)
def canonical_tables(kinds, heights, shifts):
    """``canonical_key`` as lookup tables, one per group of columns with the same bottom
    kind (all shared trie nodes lie inside one such group, so a group's canonical heights
    depend on its own columns only).  ``group[c]`` (-1: no group) and ``place[c]``: the
    group of column c and its place value in the group's index (radix ``hmax + 1``);
    ``delta[g, index]``: canonical key minus raw key of the group's columns at those
    heights.  Canonical key = raw key + the sum of the groups' deltas."""
    nodes, depth, shared_at = trie_nodes(kinds, heights)
    ncols = heights.shape[0]
    hmax = kinds.shape[1] - 2
    radix = hmax + 1
    group = np.full(ncols, -1, np.int64)
    place = np.zeros(ncols, np.int64)
    n_groups = 0
    size = 1
    for m in range(nodes.shape[0]):
        if depth[m] == 1:
            p = 1
            cols = nodes[m]
            while cols:
                c = lowbit(cols)
                cols &= cols - 1
                group[c] = n_groups
                place[c] = p
                p *= radix
            size = max(size, p)
            n_groups += 1
    delta = np.zeros((max(n_groups, 1), size), np.int64)
    hmask = np.zeros(hmax + 1, np.int64)
    for g in range(n_groups):
        top = 1
        for c in range(ncols):
            if group[c] == g:
                top *= radix
        for index in range(top):
            hmask[:] = 0
            free = 0
            raw = 0
            valid = True
            for c in range(ncols):
                if group[c] == g:
                    hc = (index // place[c]) % radix
                    if hc > heights[c]:
                        valid = False
                        break
                    hmask[hc] |= 1 << c
                    free |= shared_at[c, hc] << c
                    raw += hc << shifts[c]
            if valid:
                delta[g, index] = canonical_key(raw, free, hmask, nodes, depth, shifts) - raw
    return group, place, delta
