"""The honest optimum (``golfstats.honest``) against its plain twin (``golfstats.reference.expectimax``).

What is compared, and to what (docs/honest-play.md is the definition):

* hand-made boards whose values are worked out by hand (``HAND`` in tests/positions.py,
  twin and fast): the
  value (p, e) per goal, every legal move's (p, e, c) (c: the cards left at the end of the
  chain the move plays; a draw's c is the cards now) and the twin's plan.  Several tell the
  ``win`` rule of the doc apart from the one before it ("largest p, then smallest e"
  everywhere): where nothing can be won the fewest cards come first, then e;
* the fast ``odds`` equals the twin's to 1e-12 (win_p and expected_strokes), both goals, on
  50 mid-game positions with 1..8 stock cards for each of the 48 golf rule sets (CI), and on
  120 larger ones each in the slow run; ``move_values`` on the first 8 of each set;
* the compiled play-out ``play_optimal`` makes the twin policy's moves, move for move, under
  every order of a small stock (hand boards and positions with 1..3 stock cards, 9 rule
  sets, both goals), and reports the twin's value;
* the information rule: shuffling the talon changes neither ``odds`` nor ``move_values``
  (exactly), nor the optimal policy's first decision;
* one stock card left: win_p is the clairvoyant ``solve`` verdict, and expected strokes
  too under strokes (under win only when won: a lost hand plays the fewest cards);
* win_p > 0 exactly when some order of the stock wins (every distinct order solved), and
  no honest value beats the clairvoyant average over the orders; the win goal's p is the
  largest and the strokes goal's e the smallest of the two policies';
* the two formulations of the twin agree: the first move of the chain-level plan is a best
  move of the move-by-move form and has the position's value (p, e and c), the move-by-move
  choices end at an endpoint of the same value, and where nothing can be won the policy's c
  is the fewest cards any chain leaves; ``play_optimal``, averaged over every stock order,
  scores exactly the twin's value.

Positions come from tests/positions.py: seeded deals advanced by random legal engine moves
until the stock is small and a bound on the twin's work is within a budget (fixed seeds).
The tests that use the fast API take it from the ``fast`` fixture, so they error while
``golfstats.honest`` is missing and the twin's own tests still run (``-k "not fast"``).
Run the larger set with ``pytest -m slow tests/test_honest_twin.py``.
"""

from __future__ import annotations

import importlib
import math
from collections import Counter
from functools import cache

import numpy as np
import pytest
from positions import HAND, Hand, orders, positions, shuffled

from golfstats.board import Board, format_board, parse_board
from golfstats.cards import kind
from golfstats.engine import DRAW, Position, apply, legal_moves, score_moves
from golfstats.reference import reference_solve
from golfstats.reference.expectimax import (
    TOL,
    _Expectimax,
    _start,
    _turn,
    choose,
    optimal_plan,
    play_optimal,
    reference_move_values,
    reference_odds,
    reference_value,
)
from golfstats.reference.policies import View, chain_endpoints
from golfstats.rules import Game, all_rule_sets, parse_variant
from golfstats.solver import solve

GOLF = [r for r in all_rule_sets() if r.game is Game.GOLF]
GOALS = ("win-strokes", "strokes")
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


def _moves(odds) -> list:
    """``(move, value)`` for every legal move (``Odds.moves``)."""
    return [(m.move, m.value) for m in odds.moves]


def _play_fast(rules, deals, goal):
    return importlib.import_module("golfstats.honest").play_optimal(rules, deals, goal)


# ---------------------------------------------------------------- positions

def ci_positions(rules) -> tuple[Board, ...]:
    """The CI set: 44 positions with small twin work, then 6 with 6..8 stock cards."""
    return positions(rules, CI_SEED, 44, 600) + positions(rules, CI_SEED + 1, 6, 1200, min_stock=6)


@cache
def twin(board: Board, rules, goal: str) -> tuple[float, float]:
    return reference_odds(board, rules, goal)


def check_close(got, want: tuple[float, ...], board: Board, rules, goal: str) -> None:
    where = f"{rules.id} goal={goal}\n{format_board(board, rules)}"
    assert abs(got.p - want[0]) <= EXACT, where
    assert abs(got.e - want[1]) <= EXACT, where


# ---------------------------------------------------------------- hand-computed values

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
        assert value[:2] == pytest.approx(want[:2], abs=EXACT)
        assert value[2] == want[2]
    assert optimal_plan(rules, View.of(board.position()), goal) == case.plan[goal]


@pytest.mark.parametrize("goal", GOALS)
@pytest.mark.parametrize("case", HAND, ids=lambda c: c.name)
def test_fast_hand_computed(fast, case, goal):
    rules, board = _hand(case)
    got = fast.odds(board, rules, goal)
    assert got.resolved
    check_close(got.value, case.odds[goal], board, rules, goal)
    values = _moves(fast.odds(board, rules, goal))
    assert [m for m, _ in values] == [m for m, _ in case.moves[goal]]
    for (_, value), (_, want) in zip(values, case.moves[goal], strict=True):
        check_close(value, want, board, rules, goal)


def test_hand_information_case_is_below_clairvoyant():
    """The "information-matters" board: every order wins for the clairvoyant solver."""
    rules, board = _hand(next(c for c in HAND if c.name == "information-matters"))
    assert all(reference_solve(b, rules)[0] for b in orders(board))
    assert reference_odds(board, rules)[0] == 0.5


@pytest.mark.parametrize("case", HAND, ids=lambda c: c.name)
def test_hand_zero_exactly_when_no_order_wins(case):
    """Fact 1 on the hand boards: the cases that say nothing can be won are those no order of
    the stock wins for the clairvoyant solver."""
    rules, board = _hand(case)
    assert (case.odds["win-strokes"][0] > 0) == any(reference_solve(b, rules)[0] for b in orders(board))


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


def test_choose_follows_the_objectives():
    """``choose`` on made-up values: each criterion of docs/honest-play.md in its turn."""
    assert choose("win-strokes", [(0.5, 2.0, 1), (0.5, 1.0, 5), (0.25, 0.0, 0)]) == [1]  # p, then e
    assert choose("win-strokes", [(0.5, 1.0, 5), (0.5, 1.0 + TOL / 2, 2)]) == [1]  # e ties: c
    assert choose("win-strokes", [(0.0, 1.0, 5), (0.0, 3.0, 2), (0.0, 2.0, 2)]) == [2]  # p = 0: c, e
    assert choose("win-strokes", [(TOL / 2, 1.0, 5), (0.0, 3.0, 2)]) == [1]  # p* <= TOL counts as 0
    assert choose("win-strokes", [(0.0, 2.0, 2), (0.0, 2.0, 2)]) == [0, 1]  # ties: all, in order
    assert choose("strokes", [(0.0, 1.0, 5), (0.5, 1.5, 0), (0.5, 1.0, 6)]) == [2]  # e, p
    assert choose("strokes", [(0.5, 1.0, 6), (0.5, 1.0, 4)]) == [1]  # then c
    assert choose("win-strokes", []) == []


@pytest.mark.parametrize("rules", REPRESENTATIVE, ids=lambda r: r.id)
def test_twin_facts_against_reference_solver(rules):
    """Facts 1 and 4 of docs/honest-play.md for the twin alone, against the plain reference
    solver: with one stock card p is the clairvoyant verdict, and so is e under strokes (and
    under win when the hand is won; where it is lost the win policy plays the fewest cards,
    not the fewest strokes); p > 0 iff some order wins; no honest value beats the
    clairvoyant average over the orders.  And each goal is optimal for its own number: the
    win policy's p is at least the strokes policy's, the strokes policy's e at most the win
    policy's (both are honest policies)."""
    for board in ci_positions(rules):
        if len(board.stock) > 4:
            continue
        sols = [reference_solve(b, rules) for b in orders(board)]
        won = np.array([w for w, _ in sols], float)
        strokes = np.array([s for _, s in sols], float)
        for goal in GOALS:
            p, e = twin(board, rules, goal)
            if len(board.stock) == 1:
                assert p == won[0]
                if goal == "strokes" or p == 1:
                    assert e == strokes[0]
            assert (p > 0) == won.any()
            assert p <= won.mean() + EXACT and e >= strokes.mean() - EXACT
        (pw, ew), (ps, es) = (twin(board, rules, goal) for goal in GOALS)
        assert pw >= ps - EXACT and es <= ew + EXACT


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


@pytest.mark.parametrize("case", HAND, ids=lambda c: c.name)
def test_policy_twin_achieves_the_hand_values(case):
    """The same on the hand boards, where the rules for ``win`` differ most."""
    rules, board = _hand(case)
    for goal in GOALS:
        outcomes = [score_moves(rules, b.position(), play_optimal(rules, b.position(), goal))
                    for b in orders(board)]
        assert all(o.finished for o in outcomes)
        got = (np.mean([o.won for o in outcomes]), np.mean([o.strokes for o in outcomes]))
        assert got == pytest.approx(case.odds[goal], abs=EXACT)


def _move_by_move_endpoint(rules, board: Board, goal: str):
    """The first formulation's chain: the first best move (``choose``) again and again until
    it is a draw or the hand is over; the endpoint and the value of the move ending there."""
    solver = _Expectimax(rules, goal)
    pos = _start(board)
    while True:
        moves = legal_moves(rules, pos)
        if not moves:
            return pos, solver.value(pos)
        values = [solver.move_value(pos, m) for m in moves]
        move = moves[choose(goal, values)[0]]
        if move == DRAW:
            return pos, values[moves.index(DRAW)]
        pos = apply(rules, pos, move)


def _plan_endpoint(rules, board: Board, goal: str, plan: list[int]):
    """The chain of ``plan`` played out, and the value of what it does there (the draw, or
    the finished hand), from the first formulation."""
    solver = _Expectimax(rules, goal)
    pos = _start(board)
    for move in plan:
        if move == DRAW:
            return pos, solver.move_value(pos, DRAW)
        pos = apply(rules, pos, move)
    assert not legal_moves(rules, pos)  # a plan without a draw finishes the hand
    return pos, solver.value(pos)


@pytest.mark.parametrize("rules", REPRESENTATIVE, ids=lambda r: r.id)
def test_plan_starts_with_a_best_move(rules):
    """The two formulations agree.  The first move of ``optimal_plan`` (chain by chain) is a
    best move of the move-by-move form (``choose``) and has the position's value (p, e and
    c); the plan's endpoint and the move-by-move form's endpoint have that value, and c is
    the cards left there; under win where nothing can be won, c is the fewest cards any
    chain of plays leaves."""
    for board in ci_positions(rules)[:12]:
        for goal in GOALS:
            plan = optimal_plan(rules, View.of(board.position()), goal)
            value = reference_value(board, rules, goal)
            moves = reference_move_values(board, rules, goal)
            assert bool(plan) == bool(moves)
            if not plan:
                continue
            values = [v for _, v in moves]
            first = [m for m, _ in moves].index(plan[0])
            assert first in choose(goal, values)
            assert values[first][:2] == pytest.approx(value[:2], abs=EXACT)
            assert values[first][2] == value[2]
            for end, there in (_plan_endpoint(rules, board, goal, plan),
                               _move_by_move_endpoint(rules, board, goal)):
                assert there[:2] == pytest.approx(value[:2], abs=EXACT)
                assert there[2] == value[2] == end.cards_left()
            if goal == "win-strokes" and value[0] <= TOL:
                fewest = min(e.cards_left() for e, _ in chain_endpoints(rules, _start(board)))
                assert value[2] == fewest


@pytest.mark.parametrize("rules", REPRESENTATIVE, ids=lambda r: r.id)
def test_win_rule_where_nothing_can_be_won(rules):
    """Under win at p = 0 every position's value plays the fewest cards: for each move, c is
    the fewest cards a chain starting with it leaves (a draw: the cards now), on the
    positions of the CI set whose p is 0."""
    boards = [b for b in ci_positions(rules) if twin(b, rules, "win-strokes")[0] == 0][:10]
    assert boards
    for board in boards:
        pos = _start(board)
        for move, (p, _, c) in reference_move_values(board, rules, "win-strokes"):
            assert p == 0
            if move == DRAW:
                assert c == pos.cards_left()
            else:
                after = apply(rules, pos, move)
                assert c == min(e.cards_left() for e, _ in chain_endpoints(rules, after))


# ---------------------------------------------------------------- fast against the twin

def check_odds(fast, rules, boards) -> None:
    for board in boards:
        for goal in GOALS:
            got = fast.odds(board, rules, goal)
            assert got.resolved
            check_close(got.value, twin(board, rules, goal), board, rules, goal)


def check_move_values(fast, rules, boards) -> None:
    """Every legal move, in engine order, with the twin's value; the twin plan's first move
    has the fast kernel's value of the position."""
    for board in boards:
        for goal in GOALS:
            got = _moves(fast.odds(board, rules, goal))
            want = reference_move_values(board, rules, goal)
            assert [m for m, _ in got] == [m for m, _ in want]
            for (_, value), (_, ref) in zip(got, want, strict=True):
                check_close(value, ref, board, rules, goal)
            plan = optimal_plan(rules, View.of(board.position()), goal)
            if plan:
                best = fast.odds(board, rules, goal)
                check_close(dict(got)[plan[0]], (best.value.p, best.value.e), board, rules, goal)


def check_orders(fast, rules, boards) -> None:
    """win_p > 0 iff some distinct order of the stock is winnable (each solved by ``solve``);
    honest play never beats the clairvoyant average over the orders; one card: win_p equal,
    expected strokes too under strokes and under win when won (a lost hand under win plays
    the fewest cards, not the fewest strokes)."""
    for board in boards:
        sols = [solve(b, rules) for b in orders(board)]
        won = np.array([s.won for s in sols], float)
        strokes = np.array([s.strokes for s in sols], float)
        for goal in GOALS:
            got = fast.odds(board, rules, goal)
            where = f"{rules.id} goal={goal}\n{format_board(board, rules)}"
            got = got.value
            assert (got.p > 0) == won.any(), where
            assert got.p <= won.mean() + EXACT, where
            assert got.e >= strokes.mean() - EXACT, where
            if len(board.stock) == 1:
                assert got.p == won[0], where
                if goal == "strokes" or got.p == 1:
                    assert got.e == strokes[0], where


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
            values = [(m, v.p, v.e) for m, v in _moves(fast.odds(board, rules, goal))]
            for k in range(3):
                other = shuffled(board, rng)
                again = fast.odds(other, rules, goal)
                assert (again.value.p, again.value.e) == (odds.value.p, odds.value.e)
                assert [(m, v.p, v.e)
                        for m, v in _moves(fast.odds(other, rules, goal))] == values
                if k == 0:
                    assert reference_odds(other, rules, goal) == twin(board, rules, goal)
                    assert (optimal_plan(rules, View.of(other.position()), goal)
                            == optimal_plan(rules, View.of(board.position()), goal))


@pytest.mark.parametrize("rules", GOLF, ids=lambda r: r.id)
def test_one_stock_card_is_clairvoyant(fast, rules):
    """With one card left its kind is known: win_p is solve's verdict (0/1) under both goals,
    expected strokes its strokes under strokes (and under win when won)."""
    boards = [b for b in ci_positions(rules) if len(b.stock) == 1]
    assert boards
    check_orders(fast, rules, boards)


@pytest.mark.parametrize("rules", GOLF, ids=lambda r: r.id)
def test_positive_exactly_when_some_order_wins(fast, rules):
    """win_p > 0 iff some order of <= 5 stock cards is winnable; never above the clairvoyant."""
    boards = [b for b in ci_positions(rules) if 2 <= len(b.stock) <= 5][:5]
    assert boards
    check_orders(fast, rules, boards)


# ---------------------------------------------------------------- the compiled play-out

@cache
def twin_lines(board: Board, rules, goal: str) -> tuple[tuple[int, ...], ...]:
    """The twin policy's moves under each distinct order of the stock (``orders``)."""
    return tuple(tuple(play_optimal(rules, b.position(), goal)) for b in orders(board))


@cache
def play_out_positions(rules) -> tuple[Board, ...]:
    """Six CI positions with 1..3 stock cards: first those where the win and strokes
    policies play differently under some order (where the rules for win show), then the
    others, in order."""
    small = [b for b in ci_positions(rules) if len(b.stock) <= 3]
    differ = [b for b in small if twin_lines(b, rules, "win-strokes") != twin_lines(b, rules, "strokes")]
    return tuple((differ + [b for b in small if b not in differ])[:6])


def check_play_out(fast, rules, boards, goal: str) -> None:
    """Under every distinct order of the stock the compiled play-out makes the twin policy's
    moves (``play_optimal``, the doc's tie-breaks included), its line replays through the
    engine to the result it reports, and its odds are the twin's value of the position."""
    for board in boards:
        want = twin(board, rules, goal)
        for dealt, moves in zip(orders(board), twin_lines(board, rules, goal), strict=True):
            where = f"{rules.id} goal={goal}\n{format_board(dealt, rules)}"
            (play,) = _play_fast(rules, dealt, goal)
            assert tuple(play.line.moves) == moves, where
            out = score_moves(rules, dealt.position(), moves)
            assert (play.line.won, play.line.strokes) == (out.won, out.strokes), where
            check_close(play.odds.value, want, dealt, rules, goal)


@pytest.mark.parametrize("goal", GOALS)
@pytest.mark.parametrize("rules", REPRESENTATIVE, ids=lambda r: r.id)
def test_fast_play_out_matches_twin(fast, rules, goal):
    check_play_out(fast, rules, play_out_positions(rules), goal)


@pytest.mark.parametrize("goal", GOALS)
@pytest.mark.parametrize("case", [c for c in HAND if c.moves["win-strokes"]], ids=lambda c: c.name)
def test_fast_play_out_hand(fast, case, goal):
    """The hand boards, where the rules for ``win`` differ most, under every stock order."""
    rules, board = _hand(case)
    check_play_out(fast, rules, [board], goal)


@pytest.mark.parametrize("rules", REPRESENTATIVE, ids=lambda r: r.id)
def test_fast_win_only_play_out_matches_twin(fast, rules):
    """``optimal:goal=win``: only the chances of winning are computed and ties of p go to
    the fewest cards left.  Under every distinct order of the stock the compiled play-out
    makes the twin's moves (its ``play_optimal`` under goal win), its p is the twin's and
    it reports no expected strokes; averaged over the orders it wins p of the time."""
    for board in play_out_positions(rules):
        want = twin(board, rules, "win-strokes")
        wins = []
        for dealt in orders(board):
            where = f"{rules.id} win only\n{format_board(dealt, rules)}"
            moves = tuple(play_optimal(rules, dealt.position(), "win"))
            (play,) = _play_fast(rules, dealt, "win")
            assert tuple(play.line.moves) == moves, where
            assert abs(play.odds.value.p - want[0]) <= 1e-12 and math.isnan(play.odds.value.e)
            wins.append((play.line.won, len(dealt.stock)))
        # every distinct order of kinds is equally likely (``orders``)
        assert abs(np.mean([won for won, _ in wins]) - want[0]) < 1e-9


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
