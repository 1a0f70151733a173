"""What a player or a solver plays for, and when two honest values tie.

``Goal.STROKES``: the best stroke score (a win with the most stock left, else the fewest
cards left; for a player who cannot see the stock, the fewest expected strokes).
``Goal.WIN``: winning (the clairvoyant solver only decides winnability; a player who
cannot see the stock plays for the largest chance of winning).  docs/rules.md and
docs/honest-play.md define both.  Every module, kernel and command takes its goal from
here.
"""

from __future__ import annotations

from enum import StrEnum


class Goal(StrEnum):
    WIN = "win"
    STROKES = "strokes"

    @property
    def code(self) -> int:
        """The goal as the compiled kernels receive it."""
        return 0 if self is Goal.WIN else 1


#: Two honest values (win probabilities, expected strokes) tie when they differ by at most
#: this (docs/honest-play.md, "Objectives"): far above the rounding of two sums of the
#: same terms in another order (~1e-15), far below any two genuinely different values.
TOL = 1e-9
