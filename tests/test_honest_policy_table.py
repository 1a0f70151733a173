"""The win-strokes policy's table (``kernels.honest.policy``): its hash table and the walk
that prefetches the slots it will read (docs/honest-play.md, "The policy's expected
strokes: where the time goes").

* the table keeps every (p, e) it was given through its doublings (the in-order walk
  that moves the slots into the doubled table, wrapped runs included), and a home slot i
  becomes 2i or 2i + 1 when the table doubles (what makes that walk run in order);
* the policy pass's (p, e) equals the twin's (1e-12) on positions with 6 to 8 stock cards
  (the tables' path: the direct search serves 4 or fewer) of the three king rules and
  their empty-start, jokers and when-stuck forms, with roots where nothing can be won
  (p = 0: every state of the pass is walked by the fewest-cards rule, with the prefetches)
  and roots where something can (p > 0: the prefetches only below the states that cannot
  be won).
"""

from __future__ import annotations

import numpy as np
import pytest
from positions import positions

from golfstats.honest import odds
from golfstats.reference.expectimax import reference_odds
from golfstats.rules import parse_variant

EXACT = 1e-12
VARIANTS = ("strict", "queens-on-kings", "putt-putt", "strict+jokers1",
            "queens-on-kings+empty-start", "putt-putt+when-stuck", "putt-putt+jokers2")


def test_table_keeps_every_value_through_doublings():
    from golfstats.kernels.honest.memo import BYTES, COUNT, empty_table, find, put

    rng = np.random.default_rng(25)
    keys = rng.choice(1 << 40, 3000, replace=False)
    meta = np.zeros(8, np.int64)
    meta[BYTES] = 1 << 62  # room for every doubling
    tab = empty_table(4)
    for i, key in enumerate(keys):
        tab = put(tab, meta, int(key), i / 7.0, -i / 3.0)
    for i in range(0, len(keys), 3):  # overwrite a third: no new entry
        tab = put(tab, meta, int(keys[i]), i / 11.0, i / 13.0)
    assert meta[COUNT] == len(keys)
    slots = tab.shape[0] // 3
    assert slots >= 2 * len(keys) and slots <= 4 * len(keys)  # doubled ten times, at most half full
    for i, key in enumerate(keys):
        s = find(tab, int(key))
        assert tab[3 * s] == float(key)
        want = (i / 11.0, i / 13.0) if i % 3 == 0 else (i / 7.0, -i / 3.0)
        assert (tab[3 * s + 1], tab[3 * s + 2]) == want
    assert find(tab, 1 << 41) >= 0 and tab[3 * find(tab, 1 << 41)] == -1.0  # absent


def test_runs_wrap_past_the_last_slot():
    from golfstats.kernels.honest.memo import BYTES, empty_table, find, put

    last = [k for k in range(1, 5000) if _home_of(k, 8) == 7][:3]
    meta = np.zeros(8, np.int64)
    meta[BYTES] = 1 << 62  # room for every doubling
    tab = empty_table(8)
    for i, key in enumerate(last):
        tab = put(tab, meta, key, float(i), float(-i))
    assert tab.shape[0] == 3 * 8  # not doubled: the run 7, 0, 1 wraps
    assert [find(tab, k) for k in last] == [7, 0, 1]
    for i, key in enumerate(last):
        assert (tab[3 * find(tab, key) + 1], tab[3 * find(tab, key) + 2]) == (float(i), float(-i))


def _home_of(key: int, slots: int) -> int:
    from golfstats.kernels.honest.memo import home

    return int(home(key, slots))


def test_home_slot_doubles_in_order():
    rng = np.random.default_rng(7)
    for key in rng.integers(0, 1 << 52, 2000):
        for bits in (2, 9, 20, 31):
            h = _home_of(int(key), 1 << bits)
            assert 0 <= h < 1 << bits
            assert _home_of(int(key), 1 << (bits + 1)) // 2 == h


@pytest.mark.parametrize("variant", VARIANTS)
def test_policy_pass_matches_twin(variant):
    rules = parse_variant(variant)
    boards = positions(rules, 62, 6, 1200, min_stock=6)
    for board in boards:
        got = odds(board, rules, "win-strokes")
        assert got.resolved and got.stats.policy_states > 0  # the tables and the policy pass
        want = reference_odds(board, rules, "win-strokes")
        assert abs(got.value.p - want[0]) <= EXACT
        assert abs(got.value.e - want[1]) <= EXACT


def test_both_kinds_of_root_are_tried():
    """The positions above hold roots with p = 0 and with p > 0 (else the test above would
    not try what it says)."""
    roots = []
    for variant in VARIANTS:
        rules = parse_variant(variant)
        roots += [odds(b, rules, "win-strokes").value.p for b in positions(rules, 62, 6, 1200, min_stock=6)]
    assert any(p == 0 for p in roots) and any(p > 0 for p in roots)


def test_a_doubling_that_does_not_fit_is_refused():
    """The table doubles only when the old and the new table fit together in its byte
    budget (``meta[BYTES]``); else it stays, with every value, and says it failed."""
    from golfstats.kernels.honest.memo import BYTES, FAILED, SLOT_BYTES, empty_table, find, put

    for room, doubled in ((3 * SLOT_BYTES * 4 - 1, False), (3 * SLOT_BYTES * 4, True)):
        meta = np.zeros(8, np.int64)
        meta[BYTES] = room
        tab = empty_table(4)
        for key in (11, 22, 33):  # the third makes it more than half full
            tab = put(tab, meta, key, key / 2, -key)
        assert (tab.shape[0] == 3 * 8) == doubled and meta[FAILED] == (0 if doubled else 1)
        for key in (11, 22, 33):
            s = find(tab, key)
            assert (tab[3 * s], tab[3 * s + 1], tab[3 * s + 2]) == (key, key / 2, -key)
        if not doubled:  # failed: no new key is taken, so a free slot remains
            for key in range(100, 110):
                tab = put(tab, meta, key, 0.0, 0.0)
            assert tab[3 * find(tab, 100)] == -1.0 and (tab[0::3] == -1.0).any()
