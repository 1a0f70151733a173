"""Perfect play without peeking: the honest value of a golf position, exactly.

The value (``docs/honest-play.md``) is the win probability p and the expected strokes e
of a player who sees the tableau, the top and the multiset of stock kinds, but not
their order, and plays perfectly for a ``Goal`` (``golfstats.goals``: ``WIN`` the
largest p alone, e not computed; ``WIN_STROKES`` the largest p, ties the smallest e;
``STROKES`` the smallest e, ties the largest p).  A board's Talon order is ignored here:
only its multiset counts.  ``odds`` returns one frozen ``Odds`` for every rule set: with
a stock, from the honest kernel (``golfstats.honest_table``); without one (Black Hole,
All in a Row) nothing is hidden and the value is the exact solver's verdict.

Limits are explicit: a computation over ``max_states`` or ``max_bytes`` returns
``resolved=False`` with NaN values, never an approximation.

Memory, measured: ``max_bytes`` is the budget of the kernel's tables; ``process_bytes``
is a budget for the whole process instead, of which the tables get what the process does
not already hold (its resident set at the call: the interpreter, numpy, numba, polars and
the compiled kernels, ``resident()``).  Each ``Odds`` carries ``peak_rss_bytes``, the
process's measured peak resident set during the computation (Linux's VmHWM, reset before
it where the system allows; else the process's peak so far), beside the kernel's
``bytes_estimate`` (``Stats.peak_bytes``: the tables' bytes at their largest, or
what they would have needed when unresolved, or the W pass's bytes when it stopped
over the budget).  The W pass stops as soon as its rows are over the budget; reach's
rows are checked after their pass, which alone can hold more than the budget before the
deal is reported unresolved.  The floor is measured with the kernels loaded
(``load_kernels``).
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass, field, replace

from golfstats.board import Board
from golfstats.engine import DRAW, Position, Top, legal_moves
from golfstats.goals import Goal
from golfstats.honest_table import (
    COLUMNS,
    DEFAULT_MAX_BYTES,
    DIRECT_MAX_STOCK,
    Keep,
    Stats,
    Table,
    compute,
)
from golfstats.rules import Game, Rules

__all__ = ["DEFAULT_MAX_BYTES", "Goal", "Keep", "MoveOdds", "Odds", "Stats", "Table", "odds",
           "resident"]


@dataclass(frozen=True)
class MoveOdds:
    """A legal move (engine move: a column from 0, or ``DRAW``) and the value after it."""

    move: int
    win_p: float
    expected_strokes: float


@dataclass(frozen=True)
class Odds:
    """The honest value of a position for ``goal``: ``win_p`` and ``expected_strokes``
    (NaN when not ``resolved``; e NaN under ``Goal.WIN``), ``moves``: every legal move now
    in ``engine.legal_moves`` order with its value (empty when the hand is over, when
    unresolved, and without a stock, where the exact solver's line is the answer),
    ``stats`` (``honest_table.Stats``) and ``table``, the handle for play-outs and
    positions of the deal (None unless asked for with ``keep``, and when unresolved).
    ``exact_solver``: the value is the clairvoyant solver's (no stock: nothing hidden)."""

    goal: Goal
    win_p: float
    expected_strokes: float
    resolved: bool
    moves: tuple[MoveOdds, ...]
    stats: Stats
    table: Table | None = field(default=None, repr=False)
    exact_solver: bool = False
    #: The process's peak resident set during the computation, measured (0: not measured).
    peak_rss_bytes: int = 0

    def to_record(self) -> dict:
        """JSON-ready (NaN as None).  ``bytes_estimate``: the kernel's count of its
        tables' bytes (``Stats.peak_bytes``); ``peak_rss_bytes``: the process, measured."""
        def num(x: float) -> float | None:
            return None if math.isnan(x) else x

        return {"goal": self.goal.value, "win_p": num(self.win_p),
                "expected_strokes": num(self.expected_strokes), "resolved": self.resolved,
                "states": self.stats.states, "bytes_estimate": self.stats.peak_bytes,
                "peak_rss_bytes": self.peak_rss_bytes,
                "disk_bytes": self.stats.disk_bytes, "seconds": round(self.stats.seconds, 6)}


def resident() -> tuple[int, int]:
    """(the process's resident set now, its peak), in bytes: /proc/self/status's VmRSS and
    VmHWM; where there is no /proc, the peak (``resource``'s ru_maxrss) for both."""
    try:
        text = open("/proc/self/status").read()
        now = re.search(r"VmRSS:\s+(\d+) kB", text)
        peak = re.search(r"VmHWM:\s+(\d+) kB", text)
        if now and peak:
            return int(now.group(1)) * 1024, int(peak.group(1)) * 1024
    except OSError:
        pass
    import resource as _resource

    peak = _resource.getrusage(_resource.RUSAGE_SELF).ru_maxrss * 1024
    return peak, peak


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


def _reset_peak() -> None:
    """Start the peak resident set afresh (Linux: "5" to /proc/self/clear_refs)."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass


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
    ``keep`` what the ``table`` keeps for later (``honest_table.Keep``: nothing, the
    board's own stock order, or every order and position).  ``progress(pass_name, done,
    total, info)`` is told how a long computation goes (goals win: pass by pass and layer
    by layer; goal strokes: its one pass, "all").  ``orders`` (goal strokes, ``Keep.ORDER``):
    further stock orders (kinds in draw order) the table serves play-outs of.
    ``threads``: goal win's value pass on that many threads (the same values, bit for bit;
    fewer where their buffers would not fit in the budget; ``available_cores``).
    """
    goal = Goal(goal)
    if process_bytes is not None:
        load_kernels(board, rules, goal, keep)  # (they are part of the process's floor)
    _reset_peak()
    if rules.game is not Game.GOLF or not rules.layout.has_stock:
        return replace(_exact(board, rules, goal), peak_rss_bytes=resident()[1])
    if process_bytes is not None:
        max_bytes = max(int(process_bytes) - resident()[0], 1)
    solution = compute(board, rules, goal, keep=keep, max_states=max_states, max_bytes=max_bytes,
                       top=top, progress=progress, orders=orders, threads=threads)
    peak = resident()[1]
    moves: tuple[MoveOdds, ...] = ()
    if solution.resolved:
        moves = _move_odds(solution.moves_p, solution.moves_e, board, rules, top, goal)
    return Odds(goal, solution.win_p, solution.expected_strokes, solution.resolved, moves,
                solution.stats, solution.table, peak_rss_bytes=peak)


def _exact(board: Board, rules: Rules, goal: Goal) -> Odds:
    """Without a stock nothing is hidden: the value is the exact solver's verdict."""
    from golfstats.solver import solve

    started = time.perf_counter()
    line = solve(board, rules, Goal.WIN if goal is Goal.WIN else Goal.STROKES)
    stats = Stats(line.states, time.perf_counter() - started)
    if not line.resolved:
        return Odds(goal, math.nan, math.nan, False, (), stats, exact_solver=True)
    e = float(line.strokes) if goal.wants_strokes else math.nan
    return Odds(goal, float(line.won), e, True, (), stats, exact_solver=True)


def _move_odds(mp, me, board: Board, rules: Rules, top: Top | None, goal: Goal
               ) -> tuple[MoveOdds, ...]:
    pos = board.position()
    if top is not None:
        pos = Position(pos.tableau, pos.stock, top, pos.top_card)
    out = []
    for move in legal_moves(rules, pos):
        slot = COLUMNS if move == DRAW else move
        p, e = float(mp[slot]), float(me[slot])
        if math.isnan(p) or (goal.wants_strokes and math.isnan(e)):
            raise RuntimeError(f"no value for legal move {move} (internal error)")
        out.append(MoveOdds(move, p, e if goal.wants_strokes else math.nan))
    return tuple(out)
