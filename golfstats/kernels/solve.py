"""The one place that chooses the exact (clairvoyant) solver for a position.

Golf: under draw any-time with wrapping ranks (putt-putt: a King on top accepts an Ace)
and a stock, the meet in the middle of the stock (``kernels.golf.meet``) answers first;
when it would label more than ``meet.MEET_BUDGET`` states it hands the position, its
buffers restored, to the dense sweep (``kernels.golf.sweep``), which has no budget.
Every other golf position is swept: draw when-stuck (the meet does not model that draw
rule), and strict and queens-on-kings, where many deals are lost and a lost deal's
decisive "no" is the meet's most expensive question.  The choice is by measurement
(``benchmarks/bench_solver.py --compare``, benchmarks/README.md), on a busy machine:
putt-putt 1.3-1.4x faster with the meet (putt-putt with an empty start 2.3x, with jokers
1.2-2x), strict and queens-on-kings 0.5-0.9x (by the budget), strict with an empty
start 0.8x.  Their joker rule sets measured even to 1.3x (seeded deals), too close to
call on that machine: they stay swept.  Both give the same won, strokes and stock left;
the line may differ.  The
stockless games are searched with their pruning rules (``kernels.stockless``).  Every
caller goes through ``_solve``: compiled callers (the players that solve sampled orders)
through ``solve_position``, which picks the layout at run time, and Python
(``golfstats.solver``) through ``solver_for``, the entry of one layout, so that a golf
solve never compiles the stockless search (a minute on this machine) nor the reverse.
No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb

from golfstats.kernels.constants import FINISHED
from golfstats.kernels.golf.meet import MEET_BUDGET, meet_any_time
from golfstats.kernels.golf.sweep import sweep_any_time, sweep_when_stuck
from golfstats.kernels.stockless.solve import solve_stockless, table_pool

KING, ACE = 13, 1


@nb.njit(nogil=True, inline="always")
def use_meet(kt, stock):
    """Does the meet answer first (module doc)?  Draw any-time, a stock, wrapping ranks."""
    return (not kt.when_stuck and stock.shape[0] > 0
            and kt.play_next[kt.drawn[KING], ACE] >= 0)


@nb.njit(nogil=True, inline="always")
def _solve(stockless, kt, exposed, heights, stock, top, cap, stop_at_win, max_states, kv, kb,
           moves_out):
    # ``stockless`` is a constant wherever this is inlined: numba prunes the other branch
    if stockless:
        # the sweep's buffer ``kv`` (unused here) holds the search's hash set
        status, won, left, n_moves, states = solve_stockless(kt, exposed, heights, top,
                                                             stop_at_win, max_states, moves_out,
                                                             table_pool(kv))
        return status, won, left, 0, n_moves, states
    if use_meet(kt, stock):
        ok, won, strokes, stock_left, n_moves, states = meet_any_time(
            kt, exposed, heights, stock, top, cap, stop_at_win, kv, kb, moves_out, MEET_BUDGET)
        if ok:
            return FINISHED, won, strokes, stock_left, n_moves, states
    if kt.when_stuck:
        won, strokes, stock_left, n_moves, states = sweep_when_stuck(
            kt, exposed, heights, stock, top, cap, stop_at_win, kb, moves_out)
    else:
        won, strokes, stock_left, n_moves, states = sweep_any_time(
            kt, exposed, heights, stock, top, cap, stop_at_win, kv, moves_out)
    return FINISHED, won, strokes, stock_left, n_moves, states


@nb.njit(cache=True, nogil=True)
def solve_position(kt, exposed, heights, stock, top, cap, stop_at_win, max_states, kv, kb,
                   moves_out):
    """Optimal line of a position that knows its stock order (``stock``, kinds in draw order).

    Returns ``(status, won, strokes, stock_left, n_moves, states)``; the line is in
    ``moves_out[:n_moves]``.  Only lines turning at most ``cap`` stock cards count;
    ``stop_at_win`` stops at the first win (winnability only).  ``kv`` (uint8, filled
    with ``sweep.INF``) and ``kb`` (uint32, zeros) are the sweeps' buffers, left as they
    were given.  ``max_states`` bounds the stockless search (the dense sweep has no
    budget to hit); ``status`` is ``TRUNCATED`` when it was reached.  Without a stock,
    goal win reports a lost position's best line found, not its fewest cards left.
    """
    if kt.stockless:
        return _solve(True, kt, exposed, heights, stock, top, cap, stop_at_win, max_states, kv,
                      kb, moves_out)
    return _solve(False, kt, exposed, heights, stock, top, cap, stop_at_win, max_states, kv, kb,
                  moves_out)


@nb.njit(cache=True, nogil=True)
def _solve_golf(kt, exposed, heights, stock, top, cap, stop_at_win, max_states, kv, kb, moves_out):
    return _solve(False, kt, exposed, heights, stock, top, cap, stop_at_win, max_states, kv, kb,
                  moves_out)


@nb.njit(cache=True, nogil=True)
def _solve_stockless(kt, exposed, heights, stock, top, cap, stop_at_win, max_states, kv, kb,
                     moves_out):
    return _solve(True, kt, exposed, heights, stock, top, cap, stop_at_win, max_states, kv, kb,
                  moves_out)


def solver_for(stockless: bool):
    """``solve_position`` for one kind of layout (same arguments and result), to call from
    Python: it compiles only that layout's solver."""
    return _solve_stockless if stockless else _solve_golf
