"""Points (docs/rules.md, "Scoring"; one online house's scheme, higher is better).

A tableau card played scores ``play_points(streak)``, ``streak`` the cards played before
it since the last draw (10, 15, 20, ...); clearing the tableau adds
``clear_points(stock_left)``.  Plain arithmetic: the reference engine, the renderer and
the compiled play-out (``kernels.players.playout``) all use these two functions.
"""

from __future__ import annotations

PLAY_POINTS = 10
STREAK_BONUS = 5
CLEAR_BONUS = 100
UNTURNED_BONUS = 5


def play_points(streak: int) -> int:
    """Points of a play after ``streak`` plays without a draw."""
    return PLAY_POINTS + STREAK_BONUS * streak


def clear_points(stock_left: int) -> int:
    """Points for clearing the tableau with ``stock_left`` stock cards unturned."""
    return CLEAR_BONUS + UNTURNED_BONUS * stock_left
