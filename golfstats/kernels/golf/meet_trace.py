"""The line of ``meet``: forward from the start to the meeting heights, backward from them.

A queue entry of ``meet`` is ``packed << 25 | code << 6 | top``: the heights packed three
bits a column, their mixed-radix code (``kernels.core``) and a top (``TOP_MASK``: every
top).  Every label was written from a real line, so some parent always explains it: the
tracers never search, they only look one move back (forward) or ahead (backward).  An
inconsistent table would give -1 moves, which ``golfstats.solver`` reports as an error.
No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.constants import DRAW
from golfstats.kernels.core import reverse
from golfstats.kernels.golf.sweep import COLUMNS

CODE_MASK = (1 << 19) - 1
TOP_MASK = 63


@nb.njit(cache=True, nogil=True, inline="always")
def play_child(exposed, play_next, pw, code, packed, t, c):
    """Playing column c from heights ``packed`` (code ``code``) on top t: ``(child code,
    new top)``, or ``(-1, -1)`` when the column is empty or its card does not go on t.
    The one "children of a packed state" step of the forward, the trace and the prefetch."""
    h = (packed >> (3 * c)) & 7
    if h == 0:
        return -1, -1
    u = play_next[t, exposed[c, h]]
    if u < 0:
        return -1, -1
    return code - pw[c], u


@nb.njit(cache=True, nogil=True)
def trace_forward(e, exposed, h0, pw, play_next, stock, drawn, top0, full, kv, S, moves_out):
    """Moves from the start to the heights of entry ``e`` at their first stage ``F(h)``.
    Returns ``(n_moves, F(h))``.

    A state labelled p was reached by a play from a parent labelled p, or by drawing up
    to card p - 1 from its heights' first stage."""
    n_tops = play_next.shape[0]
    code = (e >> 6) & CODE_MASK
    packed = e >> 25
    p = np.int64(kv[code * S + S - 2])
    k_end = p
    t = -1
    for u in range(n_tops):
        if kv[code * S + u] == p:
            t = u
            break
    n = 0
    while not (code == full and t == top0 and p == 0):
        moved = False
        for c in range(COLUMNS):
            h = (packed >> (3 * c)) & 7
            if h == h0[c]:
                continue
            parent = code + pw[c]
            x = exposed[c, h + 1]
            for u in range(n_tops):
                if play_next[u, x] == t and kv[parent * S + u] == p:
                    moves_out[n] = c
                    n += 1
                    code, t = parent, u
                    packed += 1 << (3 * c)
                    moved = True
                    break
            if moved:
                break
        if moved:
            continue
        f = np.int64(kv[code * S + S - 2])
        if p == 0 or f >= p or t != drawn[stock[p - 1]]:
            return -1, k_end
        for _ in range(p - f):
            moves_out[n] = DRAW
            n += 1
        p = f
        t = -1
        for u in range(n_tops):
            if kv[code * S + u] == p:
                t = u
                break
    reverse(moves_out, n)
    return n, k_end


@nb.njit(cache=True, nogil=True)
def trace_backward(e, q, n, end, exposed, pw, play_next, accepts, kinds, stock, drawn, kb, S,
                   moves_out):
    """Append to ``moves_out[:n]`` the moves from the heights of ``e``, standing at stage q,
    to an end target (``T == end``): draw up to ``T(h)``, then plays that keep the label
    above the stage, drawing again at each heights vector whose ``T`` is later.  Labels
    are keyed on the top, or (``kinds``) on the kind of the next card played (the label
    of a top is then the best of the kinds it accepts).  Returns ``(n_moves, cards turned
    at the end)``."""
    TS = S - 2
    code = (e >> 6) & CODE_MASK
    packed = e >> 25
    t = -1
    while True:
        T = np.int64(kb[code * S + TS])
        if T == end:
            return n, q
        if T > q:
            for _ in range(T - q):
                moves_out[n] = DRAW
                n += 1
            q = T
            t = drawn[stock[q - 1]]
        if t < 0:
            return -1, q
        moved = False
        for c in range(COLUMNS):
            child, u = play_child(exposed, play_next, pw, code, packed, t, c)
            if child < 0:
                continue
            v = kb[child * S + TS]
            if kinds:
                for d in range(COLUMNS):
                    g = (packed >> (3 * d)) & 7
                    if d == c:
                        g -= 1
                    if g > 0 and (accepts[u] >> exposed[d, g]) & 1:
                        v = max(v, kb[child * S + exposed[d, g]])
            else:
                v = max(v, kb[child * S + u])
            if v > q:
                moves_out[n] = c
                n += 1
                code, t = child, u
                packed -= 1 << (3 * c)
                moved = True
                break
        if not moved:
            return -1, q
