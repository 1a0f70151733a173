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

from collections import namedtuple

import numba as nb
import numpy as np

from golfstats.kernels.honest import inputs
from golfstats.kernels.honest.memory import release_upto, release_values
from golfstats.kernels.honest.space import STOCK_KINDS
from golfstats.kernels.honest.winp import (
    _add_below,
    _block_dp,
    _release_block,
    adds_with,
    chain_tables,
    load_block,
    unload_block,
    word_ranks,
)

#: A thread's table of B holds this many of the largest block's states (a batch is
#: cut where a block would fit no thread's table).
WIDTH_BLOCKS = 2
#: A batch holds the word ranks of at most this many blocks per thread.
RANK_BLOCKS = 64

#: Who does what in a batch (``plan_batch``), block b of the batch being the b-th from its
#: first place in ``order``: ``owner[b]`` its thread (-1 for a block that adds nothing,
#: skipped as ``layer_step`` does), ``col[b]`` its first column in its thread's table of B,
#: ``rank_at[b]`` where its Q row's word ranks start in ``ranks``.
Batch = namedtuple("Batch", "owner col rank_at ranks")


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
def plan_batch(root, codes, blocks, j, oi0, width, threads, batch, mark):
    """The batch of layer j's blocks from ``order[oi0]`` on, and who does what: blocks
    in order, each to the thread with the least work so far whose table (``width``
    columns) has room for it, until one fits none or the word ranks (``batch.ranks``) are
    full (at least one block; at most ``batch.owner``'s length).  Fills ``batch``.
    ``mark`` (over the D-codes, all -1; left so) finds the targets.  Returns
    ``(oi1, mine, block_at, targets, target_at)``: the batch is ``order[oi0:oi1]``;
    thread t's blocks (places in the batch, increasing) are
    ``mine[block_at[t]:block_at[t + 1]]`` and its target blocks (D-codes)
    ``targets[target_at[t]:target_at[t + 1]]``."""
    m0, pwd = root.m0, codes.pwd
    order, qcnt, dcnt = blocks.order, blocks.qcnt, blocks.dcnt
    owner, col, rank_at = batch.owner, batch.col, batch.rank_at
    n_words, n_ranks = blocks.q.shape[1], batch.ranks.shape[0]
    end = blocks.layer_start[j + 1]
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
    mine = np.empty(block_at[threads], np.int64)
    n_targets = 0
    found = np.empty(b * STOCK_KINDS, np.int64)
    for i in range(b):
        t = owner[i]
        if t < 0:
            continue
        mine[fill[t]] = i
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
    return oi1, mine, block_at, targets, target_at


@nb.njit(cache=True, nogil=True)
def dp_part(root, codes, chain, blocks, vals_j, oi0, batch, mine, sc):
    """The chain DPs of the batch's blocks ``mine`` (places in the batch from ``order[oi0]``)
    with this thread's scratch ``sc`` (its table of B: block b's from column
    ``batch.col[b]``), and their Q rows' word ranks into ``batch.ranks``.  Returns the
    states valued."""
    q, order = blocks.q, blocks.order
    col, rank_at, ranks = batch.col, batch.rank_at, batch.ranks
    valued = 0
    for b in mine:
        dd = order[oi0 + b]
        nq, nd = load_block(blocks, dd, vals_j, sc)
        valued += nq
        _block_dp(root.kt, root.exposed, codes.upw, codes.gpk, chain.inv_n, chain.inv,
                  chain.after_of, chain.wide, chain.width, sc.ql, nq, sc.vg, sc.bv, sc.pos, col[b])
        at = rank_at[b]
        word_ranks(q, dd, ranks[at:at + q.shape[1]])
        unload_block(sc, nq, nd)
    return valued


@nb.njit(cache=True, nogil=True)
def add_part(root, codes, blocks, j, order_at, oi0, oi1, batch, bvs, mine, vals_below):
    """Every add from the batch ``order[oi0:oi1]`` to the target blocks ``mine`` (D-codes),
    for each target from the batch's blocks in their order (``order_at``: a D-code's place
    in ``order``), reading their B in the threads' tables ``bvs`` and their word ranks
    (``dp_part``'s)."""
    m0, pwd, drawn = root.m0, codes.pwd, root.kt.drawn
    q, off, dcnt = blocks.q, blocks.off, blocks.dcnt
    in_dr, qoff = blocks.drq
    words = blocks.words
    owner, col, rank_at, ranks = batch.owner, batch.col, batch.rank_at, batch.ranks
    n = blocks.layer_start.shape[0] - 2
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
            at = rank_at[b]
            _add_below(q, words, d, d + pwd[r], ranks[at:at + n_words], in_dr, qoff[d], off[d],
                       off[d] + dcnt[d], prob, bvs[owner[b], drawn[r], col[b]:], vals_below)


@nb.njit(cache=True, nogil=True)
def batch_done(blocks, oi0, oi1, vals_j, done, off_next, release):
    """After a batch: hand back its blocks' Q rows and Dr bits, and with ``release`` the
    values of layer j before ``off_next`` (the next batch's first value).  Returns the new
    ``done`` of the release."""
    in_dr, qoff = blocks.drq
    for oi in range(oi0, oi1):
        _release_block(blocks.q, in_dr, qoff, blocks.order[oi])
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
    """The value pass of goal win on ``threads`` threads for the position ``root`` and its
    ``codes`` and ``blocks`` (``inputs``; blocks of at most ``big`` states, ``g_size``
    dense codes): their tables of B and scratch, the batch's plan and word ranks, and the
    pool."""

    def __init__(self, threads, root, codes, blocks, big, g_size):
        from concurrent.futures import ThreadPoolExecutor

        n_tops = root.kt.play_next.shape[0]
        columns = table_columns(big)
        n_words = blocks.q.shape[1]
        size = blocks.order.shape[0]
        self.threads = threads
        self.root, self.codes, self.blocks = root, codes, blocks
        self.width = columns - 1
        self.chain = chain_tables(root.kt.play_next)
        self.bvs = np.empty((threads, n_tops + 1, columns), np.float64)
        self.bvs[:, :, columns - 1] = 0.0
        self.scratch = [inputs.scratch(big, n_tops, g_size, self.bvs[t]) for t in range(threads)]
        self.batch = Batch(np.empty(size, np.int64), np.empty(size, np.int64),
                           np.empty(size, np.int64),
                           np.empty(max(RANK_BLOCKS * threads * n_words, 1), np.int64))
        self.mark = np.full(size, -1, np.int64)
        self.order_at = np.empty(size, np.int64)
        self.order_at[blocks.order] = np.arange(size)
        self.pool = ThreadPoolExecutor(threads - 1) if threads > 1 else None

    def close(self):
        if self.pool is not None:
            self.pool.shutdown()

    def _all(self, work, parts):
        """``work(t, part)`` for every thread t, thread 0 in this one; their results."""
        futures = [self.pool.submit(work, t, parts[t]) for t in range(1, self.threads)]
        results = [work(0, parts[0])]
        return results + [f.result() for f in futures]

    def layer(self, j, vals_j, vals_below, release):
        """``winp.layer_step`` of layer j > 0 (not with its ``spill``): the same values,
        bit for bit.  Returns the states valued."""
        root, codes, blocks, batch = self.root, self.codes, self.blocks, self.batch
        oi, end = int(blocks.layer_start[j]), int(blocks.layer_start[j + 1])
        done = 0
        valued = 0
        while oi < end:
            oi1, mine, block_at, targets, target_at = plan_batch(
                root, codes, blocks, j, oi, self.width, self.threads, batch, self.mark)

            def dp(t, part, oi0=oi):
                return dp_part(root, codes, self.chain, blocks, vals_j, oi0, batch, part,
                               self.scratch[t])

            def add(t, part, oi0=oi, oi1=oi1):
                add_part(root, codes, blocks, j, self.order_at, oi0, oi1, batch, self.bvs, part,
                         vals_below)

            valued += sum(self._all(dp, [mine[block_at[t]:block_at[t + 1]]
                                         for t in range(self.threads)]))
            self._all(add, [targets[target_at[t]:target_at[t + 1]] for t in range(self.threads)])
            nxt = blocks.off[blocks.order[oi1]] if oi1 < end else vals_j.shape[0]
            done = batch_done(blocks, oi, oi1, vals_j, done, nxt, release)
            oi = oi1
        if release > 0:
            release_layer(vals_j, done)
        return valued
