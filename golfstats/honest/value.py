"""The one value of perfect play without peeking, for a position and for a move, and what
computing it cost.

``Value`` is the pair of docs/honest-play.md, ``(p, e)``: the chance of winning and the
expected strokes under optimal play for a goal, with ``resolved`` (False when a budget
stopped the computation: both NaN, never an approximation).  Under ``Goal.WIN`` e is not
part of the value and is NaN.  ``MoveValue`` is a legal move with the ``Value`` after it.
``Stats`` names what a computation counted and cost.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from golfstats.goals import TOL


@dataclass(frozen=True)
class Value:
    """``p``, the chance of winning, and ``e``, the expected strokes (NaN under goal win),
    of perfect play without peeking from a position; NaN both when not ``resolved``."""

    p: float
    e: float
    resolved: bool = True

    @staticmethod
    def unresolved() -> Value:
        return Value(math.nan, math.nan, False)

    def ties(self, other: Value) -> bool:
        """The same value within ``TOL`` on both counts."""
        return abs(self.p - other.p) <= TOL and abs(self.e - other.e) <= TOL


@dataclass(frozen=True)
class MoveValue:
    """A legal move (engine move: a column from 0, or ``DRAW``), the card it moves (None
    for a draw: the card it turns is unknown to the player) and the ``Value`` after it (a
    play: the position's after it; a draw: the expectation over the kinds it may turn)."""

    move: int
    card: int | None
    value: Value


@dataclass(frozen=True)
class Stats:
    """What a computation counted and cost.

    ``states``: the (heights, drawn) states valued (goals win: those where some position a
    chain reaches may be worth more than 0, of which ``drawn_from`` are drawn from, plus the
    ``policy_states`` the expected strokes needed; goal strokes: every reachable state).
    ``seconds``: the wall time.  ``peak_bytes``: the kernel's largest arrays at once, in
    memory (or what they would have needed, when over the budget).  ``direct``: the direct
    search answered (its states are the drawn-from states it memoised), not the tables.
    ``disk_bytes``: the two layers of p were kept in files of up to this size
    (``honest.layer_files``), because they did not fit in the memory budget;
    ``disk_error``: why those files could not be made (the computation is then unresolved).
    Goals win only: ``win_rows`` the W rows made, ``first_bytes`` the first passes' peak
    (W, then reach), ``value_bytes`` the value pass's, ``threads`` the threads it ran on,
    ``policy_bytes`` the policy's memo of (p, e).  ``partial`` (goal strokes): the listing
    of every reachable state stopped at its budget, so more than ``states`` are reachable
    and ``peak_bytes`` counts the listing alone."""

    states: int
    seconds: float
    peak_bytes: int = 0
    drawn_from: int = 0
    policy_states: int = 0
    direct: bool = False
    disk_bytes: int = 0
    disk_error: str = ""
    win_rows: int = 0
    first_bytes: int = 0
    value_bytes: int = 0
    threads: int = 1
    policy_bytes: int = 0
    partial: bool = False
