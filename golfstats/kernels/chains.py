"""Chains: every sequence of plays available now, without drawing (all of it visible).

``enumerate_chains`` lists each distinct position (column heights, top) a chain of
plays can reach from the current one, the current one included (the empty chain),
with a parent link to rebuild the plays.  Honest policies choose among these
endpoints; what happens after them depends on the unseen stock.  No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.search import EMPTY, _grow, _insert

DRAW = -1


@nb.njit(cache=True, nogil=True)
def height_code(heights, radix):
    code = 0
    p = 1
    for c in range(heights.shape[0]):
        code += heights[c] * p
        p *= radix
    return code


@nb.njit(cache=True, nogil=True)
def can_play(exposed, heights, top, play_next):
    for c in range(heights.shape[0]):
        h = heights[c]
        if h > 0 and play_next[top, exposed[c, h]] >= 0:
            return True
    return False


@nb.njit(cache=True, nogil=True)
def enumerate_chains(exposed, heights, top, play_next, limit):
    """Endpoints of every chain of plays from (heights, top), breadth-first.

    Returns ``(n, ends_heights, ends_top, ends_len, parent, move)``: endpoint i has
    column heights ``ends_heights[i]``, top ``ends_top[i]``, was reached by ``ends_len[i]``
    plays, the last being ``move[i]`` from endpoint ``parent[i]`` (-1 for the start).
    At most ``limit`` endpoints are listed (the chains of a golf deal are far fewer).
    """
    ncols = heights.shape[0]
    radix = exposed.shape[1]
    cap = 64
    ends_heights = np.empty((cap, ncols), np.int64)
    ends_top = np.empty(cap, np.int64)
    ends_len = np.empty(cap, np.int64)
    parent = np.empty(cap, np.int64)
    move = np.empty(cap, np.int64)
    n_tops = play_next.shape[0]
    seen = np.full(256, EMPTY, np.int64)
    used = 1
    ends_heights[0] = heights
    ends_top[0] = top
    ends_len[0] = 0
    parent[0] = -1
    move[0] = DRAW
    _insert(seen, height_code(heights, radix) * n_tops + top)
    n = 1
    i = 0
    while i < n and n < limit:
        for c in range(ncols):
            h = ends_heights[i, c]
            if h == 0:
                continue
            nxt = play_next[ends_top[i], exposed[c, h]]
            if nxt < 0:
                continue
            ends_heights[i, c] -= 1
            key = height_code(ends_heights[i], radix) * n_tops + nxt
            fresh = _insert(seen, key)
            if fresh:
                used += 1
                if 2 * used > seen.shape[0]:
                    seen = _grow(seen)
                if n == ends_top.shape[0]:
                    ends_heights, ends_top, ends_len, parent, move = _grow_ends(
                        ends_heights, ends_top, ends_len, parent, move)
                ends_heights[n] = ends_heights[i]
                ends_top[n] = nxt
                ends_len[n] = ends_len[i] + 1
                parent[n] = i
                move[n] = c
                n += 1
            ends_heights[i, c] += 1
            if n >= limit:
                break
        i += 1
    return n, ends_heights, ends_top, ends_len, parent, move


@nb.njit(cache=True, nogil=True)
def _grow_ends(ends_heights, ends_top, ends_len, parent, move):
    cap = ends_top.shape[0] * 2
    h2 = np.empty((cap, ends_heights.shape[1]), np.int64)
    h2[:ends_top.shape[0]] = ends_heights
    t2 = np.empty(cap, np.int64)
    t2[:ends_top.shape[0]] = ends_top
    l2 = np.empty(cap, np.int64)
    l2[:ends_top.shape[0]] = ends_len
    p2 = np.empty(cap, np.int64)
    p2[:ends_top.shape[0]] = parent
    m2 = np.empty(cap, np.int64)
    m2[:ends_top.shape[0]] = move
    return h2, t2, l2, p2, m2


@nb.njit(cache=True, nogil=True)
def chain_moves(i, ends_len, parent, move, out):
    """Write the plays leading to endpoint ``i`` into ``out``; returns how many."""
    n = ends_len[i]
    j = i
    for pos in range(n - 1, -1, -1):
        out[pos] = move[j]
        j = parent[j]
    return n


@nb.njit(cache=True, nogil=True)
def longest_chain(exposed, heights, top, play_next, budget):
    """The most cards one chain of plays can take from (heights, top).

    Plain depth-first search on a private copy of ``heights``; it visits at most
    ``budget`` positions (golf chains are short and narrow, so it rarely matters)
    and returns the longest chain seen.
    """
    ncols = heights.shape[0]
    h = heights.copy()
    depth_max = 0
    for c in range(ncols):
        depth_max += h[c]
    tops = np.empty(depth_max + 1, np.int64)
    next_col = np.empty(depth_max + 1, np.int64)
    played = np.empty(depth_max + 1, np.int64)
    tops[0] = top
    next_col[0] = 0
    sp = 0
    best = 0
    visited = 0
    while sp >= 0 and visited < budget:
        c = next_col[sp]
        pushed = False
        while c < ncols:
            hc = h[c]
            if hc > 0:
                nxt = play_next[tops[sp], exposed[c, hc]]
                if nxt >= 0:
                    next_col[sp] = c + 1
                    played[sp] = c
                    h[c] -= 1
                    sp += 1
                    tops[sp] = nxt
                    next_col[sp] = 0
                    visited += 1
                    if sp > best:
                        best = sp
                    pushed = True
                    break
            c += 1
        if not pushed:
            sp -= 1
            if sp >= 0:
                h[played[sp]] += 1
    return best
