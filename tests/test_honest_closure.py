"""``reach.close_up``: a row of drawn multisets closed under adding cards of some kinds, in
place a pass a kind over a range of words, against the closure computed one multiset at
a time from its definition."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from golfstats.kernels.honest import reach
from golfstats.kernels.honest.space import STOCK_KINDS, d_codes


def _digits(d, m0, pwd):
    return [(d // pwd[r]) % (m0[r] + 1) if m0[r] else 0 for r in range(STOCK_KINDS)]


def _closure(start, kinds, m0, pwd):
    """Every D-code reached from ``start`` by adding cards of the kinds in ``kinds`` (a
    bit set), while the stock has them: a search over multisets."""
    seen = set(start)
    todo = list(start)
    while todo:
        d = todo.pop()
        have = _digits(d, m0, pwd)
        for r in range(STOCK_KINDS):
            if (kinds >> r) & 1 and m0[r] and have[r] < m0[r] and d + pwd[r] not in seen:
                seen.add(d + pwd[r])
                todo.append(d + pwd[r])
    return seen


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, STOCK_KINDS - 1), min_size=1, max_size=11),
       st.integers(0, 2**STOCK_KINDS - 1), st.integers(0, 2**32 - 1), st.integers(1, 6))
def test_close_up_is_the_closure_under_adding_the_kinds(stock, kinds, seed, n_start):
    m0 = np.minimum(np.bincount(stock, minlength=STOCK_KINDS), 4).astype(np.int64)
    pwd, size, _, _ = d_codes(m0)
    words = ((size + 63) >> 6) + 1
    rng = np.random.default_rng(seed)
    start = sorted({int(d) for d in rng.integers(0, size, n_start)})
    z = np.zeros(words, np.uint64)
    for d in start:
        z[d >> 6] |= np.uint64(1) << np.uint64(d & 63)
    lo = start[0] >> 6
    end = int(rng.integers(lo + 1, words + 1))  # the words from ``end`` on are not asked for
    kup = reach.up_masks(m0, pwd, size)
    reach.close_up(z, np.int64(kinds), m0, pwd, kup, lo, end)
    want = _closure(start, kinds, m0, pwd)
    got = {w * 64 + b for w in range(end) for b in range(64) if (int(z[w]) >> b) & 1}
    assert got == {d for d in want if d < 64 * end}


def test_a_kind_a_word_or_more_apart_closes_in_one_pass():
    """Three cards of the highest kind, its step 128 bits: one pass adds all three (a
    pass that added one step would stop at one)."""
    m0 = np.array([1] * 7 + [3] + [0] * (STOCK_KINDS - 8), np.int64)
    pwd, size, _, _ = d_codes(m0)
    assert pwd[7] == 128
    words = ((size + 63) >> 6) + 1
    z = np.zeros(words, np.uint64)
    z[0] = np.uint64(1)  # nothing drawn
    reach.close_up(z, np.int64(1 << 7), m0, pwd, reach.up_masks(m0, pwd, size), 0, words)
    got = {w * 64 + b for w in range(words) for b in range(64) if (int(z[w]) >> b) & 1}
    assert got == {0, 128, 256, 384}
