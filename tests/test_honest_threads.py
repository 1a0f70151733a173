"""Goal win's value pass on several threads (``honest.split``) against one thread.

The threads do a layer's chain DPs in batches and the adds to the layer below by target
block, each target's adds in the one thread's order: every value is the same bits
whatever the number of threads, every table kept too (every p, the blocks a stock order
visits), with the layers handed back as read, batches of every size, and the memory
budget counting the other threads' scratch and the batch's buffer.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import numpy as np
import pytest
from honest_rows import VARIANTS, kernel_args

from golfstats.board import format_board
from golfstats.deals import pysol_board, seeded_board
from golfstats.honest import solve
from golfstats.kernels.honest import split
from golfstats.rules import parse_variant

KEEPS = [solve.KEEP_LAYERS, solve.KEEP_ALL, solve.KEEP_PATH]


@cache
def _boards(variant):
    """Three deals of seed 5 with their stock cut to 10 cards whose value pass has 1,000
    to 100,000 drawn-from states (most such deals are lost at once: nothing to value)."""
    rules = parse_variant(variant)
    out = []
    for i in range(200):
        board = seeded_board(rules, 5, i)
        board = replace(board, stock=board.stock[:10])
        kt, a, top, m0 = kernel_args(rules, board)
        start = solve.KernelPosition(kt, a.exposed, a.heights, top, m0)
        if 1000 < solve.solve_win(start).stats.drawn_from < 100000:
            out.append(board)
            if len(out) == 3:
                return out
    raise AssertionError(f"fewer than 3 such deals of {variant}")


def _same(one, many, where):
    assert one.value.resolved and many.value.resolved, where
    assert many.value.p == one.value.p, where
    np.testing.assert_array_equal([v.p for v in many.moves], [v.p for v in one.moves], err_msg=where)
    if one.sol is not None:
        for a, b in zip(one.sol, many.sol, strict=True):
            if isinstance(a, np.ndarray):
                np.testing.assert_array_equal(a, b, err_msg=where)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("small_batches", [False, True])
def test_threads_give_the_values_of_one_thread_bit_for_bit(variant, small_batches, monkeypatch):
    rules = parse_variant(variant)
    monkeypatch.setattr(solve, "RELEASE_STEP", 1)  # hand back as soon as read
    if small_batches:  # batches of one block, or of a few
        monkeypatch.setattr(split, "WIDTH_BLOCKS", 1)
        monkeypatch.setattr(split, "RANK_BLOCKS", 1)
    for k, board in enumerate(_boards(variant)):
        kt, a, top, m0 = kernel_args(rules, board)
        start = solve.KernelPosition(kt, a.exposed, a.heights, top, m0)
        keep = KEEPS[k % 3]
        order = a.stock if keep == solve.KEEP_PATH else None
        one = solve.solve_win(start, keep=keep, stock_order=order)
        for threads in (2, 3):
            many = solve.solve_win(start, keep=keep,
                                   stock_order=order, threads=threads)
            _same(one, many, f"{threads} threads, keep {keep}\n{format_board(board, rules)}")
            assert many.stats.threads == threads


def test_threads_fit_in_the_budget_or_fewer_run(monkeypatch):
    rules = parse_variant("putt-putt")
    kt, a, top, m0 = kernel_args(rules, _boards("putt-putt")[0])
    start = solve.KernelPosition(kt, a.exposed, a.heights, top, m0)
    one = solve.solve_win(start)
    two = solve.solve_win(start, threads=2)
    assert two.stats.value_bytes > one.stats.value_bytes  # the budget counts them
    for budget in (one.stats.value_bytes, two.stats.value_bytes):
        budget = max(budget, one.stats.first_bytes)
        fit = solve.solve_win(start, threads=2, max_bytes=budget)
        assert fit.value.resolved and fit.value.p == one.value.p
        assert fit.stats.threads == (2 if two.stats.value_bytes <= budget else 1)
        assert fit.stats.value_bytes <= budget
    # threads whose scratch would not fit: one thread, within the budget
    monkeypatch.setattr(split, "extra_bytes", lambda threads, *_: (threads - 1) << 50)
    fewer = solve.solve_win(start, threads=3, max_bytes=1 << 40)
    assert fewer.value.resolved and fewer.stats.threads == 1 and fewer.value.p == one.value.p
    assert fewer.stats.value_bytes == one.stats.value_bytes


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["strict", "queens-on-kings"])
def test_a_whole_deal_on_two_threads_is_the_one_thread_value(variant):
    rules = parse_variant(variant)
    kt, a, top, m0 = kernel_args(rules, pysol_board(rules, 3))
    start = solve.KernelPosition(kt, a.exposed, a.heights, top, m0)
    one = solve.solve_win(start)
    two = solve.solve_win(start, threads=2)
    _same(one, two, f"{variant} PySolFC 3")
