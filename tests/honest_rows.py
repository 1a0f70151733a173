"""What the tests of the honest kernel's passes share: the rule sets they run on, a
board's kernel arguments, and the bits of a pass's h-major rows (a packed store,
``honest.packed``) as a set."""

from __future__ import annotations

import numpy as np

from golfstats.honest.odds import _tables
from golfstats.kernels.honest import packed
from golfstats.kernels.honest.space import STOCK_KINDS
from golfstats.kernels.rule_tables import board_arrays, kernel_tables

VARIANTS = ["strict", "queens-on-kings", "putt-putt", "putt-putt+when-stuck",
            "strict+jokers1+empty-start", "queens-on-kings+dead-queen"]


def kernel_args(rules, board):
    """(kernel tables, board arrays, top id, stock multiset) of ``board``."""
    tables, top_id = _tables(rules, board, None)
    arrays = board_arrays(board, tables)
    m0 = np.zeros(STOCK_KINDS, np.int64)
    for k in arrays.stock:
        m0[k] += 1
    return kernel_tables(tables), arrays, top_id, m0


def row_bits(idx, rows, size):
    """The set of (g, d) of h-major rows: row ``idx[g]`` of the packed store ``rows``."""
    pool = packed.unpacked(idx, rows, ((size + 63) >> 6) + 1)
    return {(g, d) for g in range(idx.shape[0]) if idx[g] >= 0 for d in range(size)
            if (int(pool[g, d >> 6]) >> (d & 63)) & 1}


def store_of(pool):
    """A packed store holding the full rows of the 2-d ``pool`` in order."""
    store = packed.new_store(pool.shape[0], pool.shape[1])
    for i in range(pool.shape[0]):
        packed.put(store, i, pool[i])
    return store
