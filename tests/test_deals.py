"""Seeded and PySol deals: reproducible, complete, uniform, the same cards in every variant."""

from __future__ import annotations

from statistics import NormalDist

import numpy as np
import pytest
from conftest import PYSOL_1

from golfstats.board import format_board, parse_board
from golfstats.deals import BLOCK, board_from_cards, pysol_board, pysol_text, seeded_board, seeded_deals
from golfstats.rules import ACE_OF_SPADES, RulesError, Start, all_rule_sets, parse_variant

RULE_SETS = all_rule_sets()
STRICT = parse_variant("strict")
SEED = 20240601


def test_prefix_stable():
    """The first 1,000 deals of a 5,000-deal run are the 1,000 deals of a 1,000-deal run."""
    big = seeded_deals(STRICT, SEED, 0, 5000)
    small = seeded_deals(STRICT, SEED, 0, 1000)
    assert np.array_equal(big.cards[:1000], small.cards)
    assert np.array_equal(big.keys[:1000], small.keys)
    assert big.cards.shape == (5000, 52) and big.cards.dtype == np.int8


@pytest.mark.parametrize("rules", [STRICT, parse_variant("putt-putt+jokers2+empty-start"),
                                   parse_variant("black-hole")], ids=lambda r: r.id)
def test_chunking_independent(rules):
    """Any split of deals 0..4999 into (start, count) chunks gives the same deals."""
    whole = seeded_deals(rules, SEED, 0, 5000)
    rng = np.random.default_rng(7)
    for _ in range(5):
        cuts = np.sort(rng.choice(np.arange(1, 5000), size=12, replace=False))
        # block edges too: a chunk that ends or starts exactly on one
        bounds = [0, *sorted(set(cuts.tolist()) | {BLOCK, 2 * BLOCK + 1}), 5000]
        parts = [seeded_deals(rules, SEED, a, b - a) for a, b in zip(bounds, bounds[1:], strict=False)]
        assert [p.start for p in parts] == bounds[:-1]
        assert np.array_equal(np.concatenate([p.cards for p in parts]), whole.cards)
        assert np.array_equal(np.concatenate([p.keys for p in parts]), whole.keys)
    for i in (0, BLOCK - 1, BLOCK, 4999):
        assert seeded_board(rules, SEED, i) == board_from_cards(rules, whole.cards[i])
    assert seeded_deals(rules, SEED, 17, 0).cards.shape == (0, len(rules.deck))


def test_seeds_differ():
    a = seeded_deals(STRICT, 1, 0, 100).cards
    b = seeded_deals(STRICT, 2, 0, 100).cards
    assert not np.array_equal(a, b)
    assert len({row.tobytes() for row in a}) == 100, "100 different deals"


def test_bad_arguments():
    for args in ((-1, 0, 1), (0, -1, 1), (0, 0, -1)):
        with pytest.raises(ValueError):
            seeded_deals(STRICT, *args)


@pytest.mark.parametrize("rules", RULE_SETS, ids=[r.id for r in RULE_SETS])
def test_every_card_once_per_deal(rules):
    cards = seeded_deals(rules, SEED, 3000, 2000).cards
    assert cards.shape == (2000, len(rules.deck))
    assert (np.sort(cards, axis=1) == np.array(sorted(rules.deck), np.int8)).all()
    board = board_from_cards(rules, cards[0])
    layout = rules.layout
    assert [len(col) for col in board.tableau] == [layout.height] * layout.columns
    assert len(board.stock) == rules.stock_size
    if rules.game.value == "black-hole":
        assert board.foundation == ACE_OF_SPADES
    elif layout.start is Start.EMPTY:
        assert board.foundation is None
    else:
        assert board.foundation is not None


def _chi_square_quantile(df: int, q: float) -> float:
    """The ``q`` quantile of chi-square(df), by the Wilson-Hilferty cube-root normal
    approximation (within 0.1% of the exact value at these df; see the test below)."""
    z = NormalDist().inv_cdf(q)
    return df * (1 - 2 / (9 * df) + z * (2 / (9 * df)) ** 0.5) ** 3


@pytest.mark.parametrize("rules", [STRICT, parse_variant("strict+jokers2"), parse_variant("black-hole")],
                         ids=lambda r: r.id)
def test_card_positions_are_uniform(rules):
    """Chi-square test of card x position counts over 100,000 deals of a fixed seed.

    Under a uniform shuffle every card lands in every position with probability 1/n.
    The table has fixed margins (each card once per deal, each position once per
    deal), so (n-1)^2 degrees of freedom.  Tolerance: the statistic must lie between
    the 1e-4 and 1 - 1e-4 quantiles (two-sided p > 2e-4: too uniform is a bug too).
    """
    deals = 100_000
    cards = seeded_deals(rules, 12345, 0, deals).cards.astype(np.int64)
    n = cards.shape[1]
    lookup = np.full(54, -1, np.int64)
    lookup[sorted(rules.deck)] = np.arange(n)
    counts = np.bincount((lookup[cards] * n + np.arange(n)).ravel(), minlength=n * n).reshape(n, n)
    assert (counts.sum(axis=0) == deals).all() and (counts.sum(axis=1) == deals).all()
    expected = deals / n
    stat = float(((counts - expected) ** 2 / expected).sum())
    df = (n - 1) ** 2
    assert _chi_square_quantile(df, 1e-4) < stat < _chi_square_quantile(df, 1 - 1e-4), (stat, df)


def test_uniformity_test_can_fail():
    """The same statistic rejects a slightly biased shuffle: in 1% of the deals card 0 is
    swapped into position 0 (still a permutation, so the margins stay fixed)."""
    deals = 100_000
    cards = seeded_deals(STRICT, 12345, 0, deals).cards.astype(np.int64)
    for row in cards[: deals // 100]:
        j = int(np.flatnonzero(row == 0)[0])
        row[0], row[j] = row[j], row[0]
    n = 52
    counts = np.bincount((cards * n + np.arange(n)).ravel(), minlength=n * n).reshape(n, n)
    stat = float(((counts - deals / n) ** 2 / (deals / n)).sum())
    assert stat > _chi_square_quantile((n - 1) ** 2, 1 - 1e-4)


def _deal_order(rules, cards):
    """The kept shuffled order (deal order), undoing the layout (card k -> column k % C)."""
    columns, height = rules.layout.columns, rules.layout.height
    n_tab = columns * height
    order = [int(cards[(k % columns) * height + k // columns]) for k in range(n_tab)]
    return order + [int(c) for c in cards[n_tab:]]


def test_same_seed_same_order_across_variants():
    """Deal i of a seed is one 52-card order; jokers interleave, Black Hole drops AS."""
    base = seeded_deals(STRICT, SEED, 0, 300).cards
    for rules in RULE_SETS:
        cards = seeded_deals(rules, SEED, 0, 300).cards
        for d in range(300):
            order = _deal_order(rules, cards[d])
            plain = [c for c in _deal_order(STRICT, base[d]) if c in rules.deck]
            assert [c for c in order if c < 52] == plain, (rules.id, d)
        if rules.layout == STRICT.layout and rules.jokers == 0:
            assert np.array_equal(cards, base), "same layout, same cards"
    # jokers are shuffled in, not appended: with two, the 35-card tableau holds at least one
    # with probability 1 - C(19,2)/C(54,2) = 0.88; 300 deals, a +-4 sd band
    jokers2 = parse_variant("strict+jokers2")
    cards = seeded_deals(jokers2, SEED, 0, 300).cards
    share = np.mean([any(c >= 52 for c in _deal_order(jokers2, row)[:35]) for row in cards])
    assert 0.80 < share < 0.96, share


def test_pysol_deal_1_is_the_rules_md_board():
    for name in ("strict", "queens-on-kings", "putt-putt", "putt-putt+when-stuck"):
        rules = parse_variant(name)
        board = pysol_board(rules, 1)
        assert board == parse_board(PYSOL_1, rules)
        assert format_board(board, rules) == PYSOL_1
    assert pysol_text(STRICT, 1).strip() == PYSOL_1.strip()


def test_pysol_empty_start_puts_the_turned_card_back_on_the_stock():
    rules = parse_variant("queens-on-kings+empty-start")
    board = pysol_board(rules, 1)
    plain = pysol_board(STRICT, 1)
    assert board.foundation is None and board.stock == (plain.foundation, *plain.stock)
    assert board.tableau == plain.tableau


@pytest.mark.parametrize("name", ["black-hole", "all-in-a-row"])
def test_pysol_stockless_deals_parse(name):
    rules = parse_variant(name)
    for number in (1, 2, 1000, 123456):
        board = pysol_board(rules, number)
        layout = rules.layout
        assert [len(col) for col in board.tableau] == [layout.height] * layout.columns
        assert board.stock == ()
        assert sorted(board.cards()) == list(range(52))
        assert board.foundation == (ACE_OF_SPADES if name == "black-hole" else None)
    assert pysol_board(rules, 1) != pysol_board(rules, 2)


def test_pysol_limits():
    with pytest.raises(RulesError):
        pysol_board(parse_variant("strict+jokers1"), 1)
    with pytest.raises(ValueError):
        pysol_text(STRICT, 0)
