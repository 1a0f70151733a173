"""The ladder on the same positions: honest players <= the honest optimum <= the clairvoyant.

On mid-game positions of the plain king rules (small enough that every distinct order of
the stock can be solved):

* per position, ``win_p`` of ``optimal`` is at most the share of the stock's orders the
  clairvoyant solver wins (it is an average over the same orders of a player who knows
  less), and at least the share of orders each honest player wins when it plays them all
  (perfect play without peeking is the best a player can do who sees what they see);
* over the positions, with the stock in its given order, each honest player's realised win
  rate is at most the mean ``win_p`` (within 3 paired standard errors), and the mean
  ``win_p`` at most the clairvoyant win rate (likewise);
* with a single stock card left, ``win_p`` is the clairvoyant verdict.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import mid_game_positions
from positions import orders

from golfstats.board import Board
from golfstats.honest import odds
from golfstats.policies import parse_policy, play_board
from golfstats.rules import parse_variant
from golfstats.solver import solve

KING_RULES = ["strict", "queens-on-kings", "putt-putt"]
HONEST = [parse_policy(s) for s in ("greedy", "lookahead", "sampling:samples=4")]


def _within(higher: np.ndarray, lower: np.ndarray) -> bool:
    """mean(higher - lower) >= -3 paired standard errors (the order holds up to noise)."""
    d = np.asarray(higher, float) - np.asarray(lower, float)
    se = d.std(ddof=1) / np.sqrt(len(d)) if len(d) > 1 else 0.0
    return d.mean() >= -3 * se - 1e-12


def _ladder(variant: str, count: int, max_stock: int):
    rules = parse_variant(variant)
    boards = mid_game_positions(rules, count=count, seed=31, max_stock=max_stock, max_cards=14)
    win_p = np.array([odds(b, rules).value.p for b in boards])
    for board, p in zip(boards, win_p, strict=True):
        every = orders(board)
        seer = np.mean([solve(o, rules).won for o in every])
        assert p <= seer + 1e-12, (variant, board)
        for policy in HONEST[:2]:  # deterministic players: their share over the same orders
            share = np.mean([play_board(rules, policy, o, key=1).won for o in every])
            assert share <= p + 1e-12, (variant, policy.spec, board)
    realised = {pol.spec: np.array([play_board(rules, pol, b, key=k).won for k, b in enumerate(boards)])
                for pol in HONEST}
    exact = np.array([solve(b, rules).won for b in boards])
    for spec, won in realised.items():
        assert _within(win_p, won), (variant, spec, won.mean(), win_p.mean())
    assert _within(exact, win_p), (variant, exact.mean(), win_p.mean())


@pytest.mark.parametrize("variant", KING_RULES)
def test_honest_players_below_the_optimum_below_the_clairvoyant(variant):
    _ladder(variant, count=60, max_stock=6)


@pytest.mark.slow
@pytest.mark.parametrize("variant", KING_RULES)
def test_ladder_on_more_positions(variant):
    _ladder(variant, count=150, max_stock=6)


@pytest.mark.parametrize("variant", KING_RULES + ["putt-putt+when-stuck", "strict+jokers1"])
def test_one_stock_card_left_is_the_clairvoyant_verdict(variant):
    rules = parse_variant(variant)
    for board in mid_game_positions(rules, count=15, seed=41, max_stock=1, max_cards=20):
        if len(board.stock) != 1:
            board = Board(board.tableau, board.stock[:1], board.foundation)
        assert odds(board, rules).value.p == float(solve(board, rules).won)
