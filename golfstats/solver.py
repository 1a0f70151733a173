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

The clairvoyant hint (``golfstats hint --peek``; the honest one is ``golfstats.honest``):
``clairvoyant_hint(board, rules)`` solves the position with the exact solver (goal
``strokes``; it knows the stock order, which the board text gives) and takes the
first move of the solver's line.  That line is optimal: if the deal can still be
won it wins with the most stock cards unturned, otherwise it leaves the fewest
tableau cards.  The reason is built by a fixed rule from facts that can be
checked, never from a guess about what a player "should" feel:

1. Outcome clause, always: ``keeps the deal winnable`` when the line wins;
   otherwise ``the deal cannot be won from here; this line leaves the fewest cards (N)``.
2. Then the first of these that holds (a tactical clause; there may be none):

   - ``ONLY_MOVE``: it is the only legal move (a draw with nothing to play says
     "no card can be played").
   - ``LONGEST_CHAIN``: a play whose chain in the line (plays up to the next draw,
     this one included) is as long as the longest chain of plays available now,
     and that is at least 2 cards.
   - ``UNCOVERS``: a play that exposes a card which the line plays later.
   - ``DRAW_FIRST``: a draw although a play is available; the line is optimal, so
     no play now does better (one may do as well).
   - ``CLEARS_COLUMN``: a play that empties its column.

When several moves are equally good the solver's line picks one of them; no clause
claims the move is the only good one unless it is the only legal one.  The longest
chain is found by a plain search over the reference engine (with no stock left, the
optimal line is itself the longest chain, so no search is needed).  Board text keeps
only the foundation's top card, so a played joker or a dead Queen on top reads as if
it had been turned from the stock; that is a limit of the format, not of the hint.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from golfstats.board import Board
from golfstats.cards import format_card
from golfstats.engine import DRAW, Line, Position, apply, legal_moves, playable_columns
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


class Reason(StrEnum):
    ONLY_MOVE = "only-move"
    LONGEST_CHAIN = "longest-chain"
    UNCOVERS = "uncovers-needed"
    DRAW_FIRST = "draw-first"
    CLEARS_COLUMN = "clears-column"


@dataclass(frozen=True)
class Hint:
    """The hint for one position.

    ``move`` is an engine move (column from 0, or ``DRAW``) and ``card`` the card it
    moves; both are None when the hand is already over.  ``chain`` counts the plays
    the line makes from this move up to its next draw; ``longest_chain`` is the
    longest chain of plays available in the position; ``uncovered`` is the card a
    play exposes (None for a draw or an emptied column).
    """

    move: int | None
    card: int | None
    reason: Reason | None
    solution: Line
    chain: int
    longest_chain: int
    uncovered: int | None
    cards_left: int

    @property
    def winnable(self) -> bool:
        return self.solution.won

    @property
    def over(self) -> bool:
        return self.move is None

    def to_record(self) -> dict:
        """JSON-ready: the reason code, its words, and the optimal line's outcome."""
        return {"reason": self.reason.value if self.reason else None,
                "explanation": self.explain(), "won": self.solution.won,
                "strokes": self.solution.strokes, "stock_left": self.solution.stock_left}

    def explain(self, card_name: Callable[[int], str] = format_card) -> str:
        """The one-line reason in words; ``card_name`` writes a card (letters by default)."""
        if self.over:
            if self.cards_left == 0:
                return "the hand is over: the tableau is clear"
            return f"the hand is over: no move is left ({self.cards_left} cards left)"
        if self.winnable:
            parts = ["keeps the deal winnable"]
        else:
            parts = ["the deal cannot be won from here; this line leaves the fewest cards "
                     f"({self.solution.strokes})"]
        if self.reason is Reason.ONLY_MOVE:
            parts.append("no card can be played" if self.move == DRAW else "the only legal move")
        elif self.reason is Reason.LONGEST_CHAIN:
            parts.append(f"starts the longest chain ({self.chain} cards)")
        elif self.reason is Reason.UNCOVERS:
            parts.append(f"uncovers a card that is needed ({card_name(self.uncovered)}, "
                         "played later in the line)")
        elif self.reason is Reason.DRAW_FIRST:
            parts.append("the line draws before playing: no play now does better")
        elif self.reason is Reason.CLEARS_COLUMN:
            parts.append(f"clears column {self.move + 1}")
        return "; ".join(parts)


def longest_chain(rules: Rules, pos: Position) -> int:
    """The most cards one chain of plays (no draw) can take from ``pos`` (reference search)."""
    memo: dict = {}

    def best(p: Position) -> int:
        key = (tuple(len(col) for col in p.tableau), p.top)
        if key not in memo:
            memo[key] = max((1 + best(apply(rules, p, c)) for c in playable_columns(rules, p)),
                            default=0)
        return memo[key]

    return best(pos)


def _chain_from(moves: list[int]) -> int:
    """Plays at the start of ``moves`` before the first draw."""
    n = 0
    for move in moves:
        if move == DRAW:
            break
        n += 1
    return n


def clairvoyant_hint(board: Board, rules: Rules) -> Hint:
    """The next move of an optimal line from ``board``, knowing the stock order, and why
    (see the module docstring)."""
    pos = board.position()
    solution = solve(board, rules, Goal.STROKES)
    legal = legal_moves(rules, pos)
    if pos.stock:
        longest = longest_chain(rules, pos)
    else:
        # with no stock the whole line is one chain, and the optimal line (fewest cards
        # left) is a longest one: no search needed (it would be the whole solve again)
        longest = _chain_from(list(solution.moves))
    if not legal:
        return Hint(None, None, None, solution, 0, longest, None, pos.cards_left())
    if not solution.moves or solution.moves[0] not in legal:
        raise RuntimeError("the solver's line does not start with a legal move (internal error)")
    move = solution.moves[0]
    if move == DRAW:
        card = pos.stock[0]
        uncovered = None
        chain = 0
    else:
        column = pos.tableau[move]
        card = column[-1]
        uncovered = column[-2] if len(column) > 1 else None
        chain = _chain_from(list(solution.moves))
    reason = _reason(list(solution.moves), legal, chain, longest, uncovered)
    return Hint(move, card, reason, solution, chain, longest, uncovered, pos.cards_left())


def _reason(line: list[int], legal: list[int], chain: int, longest: int,
            uncovered: int | None) -> Reason | None:
    move = line[0]
    if len(legal) == 1:
        return Reason.ONLY_MOVE
    if move == DRAW:
        return Reason.DRAW_FIRST
    if longest >= 2 and chain == longest:
        return Reason.LONGEST_CHAIN
    if uncovered is not None:
        # the uncovered card is the next one its column gives: it is played later
        # exactly when the line plays that column again
        return Reason.UNCOVERS if move in line[1:] else None
    return Reason.CLEARS_COLUMN
