"""Depth-first search with a hash set, for the stockless layouts (too wide for the dense sweep).

Black Hole (17 columns of 3) and All in a Row (13 of 4) have no stock, so a state
is just (column heights, top); their height vectors number in the billions, but
only a small part is reachable.  The search visits each reachable state once and
stops at the first win (a win is optimal: strokes 0, no stock to save); otherwise
it proves the fewest cards left by exhausting the reachable states.  No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.constants import FINISHED, TRUNCATED
from golfstats.kernels.core import powers
from golfstats.kernels.hashset import grow, insert, new_set


@nb.njit(cache=True, nogil=True)
def search_stockless(kt, exposed, heights, top0, stop_at_win, max_states, moves_out):
    """Solve a position without stock.  Returns ``(status, won, cards_left, n_moves, states)``.

    Both goals are the same here: the first win found is optimal (``stop_at_win`` is
    accepted for the common signature).  ``status`` is ``TRUNCATED`` when ``max_states``
    states were stored before the search ended: the position is then unresolved, and
    ``won``/``cards_left`` only say what the line found so far reaches.  The line to the
    best position found is in ``moves_out[:n_moves]``.
    """
    play_next = kt.play_next
    n_tops = play_next.shape[0]
    ncols = heights.shape[0]
    pw, code, _ = powers(heights)
    left = heights.sum()
    table = new_set(16)
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
    insert(table, code * n_tops + top0)
    used = 1
    status = FINISHED
    while sp >= 0 and not won:
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
                            won = best_left == 0
                        break
            c += 1
        if not pushed:
            sp -= 1
            if sp >= 0:
                cur[stack_move[sp]] += 1
    return status, won, best_left, best_n, used
