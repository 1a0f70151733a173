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

Speed, with the same values to the bit (so the same decisions): a leaf's longest chain
from (E, r) is the best over the first plays r accepts of one plus the longest chain
after that play, and those are searched once per endpoint and shared by every drawn kind
(``_value_1``); endpoints with the same heights (reached in another order) share a value;
the searches run on scratch arrays allocated once per decision and stop when every card
is taken.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.constants import KIND_SLOTS
from golfstats.kernels.golf.chains import (
    chain_candidates,
    chain_plan,
    enumerate_chains,
    longest_chain_in,
)

WIN = 1000.0


@nb.njit(cache=True, nogil=True)
def scratch(ncols, cards):
    """The work arrays of one decision in a tableau of ``ncols`` columns and at most
    ``cards`` cards: the search's heights, tops, next columns and plays, an endpoint's
    heights, and per column the tops after its first play and their longest chains."""
    return (np.empty(ncols, np.int64), np.empty(cards + 1, np.int64),
            np.empty(cards + 1, np.int64), np.empty(cards + 1, np.int64),
            np.empty(ncols, np.int64), np.empty(ncols, np.int64),
            np.empty((ncols, KIND_SLOTS), np.int64), np.empty((ncols, KIND_SLOTS), np.int64))


@nb.njit(cache=True, nogil=True)
def longest_from(play_next, exposed, heights, top, total, work):
    """The most cards one chain of plays takes from (heights, top), ``total`` being
    ``heights.sum()``: ``chains.longest_chain`` on the decision's work arrays."""
    return longest_chain_in(play_next, exposed, heights, top, total, work[0], work[1], work[2],
                            work[3])


@nb.njit(cache=True, nogil=True)
def _value_1(kt, exposed, heights, n_left, unseen, work):
    """Depth-1 value of drawing next from ``heights``: expected leaf over the drawn kind.

    Leaf of kind r: minus the cards left after the longest chain from (heights, r), or
    ``WIN`` plus the stock left when it takes them all."""
    left = heights.sum()
    if left == 0:
        return WIN + n_left
    if n_left == 0:
        return -float(left)
    play_next = kt.play_next
    ncols = heights.shape[0]
    e, n_memo, memo_top, memo_run = work[4], work[5], work[6], work[7]
    for c in range(ncols):
        e[c] = heights[c]
        n_memo[c] = 0
    total = 0.0
    for r in range(KIND_SLOTS):
        if unseen[r] > 0:
            t = kt.drawn[r]
            run = 0
            for c in range(ncols):
                hc = e[c]
                if hc == 0:
                    continue
                nxt = play_next[t, exposed[c, hc]]
                if nxt < 0:
                    continue
                after = -1  # the longest chain after playing column c onto top nxt
                for k in range(n_memo[c]):
                    if memo_top[c, k] == nxt:
                        after = memo_run[c, k]
                        break
                if after < 0:
                    e[c] -= 1
                    after = longest_from(play_next, exposed, e, nxt, left - 1, work)
                    e[c] += 1
                    memo_top[c, n_memo[c]] = nxt
                    memo_run[c, n_memo[c]] = after
                    n_memo[c] += 1
                if after + 1 > run:
                    run = after + 1
                    if run == left:
                        break
            v = WIN + (n_left - 1) if run >= left else -float(left - run)
            total += unseen[r] / n_left * v
    return total


@nb.njit(cache=True, nogil=True)
def _best_1(kt, exposed, heights, top, n_left, unseen, work):
    """Best depth-1 value over the chains available from (heights, top)."""
    n, eh, et, el, parent, move = enumerate_chains(kt, exposed, heights, top)
    candidates, count = chain_candidates(kt, exposed, eh, et, n, n_left)
    best = -1e300
    for j in range(count):
        best = max(best, _value_1(kt, exposed, eh[candidates[j]], n_left, unseen, work))
    return best


@nb.njit(cache=True, nogil=True)
def _value_2(kt, exposed, heights, n_left, unseen, work):
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
            total += p * _best_1(kt, exposed, heights, kt.drawn[r], n_left - 1, unseen, work)
            unseen[r] += 1
    return total


@nb.njit(cache=True, nogil=True)
def _same_heights(eh, i, k):
    for c in range(eh.shape[1]):
        if eh[i, c] != eh[k, c]:
            return False
    return True


@nb.njit(cache=True, nogil=True)
def lookahead_plan(params, kt, exposed, heights, top, n_left, unseen, rng, kv, kb, plan):
    """Plan: the best chain, then a draw (if the stock is not empty and cards remain);
    ``params[0]`` is the depth.  The play-out's contract (``players.playout``): returns
    ``(length, False)``, never truncated."""
    depth = params[0]
    n, eh, et, el, parent, move = enumerate_chains(kt, exposed, heights, top)
    candidates, count = chain_candidates(kt, exposed, eh, et, n, n_left)
    work = scratch(heights.shape[0], heights.sum())
    values = np.empty(count, np.float64)
    best = -1e300
    best_i = -1
    for j in range(count):
        i = candidates[j]
        k = 0
        while k < j and not _same_heights(eh, i, candidates[k]):
            k += 1
        if k < j:  # a value depends on the heights alone
            v = values[k]
        elif depth >= 2:
            v = _value_2(kt, exposed, eh[i], n_left, unseen, work)
        else:
            v = _value_1(kt, exposed, eh[i], n_left, unseen, work)
        values[j] = v
        if v > best + 1e-9 or (v > best - 1e-9 and el[i] > el[best_i]):
            best = v
            best_i = i
    if best_i < 0:
        return 0, False
    return chain_plan(best_i, eh, el, parent, move, n_left, plan), False
