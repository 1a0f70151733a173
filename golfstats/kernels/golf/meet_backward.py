"""The backward side of ``meet``: from the end targets, un-play cards, stage by stage from
the last question's stage down.

A backward state is (heights, key), its label the latest stage from which a line still
reaches a target (``meet``'s module doc); it is keyed on the top (``with this top on the
foundation``) or, where the top after a kind never depends on the top it was played on
(no jokers, no dead Queens), on the kind of the chain's first card ("with a top that
accepts this kind"): about half the states, the issue's formulation.  ``bs`` holds
[lowest stage closed, queue length, heights count, states labelled by the last stage];
``blist`` the heights labelled.  No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.constants import N_KINDS, NO_CARD
from golfstats.kernels.golf.meet_trace import CODE_MASK, TOP_MASK
from golfstats.kernels.golf.sweep import COLUMNS

#: The top field of a backward queue entry that stands for every top (a new target).
ANY = TOP_MASK
YES, NO, OVERFLOW = 1, 0, -1


@nb.njit(cache=True, nogil=True)
def by_kind(play_next, S):
    """Can the backward states be keyed on the kind of the chain's first card?  Yes when
    the top after playing a kind does not depend on the top it was played on (no jokers,
    no dead Queens) and every kind fits a slot below ``S - 2``."""
    if S - 2 < NO_CARD:
        return False
    for x in range(N_KINDS):
        u = -1
        for t in range(play_next.shape[0]):
            v = play_next[t, x]
            if v >= 0:
                if u >= 0 and v != u:
                    return False
                u = v
    return True


@nb.njit(cache=True, nogil=True)
def unplay_table(play_next, accepts, kinds):
    """The backward side's keys, as CSR lists.  A backward state is (heights, key): keyed
    on the top (``kinds`` False: "with this top on the foundation") or on the kind of the
    chain's first card (``kinds`` True: "with a top that accepts this kind"; half the
    states).  Row ``x * (n_keys + 1) + k`` holds the keys of the parents that un-playing
    kind x makes from a child keyed k (``k == n_keys``: a child where a line draws);
    ``seeds`` row t the keys a drawn top t meets.  Returns (n_keys, start, keys,
    seed_start, seeds)."""
    n_tops = play_next.shape[0]
    n_keys = N_KINDS if kinds else n_tops
    rows = N_KINDS * (n_keys + 1)
    start = np.zeros(rows + 1, np.int64)
    keys = np.empty(rows * n_keys, np.int64)
    for x in range(N_KINDS):
        after = -1
        for t in range(n_tops):
            if play_next[t, x] >= 0:
                after = play_next[t, x]
        for k in range(n_keys + 1):
            r = x * (n_keys + 1) + k
            start[r + 1] = start[r]
            if kinds:
                if after >= 0 and (k == n_keys or (accepts[after] >> k) & 1):
                    keys[start[r + 1]] = x
                    start[r + 1] += 1
                continue
            for t in range(n_tops):
                u = play_next[t, x]
                if u >= 0 and (k == n_keys or u == k):
                    keys[start[r + 1]] = t
                    start[r + 1] += 1
    seed_start = np.zeros(n_tops + 1, np.int64)
    seeds = np.empty(n_tops * n_keys, np.int64)
    for t in range(n_tops):
        seed_start[t + 1] = seed_start[t]
        for k in range(n_keys):
            if (kinds and (accepts[t] >> k) & 1) or (not kinds and k == t):
                seeds[seed_start[t + 1]] = k
                seed_start[t + 1] += 1
    return n_keys, start, keys, seed_start, seeds


@nb.njit(cache=True, nogil=True)
def unplay(begin, exposed, h0, pw, bt, kb, S, bq, links, bs, blist):
    """Label the predecessors of ``bq[begin:]`` (each with its entry's label), breadth-first.
    ``bs`` = [lowest stage closed, queue length, heights count, cost]; False on overflow."""
    n_keys, start, keys = bt[0], bt[1], bt[2]
    TS = S - 2
    BS = S - 1
    nb_ = bs[1]
    nbl = bs[2]
    head = bq.shape[0]
    i = begin
    while i < nb_:
        e = bq[i]
        i += 1
        t = e & TOP_MASK
        code = (e >> 6) & CODE_MASK
        packed = e >> 25
        label = kb[code * S + TS] if t == ANY else kb[code * S + t]
        col = n_keys if t == ANY else t
        for c in range(COLUMNS):
            h = (packed >> (3 * c)) & 7
            if h == h0[c]:
                continue
            x = exposed[c, h + 1]
            row = x * (n_keys + 1) + col
            pcode = code + pw[c]
            pe = ((packed + (1 << (3 * c))) << 25) | (pcode << 6)
            for j in range(start[row], start[row + 1]):
                tp = keys[j]
                slot = pcode * S + tp
                if kb[slot] != 0:
                    continue
                if nb_ == bq.shape[0]:
                    bs[1] = nb_  # what was labelled is recorded, so that it is reset
                    bs[2] = nbl
                    return False
                kb[slot] = label
                if kb[pcode * S + BS] == 0:
                    kb[pcode * S + BS] = 1
                    blist[nbl] = pe
                    nbl += 1
                bq[nb_] = pe | tp
                links[nb_] = links[head + tp]  # the entries of one top, newest first
                links[head + tp] = nb_
                nb_ += 1
    bs[1] = nb_
    bs[2] = nbl
    return True


@nb.njit(cache=True, nogil=True)
def backward_stage(q, seed_top, exposed, h0, pw, bt, kv, kb, S, bq, links, bs, blist):
    """Close backward stage q.  Returns (status, meet entry): YES when a new ``T(h) = q``
    meets a forward ``F(h) < q``."""
    TS = S - 2
    KMIN = S - 2
    begin = bs[1]
    nb_ = begin
    seed_start, seeds = bt[3], bt[4]
    for j in range(seed_start[seed_top], seed_start[seed_top + 1]):
        k = seeds[j]  # a key the drawn top meets: its entries are the only candidates
        i = links[bq.shape[0] + k]
        while i >= 0:
            e = bq[i] - k
            i = links[i]
            code = (e >> 6) & CODE_MASK
            if kb[code * S + TS] != 0 or kb[code * S + k] <= q:
                continue
            kb[code * S + TS] = q
            if kv[code * S + KMIN] < q:
                bs[1] = nb_
                return YES, e
            if nb_ == bq.shape[0]:
                bs[1] = nb_
                return OVERFLOW, e
            bq[nb_] = e | ANY
            nb_ += 1
    bs[1] = nb_
    if not unplay(begin, exposed, h0, pw, bt, kb, S, bq, links, bs, blist):
        return OVERFLOW, 0
    bs[0] = q
    bs[3] = bs[1] - begin
    return NO, 0


@nb.njit(cache=True, nogil=True)
def end_targets(h0, pw, limit, out):
    """Entries (packed heights, code) of every heights vector <= ``h0`` with at most
    ``limit`` cards, into ``out``; returns how many."""
    n = 0
    h = np.zeros(COLUMNS, np.int64)
    while True:
        total = 0
        for c in range(COLUMNS):
            total += h[c]
        if total <= limit:
            code = 0
            packed = 0
            for c in range(COLUMNS):
                code += h[c] * pw[c]
                packed |= h[c] << (3 * c)
            out[n] = (packed << 25) | (code << 6)
            n += 1
        c = 0  # odometer over the heights with at most ``limit`` cards
        while c < COLUMNS:
            if h[c] < h0[c] and total < limit:
                h[c] += 1
                break
            total -= h[c]
            h[c] = 0
            c += 1
        if c == COLUMNS:
            return n


@nb.njit(cache=True, nogil=True)
def reset_backward(kb, S, bq, bs, blist):
    for i in range(bs[1]):
        e = bq[i]
        t = e & TOP_MASK
        if t != ANY:
            kb[((e >> 6) & CODE_MASK) * S + t] = 0
    for i in range(bs[2]):
        code = (blist[i] >> 6) & CODE_MASK
        kb[code * S + S - 2] = 0
        kb[code * S + S - 1] = 0
    bs[:] = 0
