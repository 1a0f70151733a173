"""The plain explicit-stack search over chains of plays: every position plays reach.

A position reached by plays alone is (column heights, top); its cards left depend on the
heights only, not on the path.  ``fewest_left`` visits each reachable position once
(depth-first, a hash set of the visited ones) and keeps the one with the fewest cards
left, with the plays that reach it.  It gives the longest chain from a golf position
(``chains.longest_chain``: cards now minus the fewest cards left).  The stockless games,
where a whole hand is one chain, have their own search with pruning rules
(``kernels.stockless``), tested against a search like this one.  No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.constants import FINISHED, TRUNCATED
from golfstats.kernels.core import powers
from golfstats.kernels.hashset import grow, insert, new_set


@nb.njit(cache=True, nogil=True)
def fewest_left(play_next, exposed, heights, top0, max_states, log2_size, moves_out):
    """Depth-first over every position plays reach from (heights, top0).

    Returns ``(status, cards_left, n_moves, states)``: the fewest cards left of a
    reachable position, the plays reaching it in ``moves_out[:n_moves]``, and the
    positions stored.  It stops early at a cleared tableau.  ``status`` is
    ``TRUNCATED`` when ``max_states`` positions were stored before the search ended:
    ``cards_left`` is then only the best found so far.  ``log2_size`` sizes the first
    hash set (it grows as needed).
    """
    n_tops = play_next.shape[0]
    ncols = heights.shape[0]
    pw, code, _ = powers(heights)
    left = heights.sum()
    table = new_set(log2_size)
    stack_code = np.empty(left + 1, np.int64)
    stack_top = np.empty(left + 1, np.int64)
    stack_next = np.empty(left + 1, np.int64)
    stack_move = np.empty(left + 1, np.int64)
    cur = heights.copy()  # heights at the top of the stack, kept in step with it
    best_left = left
    best_n = 0
    sp = 0
    stack_code[0] = code
    stack_top[0] = top0
    stack_next[0] = 0
    insert(table, code * n_tops + top0)
    used = 1
    status = FINISHED
    while sp >= 0 and best_left > 0:
        if used >= max_states:
            status = TRUNCATED
            break
        top = stack_top[sp]
        c = stack_next[sp]
        pushed = False
        while c < ncols:
            h = cur[c]
            if h > 0:
                nxt = play_next[top, exposed[c, h]]
                if nxt >= 0:
                    child = stack_code[sp] - pw[c]
                    if insert(table, child * n_tops + nxt):
                        used += 1
                        if 2 * used > table.shape[0]:
                            table = grow(table)
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
                        break
            c += 1
        if not pushed:
            sp -= 1
            if sp >= 0:
                cur[stack_move[sp]] += 1
    return status, best_left, best_n, used
