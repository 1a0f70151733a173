"""The meet-in-the-middle solver (``kernels.golf.meet``) against the dense sweep and the
reference solver, called directly (not through the dispatch, which could hide it behind
its fallback to the sweep).

* won, strokes and stock left agree with ``sweep.sweep_any_time`` on full seeded deals of
  every golf rule set with draw any-time, both goals (goal win: won only, as each solver
  reports the first win it finds), and with ``reference_solve`` on mid-game positions
  (shorter stock, partial tableau) and under a cap;
* every line replays legally through the reference engine to the strokes reported;
* a budget too small gives ``ok`` False and leaves both buffers as they were given.

The slow run (``pytest -m slow tests/test_meet.py``) adds PySol deals 1-300 of the three
king rules against the sweep.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_solver import midgame

from golfstats.board import Board
from golfstats.deals import pysol_board, seeded_board
from golfstats.engine import score_moves
from golfstats.reference import reference_solve
from golfstats.rules import Draw, all_rule_sets, parse_variant
from golfstats.solver import max_line, solver_scratch

ANY_TIME = [r for r in all_rule_sets() if r.layout.has_stock and r.draw is Draw.ANY_TIME]
KING_RULES = [parse_variant(v) for v in ("strict", "queens-on-kings", "putt-putt")]
BIG = 5_000_000  # a budget no golf deal reaches: the meet itself answers


def _arrays(board: Board, rules):
    from golfstats.kernels.rule_tables import board_arrays, kernel_tables, tables_for

    tables = tables_for(rules, board.foundation is None)
    return tables, kernel_tables(tables), board_arrays(board, tables)


def meet(board: Board, rules, goal_win=False, cap=None, budget=BIG, key_by_kind=True):
    """``(ok, won, strokes, stock_left, moves, states)`` of the meet solver."""
    from golfstats.kernels.golf.meet import meet_any_time

    tables, kt, a = _arrays(board, rules)
    kv, kb = solver_scratch(tables.stride)
    out = np.empty(max_line(board), np.int64)
    cap = len(board.stock) if cap is None else cap
    ok, won, strokes, left, n, states = meet_any_time(kt, a.exposed, a.heights, a.stock, a.top, cap,
                                                      goal_win, kv, kb, out, budget, key_by_kind)
    return ok, bool(won), int(strokes), int(left), [int(m) for m in out[:n]] if n >= 0 else None, states


def sweep(board: Board, rules, goal_win=False):
    from golfstats.kernels.golf.sweep import sweep_any_time

    tables, kt, a = _arrays(board, rules)
    kv, _ = solver_scratch(tables.stride)
    out = np.empty(max_line(board), np.int64)
    won, strokes, left, n, _ = sweep_any_time(kt, a.exposed, a.heights, a.stock, a.top,
                                              len(board.stock), goal_win, kv, out)
    return bool(won), int(strokes), int(left)


def check_line(board: Board, rules, won: bool, strokes: int, moves) -> None:
    """The line is legal, finishes the hand, and scores what was reported."""
    assert moves is not None, "the trace failed"
    out = score_moves(rules, board.position(), moves)  # raises on an illegal move
    assert out.finished and out.won == won and out.strokes == strokes


def check_against_sweep(board: Board, rules) -> None:
    ok, won, strokes, left, moves, _ = meet(board, rules)
    assert ok
    assert (won, strokes, left) == sweep(board, rules), rules.id
    check_line(board, rules, won, strokes, moves)
    ok, won_w, strokes_w, left_w, moves_w, _ = meet(board, rules, goal_win=True)
    assert ok and won_w == won
    check_line(board, rules, won_w, strokes_w, moves_w)
    if won_w:
        assert strokes_w == -left_w >= strokes
    else:
        assert (strokes_w, left_w) == (strokes, 0), "a lost deal reports its fewest cards left"


@pytest.mark.parametrize("rules", ANY_TIME, ids=lambda r: r.id)
def test_full_deals_agree_with_the_sweep(rules):
    """6 full seeded deals per rule set with draw any-time, both goals."""
    for index in range(6):
        check_against_sweep(seeded_board(rules, 31, index), rules)


@pytest.mark.parametrize("rules", KING_RULES, ids=lambda r: r.id)
def test_pysol_deals_agree_with_the_sweep(rules):
    for number in range(1, 41):
        check_against_sweep(pysol_board(rules, number), rules)


@pytest.mark.slow
@pytest.mark.parametrize("rules", KING_RULES, ids=lambda r: r.id)
def test_pysol_deals_agree_with_the_sweep_slow(rules):
    for number in range(41, 301):
        check_against_sweep(pysol_board(rules, number), rules)


def test_backward_keys_by_kind_where_the_top_after_a_kind_is_fixed():
    """Keyed on the chain's first kind where no joker or dead Queen makes the top after a
    card depend on the top it went on: the same answers as keyed on the top, with fewer
    states; elsewhere the keys stay the tops."""
    from golfstats.kernels.golf.meet_backward import by_kind

    for rules in ANY_TIME:
        tables, kt, _ = _arrays(seeded_board(rules, 31, 0), rules)
        assert by_kind(kt.play_next, tables.stride) == (not rules.jokers and not rules.dead_queen)
    for name in ("putt-putt", "putt-putt+empty-start", "strict"):
        rules = parse_variant(name)
        fewer = 0
        for index in range(8):
            board = seeded_board(rules, 47, index)
            for goal_win in (False, True):
                by_top = meet(board, rules, goal_win, key_by_kind=False)
                kinds = meet(board, rules, goal_win)
                assert by_top[0] and kinds[0]
                # goal win: each reports the first win it meets, the same verdict
                assert kinds[1:2 if goal_win else 4] == by_top[1:2 if goal_win else 4]
                check_line(board, rules, kinds[1], kinds[2], kinds[4])
                fewer += kinds[5] < by_top[5]
        assert fewer >= 8, name


@pytest.mark.parametrize("rules", ANY_TIME, ids=lambda r: r.id)
def test_mid_game_positions_agree_with_the_reference(rules):
    """3 positions per rule set after 10-14 random legal moves: the reference solver's
    (won, strokes), the sweep's stock left, and a legal line."""
    rng = np.random.default_rng(7)
    for index in range(3):
        board = midgame(seeded_board(rules, 37, index), rules, 10 + 2 * index, rng)
        ok, won, strokes, left, moves, _ = meet(board, rules)
        assert ok
        assert (won, strokes) == reference_solve(board, rules), rules.id
        assert (won, strokes, left) == sweep(board, rules)
        check_line(board, rules, won, strokes, moves)


@pytest.mark.parametrize("name", ["strict", "putt-putt", "queens-on-kings+jokers1+dead-queen",
                                  "strict+empty-start"])
def test_cap_agrees_with_the_reference(name):
    """Only lines turning at most ``cap`` cards count: the reference solver agrees."""
    rules = parse_variant(name)
    rng = np.random.default_rng(3)
    for index in range(3):
        board = midgame(seeded_board(rules, 41, index), rules, 8, rng)
        for cap in range(0, len(board.stock) + 1, 3):
            ok, won, strokes, _, moves, _ = meet(board, rules, cap=cap)
            assert ok
            assert (won, strokes) == reference_solve(board, rules, cap=cap), cap
            drawn_in_cap = [m for m in moves if m == -1]
            assert len(drawn_in_cap) <= max(cap, 0) or not won


@pytest.mark.parametrize("name", ["strict", "putt-putt", "putt-putt+jokers2+empty-start"])
def test_a_budget_too_small_falls_back_and_restores_the_buffers(name):
    from golfstats.kernels.golf.sweep import INF

    rules = parse_variant(name)
    fell_back = 0
    for index in range(4):
        board = seeded_board(rules, 43, index)
        ok, *_ = meet(board, rules, budget=50)
        fell_back += not ok
        tables, _, _ = _arrays(board, rules)
        kv, kb = solver_scratch(tables.stride)
        assert (kv == INF).all() and (kb == 0).all()
    assert fell_back > 0
    # and a generous budget leaves them as clean
    ok, *_ = meet(seeded_board(rules, 43, 0), rules)
    kv, kb = solver_scratch(_arrays(seeded_board(rules, 43, 0), rules)[0].stride)
    assert ok and (kv == INF).all() and (kb == 0).all()


def test_the_dispatch_chooses_as_documented():
    """Through ``golfstats.solver.solve``: putt-putt deals go to the meet, and to the sweep
    when the meet reaches ``MEET_BUDGET``; strict deals and draw when-stuck go to the sweep.
    Either way the sweep's won, strokes and stock left; ``states`` tells who answered."""
    from golfstats.kernels.golf.meet import MEET_BUDGET
    from golfstats.solver import solve

    by_meet = 0
    for name in ("putt-putt", "strict", "putt-putt+when-stuck"):
        rules = parse_variant(name)
        for number in range(1, 7):
            board = pysol_board(rules, number)
            line = solve(board, rules)
            if rules.draw is Draw.ANY_TIME:
                assert (line.won, line.strokes, line.stock_left) == sweep(board, rules)
            ok, *_, states = meet(board, rules, budget=MEET_BUDGET)
            if name == "putt-putt" and ok:
                by_meet += 1
                assert line.states == states
            elif name != "putt-putt+when-stuck":
                assert line.states == _sweep_states(board, rules)
    assert by_meet >= 3


def _sweep_states(board: Board, rules) -> int:
    from golfstats.kernels.golf.sweep import sweep_any_time

    tables, kt, a = _arrays(board, rules)
    kv, _ = solver_scratch(tables.stride)
    out = np.empty(max_line(board), np.int64)
    return int(sweep_any_time(kt, a.exposed, a.heights, a.stock, a.top, len(board.stock), False,
                              kv, out)[4])
