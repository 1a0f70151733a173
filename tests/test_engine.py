"""The reference engine against docs/rules.md: random legal games and hand-made positions.

The random games are checked against ``_Pile``, a second, independent reading of
docs/rules.md kept in this file: what the foundation's top may stand for (a set of ranks,
each alive or a dead Queen) built from the rank table of tests/rank_table.py.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rank_table import KING, QUEEN, RANKS, follows, king_rule_of

from golfstats.board import parse_board
from golfstats.cards import is_joker, kind
from golfstats.deals import board_from_cards
from golfstats.engine import DRAW, apply, is_over, is_won, legal_moves, score_moves, strokes
from golfstats.rules import Draw, all_rule_sets, parse_variant

RULE_SETS = all_rule_sets()


class _Pile:
    """docs/rules.md's foundation top: ``meanings`` is a set of (rank, dead) it may stand for."""

    def __init__(self, rules, card):
        self.rule = king_rule_of(rules)
        self.dead_queen = rules.dead_queen
        self.meanings = self._any() if card is None or is_joker(card) else {(kind(card), False)}

    @staticmethod
    def _any():
        return {(r, False) for r in RANKS}  # an empty foundation, or a joker from the stock

    def _onto(self, new_rank):
        """Ways to put ``new_rank`` on the top: the ranks of live meanings it may follow."""
        return [r for r, dead in self.meanings if not dead and follows(self.rule, r, new_rank)]

    def can_play(self, card) -> bool:
        ranks = RANKS if is_joker(card) else [kind(card)]
        return any(self._onto(x) for x in ranks)

    def play(self, card) -> None:
        ranks = RANKS if is_joker(card) else [kind(card)]
        new = set()
        for x in ranks:
            ways = self._onto(x)
            if ways:
                # a dead Queen only if every way of playing it is onto a King
                dead = self.dead_queen and x == QUEEN and all(r == KING for r in ways)
                new.add((x, dead))
        assert new, "played a card that may not go on the top"
        self.meanings = new

    def draw(self, card) -> None:
        self.meanings = self._any() if is_joker(card) else {(kind(card), False)}


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(RULE_SETS), st.data())
def test_random_legal_games(rules, data):
    """Every card stays accounted for; the legal moves, the end and the score follow docs/rules.md."""
    board = board_from_cards(rules, data.draw(st.permutations(rules.deck), label="deal"))
    everything = sorted(board.cards())
    pos = board.position()
    pile = [] if board.foundation is None else [board.foundation]
    top = _Pile(rules, board.foundation)
    moves, points, streak = [], 0, 0
    while True:
        plays = [c for c, col in enumerate(pos.tableau) if col and top.can_play(col[-1])]
        left = pos.cards_left()
        may_draw = bool(pos.stock) and (rules.draw is Draw.ANY_TIME or not plays)
        expected = [] if left == 0 else plays + ([DRAW] if may_draw else [])
        legal = legal_moves(rules, pos)
        assert legal == expected
        if rules.draw is Draw.WHEN_STUCK and plays:
            assert DRAW not in legal, "when-stuck: no draw while a play is available"
        # cards: tableau + stock + everything on the foundation is the deal, each card once
        held = [c for col in pos.tableau for c in col] + list(pos.stock) + pile
        assert sorted(held) == everything
        assert pos.top_card == (pile[-1] if pile else None)
        if not legal:
            break
        assert not is_over(rules, pos) and not is_won(pos)
        move = data.draw(st.sampled_from(legal), label="move")
        nxt = apply(rules, pos, move)
        if move == DRAW:
            pile.append(pos.stock[0])
            top.draw(pos.stock[0])
            assert nxt.stock == pos.stock[1:] and nxt.tableau == pos.tableau
            streak = 0
        else:
            pile.append(pos.tableau[move][-1])
            top.play(pos.tableau[move][-1])
            assert nxt.tableau[move] == pos.tableau[move][:-1] and nxt.stock == pos.stock
            points += 10 + 5 * streak
            streak += 1
        moves.append(move)
        pos = nxt
    # the end: won iff the tableau is clear; otherwise the stock is empty and no play is left
    assert is_over(rules, pos)
    assert is_won(pos) == (pos.cards_left() == 0)
    if not is_won(pos):
        assert not pos.stock and not plays
    expected_strokes = -len(pos.stock) if is_won(pos) else pos.cards_left()
    assert strokes(pos) == expected_strokes
    if is_won(pos):
        points += 100 + 5 * len(pos.stock)
    out = score_moves(rules, board.position(), moves)
    assert (out.won, out.strokes, out.points, out.finished) == (is_won(pos), expected_strokes, points, True)
    assert out.n_moves == len(moves) and out.draws == moves.count(DRAW) and out.moves == tuple(moves)


# ------------------------------------------------------------ hand-made positions


def _golf(text, variant="strict"):
    rules = parse_variant(variant)
    columns = text.strip().splitlines()
    body = "\n".join(columns[:2] + columns[2:] + ["-"] * (9 - len(columns)))
    return rules, parse_board(body, rules).position()


def test_win_with_stock_left():
    rules, pos = _golf("Talon: 5C 6C 7C\nFoundations: 4H\n5H")
    assert legal_moves(rules, pos) == [0, DRAW]
    out = score_moves(rules, pos, [0])
    # cleared with 3 stock cards unturned: strokes -3; points 10 + 100 + 5 * 3
    assert (out.won, out.strokes, out.points, out.draws, out.longest_chain, out.finished) == \
        (True, -3, 125, 0, 1, True)


def test_chain_then_draw_then_win_with_the_last_card():
    rules, pos = _golf("Talon: 9C\nFoundations: 4H\n7H 6H 5H\n8D")
    out = score_moves(rules, pos, [0, 0, 0, DRAW, 1])
    # chain 5H 6H 7H: 10 + 15 + 20; the draw ends it; 8D on 9C: 10; cleared, no stock: 100
    assert (out.won, out.strokes, out.points, out.draws, out.longest_chain, out.n_moves) == \
        (True, 0, 155, 1, 3, 5)


def test_loss_counts_the_cards_left():
    for variant in ("strict", "queens-on-kings", "putt-putt"):
        rules, pos = _golf("Talon: KC\nFoundations: 2H\n9S\nKD", variant)
        assert legal_moves(rules, pos) == [DRAW]
        out = score_moves(rules, pos, [DRAW])
        assert (out.won, out.strokes, out.points, out.finished) == (False, 2, 0, True)


def test_loss_after_plays():
    rules, pos = _golf("Talon:\nFoundations: 5D\n9S 6S\n2C")
    out = score_moves(rules, pos, [0])
    assert (out.won, out.strokes, out.points, out.finished) == (False, 2, 10, True)
    assert is_over(rules, apply(rules, pos, 0))


def test_a_king_blocks_only_under_strict():
    for variant, expected in (("strict", [DRAW]), ("queens-on-kings", [0, DRAW]),
                              ("putt-putt", [0, 1, DRAW])):
        rules, pos = _golf("Talon: 3C\nFoundations: KH\nQS\nAD\n2C", variant)
        assert legal_moves(rules, pos) == expected, variant


def test_when_stuck_forbids_drawing_past_a_play():
    rules, pos = _golf("Talon: 3C\nFoundations: 4H\n5H\n9C", "strict+when-stuck")
    assert legal_moves(rules, pos) == [0]
    with pytest.raises(ValueError):
        apply(rules, pos, DRAW)
    pos = apply(rules, pos, 0)
    assert legal_moves(rules, pos) == [DRAW]  # stuck on 5H: now the draw is allowed


def test_illegal_moves_raise_and_unfinished_lines_say_so():
    rules, pos = _golf("Talon: 3C 4C\nFoundations: 4H\n5H\n9C")
    with pytest.raises(ValueError):
        score_moves(rules, pos, [1])
    out = score_moves(rules, pos, [DRAW])
    assert not out.finished and out.strokes == 2  # strokes counted where the line stops


def test_empty_start_and_jokers():
    rules, pos = _golf("Talon: 5C\nFoundations: -\nKS\nJK", "strict+jokers1+empty-start")
    assert legal_moves(rules, pos) == [0, 1, DRAW]  # the first card may be any card
    on_king = apply(rules, pos, 0)
    assert legal_moves(rules, on_king) == [DRAW]  # not even a joker on a King under strict
    joker_first = apply(rules, pos, 1)
    assert legal_moves(rules, joker_first) == [0, DRAW]
    assert score_moves(rules, pos, [1, 0]).strokes == -1
    # a joker left in the tableau counts as a card left
    rules, pos = _golf("Talon:\nFoundations: KS\nJK\n5D", "strict+jokers1")
    assert is_over(rules, pos) and strokes(pos) == 2


def test_stockless_games():
    hole = parse_variant("black-hole")
    text = "Foundations: AS\n" + "\n".join(["QC KD"] + ["-"] * 16)
    pos = parse_board(text, hole).position()
    assert legal_moves(hole, pos) == [0]  # wrap: K goes on A, then Q on K
    out = score_moves(hole, pos, [0, 0])
    assert (out.won, out.strokes, out.points) == (True, 0, 10 + 15 + 100)
    row = parse_variant("all-in-a-row")
    text = "Foundations: -\n" + "\n".join(["5C", "9D"] + ["-"] * 11)
    pos = parse_board(text, row).position()
    assert legal_moves(row, pos) == [0, 1]
    out = score_moves(row, pos, [1])
    assert (out.won, out.strokes, out.finished) == (False, 1, True)
