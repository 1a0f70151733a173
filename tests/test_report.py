"""Reports: par by exact convolution, paired comparison statistics, courses, charts and HTML.

Statistical checks compare with closed forms (binomial distribution, McNemar's exact
test by hand) at float tolerance; run data are small in-process runs in simulate's
format (see run_fixtures).
"""

from __future__ import annotations

import math
import shutil

import numpy as np
import polars as pl
import pytest
from run_fixtures import write_run

from golfstats.board import parse_board
from golfstats.course import CourseError, ParSettings, date_seed, make_course
from golfstats.deals import seeded_board
from golfstats.report import build_report
from golfstats.report.compare import (
    compare_policies,
    match_play,
    mcnemar,
    newcombe_independent,
    newcombe_paired,
)
from golfstats.report.doc import Para, Table
from golfstats.report.par import Pmf, par_from_hist, round_par
from golfstats.report.par_text import format_par, par_for_runs
from golfstats.rules import parse_variant
from golfstats.runs import RunError, load_run, load_runs, resolve_policy
from golfstats.solver import solve


@pytest.fixture(scope="module")
def run_dirs(tmp_path_factory):
    root = tmp_path_factory.mktemp("runs")
    return [write_run(root / "strict", "strict", ["random", "greedy", "lookahead", "exact"], 60),
            write_run(root / "putt", "putt-putt", ["greedy", "lookahead", "exact"], 40)]


# ------------------------------------------------------------------ par

@pytest.mark.parametrize("holes", [9, 18])
def test_two_point_hole_convolved_is_binomial(holes):
    p = 0.3  # a hole scores 3 with probability 0.7, 5 with probability 0.3
    total = Pmf.from_counts([3, 5], [0.7, 0.3]).total(holes)
    for k in range(holes + 1):
        expected = math.comb(holes, k) * p**k * (1 - p) ** (holes - k)
        assert total.prob(3 * holes + 2 * k, 3 * holes + 2 * k) == pytest.approx(expected, abs=1e-12)
        assert total.prob(3 * holes + 2 * k + 1, 3 * holes + 2 * k + 1) == 0.0
    assert total.probs.sum() == pytest.approx(1.0)
    assert total.mean == pytest.approx(holes * (3 + 2 * p))


def test_round_par_is_the_median_and_its_spread():
    pmf = Pmf.from_counts([-2, 0, 3, 5, 8], [5, 10, 40, 30, 15])
    rp = round_par(pmf, 9)
    assert rp.pmf.cdf(rp.par) >= 0.5 > rp.pmf.cdf(rp.par - 1)
    assert rp.quantiles["p50"] == rp.par
    assert rp.pmf.cdf(rp.quantiles["p10"]) >= 0.1 > rp.pmf.cdf(rp.quantiles["p10"] - 1)
    assert rp.traditional == 45 and rp.p_at_or_under_traditional == pytest.approx(rp.pmf.cdf(45))
    assert rp.p_perfect == pytest.approx(rp.pmf.cdf(0))
    assert round_par(pmf, 18).traditional == 90


def test_par_report_names_the_par_to_print_once():
    """One answer per rule set: the round par (the median total) of the reference player,
    and no other par of hole pars beside it."""
    result = par_from_hist("strict", "lookahead", [{"strokes": s, "count": 1} for s in [-3, -1, 0, 2]])
    assert result.rounds[9].par == result.rounds[9].pmf.quantile(0.5)
    assert result.rounds[9].low <= result.rounds[9].par <= result.rounds[9].high


def test_par_from_a_run(run_dirs):
    run = load_run(run_dirs[0])
    row = run.summary.filter(pl.col("policy") == "lookahead").row(0, named=True)
    result = par_from_hist("strict", "lookahead", row["stroke_hist"])
    assert result.n == 60 and result.per_hole.mean == pytest.approx(row["mean_strokes"])
    sets = par_for_runs([run])
    assert [p.policy for p in sets[0].players] == ["random", "greedy", "lookahead", "exact"]
    chosen = sets[0].chosen
    assert chosen.policy == "lookahead" and chosen.rounds[18].par == result.rounds[18].par
    md = format_par(sets)
    assert md.startswith("Par for 9 and 18 holes, strict")
    assert f"**Par to print: 9 holes {result.rounds[9].par}, 18 holes {result.rounds[18].par}" in md


# ------------------------------------------------------------------ compare

def test_mcnemar_known_values():
    exact, chi2, p = mcnemar(5, 0)
    assert exact == pytest.approx(2 * 0.5**5)  # 0.0625
    assert chi2 == pytest.approx(16 / 5) and p == pytest.approx(math.erfc(math.sqrt(1.6)))
    exact, _, _ = mcnemar(12, 3)
    by_hand = 2 * sum(math.comb(15, k) for k in range(4)) / 2**15
    assert exact == pytest.approx(by_hand, rel=1e-12)
    assert mcnemar(4, 4)[0] == 1.0 and mcnemar(0, 0) == (1.0, 0.0, 1.0)
    big, _, _ = mcnemar(30000, 30600)  # large counts stay finite and sensible
    assert 0.0 < big < 0.05


def test_newcombe_intervals_contain_the_difference_and_match_wald_when_large():
    lo, hi = newcombe_paired(14, 5, 0, 22)
    assert lo < 5 / 41 < hi and -1 <= lo and hi <= 1
    a, b, c, d = 40000, 3000, 2000, 55000
    n = a + b + c + d
    diff = (b - c) / n
    half = 1.959963984540054 * math.sqrt((b + c) - (b - c) ** 2 / n) / n
    lo, hi = newcombe_paired(a, b, c, d)
    assert lo == pytest.approx(diff - half, rel=0.02) and hi == pytest.approx(diff + half, rel=0.02)
    lo, hi = newcombe_independent(300, 1000, 200, 1000)
    assert lo < 0.1 < hi and hi - lo == pytest.approx(2 * 1.96 * math.sqrt(.3 * .7 / 1000 + .2 * .8 / 1000),
                                                      rel=0.03)


def test_compare_on_a_constructed_case():
    n = 18
    won_a = [True] * 10 + [False] * 8  # A wins deals 0-9
    won_b = [True] * 5 + [False] * 5 + [True] * 2 + [False] * 6  # B wins 0-4 and 10-11
    strokes_b = [2, 4] * 4 + [2] + [4, 2] * 4 + [4]  # A always scores 3
    deals = pl.DataFrame({
        "variant": ["strict"] * 2 * n, "seed": [1] * 2 * n, "deal_index": list(range(n)) * 2,
        "policy": ["a"] * n + ["b"] * n, "won": won_a + won_b, "strokes": [3] * n + strokes_b})
    (r,) = compare_policies(deals, "a", "b")
    assert (r.both, r.only_a, r.only_b, r.neither) == (5, 5, 2, 6)
    assert r.diff == pytest.approx(3 / 18)
    assert r.mcnemar_exact_p == pytest.approx(2 * (1 + 7 + 21) / 2**7)  # Binomial(7, 1/2) <= 2
    assert r.stroke_diff == pytest.approx(np.mean(3 - np.array(strokes_b)))
    nine, eighteen = r.matches[9], r.matches[18]
    assert (nine.rounds, nine.a_rounds, nine.b_rounds, nine.halved_rounds) == (2, 1, 1, 0)
    assert (nine.a_stroke_rounds, nine.b_stroke_rounds) == (1, 1)
    assert (eighteen.rounds, eighteen.halved_rounds, eighteen.a_holes, eighteen.b_holes) == (1, 1, 9, 9)
    assert eighteen.tied_stroke_rounds == 1
    assert match_play(np.zeros(20), np.ones(20), 9).rounds == 2  # the last 2 deals are dropped


def test_resolve_policy_names_what_the_run_has():
    assert resolve_policy("lookahead:depth=1", ["lookahead", "exact"]) == "lookahead"
    with pytest.raises(RunError, match="not in the run"):
        resolve_policy("greedy", ["lookahead", "exact"])
    with pytest.raises(RunError, match="unknown policy"):
        resolve_policy("bogus", ["lookahead"])


# ------------------------------------------------------------------ course

def test_date_rule_and_bad_dates():
    assert date_seed("2025-03-14") == 20250314
    for bad in ("2025-13-01", "14/03/2025", "2025-3-14", ""):
        with pytest.raises(CourseError):
            date_seed(bad)


def test_course_is_deterministic_and_winnable():
    rules = parse_variant("strict")
    seed = date_seed("2025-03-14")
    first = make_course(rules, 9, seed, date="2025-03-14", winnable=True, par=ParSettings(orders=40))
    again = make_course(rules, 9, seed, date="2025-03-14", winnable=True, par=ParSettings(orders=40))
    assert first.to_json() == again.to_json()
    assert len(first.hole_list) == 9 and first.par == sum(h.par for h in first.hole_list)
    indices = [h.index for h in first.hole_list]
    assert indices == sorted(set(indices)) and all(h.seed == seed for h in first.hole_list)
    for hole in first.hole_list:
        assert abs(hole.par - hole.expected_strokes) < 1  # the expectation, rounded to the card
        assert solve(parse_board(hole.board, rules), rules, "win").won
    plain = make_course(rules, 9, seed, par=ParSettings(orders=10))
    assert [h.index for h in plain.hole_list] == list(range(9))
    for index in set(range(indices[-1])) - set(indices):  # every deal skipped is unwinnable
        assert not solve(seeded_board(rules, seed, index), rules, "win").won
    with pytest.raises(CourseError):
        make_course(rules, 10, seed)


# ------------------------------------------------------------------ report files

def test_report_writes_every_chart_and_an_inline_html_page(run_dirs, tmp_path):
    files = build_report(load_runs(run_dirs), tmp_path / "out")
    assert set(files.charts) == {"win_rates", "stroke_distribution", "clairvoyant_gap"}
    for png, svg in files.charts.values():
        assert png.stat().st_size > 1000 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert svg.stat().st_size > 1000 and "<svg" in svg.read_text()
    for stem in ("win_rates", "win_rate_pivot", "stroke_distribution", "clairvoyant_gap"):
        assert (tmp_path / "out" / "tables" / f"{stem}.md").read_text().count("|") > 10
        assert pl.read_csv(tmp_path / "out" / "tables" / f"{stem}.csv").height > 0
    page = files.html.read_text()
    assert page.count("data:image/svg+xml;base64,") == 3
    assert page.count("<table") >= 3 and "putt-putt" in page and "lookahead" in page
    assert 'src="http' not in page and "<link" not in page and "<script" not in page
    wins = pl.read_csv(tmp_path / "out" / "tables" / "win_rates.csv")
    assert set(wins["variant"]) == {"strict", "putt-putt"} and wins.height == 7


def test_load_run_without_a_summary_summarizes_the_deal_rows(run_dirs, tmp_path):
    copy = shutil.copytree(run_dirs[0], tmp_path / "no-summary")
    (copy / "summary.parquet").unlink()
    from_rows, written = load_run(copy).summary, load_run(run_dirs[0]).summary
    assert from_rows.equals(written)
    assert from_rows["n"].to_list() == [60] * 4


def test_load_run_refuses_what_is_not_a_run(tmp_path):
    with pytest.raises(RunError, match="no such run directory"):
        load_run(tmp_path / "missing")
    with pytest.raises(RunError, match="not a run directory"):
        load_run(tmp_path)


def test_report_blocks_render_as_markdown_html_and_plain_text(capsys):
    """One report, three media: Markdown for files, HTML for the page, and the terminal's
    rich rendering, plain text when piped (no Markdown marks, no colour codes)."""
    from golfstats.cli.output import print_blocks
    from golfstats.report.doc import Bullets, Heading, html, markdown

    blocks = [Heading("strict: par"), Para("Par to print: 9 holes 40.", strong=True),
              Bullets(("one", "two <3")),
              Table(("player", "share"), (("lookahead", "41.0%"), ("greedy", "12.5%")), (False, True),
                    title="shares")]
    assert markdown(blocks) == ("### strict: par\n\n**Par to print: 9 holes 40.**\n\n- one\n- two <3\n\n"
                                "shares\n\n| player | share |\n|---|---:|\n| lookahead | 41.0% |\n"
                                "| greedy | 12.5% |\n")
    page = html(blocks)
    assert "<h3>strict: par</h3>" in page and "<strong>Par to print: 9 holes 40.</strong>" in page
    assert "<li>two &lt;3</li>" in page and '<td class="num">41.0%</td>' in page
    print_blocks(blocks)
    out = capsys.readouterr().out
    assert "\x1b[" not in out and "###" not in out and "**" not in out and "|" not in out
    assert "Par to print: 9 holes 40." in out and "- two <3" in out
    assert any(line.split() == ["lookahead", "41.0%"] for line in out.splitlines())
    with pytest.raises(ValueError, match="match its columns"):
        Table(("a", "b"), (("1",),), (False, True))
