"""The lookahead player: best chain now, valued by expectation over the next draws.

For every chain of plays available now (``chains.enumerate_chains``, the empty
chain included) it values the position the chain leads to, then plays the best
chain and draws (the skeleton ``chains.chain_candidates`` / ``chain_plan``).  With
``depth`` d (1 or 2) the value of an endpoint E is the expectation, over the kind r
of the next card drawn from the unseen stock (probability unseen[r] / n_left), of

* d = 1: the leaf value of E with top r;
* d = 2: the best depth-1 value over the chains available from (E, r), with r
  removed from the unseen stock.

Leaf value: minus the tableau cards left after the longest chain available from
(E, r) (a position that can play many cards now is good, and one that has buried
its bridges is not).  A cleared tableau is worth ``WIN`` plus the stock left; with
the stock empty an endpoint is worth minus its cards left.  Under draw when-stuck a
chain may only stop where no play is left.  Ties go to the longer chain, then to
the first found.

In a game without a stock (Black Hole, All in a Row) nothing is hidden and the whole
hand is one chain: the best chain is the exact solver's line, and lookahead plays it
(``kernels.solve``; a hand whose search exceeds ``max_states`` is truncated, and says
so).  No I/O; no randomness.
"""

from __future__ import annotations

import numba as nb

from golfstats.kernels.constants import KIND_SLOTS
from golfstats.kernels.golf.chains import chain_candidates, chain_plan, enumerate_chains, longest_chain

WIN = 1000.0


@nb.njit(cache=True, nogil=True)
def _leaf(kt, exposed, heights, top, left, n_left):
    run = longest_chain(kt.play_next, exposed, heights, top)
    if run >= left:
        return WIN + n_left
    return -float(left - run)


@nb.njit(cache=True, nogil=True)
def _value_1(kt, exposed, heights, n_left, unseen):
    """Depth-1 value of drawing next from ``heights``: expected leaf over the drawn kind."""
    left = heights.sum()
    if left == 0:
        return WIN + n_left
    if n_left == 0:
        return -float(left)
    total = 0.0
    for r in range(KIND_SLOTS):
        if unseen[r] > 0:
            v = _leaf(kt, exposed, heights, kt.drawn[r], left, n_left - 1)
            total += unseen[r] / n_left * v
    return total


@nb.njit(cache=True, nogil=True)
def _best_1(kt, exposed, heights, top, n_left, unseen):
    """Best depth-1 value over the chains available from (heights, top)."""
    n, eh, et, el, parent, move = enumerate_chains(kt, exposed, heights, top)
    candidates, count = chain_candidates(kt, exposed, eh, et, n, n_left)
    best = -1e300
    for j in range(count):
        best = max(best, _value_1(kt, exposed, eh[candidates[j]], n_left, unseen))
    return best


@nb.njit(cache=True, nogil=True)
def _value_2(kt, exposed, heights, n_left, unseen):
    """Depth-2 value: expected best depth-1 chain after the drawn kind."""
    left = heights.sum()
    if left == 0:
        return WIN + n_left
    if n_left == 0:
        return -float(left)
    total = 0.0
    for r in range(KIND_SLOTS):
        if unseen[r] > 0:
            p = unseen[r] / n_left
            unseen[r] -= 1
            total += p * _best_1(kt, exposed, heights, kt.drawn[r], n_left - 1, unseen)
            unseen[r] += 1
    return total


@nb.njit(cache=True, nogil=True)
def lookahead_plan(depth, kt, exposed, heights, top, n_left, unseen, plan):
    """Plan: the best chain, then a draw (if the stock is not empty and cards remain)."""
    n, eh, et, el, parent, move = enumerate_chains(kt, exposed, heights, top)
    candidates, count = chain_candidates(kt, exposed, eh, et, n, n_left)
    best = -1e300
    best_i = -1
    for j in range(count):
        i = candidates[j]
        if depth >= 2:
            v = _value_2(kt, exposed, eh[i], n_left, unseen)
        else:
            v = _value_1(kt, exposed, eh[i], n_left, unseen)
        if v > best + 1e-9 or (v > best - 1e-9 and el[i] > el[best_i]):
            best = v
            best_i = i
    if best_i < 0:
        return 0
    return chain_plan(best_i, eh, el, parent, move, n_left, plan)
