"""The value pass's layers.

* ``winp._add_below``, its adds to the layer below, against the plain form: list block
  D's drawn-from states (its Q states whose Dr bit is set, in increasing h), find each
  one's place among block D''s Q states, and add ``prob`` times D''s value there.  The
  two blocks' rows walk word by word; the Dr bits of D's states may start anywhere in a
  word, so a word's bits may straddle two words of them.
* The layers in files (``layer_files``), when they do not fit in memory: pages handed
  back keep their values, ``clear`` zeroes, and the pass gives the same values exactly.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from honest_rows import kernel_args
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import positions

from golfstats.board import format_board
from golfstats.honest import layer_files, solve
from golfstats.honest.layer_files import LayerFiles
from golfstats.kernels.honest import blocks, memory
from golfstats.kernels.honest.winp import _add_below, _bits_at
from golfstats.rules import parse_variant


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
@given(st.integers(0, 2**32 - 1), st.integers(1, 70), st.integers(0, 130),
       st.sampled_from([0.05, 0.5, 0.95, 1.0]), st.sampled_from([0.0, 0.3, 1.0]))
def test_adds_below_are_the_plain_adds(seed, words, s, density, dr_share):
    rng = np.random.default_rng(seed)
    q = np.zeros((2, words), np.uint64)
    for d in range(2):
        for w in range(words):
            bits = rng.random(64) < density * (w % 3 != 1)  # (some words 0)
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
    _add_below(q, blocks.nonzero_words(q), 0, 1, rank, in_dr, s, start, start + len(want), 0.375,
               bu, got)
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


def test_layer_files_keep_values_handed_back_and_clear_to_zero(tmp_path):
    files = LayerFiles(20000, str(tmp_path))
    assert list(tmp_path.iterdir()) == []  # unlinked at once: nothing is left behind
    a, b = files.pair
    assert a.shape == (20000,) and not a.any() and not b.any()
    a[:] = np.arange(1.0, 20001.0)
    assert memory.release_values(a, 0, 20000) > 0  # pages leave memory ...
    np.testing.assert_array_equal(a, np.arange(1.0, 20001.0))  # ... and keep their values
    b[5] = 2.5
    files.clear(0)
    assert not a.any() and b[5] == 2.5


def test_layer_files_refuse_a_directory_without_room(tmp_path, monkeypatch):
    monkeypatch.setattr(layer_files.shutil, "disk_usage", lambda where: SimpleNamespace(free=1000))
    with pytest.raises(OSError, match="GB free"):
        LayerFiles(20000, str(tmp_path))


@pytest.mark.parametrize("variant", ["putt-putt", "strict", "putt-putt+when-stuck"])
def test_value_pass_with_layers_in_files_changes_nothing(variant, monkeypatch, tmp_path):
    """The layers in files (the budget made to refuse them in memory) give the same p and
    move values, exactly; the values below are handed back as the step goes."""
    rules = parse_variant(variant)
    real = solve.step_bytes
    made = []

    def layers(n):
        made.append(LayerFiles(n, str(tmp_path)))
        return made[-1]

    for board in positions(rules, 61, 6, 3000, min_stock=8, max_stock=8):
        kt, a, top, m0 = kernel_args(rules, board)
        start = solve.KernelPosition(kt, a.exposed, a.heights, top, m0)
        with monkeypatch.context() as m:
            m.setattr(solve, "RELEASE_STEP", 1)
            mem = solve.solve_win(start)
            if mem.stats.drawn_from == 0:  # nothing to value: no value pass
                continue
            # in memory the layers would take a TB more than they do: over the budget
            m.setattr(solve, "step_bytes", lambda *args: real(*args) + (0 if args[-1] else 1 << 40))
            budget = 2 * max(mem.stats.peak_bytes, 1)
            disk = solve.solve_win(start, max_bytes=budget,
                                   layers=layers)
            refused = solve.solve_win(start, max_bytes=budget)
        where = f"{rules.id}\n{format_board(board, rules)}"
        assert disk.value.resolved and disk.stats.disk_bytes > 0, where
        assert disk.value.p == mem.value.p, where
        np.testing.assert_array_equal([v.p for v in disk.moves], [v.p for v in mem.moves])
        assert not refused.value.resolved  # without files the same budget refuses it
    assert made


def test_value_pass_without_room_for_its_files_is_unresolved(monkeypatch):
    rules = parse_variant("strict")
    for board in positions(rules, 61, 6, 3000, min_stock=8, max_stock=8):
        kt, a, top, m0 = kernel_args(rules, board)
        start = solve.KernelPosition(kt, a.exposed, a.heights, top, m0)
        mem = solve.solve_win(start)
        if mem.stats.drawn_from:
            break
    real = solve.step_bytes

    def no_room(n):
        raise OSError("no room")

    monkeypatch.setattr(solve, "step_bytes", lambda *args: real(*args) + (0 if args[-1] else 1 << 40))
    out = solve.solve_win(start,
                          max_bytes=2 * mem.stats.peak_bytes, layers=no_room)
    assert not out.value.resolved and out.stats.disk_error == "no room"
