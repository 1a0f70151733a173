"""Par, one definition (docs/rules.md, "Par"): hole pars add up to the course's par, the
reference player averages a course's par under three rule sets, the bootstrap interval of
a round's par covers a known par (over whole deals: never over play-outs), and ``par``,
``course`` and ``report`` print the same par for the same deals and player, on a
terminal too."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import polars as pl
import pytest
from pty_run import golfstats, run_on_pty
from run_fixtures import write_run
from typer.testing import CliRunner

from golfstats.cli import app
from golfstats.course import ParSettings, make_course
from golfstats.course_par import course_par, hole_pars, par_player, stock_orders
from golfstats.deals import board_from_cards, seeded_deals
from golfstats.policies import PERFECT_GOLFER
from golfstats.report.doc import Para, Table, markdown
from golfstats.report.par import par_from_hist, par_of_deals, par_of_playouts, par_table
from golfstats.report.par_text import par_blocks, par_for_runs, par_section
from golfstats.report.pmf import Pmf, round_medians
from golfstats.rules import parse_variant
from golfstats.runs import load_runs

#: A per-hole population with a known par: 9 holes 31, 18 holes 62 (by exact convolution).
POPULATION = Pmf.from_counts([-4, -1, 0, 2, 4, 6, 9, 13], [3, 4, 6, 10, 12, 9, 5, 2])


# ------------------------------------------------------------------ the card's whole strokes

def test_hole_pars_add_up_to_the_course_par():
    rng = np.random.default_rng(3)
    for holes in (9, 18):
        for _ in range(50):
            e = rng.normal(3.0, 4.0, holes)
            pars = hole_pars(e)
            assert pars.sum() == course_par(e) == math.floor(e.sum() + 0.5)
            assert np.all(np.abs(pars - e) < 1)  # each hole rounded up or down
    assert hole_pars([0.6, 0.6, 0.6]).tolist() == [1, 1, 0]  # 1.8 -> 2: the first two remainders
    assert hole_pars([1.2, -0.7, 2.5]).tolist() == [1, -1, 3]  # 3.0 -> 3: floors 1, -1, 2; 2.5 up
    assert course_par([0.25, 0.25]) == 1 and course_par([-0.75, 0.1]) == -1


def test_stock_orders_shuffle_the_stock_alone_and_reproducibly():
    rules = parse_variant("strict")
    cards = seeded_deals(rules, 5, 0, 1).cards[0]
    stock = len(board_from_cards(rules, cards).stock)
    orders, keys = stock_orders(cards, stock, 5, 0, 30)
    again, _ = stock_orders(cards, stock, 5, 0, 30)
    other, _ = stock_orders(cards, stock, 5, 0, 30, stream=1)
    assert np.array_equal(orders, again) and not np.array_equal(orders, other) and keys.size == 30
    assert np.all(orders[:, :-stock] == cards[:-stock])  # the tableau and start card stay
    assert all(sorted(row[-stock:]) == sorted(cards[-stock:]) for row in orders)
    assert len({tuple(row[-stock:]) for row in orders}) == 30


def test_optimal_means_the_perfect_golfer_where_par_is_concerned():
    assert par_player("optimal").spec == PERFECT_GOLFER == "optimal:goal=strokes"
    assert par_player("optimal:goal=win").spec == "optimal"  # a goal named is kept
    assert par_player("lookahead").spec == "lookahead"


# ------------------------------------------------------------------ rounds and their bootstrap

def test_round_medians_by_fourier_match_the_exact_convolution():
    rng = np.random.default_rng(8)
    probs = rng.dirichlet(np.ones(12), size=40)
    for holes in (9, 18):
        medians, smooth = round_medians(probs, -3, holes)
        for row, m, c in zip(probs, medians, smooth, strict=True):
            total = Pmf(-3, row).total(holes)
            assert m == total.quantile(0.5) and c == pytest.approx(total.continuous_median, abs=1e-9)
            assert m - 0.5 <= c <= m + 0.5


def test_the_bootstrap_interval_covers_a_known_par():
    true = {h: POPULATION.total(h).quantile(0.5) for h in (9, 18)}
    assert true == {9: 31, 18: 62}
    rng = np.random.default_rng(5)
    covered = {9: 0, 18: 0}
    runs = 60
    for r in range(runs):
        sample = rng.choice(POPULATION.values, size=400, p=POPULATION.probs)
        result = par_of_playouts("x", "y", sample, resamples=300, seed=r)
        for h in (9, 18):
            rp = result.rounds[h]
            covered[h] += rp.low <= true[h] <= rp.high
            assert rp.low <= rp.par <= rp.high and 0 <= rp.p_off < 1
    assert min(covered.values()) >= 0.9 * runs, covered  # nominal 95%


def test_the_bootstrap_resamples_whole_deals_never_play_outs():
    """Deals of two kinds (easy, hard), each seen on 20 stock orders: resampling whole deals
    covers the population's par; treating the 600 play-outs as independent deals gives
    intervals far too narrow."""
    easy, hard = Pmf.from_counts([-3, -1, 0, 2], [2, 3, 3, 2]), Pmf.from_counts([5, 7, 9, 12], [2, 3, 3, 2])
    probs = np.zeros(16)
    for p in (easy, hard):
        probs[p.values + 3] += 0.5 * p.probs
    true = Pmf(-3, probs).total(18).quantile(0.5)
    rng = np.random.default_rng(1)
    deals_ok = playouts_ok = pooled_ok = 0
    for r in range(30):
        kinds = [easy if k else hard for k in rng.random(30) < 0.5]
        strokes = np.concatenate([rng.choice(p.values, size=20, p=p.probs) for p in kinds])
        deal = np.repeat(np.arange(30), 20)
        whole = par_of_playouts("x", "y", strokes, deal, resamples=300, seed=r).rounds[18]
        by_deal = par_of_deals("x", "y", strokes.reshape(30, 20), resamples=300, seed=r).rounds[18]
        assert (by_deal.par, by_deal.low, by_deal.high) == (whole.par, whole.low, whole.high)
        apart = par_of_playouts("x", "y", strokes, np.arange(600), resamples=300, seed=r).rounds[18]
        # the play-outs pooled, the deals no longer told apart: resampled as 30 single draws
        pooled = par_of_playouts("x", "y", strokes, pooled_deals=30, resamples=300, seed=r).rounds[18]
        deals_ok += whole.low <= true <= whole.high
        playouts_ok += apart.low <= true <= apart.high
        pooled_ok += pooled.low <= true <= pooled.high
        assert whole.high - whole.low > apart.high - apart.low
        assert pooled.high - pooled.low >= apart.high - apart.low
    assert deals_ok >= 24 and pooled_ok >= 24 and playouts_ok <= 15, (deals_ok, pooled_ok, playouts_ok)


def test_deals_needed_estimates_the_size_of_a_stable_par():
    """The estimate is about the same from 300 and from 1,200 deals, and at about that many
    deals the 9-hole par's continuous median has a 95% spread of one stroke or less."""
    rng = np.random.default_rng(11)
    small = par_of_playouts("x", "y", rng.choice(POPULATION.values, 300, p=POPULATION.probs))
    large = par_of_playouts("x", "y", rng.choice(POPULATION.values, 1200, p=POPULATION.probs))
    need = [r.rounds[9].deals_needed for r in (small, large)]
    assert 0.6 < need[0] / need[1] < 1.6, need
    medians = [Pmf.from_counts(*np.unique(rng.choice(POPULATION.values, need[1], p=POPULATION.probs),
                                          return_counts=True)).total(9).continuous_median
               for _ in range(40)]
    assert 1.96 * np.std(medians) < 0.75, np.std(medians)


def test_par_from_a_histogram_is_par_from_the_same_deals():
    sample = np.random.default_rng(2).choice(POPULATION.values, 500, p=POPULATION.probs)
    values, counts = np.unique(sample, return_counts=True)
    hist = [{"strokes": int(v), "count": int(c)} for v, c in zip(values, counts, strict=True)]
    a, b = par_from_hist("x", "y", hist), par_of_playouts("x", "y", sample)
    assert a.n == b.n == 500
    for h in (9, 18):
        ra, rb = a.rounds[h], b.rounds[h]
        assert (ra.par, ra.low, ra.high, ra.p_off, ra.deals_needed) == (rb.par, rb.low, rb.high,
                                                                       rb.p_off, rb.deals_needed)
    again = par_from_hist("x", "y", hist)
    assert again.rounds[18].low == a.rounds[18].low and again.rounds[18].p_off == a.rounds[18].p_off
    table = par_table([a])
    assert table["par9"][0] == a.rounds[9].par
    assert table["course_par9"][0] == course_par([a.mean_per_hole] * 9)


# ------------------------------------------------------------------ the reference averages par

@pytest.mark.parametrize("variant", ["strict", "queens-on-kings", "putt-putt+jokers1+when-stuck"])
def test_the_reference_player_averages_the_course_par(variant):
    rules = parse_variant(variant)
    course = make_course(rules, 18, 2026, par=ParSettings(orders=120))
    assert course.par == sum(h.par for h in course.hole_list) == course_par(
        [h.expected_strokes for h in course.hole_list])
    assert abs(course.par - course.expected_total) <= 0.5
    # its own mean over as many fresh stock orders: within the noise of the two
    gap = course.check_total - course.expected_total
    assert 0 < course.check_noise and abs(gap) <= 1.5 * course.check_noise, (gap, course.check_noise)
    scaled = make_course(rules, 18, 2026, par=ParSettings(orders=120, card_scale=(3, 5)))
    assert all(3 <= h.par <= 5 for h in scaled.hole_list)
    assert scaled.par == sum(h.par for h in scaled.hole_list)
    assert "gives up par as its average" in scaled.text()


# ------------------------------------------------------------------ par, course and report agree

@pytest.fixture(scope="module")
def black_hole_run(tmp_path_factory):
    """Deals 0..8 of seed 31 of Black Hole (nothing hidden: the perfect golfer's expected
    strokes are the exact solver's), played by lookahead and the perfect golfer."""
    root = tmp_path_factory.mktemp("par")
    return write_run(root / "bh", "black-hole", ["lookahead", PERFECT_GOLFER], 9, seed=31)


def test_par_course_and_report_agree_for_the_same_deals(black_hole_run, tmp_path):
    runs = load_runs([black_hole_run])
    sets = par_for_runs(runs, "optimal")
    perfect = next(p for p in sets[0].players if p.policy == PERFECT_GOLFER)
    assert sets[0].reference == PERFECT_GOLFER and perfect.exact
    course = make_course(parse_variant("black-hole"), 9, 31, par=ParSettings("optimal"))
    assert course.policy == PERFECT_GOLFER and course.orders == 0
    rows = runs[0].deals().filter(pl.col("policy") == PERFECT_GOLFER).sort("deal_index")
    assert [h.expected_strokes for h in course.hole_list] == pytest.approx(
        rows["expected_strokes"].cast(pl.Float64).to_list())
    assert course.expected_total == pytest.approx(9 * perfect.mean_per_hole)
    assert course.par == course_par([perfect.mean_per_hole] * 9)
    # par and report: the same table, the same numbers
    result = CliRunner().invoke(app, ["par", str(black_hole_run), "--out", str(tmp_path / "p")])
    assert result.exit_code == 0, result.output
    section = markdown(par_section(runs))
    assert (tmp_path / "p" / "par.md").read_text() == markdown(par_blocks(par_for_runs(runs)))
    assert section == (tmp_path / "p" / "par.md").read_text()
    page = CliRunner().invoke(app, ["report", str(black_hole_run), "--out", str(tmp_path / "r")])
    assert page.exit_code == 0, page.output
    assert (tmp_path / "r" / "tables" / "par.md").read_text() == section
    data = json.loads(CliRunner().invoke(app, ["course", "--variant", "black-hole", "--seed", "31",
                                               "--policy", "optimal", "--json"]).output)
    assert data["par"] == course.par and data["check_total"] is None


def test_one_table_with_every_player_and_one_line_to_print(black_hole_run):
    blocks = par_blocks(par_for_runs(load_runs([black_hole_run])))
    tables = [b for b in blocks if isinstance(b, Table)]
    assert len(tables) == 1
    players = [row[0] for row in tables[0].rows if row[0]]
    assert players == ["lookahead (reference)", f"{PERFECT_GOLFER} (perfect golfer)"]
    assert [row[3] for row in tables[0].rows] == ["9", "18", "9", "18"]
    strong = [b.text for b in blocks if isinstance(b, Para) and b.strong]
    assert len(strong) == 1
    assert re.match(r"Par to print: 9 holes -?\d+, 18 holes -?\d+ \(lookahead", strong[0])
    for row in tables[0].rows:  # a row per round size: its par, the interval and off
        assert re.fullmatch(r"-?\d+", row[4]) and re.fullmatch(r"-?\d+\.\.-?\d+", row[5])
        assert row[6].endswith("%")
    text = " ".join(b.text for b in blocks if isinstance(b, Para))
    assert re.search(r"stable to one stroke \(95%\) with about [\d,.k]+ deals for 9 holes", text)
    assert "course of such holes" not in text and "itself scores" not in text


def test_par_of_a_file_that_is_not_a_run(tmp_path):
    path = tmp_path / "board.txt"
    path.write_text("Talon: -\n")
    result = CliRunner().invoke(app, ["par", str(path)])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "is a file, not a run directory" in lines[0]
    assert "no such" not in lines[0]


def test_course_card_scale_is_checked():
    result = CliRunner().invoke(app, ["course", "--seed", "1", "--card-scale", "5..3"])
    assert result.exit_code == 2 and "LO <= HI" in result.output


# ------------------------------------------------------------------ on a terminal

def test_par_and_course_on_a_terminal(black_hole_run):
    run = run_on_pty(golfstats("par", str(black_hole_run)))
    assert run.code == 0, run
    assert "Par for 9 and 18 holes, black-hole" in run.text and "lookahead (reference)" in run.text, run
    assert re.search(r"Par to print: 9 holes -?\d+, 18 holes -?\d+", run.text), run
    assert "Traceback" not in run.text
    course = run_on_pty(golfstats("course", "--variant", "putt-putt", "--seed", "4", "--orders", "50"))
    assert course.code == 0, course
    assert re.search(r"# course par -?\d+|course par -?\d+ = their sum", course.text), course
    assert re.search(r"own mean total over 50 fresh stock orders of each hole: -?\d+\.\d\d", course.text)
    assert re.search(r"#\s+total\s+-?\d+\s+-?\d+\.\d\d", course.text), course


@pytest.mark.slow
def test_the_perfect_golfers_hole_par_is_the_exact_expected_strokes():
    """On a strict deal (a stock to hide): the honest table's expected strokes, exactly, or,
    where the table is beyond the default budget (deal 0 of seed 2026 is: 182 million
    states), a one-line refusal rather than a par from another player."""
    from golfstats.course_par import NoExpectation, hole_values
    from golfstats.goals import Goal
    from golfstats.honest import odds

    rules = parse_variant("strict")
    batch = seeded_deals(rules, 2026, 0, 1)
    exact = odds(board_from_cards(rules, batch.cards[0]), rules, Goal.STROKES)
    if not exact.resolved:
        with pytest.raises(NoExpectation, match="too large to value"):
            hole_values(rules, par_player("optimal"), 2026, [0], batch.cards, batch.keys)
        return
    (value,) = hole_values(rules, par_player("optimal"), 2026, [0], batch.cards, batch.keys)
    assert value.exact and value.expected == pytest.approx(exact.value.e, abs=1e-9)
