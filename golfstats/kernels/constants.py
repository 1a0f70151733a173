"""Constants shared by the kernels and the Python code that calls them (no numba here).

Card kinds: ``JOKER_KIND`` (0) for a joker, 1..13 for the ranks, ``NO_CARD`` (14) for
"no card" (an empty column), which nothing accepts; ``N_KINDS`` is their number.
Kernels index small per-kind arrays (counts of unseen stock kinds) with ``KIND_SLOTS``
entries, a power of two above ``N_KINDS``.
"""

from __future__ import annotations

from golfstats.cards import JOKER_KIND  # noqa: E402, F401  (one definition, in cards)
from golfstats.rules import GOLF_LAYOUT, Start

NO_CARD = 14
N_KINDS = 15
KIND_SLOTS = 16

#: Golf's tableau columns.  The golf sweeps and the honest kernels loop over them with
#: this constant trip count, which lets the compiler unroll the per-column loop (it halves
#: the time per state); a move's value sits at index c of their per-move arrays, the draw's
#: at ``COLUMNS``.
COLUMNS = GOLF_LAYOUT.columns

#: A move: ``c >= 0`` plays the exposed card of column c; ``DRAW`` turns the top stock card.
DRAW = -1
#: Padding after the last move of a recorded line.
NO_MOVE = -2

#: The starts a kernel tells apart in its ``start`` argument (``rules.Start.code``); any
#: other code is an empty foundation.
START_CARD, START_ACE_OF_SPADES = Start.CARD.code, Start.ACE_OF_SPADES.code

#: How a play-out or a search ended.
FINISHED, ILLEGAL_PLAN, TRUNCATED = 0, 1, 2

#: The row a compiled play-out writes per deal (``players.playout.play_batch``), one int
#: each: how it ended (``FINISHED``...), then the played columns of a deal row
#: (``runs.schema.PLAYED``) that the kernel knows.  Address it by these names only.
RESULT_ROW = ("status", "won", "strokes", "points", "draws", "n_moves", "longest_chain",
              "truncated")
R_STATUS, R_WON, R_STROKES, R_POINTS, R_DRAWS, R_N_MOVES, R_LONGEST, R_TRUNCATED = range(8)

#: State budget of one stockless search (Black Hole, All in a Row) inside a player or
#: the solver: its hash set then holds at most 2**26 keys (512 MB).  A search that
#: reaches it stops and reports the position unresolved (``TRUNCATED``).
STOCKLESS_MAX_STATES = 20_000_000

#: Two honest values tie when they differ by at most this (``golfstats.goals.TOL``).
from golfstats.goals import TOL as HONEST_TOL  # noqa: E402, F401
