"""Goal win's table path made smaller without changing a value (``kernels/honest/``):

* W only at the heights a reachable position plays or draws at (``reachable.reachable_heights``,
  ``wins.win_sets_within``, used below ``solve.PRUNE_MAX_DRAWN`` drawn multisets): it
  leaves W out at heights no reachable position needs (a case it changes, shown below),
  leaves the drawn-from states Dr alone bit for bit, and Q within Q (it may leave out
  reachable positions worth 0, whose G bit came from another top's chain only); those
  heights are their definition: where reach with W and G every D has a Dr or Q row;
* the compact heights index of the value pass (only the heights with a Q row) and the
  pruning together leave every value alone: ``odds`` and ``move_values`` are equal,
  exactly, with the pruning switched off, and equal to the plain twin at 1e-12 (goal
  win, p alone, and goal win-strokes, p and e), on mid-game positions of several rule sets.
"""

from __future__ import annotations

import numpy as np
import pytest
from honest_rows import VARIANTS, kernel_args, row_bits, store_of
from positions import positions

from golfstats.board import format_board
from golfstats.honest import odds, solve
from golfstats.kernels.honest import reach, reachable, win_rows, wins
from golfstats.kernels.honest.space import d_codes
from golfstats.reference.expectimax import reference_move_values, reference_odds
from golfstats.rules import parse_variant


@pytest.mark.parametrize("variant", VARIANTS)
def test_w_at_reachable_heights_leaves_dr_alone(variant):
    rules = parse_variant(variant)
    changed = 0
    for board in positions(rules, 41, 12, 3000, min_stock=3):
        kt, arrays, top_id, m0 = kernel_args(rules, board)
        pwd, size, _, _ = d_codes(m0)
        full_row = win_rows.kind_masks(m0, pwd, size)[1]
        keep = reachable.reachable_heights(kt, arrays.exposed, arrays.heights, top_id, m0, pwd,
                                           size, full_row)
        every = wins.win_sets(kt, arrays.exposed, arrays.heights, m0, pwd, size)
        some = wins.win_sets_within(kt, arrays.exposed, arrays.heights, m0, pwd, size, keep)
        w_every, w_some = row_bits(every[0], every[1], size), row_bits(some[0], some[1], size)
        assert w_some <= w_every
        changed += w_some != w_every
        got = [reach.reach_sets(kt, arrays.exposed, arrays.heights, top_id, m0, pwd, size, *w[:4], False)
               for w in (every, some)]
        where = f"{rules.id}\n{format_board(board, rules)}"
        assert row_bits(got[0][0], got[0][1], size) == row_bits(got[1][0], got[1][1], size), where  # Dr
        q_every, q_some = row_bits(got[0][2], got[0][3], size), row_bits(got[1][2], got[1][3], size)
        assert q_some <= q_every, where  # what Q loses is worth 0: the values test below
    assert changed >= 3  # W rows the pruning left out, at heights nothing reachable needs


@pytest.mark.parametrize("variant", VARIANTS)
def test_reachable_heights_are_reach_with_every_d(variant):
    """``reachable.reachable_heights`` (the reach pass without its rows) keeps exactly the
    heights where ``reach.reach_sets`` with W and G every D has a Dr or a Q row."""
    rules = parse_variant(variant)
    left_out = 0
    for board in positions(rules, 47, 12, 3000, min_stock=3):
        kt, arrays, top_id, m0 = kernel_args(rules, board)
        pwd, size, _, _ = d_codes(m0)
        full_row = win_rows.kind_masks(m0, pwd, size)[1]
        keep = reachable.reachable_heights(kt, arrays.exposed, arrays.heights, top_id, m0, pwd,
                                           size, full_row)
        every = np.zeros(keep.shape[0], np.int64)  # every height's W and G: row 0, every D
        store = store_of(full_row.reshape(1, -1))
        ridx, _, qidx, _, _ = reach.reach_sets(kt, arrays.exposed, arrays.heights, top_id, m0, pwd,
                                               size, every, store, every, store, False)
        assert np.array_equal(keep, (ridx >= 0) | (qidx >= 0)), f"{rules.id}\n{format_board(board, rules)}"
        left_out += not keep.all()
    assert left_out >= 3  # heights no reachable position plays or draws at


@pytest.mark.parametrize("variant", VARIANTS)
def test_pruned_compact_values_are_the_unpruned_and_the_twins(variant, monkeypatch):
    rules = parse_variant(variant)
    boards = positions(rules, 43, 8, 1500, min_stock=2)
    for board in boards:
        pruned = odds(board, rules, "win-strokes")
        p_alone = odds(board, rules, "win")
        with monkeypatch.context() as m:
            m.setattr(solve, "PRUNE_MAX_DRAWN", 0)
            every = odds(board, rules, "win-strokes")
        where = f"{rules.id}\n{format_board(board, rules)}"
        assert pruned.resolved and every.resolved, where
        assert (pruned.value.p, pruned.value.e) == (every.value.p, every.value.e), where
        assert pruned.moves == every.moves, where
        p, e = reference_odds(board, rules, "win-strokes")
        assert abs(pruned.value.p - p) <= 1e-12 and abs(pruned.value.e - e) <= 1e-12, where
        assert abs(p_alone.value.p - p) <= 1e-12, where
        want = reference_move_values(board, rules, "win-strokes")
        assert [v.move for v in pruned.moves] == [m for m, _ in want], where
        for v, (_, w) in zip(pruned.moves, want, strict=True):
            assert abs(v.value.p - w[0]) <= 1e-12 and abs(v.value.e - w[1]) <= 1e-12, where
