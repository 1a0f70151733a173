"""Board text (docs/rules.md "Board text"): round trips, multi-board files, and malformed input."""

from __future__ import annotations

import pytest
from conftest import PYSOL_1
from hypothesis import given, settings
from hypothesis import strategies as st

from golfstats.board import Board, BoardError, format_board, parse_board, parse_boards
from golfstats.cards import JOKERS, is_joker
from golfstats.deals import board_from_cards
from golfstats.rules import ACE_OF_SPADES, Game, parse_variant

GOLF = [parse_variant(v) for v in ("strict", "queens-on-kings", "putt-putt+jokers1",
                                   "queens-on-kings+jokers2", "strict+empty-start",
                                   "putt-putt+jokers2+empty-start+when-stuck")]
STOCKLESS = [parse_variant("black-hole"), parse_variant("all-in-a-row")]

#: The example board of docs/rules.md (PySol golf deal 1), with a comment line and a blank line
#: in front, so the board's lines are file lines 3 (Talon) to 11 (column 7).
EXAMPLE = "# docs/rules.md example\n\n" + PYSOL_1
STRICT = parse_variant("strict")


def _canonical_jokers(board: Board) -> Board:
    """Number the jokers in text order (talon, foundation, columns), as the parser does:
    the two jokers are the same card, so which id each gets is not part of the board."""
    order = iter(JOKERS)
    renumber = {}

    def fix(c):
        if c is None or not is_joker(c):
            return c
        renumber.setdefault(c, next(order))
        return renumber[c]

    stock = tuple(fix(c) for c in board.stock)
    foundation = fix(board.foundation)
    tableau = tuple(tuple(fix(c) for c in col) for col in board.tableau)
    return Board(tableau, stock, foundation)


@st.composite
def full_boards(draw, rule_sets):
    rules = draw(st.sampled_from(rule_sets))
    return rules, board_from_cards(rules, draw(st.permutations(rules.deck)))


@st.composite
def midgame_boards(draw, rule_sets):
    """Shorter columns (some empty), a shorter talon (turned from the front), any top."""
    rules, board = draw(full_boards(rule_sets))
    tableau = tuple(col[:draw(st.integers(0, len(col)))] for col in board.tableau)
    stock = board.stock[draw(st.integers(0, len(board.stock))):]
    left = {c for col in tableau for c in col} | set(stock)
    played = sorted(set(rules.deck) - left)
    if rules.game is Game.BLACK_HOLE:
        played.append(ACE_OF_SPADES)
    foundation = draw(st.sampled_from([None, *played]))
    return rules, Board(tableau, stock, foundation)


def _assert_round_trip(rules, board):
    text = format_board(board, rules)
    back = parse_board(text, rules)
    assert _canonical_jokers(back) == _canonical_jokers(board)
    assert format_board(back, rules) == text


@settings(max_examples=150, deadline=None)
@given(full_boards(GOLF + STOCKLESS))
def test_full_deal_round_trips(case):
    rules, board = case
    _assert_round_trip(rules, board)


@settings(max_examples=300, deadline=None)
@given(midgame_boards(GOLF + STOCKLESS))
def test_midgame_position_round_trips(case):
    rules, board = case
    _assert_round_trip(rules, board)


def test_empty_columns_and_talon_are_written_as_dashes():
    board = Board(((),) * 6 + ((5,),), (), None)
    text = format_board(board, STRICT)
    assert text.splitlines() == ["Talon:", "Foundations: -", *["-"] * 6, "6C"]
    assert parse_board(text, STRICT) == board
    assert parse_board(text.replace("Talon:", "Talon: -"), STRICT) == board


def test_example_board_parses():
    board = parse_board(EXAMPLE, STRICT)
    assert len(board.stock) == 16 and len(board.tableau) == 7
    assert format_board(board, STRICT) == EXAMPLE.split("\n", 2)[2]
    assert sorted(board.cards()) == list(range(52))


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(GOLF + STOCKLESS), st.data())
def test_multi_board_files(rules, data):
    boards = data.draw(st.lists(midgame_boards([rules]).map(lambda case: case[1]),
                                min_size=1, max_size=4))
    parts = []
    for i, board in enumerate(boards):
        text = format_board(board, rules)
        if i % 2:  # a comment inside a board does not split it
            first, rest = text.split("\n", 1)
            text = f"{first}\n# comment inside board {i}\n{rest}"
        parts.append(f"# board {i}\n{text}")
    blob = "\n\n\n".join(parts) + "\n\n# trailing comment\n"
    got = parse_boards(blob, rules)
    assert [_canonical_jokers(b) for b in got] == [_canonical_jokers(b) for b in boards]
    assert parse_boards(blob.replace("\n", "\r\n"), rules) == got


def test_parse_board_wants_exactly_one():
    with pytest.raises(BoardError, match="expected one board, found 2"):
        parse_board(EXAMPLE + "\n" + EXAMPLE, STRICT)
    with pytest.raises(BoardError, match="found 0"):
        parse_board("# nothing\n\n", STRICT)


# ------------------------------------------------------------ malformed input


def _error(text, rules=STRICT) -> BoardError:
    results = parse_boards(text, rules)
    errors = [r for r in results if isinstance(r, BoardError)]
    assert len(errors) == 1, results
    return errors[0]


def _lines():
    return EXAMPLE.splitlines()


def _edit(line_no, new):
    lines = _lines()
    lines[line_no - 1] = new
    return "\n".join(lines) + "\n"


def _drop(line_no):
    lines = _lines()
    del lines[line_no - 1]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("text", "line", "words"), [
    (_edit(3, "Talon: 8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6X"), 3, ["'6X' is not a card"]),
    (_edit(4, "Foundations: 1H"), 4, ["'1H' is not a card"]),
    (_edit(9, "5D 5S 9D 5C Q"), 9, ["'Q' is not a card"]),
    (_edit(5, "JD 5H KH AS JD"), 5, ["duplicate card", "JD", "twice in the tableau"]),
    (_edit(6, "2D KD 3H AH JD"), 6, ["duplicate card", "JD", "twice"]),
    (_edit(9, "5D 5S 9D 5C 8H"), 9, ["duplicate card", "8H", "talon (line 3)", "tableau"]),
    (_edit(9, "5D 5S 9D 5C TH"), 9, ["duplicate card", "TH", "foundation (line 4)", "tableau"]),
    (_edit(3, "Talon: 8H 8H JH"), 3, ["duplicate card", "8H", "twice in the talon"]),
    (_drop(11), 10, ["7 columns", "has 6"]),
    (EXAMPLE + "6H\n", 12, ["7 columns", "has 8"]),
    (_edit(3, "Talon: 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H").replace(
        "7C QC JS QH 4S", "7C QC JS QH 4S 8H"), 11, ["column of 6 cards", "deals 5"]),
    (_drop(4), 4, ["expected a Foundations: line"]),
    (_edit(4, "Foundations: TH 9H"), 4, ["exactly one card"]),
    (_drop(3), 3, ["expected the Talon: line first"]),
    (_edit(7, "Talon: 9H"), 7, ["expected a column line"]),
    (_edit(3, "Talon: 8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H JK"), 3,
     ["JK is not in the deck of strict"]),
    ("Talon: 8H\n", 1, ["ends before its Foundations: line"]),
])
def test_malformed_golf_board(text, line, words):
    err = _error(text)
    assert err.line == line, err
    assert str(err).startswith(f"line {line}: ")
    for word in words:
        assert word in err.message, err.message


def test_three_jokers():
    rules = parse_variant("strict+jokers2")
    text = _edit(3, "Talon: 8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H JK JK JK")
    err = _error(text, rules)
    assert err.line == 3 and "more than two jokers" in err.message


def test_black_hole_has_no_talon():
    rules = parse_variant("black-hole")
    good = board_from_cards(rules, rules.deck)
    text = format_board(good, rules)
    assert parse_board(text, rules) == good
    err = _error("# black hole\nTalon: 8H\n" + text, rules)
    assert err.line == 2 and "black-hole has no stock, so no Talon: line" in err.message
    err = _error(text.replace("KS", "AS"), rules)
    assert err.line == 18 and "AS is both in the foundation (line 1) and in the tableau" in err.message
    err = _error(text.replace("KS", "AS").replace("Foundations: AS", "Foundations: KS"), rules)
    assert err.line == 18 and "AS is not in the deck of black-hole" in err.message
    err = _error(text.rsplit("\n", 2)[0] + "\n", rules)
    assert "17 columns" in err.message and "has 16" in err.message
    lines = text.splitlines()
    moved = lines[-1].split()
    lines[1] += " " + moved.pop()  # column 1 gets a fourth card from column 17
    lines[-1] = " ".join(moved)
    err = _error("\n".join(lines), rules)
    assert err.line == 2 and "column of 4 cards" in err.message and "deals 3" in err.message


def test_all_in_a_row_columns_of_four():
    rules = parse_variant("all-in-a-row")
    board = board_from_cards(rules, rules.deck)
    lines = format_board(board, rules).splitlines()
    assert lines[0] == "Foundations: -" and len(lines) == 14
    moved = lines[13].split()
    lines[12] += " " + moved.pop()  # column 12 gets a fifth card from column 13
    lines[13] = " ".join(moved)
    err = _error("\n".join(lines), rules)
    assert err.line == 13 and "column of 5 cards" in err.message and "deals 4" in err.message


def test_a_bad_board_does_not_stop_the_others():
    bad = _edit(9, "5D 5S 9D 5C XX").split("\n", 2)[2]  # without the two header lines
    text = EXAMPLE + "\n" + bad + "\n" + EXAMPLE
    results = parse_boards(text, STRICT)
    assert [type(r).__name__ for r in results] == ["Board", "BoardError", "Board"]
    # the bad board starts at file line 13 (after EXAMPLE's 11 lines and a blank line)
    assert results[1].line == 13 + 6 and "'XX' is not a card" in results[1].message
    assert results[0] == results[2]


# ------------------------------------------------------------ the rule set, a stream

def test_rules_comment_names_the_rule_set_of_the_boards_after_it():
    from golfstats.board import board_texts, rules_comment

    house = parse_variant("putt-putt+jokers1+when-stuck")
    assert rules_comment(house) == "# rules: putt-putt+jokers1+when-stuck\n"
    text = ("# a note\n" + PYSOL_1 + "\n" + rules_comment(house) + PYSOL_1 + "\n"
            + "#   RULES:  golf-b \n" + PYSOL_1 + "\n# rules: hard\n" + PYSOL_1)
    blocks = list(board_texts(text.splitlines()))
    assert [b.number for b in blocks] == [1, 2, 3, 4]
    assert blocks[0].named is None and blocks[0].named_line == 0
    assert blocks[1].named == house and blocks[1].named_line == 12
    assert blocks[2].named == parse_variant("queens-on-kings")
    assert blocks[3].named is None and "retired" in blocks[3].named_error.message
    with pytest.raises(BoardError, match="retired"):
        blocks[3].parse(STRICT)
    assert blocks[1].parse(house) == parse_board(PYSOL_1, house)


def test_parse_boards_refuses_a_text_of_another_rule_set():
    results = parse_boards("# rules: putt-putt\n" + PYSOL_1, STRICT)
    assert isinstance(results[0], BoardError)
    assert results[0].line == 1 and "names the rule set putt-putt, not strict" in str(results[0])
    assert parse_boards("# rules: strict\n" + PYSOL_1, STRICT) == [parse_board(PYSOL_1, STRICT)]


def test_boards_are_read_as_their_lines_arrive():
    from golfstats.board import board_texts

    def lines():
        yield from PYSOL_1.splitlines(True)
        yield "\n"
        raise AssertionError("read past the first board")

    first = next(board_texts(lines()))
    assert first.parse(STRICT) == parse_board(PYSOL_1, STRICT)
