"""``golfstats odds`` and the ``optimal`` policy, against the plain twin and the solver.

odds: per board the exact honest win_p and expected strokes (the twin's), the clairvoyant
verdict beside them (the solver's), and the Talon's order never matters.  optimal: its
rows carry the deal's exact values, and its play never beats the clairvoyant optimum on the same order.
"""

from __future__ import annotations

import json
import random
from types import SimpleNamespace

import pytest
from conftest import mid_game_positions
from positions import orders
from typer.testing import CliRunner

from golfstats.board import Board, format_board
from golfstats.cli import app
from golfstats.deals import pysol_board, seeded_deals
from golfstats.policies import parse_policy, play_board, play_deals
from golfstats.reference.expectimax import reference_odds
from golfstats.reference.twins import twin_of
from golfstats.rules import parse_variant
from golfstats.solver import solve

runner = CliRunner()
KEYS = {"board", "variant", "goal", "win_p", "expected_strokes", "resolved", "clairvoyant_won",
        "clairvoyant_strokes", "states", "bytes_estimate", "peak_rss_bytes", "disk_bytes",
        "partial", "seconds"}


def _odds(*args: str) -> list[dict]:
    result = runner.invoke(app, ["odds", *args, "--json"])
    assert result.exit_code == 0, (result.stdout, result.stderr)
    return [json.loads(line) for line in result.stdout.splitlines()]


@pytest.mark.parametrize("variant", ["strict", "queens-on-kings", "putt-putt+when-stuck"])
@pytest.mark.parametrize("goal", ["win", "win-strokes", "strokes"])
def test_odds_are_the_twins_and_the_clairvoyant_verdict_the_solvers(tmp_path, variant, goal):
    rules = parse_variant(variant)
    boards = mid_game_positions(rules, count=4, seed=8, max_stock=6, max_cards=12)
    path = tmp_path / "boards.txt"
    path.write_text("\n".join(format_board(b, rules) for b in boards))
    records = _odds(str(path), "--variant", variant, "--goal", goal)
    assert len(records) == len(boards)
    for board, record in zip(boards, records, strict=True):
        assert set(record) == KEYS and record["resolved"] is True
        p, e = reference_odds(board, rules, goal)
        assert record["win_p"] == pytest.approx(p, abs=1e-12)
        if goal == "win":  # the chance of winning alone
            assert record["expected_strokes"] is None
        else:
            assert record["expected_strokes"] == pytest.approx(e, abs=1e-12)
        seer = solve(board, rules)
        assert (record["clairvoyant_won"], record["clairvoyant_strokes"]) == (seer.won, seer.strokes)
        # honest play never beats the clairvoyant optimum averaged over every stock order
        # (the verdict for this one order may be a loss while win_p > 0)
        clairvoyant_p = sum(solve(o, rules).won for o in orders(board)) / len(orders(board))
        assert record["win_p"] <= clairvoyant_p + 1e-12


def test_odds_ignore_the_talon_order(tmp_path):
    rules = parse_variant("putt-putt")
    board = mid_game_positions(rules, count=1, seed=2, max_stock=7, max_cards=14)[0]
    rng = random.Random(1)
    seen = set()
    for k in range(3):
        stock = list(board.stock)
        rng.shuffle(stock)
        path = tmp_path / f"b{k}.txt"
        path.write_text(format_board(Board(board.tableau, tuple(stock), board.foundation), rules))
        record = _odds(str(path), "--variant", "putt-putt")[0]
        seen.add((record["win_p"], record["expected_strokes"], record["states"]))
    assert len(seen) == 1


def test_odds_of_a_stockless_game_are_the_solvers_verdict():
    records = _odds("--pysol", "1-3", "--variant", "all-in-a-row")
    for n, record in enumerate(records, start=1):
        seer = solve(pysol_board(parse_variant("all-in-a-row"), n), parse_variant("all-in-a-row"))
        assert record["win_p"] == float(seer.won) and record["clairvoyant_won"] == seer.won


def test_odds_budget_reports_unresolved_and_exit_code_1(tmp_path):
    rules = parse_variant("strict")
    board = mid_game_positions(rules, count=1, seed=3, max_stock=8, max_cards=20)[0]
    path = tmp_path / "b.txt"
    path.write_text(format_board(board, rules))
    result = runner.invoke(app, ["odds", str(path), "--max-states", "1", "--json"])
    assert result.exit_code == 1
    record = json.loads(result.stdout)
    assert record["resolved"] is False and record["win_p"] is None


def test_goal_strokes_is_refused_only_over_its_exact_need(tmp_path):
    """Goal strokes lists its states while their own bytes fit the budget, then counts
    what its backward pass will allocate: a budget of exactly that resolves, one byte less
    is refused before the pass with the same need, and a budget the listing alone passes
    is refused as partial (more states reachable than it counted), said so on the line."""
    from golfstats.goals import Goal
    from golfstats.honest.odds import compute

    rules = parse_variant("strict")
    board = mid_game_positions(rules, count=1, seed=3, max_stock=8, max_cards=20)[0]
    whole = compute(board, rules, Goal.STROKES, max_bytes=10**9)
    need, states = whole.stats.peak_bytes, whole.stats.states
    assert whole.resolved and not whole.stats.partial and need > 6 * states
    exact = compute(board, rules, Goal.STROKES, max_bytes=need)
    assert exact.resolved and exact.value == whole.value
    under = compute(board, rules, Goal.STROKES, max_bytes=need - 1)
    assert not under.resolved and not under.stats.partial
    assert (under.stats.peak_bytes, under.stats.states) == (need, states)
    listing = compute(board, rules, Goal.STROKES, max_bytes=6 * (states // 2))
    assert not listing.resolved and listing.stats.partial and listing.stats.states < states
    path = tmp_path / "b.txt"
    path.write_text(format_board(board, rules))
    budget = 6 * (states // 2) / 1e9 + resident_gb()
    result = runner.invoke(app, ["odds", str(path), "--goal", "strokes", "--max-memory",
                                 f"{budget:.9f}"])
    assert result.exit_code == 1 and "needs more than" in result.stdout, result.stdout


def resident_gb() -> float:
    """This process's resident set (``--max-memory`` is the whole process's budget)."""
    from golfstats.honest.memory import resident

    return resident()[0] / 1e9


def test_odds_with_the_layers_in_files_say_so_and_give_the_same_chance(tmp_path, monkeypatch):
    """With the layers made too large for memory (a TB more than they are), goal win keeps
    them in files: the same win_p, and the line says so."""
    from positions import positions

    from golfstats.honest import layer_files
    from golfstats.honest import solve as kernel

    rules = parse_variant("putt-putt")
    path = tmp_path / "b.txt"
    for board in positions(rules, 61, 6, 3000, min_stock=8, max_stock=8):
        path.write_text(format_board(board, rules))
        before = _odds(str(path), "--goal", "win")[0]
        if before["win_p"] > 0:  # (a value pass to make)
            break
    real = kernel.step_bytes
    monkeypatch.setattr(kernel, "step_bytes",
                        lambda *args: real(*args) + (0 if args[-1] else 1 << 40))
    on_disk = _odds(str(path), "--goal", "win")[0]
    assert before["disk_bytes"] == 0 and on_disk["disk_bytes"] > 0
    assert on_disk["win_p"] == before["win_p"] and on_disk["resolved"] is True
    result = runner.invoke(app, ["odds", str(path), "--goal", "win"])
    assert result.exit_code == 0 and "layers on disk" in result.stdout
    monkeypatch.setattr(layer_files.shutil, "disk_usage", lambda where: SimpleNamespace(free=10))
    result = runner.invoke(app, ["odds", str(path), "--goal", "win"])
    assert result.exit_code == 1 and "no room for its layers of values on disk" in result.stdout


@pytest.mark.parametrize("variant", ["strict", "putt-putt+jokers1", "queens-on-kings+when-stuck"])
def test_optimal_plays_its_twins_line(variant):
    rules = parse_variant(variant)
    pol = parse_policy("optimal")
    for board in mid_game_positions(rules, count=3, seed=6, max_stock=5, max_cards=10):
        line = play_board(rules, pol, board)
        twin = twin_of(pol)(rules, board.position(), pol)
        assert line.moves == twin.moves and line.strokes == twin.strokes


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["strict", "queens-on-kings", "putt-putt"])
def test_optimal_rows_carry_exact_values_never_above_the_clairvoyant(variant):
    rules = parse_variant(variant)
    batch = seeded_deals(rules, 5, 0, 4)
    rows = play_deals(rules, parse_policy("optimal"), batch)
    exact = play_deals(rules, parse_policy("exact"), batch)
    assert (rows["strokes"] >= exact["strokes"]).all()
    assert not (rows["won"] & ~exact["won"]).any()  # a realised win is a clairvoyant win
    for win_p, won in zip(rows["win_p"], rows["won"], strict=True):
        # win_p is over every stock order, not this one; a realised win needs win_p > 0
        assert win_p is None or (0.0 <= win_p <= 1.0 and (win_p > 0 or not won))


def test_optimal_rows_and_summary_through_a_simulation(tmp_path):
    """The honest optimum's values reach the deal rows and the summary (in Black Hole,
    where nothing is hidden, win_p is the exact solver's verdict)."""
    import polars as pl

    from golfstats.policies import policies_from_names
    from golfstats.sim import SimConfig, run_simulation

    rules = parse_variant("black-hole")
    config = SimConfig(rules=rules, policies=policies_from_names(["optimal", "exact"]), n=4,
                       seed=3, workers=1, out=tmp_path / "run")
    run = run_simulation(config, progress=False)
    rows = pl.read_parquet(run / "deals").sort("deal_index")
    optimal = rows.filter(pl.col("policy") == "optimal")
    exact = rows.filter(pl.col("policy") == "exact")
    assert optimal["win_p"].to_list() == [float(w) for w in exact["won"]]
    assert exact["win_p"].null_count() == 4
    summary = pl.read_parquet(run / "summary.parquet").filter(pl.col("policy") == "optimal")
    assert summary["n_win_p"][0] == 4
    assert summary["mean_win_p"][0] == pytest.approx(exact["won"].mean())


def test_unresolved_values_are_null_rows():
    """A deal whose honest value is unresolved (None) is a null in its row, not a number."""
    import numpy as np

    from golfstats.runs.write import deal_rows

    result = {key: np.zeros(2, np.int64) for key in
              ("won", "strokes", "points", "draws", "n_moves", "longest_chain", "states")}
    result.update(seconds=np.zeros(2), truncated=np.array([True, False]),
                  win_p=np.array([None, 0.25], dtype=object),
                  expected_strokes=np.array([None, 3.5], dtype=object))
    rows = deal_rows([("optimal", result)], np.arange(2), {
        "run_id": "r", "seed": 1, "variant": "strict", "rules_version": "1"})
    assert rows["win_p"].to_list() == [None, 0.25]
    assert rows["expected_strokes"].to_list() == [None, 3.5]


def test_simulate_prints_the_mean_win_p(tmp_path):
    result = runner.invoke(app, ["simulate", "--variant", "all-in-a-row", "-n", "3", "--policy",
                                 "optimal", "--workers", "1", "--out", str(tmp_path / "r")])
    assert result.exit_code == 0, result.stdout
    words = " ".join(result.stdout.split())  # the terminal may wrap the line
    assert "optimal: mean win_p" in words and "over 3 deals" in words


def test_the_memory_budget_is_the_process_s_and_its_peak_is_measured():
    """--max-memory covers the process: below its floor (the interpreter, numba, the
    kernels: its resident set before any table) it is refused in one line; the JSON
    reports the measured peak resident set beside the kernel's estimate of its tables."""
    from golfstats.honest import resident

    (record,) = _odds("--pysol", "1", "--variant", "putt-putt", "--goal", "win")
    now, peak = resident()
    assert 0 < record["peak_rss_bytes"] <= peak and record["bytes_estimate"] > 0
    refused = runner.invoke(app, ["odds", "--pysol", "1", "--max-memory", "0.02"])
    assert refused.exit_code == 2 and "below this process's floor" in refused.stderr
    assert refused.stderr.count("\n") == 1


def test_a_budget_the_first_pass_would_break_is_kept_to():
    """The W pass stops once its rows are over the budget (not after the pass): a budget
    just over the process's floor leaves PySolFC 2 of putt-putt unresolved with the
    process's measured peak (VmHWM) within it."""
    import re
    import subprocess
    import sys

    def run(gb: float) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "golfstats", "odds", "--pysol", "2", "--variant",
                               "putt-putt", "--max-memory", f"{gb:.3f}", "--json"],
                              capture_output=True, text=True, timeout=600)

    probe = run(0.02)  # refused: the message says the floor
    floor = float(re.search(r"floor, ([\d.]+) GB resident", probe.stderr).group(1))
    budget = floor + 0.1  # far under the W pass's 0.8 GB of rows
    got = run(budget)
    assert got.returncode == 1, got.stderr
    record = json.loads(got.stdout.splitlines()[0])
    assert not record["resolved"] and record["states"] == 0  # refused in the first pass
    assert record["peak_rss_bytes"] <= budget * 1e9
