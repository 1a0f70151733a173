"""Goal win's value pass on several threads: a layer's blocks in batches, bit for bit.

``winp.layer_step`` does the blocks D' of layer j one after the other: the chain DP of D'
(its B of every top), then the adds ``P(r | D' - r) * B_{D'}(h, drawn(r))`` to the p of
layer j - 1.  The chain DPs of a layer are independent; the adds are not (the blocks
D' + r of every kind r add to the same block D'), and floating-point sums depend on their
order.  So a layer goes in batches of consecutive blocks (in ``order``), each in two
steps:

1. ``dp_part``: the chain DPs of the batch's blocks, shared out among the threads
   (``plan_batch``: the largest first, each to the thread with the least work so far);
   each block's B at the tops its adds read, ``drawn(r)`` for every kind r it adds with,
   is copied into the batch's buffer, with its Q row's word ranks.
2. ``add_part``: the adds, shared out by target block: a thread does every add to the
   blocks it has, from the batch's blocks in their order.

Every value of layer j - 1 thus gets its adds in the order one thread gives them (block
D' before D'' when D' comes first in ``order``), so the values are the same bits whatever
the number of threads.  ``step`` is the orchestration (Python threads; the kernels
release the GIL).  No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.honest.blocks import block_list, subset_list
from golfstats.kernels.honest.memory import release_upto, release_values
from golfstats.kernels.honest.space import STOCK_KINDS, popcount
from golfstats.kernels.honest.winp import _add_below, _block_dp, _dense, _release_block


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
def plan_batch(order, layer_start, j, oi0, qcnt, dcnt, m0, pwd, n_words, cap, threads,
               seg, rank_at, mark):
    """The batch of layer j's blocks from ``order[oi0]`` on: as many as fit in ``cap``
    values of buffer (at least one; at most ``seg``'s rows), and who does what.

    Fills ``seg[b, r]`` (b the block's place in the batch): where in the buffer the B of
    block b at top ``drawn(r)`` goes, -1 when b adds nothing with kind r (a block that
    adds nothing at all is skipped, as ``layer_step`` does), and ``rank_at[b]`` where its
    word ranks go (after every block's B, in the same buffer read as int64).  ``mark``
    (over the D-codes, all -1; left so) finds the targets.  Returns ``(oi1, blocks,
    block_at, targets, target_at)``: the batch is ``order[oi0:oi1]``; thread t's blocks
    (places in the batch) are ``blocks[block_at[t]:block_at[t + 1]]`` and its target
    blocks (D-codes) ``targets[target_at[t]:target_at[t + 1]]``."""
    end = layer_start[j + 1]
    floats = 0
    words = 0
    b = 0
    oi1 = oi0
    while oi1 < end and b < seg.shape[0]:
        dd = order[oi1]
        adds = 0
        if qcnt[dd] > 0:
            for r in range(STOCK_KINDS):
                adds += (dd // pwd[r]) % (m0[r] + 1) >= 1 and dcnt[dd - pwd[r]] > 0
        need = adds * qcnt[dd] + (n_words if adds else 0)
        if b > 0 and floats + words + need > cap:
            break
        for r in range(STOCK_KINDS):
            seg[b, r] = -1
        rank_at[b] = -1
        if adds:
            for r in range(STOCK_KINDS):
                if (dd // pwd[r]) % (m0[r] + 1) >= 1 and dcnt[dd - pwd[r]] > 0:
                    seg[b, r] = floats
                    floats += qcnt[dd]
            rank_at[b] = words
            words += n_words
        b += 1
        oi1 += 1
    for i in range(b):  # the ranks after the values
        if rank_at[i] >= 0:
            rank_at[i] += floats
    cost = np.zeros(b, np.int64)
    owner = np.empty(b, np.int64)
    n_targets = 0
    found = np.empty(b * STOCK_KINDS, np.int64)
    for i in range(b):
        if rank_at[i] < 0:
            continue
        dd = order[oi0 + i]
        cost[i] = qcnt[dd]
        for r in range(STOCK_KINDS):
            if seg[i, r] >= 0:
                d = dd - pwd[r]
                if mark[d] < 0:
                    mark[d] = n_targets
                    found[n_targets] = d
                    n_targets += 1
    blocks, block_at = _lists(owner, b, _lpt(cost, b, threads, owner))
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
            vals_j, order, oi0, seg, rank_at, mine, buf, ranks, ql, dl, bv, pos, vg):
    """The chain DPs of the batch's blocks ``mine`` (places in the batch from ``order[oi0]``)
    with this thread's ``ql, dl, bv, pos, vg`` (``layer_step``'s), their B at the tops
    their adds read into ``buf`` and their Q rows' word ranks into ``ranks`` (the same
    memory as int64).  Returns the states valued."""
    in_dr, qoff = drq
    zero_col = bv.shape[1] - 1
    valued = 0
    for b in mine:
        if rank_at[b] < 0:
            continue
        dd = order[oi0 + b]
        nq = _dense(hinv, ql, block_list(q[dd], ql))
        nd = subset_list(ql, nq, in_dr, qoff[dd], dl)
        base = off[dd]
        for k in range(nd):
            vg[dl[k]] = vals_j[base + k]
        valued += nq
        _block_dp(kt, exposed, upw, gpk, inv_n, inv, after_of, wide, width, ql, nq, vg, bv, pos)
        k = 0
        at = rank_at[b]
        for w in range(q.shape[1]):
            ranks[at + w] = k
            k += popcount(np.int64(q[dd, w]))
        for r in range(STOCK_KINDS):
            s = seg[b, r]
            if s >= 0:
                buf[s:s + nq] = bv[kt.drawn[r], :nq]
        for k in range(nd):
            vg[dl[k]] = 0.0
        for i in range(nq):
            pos[ql[i]] = zero_col
    return valued


@nb.njit(cache=True, nogil=True)
def add_part(q, words, drq, off, dcnt, m0, pwd, n, j, order_at, oi0, oi1, seg, rank_at, buf,
             ranks, mine, vals_below):
    """Every add from the batch ``order[oi0:oi1]`` to the target blocks ``mine`` (D-codes),
    for each target from the batch's blocks in their order (``order_at``: a D-code's place
    in ``order``), reading ``dp_part``'s ``buf`` and ``ranks``."""
    in_dr, qoff = drq
    n_words = q.shape[1]
    for d in mine:
        for r in range(STOCK_KINDS):  # D-codes d + pwd[r] increase with r: the order's
            have = (d // pwd[r]) % (m0[r] + 1)
            if have >= m0[r]:
                continue
            oi = order_at[d + pwd[r]]
            if oi < oi0 or oi >= oi1 or seg[oi - oi0, r] < 0:
                continue
            b = oi - oi0
            rank = ranks[rank_at[b]:rank_at[b] + n_words]
            prob = (m0[r] - (have + 1) + 1) / (n - j + 1)
            s = seg[b, r]
            _add_below(q, words, d, d + pwd[r], rank, in_dr, qoff[d], off[d], off[d] + dcnt[d],
                       prob, buf[s:], vals_below)


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


def thread_bytes(big, n_tops, g_size):
    """The bytes of one more thread's scratch (``layer_step``'s ``scratch, bv, pos, vg``)."""
    return big * 8 + (n_tops + 1) * (big + 1) * 8 + g_size * 12


def buffer_values(threads, big, n_tops):
    """The values of a batch's buffer it aims at: a chain DP's B of every top per thread
    (``buffer_size``: at least what the largest block needs)."""
    return threads * (n_tops + 1) * (big + 1)


def buffer_size(threads, big, n_tops, n_words):
    """The values of a batch's buffer: ``buffer_values``, and at least one block's."""
    return max(buffer_values(threads, big, n_tops), STOCK_KINDS * big + n_words)


def extra_bytes(threads, big, n_tops, g_size, n_words):
    """What ``threads`` threads add to one thread's value pass, at most: the other threads'
    scratch, the batch's buffer, and as much again for what a batch holds before it is
    handed back (its blocks' values of layer j, their Q rows and Dr bits: at most a value
    and a word rank per state and kind that its buffer holds)."""
    if threads <= 1:
        return 0
    return (threads - 1) * thread_bytes(big, n_tops, g_size) + 16 * buffer_size(
        threads, big, n_tops, n_words)


class Split:
    """The value pass of goal win on ``threads`` threads: each thread's scratch (thread 0's
    is the one thread's, ``first``), the batch's buffer and plan, and the pool."""

    def __init__(self, threads, kt, pw, big, g_size, size, n_words, order, first):
        from concurrent.futures import ThreadPoolExecutor

        from golfstats.kernels.honest.winp import dp_tables

        n_tops = kt.play_next.shape[0]
        self.threads = threads
        self.tables = dp_tables(kt.play_next)
        self.upw = pw.astype(np.uint64)
        first[2][:, big] = 0.0
        self.scratch = [first]
        for _ in range(threads - 1):
            bv = np.empty((n_tops + 1, big + 1), np.float64)
            bv[:, big] = 0.0
            self.scratch.append((np.empty(big, np.int32), np.empty(big, np.int32), bv,
                                 np.full(g_size, big, np.int32), np.zeros(g_size, np.float64)))
        self.buf = np.empty(buffer_size(threads, big, n_tops, n_words), np.float64)
        self.ranks = self.buf.view(np.int64)
        rows = int(order.shape[0])
        self.seg = np.empty((rows, STOCK_KINDS), np.int64)
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
                order, layer_start, j, oi, qcnt, dcnt, m0, pwd, q.shape[1], self.buf.shape[0],
                self.threads, self.seg, self.rank_at, self.mark)
            b0 = oi

            def dp(t, mine, b0=b0):
                ql, dl, bv, pos, vg = self.scratch[t]
                return dp_part(kt, exposed, self.upw, gpk, inv_n, inv, after_of, wide, width, q,
                               hinv, drq, off, vals_j, order, b0, self.seg, self.rank_at, mine,
                               self.buf, self.ranks, ql, dl, bv, pos, vg)

            def add(t, mine, b0=b0, oi1=oi1):
                add_part(q, words, drq, off, dcnt, m0, pwd, n, j, self.order_at, b0, oi1,
                         self.seg, self.rank_at, self.buf, self.ranks, mine, vals_below)

            valued += sum(self._all(dp, [blocks[block_at[t]:block_at[t + 1]]
                                         for t in range(self.threads)]))
            self._all(add, [targets[target_at[t]:target_at[t + 1]] for t in range(self.threads)])
            nxt = off[order[oi1]] if oi1 < end else vals_j.shape[0]
            done = batch_done(q, drq, order, oi, oi1, vals_j, done, nxt, release)
            oi = oi1
        if release > 0:
            release_layer(vals_j, done)
        return valued
