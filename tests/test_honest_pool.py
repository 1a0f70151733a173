"""Where nothing can be won, dead draws vanish (``kernels.honest.pool``; docs/honest-play.md,
Fact 5): the policy pass keeps one entry for the states that cannot be won and hold the
same alive cards.

* ``dead_kinds`` against the definition through the reference engine (``Top.drawn`` and
  ``Top.after``): a kind is dead at some heights when no card left in the tableau there can
  be played on a turned card of it;
* ``canonical`` and ``alive_left`` against the digits of the D-code;
* the pass pooled and not pooled (every kind counted alive, the pass as it was before):
  the same (p, e) at the position and after every move (1e-12), and the same entries
  for the states that can be won, which pooling must leave alone; fewer entries
  where a kind dies (the case it changes); the values also equal the twin's.
"""

from __future__ import annotations

import numpy as np
import pytest
from positions import positions

from golfstats.cards import kind
from golfstats.engine import Top
from golfstats.honest.odds import _tables
from golfstats.honest.solve import KEEP_ALL, KernelPosition, solve_win
from golfstats.kernels.core import powers
from golfstats.kernels.honest.policy import policy_count
from golfstats.kernels.honest.pool import alive_left, canonical, dead_kinds
from golfstats.kernels.honest.solve import policy_values
from golfstats.kernels.honest.space import d_codes
from golfstats.kernels.rule_tables import board_arrays, kernel_tables
from golfstats.reference.expectimax import reference_odds
from golfstats.rules import parse_variant

EXACT = 1e-12
VARIANTS = ("strict", "queens-on-kings", "putt-putt", "strict+jokers1", "putt-putt+jokers2",
            "queens-on-kings+when-stuck")


def _kernel(rules, board):
    tables, top_id = _tables(rules, board, None)
    arrays = board_arrays(board, tables)
    kt = kernel_tables(tables)
    m0 = np.bincount(arrays.stock, minlength=14).astype(np.int64)
    return kt, arrays, top_id, m0


@pytest.mark.parametrize("variant", VARIANTS)
def test_dead_kinds_follow_the_definition(variant):
    rules = parse_variant(variant)
    rng = np.random.default_rng(5)
    for board in positions(rules, 71, 3, 600, min_stock=5, max_stock=12):
        kt, arrays, _, m0 = _kernel(rules, board)
        dead = dead_kinds(kt, arrays.exposed, arrays.heights, m0)
        pw, _, g_size = powers(arrays.heights)
        assert dead.shape == (g_size,)
        stock_kinds = sorted({kind(c) for c in board.stock})
        for g in rng.choice(g_size, min(g_size, 300), replace=False):
            h = [(g // pw[c]) % (arrays.heights[c] + 1) for c in range(len(board.tableau))]
            present = {kind(x) for col, hc in zip(board.tableau, h, strict=True) for x in col[:hc]}
            want = 0
            for r in stock_kinds:
                if all(Top.drawn(r).after(rules, x) is None for x in present):
                    want |= 1 << r
            assert int(dead[g]) == want, (variant, h)


def test_canonical_zeroes_the_counts_of_the_kinds_given():
    m0 = np.zeros(14, np.int64)
    m0[[0, 1, 5, 9, 13]] = [1, 3, 2, 4, 1]
    pwd = d_codes(m0)[0]
    rng = np.random.default_rng(9)
    for _ in range(300):
        counts = np.array([rng.integers(0, m0[r] + 1) for r in range(14)], np.int64)
        d = int(np.dot(counts, pwd))
        kinds = int(rng.integers(0, 1 << 14))
        want = counts.copy()
        for r in range(14):
            if (kinds >> r) & 1:
                want[r] = 0
        assert canonical(d, kinds, m0, pwd) == int(np.dot(want, pwd))
        alive = [r for r in range(14) if not (kinds >> r) & 1]
        assert alive_left(d, kinds, m0, pwd) == int(sum(m0[r] - counts[r] for r in alive))


def _pass(rules, board, pooled):
    kt, arrays, top_id, m0 = _kernel(rules, board)
    sol = solve_win(KernelPosition(kt, arrays.exposed, arrays.heights, top_id, m0), keep=KEEP_ALL)
    assert sol.value.resolved
    ok, root, mp, me, pt, count = policy_values(kt, arrays.exposed, arrays.heights, top_id, m0,
                                                sol.sol, 1 << 40, 1 << 62, pooled)
    assert ok and count == policy_count(pt)
    tab = pt[0]
    keys = tab[0::3]
    full = keys != -1.0
    entries = {int(k): (p, e) for k, p, e in zip(keys[full], tab[1::3][full], tab[2::3][full], strict=True)}
    dead = pt[5]
    return root, mp, me, entries, bool(dead.any())


@pytest.mark.parametrize("variant", VARIANTS)
def test_pooling_changes_no_value(variant):
    rules = parse_variant(variant)
    changed = 0
    for board in positions(rules, 62, 4, 1200, min_stock=7, max_stock=9):
        root, mp, me, pooled, any_dead = _pass(rules, board, True)
        root0, mp0, me0, plain, _ = _pass(rules, board, False)
        assert abs(root[0] - root0[0]) <= EXACT and abs(root[1] - root0[1]) <= EXACT
        assert np.array_equal(np.isnan(mp), np.isnan(mp0))
        legal = ~np.isnan(mp)
        assert np.all(np.abs(mp[legal] - mp0[legal]) <= EXACT)
        assert np.all(np.abs(me[legal] - me0[legal]) <= EXACT)
        want = reference_odds(board, rules, "win-strokes")
        assert abs(root[0] - want[0]) <= EXACT and abs(root[1] - want[1]) <= EXACT
        # the states that can be won (even keys) are left alone: the same entries, the same
        # values (but for the order of the sums below them)
        live = {k: v for k, v in pooled.items() if k % 2 == 0}
        live0 = {k: v for k, v in plain.items() if k % 2 == 0}
        assert live.keys() == live0.keys()
        for k, (p, e) in live.items():
            assert abs(p - live0[k][0]) <= EXACT and abs(e - live0[k][1]) <= EXACT
        zero = len(pooled) - len(live)
        assert zero <= len(plain) - len(live)
        if not any_dead:  # no kind ever dead: nothing to pool
            assert zero == len(plain) - len(live)
        changed += zero < len(plain) - len(live)
    if variant.startswith("strict"):  # kings stop: kinds die, the case pooling changes
        assert changed > 0
