"""``honest.packed``: a row stored as its non-zero words reads back as the full row, and
combines with a full row as the full row does; a level's rows handed back stop counting.
And Dr kept as a bit per state of Q (``blocks.subset_bits``) lists what Dr's own table
lists."""

from __future__ import annotations

import numpy as np
import pytest
from honest_rows import kernel_args
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import positions

from golfstats.kernels.honest import blocks, memory, packed, reach, wins
from golfstats.kernels.honest.space import d_codes
from golfstats.rules import parse_variant


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


@pytest.mark.parametrize("variant", ["putt-putt", "queens-on-kings", "strict+jokers1+empty-start"])
def test_dr_as_bits_of_q_lists_what_drs_own_table_lists(variant):
    """``blocks.subset_bits``: the drawn-from states of every block, read as Q's states
    whose bit is set, are Dr's own table's, in the same order."""
    rules = parse_variant(variant)
    checked = left_out = 0
    for board in positions(rules, 53, 6, 3000, min_stock=8, max_stock=11):
        kt, a, top, m0 = kernel_args(rules, board)
        pwd, size, _, _ = d_codes(m0)
        w = wins.win_sets(kt, a.exposed, a.heights, m0, pwd, size)
        ridx, r_rows, qidx, q_rows, _ = reach.reach_sets(kt, a.exposed, a.heights, top, m0, pwd,
                                                         size, *w[:4], True)
        hinv = np.flatnonzero(qidx >= 0)
        ridx, qidx = ridx[hinv], qidx[hinv]
        q = blocks.d_major(qidx, q_rows, size, blocks.store_bits(qidx, q_rows))
        dr = blocks.d_major(ridx, r_rows, size, blocks.store_bits(ridx, r_rows))
        qcnt = blocks.row_counts(q)
        bits, qoff, dcnt = blocks.subset_bits(qcnt, qidx, q_rows, ridx, r_rows, size)
        np.testing.assert_array_equal(dcnt, blocks.row_counts(dr))
        ql = np.empty(max(int(qcnt.max()), 1), np.int32)
        got = np.empty_like(ql)
        want = np.empty_like(ql)
        for d in range(size):
            nq = blocks.block_list(q[d], ql)
            n = blocks.subset_list(ql, nq, bits, qoff[d], got)
            assert n == blocks.block_list(dr[d], want)
            np.testing.assert_array_equal(got[:n], want[:n])
            checked += n
            left_out += nq - n
    assert checked > 200 and left_out > 200  # drawn-from states, and Q's states not drawn from
