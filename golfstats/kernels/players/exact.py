"""The exact (clairvoyant) player, batched: a chunk of deals solved and scored in one call.

For each deal (cards in layout order, ``playout.deal_inputs``) the clairvoyant solver
(``kernels.solve._solve``, the one dispatch point) finds the optimal line, and the line
is replayed here: each move is checked legal and the line scored as
``engine.line_score`` scores it (points, draws, longest chain; the clear bonus from the
solver's stock left).  The rows are those of ``golfstats.solver.solve`` deal by deal,
which the tests hold this entry to.  One compiled entry per kind of layout, so that golf
never compiles the stockless search nor the reverse.  No I/O, no RNG.
"""

from __future__ import annotations

from collections import namedtuple

import numba as nb
import numpy as np

from golfstats.kernels.constants import (
    DRAW,
    FINISHED,
    ILLEGAL_PLAN,
    NO_MOVE,
    R_DRAWS,
    R_LONGEST,
    R_N_MOVES,
    R_POINTS,
    R_STATUS,
    R_STROKES,
    R_TRUNCATED,
    R_WON,
    START_CARD,
    TRUNCATED,
)
from golfstats.kernels.core import can_play
from golfstats.kernels.players.playout import _clear_points, _play_points, deal_inputs
from golfstats.kernels.solve import _solve

#: What the solver is asked: ``stop_at_win`` (goal win), and the stockless search's
#: ``max_states``; its buffers ``kv``/``kb`` (``solver.solver_scratch``).
Ask = namedtuple("Ask", "stop_at_win max_states kv kb")
#: Where the rows go: ``out`` (one ``constants.RESULT_ROW`` per deal; status
#: ``ILLEGAL_PLAN`` is an internal error), ``states`` (per deal), and with ``record`` the
#: line of deal d in ``moves_out[d]``, padded with ``NO_MOVE``.
Rows = namedtuple("Rows", "out states moves_out record")


@nb.njit(nogil=True, inline="always")
def _score_line(kt, exposed, heights, stock, top, moves, n_moves):
    """Replay ``moves[:n_moves]`` from the position (``heights`` is played down in place):
    ``(legal, left, draws, points, longest)``, points without the clear bonus."""
    left = heights.sum()
    draws = streak = longest = points = 0
    for i in range(n_moves):
        move = moves[i]
        if move == DRAW:
            if draws >= stock.shape[0]:
                return False, left, draws, points, longest
            if kt.when_stuck and can_play(kt.play_next, exposed, heights, top):
                return False, left, draws, points, longest
            top = kt.drawn[stock[draws]]
            draws += 1
            streak = 0
        else:
            h = heights[move] if 0 <= move < heights.shape[0] else 0
            nxt = kt.play_next[top, exposed[move, h]] if h > 0 else -1
            if nxt < 0:
                return False, left, draws, points, longest
            heights[move] -= 1
            left -= 1
            top = nxt
            points += _play_points(streak)
            streak += 1
            if streak > longest:
                longest = streak
    return True, left, draws, points, longest


@nb.njit(nogil=True, inline="always")
def _exact_batch(stockless, kt, cards, layout, ask, rows):
    """Solve and score each deal of ``cards`` (layout order) into ``rows``."""
    columns, height, start, any_top = layout
    out = rows.out
    n_stock = cards.shape[1] - columns * height - (1 if start == START_CARD else 0)
    exposed = np.empty((columns, height + 1), np.int64)
    heights = np.empty(columns, np.int64)
    stock = np.empty(n_stock, np.int64)
    moves = np.empty(columns * height + n_stock + 2, np.int64)
    for d in range(cards.shape[0]):
        top = deal_inputs(cards[d], columns, height, start, any_top, kt.drawn, exposed, heights,
                          stock)
        status, won, strokes, stock_left, n, n_states = _solve(
            stockless, kt, exposed, heights, stock, top, n_stock, ask.stop_at_win,
            ask.max_states, ask.kv, ask.kb, moves)
        rows.states[d] = n_states
        out[d, R_STATUS] = FINISHED
        out[d, R_TRUNCATED] = status == TRUNCATED
        out[d, R_WON] = won
        out[d, R_STROKES] = strokes
        out[d, R_N_MOVES] = n
        if n < 0:  # the solver could not trace its line back
            out[d, R_STATUS] = ILLEGAL_PLAN
            continue
        legal, left, draws, points, longest = _score_line(kt, exposed, heights, stock, top, moves,
                                                          n)
        # a line that is not legal, or does not end as the solver says, is an internal error
        if not legal or (left == 0) != won or (won and n_stock - draws != stock_left):
            out[d, R_STATUS] = ILLEGAL_PLAN
        if won:
            points += _clear_points(stock_left)
        out[d, R_POINTS] = points
        out[d, R_DRAWS] = draws
        out[d, R_LONGEST] = longest
        if rows.record:
            rows.moves_out[d, :n] = moves[:n]
            rows.moves_out[d, n:] = NO_MOVE


@nb.njit(cache=True, nogil=True)
def _batch_golf(kt, cards, layout, ask, rows):
    _exact_batch(False, kt, cards, layout, ask, rows)


@nb.njit(cache=True, nogil=True)
def _batch_stockless(kt, cards, layout, ask, rows):
    _exact_batch(True, kt, cards, layout, ask, rows)


def exact_batch(stockless: bool):
    """The compiled entry of one kind of layout: ``(kt, cards, layout, ask, rows)``, the
    kernel tables, the deals' cards (layout order), their ``rule_tables.Layout``, an
    ``Ask`` and the ``Rows``."""
    return _batch_stockless if stockless else _batch_golf
