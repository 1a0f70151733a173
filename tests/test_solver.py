"""The fast exact solver against the slow reference solver and the reference engine.

* won and optimal strokes agree with ``golfstats.reference.reference_solve`` (plain
  exhaustive search, no tricks): in CI on seeded deals of every rule set (mostly
  mid-game positions reached by a few random legal moves, which keeps the pure-Python
  reference quick and tests mid-game solving) and on PySol golf deals 1-20; in the
  slow run on full seeded deals, 300 per king rule and 50 for every other rule set;
* every returned line, replayed through ``engine.score_moves``, is legal, finished
  and scores exactly what the solver reported;
* ``goal="win"`` agrees with ``goal="strokes"`` on ``won``; ``cap`` restricts lines.

Run the slow agreement check with ``pytest -m slow tests/test_solver.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

from golfstats.board import Board, parse_board
from golfstats.deals import pysol_board, seeded_board
from golfstats.engine import DRAW, apply, legal_moves, score_moves
from golfstats.reference import reference_solve
from golfstats.reference.solver import _Search
from golfstats.rules import all_rule_sets, parse_variant
from golfstats.solver import solve

RULE_SETS = all_rule_sets()
KING_RULES = [parse_variant(v) for v in ("strict", "queens-on-kings", "putt-putt")]
OTHERS = [r for r in RULE_SETS if r not in KING_RULES]
CI_SEED = 101
SLOW_SEED = 2024


def midgame(board: Board, rules, n_moves: int, rng: np.random.Generator) -> Board:
    """The board after up to ``n_moves`` random legal moves (fewer if the hand ends)."""
    pos = board.position()
    for _ in range(n_moves):
        moves = legal_moves(rules, pos)
        if not moves:
            break
        pos = apply(rules, pos, moves[int(rng.integers(len(moves)))])
    return Board(pos.tableau, pos.stock, pos.top_card)


def check_line(board: Board, rules, sol, goal: str = "strokes") -> None:
    """The solver's line replays legally through the reference engine to what it reported."""
    out = score_moves(rules, board.position(), sol.moves)  # raises on an illegal move
    assert out.finished, "the line must play the hand to its end"
    assert out.won == sol.won and sol.resolved
    if goal == "strokes":
        assert out.strokes == sol.strokes
    if sol.won:
        assert out.strokes == -sol.stock_left == sol.strokes
    else:
        assert sol.stock_left == 0 and out.strokes == sol.strokes


def check_agreement(board: Board, rules) -> None:
    best = solve(board, rules)
    assert (best.won, best.strokes) == reference_solve(board, rules), rules.id
    check_line(board, rules, best)
    fast_win = solve(board, rules, goal="win")
    assert fast_win.won == best.won
    check_line(board, rules, fast_win, goal="win")


# ------------------------------------------------------------ CI agreement


@pytest.mark.parametrize("rules", KING_RULES, ids=lambda r: r.id)
def test_king_rules_agree_with_reference(rules):
    """16 seeded deals per king rule: 2 full deals, 14 after 6-14 random legal moves (the
    slow run adds 30 more, ``test_king_rules_agree_with_reference_more``)."""
    _king_rule_deals(rules, range(16), full=2)


@pytest.mark.slow
@pytest.mark.parametrize("rules", KING_RULES, ids=lambda r: r.id)
def test_king_rules_agree_with_reference_more(rules):
    _king_rule_deals(rules, range(16, 46), full=0)


def _king_rule_deals(rules, indices, full: int) -> None:
    rng = np.random.default_rng(1 + indices[0])
    for index in indices:
        board = seeded_board(rules, CI_SEED, index)
        if index >= full:
            board = midgame(board, rules, 6 + index % 9, rng)
        check_agreement(board, rules)


@pytest.mark.parametrize("rules", OTHERS, ids=lambda r: r.id)
def test_other_rule_sets_agree_with_reference(rules):
    """5 seeded deals per rule set, after 12-16 random legal moves."""
    rng = np.random.default_rng(2)
    for index in range(5):
        board = midgame(seeded_board(rules, CI_SEED, index), rules, 12 + index, rng)
        check_agreement(board, rules)


def test_pysol_deals_1_to_4_queens_on_kings():
    rules = parse_variant("queens-on-kings")
    for number in range(1, 5):
        check_agreement(pysol_board(rules, number), rules)


@pytest.mark.slow
def test_pysol_deals_5_to_40_queens_on_kings():
    rules = parse_variant("queens-on-kings")
    for number in range(5, 41):
        check_agreement(pysol_board(rules, number), rules)


# ------------------------------------------------------------ goals, caps, mid-game


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.id)
def test_lines_replay_and_goals_agree(rules):
    """Fast solver only (no reference), full deals: lines replay; win agrees with strokes."""
    for index in range(4):
        board = seeded_board(rules, CI_SEED + 1, index)
        best = solve(board, rules)
        check_line(board, rules, best)
        fast_win = solve(board, rules, goal="win")
        assert fast_win.won == best.won
        check_line(board, rules, fast_win, goal="win")
        assert fast_win.states <= best.states
        assert len(best.moves) <= sum(map(len, board.tableau)) + len(board.stock)


def _turned_before_last_play(moves) -> int:
    plays = [i for i, m in enumerate(moves) if m != DRAW]
    return moves[: plays[-1] + 1].count(DRAW) if plays else 0


def _within_cap(moves, cap: int) -> list[int]:
    """The line up to (not including) its draw number ``cap + 1``."""
    out = []
    for m in moves:
        if m == DRAW and out.count(DRAW) == cap:
            break
        out.append(m)
    return out


@pytest.mark.parametrize("name", ["strict", "putt-putt", "queens-on-kings+jokers1+dead-queen",
                                  "putt-putt+when-stuck", "strict+empty-start+when-stuck"])
def test_cap_restricts_lines(name):
    """``cap`` k: only lines turning at most k stock cards count (the reference agrees)."""
    rules = parse_variant(name)
    rng = np.random.default_rng(3)
    for index in range(4):
        board = midgame(seeded_board(rules, CI_SEED + 2, index), rules, 8, rng)
        n = len(board.stock)
        free = solve(board, rules)
        assert (solve(board, rules, cap=n).won, solve(board, rules, cap=n).strokes) == \
            (free.won, free.strokes)
        previous = None
        for cap in range(0, n + 1, 3):
            capped = solve(board, rules, cap=cap)
            assert (capped.won, capped.strokes) == reference_solve(board, rules, cap=cap), cap
            assert _turned_before_last_play(capped.moves) <= cap
            # the part of the line within the cap is legal and reaches the reported score
            # (the whole line is not always: see test_capped_line_stays_within_the_cap)
            out = score_moves(rules, board.position(), _within_cap(capped.moves, cap))
            assert (out.won, out.strokes) == (capped.won, capped.strokes)
            assert capped.strokes >= free.strokes
            if previous is not None:
                assert capped.strokes <= previous, "a larger cap is never worse"
            previous = capped.strokes
        if free.won:
            turned = n - free.stock_left
            at = solve(board, rules, cap=turned)
            assert (at.won, at.strokes) == (True, free.strokes)
            if turned:
                below = solve(board, rules, cap=turned - 1)
                assert below.strokes > free.strokes


@pytest.mark.parametrize("variant", ["strict+when-stuck", "strict"])
def test_capped_line_stays_within_the_cap(variant):
    """A King on top, cap 0: no play and no draw within the cap, so the line is empty
    (a line completed past the cap would turn 5C, making the 6D playable: illegal to
    draw again under when-stuck)."""
    rules = parse_variant(variant)
    board = parse_board("Talon: 5C 4C\nFoundations: KS\n6D\n-\n-\n-\n-\n-\n-", rules)
    capped = solve(board, rules, cap=0)
    assert (capped.won, capped.strokes) == (False, 1) == reference_solve(board, rules, cap=0)
    assert capped.moves.count(DRAW) == 0
    score_moves(rules, board.position(), capped.moves)  # every move legal


@pytest.mark.parametrize(("variant", "text"), [
    ("putt-putt", "Talon: 2C\nFoundations: -\n9S 6S\n4C\n-\n-\n-\n-\n-"),
    ("black-hole", "Foundations: -\n" + "\n".join(["9S 6S", "4C"] + ["-"] * 15)),
])
def test_empty_foundation_without_empty_start(variant, text):
    """Board text allows an empty foundation (``-``) under any rule set, and the engine plays
    it (any card may start the pile); so must the solver."""
    rules = parse_variant(variant)
    board = parse_board(text, rules)
    expected = reference_solve(board, rules)
    best = solve(board, rules)
    assert (best.won, best.strokes) == expected
    check_line(board, rules, best)


@pytest.mark.parametrize(("variant", "text", "expected"), [
    # one play clears the tableau with three stock cards unturned
    ("strict", "Talon: 5C 6C 7C\nFoundations: 4H\n5H\n-\n-\n-\n-\n-\n-", (True, -3)),
    # drawing first would waste a card: play 5H, 6H, then 8D needs the 9C (or 7C) drawn
    ("strict", "Talon: 9C 2D\nFoundations: 4H\n6H 5H\n8D\n-\n-\n-\n-\n-", (True, -1)),
    # the dead Queen: QH on KS accepts nothing, so JD is stuck; alive, JD follows
    ("queens-on-kings+dead-queen", "Talon: 9C\nFoundations: KS\nJD QH\n-\n-\n-\n-\n-\n-", (False, 1)),
    ("queens-on-kings", "Talon: 9C\nFoundations: KS\nJD QH\n-\n-\n-\n-\n-\n-", (True, -1)),
    # a joker on the foundation stands for any rank
    ("strict+jokers1", "Talon: 2C\nFoundations: JK\nKD\n9S\n-\n-\n-\n-\n-", (False, 1)),
    ("putt-putt+jokers1", "Talon: 2C\nFoundations: JK\nKD\nAS\n-\n-\n-\n-\n-", (True, -1)),
    # empty foundation: the first card may be any card
    ("strict+empty-start", "Talon: 3C\nFoundations: -\n8C 9D\n-\n-\n-\n-\n-\n-", (True, -1)),
    # when-stuck: 5H then 4S, the 6C is never turned; stuck on 5H over 9S, the 8C is turned
    ("strict+when-stuck", "Talon: 6C\nFoundations: 4H\n4S 5H\n-\n-\n-\n-\n-\n-", (True, -1)),
    ("strict+when-stuck", "Talon: 8C 2C\nFoundations: 4H\n9S 5H\n-\n-\n-\n-\n-\n-", (True, -1)),
    # nothing left to play: already won, every stock card unturned
    ("putt-putt", "Talon: 3C 4C\nFoundations: 4H\n-\n-\n-\n-\n-\n-\n-", (True, -2)),
    # Black Hole wraps: 4C 3C 2D AD KD
    ("black-hole", "Foundations: 5S\n" + "\n".join(["3C 4C", "KD AD 2D"] + ["-"] * 15), (True, 0)),
    ("black-hole", "Foundations: 5S\n" + "\n".join(["9C", "KD 6D"] + ["-"] * 15), (False, 2)),
    ("all-in-a-row", "Foundations: -\n" + "\n".join(["AC KD", "QS", "2H"] + ["-"] * 10), (True, 0)),
])
def test_midgame_boards_with_known_answers(variant, text, expected):
    rules = parse_variant(variant)
    board = parse_board(text, rules)
    assert reference_solve(board, rules) == expected
    best = solve(board, rules)
    assert (best.won, best.strokes) == expected
    check_line(board, rules, best)


def test_reference_moves_are_the_engines():
    """The reference's move generator gives exactly engine.legal_moves + engine.apply
    (same moves, same children), on positions along random games of every rule set."""
    rng = np.random.default_rng(4)
    for rules in RULE_SETS:
        board = seeded_board(rules, CI_SEED + 3, 0)
        search = _Search(board, rules)
        pos = board.position()
        code, k, t = search.full, 0, search.top0
        while True:
            mine = search.moves(code, k, t)
            legal = legal_moves(rules, pos)
            assert [m[0] for m in mine] == legal, rules.id
            for move, child_code, child_k, child_t in mine:
                child = apply(rules, pos, move)
                assert search.heights(child_code) == [len(col) for col in child.tableau]
                assert child_k == len(board.stock) - len(child.stock)
                assert search.tops[child_t] == child.top
            if not legal:
                break
            i = int(rng.integers(len(legal)))
            pos = apply(rules, pos, legal[i])
            _, code, k, t = mine[i]


# ------------------------------------------------------------ slow: the full agreement run


def _slow_count(rules) -> int:
    """Deals of the slow run: 300 for each plain king rule, 50 for every other rule set."""
    return 300 if rules in KING_RULES else 50


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.id)
def test_full_deals_agree_with_reference_slow(rules):
    """300 full seeded deals per king rule and 50 for every other rule set and game."""
    for index in range(_slow_count(rules)):
        check_agreement(seeded_board(rules, SLOW_SEED, index), rules)


def test_slow_counts():
    counts = {r.id: _slow_count(r) for r in RULE_SETS}
    assert sum(c == 300 for c in counts.values()) == 3
    assert {counts[v] for v in ("strict", "queens-on-kings", "putt-putt")} == {300}
    assert all(c >= 50 for c in counts.values()) and len(counts) == 50
