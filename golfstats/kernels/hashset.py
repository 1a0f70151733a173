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


# ---------------------------------------------------------------- maps: keys with values

@nb.njit(cache=True, nogil=True)
def find_slot(table, key):
    """The slot of ``table`` holding ``key``, or the empty slot where it would go (a map
    keeps its values in an array beside the keys, at the same slots)."""
    mask = table.shape[0] - 1
    i = slot_of(key, mask)
    while table[i] != EMPTY and table[i] != key:
        i = (i + 1) & mask
    return i


@nb.njit(cache=True, nogil=True)
def grow_map(table, values):
    """A map twice the size holding the same keys and values."""
    bigger = np.full(table.shape[0] * 2, EMPTY, np.int64)
    bigger_values = np.zeros(bigger.shape[0], values.dtype)
    for i in range(table.shape[0]):
        if table[i] != EMPTY:
            slot = find_slot(bigger, table[i])
            bigger[slot] = table[i]
            bigger_values[slot] = values[i]
    return bigger, bigger_values
