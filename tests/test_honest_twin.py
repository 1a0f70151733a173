"""The honest optimum (``golfstats.honest``) against its plain twin (``golfstats.reference.honest``).

What is compared, and to what (docs/honest-play.md is the definition):

* hand-made boards whose values are worked out by hand in ``HAND`` (twin and fast);
* the fast ``odds`` equals the twin's to 1e-12 (win_p and expected_strokes), both goals, on
  50 mid-game positions with 1..8 stock cards for each of the 48 golf rule sets (CI), and on
  120 larger ones each in the slow run; ``move_values`` on the first 8 of each set;
* the information rule: shuffling the talon changes neither ``odds`` nor ``move_values``
  (exactly), nor the optimal policy's first decision;
* one stock card left: win_p and expected strokes are the clairvoyant ``solve`` verdict;
* win_p > 0 exactly when some order of the stock wins (every distinct order solved), and
  no honest value beats the clairvoyant average over the orders;
* the policy twin ``play_optimal``, averaged over every stock order, scores exactly the
  twin's value, and the first move of its plan has the position's value.

Positions come from tests/positions.py: seeded deals advanced by random legal engine moves
until the stock is small and a bound on the twin's work is within a budget (fixed seeds).
The tests that use the fast API take it from the ``fast`` fixture, so they error while
``golfstats.honest`` is missing and the twin's own tests still run.
Run the larger set with ``pytest -m slow tests/test_honest_twin.py``.
"""

from __future__ import annotations

import importlib
from collections import Counter
from dataclasses import dataclass
from functools import cache

import numpy as np
import pytest
from positions import orders, positions, shuffled

from golfstats.board import Board, format_board, parse_board
from golfstats.cards import kind
from golfstats.engine import DRAW, Position, apply, legal_moves, score_moves
from golfstats.reference import reference_solve
from golfstats.reference.honest import (
    _start,
    _turn,
    better,
    optimal_plan,
    play_optimal,
    reference_move_values,
    reference_odds,
)
from golfstats.reference.policies import View
from golfstats.rules import Game, all_rule_sets, parse_variant
from golfstats.solver import Goal, solve

GOLF = [r for r in all_rule_sets() if r.game is Game.GOLF]
GOALS = ("win", "strokes")
EXACT = 1e-12  # agreement of two implementations (they add in different orders, ~1e-15)
CI_SEED, SLOW_SEED = 61, 2027
REPRESENTATIVE = [parse_variant(v) for v in (
    "strict", "queens-on-kings", "putt-putt", "strict+jokers1", "putt-putt+jokers2",
    "queens-on-kings+empty-start", "putt-putt+when-stuck", "queens-on-kings+dead-queen",
    "queens-on-kings+jokers2+empty-start+when-stuck+dead-queen")]


@pytest.fixture(scope="module")
def fast():
    """The compiled API under test; an error (not a skip) while it does not exist."""
    return importlib.import_module("golfstats.honest")


# ---------------------------------------------------------------- positions

def ci_positions(rules) -> tuple[Board, ...]:
    """The CI set: 44 positions with small twin work, then 6 with 6..8 stock cards."""
    return positions(rules, CI_SEED, 44, 600) + positions(rules, CI_SEED + 1, 6, 1200, min_stock=6)


@cache
def twin(board: Board, rules, goal: str) -> tuple[float, float]:
    return reference_odds(board, rules, goal)


def check_close(got, want: tuple[float, float], board: Board, rules, goal: str) -> None:
    where = f"{rules.id} goal={goal}\n{format_board(board, rules)}"
    assert abs(got.win_p - want[0]) <= EXACT, where
    assert abs(got.expected_strokes - want[1]) <= EXACT, where


# ---------------------------------------------------------------- hand-computed values

@dataclass(frozen=True)
class Hand:
    """A board, its value per goal, the values of its legal moves and the twin's plan."""

    name: str
    variant: str
    text: str
    odds: dict
    moves: dict
    plan: dict


def _same(x) -> dict:
    return {"win": x, "strokes": x}


def _board(*columns: str, talon: str, top: str) -> str:
    cols = list(columns) + ["-"] * (7 - len(columns))
    return f"Talon: {talon}\nFoundations: {top}\n" + "\n".join(cols) + "\n"


HAND = [
    # 6 turned onto the 5, then the 7 on it: cleared with no stock left.
    Hand("one-stock-card", "strict", _board("7D", talon="6H", top="5C"),
         _same((1.0, 0.0)), _same([(DRAW, (1.0, 0.0))]), _same([DRAW])),
    # 6 first (1/2): 7 plays, cleared with 1 left (-1).  K first (1/2): a dead King, draw
    # the 6, 7 plays, cleared with 0 left.  (1, -1/2).
    Hand("two-stock-cards", "strict", _board("7D", talon="6H KS", top="5C"),
         _same((1.0, -0.5)), _same([(DRAW, (1.0, -0.5))]), _same([DRAW])),
    # 6 first (1/2): 7 on it, then the 8, 9 on it: won with 0 left.  8 first (1/2): 7 on it
    # leaves the 9, which the last card (6) does not take: lost with 1.  (1/2, 1/2).
    Hand("two-stock-cards-half-win", "strict", _board("9D 7D", talon="6H 8S", top="5C"),
         _same((0.5, 0.5)), _same([(DRAW, (0.5, 0.5))]), _same([DRAW])),
    # Playing the 9 on the 8 wastes it: 8S follows, the T is stuck (lost with 1).  Drawing
    # first: 7, 8S, 9H, TD, cleared with 0 left.
    Hand("draw-before-playing", "strict", _board("9H", "TD 8S", talon="7S", top="8C"),
         _same((1.0, 0.0)), _same([(0, (0.0, 1.0)), (DRAW, (1.0, 0.0))]), _same([DRAW])),
    # The same board under when-stuck: the 9 must be played (then the 8S), which loses with 1
    # whatever the 7 then does.
    Hand("when-stuck-forces-the-play", "strict+when-stuck", _board("9H", "TD 8S", talon="7S", top="8C"),
         _same((0.0, 1.0)), _same([(0, (0.0, 1.0))]), _same([0, 1, DRAW])),
    # A joker on top stands for any rank: the K (on a Q) or the 2.  K first is dead (strict),
    # the 2 never plays: lost with 1; the draw likewise.  2 first, the Q, the K: won, 0 left.
    Hand("joker-on-top", "strict+jokers1", _board("KS", "2D", talon="QH", top="JK"),
         _same((1.0, 0.0)), _same([(0, (0.0, 1.0)), (1, (1.0, 0.0)), (DRAW, (0.0, 1.0))]),
         _same([1, DRAW])),
    # The empty foundation takes any card: the same values as the joker on top.
    Hand("empty-foundation", "strict+empty-start", _board("KS", "2D", talon="QH", top="-"),
         _same((1.0, 0.0)), _same([(0, (0.0, 1.0)), (1, (1.0, 0.0)), (DRAW, (0.0, 1.0))]),
         _same([1, DRAW])),
    # ... and under when-stuck the empty foundation forbids the draw.
    Hand("empty-foundation-when-stuck", "strict+empty-start+when-stuck",
         _board("KS", "2D", talon="QH", top="-"),
         _same((1.0, 0.0)), _same([(0, (0.0, 1.0)), (1, (1.0, 0.0))]), _same([1, DRAW])),
    # A board may hold an empty foundation under any rule set: it takes any card too.
    Hand("empty-foundation-without-empty-start", "strict", _board("KS", "2D", talon="QH", top="-"),
         _same((1.0, 0.0)), _same([(0, (0.0, 1.0)), (1, (1.0, 0.0)), (DRAW, (0.0, 1.0))]),
         _same([1, DRAW])),
    # Q on the K, J on the Q: cleared with the T unturned.  Drawing the T first: the J is
    # under the Q, which the T does not take: lost with 2.
    Hand("queen-on-king", "queens-on-kings", _board("JD QS", talon="TH", top="KC"),
         _same((1.0, -1.0)), _same([(0, (1.0, -1.0)), (DRAW, (0.0, 2.0))]), _same([0, 0])),
    # Under dead-queen the Q played on the K accepts nothing: the T must come first.
    Hand("dead-queen", "queens-on-kings+dead-queen", _board("JD QS", talon="TH", top="KC"),
         _same((1.0, 0.0)), _same([(0, (1.0, 0.0)), (DRAW, (0.0, 2.0))]), _same([0, DRAW])),
    # A joker in the tableau bridges the 5 and the 7 (as a 6): cleared with the K unturned.
    # Drawing the K first: nothing goes on a King, not even a joker: lost with 2.
    Hand("joker-bridges", "strict+jokers1", _board("7S JK", talon="KH", top="5C"),
         _same((1.0, -1.0)), _same([(0, (1.0, -1.0)), (DRAW, (0.0, 2.0))]), _same([0, 0])),
    # Two jokers on a 5 stand for 3, 5 or 7 (parity): the 5D never plays.  Best: both jokers,
    # then the dead K, lost with 1.  Drawing the K first: lost with 3.
    Hand("two-jokers-keep-parity", "strict+jokers2", _board("5D JK JK", talon="KH", top="5C"),
         _same((0.0, 1.0)), _same([(0, (0.0, 1.0)), (DRAW, (0.0, 3.0))]), _same([0, 0, DRAW])),
    # The objectives part.  Play 6D, 7H, then draw: 4 first, 8 takes the 9: lost with 2; 8
    # first, 9, then the 4 takes the 5: lost with 1; (0, 3/2).  Draw now: 4 first: only the 9
    # plays after the 8, lost with 4; 8 first: 9, then 4, 5H, 6D, 7H, 8C: won with 0; (1/2, 2).
    # win takes the gamble (1/2, 2); strokes the sure (0, 3/2).
    Hand("objectives-differ", "strict", _board("8C 5H 9C", "7H 6D", talon="4S 8D", top="5S"),
         {"win": (0.5, 2.0), "strokes": (0.0, 1.5)},
         _same([(1, (0.0, 1.5)), (DRAW, (0.5, 2.0))]), {"win": [DRAW], "strokes": [1, 1, DRAW]}),
    # Information matters: either order wins for a clairvoyant (7C first: 8D, 5C, 6D, 7D, 8C,
    # 9H; 5C first: 7D, 8D, 5C, 6D, 7C, 8C, 9H), but the honest player must commit.  Play
    # 7D, 8D, draw: 5C first wins, 7C first loses with 1: (1/2, 1/2).  Draw now: 7C first
    # wins, 5C first loses with 2: (1/2, 1).  Honest p = 1/2 < clairvoyant 1.
    Hand("information-matters", "strict", _board("-", "8C 7D", "9H 6D 8D", talon="5C 7C", top="6C"),
         _same((0.5, 0.5)), _same([(1, (0.5, 0.5)), (DRAW, (0.5, 1.0))]), _same([1, 2, DRAW])),
    # Terminal positions: cleared with 3 stock cards left; and no stock with a play left.
    Hand("already-won", "strict", _board(talon="4S 8D 2C", top="5S"),
         _same((1.0, -3.0)), _same([]), _same([])),
    Hand("no-stock", "strict", _board("8C 5H 9C", "7H 6D", talon="-", top="5S"),
         _same((0.0, 3.0)), _same([(1, (0.0, 3.0))]), _same([1, 1])),
]


def _hand(case: Hand):
    rules = parse_variant(case.variant)
    return rules, parse_board(case.text, rules)


@pytest.mark.parametrize("goal", GOALS)
@pytest.mark.parametrize("case", HAND, ids=lambda c: c.name)
def test_twin_hand_computed(case, goal):
    rules, board = _hand(case)
    assert reference_odds(board, rules, goal) == pytest.approx(case.odds[goal], abs=EXACT)
    got = reference_move_values(board, rules, goal)
    assert [m for m, _ in got] == [m for m, _ in case.moves[goal]]
    for (_, value), (_, want) in zip(got, case.moves[goal], strict=True):
        assert value == pytest.approx(want, abs=EXACT)
    assert optimal_plan(rules, View.of(board.position()), goal) == case.plan[goal]


@pytest.mark.parametrize("goal", GOALS)
@pytest.mark.parametrize("case", HAND, ids=lambda c: c.name)
def test_fast_hand_computed(fast, case, goal):
    rules, board = _hand(case)
    got = fast.odds(board, rules, goal)
    assert got.resolved
    check_close(got, case.odds[goal], board, rules, goal)
    values = fast.move_values(board, rules, goal)
    assert [m for m, _ in values] == [m for m, _ in case.moves[goal]]
    for (_, value), (_, want) in zip(values, case.moves[goal], strict=True):
        check_close(value, want, board, rules, goal)


def test_hand_information_case_is_below_clairvoyant():
    """The "information-matters" board: every order wins for the clairvoyant solver."""
    rules, board = _hand(next(c for c in HAND if c.name == "information-matters"))
    assert all(reference_solve(b, rules)[0] for b in orders(board))
    assert reference_odds(board, rules)[0] == 0.5


# ---------------------------------------------------------------- the twin on its own

def test_twin_draw_is_the_engines_draw():
    """``_turn`` (turning a card of kind r) is ``engine.apply(DRAW)`` with an r first."""
    for rules in REPRESENTATIVE:
        for board in ci_positions(rules)[:10]:
            pos = _start(board)
            if DRAW not in legal_moves(rules, pos):
                continue
            counts = Counter(kind(c) for c in pos.stock)
            for r in counts:
                mine = _turn(pos, r, counts)
                i = next(i for i, c in enumerate(pos.stock) if c == mine.top_card)
                first = (pos.stock[i],) + pos.stock[:i] + pos.stock[i + 1:]
                engine = apply(rules, Position(pos.tableau, first, pos.top), DRAW)
                assert (mine.tableau, mine.top, mine.top_card) == (engine.tableau, engine.top,
                                                                   engine.top_card)
                assert sorted(mine.stock) == sorted(engine.stock)


@pytest.mark.parametrize("rules", REPRESENTATIVE, ids=lambda r: r.id)
def test_twin_facts_against_reference_solver(rules):
    """Facts 1 and 4 of docs/honest-play.md for the twin alone, against the plain reference
    solver: one stock card is the clairvoyant verdict; p > 0 iff some order wins; no honest
    value beats the clairvoyant average over the orders."""
    for board in ci_positions(rules):
        if len(board.stock) > 4:
            continue
        sols = [reference_solve(b, rules) for b in orders(board)]
        won = np.array([w for w, _ in sols], float)
        strokes = np.array([s for _, s in sols], float)
        for goal in GOALS:
            p, e = twin(board, rules, goal)
            if len(board.stock) == 1:
                assert (p, e) == (won[0], strokes[0])
            assert (p > 0) == won.any()
            assert p <= won.mean() + EXACT and e >= strokes.mean() - EXACT


@pytest.mark.parametrize("rules", REPRESENTATIVE, ids=lambda r: r.id)
def test_policy_twin_achieves_the_value(rules):
    """``play_optimal`` over every stock order (each equally likely) wins with frequency p and
    scores e on average: the policy (second formulation of the doc) reaches the value of the
    expectimax (first formulation); its lines are legal, finished hands."""
    boards = [b for b in ci_positions(rules) if 2 <= len(b.stock) <= 4][:3]
    assert boards
    for board in boards:
        for goal in GOALS:
            outcomes = [score_moves(rules, b.position(), play_optimal(rules, b.position(), goal))
                        for b in orders(board)]
            assert all(o.finished for o in outcomes)
            p = np.mean([o.won for o in outcomes])
            e = np.mean([o.strokes for o in outcomes])
            assert (p, e) == pytest.approx(twin(board, rules, goal), abs=EXACT)


@pytest.mark.parametrize("rules", REPRESENTATIVE, ids=lambda r: r.id)
def test_plan_starts_with_a_best_move(rules):
    """The first move of ``optimal_plan`` has the position's value (chain endpoints and the
    move-by-move expectimax agree), and no legal move is better."""
    for board in ci_positions(rules)[:12]:
        for goal in GOALS:
            plan = optimal_plan(rules, View.of(board.position()), goal)
            value = twin(board, rules, goal)
            values = dict(reference_move_values(board, rules, goal))
            assert bool(plan) == bool(values)
            if plan:
                assert values[plan[0]] == pytest.approx(value, abs=EXACT)
                assert not any(better(Goal(goal), v, value) for v in values.values())


# ---------------------------------------------------------------- fast against the twin

def check_odds(fast, rules, boards) -> None:
    for board in boards:
        for goal in GOALS:
            got = fast.odds(board, rules, goal)
            assert got.resolved
            check_close(got, twin(board, rules, goal), board, rules, goal)


def check_move_values(fast, rules, boards) -> None:
    """Every legal move, in engine order, with the twin's value; the twin plan's first move
    has the fast kernel's value of the position."""
    for board in boards:
        for goal in GOALS:
            got = fast.move_values(board, rules, goal)
            want = reference_move_values(board, rules, goal)
            assert [m for m, _ in got] == [m for m, _ in want]
            for (_, value), (_, ref) in zip(got, want, strict=True):
                check_close(value, ref, board, rules, goal)
            plan = optimal_plan(rules, View.of(board.position()), goal)
            if plan:
                best = fast.odds(board, rules, goal)
                check_close(dict(got)[plan[0]], (best.win_p, best.expected_strokes), board, rules, goal)


def check_orders(fast, rules, boards) -> None:
    """win_p > 0 iff some distinct order of the stock is winnable (each solved by ``solve``);
    honest play never beats the clairvoyant average over the orders; one card: equal."""
    for board in boards:
        sols = [solve(b, rules) for b in orders(board)]
        won = np.array([s.won for s in sols], float)
        strokes = np.array([s.strokes for s in sols], float)
        for goal in GOALS:
            got = fast.odds(board, rules, goal)
            where = f"{rules.id} goal={goal}\n{format_board(board, rules)}"
            assert (got.win_p > 0) == won.any(), where
            assert got.win_p <= won.mean() + EXACT, where
            assert got.expected_strokes >= strokes.mean() - EXACT, where
            if len(board.stock) == 1:
                assert (got.win_p, got.expected_strokes) == (won[0], strokes[0]), where


@pytest.mark.parametrize("rules", GOLF, ids=lambda r: r.id)
def test_fast_matches_twin(fast, rules):
    check_odds(fast, rules, ci_positions(rules))


@pytest.mark.parametrize("rules", GOLF, ids=lambda r: r.id)
def test_fast_move_values_match_twin(fast, rules):
    check_move_values(fast, rules, ci_positions(rules)[:8])


@pytest.mark.parametrize("rules", GOLF, ids=lambda r: r.id)
def test_information_rule(fast, rules):
    """Shuffling the talon changes neither the odds nor the move values (exactly: the order
    must never be read), so not the optimal policy's first decision either; nor the twin's
    odds and plan."""
    rng = np.random.default_rng(17)
    boards = [b for b in ci_positions(rules) if len(b.stock) >= 2][:8]
    for board in boards:
        for goal in GOALS:
            odds = fast.odds(board, rules, goal)
            values = [(m, v.win_p, v.expected_strokes) for m, v in fast.move_values(board, rules, goal)]
            for k in range(3):
                other = shuffled(board, rng)
                again = fast.odds(other, rules, goal)
                assert (again.win_p, again.expected_strokes) == (odds.win_p, odds.expected_strokes)
                assert [(m, v.win_p, v.expected_strokes)
                        for m, v in fast.move_values(other, rules, goal)] == values
                if k == 0:
                    assert reference_odds(other, rules, goal) == twin(board, rules, goal)
                    assert (optimal_plan(rules, View.of(other.position()), goal)
                            == optimal_plan(rules, View.of(board.position()), goal))


@pytest.mark.parametrize("rules", GOLF, ids=lambda r: r.id)
def test_one_stock_card_is_clairvoyant(fast, rules):
    """With one card left its kind is known: win_p is solve's verdict (0/1), expected strokes
    its strokes, under both goals."""
    boards = [b for b in ci_positions(rules) if len(b.stock) == 1]
    assert boards
    check_orders(fast, rules, boards)


@pytest.mark.parametrize("rules", GOLF, ids=lambda r: r.id)
def test_positive_exactly_when_some_order_wins(fast, rules):
    """win_p > 0 iff some order of <= 5 stock cards is winnable; never above the clairvoyant."""
    boards = [b for b in ci_positions(rules) if 2 <= len(b.stock) <= 5][:5]
    assert boards
    check_orders(fast, rules, boards)


# ---------------------------------------------------------------- slow: a larger set

def slow_positions(rules) -> tuple[Board, ...]:
    """100 positions with 1..8 stock cards and 4x the CI work bound; 20 with 6 to 12 cards
    (aiming at 6..12 in turn; few strict hands keep more than 7 with a small tableau)."""
    return (positions(rules, SLOW_SEED, 100, 2400)
            + positions(rules, SLOW_SEED + 1, 20, 6000, min_stock=6, max_stock=12))


@pytest.mark.slow
@pytest.mark.parametrize("rules", GOLF, ids=lambda r: r.id)
def test_fast_matches_twin_large(fast, rules):
    boards = slow_positions(rules)
    check_odds(fast, rules, boards)
    check_move_values(fast, rules, boards[:40])
    check_orders(fast, rules, [b for b in boards if len(b.stock) <= 5][:25])
