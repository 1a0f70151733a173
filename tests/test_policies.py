"""Policies: information rule, twins, and the ladder random <= greedy <= lookahead <= sampling <= exact."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import mid_game

from golfstats.board import Board
from golfstats.deals import seeded_board, seeded_deals
from golfstats.engine import score_moves
from golfstats.policies import PolicyError, parse_policy, plan, play_board, play_deals
from golfstats.reference.twins import twin_of
from golfstats.rules import parse_variant

KING_RULES = ["strict", "queens-on-kings", "putt-putt"]
# one representative of every option, for the checks that run a twin in Python
REPRESENTATIVE = KING_RULES + [
    "strict+jokers1", "putt-putt+jokers2", "queens-on-kings+empty-start",
    "putt-putt+when-stuck", "queens-on-kings+dead-queen",
    "queens-on-kings+jokers2+empty-start+when-stuck+dead-queen",
]
HONEST = ["random", "greedy", "lookahead", "lookahead:depth=2", "sampling:samples=4"]


def test_parse_policy_names_and_params():
    assert parse_policy("greedy").spec == "greedy"
    assert parse_policy("lookahead").param("depth") == 1
    assert parse_policy("lookahead:depth=2").spec == "lookahead:depth=2"
    assert parse_policy("sampling:samples=32").param("samples") == 32
    assert not parse_policy("exact").info.honest
    for bad, words in [("bogus", "policies are"), ("lookahead:width=2", "no parameter"),
                       ("lookahead:depth=x", "integer"), ("lookahead:depth=9", "between")]:
        with pytest.raises(PolicyError, match=words):
            parse_policy(bad)


@pytest.mark.parametrize("policy", HONEST)
@pytest.mark.parametrize("variant", ["strict", "putt-putt+jokers2", "queens-on-kings+when-stuck"])
def test_information_rule_shuffled_stock_same_decision(variant, policy):
    """An honest policy never sees the stock order: shuffling the unseen stock cannot
    change what it does now (same key, many seeded mid-game positions)."""
    rules = parse_variant(variant)
    pol = parse_policy(policy)
    rng = np.random.default_rng(11)
    for index in range(8):
        board = mid_game(rules, seeded_board(rules, 5, index), int(rng.integers(0, 20)), index)
        if len(board.stock) < 2:
            continue
        decided = plan(rules, pol, board, key=index)
        for _ in range(3):
            stock = tuple(rng.permutation(np.array(board.stock, dtype=np.int64)).tolist())
            shuffled = Board(board.tableau, stock, board.foundation)
            assert plan(rules, pol, shuffled, key=index) == decided


def test_exact_policy_does_see_the_stock():
    """The clairvoyant solver is the one player allowed to use the order: check the test
    above could fail, by finding a position where the exact plan depends on it."""
    rules = parse_variant("strict")
    pol = parse_policy("exact")
    rng = np.random.default_rng(3)
    changed = False
    for index in range(20):
        board = seeded_board(rules, 9, index)
        stock = tuple(rng.permutation(np.array(board.stock, dtype=np.int64)).tolist())
        if plan(rules, pol, board) != plan(rules, pol, Board(board.tableau, stock, board.foundation)):
            changed = True
            break
    assert changed


@pytest.mark.parametrize("variant", REPRESENTATIVE)
@pytest.mark.parametrize("policy", ["random", "greedy", "lookahead", "lookahead:depth=2"])
def test_kernels_match_twins_move_for_move(variant, policy):
    """The compiled player and its registered twin play the same line, move for move."""
    rules = parse_variant(variant)
    pol = parse_policy(policy)
    deals = 4 if policy != "lookahead:depth=2" else 1
    for index in range(deals):
        board = seeded_board(rules, 21, index)
        if policy == "lookahead:depth=2":
            board = mid_game(rules, board, 12, index)
        fast = play_board(rules, pol, board, key=1000 + index)
        slow = twin_of(pol)(rules, board.position(), pol, key=1000 + index)
        assert fast.moves == slow.moves, f"deal {index}"
        outcome = score_moves(rules, board.position(), slow.moves)
        assert (fast.won, fast.strokes, fast.points, fast.draws, fast.longest_chain) == (
            outcome.won, outcome.strokes, outcome.points, outcome.draws, outcome.longest_chain)


@pytest.mark.parametrize("variant", ["strict", "putt-putt+jokers1", "queens-on-kings+when-stuck",
                                     "queens-on-kings+dead-queen+empty-start"])
def test_sampling_matches_its_twin_while_stock_remains(variant):
    """sampling and its plain twin (reference solver on every sampled order) make the same
    moves while stock remains; with none left both play an optimal line (optimal lines
    tie, so only the strokes must agree)."""
    rules = parse_variant(variant)
    pol = parse_policy("sampling:samples=3")
    for index in range(2):
        board = mid_game(rules, seeded_board(rules, 31, index), 14, index)
        board = Board(board.tableau, board.stock[-4:], board.foundation)  # few cards: a fast twin
        fast = play_board(rules, pol, board, key=7 + index)
        slow = twin_of(pol)(rules, board.position(), pol, key=7 + index)
        assert slow.agrees(fast.moves, fast.won, fast.strokes), f"deal {index}"


@pytest.mark.parametrize("variant", ["black-hole", "all-in-a-row"])
def test_stockless_games_twins_mid_game(variant):
    """Without a stock every chain is visible: greedy matches its twin move for move, and
    lookahead (which plays the exact line there) reaches the reference solver's optimum."""
    rules = parse_variant(variant)
    for index in range(3):
        board = mid_game(rules, seeded_board(rules, 8, index), 30, index)
        for policy in ("greedy", "lookahead"):
            pol = parse_policy(policy)
            fast = play_board(rules, pol, board)
            slow = twin_of(pol)(rules, board.position(), pol)
            if slow.moves is not None:
                assert fast.moves == slow.moves
            assert (fast.won, fast.strokes) == (slow.won, slow.strokes)


def _ladder(variant: str, n: int, n_sampling: int, samples: int):
    rules = parse_variant(variant)
    batch = seeded_deals(rules, 2026, 0, n)
    wins = {p: play_deals(rules, parse_policy(p), batch)["won"]
            for p in ("random", "greedy", "lookahead", "exact")}
    small = seeded_deals(rules, 2026, 0, n_sampling)
    wins["sampling"] = play_deals(rules, parse_policy(f"sampling:samples={samples}"), small)["won"]
    return wins


def _not_worse(better: np.ndarray, worse: np.ndarray, slack_se: float = 3.0) -> bool:
    """Paired comparison: mean(better - worse) > -slack_se standard errors (or -1%)."""
    diff = better.astype(float) - worse.astype(float)
    se = diff.std(ddof=1) / np.sqrt(len(diff)) if len(diff) > 1 else 1.0
    return diff.mean() > -max(slack_se * se, 0.01)


@pytest.mark.parametrize("variant", KING_RULES)
def test_win_rate_ladder(variant):
    """random <= greedy <= lookahead <= sampling <= exact on the same seeded deals
    (paired; tolerance 3 standard errors of the paired difference, at least 1%)."""
    wins = _ladder(variant, n=1000, n_sampling=24, samples=4)
    assert _not_worse(wins["greedy"], wins["random"])
    assert _not_worse(wins["lookahead"], wins["greedy"])
    assert _not_worse(wins["sampling"], wins["lookahead"][:24])
    assert (wins["exact"][:24] >= wins["sampling"]).all()
    assert (wins["exact"] >= wins["lookahead"]).all()


@pytest.mark.slow
@pytest.mark.parametrize("variant", KING_RULES + ["putt-putt+jokers2", "strict+empty-start"])
def test_win_rate_ladder_large(variant):
    wins = _ladder(variant, n=20000, n_sampling=400, samples=16)
    assert _not_worse(wins["greedy"], wins["random"])
    assert _not_worse(wins["lookahead"], wins["greedy"])
    assert _not_worse(wins["sampling"], wins["lookahead"][:400])
    assert (wins["exact"][:400] >= wins["sampling"]).all()


@pytest.mark.parametrize("variant", REPRESENTATIVE)
def test_lookahead_longest_chain_search_is_exact(variant):
    """Lookahead's longest-chain search (scratch arrays, stops when every card is taken)
    against the reference's plain recursion, from each position's own top and against
    the kernel ``chains.longest_chain`` from every drawn kind's top."""
    from conftest import mid_game_positions

    from golfstats.kernels.golf.chains import longest_chain as kernel_longest
    from golfstats.kernels.players.lookahead import longest_from, scratch
    from golfstats.kernels.rule_tables import board_arrays, kernel_tables, tables_for
    from golfstats.reference.policies import longest_chain

    rules = parse_variant(variant)
    for board in mid_game_positions(rules, count=6, seed=41):
        tables = tables_for(rules, board.foundation is None)
        kt = kernel_tables(tables)
        arrays = board_arrays(board, tables)
        total = int(arrays.heights.sum())
        work = scratch(arrays.heights.shape[0], total)
        assert longest_from(kt.play_next, arrays.exposed, arrays.heights, arrays.top, total,
                            work) == longest_chain(rules, board.position())
        for top in kt.drawn:
            if top >= 0:
                assert longest_from(kt.play_next, arrays.exposed, arrays.heights, top, total, work) \
                    == kernel_longest(kt.play_next, arrays.exposed, arrays.heights, top)
