"""Hints, against oracles that do not share their code.

The honest hint (the default) is held to the plain twin of perfect play without peeking
(``golfstats.reference.expectimax``): every legal move with the twin's values, the first
being the twin policy's move; and it never reads the stock's order.  The clairvoyant
hint (``--peek``) is held to the reference solver: its move keeps the optimum, and its
reason is true of the position by plain searches of the reference engine.
"""

from __future__ import annotations

import json
import random

import pytest
from conftest import mid_game_positions
from typer.testing import CliRunner

from golfstats.board import Board, format_board, parse_board
from golfstats.cards import format_card
from golfstats.cli import app
from golfstats.engine import DRAW, apply, legal_moves
from golfstats.honest import honest_hint
from golfstats.reference.expectimax import optimal_plan, reference_move_values
from golfstats.reference.policies import View, longest_chain
from golfstats.reference.solver import reference_solve
from golfstats.rules import parse_variant

runner = CliRunner()


def _write(tmp_path, board: Board, rules, name="board.txt") -> str:
    path = tmp_path / name
    path.write_text(format_board(board, rules))
    return str(path)


def _hint(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["hint", *args])
    return result.exit_code, result.stdout


def _board(talon: str, top: str, columns: list[str], rules) -> Board:
    cols = columns + ["-"] * (7 - len(columns))
    return parse_board("\n".join([f"Talon: {talon}", f"Foundations: {top}", *cols]) + "\n", rules)


def _move_name(board: Board, move: int) -> dict:
    return {"draw": None} if move == DRAW else {"play": format_card(board.tableau[move][-1]),
                                                "column": move + 1}


# ------------------------------------------------------------------ honest (default)

@pytest.mark.parametrize("variant", ["strict", "queens-on-kings+dead-queen", "putt-putt+jokers1",
                                     "putt-putt+when-stuck", "strict+empty-start"])
@pytest.mark.parametrize("goal", ["win", "win-strokes", "strokes"])
def test_honest_hint_is_the_twins_values_and_move(tmp_path, variant, goal):
    rules = parse_variant(variant)
    for k, board in enumerate(mid_game_positions(rules, count=3, seed=13, max_stock=5, max_cards=10)):
        code, out = _hint(_write(tmp_path, board, rules, f"b{k}.txt"), "--variant", variant,
                          "--goal", goal, "--json")
        assert code == 0
        record = json.loads(out)
        expected = dict(reference_move_values(board, rules, goal))
        assert len(record["moves"]) == len(legal_moves(rules, board.position())) == len(expected)
        by_name = {json.dumps(_move_name(board, m)): v for m, v in expected.items()}
        for item in record["moves"]:
            p, e, _ = by_name[json.dumps(item["move"])]
            assert item["win_p"] == pytest.approx(p, abs=1e-12)
            if goal == "win":  # the chance of winning alone
                assert item["expected_strokes"] is None
            else:
                assert item["expected_strokes"] == pytest.approx(e, abs=1e-12)
        plan = optimal_plan(rules, View.of(board.position()), goal)
        assert record["moves"][0]["move"] == _move_name(board, plan[0])


def test_honest_hint_never_reads_the_stock_order(tmp_path):
    rules = parse_variant("strict")
    rng = random.Random(3)
    for k, board in enumerate(mid_game_positions(rules, count=3, seed=21, max_stock=6, max_cards=12)):
        outputs = set()
        for flavour in ("", "--json"):
            for _ in range(3):
                stock = list(board.stock)
                rng.shuffle(stock)
                path = _write(tmp_path, Board(board.tableau, tuple(stock), board.foundation), rules,
                              f"s{k}.txt")
                code, out = _hint(path, *([flavour] if flavour else []))
                assert code == 0
                outputs.add((flavour, out))
        assert len(outputs) == 2  # one text and one JSON output, whatever the order


@pytest.mark.parametrize("goal", ["win", "win-strokes", "strokes"])
def test_one_honest_hint_is_one_computation(monkeypatch, goal):
    """The hint's move comes from the values it computed: the kernel solves the position
    once (it used to ask the policy, which solved it a second time)."""
    from golfstats.honest import solve

    calls = []

    def counted(name):
        kernel = getattr(solve, name)

        def call(*args, **kwargs):
            calls.append(name)
            return kernel(*args, **kwargs)
        return call

    for name in ("solve_win", "solve_strokes"):
        monkeypatch.setattr(solve, name, counted(name))
    rules = parse_variant("strict")
    board = next(iter(mid_game_positions(rules, count=1, seed=5, max_stock=6, max_cards=12)))
    hint = honest_hint(board, rules, goal)
    assert hint.moves and len(calls) == 1, calls
    plan = optimal_plan(rules, View.of(board.position()), goal)
    assert hint.moves[0].move == plan[0]


def test_honest_hint_when_the_hand_is_over(tmp_path):
    rules = parse_variant("strict")
    code, out = _hint(_write(tmp_path, _board("2C", "5C", [], rules), rules))
    assert code == 0 and "the hand is over" in out


# ------------------------------------------------------------------ clairvoyant (--peek)

@pytest.mark.parametrize("variant, talon, top, columns, move, reason, text", [
    ("strict", "QH", "5C", ["KS"], {"draw": "QH"}, "only-move", "no card can be played"),
    ("strict+when-stuck", "KS", "5C", ["7D 6H"], {"play": "6H", "column": 1}, "only-move",
     "the only legal move"),
    ("strict", "KS", "5C", ["7D 6H"], {"play": "6H", "column": 1}, "longest-chain",
     "starts the longest chain (2 cards)"),
    ("strict", "8C 7H", "5C", ["9S 4H", "6D"], {"play": "4H", "column": 1}, "uncovers-needed",
     "uncovers a card that is needed (9S"),
    # playing 6D now would break the run T 9 8 7 6 5 that drawing TD first opens
    ("strict", "TD 4S", "5C", ["6D", "5H 7H 8S 9C"], {"draw": "TD"}, "draw-first",
     "no play now does better"),
    ("strict", "8D", "5C", ["6H", "9S"], {"play": "6H", "column": 1}, "clears-column",
     "clears column 1"),
])
def test_peek_reasons_on_constructed_positions(tmp_path, variant, talon, top, columns, move,
                                               reason, text):
    rules = parse_variant(variant)
    path = _write(tmp_path, _board(talon, top, columns, rules), rules)
    code, out = _hint(path, "--variant", variant, "--peek", "--json")
    record = json.loads(out)
    assert code == 0 and record["move"] == move and record["reason"] == reason
    assert record["won"] is True and record["explanation"].startswith("keeps the deal winnable")
    assert text in record["explanation"]
    code, human = _hint(path, "--variant", variant, "--peek")
    assert text in human and "best result from here: won" in human


@pytest.mark.parametrize("variant", ["strict", "putt-putt", "queens-on-kings+empty-start"])
def test_peek_move_keeps_the_reference_optimum_and_its_reason_holds(tmp_path, variant):
    """The move leaves the reference solver's optimum unchanged, and the reason is true by
    plain searches of the reference engine (not by the functions the hint calls)."""
    rules = parse_variant(variant)
    for k, board in enumerate(mid_game_positions(rules, count=6, seed=5, max_stock=8, max_cards=18)):
        code, out = _hint(_write(tmp_path, board, rules, f"m{k}.txt"), "--variant", variant,
                          "--peek", "--json")
        record = json.loads(out)
        pos = board.position()
        legal = legal_moves(rules, pos)
        move = DRAW if "draw" in record["move"] else record["move"]["column"] - 1
        assert move in legal
        after = apply(rules, pos, move)
        before = reference_solve(board, rules)
        assert reference_solve(Board(after.tableau, after.stock, after.top_card), rules) == before
        assert (record["won"], record["strokes"]) == before
        if record["reason"] == "only-move":
            assert len(legal) == 1
        elif record["reason"] == "longest-chain":
            assert longest_chain(rules, pos) >= 2 and move != DRAW
        elif record["reason"] == "draw-first":
            assert move == DRAW and len(legal) > 1
        elif record["reason"] == "clears-column":
            assert len(pos.tableau[move]) == 1


def test_peek_and_stockless_hint_is_the_exact_solvers(tmp_path):
    rules = parse_variant("black-hole")
    board = mid_game_positions(rules, count=1, seed=4, max_stock=0, max_cards=12)[0]
    code, out = _hint(_write(tmp_path, board, rules), "--variant", "black-hole", "--json")
    record = json.loads(out)
    assert code == 0 and (record["won"], record["strokes"]) == reference_solve(board, rules)
