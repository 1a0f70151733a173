"""The stockless search's hash set: open addressing, linear probing, power-of-two size,
non-negative int64 keys, Fibonacci hashing (the slot is the top bits of key * 2**64/phi),
and a prefetch so a search can ask for several slots' cache lines before it reads them.
No I/O."""

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


@nb.njit(cache=True, nogil=True, inline="always")
def slot_of(key, shift):
    """Home slot of ``key`` in a set of ``2**(64 - shift)`` slots."""
    return np.int64((np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(shift))


@nb.njit(cache=True, nogil=True)
def new_set(log2_size):
    return np.full(1 << log2_size, EMPTY, np.int64)


@nb.njit(cache=True, nogil=True, inline="always")
def insert_at(table, key, slot):
    """Insert ``key`` probing from its home ``slot``; False if it was there already.  The
    caller keeps the load at most one half, so a free slot exists."""
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
def grow(table, shift):
    """The set twice as big (its hash shift is ``shift - 1``)."""
    bigger = np.full(table.shape[0] * 2, EMPTY, np.int64)
    for k in table:
        if k != EMPTY:
            insert_at(bigger, k, slot_of(k, shift - 1))
    return bigger
