"""Goal win's first passes, made smaller without changing a value (``kernels/honest/``):

* ``memory.release_rows`` hands back the pages inside a range of rows (they read 0) and
  leaves every row outside it alone;
* the value pass handing back the layer it has read (``solve.RELEASE_STEP`` values at a
  time; here 1, so that small positions release) and zeroing the next by release gives
  the same p and move values, exactly, as keeping them; ``winp.step_bytes`` bounds it
  between the largest layer and the two largest neighbours;
* reach releasing the W and G rows of each level it has done (the default of
  ``solve_win``) finds the same Dr and Q bit for bit, and its peak of rows alive drops
  where the rows span whole pages.
"""

from __future__ import annotations

import numpy as np
import pytest
from honest_rows import kernel_args, row_bits
from positions import positions

from golfstats.board import format_board
from golfstats.honest import solve
from golfstats.kernels.honest import memory, reach, winp, wins
from golfstats.kernels.honest.space import STOCK_KINDS, d_codes
from golfstats.rules import parse_variant


def test_release_rows_zeroes_whole_pages_inside_the_range_only():
    words = memory.PAGE // 8  # a row of one page
    pool = np.arange(1, 40 * words + 1, dtype=np.uint64).reshape(40, words)
    keep = pool.copy()
    released = memory.release_rows(pool, 10, 20)
    assert released >= 9 * memory.PAGE  # the array need not start on a page
    assert not pool[11:19].any()
    np.testing.assert_array_equal(pool[:10], keep[:10])
    np.testing.assert_array_equal(pool[20:], keep[20:])
    small = np.arange(1, 400 * 13 + 1, dtype=np.uint64).reshape(400, 13)  # rows across pages
    keep = small.copy()
    released = memory.release_rows(small, 100, 300)
    assert released > 0
    np.testing.assert_array_equal(small[:100], keep[:100])
    np.testing.assert_array_equal(small[300:], keep[300:])
    assert (small == 0).sum() * 8 == released  # whole pages, every word of them 0
    assert memory.release_rows(small, 5, 5) == 0


def _page_offset(values, k):
    """A copy of ``values`` whose first element lies ``k`` elements after a page boundary
    (inside a larger buffer), so that where the first page ends does not depend on where
    the allocator put the array."""
    per_page = memory.PAGE // values.itemsize
    buf = np.zeros(values.shape[0] + 2 * per_page, values.dtype)
    aligned = (-buf.ctypes.data % memory.PAGE) // values.itemsize
    out = buf[aligned + k:aligned + k + values.shape[0]]
    out[:] = values
    return out


def test_zero_values_and_release_upto():
    vals = np.arange(1.0, 20001.0)
    memory.zero_values(vals, 15000)
    assert not vals[:15000].any()
    np.testing.assert_array_equal(vals[15000:], np.arange(15001.0, 20001.0))
    vals = _page_offset(np.arange(1.0, 20001.0), 100)  # 100 values into a page
    done = memory.release_upto(vals, 0, 10, 1)  # not a page on yet: nothing
    assert done == 0 and vals.all()
    done = memory.release_upto(vals, 0, 9000, 1)
    assert 0 < done <= 9000 and (vals == 0).sum() * 8 >= memory.PAGE  # whole pages below done
    np.testing.assert_array_equal(vals[done:], np.arange(done + 1.0, 20001.0))
    assert memory.release_upto(vals, done, 9000 + 8, 1) == done


def test_zero_values_writes_the_zeros_where_pages_are_not_handed_back(monkeypatch):
    """Without madvise (another platform) or when it refuses, zero_values still zeroes:
    the value pass reuses the layer it zeroes."""
    monkeypatch.setattr(memory, "release_values", lambda vals, lo, hi: 0)
    vals = np.arange(1.0, 20001.0)
    memory.zero_values.py_func(vals, 15000)
    assert not vals[:15000].any()
    np.testing.assert_array_equal(vals[15000:], np.arange(15001.0, 20001.0))


@pytest.mark.parametrize("variant", ["putt-putt", "strict", "putt-putt+when-stuck"])
def test_value_pass_releasing_layers_changes_nothing(variant, monkeypatch):
    rules = parse_variant(variant)
    for board in positions(rules, 59, 5, 3000, min_stock=8, max_stock=8):
        kt, a, top, m0 = kernel_args(rules, board)
        start = solve.KernelPosition(kt, a.exposed, a.heights, top, m0)
        with monkeypatch.context() as m:
            m.setattr(solve, "RELEASE_STEP", 0)  # nothing handed back
            keep = solve.solve_win(start)
        with monkeypatch.context() as m:
            m.setattr(solve, "RELEASE_STEP", 1)
            freed = solve.solve_win(start)
        where = f"{rules.id}\n{format_board(board, rules)}"
        assert freed.value.p == keep.value.p, where
        np.testing.assert_array_equal([v.p for v in freed.moves], [v.p for v in keep.moves])
        # the bound allows a page and a batch each side: a small position gains nothing
        assert freed.stats.value_bytes <= keep.stats.value_bytes + 4 * memory.PAGE, where


def test_step_bytes_peak_lies_between_one_layer_and_two():
    m0 = np.zeros(STOCK_KINDS, np.int64)
    m0[[1, 3, 5, 8]] = [2, 1, 3, 2]
    pwd, size, order, layer_start = d_codes(m0)
    rng = np.random.default_rng(5)
    dcnt = rng.integers(0, 300, size)
    n = layer_start.shape[0] - 2
    off = np.zeros(size, np.int64)
    lsize = np.zeros(n + 1, np.int64)
    for j in range(n + 1):
        for d in order[layer_start[j]:layer_start[j + 1]]:
            off[d] = lsize[j]
            lsize[j] += dcnt[d]
    peak = winp.step_bytes(order, layer_start, off, dcnt, lsize, m0, pwd, 0,
                           np.zeros(size + 1, np.int64), False).max() // 8
    assert lsize.max() <= peak <= max(lsize[j] + lsize[j - 1] for j in range(1, n + 1))
    assert peak < max(lsize[j] + lsize[j - 1] for j in range(1, n + 1))  # it frees as it goes
    # with the layers in files: only the block read and layer j - 1's open part
    files = winp.step_bytes(order, layer_start, off, dcnt, lsize, m0, pwd, 0,
                            np.zeros(size + 1, np.int64), True).max() // 8
    assert dcnt.max() <= files < peak


@pytest.mark.parametrize("variant", ["putt-putt", "strict", "putt-putt+when-stuck"])
def test_reach_releasing_rows_finds_the_same_sets(variant):
    rules = parse_variant(variant)
    lower = 0
    for board in positions(rules, 47, 6, 3000, min_stock=6, max_stock=8):
        kt, a, top, m0 = kernel_args(rules, board)
        pwd, size, _, _ = d_codes(m0)
        got = []
        for release in (False, True):
            w = wins.win_sets(kt, a.exposed, a.heights, m0, pwd, size)
            got.append(reach.reach_sets(kt, a.exposed, a.heights, top, m0, pwd, size, *w[:4],
                                        release))
        where = f"{rules.id}\n{format_board(board, rules)}"
        kept, freed = got
        assert row_bits(kept[0], kept[1], size) == row_bits(freed[0], freed[1], size), where  # Dr
        assert row_bits(kept[2], kept[3], size) == row_bits(freed[2], freed[3], size), where  # Q
        assert freed[4][4] <= kept[4][4], where
        lower += freed[4][4] < kept[4][4]
    if variant.startswith("putt-putt"):  # (strict's positions here are mostly lost: Dr and Q empty)
        assert lower >= 1  # the peak of rows alive drops: W and G go as Dr and Q come
