"""The goal: what a player or a solver plays for, one type from the command line to the
kernels, and when two honest values tie.

Three goals, each spelled once (docs/rules.md and docs/honest-play.md define them):

``Goal.WIN`` ("win"): winning only.  A player who cannot see the stock plays for the
    largest chance of winning and nothing else (ties go to the fewest cards left; no
    expected strokes are computed); the clairvoyant solver only decides winnability.
``Goal.WIN_STROKES`` ("win-strokes"): winning, ties broken by the fewest expected strokes
    (where nothing can be won any more, the chain leaving the fewest cards first).  For the
    clairvoyant solver this is ``STROKES``: a won line scores at most 0 strokes and a lost
    one at least 1, so the best strokes already win whenever a win exists.
``Goal.STROKES`` ("strokes"): the best stroke score (a win with the most stock left, else
    the fewest cards left; for a player who cannot see the stock, the fewest expected
    strokes, ties by the largest chance of winning).

Every module, kernel and command takes its goal from here.
"""

from __future__ import annotations

from enum import StrEnum


class Goal(StrEnum):
    WIN = "win"
    WIN_STROKES = "win-strokes"
    STROKES = "strokes"

    @property
    def code(self) -> int:
        """The pass the compiled kernels run: 0 the chance of winning (``WIN`` and
        ``WIN_STROKES``, whose strokes only break ties), 1 the strokes."""
        return 1 if self is Goal.STROKES else 0

    @property
    def wants_strokes(self) -> bool:
        """Expected strokes are part of the value (every goal but ``WIN``)."""
        return self is not Goal.WIN


#: Two honest values (win probabilities, expected strokes) tie when they differ by at most
#: this (docs/honest-play.md, "Objectives"): far above the rounding of two sums of the
#: same terms in another order (~1e-15), far below any two genuinely different values.
TOL = 1e-9
