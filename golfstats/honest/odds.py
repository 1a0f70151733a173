"""Perfect play without peeking: the honest value of a golf position, exactly.

The value (``docs/honest-play.md``) is the win probability p and the expected strokes e
of a player who sees the tableau, the top and the multiset of stock kinds, but not
their order, and plays perfectly for a ``Goal`` (``golfstats.goals``: ``WIN`` the
largest p alone, e not computed; ``WIN_STROKES`` the largest p, ties the smallest e;
``STROKES`` the smallest e, ties the largest p).  A board's Talon order is ignored here:
only its multiset counts.  ``odds`` returns one frozen ``Odds`` for every rule set: with
a stock, from the honest kernels (``compute``: ``honest.solve``'s ``solve_win`` for ``WIN``
and ``WIN_STROKES``, ``solve_strokes`` for ``STROKES``); without one (Black Hole, All in a
Row) nothing is hidden and the value is the exact solver's verdict.

Limits are explicit: a computation over ``max_states`` or ``max_bytes`` returns an
unresolved value (NaN), never an approximation; the memory budget: ``honest.memory``.

A position with at most ``DIRECT_MAX_STOCK`` stock cards and ``Keep.VALUE`` is valued by
the direct search (``kernels.honest.direct``: the doc's recursion memoised, no tables),
faster there than the tables' passes; it keeps no ``Table``, so a position whose table is
asked for (the hint, ``review``, the ``optimal`` play-outs) is always the tables'.  The
threshold was chosen on ``benchmarks/bench_optimal.py --mid-only --mid-stock K``
(docs/honest-play.md, "Small positions: the direct search").
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace

import numpy as np

from golfstats.board import Board
from golfstats.engine import DRAW, Position, Top, legal_moves
from golfstats.goals import Goal
from golfstats.honest.layer_files import LayerFiles
from golfstats.honest.memory import (
    DEFAULT_MAX_BYTES,
    reset_peak,
    resident,
)
from golfstats.honest.table import Keep, Table, _Memo
from golfstats.honest.value import MoveValue, Stats, Value
from golfstats.kernels.constants import COLUMNS
from golfstats.rules import Game, Rules

#: The direct search (``kernels.honest.direct``) values positions with at most this many
#: stock cards; above it the tables.  Chosen on ``benchmarks/bench_optimal.py --mid-only``
#: (docs/honest-play.md, "Small positions: the direct search"; benchmarks/README.md).
DIRECT_MAX_STOCK = 4
#: The direct search gives up (and the tables answer) at this many memoised states.
DIRECT_MAX_STATES = 4_000_000


@dataclass(frozen=True)
class Odds:
    """The honest value of a position for ``goal`` (``value``: NaN when not resolved; e NaN
    under ``Goal.WIN``), ``moves``: every legal move now in ``engine.legal_moves`` order
    with the value after it (empty when the hand is over, when unresolved, and without a
    stock, where the exact solver's line is the answer), ``stats`` and ``table``, the
    handle for play-outs and positions of the deal (None unless asked for with ``keep``,
    and when unresolved).  ``exact_solver``: the value is the clairvoyant solver's (no
    stock: nothing hidden)."""

    goal: Goal
    value: Value
    moves: tuple[MoveValue, ...]
    stats: Stats
    table: Table | None = field(default=None, repr=False)
    exact_solver: bool = False
    #: The process's peak resident set during the computation, measured (0: not measured).
    peak_rss_bytes: int = 0

    @property
    def resolved(self) -> bool:
        return self.value.resolved

    def to_record(self) -> dict:
        """JSON-ready (NaN as None).  ``bytes_estimate``: the kernel's count of its
        tables' bytes (``Stats.peak_bytes``); ``peak_rss_bytes``: the process, measured;
        ``partial``: ``Stats.partial``."""
        def num(x: float) -> float | None:
            return None if math.isnan(x) else x

        return {"goal": self.goal.value, "win_p": num(self.value.p),
                "expected_strokes": num(self.value.e), "resolved": self.resolved,
                "states": self.stats.states, "bytes_estimate": self.stats.peak_bytes,
                "peak_rss_bytes": self.peak_rss_bytes,
                "disk_bytes": self.stats.disk_bytes, "partial": self.stats.partial,
                "seconds": round(self.stats.seconds, 6)}


_LOADED: set = set()


def load_kernels(board: Board, rules: Rules, goal: Goal, keep: Keep = Keep.VALUE) -> None:
    """Load the compiled kernels that valuing ``board`` runs (numba loads a kernel at its
    first call: 0.1-0.3 GB of code and data), so that what the process holds before the
    tables, the floor of a process budget, is measured with them: ``board`` is valued once
    with its stock cut to ``DIRECT_MAX_STOCK + 2`` cards (0.1-0.2 s measured; once per process
    for each rule set, goal and keep)."""
    key = (rules.id, Goal(goal), keep)
    if (key in _LOADED or rules.game is not Game.GOLF or not rules.layout.has_stock
            or len(board.stock) <= DIRECT_MAX_STOCK or len(board.tableau) != COLUMNS):
        return
    small = replace(board, stock=board.stock[:DIRECT_MAX_STOCK + 2])
    compute(small, rules, Goal(goal), keep=Keep.VALUE if keep is Keep.ORDER else keep)
    _LOADED.add(key)


def odds(board: Board, rules: Rules, goal: Goal | str = Goal.WIN_STROKES, *,
         max_states: int | None = None, max_bytes: int | None = None, top: Top | None = None,
         keep: Keep = Keep.VALUE, progress=None, orders=(), process_bytes: int | None = None,
         threads: int = 1) -> Odds:
    """The honest value of ``board`` (a deal or a mid-game position) under ``rules``.

    ``top`` overrides the top the board's foundation card stands for (a mid-game top
    such as a dead Queen or a joker's meanings, which board text cannot hold).
    ``max_bytes`` (default ``DEFAULT_MAX_BYTES``) and ``max_states`` bound the work;
    ``process_bytes``, a budget of the whole process, gives the tables what the process
    does not hold at the call (at least 1 byte: a budget under the resident set leaves
    every deal with a stock unresolved).
    ``keep`` what the ``table`` keeps for later (``Keep``: nothing, the board's own stock
    order, or every order and position).  ``progress(pass_name, done, total, info)`` is
    told how a long computation goes (goals win: pass by pass and layer by layer; goal
    strokes: its one pass, "all").  ``orders`` (goal strokes, ``Keep.ORDER``): further
    stock orders (kinds in draw order) the table serves play-outs of.
    ``threads``: goal win's value pass on that many threads (the same values, bit for bit;
    fewer where their buffers would not fit in the budget; ``available_cores``).
    """
    goal = Goal(goal)
    if process_bytes is not None:
        load_kernels(board, rules, goal, keep)  # (they are part of the process's floor)
    reset_peak()
    if rules.game is not Game.GOLF or not rules.layout.has_stock:
        return replace(_exact(board, rules, goal), peak_rss_bytes=resident()[1])
    if process_bytes is not None:
        max_bytes = max(int(process_bytes) - resident()[0], 1)
    found = compute(board, rules, goal, keep=keep, max_states=max_states, max_bytes=max_bytes,
                    top=top, progress=progress, orders=orders, threads=threads)
    return replace(found, peak_rss_bytes=resident()[1])


def _exact(board: Board, rules: Rules, goal: Goal) -> Odds:
    """Without a stock nothing is hidden: the value is the exact solver's verdict."""
    from golfstats.solver import solve

    started = time.perf_counter()
    line = solve(board, rules, Goal.WIN if goal is Goal.WIN else Goal.STROKES)
    stats = Stats(line.states, time.perf_counter() - started)
    if not line.resolved:
        return Odds(goal, Value.unresolved(), (), stats, exact_solver=True)
    e = float(line.strokes) if goal.wants_strokes else math.nan
    return Odds(goal, Value(float(line.won), e), (), stats, exact_solver=True)


def compute(board: Board, rules: Rules, goal: Goal, *, keep: Keep = Keep.VALUE,
            max_states: int | None = None, max_bytes: int | None = None, top: Top | None = None,
            progress=None, orders=(), threads: int = 1) -> Odds:
    """The honest value of ``board`` (a golf board of 7 columns) for ``goal``, keeping
    ``keep``, from the kernels (``odds`` for the arguments; no peak resident set).
    ``orders`` (stock orders as kinds in draw order; goal strokes with ``Keep.ORDER``): the
    table serves these too."""
    import golfstats.honest.solve as solve
    from golfstats.kernels.honest.space import STOCK_KINDS
    from golfstats.kernels.rule_tables import board_arrays, kernel_tables

    goal = Goal(goal)
    if len(board.tableau) != COLUMNS:
        raise ValueError(f"the honest kernel solves {COLUMNS}-column golf boards")
    if goal is Goal.STROKES and keep is Keep.ALL:
        raise ValueError("goal strokes keeps the values of one stock order: a table for "
                         "every order is goal win's or win-strokes'")
    started = time.perf_counter()
    tables, top_id = _tables(rules, board, top)
    arrays = board_arrays(board, tables)
    kt = kernel_tables(tables)
    m0 = np.bincount(arrays.stock, minlength=STOCK_KINDS).astype(np.int64)
    memory = DEFAULT_MAX_BYTES if max_bytes is None else max(int(max_bytes), 1)
    solved = None
    if uses_direct(len(arrays.stock), keep):
        solved = _direct(kt, arrays, top_id, m0, goal, max_states, memory)
    order = arrays.stock if keep is Keep.ORDER else np.zeros(0, np.int64)
    start = solve.KernelPosition(kt, arrays.exposed, arrays.heights, top_id, m0)
    kept: tuple = ()
    if solved is None and goal is not Goal.STROKES:
        strokes = goal is Goal.WIN_STROKES  # the policy's e reads every p: keep all
        kernel_keep = solve.KEEP_ALL if strokes else {
            Keep.VALUE: solve.KEEP_LAYERS, Keep.ORDER: solve.KEEP_PATH, Keep.ALL: solve.KEEP_ALL}[keep]
        solved = solve.solve_win(start, keep=kernel_keep,
                                 strokes=strokes, stock_order=order if keep is Keep.ORDER else None,
                                 max_states=max_states, max_bytes=memory, progress=progress,
                                 layers=LayerFiles, threads=threads)
    elif solved is None:
        if progress is not None:  # goal strokes is one compiled pass
            progress("all", 0, 1, {})
        kept = tuple(np.asarray(o, np.int64) for o in orders) if keep is Keep.ORDER else ()
        rows = [order] * bool(order.size) + list(kept)
        stock_orders = np.array(rows, np.int64) if rows else np.zeros((0, len(arrays.stock)), np.int64)
        solved = solve.solve_strokes(start, max_states, memory, stock_orders, tables.n_tops > 15)
    stats = replace(solved.stats, seconds=time.perf_counter() - started)
    if not solved.value.resolved:
        return Odds(goal, solved.value, (), stats)
    table = None
    if keep is not Keep.VALUE:
        memo = _Memo(solved.pt) if goal is Goal.WIN_STROKES else None
        # win-strokes keeps every p and the policy's memo whatever was asked: it serves all
        held = Keep.ALL if goal is Goal.WIN_STROKES else keep
        table = Table(goal, held, board, tables, kt, arrays, top_id, order, solved.sol or (),
                      solved.path or (), memo, kept)
    moves = _move_values(solved.moves, board, rules, top, goal)
    return Odds(goal, solved.value, moves, stats, table)


def _tables(rules: Rules, board: Board, top: Top | None):
    from golfstats.kernels.rule_tables import tables_for

    top = board.position().top if top is None else top
    tables = tables_for(rules, board.foundation is None)
    try:
        return tables, tables.top_id(top)
    except KeyError:  # a top of the empty foundation on a board that has a card there
        tables = tables_for(rules, True)
        return tables, tables.top_id(top)


def uses_direct(stock: int, keep: Keep) -> bool:
    """Whether ``compute`` asks the direct search first: a position with at most
    ``DIRECT_MAX_STOCK`` stock cards and no table to keep (its memo holds the states one
    position reaches, not the ``Table`` play-outs and positions read)."""
    return stock <= DIRECT_MAX_STOCK and Keep(keep) is Keep.VALUE


def _direct(kt, arrays, top_id: int, m0, goal: Goal, max_states: int | None, memory: int):
    """The direct search's ``Solved``, or None when it stopped at its cap:
    ``DIRECT_MAX_STATES``, the caller's ``max_states`` or what ``memory`` holds, whichever is
    least.  The tables then answer under the caller's budgets (and report the position
    unresolved if it is over them), so a budget gives the verdict it gave before the direct
    search existed."""
    from golfstats.honest.solve import Solved, by_slot
    from golfstats.kernels.honest.direct import BYTES_PER_STATE, solve_direct
    from golfstats.kernels.honest.space import STROKES, WIN

    cap = min(DIRECT_MAX_STATES, max(memory // BYTES_PER_STATE, 1))
    if max_states is not None:
        cap = min(cap, max(int(max_states), 1))
    ok, root, mp, me, states, peak = solve_direct(
        kt, arrays.exposed, arrays.heights, top_id, m0, STROKES if goal is Goal.STROKES else WIN,
        cap)
    if not ok:
        return None
    stats = Stats(int(states), 0.0, int(peak), int(states), direct=True)
    if goal is Goal.WIN:  # the same p; e is not part of goal win's value
        root[1] = np.nan
        me[:] = np.nan
    return Solved(Value(float(root[0]), float(root[1])), by_slot(mp, me), stats)


def _move_values(by_slot: tuple[Value, ...], board: Board, rules: Rules, top: Top | None,
                 goal: Goal) -> tuple[MoveValue, ...]:
    """Every legal move of the position with the value after it (``by_slot``: the kernels'
    per-move values, index c after playing column c, ``COLUMNS`` after a draw)."""
    pos = board.position()
    if top is not None:
        pos = Position(pos.tableau, pos.stock, top, pos.top_card)
    out = []
    for move in legal_moves(rules, pos):
        v = by_slot[COLUMNS if move == DRAW else move]
        if math.isnan(v.p) or (goal.wants_strokes and math.isnan(v.e)):
            raise RuntimeError(f"no value for legal move {move} (internal error)")
        card = None if move == DRAW else pos.tableau[move][-1]
        out.append(MoveValue(move, card, Value(v.p, v.e if goal.wants_strokes else math.nan)))
    return tuple(out)
