"""The stockless solver (``kernels.stockless``) against plain exhaustive searches.

* won and the optimal cards left agree with ``golfstats.reference.reference_solve`` (pure
  Python, no tricks) on mid-game positions of seeded deals and on PySol deals small
  enough for it, under both goals (goal win: won only);
* ``plain_search`` below, a compiled memoised depth-first search with no pruning at all
  (every reachable state once; the fewest cards left over them), agrees with the
  reference too; it is the oracle of the slow run, because the reference would need
  hours for 300 full deals (a lost Black Hole deal can have 10**7 reachable states);
* every line replays through ``golfstats.engine.apply`` to a position with no play left
  and exactly the reported cards;
* a tiny ``max_states`` gives ``TRUNCATED``, never a loss;
* each pruning rule prunes a position where it must and leaves one where it must not.

Slow run (300 seeded full deals per game against ``plain_search``):
``pytest -m slow tests/test_stockless.py``.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import pytest

from golfstats.board import Board, parse_board
from golfstats.deals import pysol_board, seeded_board
from golfstats.engine import apply, legal_moves
from golfstats.kernels.constants import FINISHED, TRUNCATED
from golfstats.kernels.core import powers
from golfstats.kernels.hashset import grow, insert, new_set
from golfstats.kernels.rule_tables import board_arrays, kernel_tables, tables_for
from golfstats.kernels.stockless.canon import canonical_key, trie_nodes
from golfstats.kernels.stockless.rules import (
    card_data,
    card_last,
    card_stuck,
    euler_ok,
    kind_relations,
    stuck_bound,
    unreached,
    walk_tables,
)
from golfstats.kernels.stockless.solve import (
    DEFAULT_RULES,
    USE_BURIED,
    USE_CANONICAL,
    USE_LAST,
    USE_UNREACHED,
    USE_WALK,
    _solve,
    solve_stockless,
    table_pool,
)
from golfstats.reference import reference_solve
from golfstats.rules import parse_variant

GAMES = [parse_variant("black-hole"), parse_variant("all-in-a-row")]
EVERY_RULE = DEFAULT_RULES | USE_BURIED | USE_UNREACHED | USE_LAST
LIMIT = 30_000_000


# ------------------------------------------------------------ helpers


def line_position(rules, seed: int, index: int, n_left: int, rng: np.random.Generator) -> Board:
    """A mid-game position reached by play: deal ``index`` of ``seed`` after the solver's
    line (a win if there is one) down to ``n_left`` cards, then one random legal move."""
    board = seeded_board(rules, seed, index)
    _, _, _, line, _ = solve(board, rules, win=True)
    pos = board.position()
    for move in line:
        if pos.cards_left() <= n_left:
            break
        pos = apply(rules, pos, move)
    moves = legal_moves(rules, pos)
    if moves:
        pos = apply(rules, pos, moves[int(rng.integers(len(moves)))])
    return Board(pos.tableau, pos.stock, pos.top_card)


def random_position(rules, seed: int, index: int, n_left: int, rng: np.random.Generator,
                    empty_foundation: bool = False) -> Board:
    """A mid-game position of any heights: deal ``index`` of ``seed`` with columns cut to
    random heights holding ``n_left`` cards, and one of the removed cards on top (or an
    empty foundation)."""
    deal = seeded_board(rules, seed, index)
    full = [len(col) for col in deal.tableau]
    heights = [0] * len(full)
    slots = [c for c, h in enumerate(full) for _ in range(h)]
    for c in rng.choice(len(slots), size=n_left, replace=False):
        heights[slots[c]] += 1
    tableau = tuple(col[:h] for col, h in zip(deal.tableau, heights, strict=True))
    removed = [card for col, h in zip(deal.tableau, heights, strict=True) for card in col[h:]]
    if deal.foundation is not None:
        removed.append(deal.foundation)
    top = None if empty_foundation else removed[int(rng.integers(len(removed)))]
    return Board(tableau, (), top)


def inputs(board: Board, rules):
    tables = tables_for(rules, board.foundation is None)
    arrays = board_arrays(board, tables)
    return kernel_tables(tables), arrays


def solve(board: Board, rules, win: bool, max_states: int = LIMIT, opts: int = DEFAULT_RULES):
    """``(status, won, cards_left, line, states)`` of the kernel on ``board``."""
    kt, arrays = inputs(board, rules)
    moves = np.full(sum(map(len, board.tableau)) + 1, -9, np.int64)
    if opts == DEFAULT_RULES:
        # a pool of 2**15 slots: the table starts in it, grows in it once, then beyond it
        buf = np.full(1 << 18, 255, np.uint8)
        pool = table_pool(buf)
        assert pool.shape[0] == 1 << 15
        out = solve_stockless(kt, arrays.exposed, arrays.heights, arrays.top, win, max_states,
                              moves, pool)
        assert (buf == 255).all(), "the pool is left as it was given"
    else:
        out = _solve(kt, arrays.exposed, arrays.heights, arrays.top, win, max_states, moves, opts,
                     np.empty(0, np.int64))
    status, won, left, n, states = out
    return int(status), bool(won), int(left), [int(m) for m in moves[:n]], int(states)


def check_line(board: Board, rules, won: bool, left: int, line: list[int]) -> None:
    """The line is legal, ends with no play left, and leaves exactly ``left`` cards."""
    pos = board.position()
    for move in line:
        pos = apply(rules, pos, move)  # raises on an illegal move
    assert not legal_moves(rules, pos), "the line must play the hand to its end"
    assert pos.cards_left() == left
    assert won == (left == 0)


def check_both_goals(board: Board, rules, expected: tuple[bool, int], opts: int = DEFAULT_RULES):
    status, won, left, line, _ = solve(board, rules, win=False, opts=opts)
    assert status == FINISHED
    assert (won, left) == expected
    check_line(board, rules, won, left, line)
    status, won_w, left_w, line_w, _ = solve(board, rules, win=True, opts=opts)
    assert status == FINISHED and won_w == expected[0]
    assert left_w >= expected[1]
    check_line(board, rules, won_w, left_w, line_w)


@nb.njit(cache=True)
def _plain(play_next, exposed, heights, top, stop_at_win):
    n_tops = play_next.shape[0]
    ncols = heights.shape[0]
    pw, code, _ = powers(heights)
    table = new_set(16)
    used = 1
    insert(table, code * n_tops + top)
    stack = np.empty(1024, np.int64)
    stack[0] = code * n_tops + top
    sp = 1
    best = heights.sum()
    h = np.empty(ncols, np.int64)
    while sp > 0:
        sp -= 1
        key = stack[sp]
        code, t = key // n_tops, key % n_tops
        rest, left = code, 0
        for c in range(ncols):
            h[c] = rest % (heights[c] + 1)
            rest //= heights[c] + 1
            left += h[c]
        best = min(best, left)
        if best == 0 and stop_at_win:
            break
        for c in range(ncols):
            if h[c] > 0:
                u = play_next[t, exposed[c, h[c]]]
                if u >= 0:
                    child = (code - pw[c]) * n_tops + u
                    if insert(table, child):
                        used += 1
                        if 2 * used > table.shape[0]:
                            table = grow(table)
                        if sp == stack.shape[0]:
                            bigger = np.empty(2 * sp, np.int64)
                            bigger[:sp] = stack
                            stack = bigger
                        stack[sp] = child
                        sp += 1
    return best, used


def plain_search(board: Board, rules) -> tuple[bool, int]:
    """Plain memoised DFS, no pruning: ``(won, fewest cards left)`` over every reachable state
    (a state with a play left always has a child with fewer cards, so the fewest over all
    states is the fewest over finished ones)."""
    kt, a = inputs(board, rules)
    best, _ = _plain(kt.play_next, a.exposed, a.heights, a.top, True)
    return best == 0, int(best)


def rule_inputs(text: str, rules):
    """A board's arrays and the rule tables, for calling the rule functions directly."""
    board = parse_board(text, rules)
    kt, a = inputs(board, rules)
    top_kind, kind_top, pred, fol, wrap = kind_relations(kt)
    kinds, incol, above, by_kind, n_kind = card_data(a.exposed, a.heights, pred)
    cnt = np.zeros(16, np.int64)
    for c in range(a.heights.shape[0]):
        for i in range(1, a.heights[c] + 1):
            cnt[kinds[c, i]] += 1
    nz = sum(1 << k for k in range(1, 14) if cnt[k])
    ends = sum(1 << (kinds[c, 1] - 1) for c in range(a.heights.shape[0]) if a.heights[c])
    return dict(a=a, kt=kt, top_kind=top_kind, pred=pred, fol=fol, wrap=wrap, kinds=kinds,
                incol=incol, above=above, cnt=cnt, nz=nz, ends=ends, tk=int(top_kind[a.top]))


def bh(top: str, *columns: str) -> str:
    """Black Hole board text: the top card and the given columns (the rest empty)."""
    cols = list(columns) + ["-"] * (17 - len(columns))
    return "Foundations: " + top + "\n" + "\n".join(cols)


# ------------------------------------------------------------ agreement


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.id)
def test_positions_reached_by_play_agree_with_reference(rules):
    """16 seeded deals per game, 22-29 cards left on (or one move off) a solver line."""
    rng = np.random.default_rng(12)
    for index in range(16):
        board = line_position(rules, 5, index, 22 + index % 8, rng)
        check_both_goals(board, rules, reference_solve(board, rules))


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.id)
def test_positions_of_any_heights_agree_with_reference(rules):
    """30 positions per game with columns cut to random heights (18-29 cards left), any
    top, an empty foundation in one of five."""
    rng = np.random.default_rng(13)
    for index in range(30):
        board = random_position(rules, 6, index, 18 + index % 12, rng, empty_foundation=index % 5 == 4)
        check_both_goals(board, rules, reference_solve(board, rules))


@pytest.mark.parametrize(("game", "numbers"), [("black-hole", [1, 2, 5, 13, 42]),
                                               ("all-in-a-row", [2, 3, 4])])
def test_small_pysol_deals_agree_with_reference(game, numbers):
    """Full PySol deals whose reachable space is small enough for the reference."""
    rules = parse_variant(game)
    for number in numbers:
        board = pysol_board(rules, number)
        check_both_goals(board, rules, reference_solve(board, rules))


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.id)
def test_plain_search_agrees_with_reference(rules):
    """The slow run's oracle is itself checked against the reference."""
    rng = np.random.default_rng(14)
    for index in range(12):
        board = line_position(rules, 7, index, 24, rng)
        assert plain_search(board, rules) == reference_solve(board, rules)
        board = random_position(rules, 7, index, 26, rng, empty_foundation=index % 3 == 0)
        assert plain_search(board, rules) == reference_solve(board, rules)


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.id)
def test_full_deals_agree_with_plain_search(rules):
    """Full seeded deals with small reachable spaces (every rule on, and the default); the
    slow run adds more (``test_more_full_deals_agree_with_plain_search``)."""
    _check_full_deals(rules, (0,) if rules.id == "black-hole" else range(3))


@pytest.mark.slow
@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.id)
def test_more_full_deals_agree_with_plain_search(rules):
    _check_full_deals(rules, (2, 6, 8, 9) if rules.id == "black-hole" else range(3, 5))


def _check_full_deals(rules, indices) -> None:
    for index in indices:
        board = seeded_board(rules, 7, index)
        expected = plain_search(board, rules)
        check_both_goals(board, rules, expected)
        check_both_goals(board, rules, expected, opts=EVERY_RULE)


@pytest.mark.slow
@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.id)
def test_300_seeded_deals_agree_with_plain_search(rules):
    for index in range(300):
        board = seeded_board(rules, 2024, index)
        check_both_goals(board, rules, plain_search(board, rules))


# ------------------------------------------------------------ positions, limits


def test_empty_foundation_midgame_black_hole():
    """Any top: a Black Hole position with an empty foundation (any card starts the pile)."""
    rules = parse_variant("black-hole")
    board = parse_board(bh("-", "9S 6S", "4C 5D", "7H 8C KD", "QS"), rules)
    check_both_goals(board, rules, reference_solve(board, rules))


def test_every_rule_set_of_flags_agrees():
    """Rules switched on one at a time give the same answers (mid-game All in a Row)."""
    rules = parse_variant("all-in-a-row")
    rng = np.random.default_rng(15)
    for index in range(3):  # 6 took 38 s of CI; each rule has its own cases above
        board = line_position(rules, 8, index, 24, rng)
        expected = reference_solve(board, rules)
        for opts in (0, USE_WALK, USE_UNREACHED, USE_BURIED, USE_CANONICAL, USE_LAST, EVERY_RULE):
            check_both_goals(board, rules, expected, opts=opts)


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.id)
def test_tiny_state_limit_is_truncated_not_lost(rules):
    for number in (3, 6):
        board = pysol_board(rules, number)
        status, won, left, line, states = solve(board, rules, win=False, max_states=50)
        assert status == TRUNCATED and not won and states >= 50
        pos = board.position()
        for move in line:
            pos = apply(rules, pos, move)
        assert pos.cards_left() == left


# ------------------------------------------------------------ the rules, one by one


BLACK_HOLE = parse_variant("black-hole")


def test_walk_rule_prunes_unbalanced_ranks():
    """Top 7; one 5 and one 9 left with a 6 and an 8: 7-6-5 strands the 9, 7-8-9 the 5."""
    r = rule_inputs(bh("7S", "5C", "6D", "8H", "9C"), BLACK_HOLE)
    sig, neg, pos = walk_tables()
    assert not euler_ok(r["cnt"], r["tk"], r["ends"], sig, neg, pos)


def test_walk_rule_keeps_a_chain():
    """Top 7 with T, 9, 8 left: the walk 7-8-9-T; with 6, 7, 8 left: 7-6-7-8."""
    sig, neg, pos = walk_tables()
    r = rule_inputs(bh("7S", "TC", "9D", "8H"), BLACK_HOLE)
    assert euler_ok(r["cnt"], r["tk"], r["ends"], sig, neg, pos)
    r = rule_inputs(bh("7S", "6C", "7D", "8H"), BLACK_HOLE)
    assert euler_ok(r["cnt"], r["tk"], r["ends"], sig, neg, pos)


def test_walk_rule_end_must_be_a_bottom_card():
    """Top 7, one column (8 9), the 9 exposed: the only walk 7-8-9 ends on the 9, which is
    not a bottom card (it covers the 8): lost.  Column (9 8): the walk ends on the bottom 9."""
    sig, neg, pos = walk_tables()
    r = rule_inputs(bh("7S", "8C 9D"), BLACK_HOLE)
    assert not euler_ok(r["cnt"], r["tk"], r["ends"], sig, neg, pos)
    r = rule_inputs(bh("7S", "9D 8C"), BLACK_HOLE)
    assert euler_ok(r["cnt"], r["tk"], r["ends"], sig, neg, pos)


def test_walk_rule_is_used_by_the_search():
    """With the walk rule the search stores only the root of a lost position; without it,
    it looks further (same answer)."""
    board = parse_board(bh("7S", "5C", "6D", "8H", "9C"), BLACK_HOLE)
    expected = reference_solve(board, BLACK_HOLE)
    assert expected == (False, 2)
    with_rule = solve(board, BLACK_HOLE, win=True, opts=USE_WALK)
    without = solve(board, BLACK_HOLE, win=True, opts=0)
    assert with_rule[4] == 1 < without[4]
    assert with_rule[1] == without[1] is False


def test_unreached_rank():
    """Top 2: the 3s and Aces are gone, so nothing can be played: the 9 is unreached."""
    r = rule_inputs(bh("2S", "9C"), BLACK_HOLE)
    assert unreached(r["tk"], r["nz"], r["fol"]) == 1 << 9
    # with a 3 left, the run 3-4-...-9 may still be missing a rank: 3 is reached, 9 not
    r = rule_inputs(bh("2S", "3C", "9C"), BLACK_HOLE)
    assert unreached(r["tk"], r["nz"], r["fol"]) == 1 << 9
    # a complete run from the top reaches it
    r = rule_inputs(bh("6S", "7C", "8D", "9C"), BLACK_HOLE)
    assert unreached(r["tk"], r["nz"], r["fol"]) == 0


def test_unreached_rule_is_used_by_the_search():
    """Top 2 with 3, 4 and a 9: the 9 is unreached, so the root is proved lost; without the
    rule the search stores the position after the 3 (the one after the 4 is finished)."""
    board = parse_board(bh("2S", "3C", "4D", "9C"), BLACK_HOLE)
    assert reference_solve(board, BLACK_HOLE) == (False, 1)
    status, won, left, line, states = solve(board, BLACK_HOLE, win=True, opts=USE_UNREACHED)
    assert (status, won, left, states) == (FINISHED, False, 1, 1)
    assert solve(board, BLACK_HOLE, win=True, opts=0)[4] == 2


def _stuck(r, c, i):
    h = r["a"].heights
    return card_stuck(c, i, h, r["cnt"], r["tk"], r["kinds"], r["incol"], r["above"], r["pred"])


def test_buried_card_whose_only_neighbours_lie_above_it():
    """Column (5 9 6), top K: the 5 needs a 4 or a 6 just before it; the only 6 is above it
    but not directly (the 9 is between), and there is no 4: the 5 is never played.  The 9
    has no 8 or 10 at all, and the exposed 6 has only the 5 beneath it: all three stay."""
    r = rule_inputs(bh("KS", "5C 9D 6H", "QC"), BLACK_HOLE)
    assert _stuck(r, 0, 1) and _stuck(r, 0, 2) and _stuck(r, 0, 3)
    assert not _stuck(r, 1, 1)  # the Q goes on the K
    bound = stuck_bound(r["a"].heights, r["cnt"], r["nz"], r["tk"], r["kinds"], r["incol"],
                        r["above"], r["pred"], r["fol"], r["wrap"])
    assert bound == 3


def test_buried_card_with_a_neighbour_directly_above_or_elsewhere():
    """Column (5 6): the 6 directly above may precede the 5; column (5 9 6) with a 4 in
    another column: the 4 may."""
    r = rule_inputs(bh("KS", "5C 6H", "QC"), BLACK_HOLE)
    assert not _stuck(r, 0, 1)
    r = rule_inputs(bh("KS", "5C 9D 6H", "4C", "TC"), BLACK_HOLE)
    assert not _stuck(r, 0, 1) and not _stuck(r, 0, 2)
    # exposed: the top itself may precede it
    r = rule_inputs(bh("4S", "5C"), BLACK_HOLE)
    assert not _stuck(r, 0, 1)


def test_buried_rule_is_used_by_the_search():
    """The buried-card rule proves the column (5 9 6) lost at the root; without it the
    search stores the position after the Q (the one after the J is finished: not stored)."""
    board = parse_board(bh("KS", "5C 9D 6H", "QC", "JD"), BLACK_HOLE)
    assert reference_solve(board, BLACK_HOLE) == (False, 3)
    status, won, left, line, states = solve(board, BLACK_HOLE, win=True, opts=USE_BURIED)
    assert (status, won, left, states) == (FINISHED, False, 3, 1)
    assert solve(board, BLACK_HOLE, win=True, opts=0)[4] == 2


def _canonical(heights):
    """Canonical key of the state with ``heights`` of the board with columns (3 8), (3 J)."""
    r = rule_inputs(bh("KS", "3C 8D", "3D JH"), BLACK_HOLE)
    cols, depth, shared_at = trie_nodes(r["kinds"], r["a"].heights)
    heights = list(heights) + [0] * (17 - len(heights))
    shifts = np.array([2 * c + 4 for c in range(17)], np.int64)
    hmask = np.zeros(4, np.int64)
    free, key = 0, int(r["a"].top)
    for c, h in enumerate(heights):
        hmask[h] |= 1 << c
        free |= int(shared_at[c, h]) << c
        key += h << int(shifts[c])
    return canonical_key(key, free, hmask, cols, depth, shifts)


def test_canonical_key_merges_columns_with_the_same_cards():
    """(3) + () and () + (3): the same cards, one key."""
    assert _canonical([1, 0]) == _canonical([0, 1])
    assert _canonical([1, 0]) != _canonical([0, 0])


def test_canonical_key_keeps_different_columns_apart():
    """(3 8) + (3) and (3) + (3 J) hold different cards: two keys."""
    assert _canonical([2, 1]) != _canonical([1, 2])
    assert _canonical([2, 0]) != _canonical([0, 2])


def _below(r):
    """The successor rule's ``below`` array, as the search builds it."""
    kinds, fol, heights = r["kinds"], r["fol"], r["a"].heights
    below = np.zeros(r["above"].shape, np.int64)
    for c in range(heights.shape[0]):
        for i in range(2, heights[c] + 1):
            if (fol[kinds[c, i]] >> kinds[c, i - 1]) & 1:
                below[c, i] = 1
    return below


def _last(r, c, i):
    return card_last(c, i, r["a"].heights, r["cnt"], r["kinds"], r["incol"], _below(r), r["fol"])


def test_successor_rule_card_that_nothing_can_follow():
    """Column (5 9), top K: no 8 or 10 anywhere, and the 5 beneath cannot follow the 9: the
    9 could only be the last card played, but it covers the 5."""
    r = rule_inputs(bh("KS", "5C 9D", "QC", "JD"), BLACK_HOLE)
    assert _last(r, 0, 2)
    assert not _last(r, 1, 1)  # the J may follow the Q
    board = parse_board(bh("KS", "5C 9D", "QC", "JD"), BLACK_HOLE)
    assert reference_solve(board, BLACK_HOLE) == (False, 2)
    status, won, left, line, states = solve(board, BLACK_HOLE, win=True, opts=USE_LAST)
    assert (status, won, left, states) == (FINISHED, False, 2, 1)
    assert solve(board, BLACK_HOLE, win=True, opts=0)[4] == 2


def test_successor_rule_keeps_cards_that_can_be_followed():
    """(8 9): the 8 beneath may follow the 9; (5 9) with a T in another column: the T may."""
    r = rule_inputs(bh("KS", "8C 9D"), BLACK_HOLE)
    assert not _last(r, 0, 2)
    r = rule_inputs(bh("KS", "5C 9D", "TC"), BLACK_HOLE)
    assert not _last(r, 0, 2)


def test_pool_gives_the_same_answers_and_is_left_empty():
    """The hash set in a pool (in it, grown in it, grown past it) answers as one of its own."""
    rules = GAMES[0]
    seen_past = False
    for number in (1, 2, 3, 4):
        board = pysol_board(rules, number)
        kt, arrays = inputs(board, rules)
        for win in (True, False):
            got = []
            for size in (0, 1 << 18, 1 << 24):
                buf = np.full(size, 255, np.uint8)
                moves = np.full(60, -9, np.int64)
                out = solve_stockless(kt, arrays.exposed, arrays.heights, arrays.top, win, LIMIT,
                                      moves, table_pool(buf))
                assert (buf == 255).all()
                got.append((tuple(int(v) for v in out), tuple(moves[:out[3]])))
                seen_past |= size == 1 << 18 and out[4] > 1 << 14
            assert got[0] == got[1] == got[2], (number, win)
    assert seen_past, "some deal grows its table past a pool of 2**15 slots"
