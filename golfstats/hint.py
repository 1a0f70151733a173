"""Hints: what to play now, and a one-line reason for it.

Two kinds.  ``honest_hint(board, rules)`` (the default of ``golfstats hint``) is for a
player who cannot see the stock: it values every legal move now by perfect play without
peeking (``golfstats.odds``, docs/honest-play.md) and never reads the stock's order,
so shuffling the board's Talon changes nothing it says.  ``clairvoyant_hint`` (``--peek``)
is the exact solver's next move, knowing the order.

The honest hint lists every legal move (each play, and the draw, whose card is not
named: it is unknown) with the win chance and expected strokes of perfect honest play
after it, for a goal (``golfstats.goals.Goal``; default ``win-strokes``).  The first is
the move the ``optimal`` policy with that goal makes (docs/honest-play.md; ``win-strokes``:
the best chance to win, ties by fewer expected strokes, and where nothing can be won any
more the chain leaving the fewest cards; ``win``: the best chance, ties by the fewest
cards, no expected strokes); the others follow by win chance, then expected strokes
(goal ``strokes``: by expected strokes, then win chance).  Its reason is the first of
these that holds:

- ``only-move``: it is the only legal move;
- ``cannot-win``: (goals win, win-strokes) no move wins with a chance above TOL (no order
  of the stock left wins): it plays on to leave the fewest cards;
- ``best-chance``: (goals win, win-strokes) its win chance beats every other move's by
  more than TOL;
- ``fewer-strokes``: its win chance ties the best (within TOL, goal win-strokes) or, under
  goal strokes, it expects the fewest strokes; the runner-up's figure is named;
- ``tie``: another move is as good on every count the goal reads; the policy's tie-break
  chose this one.

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

Library code: nothing here prints.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from golfstats.board import Board
from golfstats.cards import format_card
from golfstats.engine import DRAW, Line, Position, apply, legal_moves, playable_columns
from golfstats.goals import Goal
from golfstats.odds import Odds
from golfstats.rules import Rules
from golfstats.solver import solve


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


# ------------------------------------------------------------------ honest

@dataclass(frozen=True)
class MoveValue:
    """A legal move and the honest value after it.  ``card`` is the card a play moves;
    None for a draw (the card it turns is unknown to the player)."""

    move: int
    card: int | None
    win_p: float
    expected_strokes: float


@dataclass(frozen=True)
class HonestHint:
    """Every legal move with its honest value, best first, the reason for the first, and
    the position's ``odds`` (``golfstats.odds.Odds``: its goal, values and stats)."""

    odds: Odds
    moves: tuple[MoveValue, ...]
    reason: str | None
    explanation: str

    @property
    def over(self) -> bool:
        return not self.moves

    def to_record(self) -> dict:
        """JSON-ready (moves as engine moves; the CLI names their cards).  No timing: the
        same position gives the same record."""
        value = {k: v for k, v in self.odds.to_record().items() if k != "seconds"}
        return {**value, "reason": self.reason, "explanation": self.explanation}


def honest_hint(board: Board, rules: Rules, goal: Goal | str = Goal.WIN_STROKES,
                max_states: int | None = None, max_bytes: int | None = None,
                progress=None, threads: int = 1) -> HonestHint:
    """The honest hint of ``board`` (see the module docstring).  The stock order is never
    read: only its multiset reaches the values; the move first is the one the ``optimal``
    policy with this ``goal`` plays (its first move on any order: it plays a chain to its
    best endpoint before it draws), from the same table.  ``progress`` is told how it goes
    (``golfstats.odds.odds``)."""
    from golfstats.goals import TOL
    from golfstats.odds import Keep, odds

    goal = Goal(goal)
    pos = board.position()
    position = odds(board, rules, goal, max_states=max_states, max_bytes=max_bytes,
                    keep=Keep.ORDER, progress=progress, threads=threads)
    if not position.moves or position.table is None:
        words = ("the hand is over" if position.resolved else
                 f"unresolved: the position needs more than its budget ({position.stats.states:,} "
                 "states); no honest value")
        return HonestHint(position, (), None, words)
    chosen = position.table.play(position.table.order)[2][0]
    values = [MoveValue(v.move, None if v.move == DRAW else pos.tableau[v.move][-1], v.win_p,
                        v.expected_strokes) for v in position.moves]
    first = next(v for v in values if v.move == chosen)
    rank = (lambda v: (v.expected_strokes, -v.win_p)) if goal is Goal.STROKES else \
        (lambda v: (-v.win_p, v.expected_strokes if goal.wants_strokes else 0.0))
    ordered = (first, *sorted((v for v in values if v is not first), key=rank))
    reason, words = _honest_reason(goal, ordered, TOL)
    return HonestHint(position, ordered, reason, words)


def _honest_reason(goal: Goal, moves: tuple[MoveValue, ...], tol: float) -> tuple[str, str]:
    best, rest = moves[0], moves[1:]
    if not rest:
        return "only-move", "the only legal move"
    runner = rest[0]
    wins_first = goal is not Goal.STROKES
    if wins_first and best.win_p <= tol:
        expect = (f", expecting {best.expected_strokes:.2f} strokes" if goal.wants_strokes else "")
        return "cannot-win", ("no move can win any more (no order of the stock left wins): it plays "
                              f"on to leave the fewest cards{expect}")
    if wins_first and best.win_p > runner.win_p + tol:
        return "best-chance", (f"the best chance to win: {100 * best.win_p:.1f}% "
                               f"(next best {100 * runner.win_p:.1f}%)")
    if goal.wants_strokes and runner.expected_strokes > best.expected_strokes + tol:
        tied = "ties for the best chance to win and " if wins_first else ""
        return "fewer-strokes", (f"{tied}expects the fewest strokes: {best.expected_strokes:.2f} "
                                 f"(next best {runner.expected_strokes:.2f})")
    if goal is Goal.WIN:
        return "tie", ("ties for the best chance to win; goal win plays the chain leaving the "
                       "fewest cards")
    return "tie", "as good as the next move on every count; the policy's tie-break chose it"
