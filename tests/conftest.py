"""Shared fixtures and position makers for the tests."""

from __future__ import annotations

import numpy as np
import pytest

from golfstats.board import Board, parse_board
from golfstats.deals import seeded_board
from golfstats.engine import apply, legal_moves
from golfstats.rules import Rules, parse_variant

#: docs/rules.md's example board: PySolFC's golf deal 1, as board text.
PYSOL_1 = """\
Talon: 8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H
Foundations: TH
JD 5H KH AS 4H
2D KD 3H AH AC
9H KC 2S 3C 4D
JC 9S KS 4C 7S
5D 5S 9D 5C 3S
7H AD QD TS TD
7C QC JS QH 4S
"""


def mid_game(rules: Rules, board: Board, moves: int, seed: int) -> Board:
    """``board`` after ``moves`` random legal moves (fewer if the hand ends)."""
    rng = np.random.default_rng(seed)
    pos = board.position()
    for _ in range(moves):
        options = legal_moves(rules, pos)
        if not options:
            break
        pos = apply(rules, pos, options[rng.integers(len(options))])
    return Board(pos.tableau, pos.stock, pos.top_card)


def mid_game_positions(rules: Rules, count: int, seed: int, max_stock: int = 8,
                       max_cards: int = 24) -> list[Board]:
    """``count`` positions reached by random legal moves from seeded deals of ``seed``,
    each with at most ``max_stock`` stock cards and about ``max_cards`` tableau cards left
    (small enough for the slow twins), hands not yet over."""
    rng = np.random.default_rng(seed)
    out: list[Board] = []
    index = 0
    while len(out) < count:
        pos = seeded_board(rules, seed, index).position()
        index += 1
        while legal_moves(rules, pos) and (len(pos.stock) > max_stock
                                           or pos.cards_left() > max_cards):
            options = legal_moves(rules, pos)
            plays = [m for m in options if m >= 0]
            pick = plays if plays and rng.random() < 0.8 else options
            pos = apply(rules, pos, pick[rng.integers(len(pick))])
        if legal_moves(rules, pos):
            out.append(Board(pos.tableau, pos.stock, pos.top_card))
    return out


@pytest.fixture
def example_board() -> Board:
    return parse_board(PYSOL_1, parse_variant("strict"))


@pytest.fixture
def table_builds(monkeypatch) -> list[int]:
    """Count the honest tables built: a list that grows by one at every call of the
    kernel entry ``solve_win`` (which still runs)."""
    from golfstats.honest import solve

    calls: list[int] = []
    kernel = solve.solve_win

    def counted(*args, **kwargs):
        calls.append(1)
        return kernel(*args, **kwargs)

    monkeypatch.setattr(solve, "solve_win", counted)
    return calls
