"""One deal's honest table: the kernel's solution, kept as a handle that values positions
and plays the deal out, for ``golfstats.odds`` and its users.

``compute(board, rules, goal, keep=...)`` runs the one kernel entry of the goal
(``kernels.honest.solve``: ``solve_win`` for ``WIN`` and ``WIN_STROKES``, ``solve_strokes``
for ``STROKES``) and returns a ``Solution``: the values, the per-move values, the named
``Stats`` and, when ``keep`` asks for it, the ``Table``.  What a table keeps
(``Keep``) decides what it can answer without recomputing:

* ``Keep.VALUE``: nothing beyond the values (the cheapest; no ``Table``);
* ``Keep.ORDER``: the values the board's own stock order visits: one play-out;
* ``Keep.ALL``: every chance of winning (goal ``WIN``: every p; ``WIN_STROKES``, which
  always keeps all: every p and the policy's memo of (p, e), which grows as positions are
  asked): every order of the stock and, under ``WIN_STROKES``, the value of every position of the deal
  (``Table.value_at``).  Goal ``STROKES`` keeps the blocks of given orders only (the
  board's own, or ``orders``: every block one of them visits, so one table serves all
  their play-outs): ``Keep.ALL`` is refused for it.

A position with at most ``DIRECT_MAX_STOCK`` stock cards and ``Keep.VALUE`` is valued by
the direct search (``kernels.honest.direct``: the doc's recursion memoised, no tables),
faster there than the tables' passes; it keeps no ``Table``, so a position whose table is
asked for (``hint``, ``review``, the ``optimal`` play-outs) is always the tables'.  The
threshold was chosen on ``benchmarks/bench_optimal.py --mid-only --mid-stock K``
(docs/honest-play.md, "Small positions: the direct search").

Kernels and numpy are imported inside the functions: importing this module stays cheap.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property

import numpy as np

from golfstats.board import Board
from golfstats.engine import Top
from golfstats.goals import Goal
from golfstats.kernels.constants import COLUMNS
from golfstats.kernels.rule_tables import Arrays, KernelTables
from golfstats.layer_files import LayerFiles
from golfstats.rules import Rules

#: Default memory budget of one computation's long pass (goals win: the value pass, sized
#: before it starts; goal strokes: its state list).  A computation over it is unresolved.
DEFAULT_MAX_BYTES = 4_000_000_000
#: Goal strokes lists every reachable state: about 6 bytes of list and 16 of values each.
STROKES_BYTES_PER_STATE = 22


class Keep(StrEnum):
    VALUE = "value"
    ORDER = "order"
    ALL = "all"


@dataclass(frozen=True)
class Stats:
    """What a computation cost.  ``states``: the (heights, drawn) states valued (goals win:
    those where some position a chain reaches may be worth more than 0, of which
    ``drawn_from`` are drawn from, plus the ``policy_states`` the expected strokes needed;
    goal strokes: every reachable state).  ``peak_bytes``: the kernel's largest arrays at
    once (in memory); ``seconds``: the wall time; ``direct``: the direct search answered
    (its states are the drawn-from states it memoised), not the tables; ``disk_bytes``:
    the two layers of p were kept in files of up to this size (``layer_files``), because
    they did not fit in the memory budget; ``disk_error``: why those files could not be
    made (the computation is then unresolved)."""

    states: int
    seconds: float
    peak_bytes: int = 0
    drawn_from: int = 0
    policy_states: int = 0
    direct: bool = False
    disk_bytes: int = 0
    disk_error: str = ""


class _Memo:
    """The policy's memo of (p, e) (``kernels.honest.policy``): its arrays grow, so the
    frozen ``Table`` holds it through this cell."""

    def __init__(self, pt: tuple[np.ndarray, ...]):
        self.pt = pt


@dataclass(frozen=True, eq=False)
class Table:
    """The handle on a deal's table: the board in the kernels' terms and what the
    kernel kept (see the module docstring).  ``order``: the stock order the table was kept
    for (``Keep.ORDER``), else empty; ``sol``: goal win's chances (dr, rank index,
    offsets, values, the heights' compact index); ``path``: goal strokes' kept blocks;
    ``orders``: the further orders (kinds) goal strokes kept the blocks of."""

    goal: Goal
    keep: Keep
    kt: KernelTables
    arrays: Arrays
    top_id: int
    order: np.ndarray
    sol: tuple[np.ndarray, ...]
    path: tuple[np.ndarray, ...]
    memo: _Memo | None
    orders: tuple[np.ndarray, ...] = ()

    @cached_property
    def _codes(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The stock multiset (counts per kind) and the kernels' height and drawn-multiset
        place values (``powers``, ``d_codes``) of this deal, computed once."""
        from golfstats.kernels.core import powers
        from golfstats.kernels.honest.space import STOCK_KINDS, d_codes

        m0 = np.bincount(self.arrays.stock, minlength=STOCK_KINDS).astype(np.int64)
        return m0, powers(self.arrays.heights)[0], d_codes(m0)[0]

    def serves(self, order: np.ndarray) -> bool:
        """Whether this table plays the stock ``order`` (kinds in draw order) out."""
        order = np.asarray(order, np.int64)
        if sorted(order.tolist()) != sorted(self.arrays.stock.tolist()):
            return False
        return (self.keep is Keep.ALL or np.array_equal(order, self.order)
                or any(np.array_equal(order, o) for o in self.orders))

    def play(self, order: np.ndarray) -> tuple[bool, int, list[int]]:
        """The optimal policy's hand on the stock ``order`` (kinds in draw order, a
        permutation of the board's): (won, strokes, engine moves).  The policy's choices
        read only the multiset; the order only turns the cards."""
        from golfstats.kernels.honest.play import play_strokes, play_win, play_winp

        order = np.asarray(order, np.int64)
        if not self.serves(order):
            raise ValueError("this table does not serve that stock order (another multiset, "
                             "or a table kept for one order only)")
        a = self.arrays
        buf = np.empty(int(a.heights.sum()) + len(order) + 1, np.int64)
        status = 0
        if self.goal is Goal.WIN:
            won, strokes, n_moves = play_winp(self.kt, a.exposed, a.heights, self.top_id, order,
                                              self.sol, buf)
        elif self.goal is Goal.WIN_STROKES:
            status, won, strokes, n_moves = play_win(self.kt, a.exposed, a.heights, self.top_id,
                                                     order, self.sol, self.memo.pt, buf)
        else:
            status, won, strokes, n_moves = play_strokes(self.kt, a.exposed, a.heights,
                                                         self.top_id, order, self.path, buf)
        if status != 0:
            raise RuntimeError("optimal play-out met a state without a value (internal error)")
        return bool(won), int(strokes), [int(m) for m in buf[:n_moves]]

    def value_at(self, heights: np.ndarray, top_id: int, drawn: np.ndarray) -> tuple[float, float]:
        """The policy's (p, e) at a position of this deal: column ``heights``, the top (a
        kernel top id) and the stock kinds ``drawn`` so far (in any order).  Goal
        ``WIN_STROKES`` with ``Keep.ALL`` only: the others keep too little."""
        from golfstats.kernels.honest.inputs import Root
        from golfstats.kernels.honest.policy import position_value
        from golfstats.kernels.honest.space import BITS

        if self.goal is not Goal.WIN_STROKES or self.keep is not Keep.ALL:
            raise ValueError("positions are valued from a win-strokes table that keeps all")
        a = self.arrays
        m0, pw, pwd = self._codes
        gp = 0
        for c, h in enumerate(heights):
            gp |= int(h) << (BITS * c)
        d = int(sum(int(pwd[k]) for k in drawn))
        root = Root(self.kt, a.exposed, a.heights, self.top_id, m0)
        p, e, self.memo.pt = position_value(self.memo.pt, root, pw, pwd, len(a.stock), self.sol, gp,
                                            int(top_id), d, len(drawn))
        if np.isnan(p):
            raise RuntimeError("the policy's memo is over its budget")
        return float(p), float(e)


    def draw_value(self, heights: np.ndarray, drawn: np.ndarray) -> tuple[float, float]:
        """The policy's (p, e) of drawing now from column ``heights`` with the stock kinds
        ``drawn`` so far: the expectation over the kinds left (``Keep.ALL``, win-strokes)."""
        from golfstats.kernels.honest.policy import policy_value

        if self.goal is not Goal.WIN_STROKES or self.keep is not Keep.ALL:
            raise ValueError("draws are valued from a win-strokes table that keeps all")
        a = self.arrays
        m0, pw, pwd = self._codes
        g = int(sum(int(h) * int(pw[c]) for c, h in enumerate(heights)))
        d = int(sum(int(pwd[k]) for k in drawn))
        p, e, self.memo.pt = policy_value(self.memo.pt, self.kt, a.exposed, a.heights, pw, m0,
                                          pwd, len(a.stock), self.sol, g, d, len(drawn))
        if np.isnan(p):
            raise RuntimeError("the policy's memo is over its budget")
        return float(p), float(e)


@dataclass(frozen=True)
class Solution:
    """The kernel's answer: values (NaN when not ``resolved``; e NaN under goal ``WIN``),
    the per-move values (index c: after playing column c; ``COLUMNS``: after a draw; NaN
    where illegal), the stats and the table (None unless kept and resolved)."""

    resolved: bool
    win_p: float
    expected_strokes: float
    moves_p: np.ndarray
    moves_e: np.ndarray
    stats: Stats
    table: Table | None


def _tables(rules: Rules, board: Board, top: Top | None):
    from golfstats.kernels.rule_tables import tables_for

    top = board.position().top if top is None else top
    tables = tables_for(rules, board.foundation is None)
    try:
        return tables, tables.top_id(top)
    except KeyError:  # a top of the empty foundation on a board that has a card there
        tables = tables_for(rules, True)
        return tables, tables.top_id(top)


#: The direct search (``kernels.honest.direct``) values positions with at most this many
#: stock cards; above it the tables.  Chosen on ``benchmarks/bench_optimal.py --mid-only``
#: (docs/honest-play.md, "Small positions: the direct search"; benchmarks/README.md).
DIRECT_MAX_STOCK = 4
#: The direct search gives up (and the tables answer) at this many memoised states.
DIRECT_MAX_STATES = 4_000_000


def uses_direct(stock: int, keep: Keep) -> bool:
    """Whether ``compute`` asks the direct search first: a position with at most
    ``DIRECT_MAX_STOCK`` stock cards and no table to keep (its memo holds the states one
    position reaches, not the ``Table`` play-outs and ``value_at`` read)."""
    return stock <= DIRECT_MAX_STOCK and Keep(keep) is Keep.VALUE


def _direct(kt, arrays, top_id: int, m0, goal: Goal, max_states: int | None, memory: int,
            started: float) -> Solution | None:
    """The direct search's solution, or None when it stopped at its cap: ``DIRECT_MAX_STATES``,
    the caller's ``max_states`` or what ``memory`` holds, whichever is least.  The tables
    then answer under the caller's budgets (and report the position unresolved if it is
    over them), so a budget gives the verdict it gave before the direct search existed."""
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
    stats = Stats(int(states), time.perf_counter() - started, int(peak), int(states), direct=True)
    if goal is Goal.WIN:  # the same p; e is not part of goal win's value
        root[1] = np.nan
        me[:] = np.nan
    return Solution(True, float(root[0]), float(root[1]), mp, me, stats, None)


def compute(board: Board, rules: Rules, goal: Goal, *, keep: Keep = Keep.VALUE,
            max_states: int | None = None, max_bytes: int | None = None, top: Top | None = None,
            progress=None, orders=(), threads: int = 1) -> Solution:
    """The honest value of ``board`` (a golf board of 7 columns) for ``goal``, keeping
    ``keep``; see ``golfstats.odds.odds`` for the arguments.  ``orders`` (stock orders as
    kinds in draw order; goal strokes with ``Keep.ORDER``): the table serves these too."""
    from golfstats.kernels.honest.solve import KEEP_ALL, KEEP_LAYERS, KEEP_PATH, solve_strokes, solve_win
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
    m0 = np.bincount(arrays.stock, minlength=14).astype(np.int64)
    memory = DEFAULT_MAX_BYTES if max_bytes is None else max(int(max_bytes), 1)
    if uses_direct(len(arrays.stock), keep):
        solution = _direct(kt, arrays, top_id, m0, goal, max_states, memory, started)
        if solution is not None:
            return solution
    order = arrays.stock if keep is Keep.ORDER else np.zeros(0, np.int64)
    if goal is not Goal.STROKES:
        strokes = goal is Goal.WIN_STROKES  # the policy's e reads every p: keep all
        if strokes:
            kernel_keep = KEEP_ALL
        else:
            kernel_keep = {Keep.VALUE: KEEP_LAYERS, Keep.ORDER: KEEP_PATH, Keep.ALL: KEEP_ALL}[keep]
        sol = solve_win(kt, arrays.exposed, arrays.heights, top_id, m0, keep=kernel_keep,
                        strokes=strokes,
                        stock_order=order if keep is Keep.ORDER else None,
                        max_states=max_states, max_bytes=memory, progress=progress,
                        layers=LayerFiles, threads=threads)
        st = sol.stats
        policy_states = int(st.get("policy_states", 0))
        stats = Stats(int(st["states"]) + policy_states, time.perf_counter() - started,
                      int(st["peak_bytes"]), int(st["drawn_from"]), policy_states,
                      disk_bytes=int(st.get("disk_bytes", 0)),
                      disk_error=str(st.get("disk_error", "")))
        table = None
        if sol.resolved and keep is not Keep.VALUE:
            memo = _Memo(sol.pt) if goal is Goal.WIN_STROKES else None
            # win-strokes keeps every p and the policy's memo whatever was asked: it serves all
            kept = Keep.ALL if goal is Goal.WIN_STROKES else keep
            table = Table(goal, kept, kt, arrays, top_id, order, sol.sol, (), memo)
        return Solution(bool(sol.resolved), float(sol.p), float(sol.e), sol.moves_p, sol.moves_e,
                        stats, table)
    if progress is not None:  # goal strokes is one compiled pass
        progress("all", 0, 1, {})
    wide = tables.n_tops > 15
    proto = np.zeros(1, np.uint64 if wide else np.uint16)
    budget = memory // STROKES_BYTES_PER_STATE
    if max_states is not None:
        budget = min(budget, max(int(max_states), 1))
    kept = tuple(np.asarray(o, np.int64) for o in orders) if keep is Keep.ORDER else ()
    rows = [order] * bool(order.size) + list(kept)
    stock_orders = np.array(rows, np.int64) if rows else np.zeros((0, len(arrays.stock)), np.int64)
    resolved, root, moves, path, st = solve_strokes(
        kt, arrays.exposed, arrays.heights, top_id, m0, budget, stock_orders, proto,
        62 if wide else 15)
    stats = Stats(int(st[0]), time.perf_counter() - started,
                  int(st[3] + st[4] + path[3].nbytes + path[4].nbytes))
    table = None
    if resolved and keep is not Keep.VALUE:
        table = Table(goal, keep, kt, arrays, top_id, order, (), path, None, kept)
    return Solution(bool(resolved), float(root[0]), float(root[1]), moves[0], moves[1], stats,
                    table)
