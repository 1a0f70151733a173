"""The report, par, course, compare and study commands through Typer's CliRunner.

The study test swaps in an in-process ``golfstats.sim`` (run_fixtures) so it
checks the study's plan and outputs in seconds, independent of the process pool.
"""

from __future__ import annotations

import json

import polars as pl
import pytest
from run_fixtures import write_run
from typer.testing import CliRunner
from valuers import fake_strokes, fake_value

from golfstats.cli import app
from golfstats.stats import wilson
from golfstats.study import StudyConfig, plan_sizes, required_n

runner = CliRunner()


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    return write_run(tmp_path_factory.mktemp("cli") / "run", "strict",
                     ["greedy", "lookahead", "exact"], 40)


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def one_line_error(result, text, code=2):
    assert result.exit_code == code, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert lines[-1].startswith("golfstats: error:") and text in lines[-1]


def test_report_command(run_dir, tmp_path):
    result = invoke("report", run_dir, "--out", tmp_path / "rep")
    assert result.exit_code == 0, result.output
    assert "lookahead" in result.output and "report.html" in result.output
    assert (tmp_path / "rep" / "report.html").is_file()
    assert (tmp_path / "rep" / "charts" / "win_rates.svg").stat().st_size > 0
    one_line_error(invoke("report", tmp_path / "nope"), "no such run directory", 1)
    page = (tmp_path / "rep" / "report.html").read_text()
    assert "Par to print: 9 holes" in page and "lookahead (reference)" in page
    assert "Par to print: 9 holes" in (tmp_path / "rep" / "tables" / "par.md").read_text()


def test_par_command(run_dir, tmp_path):
    result = invoke("par", run_dir, "--out", tmp_path / "par")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Par for 9 and 18 holes, strict" in out and "lookahead (reference)" in out
    words = " ".join(out.split())
    assert "Par to print: 9 holes" in words and ", 18 holes" in words and "median round total" in words
    assert "###" not in out and "**" not in out and "|---" not in out  # no Markdown on screen
    written = (tmp_path / "par" / "par.md").read_text()
    assert written.startswith("Par for 9 and 18 holes, strict\n\n| player |") and "**Par to print:" in written
    assert (tmp_path / "par" / "round_totals.png").stat().st_size > 0
    table = pl.read_csv(tmp_path / "par" / "par.csv")
    assert "lookahead" in table["policy"].to_list() and table.height > 1  # every player
    assert {"par9_low", "par9_high", "p_off18", "deals_needed18"} <= set(table.columns)
    other = invoke("par", run_dir, "--policy", "exact")
    assert other.exit_code == 0 and "exact (reference)" in other.output
    one_line_error(invoke("par", run_dir, "--policy", "random"), "not in the run")
    one_line_error(invoke("par", run_dir, "--policy", "nobody"), "nobody")


def test_compare_command(run_dir, tmp_path):
    result = invoke("compare", run_dir, "--policy", "lookahead", "--policy", "greedy", "--out",
                    tmp_path / "cmp")
    assert result.exit_code == 0, result.output
    assert "McNemar" in result.output and "9-hole match play, 4 rounds" in result.output
    assert "18-hole match play, 2 rounds" in result.output
    table = pl.read_csv(tmp_path / "cmp" / "compare.csv")
    assert table["n"].to_list() == [40] and table["a"].to_list() == ["lookahead"]
    one_line_error(invoke("compare", run_dir, "--policy", "lookahead", "-p", "sampling"), "not in the run")
    one_line_error(invoke("compare", run_dir, "--policy", "lookahead"), "two policies")
    one_line_error(invoke("compare", tmp_path / "nope", "-p", "a", "-p", "b"), "no such run directory", 1)


def test_course_command_same_date_same_course(tmp_path):
    args = ["course", "--variant", "putt-putt", "--holes", "9", "--date", "2024-02-29"]
    first = invoke(*args, "--out", tmp_path / "c.json", "--boards", tmp_path / "c.txt")
    second = invoke(*args)
    assert first.exit_code == 0, first.output
    assert first.output == second.output and "seed 20240229" in first.output
    data = json.loads((tmp_path / "c.json").read_text())
    assert data["seed"] == 20240229 and len(data["hole_list"]) == 9
    assert data["par"] == sum(h["par"] for h in data["hole_list"])
    own = sum(h["expected_strokes"] for h in data["hole_list"])
    assert abs(data["par"] - own) <= 0.5 and data["orders"] == 400
    assert f"course par {data['par']} = their sum ({own:.2f}) rounded" in first.output
    assert "lookahead's own mean total over 400 fresh stock orders of each hole" in first.output
    assert (tmp_path / "c.txt").read_text().count("Talon:") == 9
    one_line_error(invoke("course", "--date", "2024-02-30"), "bad date")
    one_line_error(invoke("course", "--holes", "12", "--seed", "1"), "9 or 18")
    one_line_error(invoke("course", "--seed", "1", "--date", "2024-01-01"), "not both")


def test_required_n_meets_the_target():
    assert required_n(0.5) >= 38415
    for p in (0.003, 0.1, 0.33, 0.5, 0.87, 0.997):
        n = required_n(p)
        lo, hi = wilson(round(p * n), n)
        assert (hi - lo) / 2 <= 0.005
        assert n <= 1.1 * 1.96**2 * p * (1 - p) / 0.005**2 + 200


def test_plan_fits_the_budget_and_scales():
    pilots = {"strict": (400, 130, 0.003), "black-hole": (400, 348, 0.08)}

    def config(**kw):
        return StudyConfig(workers=2, half_width=0.005, other_half_width=0.005, honest_hours=0.0,
                           sampling_n=500, **kw)

    full = plan_sizes(pilots, config())
    assert all(p.n == p.n_required and p.n >= 2000 for p in full)
    tight = plan_sizes(pilots, config(hours_budget=0.25))
    assert tight[0].n == full[0].n  # the cheap variant keeps its size
    assert 2000 < tight[1].n < full[1].n  # the expensive one is cut to fit
    spent = sum(p.n * p.seconds_per_deal for p in tight) + 3 * 500 * 0.35
    assert spent <= (0.25 * 3600 - 10 * 5) * 2 * 0.9 + 1
    floor = plan_sizes(pilots, config(hours_budget=0.01))
    assert [p.n for p in floor] == [2000, 2000]
    small = plan_sizes(pilots, config(scale=0.01))
    assert [s.n for s in small] == [max(20, round(f.n * 0.01)) for f in full]


def test_plan_targets_per_rule_set():
    """The three plain king rules are planned for +/-0.10%, the others for +/-0.30%."""
    pilots = {"strict": (2000, 519, 0.002), "strict+jokers2": (2000, 1574, 0.03)}
    plans = {p.variant: p for p in plan_sizes(pilots, StudyConfig(workers=2, hours_budget=100))}
    for variant, hw in (("strict", 0.001), ("strict+jokers2", 0.003)):
        p = plans[variant]
        lo, hi = wilson(round(p.p_plan * p.n), p.n)
        assert (hi - lo) / 2 <= hw and p.n == required_n(p.p_plan, hw)


@pytest.fixture(autouse=True)
def _no_real_strokes_tables(monkeypatch):
    """Every study here values its deals' perfect golfer with ``fake_strokes``."""
    import golfstats.study.optimum as optimum

    monkeypatch.setattr(optimum, "strokes_deal", fake_strokes)


def _resolved(row: dict, resolved: bool) -> dict:
    """``row`` resolved or not (an unresolved deal has no play-outs, as value_deal gives)."""
    return {**row, "resolved": resolved, "order_strokes": row["order_strokes"] if resolved else []}


def test_study_end_to_end(tmp_path, monkeypatch):
    import golfstats.study.optimum as optimum

    monkeypatch.setattr(optimum, "value_deal", fake_value)
    out = tmp_path / "results"
    result = invoke("study", "--out", out, "--scale", "0.001", "--variants", "strict,putt-putt",
                    "--optimal", "strict", "--workers", "1", "--quiet")
    assert result.exit_code == 0, result.output
    assert "pilot: 20 deals" in result.output and "study done" in result.output
    assert "[1/5] run strict" in result.output and "[5/5] optimal" in result.output  # one line a part
    assert "min left in all" in result.output
    for name in ("README.md", "summary.parquet", "study.json", "report.html", "tables/par.md",
                 "tables/compare.csv", "tables/win_rates.md", "charts/win_rates.png",
                 "charts/stroke_distribution.svg", "charts/clairvoyant_gap.png"):
        assert (out / name).stat().st_size > 0, name
    summary = pl.read_parquet(out / "summary.parquet")
    assert set(summary["policy"]) == {"random", "greedy", "lookahead", "exact", "sampling", "optimal"}
    optimal = summary.filter(pl.col("policy") == "optimal").row(0, named=True)
    assert optimal["variant"] == "strict" and optimal["n"] == 3  # scaled: at least and at most 3
    assert optimal["estimator"] == "regression on the clairvoyant share"
    assert optimal["win_p_ci_low"] <= optimal["mean_win_p"] <= optimal["win_p_ci_high"]
    readme = (out / "README.md").read_text()
    assert "Smoke run at scale 0.001" in readme and "## Par for 9 and 18 holes" in readme
    assert "black-hole-solver" in readme and "| strict |" in readme
    record = json.loads((out / "study.json").read_text())
    assert [p["variant"] for p in record["plan"]] == ["strict", "putt-putt"]
    assert summary.filter(pl.col("policy") == "exact")["n"].to_list() == [p["n"] for p in record["plan"]]
    # the scaled size, unless the time budget (measured on this machine, so it depends on
    # its load) cut it: never below the floor of 20
    assert all(20 <= p["n"] <= max(20, round(p["n_required"] * 0.001)) for p in record["plan"])
    # a second run reuses the finished runs
    again = invoke("study", "--out", out, "--scale", "0.001", "--variants", "strict,putt-putt",
                   "--optimal", "strict", "--workers", "1", "--quiet")
    assert again.exit_code == 0, again.output
    one_line_error(invoke("study", "--variants", "strict+jokers9"), "jokers")


def test_par_simulates_a_run_when_given_none(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = invoke("par", "--variant", "putt-putt", "-n", "30", "--seed", "3")
    assert result.exit_code == 0, result.output
    assert "Par for 9 and 18 holes, putt-putt" in result.output and "lookahead (reference)" in result.output
    assert (tmp_path / "results" / "runs" / "par-putt-putt-lookahead-n30-s3" / "summary.parquet").is_file()


def test_summary_only_folder_reports_but_cannot_compare(run_dir, tmp_path):
    folder = tmp_path / "results"
    folder.mkdir()
    pl.read_parquet(run_dir / "summary.parquet").write_parquet(folder / "summary.parquet")
    assert invoke("report", folder).exit_code == 0
    assert (folder / "report" / "report.html").is_file()
    assert invoke("par", folder).exit_code == 0
    one_line_error(invoke("compare", folder, "-p", "lookahead", "-p", "greedy"), "has deal rows", 1)


def test_report_of_an_unfinished_run_says_so(tmp_path):
    """A run stopped before its end (run.json plans more deals than its rows hold): the
    terminal, every Markdown table and the page say how many of the planned deals it holds."""
    run = write_run(tmp_path / "stopped", "strict", ["greedy", "exact"], 30)
    info = json.loads((run / "run.json").read_text())
    (run / "run.json").write_text(json.dumps({**info, "n": 1000, "status": "interrupted"}))
    result = invoke("report", run, "--out", tmp_path / "rep")
    assert result.exit_code == 0, result.output
    assert "unfinished: 30 of 1,000 deals" in result.output
    tables = sorted((tmp_path / "rep" / "tables").glob("*.md"))
    assert tables and all("unfinished: 30 of 1,000 deals" in t.read_text() for t in tables)
    assert "unfinished: 30 of 1,000 deals" in (tmp_path / "rep" / "report.html").read_text()
    finished = invoke("report", write_run(tmp_path / "whole", "strict", ["greedy"], 30),
                      "--out", tmp_path / "rep2")
    assert finished.exit_code == 0 and "unfinished:" not in finished.output


def test_optimum_values_unresolved_deals_again_with_a_larger_budget(tmp_path, monkeypatch):
    """A deal kept as unresolved under a smaller memory budget is valued again by a sitting
    with a larger one; a resolved deal, or one over the new budget too, is kept as it is."""
    import golfstats.study.optimum as optimum

    calls = []

    def fake(variant, seed, index, orders, max_bytes=0):
        calls.append(index)
        return {**fake_value(variant, seed, index, orders), "peak_bytes": 7}

    monkeypatch.setattr(optimum, "value_deal", fake)
    plan = optimum.OptimumPlan("strict", 1, 0.3, orders=5, min_n=3, max_n=3, workers=1,
                               max_bytes=6_000)
    folder = optimum.run_dir(tmp_path, plan)
    kept = [_resolved({**fake_value("strict", 1, i, 5), "peak_bytes": need}, i not in (0, 2))
            for i, need in ((0, 5_000), (1, 9), (2, 9_000))]  # 2 needs more than the new budget
    for row in kept:
        optimum._write_row(folder, row)
    result = optimum.run_optimum(plan, tmp_path)
    assert calls == [0]
    assert result.rows["resolved"].to_list() == [True, True, False] and result.unresolved == 1


def test_optimum_values_a_batch_unresolved_deal_again_alone(tmp_path, monkeypatch):
    """A deal over the workers' budget is valued again after its batch, alone, with the
    budget of a deal that has the machine to itself; one over that too stays unresolved."""
    import golfstats.study.optimum as optimum

    calls = []

    def fake(variant, seed, index, orders, max_bytes=0):
        calls.append((index, max_bytes))
        need = {1: 5_000, 2: 50_000}.get(index, 9)  # deal 1 fits alone, deal 2 never
        return _resolved({**fake_value(variant, seed, index, orders), "peak_bytes": need},
                         need <= max_bytes)

    monkeypatch.setattr(optimum, "value_deal", fake)
    plan = optimum.OptimumPlan("strict", 1, 0.3, orders=5, min_n=3, max_n=3, batch=3, workers=1,
                               max_bytes=1_000, alone_bytes=10_000)
    result = optimum.run_optimum(plan, tmp_path)
    assert calls == [(0, 1_000), (1, 1_000), (2, 1_000), (1, 10_000)]
    assert result.rows["resolved"].to_list() == [True, True, False] and result.unresolved == 1
    calls.clear()
    assert optimum.run_optimum(plan, tmp_path).unresolved == 1 and calls == []  # nothing again
    assert optimum.alone_bytes() > 0  # this platform says how much memory it has


def test_optimum_values_a_real_deal():
    """``value_deal`` is the honest kernel's p alone and a share of orders the exact
    solver wins (seeded strict deal 3: no order wins, so both are 0 by Fact 1)."""
    from golfstats.deals import board_from_cards, seeded_deals
    from golfstats.honest import odds
    from golfstats.rules import parse_variant
    from golfstats.study.optimum import value_deal

    row = value_deal("strict", 2026, 3, 10)
    rules = parse_variant("strict")
    board = board_from_cards(rules, seeded_deals(rules, 2026, 3, 1).cards[0])
    assert row["resolved"] and row["win_p"] == odds(board, rules, "win").value.p == 0.0
    assert row["share"] == 0.0 and row["deal_index"] == 3
    # played out on the same 10 orders: none is won, every one ends with cards left
    assert len(row["order_strokes"]) == 10 and min(row["order_strokes"]) >= 1


def test_runs_not_yet_begun_are_one_clause():
    """A study's plan can hold runs no chunk of which is played yet: one clause names the
    first and counts the rest (not a line each), beside each unfinished run's own."""
    from pathlib import Path
    from types import SimpleNamespace

    from golfstats.runs.read import unfinished_note

    def run(name, unfinished):
        return SimpleNamespace(path=Path("results/ledger") / name, unfinished=unfinished)

    note = unfinished_note([run("a-n2000", (0, 2000)), run("b-n500", (30, 500)), run("c", None),
                            run("d-n2000", (0, 2000)), run("e-n2000", (0, 2000))])
    assert note == ("unfinished: 30 of 500 deals (results/ledger/b-n500); not yet played, so "
                    "absent: 3 planned runs (a-n2000 and 2 more)")
    assert unfinished_note([run("a", (0, 9))]) == "not yet played, so absent: 1 planned run (a)"
    assert unfinished_note([run("c", None)]) == ""


def test_the_opening_marks_a_cell_whose_run_is_unfinished():
    """A cell resting on a run not finished says how many of its planned deals it holds; a
    cell resting on another run of the same player (a main run, beside a par run not
    begun) does not."""
    from golfstats.study.opening import opening_markdown

    full = pl.DataFrame({"variant": ["strict", "strict", "putt-putt"],
                         "policy": ["sampling", "greedy", "greedy"],
                         "n": [648, 22_193, 7_038], "win_rate": [0.213, 0.016, 0.24]})
    unfinished = {("strict", "sampling"): (648, 2_000), ("strict", "greedy"): (0, 64_265),
                  ("putt-putt", "greedy"): (7_038, 7_038)}
    text = opening_markdown(full, pl.DataFrame(schema={"variant": pl.String, "policy": pl.String}),
                            unfinished)
    assert "21.3% · 648 of 2,000 (unfinished)" in text
    assert "1.6% · 22,193 |" in text and "24.0% · 7,038 |" in text
