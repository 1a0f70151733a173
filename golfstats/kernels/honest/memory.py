"""Giving the pages of bit rows no longer read back to the system while a pass runs.

The first passes of goal win keep W and G (``honest.wins``) for every height until the
reach pass (``honest.reach``) has read them, and reach reads the rows of one level (cards
left) at a time, from the position's level down.  ``release_rows`` hands the whole pages
inside a range of rows back (``madvise(MADV_DONTNEED)``: the memory stays allocated, its
pages read as zero and cost nothing until written again), so the rows of a level reach has
passed stop counting while Dr and Q grow.  Where the call is not available it does
nothing.  No I/O, no RNG.
"""

from __future__ import annotations

import mmap
import sys

import numba as nb
import numpy as np
from numba import types

from golfstats.kernels.honest.packed import row_bytes

#: Bytes of a memory page (rows are released whole pages at a time, inside the range).
PAGE = mmap.PAGESIZE

if sys.platform.startswith("linux"):
    _MADV_DONTNEED = 4
    _madvise = types.ExternalFunction("madvise", types.intc(types.voidptr, types.uintp, types.intc))

    @nb.njit(cache=True, nogil=True)
    def release_rows(pool, lo, hi):
        """Release the pages wholly inside rows ``lo .. hi - 1`` of the 2-d ``pool`` (their
        values become 0: call it only on rows nobody reads again).  Returns the bytes
        released."""
        if hi <= lo:
            return 0
        row = pool.shape[1] * pool.itemsize
        base = pool.ctypes.data
        start = (base + lo * row + PAGE - 1) // PAGE * PAGE
        end = (base + hi * row) // PAGE * PAGE
        if end <= start:
            return 0
        if _madvise(start, end - start, _MADV_DONTNEED) != 0:
            return 0
        return end - start
else:  # pragma: no cover - the project runs on Linux; elsewhere rows are kept

    @nb.njit(cache=True, nogil=True)
    def release_rows(pool, lo, hi):
        """Keep every row (no page release on this platform); returns 0."""
        return 0


@nb.njit(cache=True, nogil=True)
def level_rows(idx, by_level, lo, hi):
    """``(first, end)``: the rows ``idx[g]`` of the height codes ``by_level[lo:hi]`` (one
    level) span ``first .. end - 1`` (passes write a level's rows together), and how many
    there are, as ``(first, end, count)``; ``(0, 0, 0)`` when none."""
    first = np.int64(1) << 62
    end = np.int64(0)
    count = 0
    for t in range(lo, hi):
        i = idx[by_level[t]]
        if i >= 0:
            first = min(first, i)
            end = max(end, i + 1)
            count += 1
    if count == 0:
        return 0, 0, 0
    return first, end, count


@nb.njit(cache=True, nogil=True)
def release_store(store, lo, hi):
    """Release the pages wholly inside rows ``lo .. hi - 1`` of a packed store
    (``honest.packed``; rows written together, so one range of its words and of its
    bitmaps).  Returns the bytes those rows took (``packed.row_bytes``), the pages handed
    back or not."""
    mask, start, data = store
    if hi <= lo:
        return 0
    release_rows(mask, lo, hi)
    release_values(data, start[lo], start[hi])
    return row_bytes(store, lo, hi)


@nb.njit(cache=True, nogil=True)
def release_values(vals, lo, hi):
    """Release the pages wholly inside ``vals[lo:hi]`` (a 1-d array; they read 0 after).
    Returns the bytes released."""
    if hi <= lo:
        return 0
    return release_rows(vals[lo:hi].reshape((hi - lo, 1)), 0, hi - lo)


@nb.njit(cache=True, nogil=True)
def zero_values(vals, n):
    """``vals[:n] = 0``, by handing back the pages wholly inside (they read 0 and cost
    nothing until written) and writing the parts of pages at either end; where the pages
    are not handed back (no madvise, or it refused) by writing every zero."""
    if n <= 0:
        return
    base = vals.ctypes.data
    item = vals.itemsize
    first = min(n, ((base + PAGE - 1) // PAGE * PAGE - base + item - 1) // item)
    last = max(first, ((base + n * item) // PAGE * PAGE - base) // item)
    vals[:first] = 0
    vals[last:n] = 0
    if release_values(vals, first, last) != (last - first) * item:  # not released (another
        vals[first:last] = 0  # platform, or madvise refused): write the zeros


@nb.njit(cache=True, nogil=True)
def release_upto(vals, done, end, step):
    """Hand back the pages of ``vals`` from element ``done`` (where the last call stopped,
    0 at first) up to the last page boundary at or before element ``end``, once that is
    at least ``step`` elements on.  Returns where it stopped (the new ``done``)."""
    base = vals.ctypes.data
    item = vals.itemsize
    stop = ((base + end * item) // PAGE * PAGE - base) // item
    if stop - done < step:
        return done
    release_values(vals, done, stop)
    return stop
