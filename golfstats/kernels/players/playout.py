"""Play-outs: one hand played by an honest policy, move by move, and scored.

The loop owns the stock; a policy only ever sees the visible position (tableau,
top, how many stock cards are left and the multiset of their kinds) through
``decide``.  A decision is a *plan*: a chain of plays, possibly followed by one
draw, all chosen from what is visible; the loop checks each move is legal.  A plan
computed under a search budget that was reached marks the hand truncated.
Parameters reach a player as an int64 array in the order its registry entry declares
them.  No I/O; all randomness comes from the deal's key (``kernels.players.rng``).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.constants import (
    DRAW,
    FINISHED,
    GREEDY,
    ILLEGAL_PLAN,
    KIND_SLOTS,
    LOOKAHEAD,
    NO_CARD,
    NO_MOVE,
    R_DRAWS,
    R_LONGEST,
    R_N_MOVES,
    R_POINTS,
    R_STATUS,
    R_STROKES,
    R_TRUNCATED,
    R_WON,
    RANDOM,
    SAMPLING,
    START_ACE_OF_SPADES,
    START_CARD,
)
from golfstats.kernels.core import can_play, card_kind
from golfstats.kernels.players.lookahead import lookahead_plan
from golfstats.kernels.players.rng import below, new_state
from golfstats.kernels.players.sampling import sampling_plan, solved_plan
from golfstats.scoring import clear_points, play_points

_play_points = nb.njit(cache=True, nogil=True, inline="always")(play_points)
_clear_points = nb.njit(cache=True, nogil=True, inline="always")(clear_points)


@nb.njit(cache=True, nogil=True, inline="always")
def random_plan(kt, exposed, heights, top, n_left, rng, plan):
    """A uniformly random legal move."""
    ncols = heights.shape[0]
    options = np.empty(ncols + 1, np.int64)
    n = 0
    for c in range(ncols):
        h = heights[c]
        if h > 0 and kt.play_next[top, exposed[c, h]] >= 0:
            options[n] = c
            n += 1
    if n_left > 0 and (n == 0 or not kt.when_stuck):
        options[n] = DRAW
        n += 1
    if n == 0:
        return 0
    plan[0] = options[below(rng, n)]
    return 1


@nb.njit(cache=True, nogil=True, inline="always")
def greedy_plan(kt, exposed, heights, top, n_left, plan):
    """Play whenever possible, else draw.  Tie-break: the tallest column, then the
    leftmost (uncovering the deepest column first)."""
    best = -1
    for c in range(heights.shape[0]):
        h = heights[c]
        if h > 0 and kt.play_next[top, exposed[c, h]] >= 0 and (best < 0 or h > heights[best]):
            best = c
    if best >= 0:
        plan[0] = best
        return 1
    if n_left > 0:
        plan[0] = DRAW
        return 1
    return 0


#: Lookahead in a game without a stock (``entries``): nothing is hidden and the hand is
#: one chain, so the best plan is the exact solver's line.  An id of its own, so that
#: lookahead in golf never compiles the stockless search.
_SOLVED_LINE = -1


@nb.njit(cache=True, nogil=True, inline="always")
def decide(policy, params, kt, exposed, heights, top, n_left, unseen, rng, kv, kb, plan):
    """The plan of ``policy`` for the visible position: ``(length, truncated)`` (length 0:
    nothing to do).  Inlined with ``policy`` a constant, only that player's branch is
    compiled (``_ENTRIES``)."""
    if policy == RANDOM:
        return random_plan(kt, exposed, heights, top, n_left, rng, plan), False
    if policy == GREEDY:
        return greedy_plan(kt, exposed, heights, top, n_left, plan), False
    if policy == LOOKAHEAD:
        return lookahead_plan(params[0], kt, exposed, heights, top, n_left, unseen, plan), False
    if policy == _SOLVED_LINE:
        return solved_plan(kt, exposed, heights, np.empty(0, np.int64), top, kv, kb, plan)
    if policy == SAMPLING:
        return sampling_plan(params[0], kt, exposed, heights, top, n_left, unseen, rng, kv, kb, plan)
    raise ValueError("decide: not a compiled player's id")


@nb.njit(nogil=True, inline="always")
def _hand(policy, params, kt, exposed, heights0, stock, top0, key, kv, kb, moves_out):
    work = np.empty(moves_out.shape[0] + KIND_SLOTS, np.int64)
    return _play(policy, params, kt, exposed, heights0.copy(), stock, top0, key, kv, kb, moves_out,
                 work, new_state(key))


@nb.njit(nogil=True, inline="always")
def _play(policy, params, kt, exposed, heights, stock, top0, key, kv, kb, moves_out, work, rng):
    """``play_hand`` on caller-owned scratch: ``heights`` is played down in place, ``work``
    holds the unseen counts (``KIND_SLOTS``) then the plan; ``rng`` is reseeded from ``key``."""
    n = stock.shape[0]
    unseen = work[:KIND_SLOTS]
    unseen[:] = 0
    for j in range(n):
        unseen[stock[j]] += 1
    plan = work[KIND_SLOTS:]
    rng[0] = np.uint64(key)
    top = top0
    k = 0
    left = heights.sum()
    points = draws = streak = longest = n_moves = 0
    status = FINISHED
    truncated = False
    while left > 0:
        n_plan, cut = decide(policy, params, kt, exposed, heights, top, n - k, unseen, rng, kv, kb,
                             plan)
        truncated |= cut
        if n_plan == 0:
            break  # no legal move: the hand is over
        for i in range(n_plan):
            move = plan[i]
            if move == DRAW:
                if k >= n:
                    status = ILLEGAL_PLAN
                    break
                if kt.when_stuck and can_play(kt.play_next, exposed, heights, top):
                    status = ILLEGAL_PLAN
                    break
                kind = stock[k]
                unseen[kind] -= 1
                top = kt.drawn[kind]
                k += 1
                draws += 1
                streak = 0
            else:
                h = heights[move] if 0 <= move < heights.shape[0] else 0
                nxt = kt.play_next[top, exposed[move, h]] if h > 0 else -1
                if nxt < 0:
                    status = ILLEGAL_PLAN
                    break
                heights[move] -= 1
                left -= 1
                top = nxt
                points += _play_points(streak)
                streak += 1
                if streak > longest:
                    longest = streak
            moves_out[n_moves] = move
            n_moves += 1
            if left == 0:
                break
        if status != FINISHED:
            break
    won = left == 0
    if won:
        points += _clear_points(n - k)
        strokes = -(n - k)
    else:
        strokes = left
    return status, won, strokes, points, draws, n_moves, longest, truncated


@nb.njit(cache=True, nogil=True)
def deal_inputs(cards, columns, height, start, any_top, drawn, exposed, heights, stock):
    """Kernel inputs of one deal in layout order (``deals.seeded_deals``).

    ``start``: ``rules.Start.code`` (``START_CARD`` a card turned from the stock, ...).
    Fills ``exposed``/``heights``/``stock`` (kinds) and returns the top-state id.
    """
    for c in range(columns):
        heights[c] = height
        exposed[c, 0] = NO_CARD
        for i in range(height):
            exposed[c, i + 1] = card_kind(cards[c * height + i])
    rest = columns * height
    top = any_top
    if start == START_CARD:
        top = drawn[card_kind(cards[rest])]
        rest += 1
    elif start == START_ACE_OF_SPADES:
        top = drawn[1]
    for j in range(stock.shape[0]):
        stock[j] = card_kind(cards[rest + j])
    return top


@nb.njit(nogil=True, inline="always")
def _batch(policy, params, kt, cards, keys, columns, height, start, any_top, kv, kb, out,
           moves_out, record):
    n_stock = cards.shape[1] - columns * height - (1 if start == START_CARD else 0)
    exposed = np.empty((columns, height + 1), np.int64)
    heights = np.empty(columns, np.int64)
    stock = np.empty(n_stock, np.int64)
    moves = np.empty(columns * height + n_stock + 2, np.int64)
    work = np.empty(moves.shape[0] + KIND_SLOTS, np.int64)
    rng = new_state(0)
    for d in range(cards.shape[0]):
        top = deal_inputs(cards[d], columns, height, start, any_top, kt.drawn, exposed, heights, stock)
        status, won, strokes, points, draws, n, longest, truncated = _play(
            policy, params, kt, exposed, heights, stock, top, keys[d], kv, kb, moves, work, rng)
        out[d, R_STATUS] = status
        out[d, R_WON] = won
        out[d, R_STROKES] = strokes
        out[d, R_POINTS] = points
        out[d, R_DRAWS] = draws
        out[d, R_N_MOVES] = n
        out[d, R_LONGEST] = longest
        out[d, R_TRUNCATED] = truncated
        if record:
            moves_out[d, :n] = moves[:n]
            moves_out[d, n:] = NO_MOVE


# ------------------------------------------------------------------ the compiled entries
# One compiled function per player and entry point, each calling the inlined loop with
# the player's id as a constant, so that numba prunes the other players' branches: a
# player's first call compiles its own code only (greedy does not wait for the sampling
# player's solver).  The Python functions at the end pick the player's entry.

@nb.njit(cache=True, nogil=True)
def _batch_random(params, kt, cards, keys, columns, height, start, any_top, kv, kb, out, moves_out,
                  record):
    _batch(RANDOM, params, kt, cards, keys, columns, height, start, any_top, kv, kb, out, moves_out,
           record)


@nb.njit(cache=True, nogil=True)
def _batch_greedy(params, kt, cards, keys, columns, height, start, any_top, kv, kb, out, moves_out,
                  record):
    _batch(GREEDY, params, kt, cards, keys, columns, height, start, any_top, kv, kb, out, moves_out,
           record)


@nb.njit(cache=True, nogil=True)
def _batch_lookahead(params, kt, cards, keys, columns, height, start, any_top, kv, kb, out,
                     moves_out, record):
    _batch(LOOKAHEAD, params, kt, cards, keys, columns, height, start, any_top, kv, kb, out,
           moves_out, record)


@nb.njit(cache=True, nogil=True)
def _batch_sampling(params, kt, cards, keys, columns, height, start, any_top, kv, kb, out,
                    moves_out, record):
    _batch(SAMPLING, params, kt, cards, keys, columns, height, start, any_top, kv, kb, out,
           moves_out, record)


@nb.njit(cache=True, nogil=True)
def _hand_random(params, kt, exposed, heights0, stock, top0, key, kv, kb, moves_out):
    return _hand(RANDOM, params, kt, exposed, heights0, stock, top0, key, kv, kb, moves_out)


@nb.njit(cache=True, nogil=True)
def _hand_greedy(params, kt, exposed, heights0, stock, top0, key, kv, kb, moves_out):
    return _hand(GREEDY, params, kt, exposed, heights0, stock, top0, key, kv, kb, moves_out)


@nb.njit(cache=True, nogil=True)
def _hand_lookahead(params, kt, exposed, heights0, stock, top0, key, kv, kb, moves_out):
    return _hand(LOOKAHEAD, params, kt, exposed, heights0, stock, top0, key, kv, kb, moves_out)


@nb.njit(cache=True, nogil=True)
def _hand_sampling(params, kt, exposed, heights0, stock, top0, key, kv, kb, moves_out):
    return _hand(SAMPLING, params, kt, exposed, heights0, stock, top0, key, kv, kb, moves_out)


@nb.njit(cache=True, nogil=True)
def _plan_random(params, kt, exposed, heights, top, n_left, unseen, rng, kv, kb, plan):
    return decide(RANDOM, params, kt, exposed, heights, top, n_left, unseen, rng, kv, kb, plan)


@nb.njit(cache=True, nogil=True)
def _plan_greedy(params, kt, exposed, heights, top, n_left, unseen, rng, kv, kb, plan):
    return decide(GREEDY, params, kt, exposed, heights, top, n_left, unseen, rng, kv, kb, plan)


@nb.njit(cache=True, nogil=True)
def _plan_lookahead(params, kt, exposed, heights, top, n_left, unseen, rng, kv, kb, plan):
    return decide(LOOKAHEAD, params, kt, exposed, heights, top, n_left, unseen, rng, kv, kb, plan)


@nb.njit(cache=True, nogil=True)
def _plan_sampling(params, kt, exposed, heights, top, n_left, unseen, rng, kv, kb, plan):
    return decide(SAMPLING, params, kt, exposed, heights, top, n_left, unseen, rng, kv, kb, plan)


@nb.njit(cache=True, nogil=True)
def _batch_solved(params, kt, cards, keys, columns, height, start, any_top, kv, kb, out,
                  moves_out, record):
    _batch(_SOLVED_LINE, params, kt, cards, keys, columns, height, start, any_top, kv, kb, out,
           moves_out, record)


@nb.njit(cache=True, nogil=True)
def _hand_solved(params, kt, exposed, heights0, stock, top0, key, kv, kb, moves_out):
    return _hand(_SOLVED_LINE, params, kt, exposed, heights0, stock, top0, key, kv, kb, moves_out)


@nb.njit(cache=True, nogil=True)
def _plan_solved(params, kt, exposed, heights, top, n_left, unseen, rng, kv, kb, plan):
    return decide(_SOLVED_LINE, params, kt, exposed, heights, top, n_left, unseen, rng, kv, kb,
                  plan)


#: Player id -> its compiled (batch, hand, plan) entries.
_ENTRIES = {RANDOM: (_batch_random, _hand_random, _plan_random),
            GREEDY: (_batch_greedy, _hand_greedy, _plan_greedy),
            LOOKAHEAD: (_batch_lookahead, _hand_lookahead, _plan_lookahead),
            SAMPLING: (_batch_sampling, _hand_sampling, _plan_sampling),
            _SOLVED_LINE: (_batch_solved, _hand_solved, _plan_solved)}


def entries(policy: int, stockless: bool) -> tuple:
    """The compiled (batch, hand, plan) functions of player ``policy`` in a game with a
    stock, or without one (``kt.stockless``)."""
    if policy not in _ENTRIES or policy == _SOLVED_LINE:
        raise ValueError(f"{policy} is not a compiled player's id")
    return _ENTRIES[_SOLVED_LINE if stockless and policy == LOOKAHEAD else policy]


def play_batch(policy, params, kt, cards, keys, columns, height, start, any_top, kv, kb, out,
               moves_out, record) -> None:
    """Play every deal of ``cards`` (layout order) with player ``policy``.  ``out[d]``
    receives the deal's ``constants.RESULT_ROW`` (status, won, strokes, points, draws,
    n_moves, longest_chain, truncated); with ``record`` the moves of deal d go to
    ``moves_out[d]`` (padded with ``NO_MOVE``)."""
    batch = entries(policy, kt.stockless)[0]
    batch(params, kt, cards, keys, columns, height, start, any_top, kv, kb, out, moves_out, record)


def play_hand(policy, params, kt, exposed, heights0, stock, top0, key, kv, kb, moves_out):
    """Play one hand to its end with player ``policy``.

    Returns ``(status, won, strokes, points, draws, n_moves, longest_chain, truncated)``;
    the moves are in ``moves_out[:n_moves]`` (``c >= 0`` play column c, -1 draw).
    """
    hand = entries(policy, kt.stockless)[1]
    return hand(params, kt, exposed, heights0, stock, top0, key, kv, kb, moves_out)


def plan_now(policy, params, kt, exposed, heights, top, n_left, unseen, rng, kv, kb, plan):
    """``decide`` called from Python: the plan of player ``policy`` in a visible position."""
    plan_of = entries(policy, kt.stockless)[2]
    return plan_of(params, kt, exposed, heights, top, n_left, unseen, rng, kv, kb, plan)
