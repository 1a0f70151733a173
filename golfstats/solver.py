"""The exact (clairvoyant) solver: optimal strokes, or winnability, of any position.

``solve(board, rules)`` knows the stock order, as published solvers do.  Goal
``strokes`` finds the best stroke score: for a winnable deal the win that leaves
the most stock cards unturned, otherwise the fewest tableau cards left.  Goal
``win`` only decides winnability and stops at the first win it finds.

Golf positions (7 columns, at most 6**7 height vectors) are swept densely; the
stockless games (Black Hole, All in a Row), whose height vectors are too many for a
table, are searched with a hash set.  ``kernels.solve`` chooses.  The
stockless search has a state budget (``max_states``); a position that reaches it
comes back with ``resolved`` False, never as lost.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

import numpy as np

from golfstats.board import Board
from golfstats.engine import Line
from golfstats.goals import Goal
from golfstats.rules import Rules

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


def solver_scratch(stride: int) -> tuple[np.ndarray, np.ndarray]:
    """The sweeps' buffers, big enough for any golf position: ``kv`` (any-time, uint8
    filled with INF) and ``kb`` (when-stuck, uint32 zeros)."""
    from golfstats.kernels.golf.sweep import INF

    size = (6**7 + 1) * stride
    return scratch("uint8", size, INF), scratch("uint32", size, 0)


def solve(board: Board, rules: Rules, goal: Goal | str = Goal.STROKES,
          cap: int | None = None, max_states: int | None = None) -> Line:
    """The optimal line of ``board`` under ``rules``.  ``cap`` limits the stock cards a line
    may turn; ``max_states`` bounds the stockless search (default
    ``kernels.constants.STOCKLESS_MAX_STATES``)."""
    return solve_boards([board], rules, goal, cap, max_states)[0]


def solve_boards(boards: Iterable[Board], rules: Rules, goal: Goal | str = Goal.STROKES,
                 cap: int | None = None, max_states: int | None = None) -> list[Line]:
    """``solve`` of each board, in order, for a file of many boards: the kernel tables,
    the compiled entry and the scratch buffers are looked up once for them all (one set
    per kind of start), not once a board."""
    from golfstats.kernels.constants import STOCKLESS_MAX_STATES, TRUNCATED
    from golfstats.kernels.rule_tables import board_arrays, kernel_tables, tables_for
    from golfstats.kernels.solve import solver_for

    goal_win = Goal(goal) is Goal.WIN
    budget = STOCKLESS_MAX_STATES if max_states is None else max_states
    prepared: dict[bool, tuple] = {}
    lines = []
    for board in boards:
        started = time.perf_counter()
        empty = board.foundation is None
        if empty not in prepared:
            tables = tables_for(rules, empty)
            kt = kernel_tables(tables)
            prepared[empty] = (tables, kt, solver_for(kt.stockless), solver_scratch(tables.stride))
        tables, kt, kernel, (kv, kb) = prepared[empty]
        if not kt.stockless and len(board.tableau) != 7:
            raise ValueError("the golf solver sweeps 7-column boards")
        arrays = board_arrays(board, tables)
        moves_out = np.empty(max_line(board), np.int64)
        status, won, strokes, stock_left, n_moves, states = kernel(
            kt, arrays.exposed, arrays.heights, arrays.stock, arrays.top,
            len(board.stock) if cap is None else cap, goal_win, budget, kv, kb, moves_out)
        if n_moves < 0:
            raise RuntimeError("solver could not trace its line back (internal error)")
        lines.append(Line.scored(moves_out[:n_moves], won, strokes, stock_left,
                                 states=int(states), seconds=time.perf_counter() - started,
                                 resolved=status != TRUNCATED))
    return lines


def max_line(board: Board) -> int:
    """Upper bound on the length of a line: every card played and every stock card turned."""
    return sum(len(col) for col in board.tableau) + len(board.stock) + 1
