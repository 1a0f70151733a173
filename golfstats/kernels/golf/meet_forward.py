"""The forward side of ``meet``: stages closed in order of cards turned.

A (heights, top) state is labelled once, with the fewest stock cards turned that reach it
(``kv[code * S + top]``, ``INF`` unseen), and its heights with their first stage
(``kv[code * S + S - 2]``).  Stage p is seeded with (h, card p - 1) for every heights
vector reached before that has a play on that card, then closed under plays.  ``fs``
holds [stages closed, queue length, heights reached, states labelled by the last stage];
``flist`` the heights reached (queue entries without a top, ``meet_trace``), ``fmask`` the
card kinds each exposes.  No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.golf.meet_trace import CODE_MASK, TOP_MASK, play_child, trace_forward
from golfstats.kernels.golf.sweep import COLUMNS, INF
from golfstats.kernels.hashset import prefetch

#: The forward asks for the label slots of the children of the entry this many places
#: ahead in its queue before it reads them (their cache lines arrive meanwhile).  At most
#: a small gain, within the noise of a loaded machine (putt-putt, PySol 1-300, CPU time,
#: the best of 5: 2.87-2.94 ms a deal against 2.99-3.10 ms with 0, which turns it off).
AHEAD = 8


@nb.njit(cache=True, nogil=True, inline="always")
def _prefetch_children(e, exposed, play_next, pw, kv, S):
    t = e & TOP_MASK
    code = (e >> 6) & CODE_MASK
    packed = e >> 25
    for c in range(COLUMNS):
        child, u = play_child(exposed, play_next, pw, code, packed, t, c)
        if child >= 0:
            prefetch(kv, child * S + u)


@nb.njit(cache=True, nogil=True, inline="always")
def exposed_kinds(exposed, packed):
    m = 0
    for c in range(COLUMNS):
        m |= 1 << exposed[c, (packed >> (3 * c)) & 7]
    return m


@nb.njit(cache=True, nogil=True)
def forward_stage(p, seed_top, exposed, play_next, accepts, pw, kv, S, fq, fs, flist, fmask):
    """Close stage p: seed (h, ``seed_top``) for every heights vector in ``flist`` (p > 0)
    that has a play on it (``fmask``: the kinds each exposes; a seed without a play leads
    nowhere and its heights already have their first stage), then label every state
    plays reach.  ``fs`` = [stages done, queue length, heights
    count, cost of the last stage]; False if the queue would overflow."""
    KMIN = S - 2
    nf = fs[1]
    nfl = fs[2]
    begin = nf if p > 0 else 0
    if p > 0:
        acc = accepts[seed_top]
        for i in range(nfl):
            if acc & fmask[i] == 0:
                continue
            e = flist[i]
            slot = ((e >> 6) & CODE_MASK) * S + seed_top
            if kv[slot] == INF:
                if nf == fq.shape[0]:
                    fs[1] = nf  # what was labelled is recorded, so that it is reset
                    fs[2] = nfl
                    return False
                kv[slot] = p
                fq[nf] = e | seed_top
                nf += 1
    i = begin
    while i < nf:
        if AHEAD > 0 and i + AHEAD < nf:
            _prefetch_children(fq[i + AHEAD], exposed, play_next, pw, kv, S)
        e = fq[i]
        i += 1
        t = e & TOP_MASK
        code = (e >> 6) & CODE_MASK
        packed = e >> 25
        for c in range(COLUMNS):
            child, u = play_child(exposed, play_next, pw, code, packed, t, c)
            if child < 0:
                continue
            slot = child * S + u
            if kv[slot] != INF:
                continue
            if nf == fq.shape[0]:
                fs[1] = nf  # what was labelled is recorded, so that it is reset
                fs[2] = nfl
                return False
            kv[slot] = p
            ce = ((packed - (1 << (3 * c))) << 25) | (child << 6)
            if kv[child * S + KMIN] == INF:
                kv[child * S + KMIN] = p
                flist[nfl] = ce
                fmask[nfl] = exposed_kinds(exposed, packed - (1 << (3 * c)))
                nfl += 1
            fq[nf] = ce | u
            nf += 1
    fs[0] = p
    fs[3] = nf - begin
    fs[1] = nf
    fs[2] = nfl
    return True


@nb.njit(cache=True, nogil=True)
def forward_to_end(last, kt, exposed, heights, pw, stock, top0, full, kv, S, fq, fs, flist,
                    fmask, moves_out):
    """The forward pass through every stage: the fewest cards of a heights vector it
    reaches, and the line to it.  Returns (ok, cards left, n_moves, cards turned)."""
    while fs[0] < last:
        p = fs[0] + 1
        if not forward_stage(p, kt.drawn[stock[p - 1]], exposed, kt.play_next, kt.accepts, pw,
                              kv, S, fq, fs, flist, fmask):
            return False, 0, 0, 0
    best = 1 << 30
    best_e = 0
    for i in range(fs[2]):
        packed = flist[i] >> 25
        cards = 0
        for c in range(COLUMNS):
            cards += (packed >> (3 * c)) & 7
        if cards < best:
            best = cards
            best_e = flist[i]
    n_moves, k_end = trace_forward(best_e, exposed, heights, pw, kt.play_next, stock, kt.drawn,
                                   top0, full, kv, S, moves_out)
    return True, best, n_moves, k_end


@nb.njit(cache=True, nogil=True)
def reset_forward(kv, S, fq, fs, flist):
    inf = np.uint8(INF)
    for i in range(fs[1]):
        e = fq[i]
        kv[((e >> 6) & CODE_MASK) * S + (e & TOP_MASK)] = inf
    for i in range(fs[2]):
        kv[((flist[i] >> 6) & CODE_MASK) * S + S - 2] = inf
    fs[:] = 0
