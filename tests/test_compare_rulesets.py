"""`compare RUN_A RUN_B --policy P`: one player under two rule sets on the same deals, and
McNemar's test in words (a p too small for a double, an empty test)."""

from __future__ import annotations

import json

import polars as pl
import pytest
from pty_run import golfstats, run_on_pty
from run_fixtures import write_run
from typer.testing import CliRunner

from golfstats.cli import app
from golfstats.report.compare import compare_policies, mcnemar, mcnemar_line, p_text
from golfstats.report.rulesets import PairingError, compare_rule_sets

runner = CliRunner()
N = 40


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """lookahead and greedy on deals 0..N-1 of seed 7 under strict and under a house
    rule, and strict again under seed 8."""
    root = tmp_path_factory.mktemp("rulesets")
    return {"strict": write_run(root / "strict", "strict", ("greedy", "lookahead"), N, seed=7),
            "house": write_run(root / "house", "putt-putt+jokers1+when-stuck", ("lookahead",), N,
                               seed=7),
            "other_seed": write_run(root / "s8", "putt-putt", ("lookahead",), N, seed=8)}


def _rows(path, policy="lookahead") -> pl.DataFrame:
    deals = pl.read_parquet(path / "deals" / "part-00000.parquet")
    return deals.filter(pl.col("policy").cast(pl.String) == policy).sort("deal_index")


def test_the_pairs_are_the_deals_of_both_runs(runs):
    a, b = _rows(runs["strict"]), _rows(runs["house"])
    r = compare_rule_sets(pl.read_parquet(runs["strict"] / "deals"),
                          pl.read_parquet(runs["house"] / "deals"), "lookahead")
    c = r.comparison
    assert (c.a, c.b, c.n, r.seed) == ("strict", "putt-putt+jokers1+when-stuck", N, 7)
    won_a, won_b = a["won"].to_list(), b["won"].to_list()
    assert c.both == sum(x and y for x, y in zip(won_a, won_b, strict=True))
    assert c.only_a == sum(x and not y for x, y in zip(won_a, won_b, strict=True))
    assert c.only_b == sum(y and not x for x, y in zip(won_a, won_b, strict=True))
    diffs = (a["strokes"].cast(pl.Int64) - b["strokes"].cast(pl.Int64)).to_list()
    assert c.stroke_diff == pytest.approx(sum(diffs) / N)
    assert c.diff_low <= c.diff <= c.diff_high
    assert c.stroke_diff_low <= c.stroke_diff <= c.stroke_diff_high


def test_other_seeds_one_rule_set_or_no_common_deal_are_refused(runs):
    strict = pl.read_parquet(runs["strict"] / "deals")
    with pytest.raises(PairingError, match="seed 7 .* seed 8: not the same deals"):
        compare_rule_sets(strict, pl.read_parquet(runs["other_seed"] / "deals"), "lookahead")
    with pytest.raises(PairingError, match="both strict"):
        compare_rule_sets(strict, strict, "lookahead")
    house = pl.read_parquet(runs["house"] / "deals")
    later = house.with_columns(pl.col("deal_index") + N)
    with pytest.raises(PairingError, match="share no deal"):
        compare_rule_sets(strict, later, "lookahead")


def test_compare_two_runs_command(runs, tmp_path):
    out = tmp_path / "cmp"
    result = runner.invoke(app, ["compare", str(runs["strict"]), str(runs["house"]),
                                 "--policy", "lookahead", "--out", str(out)])
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert f"lookahead: strict (A) vs putt-putt+jokers1+when-stuck (B), {N} paired deals" in text
    assert f"the {N} deals of seed 7 that both runs hold" in text
    assert "difference A-B" in text and "95% CI" in text and "McNemar" in text
    markdown = (out / "compare.md").read_text()
    assert markdown.startswith("### lookahead: strict (A) vs putt-putt+jokers1+when-stuck (B)")
    row = pl.read_csv(out / "compare.csv").row(0, named=True)
    assert (row["rules_a"], row["rules_b"], row["n"], row["seed"]) == (
        "strict", "putt-putt+jokers1+when-stuck", N, 7)
    # the one-run comparison keeps working beside it
    one = runner.invoke(app, ["compare", str(runs["strict"]), "-p", "lookahead", "-p", "greedy"])
    assert one.exit_code == 0 and "strict: lookahead (A) vs greedy (B)" in one.stdout


def test_compare_two_runs_on_a_terminal(runs):
    shown = run_on_pty(golfstats("compare", str(runs["strict"]), str(runs["house"]), "-p",
                                 "lookahead"))
    assert shown.code == 0, shown
    assert "strict (A) vs putt-putt+jokers1+when-stuck (B)" in shown.text, shown
    assert "Traceback" not in shown.text and "Newcombe, paired" in shown.text, shown


@pytest.mark.parametrize("args, needle", [
    (("{strict}", "{other_seed}", "-p", "lookahead"), "not the same deals"),
    (("{strict}", "{strict}", "-p", "lookahead"), "both strict"),
    (("{strict}", "{house}", "-p", "greedy"), "not in the run"),
    (("{strict}", "-p", "lookahead"), "two policies"),
    (("{strict}", "{house}", "-p", "lookahead", "-v", "strict"), "--variant"),
])
def test_compare_two_runs_errors_are_one_line(runs, args, needle):
    argv = ["compare", *(a.format(**{k: str(v) for k, v in runs.items()}) for a in args)]
    result = runner.invoke(app, argv)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("golfstats: error: ") and needle in lines[0]


# ------------------------------------------------------------------ McNemar in words

def test_a_p_value_too_small_for_a_double_is_not_zero():
    exact, _, chi2_p = mcnemar(3000, 100)
    assert exact == 0.0 and chi2_p == 0.0  # underflow: the true p is about 1e-780
    assert p_text(exact) == "< 1e-300" and p_text(0.0123) == "0.0123"
    assert p_text(2e-300) == "2e-300"


def _deals(won_a, won_b, a="exact", b="lookahead") -> pl.DataFrame:
    n = len(won_a)
    return pl.DataFrame({"variant": ["strict"] * 2 * n, "seed": [1] * 2 * n,
                         "deal_index": list(range(n)) * 2, "policy": [a] * n + [b] * n,
                         "won": list(won_a) + list(won_b), "strokes": [1] * 2 * n})


def test_mcnemar_is_omitted_where_it_is_empty():
    # the clairvoyant optimum wins every deal the honest player wins: nothing to weigh
    (r,) = compare_policies(_deals([True, True, False, True], [True, False, False, False]),
                            "exact", "lookahead")
    assert r.clairvoyant == "a" and "omitted" in mcnemar_line(r) and "exact p" not in mcnemar_line(r)
    assert "sees the stock order" in r.mcnemar_omitted()
    (r,) = compare_policies(_deals([False, True], [True, False], "lookahead", "exact"),
                            "lookahead", "exact")
    assert r.clairvoyant == "b" and r.mcnemar_omitted() is None  # data the claim does not hold for
    # two honest players who never differ: no discordant pair
    (r,) = compare_policies(_deals([True, False], [True, False], "greedy", "lookahead"),
                            "greedy", "lookahead")
    assert r.clairvoyant == "" and "no deal was won by one" in r.mcnemar_omitted()
    (r,) = compare_policies(_deals([True, False, True], [False, True, False], "greedy",
                                   "lookahead"), "greedy", "lookahead")
    assert r.mcnemar_omitted() is None and "exact p = 1" in mcnemar_line(r)


def test_compare_csv_says_why_mcnemar_is_omitted(tmp_path):
    run = write_run(tmp_path / "run", "strict", ("lookahead", "exact"), 30)
    result = runner.invoke(app, ["compare", str(run), "-p", "exact", "-p", "lookahead",
                                 "--out", str(tmp_path / "o")])
    assert result.exit_code == 0, result.output
    assert "McNemar's test: omitted (exact sees the stock order" in result.stdout
    row = pl.read_csv(tmp_path / "o" / "compare.csv").row(0, named=True)
    assert row["mcnemar_omitted"].startswith("exact sees the stock order")
    assert json.dumps(row)  # a plain row
