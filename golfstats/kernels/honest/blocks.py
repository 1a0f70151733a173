"""D-major bit tables: the states of one drawn multiset D (a *block*) as one row over h.

``honest.wins`` and ``honest.reach`` make rows per height vector h (bit d: D-code d).  The
value pass works a block at a time, so it reads the same sets transposed: ``t[d, g >> 6]``
bit ``g & 63`` is set when (h, D) is in the set (g the dense heights code).  Within a
block, states come in increasing g, which is an order where every play's result (a
smaller g) comes before the position it is played from.

A sparse set is transposed by scattering its set bits, a dense one 64 x 64 bits at a
time (``transpose``); both give the same table.  ``rank_index`` and ``rank_of`` find
a state's place in its block (values are stored per block in increasing g).  The value
pass's steps on one block (``load_block``, ``unload_block``, ``word_ranks``, ``adds_with``)
are here too, shared by ``winp.layer_step`` and its threads (``split``).  No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.honest.packed import unpack
from golfstats.kernels.honest.space import low_bit, popcount

SUPER = 8  # words per rank-index entry


@nb.njit(cache=True, nogil=True)
def transpose(idx, rows, size):
    """The D-major bit table of h-major rows: ``t[d, g >> 6]`` bit ``g & 63`` is bit d of
    row ``idx[g]`` of the store ``rows`` (``honest.packed``; ``idx[g] < 0``: an empty
    row), 64 x 64 bits at a time."""
    g_size = idx.shape[0]
    gwords = (g_size + 63) >> 6
    t = np.zeros((size, gwords), np.uint64)
    a = np.empty(64, np.uint64)
    words = (size + 63) >> 6
    tile = np.zeros((64, words + 1), np.uint64)  # 64 rows unpacked
    for gb in range(gwords):
        for q in range(64):
            g = gb * 64 + q
            if g < g_size and idx[g] >= 0:
                unpack(tile[q], rows, idx[g])
            else:
                tile[q] = 0
        for i in range(words):
            nonzero = False
            for q in range(64):  # rows in reverse: _transpose64 mirrors on the anti-diagonal
                v = tile[q, i]
                a[63 - q] = v
                nonzero |= v != 0
            if not nonzero:
                continue
            _transpose64(a)
            for q in range(64):
                dd = i * 64 + q
                if dd < size:
                    t[dd, gb] = a[63 - q]
    return t


@nb.njit(cache=True, nogil=True)
def _transpose64(a):
    """Transpose a 64 x 64 bit matrix in place about its anti-diagonal (bit c of row r goes
    to bit 63 - r of row 63 - c; Hacker's Delight 7-3)."""
    j = 32
    m = np.uint64(0x00000000FFFFFFFF)
    while j != 0:
        k = 0
        while k < 64:
            t = (a[k] ^ (a[k + j] >> np.uint64(j))) & m
            a[k] ^= t
            a[k + j] ^= t << np.uint64(j)
            k = (k + j + 1) & ~j
        j >>= 1
        m ^= m << np.uint64(j)


@nb.njit(cache=True, nogil=True)
def store_bits(idx, rows):
    """Set bits in the rows ``idx[g]`` (>= 0) of a packed store (``honest.packed``)."""
    _, start, data = rows
    total = 0
    for g in range(idx.shape[0]):
        i = idx[g]
        if i >= 0:
            for at in range(start[i], start[i + 1]):
                total += popcount(np.int64(data[at]))
    return total


@nb.njit(cache=True, nogil=True)
def d_major(idx, rows, size, bits):
    """The D-major table of h-major rows (row ``idx[g]`` of the packed store ``rows``,
    ``idx[g] < 0``: empty) holding ``bits`` set bits."""
    g_size = idx.shape[0]
    gwords = (g_size + 63) >> 6
    if bits * 8 > size * gwords:  # dense: the block transposition is cheaper
        return transpose(idx, rows, size)
    mask, start, data = rows
    t = np.zeros((size, gwords), np.uint64)
    for g in range(g_size):
        i = idx[g]
        if i < 0:
            continue
        bit = np.uint64(1) << np.uint64(g & 63)
        gw = g >> 6
        at = start[i]
        for b in range(mask.shape[1]):
            m = mask[i, b]
            while m:
                w = b * 64 + low_bit(m)
                m &= m - np.uint64(1)
                x = data[at]
                at += 1
                while x:
                    d = w * 64 + low_bit(x)
                    if d < size:
                        t[d, gw] |= bit
                    x &= x - np.uint64(1)
    return t


@nb.njit(cache=True, nogil=True)
def row_counts(t):
    """States per block."""
    out = np.zeros(t.shape[0], np.int64)
    for d in range(t.shape[0]):
        k = 0
        for w in range(t.shape[1]):
            k += popcount(np.int64(t[d, w]))
        out[d] = k
    return out


@nb.njit(cache=True, nogil=True)
def nonzero_words(t):
    """``nz[d, i >> 6]`` bit ``i & 63``: word i of row d of the bit table ``t`` is not 0
    (so a walk over a row can skip its zero words without reading them)."""
    nz = np.zeros((t.shape[0], (t.shape[1] + 63) >> 6), np.uint64)
    for d in range(t.shape[0]):
        for w in range(t.shape[1]):
            if t[d, w]:
                nz[d, w >> 6] |= np.uint64(1) << np.uint64(w & 63)
    return nz


@nb.njit(cache=True, nogil=True, inline="always")
def block_list(row, out):
    """The dense codes of a block's states, increasing, into ``out``; returns how many."""
    n = 0
    for w in range(row.shape[0]):
        x = row[w]
        while x:
            out[n] = w * 64 + low_bit(x)
            n += 1
            x &= x - np.uint64(1)
    return n


@nb.njit(cache=True, nogil=True)
def subset_bits(qcnt, qidx, q_rows, ridx, r_rows, size):
    """``(bits, qoff, dcnt)``: the set Dr, a subset of Q, as one bit per state of Q, block
    d's states in increasing h from bit ``qoff[d]`` (a state of Q drawn from or not), and
    Dr's states per block, made from the h-major rows (rows ``qidx[h]`` and ``ridx[h]`` of
    the packed stores, h in increasing order) and Q's states per block ``qcnt``.  A
    D-major table of Dr has a bit for every (h, D), most of them 0; this has one for Q's
    states only."""
    qoff = np.zeros(size + 1, np.int64)
    for d in range(size):
        qoff[d + 1] = qoff[d] + qcnt[d]
    bits = np.zeros((qoff[-1] + 63) // 64 + 1, np.uint64)
    words = ((size + 63) >> 6) + 1
    qrow = np.zeros(words, np.uint64)
    rrow = np.zeros(words, np.uint64)
    seen = qoff[:-1].copy()  # the next bit of each block
    dcnt = np.zeros(size, np.int64)
    for h in range(qidx.shape[0]):
        if qidx[h] < 0:
            continue
        unpack(qrow, q_rows, qidx[h])
        if ridx[h] >= 0:
            unpack(rrow, r_rows, ridx[h])
        else:
            rrow[:] = 0
        for w in range(words):
            x = qrow[w]
            y = rrow[w]
            while x:
                low = x & (~x + np.uint64(1))
                d = w * 64 + low_bit(x)
                k = seen[d]
                seen[d] = k + 1
                if y & low:
                    bits[k >> 6] |= np.uint64(1) << np.uint64(k & 63)
                    dcnt[d] += 1
                x ^= low
    return bits, qoff, dcnt


@nb.njit(cache=True, nogil=True, inline="always")
def subset_list(states, n, bits, base, out):
    """The entries ``states[i]`` (i < n) whose bit ``base + i`` of ``bits`` is set, in
    order, into ``out``; returns how many."""
    k = 0
    for i in range(n):
        b = base + i
        if (bits[b >> 6] >> np.uint64(b & 63)) & np.uint64(1):
            out[k] = states[i]
            k += 1
    return k


@nb.njit(cache=True, nogil=True)
def rank_index(t):
    """``cum[d, s]``: set bits of row d before word ``s * SUPER``."""
    n_super = t.shape[1] // SUPER + 1
    cum = np.zeros((t.shape[0], n_super), np.uint32)
    for d in range(t.shape[0]):
        k = 0
        for w in range(t.shape[1]):
            if w % SUPER == 0:
                cum[d, w // SUPER] = k
            k += popcount(np.int64(t[d, w]))
    return cum


@nb.njit(cache=True, nogil=True, inline="always")
def rank_of(t, cum, d, g):
    """The place of state g in block d (increasing g), or -1 when it is not in the set."""
    w = g >> 6
    x = t[d, w]
    bit = np.uint64(1) << np.uint64(g & 63)
    if x & bit == 0:
        return -1
    k = np.int64(cum[d, w // SUPER])
    for v in range(w - w % SUPER, w):
        k += popcount(np.int64(t[d, v]))
    return k + popcount(np.int64(x & (bit - np.uint64(1))))


@nb.njit(cache=True, nogil=True, inline="always")
def dense_codes(hinv, codes, n):
    """Compact heights codes ``codes[:n]`` to dense codes, in place; returns n."""
    for k in range(n):
        codes[k] = hinv[codes[k]]
    return n


@nb.njit(cache=True, nogil=True)
def adds_with(dd, r, m0, pwd, dcnt):
    """Block dd adds to the block below it with kind r: it holds an r, and that block has
    drawn-from states."""
    return (dd // pwd[r]) % (m0[r] + 1) >= 1 and dcnt[dd - pwd[r]] > 0


@nb.njit(cache=True, nogil=True)
def load_block(blocks, dd, vals_j, sc):
    """Block dd's Q states (dense codes, increasing) into ``sc.ql``, its drawn-from ones
    into ``sc.dl`` with their p from ``vals_j`` in ``sc.vg`` (``inputs``); returns
    ``(nq, nd)``, their counts."""
    in_dr, qoff = blocks.drq
    ql, dl, vg = sc.ql, sc.dl, sc.vg
    nq = dense_codes(blocks.hinv, ql, block_list(blocks.q[dd], ql))
    nd = subset_list(ql, nq, in_dr, qoff[dd], dl)
    base = blocks.off[dd]
    for k in range(nd):
        vg[dl[k]] = vals_j[base + k]
    return nq, nd


@nb.njit(cache=True, nogil=True)
def unload_block(sc, nq, nd):
    """Leave ``sc.vg`` 0 and ``sc.pos`` at the zero column again after a block
    (``load_block``)."""
    zero_col = sc.bv.shape[1] - 1
    vg, dl, pos, ql = sc.vg, sc.dl, sc.pos, sc.ql  # (once: a bundle's array read in a loop costs)
    for k in range(nd):
        vg[dl[k]] = 0.0
    for i in range(nq):
        pos[ql[i]] = zero_col


@nb.njit(cache=True, nogil=True)
def word_ranks(q, dd, rank):
    """``rank[w]``: block dd's states before word w of its Q row."""
    k = 0
    for w in range(q.shape[1]):
        rank[w] = k
        k += popcount(np.int64(q[dd, w]))
