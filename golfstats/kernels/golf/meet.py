"""The exact solver's third design for golf under draw any-time: meet in the middle of the stock.

Stage p is "p stock cards turned".  A line is a chain of plays, a draw (or several), a
chain, ...; between stages only the heights vector matters, since after a draw the top
is the card just turned.

* **Forward** (shared by every question, ``meet_forward``): a (heights, top) state is
  labelled once, with the fewest cards turned that reach it, and each heights vector with
  its first stage ``F(h)``.
* **Backward**, for a question (P, L): "is there a line that turns at most P cards and
  reaches a tableau of at most L cards?" (L = 0: a win with at least n - P cards left).
  Heights of at most L cards are the end targets.  ``val(h, t)`` (byte ``code * S + t``
  of ``kb`` read as bytes, 0 unknown) is the latest stage from which (h, top t) can
  still reach a target by plays and later draws; ``T(h)`` (byte ``code * S + S - 2``) is
  the last stage q <= P at which (h, card q - 1) can, i.e. ``val(h, card q - 1) > q``.
  Stages are closed from P down: at stage q, every heights vector with no ``T`` yet
  and ``val(h, card q - 1) > q`` gets ``T(h) = q`` (only heights labelled with that
  card are looked at: the queue entries of each top are linked), and un-playing from it
  labels its predecessors q.  End targets get ``T = P + 1``.  A label is set once, by
  the first (highest) stage that reaches it.  Where the top after a card does not
  depend on the top it went on (no jokers, no dead Queens: putt-putt, strict,
  queens-on-kings and their empty start), the labels are keyed on the kind of the
  chain's first card instead of the top (``meet_backward``: the same answers, about a
  fifth fewer states on putt-putt, PySol 1-300: 44.6k against 56.6k a deal).
* **Meet**: the answer is yes iff some heights vector has ``F(h) < T(h)`` (reach it
  forward, draw up to stage ``T(h)``, finish backward).  Once the forward has closed
  stages 0..a and the backward stages P..a+1, a winning line has a draw from a stage
  <= a to one > a, so a "no" is certain.  The side whose last stage cost less is
  expanded next (the forward twice as readily: it serves every question).
* **Questions** (goal strokes): P = n - 5 first, then each "yes" (its line turns d
  cards) asks d - 2 (or d - 1), each "no" halves the gap, until the fewest cards turned
  to win is pinned.  A deal with no win asks L = 1, 2; above that the forward pass is
  run to the end (the fewest cards of any heights vector it reaches).  Goal win asks
  P = n only.

The work is bounded by ``budget`` labelled states (``MEET_BUDGET`` from ``kernels.solve``):
the forward's and the current question's together, checked after each stage, and the
queues hold no more, so they never overflow.  A solve that would exceed it returns ``ok``
False, both buffers restored, and ``kernels.solve`` runs the dense sweep instead, which
has no budget: nothing is truncated.  Draw when-stuck is not modelled (a player may not
draw past a play, so "only the heights matter between stages" fails): the sweep solves
it.  The lines are traced in ``meet_trace``: another optimal line than the sweep's may
come out (same won, strokes and cards turned).  No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.constants import DRAW
from golfstats.kernels.core import powers
from golfstats.kernels.golf.meet_backward import (
    ANY,
    NO,
    OVERFLOW,
    YES,
    backward_stage,
    by_kind,
    end_targets,
    reset_backward,
    unplay,
    unplay_table,
)
from golfstats.kernels.golf.meet_forward import exposed_kinds, forward_stage, forward_to_end, reset_forward
from golfstats.kernels.golf.meet_trace import CODE_MASK, TOP_MASK, trace_backward, trace_forward
from golfstats.kernels.golf.sweep import COLUMNS, INF

#: Labelled states a solve may make before it hands the position to the sweep.  Chosen by
#: measurement on putt-putt, PySol deals 1-300 (5,000 to 1,000,000 tried): 80,000 was the
#: fastest mean with the sweep's time added for the 7% of deals that reach it.  With the
#: backward keyed on kinds, 5% reach it (PySol 1-300); 120,000 (1%) measured the same
#: mean on PySol 1-1000 (1.41-1.42x against 1.40-1.47x the sweep): it stays.
MEET_BUDGET = 80_000
#: The first question of goal strokes: a win with at least this many stock cards left.
FIRST_QUESTION = 5
#: The lost deal's questions L = 1 .. LOST_QUESTIONS; above that the forward runs to the end.
LOST_QUESTIONS = 2
#: The forward's next stage is closed when its last one cost at most this many times the
#: backward's last one.
FORWARD_BIAS = 2


@nb.njit(cache=True, nogil=True)
def _question(P, L, last, limit, kt, exposed, h0, pw, stock, bt, kv, kb, S, fq, fs, flist,
              fmask, bq, links, bs, blist):
    """Is there a line turning at most P cards to a tableau of at most L cards?  Returns
    (YES / NO / OVERFLOW, meet entry); the backward labels stay for the trace."""
    drawn = kt.drawn
    KMIN = S - 2
    links[bq.shape[0]:] = -1
    n_end = end_targets(h0, pw, L, blist)
    bs[2] = n_end
    for i in range(n_end):
        e = blist[i]
        code = (e >> 6) & CODE_MASK
        kb[code * S + S - 2] = P + 1
        kb[code * S + S - 1] = 1
        bq[i] = e | ANY
        if kv[code * S + KMIN] <= P:
            bs[1] = i + 1
            return YES, e
    bs[1] = n_end
    if not unplay(0, exposed, h0, pw, bt, kb, S, bq, links, bs, blist):
        return OVERFLOW, 0
    bs[0] = P + 1
    bs[3] = bs[1]
    while fs[0] + 1 < bs[0]:
        if fs[1] + bs[1] > limit:
            return OVERFLOW, 0
        if fs[3] <= FORWARD_BIAS * bs[3] and fs[0] < last:
            p = fs[0] + 1
            done = fs[2]
            if not forward_stage(p, drawn[stock[p - 1]], exposed, kt.play_next, kt.accepts, pw,
                                  kv, S, fq, fs, flist, fmask):
                return OVERFLOW, 0
            for i in range(done, fs[2]):
                e = flist[i]
                if kb[((e >> 6) & CODE_MASK) * S + S - 2] > p:
                    return YES, e
        else:
            q = bs[0] - 1
            status, e = backward_stage(q, drawn[stock[q - 1]], exposed, h0, pw, bt, kv, kb, S,
                                        bq, links, bs, blist)
            if status != NO:
                return status, e
    return NO, 0


@nb.njit(cache=True, nogil=True)
def meet_any_time(kt, exposed, heights, stock, top0, cap, stop_at_win, kv, kb, moves_out,
                  budget, key_by_kind=True):
    """Solve under draw any-time: ``(ok, won, strokes, stock_left, n_moves, states)``, the
    contract of ``sweep.sweep_any_time`` (same won, strokes and stock left; maybe another
    optimal line) when ``ok``; ``ok`` False (buffers restored) when a budget was reached
    or the position does not fit the packed codes: the caller then sweeps.  The backward
    states are keyed on the kind of a chain's first card where ``meet_backward.by_kind``
    allows it and ``key_by_kind`` (else on the top: the tests compare the two)."""
    n = stock.shape[0]
    pw, full, spare = powers(heights)
    if spare > CODE_MASK or heights.max() > 7:
        return False, False, 0, 0, 0, 0
    if full == 0:
        return True, True, -n, n, 0, 0
    S = kt.stride
    KMIN = S - 2
    last = min(cap, n)
    play_next = kt.play_next
    kinds = key_by_kind and by_kind(play_next, S)
    bt = unplay_table(play_next, kt.accepts, kinds)
    bk = kb.view(np.uint8)  # the backward labels: a byte each (stages), a quarter of the cache
    fq = np.empty(budget, np.int64)
    flist = np.empty(spare, np.int64)
    fmask = np.empty(spare, np.int64)
    bq = np.empty(budget, np.int64)
    links = np.empty(budget + TOP_MASK + 1, np.int64)
    blist = np.empty(spare, np.int64)
    fs = np.zeros(4, np.int64)
    bs = np.zeros(4, np.int64)
    packed0 = 0
    for c in range(COLUMNS):
        packed0 |= heights[c] << (3 * c)
    e0 = (packed0 << 25) | (full << 6)
    kv[full * S + top0] = 0
    kv[full * S + KMIN] = 0
    fq[0] = e0 | top0
    flist[0] = e0
    fmask[0] = exposed_kinds(exposed, packed0)
    fs[1] = 1
    fs[2] = 1
    ok = forward_stage(0, 0, exposed, play_next, kt.accepts, pw, kv, S, fq, fs, flist, fmask)
    lo = -1  # the largest P known to have no win, and the fewest cards turned to win
    hi = last + 1
    n_moves = 0
    k_end = 0
    states = 0
    P = last if stop_at_win else max(0, last - FIRST_QUESTION)
    while ok:
        if kv[KMIN] == INF:  # no win within the stages the forward has closed
            lo = max(lo, fs[0])
        if hi - lo <= 1:
            break
        P = min(max(P, lo + 1), hi - 1)
        status, e = _question(P, 0, last, budget, kt, exposed, heights, pw, stock, bt, kv, bk, S,
                              fq, fs, flist, fmask, bq, links, bs, blist)
        states += bs[1]
        if status == OVERFLOW:
            ok = False
        elif status == YES:
            n_moves, hi = _line(e, P, kt, kinds, exposed, heights, pw, stock, top0, full, kv, bk,
                                S, moves_out)
            if stop_at_win or n_moves < 0:
                lo = hi - 1
            P = max(lo + 1, hi - 2)
        else:
            lo = P
            P = (lo + hi) // 2 if hi <= last else last
        reset_backward(bk, S, bq, bs, blist)
    won = ok and hi <= last
    left = 0
    if ok and not won:
        left = -1
        for L in range(1, LOST_QUESTIONS + 1):
            status, e = _question(last, L, last, budget, kt, exposed, heights, pw, stock, bt,
                                  kv, bk, S, fq, fs, flist, fmask, bq, links, bs, blist)
            states += bs[1]
            if status == YES:
                n_moves, k_end = _line(e, last, kt, kinds, exposed, heights, pw, stock, top0,
                                       full, kv, bk, S, moves_out)
                left = L
            reset_backward(bk, S, bq, bs, blist)
            if status == OVERFLOW:
                ok = False
            if status != NO:
                break
        if ok and left < 0:
            ok, left, n_moves, k_end = forward_to_end(last, kt, exposed, heights, pw, stock,
                                                       top0, full, kv, S, fq, fs, flist, fmask,
                                                       moves_out)
        if ok and n_moves >= 0:
            for _ in range(last - k_end):
                moves_out[n_moves] = DRAW
                n_moves += 1
    states += fs[1]
    reset_forward(kv, S, fq, fs, flist)
    if not ok:
        return False, False, 0, 0, 0, 0
    if won:
        return True, True, -(n - hi), n - hi, n_moves, states
    return True, False, left, 0, n_moves, states


@nb.njit(cache=True, nogil=True)
def _line(e, P, kt, kinds, exposed, heights, pw, stock, top0, full, kv, kb, S, moves_out):
    """The line through the meeting heights ``e``: forward to it, draws to ``T(h)``, then
    backward to an end target.  Returns (n_moves, cards turned), n_moves -1 on an
    inconsistent table."""
    n, k = trace_forward(e, exposed, heights, pw, kt.play_next, stock, kt.drawn, top0, full, kv,
                         S, moves_out)
    if n < 0:
        return -1, P
    return trace_backward(e, k, n, P + 1, exposed, pw, kt.play_next, kt.accepts, kinds, stock,
                          kt.drawn, kb, S, moves_out)


