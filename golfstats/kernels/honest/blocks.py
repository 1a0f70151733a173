"""D-major bit tables: the states of one drawn multiset D (a *block*) as one row over h.

``honest.wins`` and ``honest.reach`` make rows per height vector h (bit d: D-code d).  The
value pass works a block at a time, so it reads the same sets transposed: ``t[d, g >> 6]``
bit ``g & 63`` is set when (h, D) is in the set (g the dense heights code).  Within a
block, states come in increasing g, which is an order where every play's result (a
smaller g) comes before the position it is played from.

A sparse set is transposed by scattering its set bits, a dense one 64 x 64 bits at a
time (``wins.transpose``); both give the same table.  ``rank_index`` and ``rank_of`` find
a state's place in its block (values are stored per block in increasing g).
No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.honest.space import popcount
from golfstats.kernels.honest.wins import transpose

SUPER = 8  # words per rank-index entry


@nb.njit(cache=True, nogil=True, inline="always")
def low_bit(x):
    """Index of the lowest set bit of the non-zero uint64 ``x``."""
    return popcount(np.int64((x & (~x + np.uint64(1))) - np.uint64(1)))


@nb.njit(cache=True, nogil=True)
def pool_bits(idx, pool):
    """Set bits in all rows of an h-major pool."""
    total = 0
    for g in range(idx.shape[0]):
        i = idx[g]
        if i >= 0:
            for w in range(pool.shape[1]):
                total += popcount(np.int64(pool[i, w]))
    return total


@nb.njit(cache=True, nogil=True)
def d_major(idx, pool, size, bits):
    """The D-major table of an h-major pool holding ``bits`` set bits."""
    g_size = idx.shape[0]
    gwords = (g_size + 63) >> 6
    if bits * 8 > size * gwords:  # dense: the block transposition is cheaper
        return transpose(idx, pool, size)
    t = np.zeros((size, gwords), np.uint64)
    for g in range(g_size):
        i = idx[g]
        if i < 0:
            continue
        row = pool[i]
        bit = np.uint64(1) << np.uint64(g & 63)
        gw = g >> 6
        for w in range(row.shape[0]):
            x = row[w]
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
