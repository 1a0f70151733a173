"""An open-addressing hash set of non-negative int64 keys (linear probing, power-of-two
size), for searches whose states are too many for a dense table.  No I/O."""

from __future__ import annotations

import numba as nb
import numpy as np

EMPTY = -1


@nb.njit(cache=True, nogil=True)
def new_set(log2_size):
    return np.full(1 << log2_size, EMPTY, np.int64)


@nb.njit(cache=True, nogil=True, inline="always")
def slot_of(key, mask):
    h = np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)
    return np.int64((h >> np.uint64(29)) & np.uint64(mask))


@nb.njit(cache=True, nogil=True)
def insert(table, key):
    """Insert ``key``; False if it was already there.  The caller keeps the load under
    one half (``grow``) so a free slot always exists."""
    mask = table.shape[0] - 1
    i = slot_of(key, mask)
    while True:
        k = table[i]
        if k == key:
            return False
        if k == EMPTY:
            table[i] = key
            return True
        i = (i + 1) & mask


@nb.njit(cache=True, nogil=True)
def contains(table, key):
    mask = table.shape[0] - 1
    i = slot_of(key, mask)
    while True:
        k = table[i]
        if k == key:
            return True
        if k == EMPTY:
            return False
        i = (i + 1) & mask


@nb.njit(cache=True, nogil=True)
def grow(table):
    """A set twice the size holding the same keys."""
    bigger = np.full(table.shape[0] * 2, EMPTY, np.int64)
    for k in table:
        if k != EMPTY:
            insert(bigger, k)
    return bigger

