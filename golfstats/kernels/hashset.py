"""The one hash set of the kernels: open addressing, linear probing, a power-of-two size,
non-negative int64 keys, Fibonacci hashing (key * 2**64/phi, bits 29 and up, masked to the
size), and a prefetch so a search can ask for several slots' cache lines before it reads
them.  The caller keeps the load at most one half (``grow``), so a free slot always
exists.  No I/O."""

from __future__ import annotations

import numba as nb
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

EMPTY = -1


@intrinsic
def prefetch(typingctx, arr, idx):
    """Hint the CPU to fetch ``arr[idx]`` into cache (LLVM ``llvm.prefetch``, read,
    high locality); no effect on results."""
    sig = types.void(arr, idx)

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]])
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        builder.call(fn, [builder.bitcast(ptr, i8p), ir.Constant(i32, 0), ir.Constant(i32, 3),
                          ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return sig, codegen


@nb.njit(cache=True, nogil=True)
def new_set(log2_size):
    return np.full(1 << log2_size, EMPTY, np.int64)


@nb.njit(cache=True, nogil=True, inline="always")
def slot_of(key, mask):
    """Home slot of ``key`` in a table of ``mask + 1`` slots."""
    h = np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)
    return np.int64((h >> np.uint64(29)) & np.uint64(mask))


@nb.njit(cache=True, nogil=True, inline="always")
def insert_at(table, key, slot):
    """Insert ``key`` probing from its home ``slot``; False if it was there already."""
    mask = table.shape[0] - 1
    while True:
        k = table[slot]
        if k == key:
            return False
        if k == EMPTY:
            table[slot] = key
            return True
        slot = (slot + 1) & mask


@nb.njit(cache=True, nogil=True)
def insert(table, key):
    """Insert ``key``; False if it was already there."""
    return insert_at(table, key, slot_of(key, table.shape[0] - 1))


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


@nb.njit(cache=True, nogil=True)
def pool_of(buf, min_log2):
    """A uint8 buffer whose bytes are all 255 seen as int64 slots, every one EMPTY: the
    largest power-of-two prefix of it, or an empty array when that is under
    ``2**min_log2`` slots."""
    size = 1
    while size * 16 <= buf.shape[0]:
        size *= 2
    if size < (1 << min_log2):
        return np.empty(0, np.int64)
    return buf[:size * 8].view(np.int64)


@nb.njit(cache=True, nogil=True, inline="always")
def _in_pool(table, pool):
    return pool.shape[0] > 0 and table.ctypes.data == pool.ctypes.data


@nb.njit(cache=True, nogil=True)
def grow_in(table, pool, used):
    """``grow`` for a set that may live in ``pool`` (its first slots): twice the size inside
    the pool when it fits (the ``used`` keys rehashed), else a new array (and the pool's
    slots EMPTY again)."""
    size = table.shape[0]
    if not _in_pool(table, pool):
        return grow(table)
    if pool.shape[0] < 2 * size:
        bigger = grow(table)
        table[:] = EMPTY
        return bigger
    keys = np.empty(used, np.int64)
    n = 0
    for i in range(size):
        if table[i] != EMPTY:
            keys[n] = table[i]
            n += 1
            table[i] = EMPTY
    bigger = pool[:2 * size]
    mask = 2 * size - 1
    for i in range(n):
        insert_at(bigger, keys[i], slot_of(keys[i], mask))
    return bigger


@nb.njit(cache=True, nogil=True)
def release(table, pool):
    """Leave ``pool`` all EMPTY again: the slots the set spanned, if it lived there."""
    if _in_pool(table, pool):
        table[:] = EMPTY
