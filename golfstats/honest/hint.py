"""The honest hint: what to play now without peeking, and a one-line reason for it.

``honest_hint(board, rules)`` (the default of ``golfstats hint``) is for a player who
cannot see the stock: it values every legal move now by perfect play without peeking
(``honest.odds``, docs/honest-play.md) and never reads the stock's order, so shuffling
the board's Talon changes nothing it says.  The clairvoyant hint (``--peek``), the exact
solver's next move knowing the order, is ``golfstats.solver.clairvoyant_hint``.

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

Library code: nothing here prints.
"""

from __future__ import annotations

from dataclasses import dataclass

from golfstats.board import Board
from golfstats.goals import TOL, Goal
from golfstats.honest.odds import Odds, odds
from golfstats.honest.table import Keep
from golfstats.honest.value import MoveValue
from golfstats.rules import Rules


@dataclass(frozen=True)
class HonestHint:
    """Every legal move with its honest value, best first, the reason for the first, and
    the position's ``odds`` (``Odds``: its goal, value and stats)."""

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
    (``odds``)."""
    goal = Goal(goal)
    position = odds(board, rules, goal, max_states=max_states, max_bytes=max_bytes,
                    keep=Keep.ORDER, progress=progress, threads=threads)
    if not position.moves or position.table is None:
        words = ("the hand is over" if position.resolved else
                 f"unresolved: the position needs more than its budget ({position.stats.states:,} "
                 "states); no honest value")
        return HonestHint(position, (), None, words)
    chosen = position.table.play()[2][0]
    first = next(v for v in position.moves if v.move == chosen)
    rank = (lambda v: (v.value.e, -v.value.p)) if goal is Goal.STROKES else \
        (lambda v: (-v.value.p, v.value.e if goal.wants_strokes else 0.0))
    ordered = (first, *sorted((v for v in position.moves if v is not first), key=rank))
    reason, words = _honest_reason(goal, ordered, TOL)
    return HonestHint(position, ordered, reason, words)


def _honest_reason(goal: Goal, moves: tuple[MoveValue, ...], tol: float) -> tuple[str, str]:
    best, rest = moves[0].value, moves[1:]
    if not rest:
        return "only-move", "the only legal move"
    runner = rest[0].value
    wins_first = goal is not Goal.STROKES
    if wins_first and best.p <= tol:
        expect = (f", expecting {best.e:.2f} strokes" if goal.wants_strokes else "")
        return "cannot-win", ("no move can win any more (no order of the stock left wins): it plays "
                              f"on to leave the fewest cards{expect}")
    if wins_first and best.p > runner.p + tol:
        return "best-chance", (f"the best chance to win: {100 * best.p:.1f}% "
                               f"(next best {100 * runner.p:.1f}%)")
    if goal.wants_strokes and runner.e > best.e + tol:
        tied = "ties for the best chance to win and " if wins_first else ""
        return "fewer-strokes", (f"{tied}expects the fewest strokes: {best.e:.2f} "
                                 f"(next best {runner.e:.2f})")
    if goal is Goal.WIN:
        return "tie", ("ties for the best chance to win; goal win plays the chain leaving the "
                       "fewest cards")
    return "tie", "as good as the next move on every count; the policy's tie-break chose it"
