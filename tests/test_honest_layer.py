"""``winp._add_below``, the value pass's adds to the layer below, against the plain form:
list block D's drawn-from states (its Q states whose Dr bit is set, in increasing h),
find each one's place among block D''s Q states, and add ``prob`` times D''s value there.
The two blocks' rows walk word by word; the Dr bits of D's states may start anywhere in
a word, so a word's bits may straddle two words of them."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from golfstats.kernels.honest.winp import _add_below, _bits_at


def _plain(q, d, dd, in_dr, s, prob, bu):
    """What ``_add_below`` adds, written as the definition: one value per drawn-from state
    of block d, in increasing h."""
    states_dd = [h for h in range(q.shape[1] * 64) if (int(q[dd, h >> 6]) >> (h & 63)) & 1]
    place = {h: i for i, h in enumerate(states_dd)}
    out = []
    i = 0
    for h in range(q.shape[1] * 64):
        if not (int(q[d, h >> 6]) >> (h & 63)) & 1:
            continue
        bit = s + i
        i += 1
        if (int(in_dr[bit >> 6]) >> (bit & 63)) & 1:
            out.append(prob * bu[place[h]] if h in place else 0.0)
    return np.array(out)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 6), st.integers(0, 130),
       st.sampled_from([0.05, 0.5, 0.95, 1.0]), st.sampled_from([0.0, 0.3, 1.0]))
def test_adds_below_are_the_plain_adds(seed, words, s, density, dr_share):
    rng = np.random.default_rng(seed)
    q = np.zeros((2, words), np.uint64)
    for d in range(2):
        for w in range(words):
            bits = rng.random(64) < density
            q[d, w] = np.uint64(int("".join("1" if b else "0" for b in bits[::-1]), 2))
    n_d = sum(bin(int(x)).count("1") for x in q[0])
    in_dr = np.zeros((s + n_d) // 64 + 2, np.uint64)
    for i in np.flatnonzero(rng.random(n_d) < dr_share):
        b = s + int(i)
        in_dr[b >> 6] |= np.uint64(1) << np.uint64(b & 63)
    counts = [bin(int(x)).count("1") for x in q[1]]
    rank = np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)
    bu = rng.random(max(sum(counts), 1))
    want = _plain(q, 0, 1, in_dr, s, 0.375, bu)
    start = 3  # the block's values start inside the layer's array
    vals = np.full(start + len(want) + 2, 7.0)
    got = vals.copy()
    _add_below(q, 0, 1, rank, in_dr, s, start, start + len(want), 0.375, bu, got)
    np.testing.assert_array_equal(got[start:start + len(want)], 7.0 + want)
    np.testing.assert_array_equal(got[:start], vals[:start])  # nothing else written
    np.testing.assert_array_equal(got[start + len(want):], vals[start + len(want):])


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 190), st.integers(1, 64))
def test_bits_at_reads_the_bits_from_any_place(seed, s, n):
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, 2**63, 5, dtype=np.int64).astype(np.uint64) * np.uint64(2) + np.uint64(1)
    whole = sum(int(x) << (64 * i) for i, x in enumerate(bits))
    assert int(_bits_at(bits, s, n)) == (whole >> s) & ((1 << n) - 1)
