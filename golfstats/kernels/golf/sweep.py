"""The exact solver's kernels for golf: one sweep over every tableau state, in topological order.

A tableau state is the vector of column heights, numbered by the mixed-radix
``code = sum(h[c] * pw[c])`` with radix ``heights0[c] + 1``.  A play lowers one
digit, so visiting codes from high to low visits every state after all states
that lead to it.  Each state holds one slot per top state:

* draw any-time: the fewest stock cards turned to stand here with that top.  That
  is all that matters (issue 3): with the same heights and top, fewer cards turned
  is never worse, because the extra cards can be turned at once to catch up.
  Draws are not stored: with ``kmin`` the state's fewest turned, top ``u`` is also
  available after ``nk[kmin, u]`` turned (the first later stock card that makes top
  ``u``).  Slot ``stride - 2`` keeps ``kmin``.
* draw when-stuck: that shortcut fails (a player may not draw past a play), so each
  slot is a bit set of every reachable count of turned cards; slot ``stride - 2``
  is their union.

Plays read the grouped tables of ``kernels.rule_tables``.  Buffers come from the caller
filled with ``INF`` (any-time) or 0 (when-stuck), at least one spare state longer
than the code space, and the part used is restored before returning.  Moves go to ``moves_out``: ``c >= 0``
plays column ``c``, -1 draws.  No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.constants import COLUMNS, DRAW, N_KINDS
from golfstats.kernels.core import decode, powers, reverse, step_down

INF = 255
U = np.uint64


@nb.njit(cache=True, nogil=True)
def _next_turned(stock, drawn, stride):
    """``nk[j*stride + u]``: cards turned when top ``u`` first appears at or after stock index j."""
    n = stock.shape[0]
    nk = np.full((n + 1) * stride, INF, np.uint8)
    for j in range(n - 1, -1, -1):
        for u in range(stride):
            nk[j * stride + u] = nk[(j + 1) * stride + u]
        nk[j * stride + drawn[stock[j]]] = j + 1
    return nk


@nb.njit(cache=True, nogil=True)
def sweep_any_time(kt, exposed, heights, stock, top0, cap, stop_at_win, kv, moves_out):
    """Solve under ``draw any-time``.

    Returns ``(won, strokes, stock_left, n_moves, states)`` with the optimal line in
    ``moves_out[:n_moves]``; only lines turning at most ``cap`` stock cards count.
    With ``stop_at_win`` the sweep stops at the first win (winnability only).

    The plain king rules pull: each card takes the best of at most two (three with
    an empty start) source tops, and constant loop bounds let the compiler unroll
    that, which halves the time.  Other rule sets push from every top present.
    """
    if kt.width == 2:  # one group of two sources per card
        return _any_time(kt, exposed, heights, stock, top0, cap, stop_at_win, kv, moves_out, 1, 2)
    if kt.width == 3:
        return _any_time(kt, exposed, heights, stock, top0, cap, stop_at_win, kv, moves_out, 1, 3)
    return _any_time(kt, exposed, heights, stock, top0, cap, stop_at_win, kv, moves_out, 0, 0)


@nb.njit(inline="always", nogil=True)
def _any_time(kt, exposed, heights, stock, top0, cap, stop_at_win, kv, moves_out, groups, width):
    play_next, pull_src, pull_dst, stride = kt.play_next, kt.pull_src, kt.pull_dst, kt.stride
    n = stock.shape[0]
    n_tops = play_next.shape[0]
    pw, full, spare_code = powers(heights)
    nk = _next_turned(stock, kt.drawn, stride)
    S = U(stride)
    KMIN = U(stride - 2)
    ex_w = U(exposed.shape[1])
    ex = exposed.ravel().astype(np.uint64)
    nxt = play_next.ravel()
    upw = pw.astype(np.uint64)
    ucap = np.uint8(min(cap, 254))
    inf = np.uint8(INF)
    kv[U(full) * S + U(top0)] = 0
    kv[U(full) * S + KMIN] = 0
    dig = heights.astype(np.uint64)
    states = 0
    best_left = U(1 << 30)
    best_code = U(0)
    code = U(full)
    while code > U(0):
        base = code * S
        kmin = kv[base + KMIN]
        if kmin <= ucap:
            states += 1
            nkb = U(kmin) * S
            left = U(0)
            if groups > 0:  # pull: one write per group of sources
                for c in range(COLUMNS):
                    h = dig[c]
                    left += h
                    x = ex[U(c) * ex_w + h]
                    # an empty column has only no-op entries: aim it at the spare state
                    cbase = ((code - upw[c]) if h != U(0) else U(spare_code)) * S
                    best = inf
                    for g in range(groups):
                        v = inf
                        for m in range(width):
                            t = pull_src[U((g * width + m) * N_KINDS) + x]
                            a = kv[base + t]
                            w = nk[nkb + t]
                            a = a if a < w else w
                            v = a if a < v else v
                        v = v if v <= ucap else inf
                        slot = cbase + pull_dst[U(g * N_KINDS) + x]
                        old = kv[slot]
                        kv[slot] = v if v < old else old
                        best = v if v < best else best
                    old = kv[cbase + KMIN]
                    kv[cbase + KMIN] = best if best < old else old
            else:  # push: from every top present here, to every column it accepts
                for c in range(COLUMNS):
                    left += dig[c]
                for t in range(n_tops):
                    a = kv[base + U(t)]
                    w = nk[nkb + U(t)]
                    v = a if a < w else w
                    if v > ucap:
                        continue
                    for c in range(COLUMNS):
                        h = dig[c]
                        if h == U(0):
                            continue
                        u = nxt[t * N_KINDS + np.int64(ex[U(c) * ex_w + h])]
                        if u < 0:
                            continue
                        cbase = (code - upw[c]) * S
                        if v < kv[cbase + U(u)]:
                            kv[cbase + U(u)] = v
                        if v < kv[cbase + KMIN]:
                            kv[cbase + KMIN] = v
            if left < best_left:
                best_left = left
                best_code = code
            if stop_at_win and kv[KMIN] <= ucap:
                break  # a play has cleared the tableau: the deal is winnable
        code -= U(1)
        step_down(dig, heights)
    won = kv[KMIN] <= ucap or full == 0
    target = np.int64(0)
    k_end = np.int64(0)
    loss_left = np.int64(best_left)
    if won:
        loss_left = 0
        if full != 0:
            k_end = np.int64(kv[KMIN])
    else:
        target = np.int64(best_code)
        k_end = np.int64(kv[U(best_code) * S + KMIN])
    n_moves = _trace_any_time(exposed, heights, top0, play_next, stride, kv, nk, pw, full,
                              target, k_end, moves_out)
    kv[:(spare_code + 1) * stride] = INF
    return _finish(won, n, cap, k_end, loss_left, n_moves, states, moves_out)


@nb.njit(cache=True, nogil=True)
def _finish(won, n, cap, k_end, loss_left, n_moves, states, moves_out):
    """Result tuple.  A lost line is completed by turning the rest of the stock (up to
    ``cap`` cards in all); those draws are legal even under when-stuck, since a play
    after any of them would leave fewer cards than the best the sweep found."""
    if won:
        return True, -(n - k_end), n - k_end, n_moves, states
    if n_moves >= 0:
        for _ in range(min(cap, n) - k_end):
            moves_out[n_moves] = DRAW
            n_moves += 1
    return False, loss_left, 0, n_moves, states


@nb.njit(cache=True, nogil=True)
def _entry(kv, code, S, n_tops, k):
    """A top entered (by a play, or the start) at ``code`` with exactly ``k`` turned."""
    for t in range(n_tops):
        if kv[code * S + t] == k:
            return t
    return -1


@nb.njit(cache=True, nogil=True)
def _trace_any_time(exposed, heights, top0, play_next, stride, kv, nk, pw, full, target, k,
                    moves_out):
    """Walk back from (target, a top entered with k turned) to the start; moves in order.

    Every stored value was written from a real line, so some parent always explains
    it exactly: either the parent had that top entered with k turned, or it reached
    the top by turning stock cards from its own fewest turned.
    """
    S = stride
    KMIN = stride - 2
    n_tops = play_next.shape[0]
    dig = np.empty(COLUMNS, np.int64)
    code = target
    u = _entry(kv, code, S, n_tops, k)
    n = 0
    while not (code == full and u == top0 and k == 0):
        decode(code, heights, dig)
        moved = False
        for c in range(COLUMNS):
            if moved or dig[c] == heights[c]:
                continue
            parent = code + pw[c]
            kmin_p = np.int64(kv[parent * S + KMIN])
            if kmin_p == INF:
                continue
            x = exposed[c, dig[c] + 1]
            for t in range(n_tops):
                if play_next[t, x] != u:
                    continue
                if kv[parent * S + t] == k:
                    moves_out[n] = c
                    n += 1
                    code, u = parent, t
                    moved = True
                    break
                if nk[kmin_p * S + t] == k:
                    moves_out[n] = c
                    n += 1
                    for _ in range(k - kmin_p):
                        moves_out[n] = DRAW
                        n += 1
                    code, k = parent, kmin_p
                    u = _entry(kv, code, S, n_tops, k)
                    moved = True
                    break
        if not moved:  # would mean an inconsistent table: reported as an error by the caller
            return -1
    reverse(moves_out, n)
    return n


@nb.njit(cache=True, nogil=True)
def _exposed_bits(exposed, dig):
    seen = 0
    for c in range(COLUMNS):
        seen |= 1 << exposed[c, dig[c]]
    return seen


@nb.njit(cache=True, nogil=True)
def sweep_when_stuck(kt, exposed, heights, stock, top0, cap, stop_at_win, kb, moves_out):
    """Solve under ``draw when-stuck``; same contract as ``sweep_any_time``.

    ``kb`` holds a uint32 bit set per (state, top): bit k set when the state and top
    are reachable with exactly k stock cards turned.
    """
    drawn, accepts, play_next, stride = kt.drawn, kt.accepts, kt.play_next, kt.stride
    n = stock.shape[0]
    n_tops = play_next.shape[0]
    pw, full, spare_code = powers(heights)
    S = U(stride)
    ALL = U(stride - 2)
    capmask = np.uint32((1 << (min(cap, 30) + 1)) - 1)
    kb[U(full) * S + U(top0)] = 1
    kb[U(full) * S + ALL] = 1
    dig = heights.copy()
    states = 0
    best_left = 1 << 30
    best_code = 0
    code = full
    while code > 0:
        base = U(code) * S
        if kb[base + ALL] != 0:
            states += 1
            seen = _exposed_bits(exposed, dig)
            left = 0
            for c in range(COLUMNS):
                left += dig[c]
            # draws, in order of cards turned, from every top that has no play here
            stuck = np.uint32(0)
            for t in range(n_tops):
                if accepts[t] & seen == 0:
                    stuck |= kb[base + U(t)]
            for j in range(n):
                if (stuck >> j) & 1:
                    u = drawn[stock[j]]
                    bit = np.uint32(1 << (j + 1)) & capmask
                    kb[base + U(u)] |= bit
                    kb[base + ALL] |= bit
                    if accepts[u] & seen == 0:
                        stuck |= bit
            for t in range(n_tops):
                m = kb[base + U(t)] & capmask
                if m == 0:
                    continue
                for c in range(COLUMNS):
                    h = dig[c]
                    if h == 0:
                        continue
                    u = play_next[t, exposed[c, h]]
                    if u >= 0:
                        cbase = U(code - pw[c]) * S
                        kb[cbase + U(u)] |= m
                        kb[cbase + ALL] |= m
            if left < best_left:
                best_left = left
                best_code = code
            if stop_at_win and kb[ALL] != 0:
                break
        code -= 1
        step_down(dig, heights)
    won = kb[ALL] != 0 or full == 0
    target = 0 if won else best_code
    loss_left = 0 if won else best_left
    k_end = 0
    if full != 0:
        m = kb[U(target) * S + ALL]
        while (m >> k_end) & 1 == 0:
            k_end += 1
    n_moves = _trace_when_stuck(kt, exposed, heights, stock, top0, kb, pw, full, target, k_end,
                                moves_out)
    kb[:(spare_code + 1) * stride] = 0
    return _finish(won, n, cap, k_end, loss_left, n_moves, states, moves_out)


@nb.njit(cache=True, nogil=True)
def _trace_when_stuck(kt, exposed, heights, stock, top0, kb, pw, full, target, k, moves_out):
    """Walk back from (``target``, a top reached with k turned) to the start by the bit sets
    ``kb`` of ``sweep_when_stuck``; the moves in order into ``moves_out``, their number
    returned (-1 when no parent explains a state)."""
    drawn, accepts, play_next, S = kt.drawn, kt.accepts, kt.play_next, kt.stride
    n_tops = play_next.shape[0]
    dig = np.empty(COLUMNS, np.int64)
    code = target
    u = -1
    for t in range(n_tops):
        if (kb[code * S + t] >> k) & 1:
            u = t
            break
    n = 0
    while not (code == full and u == top0 and k == 0):
        decode(code, heights, dig)
        moved = False
        for c in range(COLUMNS):
            if moved or dig[c] == heights[c]:
                continue
            parent = code + pw[c]
            x = exposed[c, dig[c] + 1]
            for t in range(n_tops):
                if play_next[t, x] == u and (kb[parent * S + t] >> k) & 1:
                    moves_out[n] = c
                    n += 1
                    code, u = parent, t
                    moved = True
                    break
        if not moved and k > 0 and drawn[stock[k - 1]] == u:
            seen = _exposed_bits(exposed, dig)
            for t in range(n_tops):
                if accepts[t] & seen == 0 and (kb[code * S + t] >> (k - 1)) & 1:
                    moves_out[n] = DRAW
                    n += 1
                    u, k = t, k - 1
                    moved = True
                    break
        if not moved:
            return -1
    reverse(moves_out, n)
    return n
