"""The honest expectimax kernel (``golfstats.honest``, ``kernels/honest/``): what only it knows.

* Its values equal a brute-force recursion written here from ``docs/honest-play.md``
  alone (moves of ``engine.legal_moves``, draws averaged over kinds, memoised on
  (tableau, top, unseen multiset); goal win by the doc's rule stated move by move, each
  value carried with the cards left where its chain stops), to 1e-12, on small positions
  of every rule set and both goals (the plain twin's agreement tests live in
  ``tests/test_honest_twin.py``).
* The W bitsets of goal win are Fact 1: a bit is set exactly when the brute-force p of
  that draw is positive.
* The facts of the doc: p > 0 exactly when some stock order is winnable (Fact 1, every
  order solved by ``golfstats.solver.solve``); p is at most the share of winnable orders
  and e at least the clairvoyant mean (the clairvoyant bound); swapping a dead kind of the
  stock for another dead kind changes nothing (Fact 2); under draw any-time more stock
  left is never worse (Fact 3; under goal win for p, its e not being an optimum); with
  one stock card left p is the clairvoyant verdict, and so is e under goal strokes (Fact 4).
* A budget that is hit gives ``resolved=False`` and NaN values, never a number.
* The play-out's line replays through ``golfstats.engine`` to the result it reports, and
  its decisions depend only on what the player has seen (the unseen stock shuffled, the
  decisions so far stay the same).
"""

from __future__ import annotations

import functools
import itertools
import math
import zlib
from collections import Counter

import numpy as np
import pytest

from golfstats.board import Board, format_board
from golfstats.cards import KING, QUEEN, kind
from golfstats.deals import pysol_board, seeded_board
from golfstats.engine import DRAW, Position, Top, apply, legal_moves, score_moves
from golfstats.honest import Odds, odds, play_optimal
from golfstats.honest.odds import _tables
from golfstats.rules import Draw, all_rule_sets, parse_variant
from golfstats.solver import solve

TOL = 1e-9
GOLF = [r for r in all_rule_sets() if r.layout.has_stock]
SEED = 31


def _best(goal: str, values: list[tuple[float, float, int]]) -> int:
    """Index of the move the doc's rule picks among ``values`` = (p, e, c) per move (c: the
    cards left where the chain the move plays stops; a draw's c is the cards now), by
    the rule stated move by move, on the set: goal win, p* the best p: if p* > TOL the
    moves with p >= p* - TOL compete on the smallest e, then the smallest c; otherwise all
    compete on the smallest c, then the smallest e.  Goal strokes: the smallest e, then
    the largest p.  Ties within TOL: the first."""
    idx = list(range(len(values)))
    if goal == "win-strokes":
        top = max(v[0] for v in values)
        if top > TOL:
            idx = [i for i in idx if values[i][0] >= top - TOL]
            low = min(values[i][1] for i in idx)
            idx = [i for i in idx if values[i][1] <= low + TOL]
            least = min(values[i][2] for i in idx)
            return next(i for i in idx if values[i][2] == least)
        least = min(values[i][2] for i in idx)
        idx = [i for i in idx if values[i][2] == least]
        low = min(values[i][1] for i in idx)
        return next(i for i in idx if values[i][1] <= low + TOL)
    low = min(v[1] for v in values)
    idx = [i for i in idx if values[i][1] <= low + TOL]
    top = max(values[i][0] for i in idx)
    return next(i for i in idx if values[i][0] >= top - TOL)


def _no_worse(goal: str, a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Is the value a at least as good as b (goal strokes: e, then p; goal win: p)?"""
    (p1, e1), (p2, e2) = a, b
    if goal == "win-strokes":
        return p1 >= p2 - TOL
    return e1 < e2 - TOL or (e1 <= e2 + TOL and p1 >= p2 - TOL)


def brute_triple(rules, board: Board, goal: str, top: Top | None = None) -> tuple[float, float, int]:
    """The doc's recursion, verbatim and move by move: the value (p, e) of the best legal
    move by ``_best``, draws averaged over kinds, carried with c (the cards left where the
    chain stops: a draw's c is the cards now, a play's c is that of the position after it)."""
    pos0 = board.position()
    top0 = pos0.top if top is None else top
    unseen: dict[int, int] = {}
    for card in board.stock:
        unseen[kind(card)] = unseen.get(kind(card), 0) + 1

    @functools.cache
    def value(tableau, top, m):
        left = sum(map(len, tableau))
        n = sum(k for _, k in m)
        if left == 0:
            return 1.0, -float(n), 0
        pos = Position(tableau, (0,) * n, top)  # the stock's cards are unseen: only its size
        moves = legal_moves(rules, pos)
        if not moves:
            return 0.0, float(left), left
        values = []
        for move in moves:
            if move == DRAW:
                p = e = 0.0
                for i, (r, k) in enumerate(m):
                    rest = tuple((s, c - (j == i)) for j, (s, c) in enumerate(m) if c - (j == i))
                    vp, ve, _ = value(tableau, Top.drawn(r), rest)
                    p += k / n * vp
                    e += k / n * ve
                values.append((p, e, left))
            else:
                after = apply(rules, pos, move)
                values.append(value(after.tableau, after.top, m))
        return values[_best(goal, values)]

    return value(pos0.tableau, top0, tuple(sorted(unseen.items())))


def brute_value(rules, board: Board, goal: str, top: Top | None = None) -> tuple[float, float]:
    return brute_triple(rules, board, goal, top)[:2]


def small_position(rules, index: int, rng: np.random.Generator, cards: int = 8,
                   stock: int | None = None) -> Board:
    """A late position of seeded deal ``index``: its clairvoyant line (``solve``) played
    until at most ``cards`` tableau cards or at most ``stock`` stock cards are left (a
    random 2-5 unless given), the stock then cut to that many cards.  Following a best
    line keeps many of these positions winnable for some orders and not for others."""
    board = seeded_board(rules, SEED, index)
    n = int(rng.integers(2, 6)) if stock is None else stock
    pos = board.position()
    for move in solve(board, rules, "strokes").moves:
        if pos.cards_left() <= cards or len(pos.stock) <= n:
            break
        pos = apply(rules, pos, move)
    return Board(pos.tableau, pos.stock[:n], pos.top_card)


def _close(a: Odds, b: tuple[float, float], tol: float = 1e-12) -> bool:
    return abs(a.value.p - b[0]) <= tol and abs(a.value.e - b[1]) <= tol


@pytest.mark.parametrize("rules", GOLF, ids=lambda r: r.id)
def test_agrees_with_brute_force(rules):
    rng = np.random.default_rng(zlib.crc32(rules.id.encode()))  # stable across processes
    nontrivial = 0
    for i in range(10):
        board = small_position(rules, i, rng, cards=7, stock=int(rng.integers(2, 5)))
        for goal in ("win-strokes", "strokes"):
            got = odds(board, rules, goal)
            want = brute_value(rules, board, goal)
            assert got.resolved
            assert _close(got, want), (rules.id, i, goal, got, want)
            nontrivial += 0 < want[0] < 1 or want[1] != round(want[1])
    assert nontrivial > 0, "the sample should hold positions of uncertain outcome"


@pytest.mark.parametrize("variant", ["strict", "queens-on-kings+dead-queen", "putt-putt+jokers2"])
def test_move_values_and_mid_game_tops(variant):
    """Each legal move's value is the brute-force value after it, the best of them is the
    position's value, and a top a board cannot hold (dead Queen, joker meanings, empty
    foundation) is valued as given."""
    rules = parse_variant(variant)
    rng = np.random.default_rng(5)
    tops = [None, Top.any()]
    if rules.dead_queen:
        tops.append(Top(frozenset({(QUEEN, True)})))
    if rules.jokers:
        tops.append(Top.of_rank(KING).after(rules, 0))
    for i, top in itertools.product(range(3), tops):
        board = small_position(rules, i, rng, stock=3)
        pos = board.position() if top is None else Position(board.position().tableau,
                                                              board.stock, top)
        for goal in ("win-strokes", "strokes"):
            values = [(m.move, m) for m in odds(board, rules, goal, top=top).moves]
            assert [m for m, _ in values] == legal_moves(rules, pos)
            root = odds(board, rules, goal, top=top)
            assert _close(root, brute_value(rules, board, goal, top))
            triples = []
            for move, value in values:
                after = apply(rules, Position(pos.tableau, (0,) * len(board.stock), pos.top), move)
                if move == DRAW:
                    want = brute_draw(rules, board, goal, pos)
                    triples.append((*want, sum(map(len, pos.tableau))))
                else:
                    t = brute_triple(rules, Board(after.tableau, board.stock, None), goal,
                                     after.top)
                    want = t[:2]
                    triples.append(t)
                assert _close(value, want), (variant, i, top, move, goal)
            if values:
                best = triples[_best(goal, triples)]
                assert _close(root, best[:2])


def brute_draw(rules, board: Board, goal: str, pos: Position) -> tuple[float, float]:
    counts: dict[int, int] = {}
    for card in board.stock:
        counts[kind(card)] = counts.get(kind(card), 0) + 1
    n = len(board.stock)
    p = e = 0.0
    for r, k in counts.items():
        card = next(c for c in board.stock if kind(c) == r)
        rest = list(board.stock)
        rest.remove(card)
        vp, ve = brute_value(rules, Board(pos.tableau, tuple(rest), None), goal, Top.drawn(r))
        p += k / n * vp
        e += k / n * ve
    return p, e


def _distinct_orders(board: Board):
    """One board per distinct order of the stock's kinds.  Card orders are equally likely
    and each kind order stands for the same number of them, so kind orders are too."""
    seen, out = set(), []
    for order in itertools.permutations(board.stock):
        key = tuple(kind(c) for c in order)
        if key not in seen:
            seen.add(key)
            out.append(Board(board.tableau, order, board.foundation))
    return out


@pytest.mark.parametrize("variant", ["strict", "queens-on-kings", "putt-putt+when-stuck",
                                     "strict+jokers1", "putt-putt+empty-start"])
def test_zero_exactly_when_no_order_wins_and_clairvoyant_bound(variant):
    """Fact 1 (for goal win), and the clairvoyant bound for both goals: p <= the share of
    winnable orders, e >= the mean of the clairvoyant optimum over the orders."""
    rules = parse_variant(variant)
    rng = np.random.default_rng(11)
    seen = {True: 0, False: 0}
    for i in range(12):
        board = small_position(rules, i, rng, cards=10, stock=int(rng.integers(2, 6)))
        orders = _distinct_orders(board)
        sols = [solve(b, rules, "strokes") for b in orders]
        wins = sum(s.won for s in sols)
        share = wins / len(orders)
        mean = sum(s.strokes for s in sols) / len(orders)
        got = odds(board, rules, "win-strokes")
        assert (got.value.p > 0) == (wins > 0), (variant, i, got, wins)
        for goal in ("win-strokes", "strokes"):  # (a strokes player may give up a slim win chance)
            got = odds(board, rules, goal)
            # no honest policy beats the clairvoyant one on any order
            assert got.value.p <= share + 1e-12
            assert got.value.e >= mean - 1e-12
        seen[wins > 0] += 1
    assert seen[True] and seen[False]


@pytest.mark.parametrize("variant", ["strict", "queens-on-kings+when-stuck", "putt-putt+jokers1"])
def test_one_card_left_is_the_clairvoyant_verdict(variant):
    """Fact 4: with one stock card the honest p is the clairvoyant verdict (won) of solve(),
    and under goal strokes e is its optimal strokes.  Under goal win e is the e of the
    doc's fewest-cards rule where nothing can be won, which may exceed the optimum (a
    chain that leaves more cards now can score better after the last draw), so only the
    bound e >= the optimum holds there."""
    rules = parse_variant(variant)
    rng = np.random.default_rng(3)
    for i in range(10):
        board = small_position(rules, i, rng, cards=12, stock=1)
        sol = solve(board, rules, "strokes")
        got = odds(board, rules, "strokes")
        assert got.value.p == float(sol.won) and got.value.e == float(sol.strokes)
        got = odds(board, rules, "win-strokes")
        assert got.value.p == float(sol.won) and got.value.e >= float(sol.strokes)
        if sol.won:
            assert got.value.e == float(sol.strokes)


@pytest.mark.parametrize("variant", ["strict", "queens-on-kings", "putt-putt+when-stuck",
                                     "strict+jokers1+empty-start", "queens-on-kings+dead-queen"])
def test_win_bitsets_are_fact_1(variant):
    """The W bitsets (``kernels.honest.wins``): bit (h, D) is set exactly when the draw from
    heights h with D drawn has p > 0 by the brute force (Fact 1), on random (h, D) below
    small positions; every D of the position and many heights are sampled."""
    from golfstats.kernels.core import powers
    from golfstats.kernels.honest.space import STOCK_KINDS, d_codes
    from golfstats.kernels.honest.wins import win_bit, win_table
    from golfstats.kernels.rule_tables import board_arrays, kernel_tables, tables_for

    rules = parse_variant(variant)
    rng = np.random.default_rng(17)
    seen = {True: 0, False: 0}
    for i in range(4):
        board = small_position(rules, i, rng, cards=10, stock=int(rng.integers(3, 6)))
        tables = tables_for(rules, board.foundation is None)
        arrays = board_arrays(board, tables)
        m0 = np.zeros(STOCK_KINDS, np.int64)
        for k in arrays.stock:
            m0[k] += 1
        pwd, size, _, _ = d_codes(m0)
        wt, _ = win_table(kernel_tables(tables), arrays.exposed, arrays.heights, m0, pwd, size)
        pw, _, _ = powers(arrays.heights)
        for _ in range(30):  # half of them near the end of the deal, where wins are common
            low = rng.random() < 0.5
            h = [int(rng.integers(0, min(x, 1) + 1 if low else x + 1)) for x in arrays.heights]
            d = int(rng.integers(0, size))
            left = list(board.stock)
            for r in range(STOCK_KINDS):
                for _ in range((d // pwd[r]) % (m0[r] + 1)):
                    left.remove(next(c for c in left if kind(c) == r))
            if not left or sum(h) == 0:
                continue
            tab = tuple(col[:hc] for col, hc in zip(board.tableau, h, strict=True))
            pos = Position(tab, tuple(left), Top.any())
            p, _ = brute_draw(rules, Board(tab, tuple(left), None), "win-strokes", pos)
            bit = win_bit(wt, sum(hc * w for hc, w in zip(h, pw, strict=True)), d)
            assert bit == (p > 0), (variant, i, h, d, p)
            seen[bit] += 1
    assert seen[True] and seen[False]


def _dead_kinds(rules, board: Board) -> list[int]:
    """Kinds no card left in the tableau can be played on (as a turned card)."""
    present = {kind(c) for col in board.tableau for c in col}
    return [r for r in range(0 if rules.jokers else 1, 14)
            if not any(Top.drawn(r).after(rules, x) is not None for x in present)]


@pytest.mark.parametrize("variant", ["strict", "queens-on-kings", "putt-putt+when-stuck"])
def test_dead_kinds_pool(variant):
    """Fact 2: the value depends on the dead kinds of the stock only through their count."""
    rules = parse_variant(variant)
    rng = np.random.default_rng(8)
    checked = 0
    for i in range(40):
        board = small_position(rules, i, rng, cards=6, stock=4)
        dead = _dead_kinds(rules, board)
        used = {c for col in board.tableau for c in col} | set(board.stock) | {board.foundation}
        swap = [c for c in board.stock if kind(c) in dead]
        spare = [c for c in rules.deck if c not in used and kind(c) in dead]
        if not swap or not any(kind(c) != kind(swap[0]) for c in spare):
            continue
        other = next(c for c in spare if kind(c) != kind(swap[0]))
        stock2 = tuple(other if c == swap[0] else c for c in board.stock)
        for goal in ("win-strokes", "strokes"):
            a = odds(board, rules, goal)
            b = odds(Board(board.tableau, stock2, board.foundation), rules, goal)
            assert abs(a.value.p - b.value.p) <= 1e-12 and abs(a.value.e - b.value.e) <= 1e-12
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("variant", ["strict", "queens-on-kings", "putt-putt+jokers1"])
def test_more_stock_is_never_worse_any_time(variant):
    """Fact 3 (draw any-time): adding a card to the stock never makes the value worse (goal
    strokes: (e, p); goal win: p, since there e is the doc's rule's, not an optimum)."""
    rules = parse_variant(variant)
    assert rules.draw is Draw.ANY_TIME
    rng = np.random.default_rng(9)
    for i in range(10):
        board = small_position(rules, i, rng, cards=10, stock=4)
        fewer = Board(board.tableau, board.stock[:3], board.foundation)
        for goal in ("win-strokes", "strokes"):
            a = odds(board, rules, goal)
            b = odds(fewer, rules, goal)
            assert _no_worse(goal, (a.value.p, a.value.e), (b.value.p, b.value.e))


def test_budget_hit_is_unresolved_never_a_number():
    rules = parse_variant("queens-on-kings")
    board = pysol_board(rules, 3)
    got = odds(board, rules, "win-strokes", max_states=1000)
    assert not got.resolved and math.isnan(got.value.p) and math.isnan(got.value.e)
    assert got.stats.states > 1000  # goal win knows what the value pass would need before it starts
    small = odds(board, rules, "win", max_bytes=got.stats.peak_bytes // 2)
    assert not small.resolved and math.isnan(small.value.p)
    v = odds(board, rules, "strokes", max_states=1000)
    assert not v.resolved and math.isnan(v.value.p) and v.moves == ()
    (play,) = play_optimal(rules, board, "win-strokes", max_states=1000)
    assert not play.odds.resolved and play.fallback == "greedy" and math.isnan(play.odds.value.p)
    out = score_moves(rules, board.position(), play.line.moves)
    assert out.finished and out.strokes == play.line.strokes and out.won == play.line.won


def test_the_policy_table_counts_against_the_memory_budget():
    """p and e: the policy's table is paid from what the value pass leaves of the budget
    (it once grew past it unseen): a doubling of the table must fit, the old table and
    the new together (``memo.put``); p alone needs no table and stays resolved."""
    from golfstats.kernels.honest.memo import SLOT_BYTES

    rules = parse_variant("strict")
    board = _mid_game(rules, 2, 12)
    full = odds(board, rules, "win-strokes")
    assert full.resolved and full.stats.policy_states > 2048  # the first table (4,096 slots) doubles
    first_doubling = 3 * SLOT_BYTES * 4096
    squeezed = odds(board, rules, "win-strokes", max_bytes=full.stats.peak_bytes + first_doubling - 1)
    assert not squeezed.resolved and math.isnan(squeezed.value.p) and math.isnan(squeezed.value.e)
    alone = odds(board, rules, "win", max_bytes=full.stats.peak_bytes + first_doubling - 1)
    assert alone.resolved and alone.value.p == full.value.p
    # room for the doublings the pass makes: resolved, the same values
    slots = 4096
    while 2 * full.stats.policy_states > slots:
        slots *= 2
    roomy = odds(board, rules, "win-strokes", max_bytes=full.stats.peak_bytes + 3 * SLOT_BYTES * slots // 2)
    assert roomy.resolved and (roomy.value.p, roomy.value.e) == (full.value.p, full.value.e)


def _mid_game(rules, index: int, stock_left: int) -> Board:
    """A seeded deal played greedily (first legal play, else draw) down to ``stock_left``."""
    board = seeded_board(rules, SEED, index)
    pos = board.position()
    while len(pos.stock) > stock_left and legal_moves(rules, pos):
        moves = legal_moves(rules, pos)
        pos = apply(rules, pos, moves[0])
    return Board(pos.tableau, pos.stock, pos.top_card)


@pytest.mark.parametrize("variant", ["strict", "queens-on-kings", "putt-putt+when-stuck",
                                     "queens-on-kings+dead-queen+jokers2"])
def test_play_out_replays_and_sees_only_what_a_player_sees(variant):
    rules = parse_variant(variant)
    rng = np.random.default_rng(21)
    for i in range(4):
        board = _mid_game(rules, i, 6)
        for goal in ("win-strokes", "strokes"):
            (play,) = play_optimal(rules, board, goal)
            assert play.odds.resolved
            out = score_moves(rules, board.position(), play.line.moves)
            assert out.finished and out.won == play.line.won and out.strokes == play.line.strokes
            value = odds(board, rules, goal)
            assert play.odds.value.p == value.value.p and play.odds.value.e == value.value.e
            # shuffle the stock after its first k cards: the decisions up to the k-th draw stay
            for k in (0, 2):
                rest = list(board.stock[k:])
                rng.shuffle(rest)
                other = Board(board.tableau, board.stock[:k] + tuple(rest), board.foundation)
                (play2,) = play_optimal(rules, other, goal)
                assert _until_draw(play.line.moves, k + 1) == _until_draw(play2.line.moves, k + 1)


def _until_draw(moves: list[int], k: int) -> list[int]:
    """The moves up to (not including) the k-th draw (all of them if fewer)."""
    seen = 0
    for i, m in enumerate(moves):
        if m == DRAW:
            seen += 1
            if seen == k:
                return moves[:i]
    return moves


def test_play_out_is_exact_in_expectation_on_a_small_position():
    """Averaged over every order of the stock, the play-out's wins and strokes are the
    computed (p, e): it plays the policy that the values describe (up to choices between
    values within TOL of each other)."""
    rules = parse_variant("queens-on-kings")
    rng = np.random.default_rng(4)
    board = small_position(rules, 2, rng, cards=9, stock=4)
    for goal in ("win-strokes", "strokes"):
        plays = play_optimal(rules, _all_card_orders(board), goal)
        value = odds(board, rules, goal)
        assert abs(np.mean([p.line.won for p in plays]) - value.value.p) < 1e-8
        assert abs(np.mean([p.line.strokes for p in plays]) - value.value.e) < 1e-8


def _all_card_orders(board: Board) -> list[Board]:
    return [Board(board.tableau, order, board.foundation)
            for order in itertools.permutations(board.stock)]


def _drawn_from_brute(rules, board):
    """The states (heights, D-kinds) drawn from, by their definition: walk every reachable
    position of the reference engine, turning every kind left at every legal draw, but
    drawing only from states whose draw the twin values above 0 (some order wins, Fact 1).
    Returns the set of (heights, sorted kinds drawn) of those draws."""
    from golfstats.reference.expectimax import _canonical, _Expectimax, _start, _turn

    solver = _Expectimax(rules, "win-strokes")
    start = _start(board)
    seen, out = set(), set()
    todo = [(start, ())]
    while todo:
        pos, drawn = todo.pop()
        key = (tuple(len(c) for c in pos.tableau), pos.top, drawn)
        if key in seen:
            continue
        seen.add(key)
        for move in legal_moves(rules, pos):
            if move != DRAW:
                todo.append((apply(rules, pos, move), drawn))
                continue
            canon = Position(pos.tableau, _canonical(Counter(kind(c) for c in pos.stock)), pos.top)
            if solver.draw_value(canon)[0] <= 0:
                continue
            out.add((key[0], drawn))
            counts = Counter(kind(c) for c in canon.stock)
            for r in sorted(counts):
                todo.append((_turn(canon, r, counts), tuple(sorted(drawn + (r,)))))
    return out


@pytest.mark.parametrize("variant", ["strict", "queens-on-kings", "putt-putt+when-stuck",
                                     "strict+jokers1+empty-start", "queens-on-kings+dead-queen"])
def test_drawn_from_states_are_their_definition(variant):
    """``honest.reach``'s Dr rows hold exactly the states a draw is taken from: reachable
    through drawn-from states, with some order still winning (the closure and the W rows
    at work: states W leaves out, and states only a draw that plays nothing reaches, both
    occur below).  Q holds every drawn-from state."""
    from golfstats.kernels.core import powers
    from golfstats.kernels.honest.packed import unpacked
    from golfstats.kernels.honest.reach import reach_sets
    from golfstats.kernels.honest.space import STOCK_KINDS, d_codes
    from golfstats.kernels.honest.wins import win_sets
    from golfstats.kernels.rule_tables import board_arrays, kernel_tables

    rules = parse_variant(variant)
    rng = np.random.default_rng(23)
    checked = winnable = 0
    for i in range(16):
        board = small_position(rules, i, rng, cards=int(rng.integers(6, 10)), stock=int(rng.integers(2, 5)))
        tables, top_id = _tables(rules, board, None)
        arrays = board_arrays(board, tables)
        kt = kernel_tables(tables)
        m0 = np.zeros(STOCK_KINDS, np.int64)
        for k in arrays.stock:
            m0[k] += 1
        pwd, size, _, _ = d_codes(m0)
        widx, w_rows, gidx, g_rows, _ = win_sets(kt, arrays.exposed, arrays.heights, m0, pwd, size)
        ridx, r_rows, qidx, q_rows, _ = reach_sets(kt, arrays.exposed, arrays.heights, top_id, m0,
                                                   pwd, size, widx, w_rows, gidx, g_rows, False)
        words = ((size + 63) >> 6) + 1
        rpool, qpool = unpacked(ridx, r_rows, words), unpacked(qidx, q_rows, words)
        pw, _, g_size = powers(arrays.heights)
        got = set()
        for g in range(g_size):
            heights = tuple(int(g // pw[c] % (arrays.heights[c] + 1)) for c in range(len(pw)))
            for d in range(size):
                if ridx[g] >= 0 and (int(rpool[g, d >> 6]) >> (d & 63)) & 1:
                    assert qidx[g] >= 0 and (int(qpool[g, d >> 6]) >> (d & 63)) & 1
                    kinds = tuple(r for r in range(STOCK_KINDS) for _ in range(d // pwd[r] % (m0[r] + 1)))
                    got.add((heights, kinds))
        assert got == _drawn_from_brute(rules, board), f"{rules.id}\n{format_board(board, rules)}"
        checked += len(got)
        winnable += bool(got)
    assert checked > 20 and winnable >= 3
