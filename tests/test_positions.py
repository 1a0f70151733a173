"""Mid-game positions from a deal (``golfstats deal --after N``, ``golfstats.honest.positions``):
the position is the one the player's line reaches, board text holds it exactly, the other
commands read it, and a top that board text cannot hold is refused."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from golfstats.board import format_board, parse_boards
from golfstats.cli import app
from golfstats.deals import pysol_board, seeded_board, seeded_deals
from golfstats.engine import apply
from golfstats.honest.positions import PositionError, position_after
from golfstats.policies import parse_policy, play_board
from golfstats.rules import parse_variant

runner = CliRunner()


@pytest.mark.parametrize("variant", ["strict", "queens-on-kings", "putt-putt+jokers2"])
@pytest.mark.parametrize("policy", ["greedy", "lookahead"])
def test_the_position_is_where_the_players_line_stands(variant, policy):
    """Replaying the first N moves of the player's whole line through the reference engine
    gives the same tableau, stock and top; the board text reads back as that position."""
    rules, player = parse_variant(variant), parse_policy(policy)
    checked = 0
    for index in range(4):
        board = seeded_board(rules, 5, index)
        key = int(seeded_deals(rules, 5, index, 1).keys[0])
        line = play_board(rules, player, board, key)
        for n in range(0, line.n_moves + 1, 3):
            try:
                made = position_after(rules, board, player, n, key)
            except PositionError:
                continue  # a joker on top: see the refusal test
            pos = board.position()
            for move in line.moves[:n]:
                pos = apply(rules, pos, move)
            assert (made.board.tableau, made.board.stock, made.board.foundation) == \
                   (pos.tableau, pos.stock, pos.top_card)
            assert made.moves == tuple(line.moves[:n])
            back = parse_boards(format_board(made.board, rules), rules)[0]
            assert back.position().top == pos.top  # board text holds the top exactly
            checked += 1
    assert checked > 20


def test_a_top_board_text_cannot_hold_is_refused():
    """A joker played on a card stands for only some ranks, a Queen played on a King under
    dead-queen accepts nothing: board text would read both as a card turned there."""
    jokers = parse_variant("queens-on-kings+jokers2+dead-queen")
    with pytest.raises(PositionError, match=r"top JK stands for 3/5, which board text cannot hold"):
        position_after(jokers, seeded_board(jokers, 3, 0), parse_policy("greedy"), 2,
                       int(seeded_deals(jokers, 3, 0, 1).keys[0]))
    dead = parse_variant("queens-on-kings+dead-queen")
    greedy, refused = parse_policy("greedy"), 0
    for index in range(40):
        if refused:
            break
        board = seeded_board(dead, 1, index)
        key = int(seeded_deals(dead, 1, index, 1).keys[0])
        for n in range(1, play_board(dead, greedy, board, key).n_moves + 1):
            try:
                position_after(dead, board, greedy, n, key)
            except PositionError as exc:
                assert "stands for Q(dead)" in str(exc)
                refused += 1
    assert refused > 0


def test_the_hand_must_last_that_long():
    rules = parse_variant("strict")
    board = pysol_board(rules, 1)
    moves = play_board(rules, parse_policy("greedy"), board).n_moves
    assert position_after(rules, board, parse_policy("greedy"), moves).over
    with pytest.raises(PositionError, match=f"ends this hand after {moves} moves"):
        position_after(rules, board, parse_policy("greedy"), moves + 1)


def test_deal_after_writes_a_board_the_other_commands_read(tmp_path):
    result = runner.invoke(app, ["deal", "--pysol", "1", "--after", "12", "--policy", "lookahead",
                                 "--board"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("# rules: strict\n# pysol:1 after 12 moves of lookahead\nTalon:")
    rules = parse_variant("strict")
    expected = position_after(rules, pysol_board(rules, 1), parse_policy("lookahead"), 12).board
    assert parse_boards(result.stdout, rules) == [expected]
    path = tmp_path / "position.txt"
    path.write_text(result.stdout)
    solved = runner.invoke(app, ["solve", str(path), "--json"])
    assert solved.exit_code == 0, solved.output
    hint = runner.invoke(app, ["hint", str(path), "--peek", "--json"])
    assert hint.exit_code == 0, hint.output
    picture = runner.invoke(app, ["deal", "--pysol", "1", "--after", "12"])
    assert "pysol:1 after 12 moves of greedy · strict" in picture.stdout
    lone = runner.invoke(app, ["deal", "--pysol", "1", "--policy", "lookahead"])
    assert lone.exit_code == 2
