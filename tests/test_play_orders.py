"""``play_orders``: one deal's table plays the optimal policy on K orders of its stock.

Each order's play-out is the one a fresh table for that order plays (``play_optimal`` on
the board with that stock), move for move, and the slow twin's (``reference.expectimax``)
on these small positions; the kernel runs once for all K, under every goal (goal strokes
keeps the blocks the K orders visit); an unresolved table plays every order with the
fallback, flagged.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import mid_game_positions
from positions import orders

from golfstats.board import Board
from golfstats.deals import pysol_board
from golfstats.engine import score_moves
from golfstats.honest import play_optimal, play_orders
from golfstats.reference import expectimax
from golfstats.rules import parse_variant


@pytest.mark.parametrize("goal", ["win", "win-strokes", "strokes"])
@pytest.mark.parametrize("variant", ["strict", "putt-putt", "queens-on-kings+when-stuck"])
def test_each_order_is_a_fresh_tables_and_the_twins(variant, goal):
    rules = parse_variant(variant)
    for board in mid_game_positions(rules, count=3, seed=17, max_stock=4, max_cards=10):
        boards = orders(board)
        played = play_orders(board, rules, [b.stock for b in boards], goal)
        assert played.odds.resolved and played.fallback == ""
        assert len(played.moves) == len(boards)
        for k, dealt in enumerate(boards):
            (fresh,) = play_optimal(rules, dealt, goal)
            assert played.moves[k] == tuple(fresh.line.moves)
            assert (played.won[k], played.strokes[k]) == (fresh.line.won, fresh.line.strokes)
            twin = expectimax.play_optimal(rules, dealt.position(), goal)
            assert played.moves[k] == tuple(twin)
            out = score_moves(rules, dealt.position(), played.moves[k])
            assert (out.won, out.strokes) == (played.won[k], played.strokes[k])
        # every distinct order of kinds is equally likely: the wins average to p
        assert abs(played.won.mean() - played.odds.value.p) < 1e-9
        if goal != "win":  # every distinct order equally likely: the strokes average to e
            assert abs(played.strokes.mean() - played.odds.value.e) < 1e-9
        else:  # goal win keeps every p for the play-outs and never pays for the policy's e
            assert math.isnan(played.odds.value.e)
            assert played.odds.stats.policy_states == 0


def test_one_table_for_all_orders(table_builds):
    rules = parse_variant("putt-putt")
    board = mid_game_positions(rules, count=1, seed=5, max_stock=5, max_cards=10)[0]
    rng = np.random.default_rng(1)
    stocks = [tuple(rng.permutation(board.stock).tolist()) for _ in range(8)]
    played = play_orders(board, rules, stocks, "win")
    assert table_builds == [1] and len(played.won) == 8


def test_strokes_serves_its_orders_and_unresolved_falls_back(monkeypatch):
    rules = parse_variant("strict")
    board = mid_game_positions(rules, count=1, seed=9, max_stock=5, max_cards=10)[0]
    own = play_orders(board, rules, [board.stock], "strokes")
    (fresh,) = play_optimal(rules, board, "strokes")
    assert own.moves[0] == tuple(fresh.line.moves)
    rng = np.random.default_rng(3)
    stocks = [tuple(rng.permutation(board.stock).tolist()) for _ in range(6)]
    from golfstats.honest import solve

    builds, kernel = [], solve.solve_strokes
    monkeypatch.setattr(solve, "solve_strokes", lambda *a: builds.append(1) or kernel(*a))
    both = play_orders(board, rules, stocks, "strokes")
    monkeypatch.undo()
    assert builds == [1] and both.odds.resolved
    for k, stock in enumerate(stocks):
        (alone,) = play_optimal(rules, Board(board.tableau, stock, board.foundation), "strokes")
        assert both.moves[k] == tuple(alone.line.moves) and both.strokes[k] == alone.line.strokes
    with pytest.raises(ValueError, match="stock cards"):
        play_orders(board, rules, [board.stock[1:]], "win")
    deal = pysol_board(parse_variant("queens-on-kings"), 3)
    qok = parse_variant("queens-on-kings")
    stocks = [deal.stock, deal.stock[::-1]]
    cut = play_orders(deal, qok, stocks, "win", max_states=1000)
    assert not cut.odds.resolved and cut.fallback == "greedy" and math.isnan(cut.odds.value.p)
    for k, stock in enumerate(stocks):
        out = score_moves(qok, Board(deal.tableau, stock, deal.foundation).position(), cut.moves[k])
        assert out.finished and (out.won, out.strokes) == (cut.won[k], cut.strokes[k])
