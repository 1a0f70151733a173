"""``golfstats review`` (``golfstats.honest.review``): a played game against perfect play without
peeking, from one table of its deal.

* the values and costs of every move are the slow twin's (``reference.expectimax``, a
  plain memoised expectimax over the reference engine) on small positions, at 1e-12;
* the whole game costs one table: the kernel runs once;
* the command reads what ``play --json`` writes, prints and charts it; its errors are in
  tests/test_errors.py, its terminal run in tests/test_terminal.py.
"""

from __future__ import annotations

import json

import pytest
from conftest import mid_game_positions
from typer.testing import CliRunner

from golfstats.board import Board, format_board
from golfstats.cli import app
from golfstats.engine import DRAW, apply, is_won, legal_moves
from golfstats.honest import Game, Value, review
from golfstats.policies import parse_policy, play_board
from golfstats.reference.expectimax import reference_move_values, reference_value
from golfstats.rules import parse_variant

EXACT = 1e-12
runner = CliRunner()


def _games(variant: str, seed: int, count: int, policy: str) -> list[Game]:
    rules = parse_variant(variant)
    pol = parse_policy(policy)
    return [Game(rules, b, tuple(play_board(rules, pol, b, key=k).moves))
            for k, b in enumerate(mid_game_positions(rules, count=count, seed=seed, max_stock=5,
                                                     max_cards=10))]


def _close(got: Value, want) -> bool:
    return abs(got.p - want[0]) <= EXACT and abs(got.e - want[1]) <= EXACT


@pytest.mark.parametrize("variant, policy", [("putt-putt", "random"), ("strict", "greedy"),
                                             ("queens-on-kings+when-stuck", "random")])
def test_values_and_costs_are_the_twins(variant, policy):
    """Before each move: the twin's value of the position; the chosen move: the twin's
    value of that move; the cost: their difference; after: the twin's value of the next
    position; the best move: one whose twin value is the position's."""
    some_cost = 0
    for game in _games(variant, 7, 6, policy):
        rules = game.rules
        result = review(game)
        assert len(result.moves) == len(game.moves)
        pos = game.board.position()
        for m, move in zip(result.moves, game.moves, strict=True):
            here = Board(pos.tableau, pos.stock, pos.top_card)
            where = f"{rules.id} move {m.number}\n{format_board(here, rules)}"
            assert _close(m.before, reference_value(here, rules, "win-strokes")), where
            values = dict(reference_move_values(here, rules, "win-strokes"))
            assert _close(m.chosen, values[move]), where
            assert abs(m.cost_p - (m.before.p - values[move][0])) <= EXACT, where
            assert abs(m.cost_e - (values[move][1] - m.before.e)) <= EXACT, where
            assert m.cost_p >= -EXACT, where
            assert _close(m.before, values[m.best]), where
            pos = apply(rules, pos, move)
            after = Board(pos.tableau, pos.stock, pos.top_card)
            if is_won(pos):
                want = (1.0, -len(pos.stock))
            elif not legal_moves(rules, pos):
                want = (0.0, pos.cards_left())
            else:
                want = reference_value(after, rules, "win-strokes")[:2]
            assert _close(m.after, want), where
            some_cost += m.differs
        assert abs(result.given_p - sum(m.cost_p for m in result.moves)) <= EXACT
    assert some_cost > 0, "the sample should hold moves that give something away"


def test_a_whole_game_is_one_table(table_builds):
    (game,) = _games("putt-putt", 3, 1, "greedy")
    result = review(game)
    assert len(result.moves) == len(game.moves) > 1 and table_builds == [1]


def test_review_command_reads_what_play_writes(tmp_path):
    rules = parse_variant("putt-putt")
    board = mid_game_positions(rules, count=1, seed=11, max_stock=5, max_cards=10)[0]
    (tmp_path / "b.txt").write_text(format_board(board, rules))
    played = runner.invoke(app, ["play", str(tmp_path / "b.txt"), "--variant", "putt-putt",
                                 "--policy", "random", "--json"])
    assert played.exit_code == 0, played.stderr
    (tmp_path / "game.json").write_text(played.stdout)
    record = json.loads(played.stdout)
    result = runner.invoke(app, ["review", str(tmp_path / "game.json"), "--json"])
    assert result.exit_code == 0, result.stderr
    got = json.loads(result.stdout)
    assert got["variant"] == "putt-putt" and len(got["moves"]) == len(record["moves"])
    assert (got["won"], got["strokes"]) == (record["won"], record["strokes"])
    assert got["win_p"] == pytest.approx(reference_value(board, rules, "win-strokes")[0], abs=EXACT)
    assert got["given_p"] == pytest.approx(sum(m["cost_p"] for m in got["moves"]), abs=EXACT)
    moves = [DRAW if "draw" in m else m["column"] - 1 for m in record["moves"]]
    assert [m["move"] for m in got["moves"]] == moves

    chart = tmp_path / "chance.png"
    text = runner.invoke(app, ["review", str(tmp_path / "game.json"), "--chart", str(chart)])
    assert text.exit_code == 0, text.stderr
    lines = text.stdout.splitlines()
    assert lines[0].startswith("review · putt-putt") and "given away" in lines[-1]
    assert len(lines) == len(record["moves"]) + 3  # title, header, moves, total
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_game_that_stops_early_is_said_to_be_unfinished(tmp_path):
    """A game of 5 moves where the hand goes on: "unfinished", never "lost"."""
    rules = parse_variant("putt-putt")
    board = mid_game_positions(rules, count=1, seed=11, max_stock=5, max_cards=10)[0]
    (tmp_path / "b.txt").write_text(format_board(board, rules))
    played = runner.invoke(app, ["play", str(tmp_path / "b.txt"), "--variant", "putt-putt",
                                 "--policy", "random", "--json"])
    record = json.loads(played.stdout)
    assert len(record["moves"]) > 2
    cut = {**record, "moves": record["moves"][:2]}
    (tmp_path / "cut.json").write_text(json.dumps(cut))
    got = json.loads(runner.invoke(app, ["review", str(tmp_path / "cut.json"), "--json"]).stdout)
    assert got["finished"] is False and got["won"] is False
    text = runner.invoke(app, ["review", str(tmp_path / "cut.json")])
    last = text.stdout.splitlines()[-1]
    assert last.startswith("unfinished: the game stops after 2 moves") and "lost" not in last
    (tmp_path / "game.json").write_text(played.stdout)
    whole = json.loads(runner.invoke(app, ["review", str(tmp_path / "game.json"), "--json"]).stdout)
    assert whole["finished"] is True  # play plays the hand to its end


def test_review_help_shows_brackets_as_written():
    import os

    result = runner.invoke(app, ["review", "--help"], env={**os.environ, "COLUMNS": "200"})
    assert "after as [p, e]" in result.stdout
