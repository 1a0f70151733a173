"""``honest.packed``: a row stored as its non-zero words reads back as the full row, and
combines with a full row as the full row does; a level's rows handed back stop counting."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from golfstats.kernels.honest import memory, packed


def _rows(seed, n, words, density):
    """``n`` full rows of ``words`` words, each word non-zero with chance ``density``."""
    rng = np.random.default_rng(seed)
    vals = rng.integers(1, 2**63, size=(n, words), dtype=np.uint64)
    vals[rng.random((n, words)) >= density] = 0
    if n:
        vals[0] = 0  # an empty row
    return vals


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 12), st.integers(1, 200),
       st.sampled_from([0.0, 0.1, 0.5, 1.0]))
def test_rows_read_back_and_combine_as_the_full_rows(seed, n, words, density):
    rows = _rows(seed, n, words, density)
    store = packed.new_store(n, words)
    stored = sum(packed.put(store, i, rows[i]) for i in range(n))
    assert stored == int((rows != 0).sum())
    assert packed.row_bytes(store, 0, n) == stored * 8 + n * (((words + 63) >> 6) * 8 + 8)
    other = _rows(seed + 1, 1, words, 0.7)[0] | np.uint64(5)
    out = np.empty(words, np.uint64)
    for i in range(n):
        packed.unpack(out, store, i)
        np.testing.assert_array_equal(out, rows[i])
        out[:] = other
        packed.or_into(out, store, i)
        np.testing.assert_array_equal(out, other | rows[i])
        out[:] = other
        packed.and_into(out, store, i)
        np.testing.assert_array_equal(out, other & rows[i])
    idx = np.arange(n, dtype=np.int64)[::-1].copy()
    idx[0] = -1
    full = packed.unpacked(idx, store, words)
    assert not full[0].any()
    np.testing.assert_array_equal(full[1:], rows[::-1][1:])


def test_a_released_range_reads_zero_and_the_rest_stays():
    words = 700
    rows = _rows(3, 60, words, 1.0)
    store = packed.new_store(60, words)
    for i in range(60):
        packed.put(store, i, rows[i])
    assert memory.release_store(store, 10, 50) == packed.row_bytes(store, 10, 50)
    out = np.empty(words, np.uint64)
    for i in list(range(10)) + list(range(50, 60)):
        packed.unpack(out, store, i)
        np.testing.assert_array_equal(out, rows[i])
    mask, start, data = store
    lo, hi = start[10], start[50]
    assert not data[lo + 1024:hi - 1024].any()  # whole pages inside the range: handed back
