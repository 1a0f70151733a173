"""Perfect play without peeking: the honest value of a golf position, exactly.

The value (``docs/honest-play.md``) is the win probability p and the expected strokes e
of a player who sees the tableau, the top and the multiset of stock kinds, but not
their order, and plays perfectly for ``goal`` ("win": largest p, ties smallest e;
"strokes": smallest e, ties largest p).  A board's Talon order is ignored here: only its
multiset counts.  The work is done by ``golfstats.kernels.honest`` (numba, imported
inside the functions so that importing this module stays cheap).

Limits are explicit: a computation whose reachable states exceed ``max_states`` stops
and returns ``resolved=False`` with NaN values, never an approximation.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field, replace

import numpy as np

from golfstats.board import Board
from golfstats.deals import DealBatch, board_from_cards
from golfstats.engine import DRAW, Line, Position, Top, legal_moves
from golfstats.goals import Goal
from golfstats.rules import Game, Rules

GOALS = tuple(g.value for g in Goal)
#: Default memory budget of one computation's long pass (goal win: the value pass, sized
#: before it starts; goal strokes: its state list).  A computation over it is unresolved.
DEFAULT_MAX_BYTES = 4_000_000_000
#: Goal strokes lists every reachable state: about 6 bytes of list and 16 of values each.
STROKES_BYTES_PER_STATE = 22


@dataclass
class Odds:
    """The honest value of a position (NaN values when not ``resolved``; ``expected_strokes``
    NaN when only the chance of winning was asked for).

    ``states`` counts the (heights, drawn) states valued: under goal win those where some
    position a chain reaches may be worth more than 0 (``kernels.honest.reach``), of
    which ``drawn_from`` are drawn from, plus the ``policy_states`` the expected strokes
    needed; under goal strokes every reachable state.  ``peak_bytes`` is the kernel's
    largest arrays at once (the bit rows of the first passes, or the tables and values of
    the long pass), ``seconds`` the wall time.
    """

    win_p: float
    expected_strokes: float
    resolved: bool
    states: int
    seconds: float
    peak_bytes: int = 0
    drawn_from: int = 0
    policy_states: int = 0

    def to_record(self) -> dict:
        return asdict(self)


@dataclass
class OptimalPlay:
    """One deal played by the optimal honest policy (``play_optimal``): the finished
    ``line`` (``engine.Line``: moves, won, strokes, stock left, ...; its ``states`` and
    ``seconds`` are the whole computation's, ``resolved`` the value's), the deal's
    ``odds`` at the start, and the ``fallback`` player used when the value is unresolved
    ("" when none was needed)."""

    line: Line
    odds: Odds
    fallback: str = field(default="")

    @property
    def won(self) -> bool:
        return self.line.won

    @property
    def strokes(self) -> int:
        return self.line.strokes

    @property
    def moves(self) -> list[int]:
        return list(self.line.moves)

    @property
    def win_p(self) -> float:
        return self.odds.win_p

    @property
    def expected_strokes(self) -> float:
        return self.odds.expected_strokes

    @property
    def resolved(self) -> bool:
        return self.odds.resolved

    def to_record(self) -> dict:
        out = self.line.to_record()
        out["moves"] = " ".join(map(str, self.line.moves))
        out.update({f"odds_{k}": v for k, v in self.odds.to_record().items()})
        out["fallback"] = self.fallback
        return out


@dataclass
class _Solved:
    odds: Odds
    moves: tuple[np.ndarray, np.ndarray]
    path: tuple  # what kernels.honest.play's players need
    tables: object  # the board in the kernels' terms, for a play-out
    top_id: int
    arrays: object


def _check(rules: Rules, goal: str) -> None:
    if rules.game is not Game.GOLF:
        raise ValueError(f"{rules.id} has no stock: its honest optimum is the exact solver")
    if goal not in GOALS:
        raise ValueError(f"goal must be one of {', '.join(GOALS)}, not {goal!r}")


def _tables(rules: Rules, board: Board, top: Top | None):
    from golfstats.kernels.rule_tables import tables_for

    top = board.position().top if top is None else top
    tables = tables_for(rules, board.foundation is None)
    try:
        return tables, tables.top_id(top), top
    except KeyError:  # a top of the empty foundation on a board that has a card there
        tables = tables_for(rules, True)
        return tables, tables.top_id(top), top


def _solve(board: Board, rules: Rules, goal: str, max_states: int | None, top: Top | None,
           for_play: bool = False, *, win_only: bool = False,
           max_bytes: int | None = None, progress=None) -> _Solved:
    """The kernel's solution; ``for_play`` keeps what a play-out of the board's own stock
    order needs (``_play_out``)."""
    from golfstats.kernels.honest.solve import KEEP_ALL, KEEP_LAYERS, KEEP_PATH, solve_strokes, solve_win
    from golfstats.kernels.honest.space import COLUMNS, STOCK_KINDS
    from golfstats.kernels.rule_tables import board_arrays, kernel_tables

    _check(rules, goal)
    if win_only and Goal(goal) is not Goal.WIN:
        raise ValueError("the chance of winning alone is goal win's")
    if len(board.tableau) != COLUMNS:
        raise ValueError(f"the honest kernel solves {COLUMNS}-column golf boards")
    started = time.perf_counter()
    tables, top_id, _ = _tables(rules, board, top)
    arrays = board_arrays(board, tables)
    stock_order = arrays.stock if for_play else None
    m0 = np.zeros(STOCK_KINDS, np.int64)
    for k in arrays.stock:
        m0[k] += 1
    memory = DEFAULT_MAX_BYTES if max_bytes is None else max(int(max_bytes), 1)
    kt = kernel_tables(tables)
    if Goal(goal) is Goal.WIN:
        keep = KEEP_ALL if not win_only else (KEEP_PATH if stock_order is not None else KEEP_LAYERS)
        sol = solve_win(kt, arrays.exposed, arrays.heights, top_id, m0, keep=keep,
                        stock_order=stock_order, max_states=max_states, max_bytes=memory,
                        progress=progress)
        st = sol.stats
        odds = Odds(sol.p, sol.e, sol.resolved, st["states"] + st.get("policy_states", 0),
                    time.perf_counter() - started, st["peak_bytes"], st["drawn_from"],
                    st.get("policy_states", 0))
        return _Solved(odds, (sol.moves_p, sol.moves_e), (sol.sol, sol.pt), tables, top_id, arrays)
    if progress is not None:  # goal strokes is one compiled pass
        progress("all", 0, 1, {})
    wide = tables.n_tops > 15
    proto = np.zeros(1, np.uint64 if wide else np.uint16)
    budget = memory // STROKES_BYTES_PER_STATE
    if max_states is not None:
        budget = min(budget, max(int(max_states), 1))
    resolved, root, moves, path, stats = solve_strokes(
        kt, arrays.exposed, arrays.heights, top_id, m0, budget, np.asarray(arrays.stock, np.int64),
        proto, 62 if wide else 15)
    odds = Odds(float(root[0]), float(root[1]), bool(resolved), int(stats[0]),
                time.perf_counter() - started, int(stats[3] + stats[4]))
    return _Solved(odds, moves, path, tables, top_id, arrays)


def odds(board: Board, rules: Rules, goal: str = "win", max_states: int | None = None,
         top: Top | None = None, *, win_only: bool = False, max_bytes: int | None = None,
         progress=None) -> Odds:
    """The honest value of ``board`` (a deal or a mid-game position) under ``rules``.

    ``top`` overrides the top the board's foundation card stands for (a mid-game top
    such as a dead Queen or a joker's meanings, which board text cannot hold).
    ``win_only`` (goal win): the chance of winning alone, faster and in less memory
    (``expected_strokes`` NaN).  ``progress(pass_name, done, total, info)`` is told how
    a long computation goes (goal win: pass by pass and layer by layer; goal strokes: its
    one pass, "all").
    """
    return _solve(board, rules, goal, max_states, top, win_only=win_only, max_bytes=max_bytes,
                  progress=progress).odds


def move_values(board: Board, rules: Rules, goal: str = "win", max_states: int | None = None,
                top: Top | None = None) -> list[tuple[int, Odds]]:
    """For every legal move now, in ``engine.legal_moves`` order (plays in column order,
    then ``DRAW`` = -1), the value of the position after it.  Unresolved: NaN values."""
    return odds_and_moves(board, rules, goal, max_states, top)[1]


def odds_and_moves(board: Board, rules: Rules, goal: str = "win", max_states: int | None = None,
                   top: Top | None = None) -> tuple[Odds, list[tuple[int, Odds]]]:
    """``odds`` and ``move_values`` of ``board`` from one computation."""
    solved = _solve(board, rules, goal, max_states, top)
    return solved.odds, _move_odds(solved, board, rules, top)


def odds_moves_and_choice(board: Board, rules: Rules, goal: str = "win",
                          max_states: int | None = None, progress=None
                          ) -> tuple[Odds, list[tuple[int, Odds]], int | None]:
    """``odds_and_moves`` and the move the ``optimal`` policy plays now (goal win: its
    ``win-strokes`` rule, ties of p by e), all from one computation; the move is None when
    the position is unresolved or the hand is over.  The choice does not depend on the
    stock order: the policy plays a chain to its best endpoint before it draws.
    ``progress`` as for ``odds``."""
    solved = _solve(board, rules, goal, max_states, None, for_play=True, progress=progress)
    moves = _move_odds(solved, board, rules, None)
    chosen = None
    if solved.odds.resolved and moves:
        chosen = _play_out(solved, board, goal, False)[2][0]
    return solved.odds, moves, chosen


def _move_odds(solved: _Solved, board: Board, rules: Rules, top: Top | None
               ) -> list[tuple[int, Odds]]:
    base = solved.odds
    pos = board.position()
    if top is not None:
        pos = Position(pos.tableau, pos.stock, top, pos.top_card)
    out = []
    mp, me = solved.moves
    for move in legal_moves(rules, pos):
        slot = len(mp) - 1 if move == DRAW else move
        p, e = float(mp[slot]), float(me[slot])
        if base.resolved and (np.isnan(p) or np.isnan(e)):
            raise RuntimeError(f"no value for legal move {move} (internal error)")
        out.append((move, replace(base, win_p=p, expected_strokes=e)))
    return out


def _play_out(solved: _Solved, board: Board, goal: str, win_only: bool
              ) -> tuple[bool, int, list[int], str]:
    """Play ``board``'s hand (its stock order) with the policy ``solved`` holds, or with
    the fallback when it is unresolved: (won, strokes, moves, fallback)."""
    from golfstats.kernels.constants import GREEDY
    from golfstats.kernels.honest.play import play_strokes, play_win, play_winp
    from golfstats.kernels.players.playout import play_hand
    from golfstats.kernels.rule_tables import kernel_tables
    from golfstats.solver import solver_scratch

    tables, top_id, arrays = solved.tables, solved.top_id, solved.arrays
    kt = kernel_tables(tables)
    buf = np.empty(sum(map(len, board.tableau)) + len(board.stock) + 1, np.int64)
    fallback = ""
    if solved.odds.resolved:
        status = 0
        if win_only:
            won, strokes, n_moves = play_winp(kt, arrays.exposed, arrays.heights, top_id,
                                              arrays.stock, solved.path[0], buf)
        elif Goal(goal) is Goal.WIN:
            status, won, strokes, n_moves = play_win(
                kt, arrays.exposed, arrays.heights, top_id, arrays.stock, *solved.path, buf)
        else:
            status, won, strokes, n_moves = play_strokes(
                kt, arrays.exposed, arrays.heights, top_id, arrays.stock, solved.path, buf)
        if status != 0:
            raise RuntimeError("optimal play-out met a state without a value (internal error)")
    else:
        kv, kb = solver_scratch(tables.stride)
        _, won, strokes, _, _, n_moves, _, _ = play_hand(
            GREEDY, np.zeros(1, np.int64), kt, arrays.exposed, arrays.heights, arrays.stock,
            top_id, 0, kv, kb, buf)  # the greedy player, the documented fallback
        fallback = "greedy"
    return bool(won), int(strokes), [int(m) for m in buf[:n_moves]], fallback


def _boards(rules: Rules, deals) -> list[Board]:
    if isinstance(deals, Board):
        return [deals]
    if isinstance(deals, DealBatch):
        return [board_from_cards(rules, cards) for cards in deals.cards]
    if isinstance(deals, np.ndarray) and deals.ndim == 2:
        return [board_from_cards(rules, cards) for cards in deals]
    return list(deals)


def play_optimal(rules: Rules, deals, goal: str = "win", max_states: int | None = None, *,
                 win_only: bool = False, max_bytes: int | None = None) -> list[OptimalPlay]:
    """Play each deal (a ``Board``, boards, a ``DealBatch`` or an array of dealt cards in
    layout order) with the optimal honest policy; one ``OptimalPlay`` per deal.

    The policy's values are computed from the multiset of the stock; the actual order
    only supplies the card turned at each draw.  After every draw (and at the start) it
    plays the chain to the best endpoint by the doc's rule (``kernels.honest.play``;
    remaining ties: fewest cards left, then the first in ``chains.enumerate_chains``
    order) and draws.  With ``win_only`` (goal win) only the chances of winning are
    computed: ties of p are broken by the fewest cards left, then the first, and the
    expected strokes are NaN.  An unresolved deal (budget hit) is played by the fallback,
    the ``greedy`` player (play whenever possible, the tallest column first, else draw), flagged
    ``odds.resolved=False``, ``line.resolved=False`` and ``fallback="greedy"``.
    """
    out = []
    for board in _boards(rules, deals):
        started = time.perf_counter()
        solved = _solve(board, rules, goal, max_states, None, for_play=True, win_only=win_only,
                        max_bytes=max_bytes)
        won, strokes, moves, fallback = _play_out(solved, board, goal, win_only)
        drawn = sum(m == DRAW for m in moves)
        o = solved.odds
        line = Line.scored(moves, bool(won), int(strokes), len(board.stock) - drawn,
                           states=o.states, seconds=time.perf_counter() - started,
                           resolved=o.resolved)
        out.append(OptimalPlay(line, o, fallback))
    return out
