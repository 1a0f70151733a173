"""Exact solver of the stockless games (Black Hole, All in a Row): ``solve_stockless``.

A state is (column heights, top); nothing is hidden and nothing is drawn, so the hand
is one chain of plays.  The search (``stockless.search.search_pass``) is depth-first
over states with a hash set of the states seen, so each state is expanded once:

* A state is one int64 key: the heights, ``b`` bits per column (``b`` bits hold the
  tallest column: 2 for Black Hole, 3 for All in a Row), above the 4-bit top id.
  Columns holding the same remaining cards are exchangeable, so the key stored is the
  canonical one (``stockless.canon``; a lookup table per group of columns with the same
  bottom kind, kept in step with the heights).
* A child is kept only if no rule proves it lost (``stockless.rules``, each with its
  proof): the walk rule on the 13-cycle of ranks (its sums kept in step with the cards
  left; if every sum is >= 2 all children pass at once); optionally unreached ranks,
  buried cards and the successor rule.  Each is a necessary condition for a win, so no
  win is missed; lost states are never stored.
* A child with no play left is a finished position: it is recorded as a line if it
  beats the best and is neither stored nor expanded.
* All children of a state are generated first and their set slots prefetched, then
  looked up; new ones are tried in order of mobility (the plays the new top allows, the
  card the play uncovers included), then of the height of the column played.

Goal win (``stop_at_win``) stops at the first win; otherwise the position has been
proved lost (every state not pruned was expanded), and the line reported is the best
line seen (lost states count: they are reachable), played on to its end.  Goal strokes
(the fewest cards left; a win is 0) runs the same pass first: a win is optimal, and a
loss proves the optimum is at least 1, so a line leaving one card ends the search.
Otherwise a second pass, branch and bound, expands only states whose cards-left bound
(``stuck_depths``: cards that can never be played, with the cards beneath them, kept
along the line; 1 if the walk rule fails) is below the best line so far; it stops at
a line leaving one card.

What each idea gives, goal win, PySolFC deals 1-200, states stored per deal (mean) and
CPU ms per deal (mean; a shared 2-core machine, so +-20%); flags of ``search_pass``:

=====================================================  ===========  ============
rules                                                  Black Hole   All in a Row
=====================================================  ===========  ============
none (plain search, finished positions not stored)     736,750 219  138,042 34
mobility order                                         394,474 106  122,432 29
walk rule + order                                       42,182  11   49,396 13
walk rule + canonical keys (no order)                   39,622  11   45,368 12
walk + canonical + order (``DEFAULT_RULES``)            24,123 6.7   41,773 13
... + unreached ranks (implied by the walk rule)        same, +40%   same, +15%
... + buried cards                                      24,103  11   41,513 21
... + successor rule                                    24,074 8.1   41,610 16
=====================================================  ===========  ============

Not storing finished positions took the default from 26,482 / 47,805 states to the
figures above; the prefetch pass is not measurably faster (nor slower).  Goal strokes
costs 1.0x (Black Hole) and 1.6x (All in a Row) the time of goal win on deals 1-1000.
The rules that are off by default prune less than 1% more states than the walk rule
and cost more time than they save; they are kept as options (and as the cards-left
bound of the second pass), each tested to prune where it must and not where it must not.
"""

from __future__ import annotations

import numba as nb

from golfstats.kernels.constants import FINISHED, TRUNCATED
from golfstats.kernels.hashset import pool_of
from golfstats.kernels.stockless.search import LOG2_START, search_pass
from golfstats.kernels.stockless.state import (  # noqa: F401  (the flags, for callers)
    DEFAULT_RULES,
    USE_BURIED,
    USE_CANONICAL,
    USE_LAST,
    USE_ORDER,
    USE_UNREACHED,
    USE_WALK,
)


@nb.njit(cache=True, nogil=True)
def table_pool(kv):
    """The golf sweep's buffer ``kv`` (uint8, every byte ``INF`` = 255; unused by this
    search) as a pool of EMPTY int64 slots for the search's hash set
    (``hashset.pool_of``)."""
    return pool_of(kv, LOG2_START)


@nb.njit(cache=True, nogil=True)
def solve_stockless(kt, exposed, heights, top, stop_at_win, max_states, moves_out, pool):
    """Solve a stockless position.  Returns ``(status, won, cards_left, n_moves, states)``.

    ``kt``: ``tables.KernelTables`` of the rule set; ``exposed[c, h]``: kind of column c's
    exposed card at height h; ``heights``: the position's heights (any, mid-game too);
    ``top``: its top id (any top, the empty foundation included).  ``stop_at_win``: goal
    win (is it winnable?), else goal strokes (the fewest cards left; 0 if won).
    ``moves_out`` (at least ``heights.sum()`` long) receives the line: the column of
    each play, ``n_moves`` of them; replayed, it ends with no play left and exactly
    ``cards_left`` cards in the tableau.  ``states``: states stored (both passes).

    ``status`` is ``FINISHED``, or ``TRUNCATED`` when ``max_states`` states were stored
    before the search ended: the position is then unresolved (``won`` is True only if a
    win was found), never proved lost, and ``cards_left`` is what the line reaches.
    Under goal win a lost position's ``cards_left`` is what its line reaches, an upper
    bound of the optimum; under goal strokes it is the optimum.

    ``pool`` (``table_pool``: int64 slots all EMPTY, or an empty array) holds the
    hash set while it fits, so that a batch of solves allocates none; it is left all
    EMPTY again.
    """
    return _solve(kt, exposed, heights, top, stop_at_win, max_states, moves_out, DEFAULT_RULES,
                  pool)


@nb.njit(cache=True, nogil=True)
def _solve(kt, exposed, heights, top, stop_at_win, max_states, moves_out, opts, pool):
    hmax = 0
    for c in range(heights.shape[0]):
        hmax = max(hmax, heights[c])
    bits = 1
    while (1 << bits) <= hmax:
        bits += 1
    if kt.play_next.shape[0] > 16 or hmax > 7 or heights.shape[0] * bits + 4 > 62:
        raise ValueError("stockless search: at most 16 tops, columns of at most 7 cards, "
                         "and heights that fit a 62-bit key")
    if moves_out.shape[0] < heights.sum():
        raise ValueError("moves_out must hold one move per card in the tableau")
    status, won, left, n, states = search_pass(kt, exposed, heights, top, True, heights.sum(),
                                           max_states, moves_out, opts, pool)
    if status == FINISHED and not won:
        left, n = _play_on(kt, exposed, heights, top, moves_out, n)
        if not stop_at_win and left > 1:
            # the first pass proved left >= 1; find the fewest, below its line
            status, won2, left2, n2, states2 = search_pass(kt, exposed, heights, top, False, left,
                                                       max_states - states, moves_out, opts, pool)
            states += states2
            if left2 < left:
                left, n = _play_on(kt, exposed, heights, top, moves_out, n2)
    elif status == TRUNCATED and not won:
        left, n = _play_on(kt, exposed, heights, top, moves_out, n)
    return status, won, left, n, states


@nb.njit(cache=True, nogil=True)
def _play_on(kt, exposed, heights, top, moves, n):
    """Replay ``moves[:n]`` and play on (first playable column) until no play is left.
    Returns ``(cards_left, n_moves)``."""
    h = heights.copy()
    for m in range(n):
        c = moves[m]
        top = kt.play_next[top, exposed[c, h[c]]]
        h[c] -= 1
    while True:
        moved = False
        for c in range(h.shape[0]):
            if h[c] > 0 and kt.play_next[top, exposed[c, h[c]]] >= 0:
                top = kt.play_next[top, exposed[c, h[c]]]
                h[c] -= 1
                moves[n] = c
                n += 1
                moved = True
                break
        if not moved:
            return h.sum(), n
