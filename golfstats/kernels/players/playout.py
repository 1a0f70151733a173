"""Play-outs: one hand played by an honest policy, move by move, and scored.

The loop owns the stock; a policy only ever sees the visible position (tableau,
top, how many stock cards are left and the multiset of their kinds) through
``decide``.  A decision is a *plan*: a chain of plays, possibly followed by one
draw, all chosen from what is visible; the loop checks each move is legal.  A plan
computed under a search budget that was reached marks the hand truncated.  No I/O; all
randomness comes from the deal's key (``kernels.players.rng``).

A compiled player is one *plan function*, named ``"module:function"`` in its registry
entry (``policies.strategies.CompiledPlayer``), of this contract::

    plan_function(params, kt, exposed, heights, top, n_left, unseen, rng, kv, kb, plan)
        -> (length, truncated)

``params``: the player's parameters as int64, in the order its registry entry declares
them; ``kt``: the rules' ``KernelTables``; ``exposed[c, 1..h]``: column c's kinds, its
exposed card at ``heights[c]`` (which it must not change); ``top``: the top-state id;
``n_left`` and ``unseen`` (counts per kind, ``KIND_SLOTS``): the stock as a player sees
it; ``rng``: the hand's generator state (``players.rng``); ``kv``, ``kb``: the solver's
scratch (``solver.solver_scratch``); ``plan``: where the moves go (``c >= 0`` play column
c, ``DRAW``).  It returns the plan's length (0: nothing to do) and whether a search
budget cut it short.

``entries(name)`` makes that player's compiled entries (a batch of deals, one hand, one
decision) from the loop below, so nothing here lists the players.
"""

from __future__ import annotations

import importlib
from typing import NamedTuple

import numba as nb
import numpy as np
from numba.core import types
from numba.core.errors import TypingError
from numba.core.registry import CPUDispatcher
from numba.extending import overload

from golfstats.kernels.constants import (
    DRAW,
    FINISHED,
    ILLEGAL_PLAN,
    KIND_SLOTS,
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
    START_ACE_OF_SPADES,
    START_CARD,
)
from golfstats.kernels.core import can_play, card_kind
from golfstats.kernels.players.rng import new_state
from golfstats.scoring import clear_points, play_points

_play_points = nb.njit(cache=True, nogil=True, inline="always")(play_points)
_clear_points = nb.njit(cache=True, nogil=True, inline="always")(clear_points)


def plan_function(name: str):
    """The compiled plan function ``name`` (``"package.module:function"``) names."""
    module, _, function = name.partition(":")
    try:
        found = getattr(importlib.import_module(module), function)
    except (ImportError, AttributeError, ValueError):
        found = None
    if not isinstance(found, CPUDispatcher):
        raise ValueError(f"{name!r} does not name a compiled player's plan function "
                         "(package.module:function)")
    return found


def decide(player, params, kt, exposed, heights, top, n_left, unseen, rng, kv, kb, plan):
    """The plan of ``player`` (a plan function's name, a compile-time constant) for the
    visible position: ``(length, truncated)``.  Compiled code only: the overload below
    puts the named plan function in its place while the caller is typed, so a player's
    entries compile that player's code alone, and their on-disk cache is keyed on the
    name (a string), not on a dispatcher (which pickles differently in every process)."""
    raise TypeError("decide is called from compiled code only (entries(name).plan)")


@overload(decide, inline="always", prefer_literal=True)
def _decide_named(player, params, kt, exposed, heights, top, n_left, unseen, rng, kv, kb, plan):
    if not isinstance(player, types.StringLiteral):
        raise TypingError("decide: the player must be a constant plan function name")
    chosen = plan_function(player.literal_value)

    def named(player, params, kt, exposed, heights, top, n_left, unseen, rng, kv, kb, plan):
        return chosen(params, kt, exposed, heights, top, n_left, unseen, rng, kv, kb, plan)

    return named


@nb.njit(nogil=True, inline="always")
def _hand(player, params, kt, exposed, heights0, stock, top0, key, kv, kb, moves_out):
    work = np.empty(moves_out.shape[0] + KIND_SLOTS, np.int64)
    return _play(player, params, kt, exposed, heights0.copy(), stock, top0, kv, kb, moves_out, work,
                 new_state(key))


@nb.njit(nogil=True, inline="always")
def _play(player, params, kt, exposed, heights, stock, top0, kv, kb, moves_out, work, rng):
    """``play_hand`` on caller-owned scratch: ``heights`` is played down in place, ``work``
    holds the unseen counts (``KIND_SLOTS``) then the plan; ``rng`` is the hand's generator,
    seeded by the caller from the deal's key."""
    n = stock.shape[0]
    unseen = work[:KIND_SLOTS]
    unseen[:] = 0
    for j in range(n):
        unseen[stock[j]] += 1
    plan = work[KIND_SLOTS:]
    top = top0
    k = 0
    left = heights.sum()
    points = draws = streak = longest = n_moves = 0
    status = FINISHED
    truncated = False
    while left > 0:
        n_plan, cut = decide(player, params, kt, exposed, heights, top, n - k, unseen, rng, kv, kb,
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
def _batch(player, params, kt, cards, keys, layout, kv, kb, out, moves_out, record):
    columns, height, start, any_top = layout
    n_stock = cards.shape[1] - columns * height - (1 if start == START_CARD else 0)
    exposed = np.empty((columns, height + 1), np.int64)
    heights = np.empty(columns, np.int64)
    stock = np.empty(n_stock, np.int64)
    moves = np.empty(columns * height + n_stock + 2, np.int64)
    work = np.empty(moves.shape[0] + KIND_SLOTS, np.int64)
    rng = new_state(0)
    for d in range(cards.shape[0]):
        top = deal_inputs(cards[d], columns, height, start, any_top, kt.drawn, exposed, heights, stock)
        rng[0] = np.uint64(keys[d])
        status, won, strokes, points, draws, n, longest, truncated = _play(
            player, params, kt, exposed, heights, stock, top, kv, kb, moves, work, rng)
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

class Entries(NamedTuple):
    """One player's compiled entries: ``batch`` (``play_batch``), ``hand`` (``play_hand``)
    and ``plan`` (``plan_now``), each the loop above with the player's name a constant."""

    batch: object
    hand: object
    plan: object


_MADE: dict[str, Entries] = {}


def entries(name: str) -> Entries:
    """The compiled entries of the player whose plan function ``name`` names (made once a
    process; numba compiles each on its first call, or loads it from the cache).

    Each entry is a closure over ``name``, a string: the name is a compile-time constant
    of the loop, so ``decide`` is typed as that plan function and the entry compiles that
    player's code only, and numba's cache keys the entry on the pickled string, the same
    in every process.  Each has a file name of its own in the cache (its ``__qualname__``),
    so that processes compiling two players at once never write one index.  Plan functions
    outside ``golfstats.kernels`` (a test's) are not cached on disk: the cache's directory
    hashes the kernels' sources only (``golfstats.kernels``)."""
    if name not in _MADE:
        plan_function(name)  # an unknown name fails here, not in the compiler
        _MADE[name] = _made_entries(name)
    return _MADE[name]


def _made_entries(name: str) -> Entries:
    def batch(params, kt, cards, keys, layout, kv, kb, out, moves_out, record):
        _batch(name, params, kt, cards, keys, layout, kv, kb, out, moves_out, record)

    def hand(params, kt, exposed, heights0, stock, top0, key, kv, kb, moves_out):
        return _hand(name, params, kt, exposed, heights0, stock, top0, key, kv, kb, moves_out)

    def plan(params, kt, exposed, heights, top, n_left, unseen, rng, kv, kb, plan):
        return decide(name, params, kt, exposed, heights, top, n_left, unseen, rng, kv, kb, plan)

    cache = name.startswith("golfstats.kernels.")
    own = name.replace(".", "_").replace(":", "__")
    made = []
    for entry in (batch, hand, plan):
        entry.__qualname__ = f"{entry.__name__}_{own}"
        made.append(nb.njit(cache=cache, nogil=True)(entry))
    return Entries(*made)


def play_batch(player, params, kt, cards, keys, layout, kv, kb, out, moves_out, record) -> None:
    """Play every deal of ``cards`` (laid out as ``layout``, a ``rule_tables.Layout``) with
    the plan function ``player`` names.  ``out[d]`` receives the deal's
    ``constants.RESULT_ROW`` (status, won, strokes, points, draws, n_moves, longest_chain,
    truncated); with ``record`` the moves of deal d go to ``moves_out[d]`` (padded with
    ``NO_MOVE``)."""
    entries(player).batch(params, kt, cards, keys, layout, kv, kb, out, moves_out, record)


def play_hand(player, params, kt, exposed, heights0, stock, top0, key, kv, kb, moves_out):
    """Play one hand to its end with the plan function ``player`` names.

    Returns ``(status, won, strokes, points, draws, n_moves, longest_chain, truncated)``;
    the moves are in ``moves_out[:n_moves]`` (``c >= 0`` play column c, -1 draw).
    """
    return entries(player).hand(params, kt, exposed, heights0, stock, top0, key, kv, kb,
                                moves_out)


def plan_now(player, params, kt, exposed, heights, top, n_left, unseen, rng, kv, kb, plan):
    """``decide`` called from Python: the plan of the plan function ``player`` names in a
    visible position."""
    return entries(player).plan(params, kt, exposed, heights, top, n_left, unseen, rng, kv, kb,
                                plan)
