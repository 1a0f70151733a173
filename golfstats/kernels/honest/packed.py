"""Bit rows kept packed: a row's non-zero 64-bit words only, with a bitmap of which.

The first passes of goal win (``honest.wins``, ``honest.reach``) make one bit row over
every drawn multiset per height vector (and per top, for the positions), and most of
their words are zero: on the largest strict deal of PySolFC 1-100 a third of W's words,
a half of G's, a seventh of Dr's and a fifth of Q's are not.  So a row is stored as its non-zero
words, one after another in ``data``, with a bitmap of the words present (``mask``, one
bit a word) and where it starts (``start``).  The rows of a store are written in order
(row i after row i - 1), so row i's words run from ``start[i]`` to ``start[i + 1]``, and
the rows of one level (which a pass writes together) are one range of ``data``: their
pages can be handed back at once (``honest.memory``).

A store is the tuple ``(mask, start, data)``; ``new_store`` allocates it for at most
``n_rows`` rows of ``words`` words (the memory is taken only as rows are written).  A row
read is either unpacked into a full row (``unpack``) or combined with one (``or_into``,
``and_into``), touching only its stored words.  No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.honest.space import low_bit

#: Bytes a stored row costs besides its words: its ``start`` entry (the bitmap is counted
#: by ``row_bytes`` from the row's width).
_START = 8


@nb.njit(cache=True, nogil=True)
def new_store(n_rows, words):
    """An empty store of at most ``n_rows`` rows of ``words`` 64-bit words each."""
    mw = (words + 63) >> 6
    return (np.empty((max(n_rows, 1), mw), np.uint64), np.zeros(max(n_rows, 1) + 1, np.int64),
            np.empty(max(n_rows, 1) * words + 1, np.uint64))


@nb.njit(cache=True, nogil=True, inline="always")
def put(store, i, row):
    """Store ``row`` (a full row) as row i, which must be the next row of the store (rows
    0 .. i - 1 written before).  Returns its words stored."""
    mask, start, data = store
    at = start[i]
    for b in range(mask.shape[1]):
        mask[i, b] = 0
    for w in range(row.shape[0]):
        x = row[w]
        if x:
            data[at] = x
            at += 1
            mask[i, w >> 6] |= np.uint64(1) << np.uint64(w & 63)
    start[i + 1] = at
    return at - start[i]


@nb.njit(cache=True, nogil=True, inline="always")
def or_into(out, store, i):
    """``out |= row i`` (``out`` a full row)."""
    mask, start, data = store
    at = start[i]
    for b in range(mask.shape[1]):
        m = mask[i, b]
        while m:
            out[b * 64 + low_bit(m)] |= data[at]
            at += 1
            m &= m - np.uint64(1)


@nb.njit(cache=True, nogil=True, inline="always")
def unpack(out, store, i):
    """``out = row i`` (``out`` a full row)."""
    out[:] = 0
    or_into(out, store, i)


@nb.njit(cache=True, nogil=True, inline="always")
def and_into(out, store, i):
    """``out &= row i`` (``out`` a full row)."""
    mask, start, data = store
    at = start[i]
    for w in range(out.shape[0]):
        if (mask[i, w >> 6] >> np.uint64(w & 63)) & np.uint64(1):
            out[w] &= data[at]
            at += 1
        else:
            out[w] = 0


@nb.njit(cache=True, nogil=True, inline="always")
def last_word(store, i):
    """One more than the index of row i's last word that is not 0 (0 for an empty row)."""
    mask = store[0]
    for b in range(mask.shape[1] - 1, -1, -1):
        m = mask[i, b]
        if m:
            k = 63
            while (m >> np.uint64(k)) & np.uint64(1) == 0:
                k -= 1
            return b * 64 + k + 1
    return 0


@nb.njit(cache=True, nogil=True, inline="always")
def row_bytes(store, lo, hi):
    """Bytes that rows ``lo .. hi - 1`` of the store take: their words, bitmaps and starts."""
    mask, start, _ = store
    if hi <= lo:
        return 0
    return (start[hi] - start[lo]) * 8 + (hi - lo) * (mask.shape[1] * 8 + _START)


@nb.njit(cache=True, nogil=True)
def unpacked(idx, store, words):
    """The full rows of a store as a 2-d array, row ``idx[g]`` at ``out[g]`` (zero where
    ``idx[g] < 0``): for tests and small positions."""
    out = np.zeros((idx.shape[0], words), np.uint64)
    for g in range(idx.shape[0]):
        if idx[g] >= 0:
            or_into(out[g], store, idx[g])
    return out
