"""Chains: every sequence of plays available now, without drawing (all of it visible).

``enumerate_chains`` lists each distinct position (column heights, top) a chain of
plays can reach from the current one, the current one included (the empty chain),
with a parent link to rebuild the plays.  It is complete: nothing cuts it short (a
golf tableau has at most 6**7 height vectors, and the players of the stockless games
never enumerate chains, see ``kernels.players.lookahead``).  ``chain_candidates`` and ``chain_plan`` are the
skeleton every "best chain, then draw" player shares: the endpoints a draw may follow,
and the plan that plays the chosen one and draws.  ``longest_chain`` is the most cards
one chain can take.  No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.constants import DRAW
from golfstats.kernels.core import can_play, height_code
from golfstats.kernels.golf.search import fewest_left
from golfstats.kernels.hashset import grow, insert, new_set


@nb.njit(cache=True, nogil=True)
def enumerate_chains(kt, exposed, heights, top):
    """Endpoints of every chain of plays from (heights, top), breadth-first, columns in order.

    Returns ``(n, ends_heights, ends_top, ends_len, parent, move)``: endpoint i has
    column heights ``ends_heights[i]``, top ``ends_top[i]``, was reached by ``ends_len[i]``
    plays, the last being ``move[i]`` from endpoint ``parent[i]`` (-1 for the start).
    """
    play_next = kt.play_next
    ncols = heights.shape[0]
    radix = exposed.shape[1]
    cap = 64
    ends_heights = np.empty((cap, ncols), np.int64)
    ends_top = np.empty(cap, np.int64)
    ends_len = np.empty(cap, np.int64)
    parent = np.empty(cap, np.int64)
    move = np.empty(cap, np.int64)
    n_tops = play_next.shape[0]
    seen = new_set(8)
    used = 1
    ends_heights[0] = heights
    ends_top[0] = top
    ends_len[0] = 0
    parent[0] = -1
    move[0] = DRAW
    insert(seen, height_code(heights, radix) * n_tops + top)
    n = 1
    i = 0
    while i < n:
        for c in range(ncols):
            h = ends_heights[i, c]
            if h == 0:
                continue
            nxt = play_next[ends_top[i], exposed[c, h]]
            if nxt < 0:
                continue
            ends_heights[i, c] -= 1
            if insert(seen, height_code(ends_heights[i], radix) * n_tops + nxt):
                used += 1
                if 2 * used > seen.shape[0]:
                    seen = grow(seen)
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
def chain_candidates(kt, exposed, ends_heights, ends_top, n, n_left):
    """The endpoints (of ``enumerate_chains``) a player may stop at and draw: all of
    them under draw any-time, only those with no play left under draw when-stuck (while
    stock remains).  Returns ``(candidates, count)``, in enumeration order."""
    candidates = np.empty(n, np.int64)
    count = 0
    for i in range(n):
        if kt.when_stuck and n_left > 0 and can_play(kt.play_next, exposed, ends_heights[i],
                                                     ends_top[i]):
            continue
        candidates[count] = i
        count += 1
    return candidates, count


@nb.njit(cache=True, nogil=True)
def chain_plan(best, ends_heights, ends_len, parent, move, n_left, plan):
    """The plan of a "best chain, then draw" player: the plays to endpoint ``best``, then
    a draw if stock and tableau cards remain.  Returns its length."""
    m = chain_moves(best, ends_len, parent, move, plan)
    if n_left > 0 and ends_heights[best].sum() > 0:
        plan[m] = DRAW
        m += 1
    return m


#: Positions the plain depth-first search of ``longest_chain`` visits before it hands the
#: question to the search that visits each position once (``search.fewest_left``).  Both
#: are exact; the plain one is faster on the short, narrow chains of nearly every golf
#: position, the other never revisits a position (jokers and wrapping ranks can make the
#: plain one's paths many).
_PLAIN_BUDGET = 20_000
_NO_LIMIT = 1 << 62  # a golf position has at most 6**7 heights x a few tops: never reached


@nb.njit(cache=True, nogil=True)
def longest_chain(play_next, exposed, heights, top):
    """The most cards one chain of plays can take from (heights, top): exact."""
    total = heights.sum()
    return longest_chain_in(play_next, exposed, heights, top, total, np.empty(heights.shape[0], np.int64),
                            np.empty(total + 1, np.int64), np.empty(total + 1, np.int64),
                            np.empty(total + 1, np.int64))


@nb.njit(cache=True, nogil=True)
def longest_chain_in(play_next, exposed, heights, top, total, h, tops, next_col, played):
    """``longest_chain`` on work arrays the caller keeps (``total`` is ``heights.sum()``;
    ``h`` one slot a column, the others ``total + 1``): a player asking often allocates
    them once.  ``heights`` is left as given."""
    best, finished = _longest_plain(play_next, exposed, heights, top, total, _PLAIN_BUDGET,
                                    h, tops, next_col, played)
    if finished:
        return best
    moves = np.empty(total + 1, np.int64)
    _, left, _, _ = fewest_left(play_next, exposed, heights, top, _NO_LIMIT, 10, moves)
    return total - left


@nb.njit(cache=True, nogil=True)
def _longest_plain(play_next, exposed, heights, top, total, budget, h, tops, next_col, played):
    """Depth-first over every chain (no memory of visited positions) on ``h``, a copy of
    ``heights``: ``(longest, finished)``; it stops as soon as a chain takes all ``total``
    cards (nothing is longer), and is not finished when ``budget`` positions were visited
    before the search ended (its answer is then not used)."""
    ncols = heights.shape[0]
    for c in range(ncols):
        h[c] = heights[c]
    tops[0] = top
    next_col[0] = 0
    sp = 0
    best = 0
    visited = 0
    while sp >= 0:
        if visited >= budget:
            return best, False
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
                        if best == total:  # every card taken: nothing is longer
                            return best, True
                    pushed = True
                    break
            c += 1
        if not pushed:
            sp -= 1
            if sp >= 0:
                h[played[sp]] += 1
    return best, True
