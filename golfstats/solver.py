"""The exact (clairvoyant) solver: optimal strokes, or winnability, of any position.

``solve(board, rules)`` knows the stock order, as published solvers do.  Goal
``strokes`` finds the best stroke score: for a winnable deal the win that leaves
the most stock cards unturned, otherwise the fewest tableau cards left.  Goal
``win`` only decides winnability and stops at the first win it finds.

Golf positions (7 columns, at most 6**7 height vectors) are swept densely by
``kernels.sweep``; the stockless games (Black Hole, All in a Row), whose height
vectors are too many for a table, are searched depth-first with a hash set by
``kernels.search``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np

from golfstats.board import Board
from golfstats.rules import Draw, Rules


class Goal(StrEnum):
    STROKES = "strokes"
    WIN = "win"


@dataclass
class Solution:
    """Result of solving one position (strokes per RULES.md "Scoring")."""

    won: bool
    strokes: int
    stock_left: int
    moves: list[int] = field(default_factory=list)
    states: int = 0
    seconds: float = 0.0
    goal: Goal = Goal.STROKES


_BUFFERS: dict[tuple[str, int], np.ndarray] = {}


def scratch(dtype: str, size: int, fill: int) -> np.ndarray:
    """A per-process buffer of at least ``size`` items, filled with ``fill``.  The sweep
    kernels leave the part they use filled again, so it is reused without clearing."""
    key = (dtype, fill)
    buf = _BUFFERS.get(key)
    if buf is None or buf.shape[0] < size:
        buf = np.full(max(size, 1), fill, dtype=dtype)
        _BUFFERS[key] = buf
    return buf


def golf_scratch(stride: int) -> tuple[np.ndarray, np.ndarray]:
    """Buffers big enough to sweep any golf position (any-time, when-stuck)."""
    size = (6**7 + 1) * stride
    return scratch("uint8", size, 255), scratch("uint32", size, 0)


def solve(board: Board, rules: Rules, goal: Goal | str = Goal.STROKES,
          cap: int | None = None) -> Solution:
    """Solve ``board`` under ``rules``.  ``cap`` limits the stock cards a line may turn."""
    from golfstats.kernels.tables import board_arrays, tables_for

    goal = Goal(goal)
    started = time.perf_counter()
    tables = tables_for(rules, board.foundation is None)
    arrays = board_arrays(board, tables)
    moves_out = np.empty(max_line(board), np.int64)
    limit = len(board.stock) if cap is None else cap
    stop = goal is Goal.WIN
    if board.stock or rules.layout.has_stock:
        result = _sweep(arrays, tables, rules.draw is Draw.WHEN_STUCK, limit, stop, moves_out)
    else:
        from golfstats.kernels.search import search_no_stock
        result = search_no_stock(arrays.exposed, arrays.heights, arrays.top, tables.play_next,
                                 tables.n_tops, moves_out)
    won, strokes, stock_left, n_moves, states = result
    if n_moves < 0:
        raise RuntimeError("solver could not trace its line back (internal error)")
    return Solution(bool(won), int(strokes), int(stock_left), [int(m) for m in moves_out[:n_moves]],
                    int(states), time.perf_counter() - started, goal)


def _sweep(arrays, tables, when_stuck: bool, limit: int, stop: bool, moves_out: np.ndarray):
    from golfstats.kernels import sweep

    if arrays.heights.shape[0] != sweep.COLUMNS:
        raise ValueError(f"the sweep solves {sweep.COLUMNS}-column golf boards")
    stride = tables.stride
    size = (int(np.prod(arrays.heights + 1)) + 1) * stride
    if when_stuck:
        buf = scratch("uint32", size, 0)
        return sweep.sweep_when_stuck(arrays.exposed, arrays.heights, arrays.stock, arrays.top,
                                      tables.drawn, tables.accepts, tables.play_next, stride,
                                      limit, stop, buf, moves_out)
    buf = scratch("uint8", size, sweep.INF)
    return sweep.sweep_any_time(arrays.exposed, arrays.heights, arrays.stock, arrays.top,
                                tables.drawn, tables.play_next, tables.pull_src, tables.pull_dst,
                                tables.width, stride, limit, stop, buf, moves_out)


def max_line(board: Board) -> int:
    """Upper bound on the length of a line: every card played and every stock card turned."""
    return sum(len(col) for col in board.tableau) + len(board.stock) + 1
