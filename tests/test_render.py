"""Rendering: cards, boards and moves in words, checked against the reference engine."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from golfstats.board import parse_board
from golfstats.cards import parse_card
from golfstats.deals import pysol_board, seeded_board
from golfstats.engine import DRAW, score_moves
from golfstats.render import (
    PLAIN,
    SYMBOLS,
    board_lines,
    card_name,
    card_text,
    describe_move,
    detect_style,
    replay,
    step_line,
)
from golfstats.rules import parse_variant
from golfstats.solver import solve


def test_card_names():
    assert card_name(parse_card("TH"), SYMBOLS) == "10\u2665"
    assert card_name(parse_card("TH"), PLAIN) == "TH"
    assert card_name(parse_card("7S"), SYMBOLS) == "7\u2660"
    assert card_name(52, SYMBOLS) == card_name(53, PLAIN) == "JK"
    assert "red" in str(card_text(parse_card("9D")).style)
    assert "red" not in str(card_text(parse_card("9C")).style)
    assert "magenta" in str(card_text(52).style)


def test_describe_move_in_words():
    assert describe_move(parse_card("7S"), 3).plain == "play 7S from column 3"
    assert describe_move(parse_card("7S"), 3, SYMBOLS).plain == "play 7\u2660 from column 3"
    assert describe_move(parse_card("9H"), None).plain == "draw 9H"


def test_detect_style():
    assert detect_style(Console(file=io.StringIO())) == PLAIN
    assert detect_style(Console(file=io.StringIO(), force_terminal=True)) == SYMBOLS


@pytest.mark.parametrize("variant", ["strict", "putt-putt+jokers2+empty-start", "black-hole"])
def test_replay_follows_the_engine(variant):
    rules = parse_variant(variant)
    board = seeded_board(rules, 2, 5)
    line = solve(board, rules).moves
    steps = replay(rules, board.position(), line)
    outcome = score_moves(rules, board.position(), line)
    assert len(steps) == len(line)
    assert steps[-1].points == outcome.points and steps[-1].strokes == outcome.strokes
    assert max(s.chain for s in steps) == outcome.longest_chain
    stock = list(board.stock)
    for step in steps:
        if step.move == DRAW:
            assert step.card == stock.pop(0) and step.column is None
        else:
            assert step.column == step.move + 1
        assert step.stock_left == len(stock)


def test_replay_rejects_illegal_moves():
    rules = parse_variant("strict")
    board = pysol_board(rules, 1)
    with pytest.raises(ValueError, match="move 1"):
        replay(rules, board.position(), [0])  # JD... 4H on TH is illegal
    empty = parse_board("Talon: -\nFoundations: 5C\n6H\n-\n-\n-\n-\n-\n-\n", rules)
    with pytest.raises(ValueError, match="empty stock"):
        replay(rules, empty.position(), [0, DRAW])
    with pytest.raises(ValueError, match="no card in column 2"):
        replay(rules, empty.position(), [1])


def test_step_line_and_running_points():
    rules = parse_variant("strict")
    board = parse_board("Talon: KS\nFoundations: 5C\n7D 6H\n-\n-\n-\n-\n-\n-\n", rules)
    steps = replay(rules, board.position(), [0, 0])
    assert [s.points for s in steps] == [10, 10 + 15 + 100 + 5]
    assert steps[-1].strokes == -1
    text = step_line(steps[0], PLAIN, points=True).plain
    assert text.startswith("   1. play 6H from column 1")
    assert "top 6H" in text and "cards left  1" in text and "stock  1" in text
    assert "points   10" in text
    assert "stock" not in step_line(steps[0], PLAIN, stock=False).plain


def test_board_lines_lay_out_columns():
    rules = parse_variant("strict")
    board = parse_board("Talon: KS 2C\nFoundations: 5C\n7D 6H\n-\nTH\n-\n-\n-\n-\n", rules)
    lines = board_lines(board, rules, SYMBOLS, title="mine")
    plain = [line.plain for line in lines]
    assert plain[0] == "mine"
    assert plain[1] == "Foundation  5\u2663"
    assert plain[2] == "Stock       2 cards, in draw order: K\u2660 2\u2663"
    assert plain[3] == "Cards left  3"
    assert plain[5].split() == list("1234567")
    assert plain[6].split() == ["7\u2666", "-", "10\u2665", "-", "-", "-", "-"]
    assert plain[7].split() == ["6\u2665"]
    # exposed cards are bold
    row = lines[7]
    assert any("bold" in str(span.style) for span in row.spans)
    stockless = board_lines(pysol_board(parse_variant("all-in-a-row"), 1),
                            parse_variant("all-in-a-row"), PLAIN)
    assert not any(line.plain.startswith("Stock") for line in stockless)
    assert stockless[0].plain.startswith("Foundation  -")
