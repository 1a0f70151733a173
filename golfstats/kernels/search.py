"""Depth-first search with a hash set, for layouts too wide for the dense sweep.

Black Hole (17 columns of 3) and All in a Row (13 of 4) have no stock, so a state
is just (column heights, top); their height vectors number in the billions, but
only a small part is reachable.  The search visits each reachable state once and
stops at the first win (a win is optimal: strokes 0, no stock to save); otherwise
it proves the fewest cards left by exhausting the reachable states.  No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

EMPTY = -1


@nb.njit(cache=True, nogil=True)
def _hash(key, mask):
    h = np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)
    return np.int64((h >> np.uint64(29)) & np.uint64(mask))


@nb.njit(cache=True, nogil=True)
def _insert(table, key):
    """Insert ``key``; False if it was already there.  ``table`` has a power-of-two size."""
    mask = table.shape[0] - 1
    i = _hash(key, mask)
    while True:
        k = table[i]
        if k == key:
            return False
        if k == EMPTY:
            table[i] = key
            return True
        i = (i + 1) & mask


@nb.njit(cache=True, nogil=True)
def _grow(table):
    bigger = np.full(table.shape[0] * 2, EMPTY, np.int64)
    for k in table:
        if k != EMPTY:
            _insert(bigger, k)
    return bigger


@nb.njit(cache=True, nogil=True)
def search_no_stock(exposed, heights, top0, play_next, n_tops, moves_out):
    """Solve a position without stock.  Returns ``(won, strokes, 0, n_moves, states)``.

    Both goals are the same here: the first win found is optimal.

    ``play_next[t, x]`` is the top after playing kind ``x`` on top ``t`` (-1: illegal).
    The line to the best position found is in ``moves_out[:n_moves]``.
    """
    ncols = heights.shape[0]
    pw = np.empty(ncols, np.int64)
    p = 1
    code = 0
    left = 0
    for c in range(ncols):
        pw[c] = p
        code += heights[c] * p
        left += heights[c]
        p *= heights[c] + 1
    table = np.full(1 << 16, EMPTY, np.int64)
    depth_max = left + 1
    stack_code = np.empty(depth_max, np.int64)
    stack_top = np.empty(depth_max, np.int64)
    stack_next = np.empty(depth_max, np.int64)
    stack_move = np.empty(depth_max, np.int64)
    cur = heights.copy()  # heights at the top of the stack, kept in step with it
    best_left = left
    best_n = 0
    won = left == 0
    sp = 0
    stack_code[0] = code
    stack_top[0] = top0
    stack_next[0] = 0
    _insert(table, code * n_tops + top0)
    used = 1
    while sp >= 0 and not won:
        top = stack_top[sp]
        c = stack_next[sp]
        pushed = False
        while c < ncols:
            h = cur[c]
            if h > 0:
                nxt = play_next[top, exposed[c, h]]
                if nxt >= 0:
                    child = stack_code[sp] - pw[c]
                    if _insert(table, child * n_tops + nxt):
                        used += 1
                        if 2 * used > table.shape[0]:
                            table = _grow(table)
                        stack_next[sp] = c + 1
                        stack_move[sp] = c
                        cur[c] -= 1
                        sp += 1
                        stack_code[sp] = child
                        stack_top[sp] = nxt
                        stack_next[sp] = 0
                        pushed = True
                        # cards left at the child: one fewer per play on the stack
                        if left - sp < best_left:
                            best_left = left - sp
                            best_n = sp
                            moves_out[:sp] = stack_move[:sp]
                            won = best_left == 0
                        break
            c += 1
        if not pushed:
            sp -= 1
            if sp >= 0:
                cur[stack_move[sp]] += 1
    return won, best_left, 0, best_n, used
