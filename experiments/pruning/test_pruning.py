"""``experiments/pruning/pruning.py``: its search from the top gives the table's p, and its
counts keep their order (the policy's states within those followed with ties, within Dr;
Star1's distinct states within its expansions and within Dr), on mid-game positions (8
stock cards) of the three king rules.  Not collected by the default run (pytest's
testpaths are ``tests``): ``python -m pytest experiments/pruning``."""

import sys
from pathlib import Path

import numpy as np
import pytest

from golfstats.goals import Goal
from golfstats.honest import Keep
from golfstats.honest.odds import compute
from golfstats.rules import parse_variant

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[1] / "benchmarks"))
import bench_optimal  # noqa: E402
import pruning  # noqa: E402


@pytest.mark.parametrize("variant", ["strict", "queens-on-kings", "putt-putt"])
def test_star1_gives_the_tables_p_and_counts_keep_their_order(variant):
    rules = parse_variant(variant)
    winnable = 0
    for board in bench_optimal.mid_boards(rules, 12, 3, 8):
        s = compute(board, rules, Goal.WIN, keep=Keep.ALL)
        winnable += s.value.p > 0
        t, a = s.table, s.table.arrays
        m0 = np.bincount(a.stock, minlength=14).astype(np.int64)
        one = pruning.support(t.kt, a.exposed, a.heights, t.top_id, m0, t.sol, False)
        tied = pruning.support(t.kt, a.exposed, a.heights, t.top_id, m0, t.sol, True)
        p, expanded, distinct = pruning.star1(t.kt, a.exposed, a.heights, t.top_id, m0,
                                                    t.sol)
        assert abs(p - s.value.p) <= 1e-12
        assert one <= tied <= s.stats.drawn_from
        assert distinct <= expanded and distinct <= s.stats.drawn_from
        assert (one > 0) <= (s.value.p > 0)  # the policy's states have p > 0
    assert winnable >= 2  # the search had something to do
