"""The ``optimal`` policy played out: one deal's table on any number of stock orders.

``play_orders(board, rules, orders, goal)`` values the deal once (``honest.odds``)
and plays the optimal policy on each given order of its stock from that one table: the
policy reads only the multiset, and the order only turns the cards.  ``play_optimal``
plays deals on their own orders (the ``optimal`` policy's rows).

The policy (``kernels.honest.play``): at the start and after every draw it plays the chain
to the best endpoint by the goal's rule (docs/honest-play.md; remaining ties: fewest cards
left, then the first in ``chains.enumerate_chains`` order) and draws.  Under ``Goal.WIN``
ties of p go to the fewest cards left.  An unresolved deal (budget hit) is played by the
documented fallback, the ``greedy`` player (play whenever possible, the tallest column
first, else draw), and flagged.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from golfstats.board import Board
from golfstats.cards import kind
from golfstats.deals import DealBatch, board_from_cards
from golfstats.engine import DRAW, Line
from golfstats.goals import Goal
from golfstats.honest.odds import Odds, odds
from golfstats.honest.table import Keep
from golfstats.policies.roles import FALLBACK
from golfstats.policies.spec import parse_policy
from golfstats.rules import Rules


@dataclass(frozen=True)
class OrdersPlay:
    """The optimal policy on K stock orders of one deal: the deal's ``odds`` (one table),
    and per order k ``won[k]``, ``strokes[k]``, ``moves[k]`` (engine moves) and
    ``seconds[k]`` (the play-out alone; the table's time is ``odds.stats.seconds``).
    ``fallback``: the player used when the table is unresolved ("" when none was)."""

    odds: Odds
    won: np.ndarray
    strokes: np.ndarray
    moves: tuple[tuple[int, ...], ...]
    seconds: np.ndarray
    fallback: str = ""


@dataclass(frozen=True)
class OptimalPlay:
    """One deal played by the optimal policy on its own stock order: the finished
    ``line`` (its ``states`` and ``seconds`` are the whole computation's, ``resolved`` the
    value's), the deal's ``odds`` at the start, and the ``fallback`` used ("" if none)."""

    line: Line
    odds: Odds
    fallback: str = ""


def compiled_entries(goal: Goal | str) -> tuple:
    """The compiled functions valuing a deal and playing it out for ``goal`` run (the
    passes of its value, then its play-out), for ``kernels.is_cached``."""
    from golfstats.kernels.honest import play, reach, reachable, solve, winp, wins

    goal = Goal(goal)
    if goal is Goal.STROKES:
        return solve.solve_strokes, play.play_strokes
    passes = (wins.win_sets_within, reachable.reachable_heights, reach.reach_sets, winp.layer_step)
    if goal is Goal.WIN:
        return (*passes, play.play_winp)
    return (*passes, solve.policy_values, play.play_win)


def _kinds(board: Board, order: Sequence[int]) -> np.ndarray:
    if sorted(order) != sorted(board.stock):
        raise ValueError("a stock order must hold exactly the board's stock cards")
    return np.array([kind(c) for c in order], np.int64)


def play_orders(board: Board, rules: Rules, orders: Sequence[Sequence[int]],
                goal: Goal | str = Goal.WIN, max_bytes: int | None = None,
                max_states: int | None = None, threads: int = 1) -> OrdersPlay:
    """Play the optimal policy for ``goal`` on each of ``orders`` (each a permutation of
    ``board.stock``, cards in draw order) from ONE table of the deal.

    Goals win and win-strokes: the table keeps every order (``Keep.ALL``) unless the only
    order is the board's own (``Keep.ORDER``, less memory).  Goal ``STROKES`` (the fewest
    expected strokes) values the whole reachable space once and keeps the blocks of
    values the given orders visit (``Keep.ORDER`` with ``orders``): one table serves every
    order.  Unresolved: every order is played by the registry's ``FALLBACK`` player and
    ``odds.resolved`` is False.  ``threads``: the value pass's (``odds.odds``)."""
    goal = Goal(goal)
    if not rules.layout.has_stock:
        raise ValueError(f"{rules.id} has no stock: its optimum is the exact solver's line")
    kinds = [_kinds(board, order) for order in orders]
    own = [list(order) == list(board.stock) for order in orders]
    keep = Keep.ORDER if all(own) or goal is Goal.STROKES else Keep.ALL
    further = tuple(k for k, mine in zip(kinds, own, strict=True) if not mine)
    value = odds(board, rules, goal, max_states=max_states, max_bytes=max_bytes, keep=keep,
                 orders=further if goal is Goal.STROKES else (), threads=threads)
    won, strokes, moves, seconds = [], [], [], []
    fallback = ""
    for cards, order in zip(orders, kinds, strict=True):
        started = time.perf_counter()
        if value.table is not None:
            w, s, m = value.table.play(order)
        else:  # unresolved: the documented fallback, on this order
            fallback = FALLBACK
            player = parse_policy(FALLBACK)
            line = player.info.strategy.play_board(
                player, rules, Board(board.tableau, tuple(int(c) for c in cards), board.foundation))
            w, s, m = line.won, line.strokes, line.moves
        won.append(w)
        strokes.append(s)
        moves.append(tuple(m))
        seconds.append(time.perf_counter() - started)
    return OrdersPlay(value, np.array(won, bool), np.array(strokes, np.int64), tuple(moves),
                      np.array(seconds, float), fallback)


def _boards(rules: Rules, deals) -> list[Board]:
    if isinstance(deals, Board):
        return [deals]
    if isinstance(deals, DealBatch):
        return [board_from_cards(rules, cards) for cards in deals.cards]
    if isinstance(deals, np.ndarray) and deals.ndim == 2:
        return [board_from_cards(rules, cards) for cards in deals]
    return list(deals)


def play_optimal(rules: Rules, deals, goal: Goal | str = Goal.WIN,
                 max_states: int | None = None, max_bytes: int | None = None
                 ) -> list[OptimalPlay]:
    """Play each deal (a ``Board``, boards, a ``DealBatch`` or an array of dealt cards in
    layout order) on its own stock order with the optimal policy for ``goal``
    (``play_orders`` with that one order); one ``OptimalPlay`` per deal."""
    out = []
    for board in _boards(rules, deals):
        started = time.perf_counter()
        played = play_orders(board, rules, [board.stock], goal, max_bytes, max_states)
        moves = played.moves[0]
        drawn = sum(m == DRAW for m in moves)
        o = played.odds
        line = Line.scored(moves, bool(played.won[0]), int(played.strokes[0]),
                           len(board.stock) - drawn, states=o.stats.states,
                           seconds=time.perf_counter() - started, resolved=o.resolved)
        out.append(OptimalPlay(line, o, played.fallback))
    return out
