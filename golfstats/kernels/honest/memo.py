"""The policy pass's table (``honest.policy``): (p, e) per state, in one open-addressing
hash table (linear probing, a power-of-two size, Fibonacci hashing by the top bits, at
most half full), key, p and e side by side in one array so that a probe reads one cache
line; an empty slot's key is -1.  ``meta`` holds its counters.  No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

#: ``meta``'s entries: states stored, endpoint pool used, state budget, budget hit,
#: height codes, the table's byte budget (then: 6 choices made, 7 endpoints scanned)
COUNT, EUSED, CAP, FAILED, GSIZE, BYTES = 0, 1, 2, 3, 4, 5

#: Bytes a slot (key, p, e); a table of s slots doubles into a new one of 2s while it is
#: alive, so it needs ``3 * SLOT_BYTES * s`` bytes then, its most.
SLOT_BYTES = 24


@nb.njit(cache=True, nogil=True, inline="always")
def key_of(g, d, zero, g_size):
    """The table key of the state (dense heights g, D-code d): a state that cannot be won
    (``zero``, d canonical: ``pool.canonical``) and one that can have keys of their own."""
    return 2 * (d * g_size + g) + (1 if zero else 0)


@nb.njit(cache=True, nogil=True)
def empty_table(slots):
    """A hash table of ``slots`` (a power of two) entries: key, p, e side by side in one
    array, so a probe reads one cache line; an empty slot's key is -1."""
    tab = np.empty(3 * slots, np.float64)
    for i in range(slots):
        tab[3 * i] = -1.0
    return tab


@nb.njit(cache=True, nogil=True, inline="always")
def home(key, slots):
    """The home slot of ``key`` in a table of ``slots`` (a power of two, at most 2**32)
    entries: the top bits of the Fibonacci hash (its top 32 bits times ``slots``, shifted
    down), so that doubling the table sends home slot i to 2i or 2i + 1 and the doubling
    walks both tables in order."""
    h = np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)
    return np.int64(((h >> np.uint64(32)) * np.uint64(slots)) >> np.uint64(32))


@nb.njit(cache=True, nogil=True, inline="always")
def find(tab, key):
    """The slot of ``key`` (an int below 2**53, stored exactly as a float), or the empty
    slot where it would go."""
    slots = tab.shape[0] // 3
    mask = slots - 1
    i = home(key, slots)
    fkey = float(key)
    while True:
        k = tab[3 * i]
        if k == fkey or k == -1.0:
            return i
        i = (i + 1) & mask


@nb.njit(cache=True, nogil=True, inline="always")
def put(tab, meta, key, p, e):
    """Store (p, e) under ``key``; returns the table (doubled when half full, if the old
    and the new table fit in ``meta[BYTES]`` together; else it sets ``meta[FAILED]``).
    Once failed it takes no new key, so a free slot always remains (``find`` ends)."""
    i = find(tab, key)
    if tab[3 * i] == -1.0:
        if meta[FAILED]:
            return tab
        meta[COUNT] += 1
        tab[3 * i] = float(key)
    tab[3 * i + 1] = p
    tab[3 * i + 2] = e
    slots = tab.shape[0] // 3
    if 2 * meta[COUNT] > slots:
        if 3 * SLOT_BYTES * slots > meta[BYTES]:
            meta[FAILED] = 1  # (the table is more than half full: the caller stops here)
            return tab
        tab2 = empty_table(2 * slots)
        for s in range(slots):  # in order: the new home slots increase (but for wrapped runs)
            if tab[3 * s] != -1.0:
                t = find(tab2, np.int64(tab[3 * s]))
                tab2[3 * t] = tab[3 * s]
                tab2[3 * t + 1] = tab[3 * s + 1]
                tab2[3 * t + 2] = tab[3 * s + 2]
        return tab2
    return tab
