"""Goal win's value pass on several threads: a layer's blocks in batches, bit for bit.

``winp.layer_step`` does the blocks D' of layer j one after the other: the chain DP of D'
(its B of every top), then the adds ``P(r | D' - r) * B_{D'}(h, drawn(r))`` to the p of
layer j - 1.  The chain DPs of a layer are independent; the adds are not (the blocks
D' + r of every kind r add to the same block D'), and floating-point sums depend on their
order.  So a layer goes in batches of consecutive blocks (in ``order``), each in two
steps:

1. ``dp_part``: the chain DPs of the batch's blocks, shared out among the threads as they
   come (``plan_batch``: each to the thread with the least work so far that has room);
   each thread keeps the B of its blocks side by side in its own table, until the batch
   is done.
2. ``add_part``: the adds, shared out by target block (the largest first, each to the
   thread with the least so far): a thread does every add to the blocks it has, from the
   batch's blocks in their order, reading their B where they are.

Every value of layer j - 1 thus gets its adds in the order one thread gives them (block
D' before D'' when D' comes first in ``order``), so the values are the same bits whatever
the number of threads.  ``Split`` is the orchestration (Python threads; the kernels
release the GIL).  No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.honest.memory import release_upto, release_values
from golfstats.kernels.honest.space import STOCK_KINDS
from golfstats.kernels.honest.winp import (
    _add_below,
    _block_dp,
    _release_block,
    adds_with,
    load_block,
    unload_block,
    word_ranks,
)

#: A thread's table of B holds this many of the largest block's states (a batch is
#: cut where a block would fit no thread's table).
WIDTH_BLOCKS = 2
#: A batch holds the word ranks of at most this many blocks per thread.
RANK_BLOCKS = 64


@nb.njit(cache=True, nogil=True)
def _lpt(cost, n, threads, owner):
    """Each of the ``n`` items (``cost[i]``) to a thread, the largest first to the one
    with the least so far; ``owner[i]`` the thread.  Returns the items per thread."""
    load = np.zeros(threads, np.int64)
    count = np.zeros(threads, np.int64)
    for i in np.argsort(-cost[:n], kind="mergesort"):
        t = np.argmin(load)
        owner[i] = t
        load[t] += cost[i] + 1
        count[t] += 1
    return count


@nb.njit(cache=True, nogil=True)
def _lists(owner, n, count):
    """The items of each thread, in increasing order: ``items[at[t]:at[t + 1]]``."""
    at = np.zeros(count.shape[0] + 1, np.int64)
    at[1:] = np.cumsum(count)
    fill = at[:-1].copy()
    items = np.empty(n, np.int64)
    for i in range(n):
        items[fill[owner[i]]] = i
        fill[owner[i]] += 1
    return items, at


@nb.njit(cache=True, nogil=True)
def plan_batch(order, layer_start, j, oi0, qcnt, dcnt, m0, pwd, n_words, width, n_ranks,
               threads, owner, col, rank_at, mark):
    """The batch of layer j's blocks from ``order[oi0]`` on, and who does what: blocks
    in order, each to the thread with the least work so far whose table (``width``
    columns) has room for it, until one fits none or the word ranks (``n_ranks``) are full
    (at least one block; at most ``owner``'s length).

    Fills, for block b of the batch (its place from ``order[oi0]``), ``owner[b]`` (its
    thread, -1 for a block that adds nothing, skipped as ``layer_step`` does), ``col[b]``
    (its first column in its thread's table) and ``rank_at[b]`` (where its Q row's word
    ranks go).  ``mark`` (over the D-codes, all -1; left so) finds the targets.  Returns
    ``(oi1, blocks, block_at, targets, target_at)``: the batch is ``order[oi0:oi1]``;
    thread t's blocks (places in the batch, increasing) are
    ``blocks[block_at[t]:block_at[t + 1]]`` and its target blocks (D-codes)
    ``targets[target_at[t]:target_at[t + 1]]``."""
    end = layer_start[j + 1]
    used = np.zeros(threads, np.int64)
    load = np.zeros(threads, np.int64)
    count = np.zeros(threads, np.int64)
    ranks = 0
    b = 0
    oi1 = oi0
    while oi1 < end and b < owner.shape[0]:
        dd = order[oi1]
        adds = False
        if qcnt[dd] > 0:
            for r in range(STOCK_KINDS):
                adds |= adds_with(dd, r, m0, pwd, dcnt)
        t = -1
        if adds:
            for u in range(threads):
                if used[u] + qcnt[dd] <= width and (t < 0 or load[u] < load[t]):
                    t = u
            if b > 0 and (t < 0 or ranks + n_words > n_ranks):
                break
            col[b] = used[t]
            used[t] += qcnt[dd]
            load[t] += qcnt[dd] + 1
            count[t] += 1
            rank_at[b] = ranks
            ranks += n_words
        owner[b] = t
        b += 1
        oi1 += 1
    block_at = np.zeros(threads + 1, np.int64)
    block_at[1:] = np.cumsum(count)
    fill = block_at[:-1].copy()
    blocks = np.empty(block_at[threads], np.int64)
    n_targets = 0
    found = np.empty(b * STOCK_KINDS, np.int64)
    for i in range(b):
        t = owner[i]
        if t < 0:
            continue
        blocks[fill[t]] = i
        fill[t] += 1
        dd = order[oi0 + i]
        for r in range(STOCK_KINDS):
            if adds_with(dd, r, m0, pwd, dcnt):
                d = dd - pwd[r]
                if mark[d] < 0:
                    mark[d] = n_targets
                    found[n_targets] = d
                    n_targets += 1
    tcost = np.zeros(n_targets, np.int64)
    towner = np.empty(n_targets, np.int64)
    for i in range(n_targets):
        tcost[i] = dcnt[found[i]]
        mark[found[i]] = -1
    places, target_at = _lists(towner, n_targets, _lpt(tcost, n_targets, threads, towner))
    targets = np.empty(n_targets, np.int64)
    for i in range(n_targets):
        targets[i] = found[places[i]]
    return oi1, blocks, block_at, targets, target_at


@nb.njit(cache=True, nogil=True)
def dp_part(kt, exposed, upw, gpk, inv_n, inv, after_of, wide, width, q, hinv, drq, off,
            vals_j, order, oi0, col, rank_at, mine, ranks, ql, dl, bv, pos, vg):
    """The chain DPs of the batch's blocks ``mine`` (places in the batch from ``order[oi0]``)
    with this thread's ``ql, dl, pos, vg`` (``layer_step``'s) into its table ``bv`` (block
    b's B from column ``col[b]``), and their Q rows' word ranks into ``ranks``.  Returns
    the states valued."""
    zero_col = bv.shape[1] - 1
    valued = 0
    for b in mine:
        dd = order[oi0 + b]
        nq, nd = load_block(q, dd, hinv, drq, off, vals_j, ql, dl, vg)
        valued += nq
        _block_dp(kt, exposed, upw, gpk, inv_n, inv, after_of, wide, width, ql, nq, vg, bv, pos,
                  col[b])
        word_ranks(q, dd, ranks[rank_at[b]:rank_at[b] + q.shape[1]])
        unload_block(ql, nq, dl, nd, vg, pos, zero_col)
    return valued


@nb.njit(cache=True, nogil=True)
def add_part(q, words, drq, off, dcnt, m0, pwd, n, j, order_at, oi0, oi1, owner, col, rank_at,
             bvs, drawn, ranks, mine, vals_below):
    """Every add from the batch ``order[oi0:oi1]`` to the target blocks ``mine`` (D-codes),
    for each target from the batch's blocks in their order (``order_at``: a D-code's place
    in ``order``), reading their B in the threads' tables ``bvs`` and their word ranks
    (``dp_part``'s); ``drawn[r]`` the top a drawn card of kind r makes."""
    in_dr, qoff = drq
    n_words = q.shape[1]
    for d in mine:
        for r in range(STOCK_KINDS):  # D-codes d + pwd[r] increase with r: the order's
            have = (d // pwd[r]) % (m0[r] + 1)
            if have >= m0[r]:
                continue
            oi = order_at[d + pwd[r]]
            if oi < oi0 or oi >= oi1 or owner[oi - oi0] < 0:
                continue
            b = oi - oi0
            prob = (m0[r] - (have + 1) + 1) / (n - j + 1)
            _add_below(q, words, d, d + pwd[r], ranks[rank_at[b]:rank_at[b] + n_words], in_dr,
                       qoff[d], off[d], off[d] + dcnt[d], prob, bvs[owner[b], drawn[r], col[b]:],
                       vals_below)


@nb.njit(cache=True, nogil=True)
def batch_done(q, drq, order, oi0, oi1, vals_j, done, off_next, release):
    """After a batch: hand back its blocks' Q rows and Dr bits, and with ``release`` the
    values of layer j before ``off_next`` (the next batch's first value).  Returns the new
    ``done`` of the release."""
    in_dr, qoff = drq
    for oi in range(oi0, oi1):
        _release_block(q, in_dr, qoff, order[oi])
    if release > 0:
        done = release_upto(vals_j, done, off_next, release)
    return done


@nb.njit(cache=True, nogil=True)
def release_layer(vals_j, done):
    """Hand back the rest of layer j's values (the step is done: they read 0 after)."""
    release_values(vals_j, done, vals_j.shape[0])


def table_columns(big):
    """The columns of a thread's table of B: ``WIDTH_BLOCKS`` of the largest block, and the
    column of 0."""
    return WIDTH_BLOCKS * max(big, 1) + 1


def extra_bytes(threads, big, n_tops, g_size, n_words):
    """What ``threads`` threads add to one thread's value pass, at most: every thread's
    table of B (``table_columns``), the other threads' scratch (a block's state lists,
    ``pos`` and ``vg`` over the dense codes), the word ranks, and what a batch holds
    before it is handed back (its blocks' values of layer j, one per state at most, and
    their Q rows, a row of words per block)."""
    if threads <= 1:
        return 0
    columns = table_columns(big)
    ranks = RANK_BLOCKS * threads * n_words
    return (threads * (n_tops + 1) * columns * 8 + (threads - 1) * (big * 8 + g_size * 12)
            + 2 * ranks * 8 + threads * columns * 8)


class Split:
    """The value pass of goal win on ``threads`` threads: their tables of B and scratch,
    the batch's plan and word ranks, and the pool."""

    def __init__(self, threads, kt, pw, big, g_size, size, n_words, order):
        from concurrent.futures import ThreadPoolExecutor

        from golfstats.kernels.honest.winp import dp_tables

        n_tops = kt.play_next.shape[0]
        columns = table_columns(big)
        self.threads = threads
        self.width = columns - 1
        self.tables = dp_tables(kt.play_next)
        self.drawn = kt.drawn
        self.upw = pw.astype(np.uint64)
        self.bvs = np.empty((threads, n_tops + 1, columns), np.float64)
        self.bvs[:, :, columns - 1] = 0.0
        self.scratch = [(np.empty(big, np.int32), np.empty(big, np.int32),
                         np.full(g_size, columns - 1, np.int32), np.zeros(g_size, np.float64))
                        for _ in range(threads)]
        self.ranks = np.empty(max(RANK_BLOCKS * threads * n_words, 1), np.int64)
        rows = int(order.shape[0])
        self.owner = np.empty(rows, np.int64)
        self.col = np.empty(rows, np.int64)
        self.rank_at = np.empty(rows, np.int64)
        self.mark = np.full(size, -1, np.int64)
        self.order_at = np.empty(size, np.int64)
        self.order_at[order] = np.arange(size)
        self.pool = ThreadPoolExecutor(threads - 1) if threads > 1 else None

    def close(self):
        if self.pool is not None:
            self.pool.shutdown()

    def _all(self, work, parts):
        """``work(t, part)`` for every thread t, thread 0 in this one; their results."""
        futures = [self.pool.submit(work, t, parts[t]) for t in range(1, self.threads)]
        results = [work(0, parts[0])]
        return results + [f.result() for f in futures]

    def layer(self, kt, exposed, gpk, q, words, drq, hinv, off, dcnt, qcnt, m0, pwd, order,
              layer_start, j, vals_j, vals_below, release):
        """``winp.layer_step`` of layer j > 0 (not with its ``spill``): the same values,
        bit for bit.  Returns the states valued."""
        inv_n, inv, after_of, wide, width = self.tables
        n = layer_start.shape[0] - 2
        oi, end = int(layer_start[j]), int(layer_start[j + 1])
        done = 0
        valued = 0
        while oi < end:
            oi1, blocks, block_at, targets, target_at = plan_batch(
                order, layer_start, j, oi, qcnt, dcnt, m0, pwd, q.shape[1], self.width,
                self.ranks.shape[0], self.threads, self.owner, self.col, self.rank_at, self.mark)

            def dp(t, mine, oi0=oi):
                ql, dl, pos, vg = self.scratch[t]
                return dp_part(kt, exposed, self.upw, gpk, inv_n, inv, after_of, wide, width, q,
                               hinv, drq, off, vals_j, order, oi0, self.col, self.rank_at, mine,
                               self.ranks, ql, dl, self.bvs[t], pos, vg)

            def add(t, mine, oi0=oi, oi1=oi1):
                add_part(q, words, drq, off, dcnt, m0, pwd, n, j, self.order_at, oi0, oi1,
                         self.owner, self.col, self.rank_at, self.bvs, self.drawn, self.ranks,
                         mine, vals_below)

            valued += sum(self._all(dp, [blocks[block_at[t]:block_at[t + 1]]
                                         for t in range(self.threads)]))
            self._all(add, [targets[target_at[t]:target_at[t + 1]] for t in range(self.threads)])
            nxt = off[order[oi1]] if oi1 < end else vals_j.shape[0]
            done = batch_done(q, drq, order, oi, oi1, vals_j, done, nxt, release)
            oi = oi1
        if release > 0:
            release_layer(vals_j, done)
        return valued
