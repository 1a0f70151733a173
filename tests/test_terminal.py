"""The long commands as a user runs them: on a terminal (a pseudo-terminal, ``pty_run``).

rich's live displays only run on a terminal, and the headline command once crashed there
while every piped test passed (issue 22).  Each command here must exit 0, print no
traceback, and show its progress (asserted on what the display drew), on a small case.
Covered: simulate (and --resume of a run interrupted by Ctrl-C), par -n, report, study
--plan-only, odds on a whole strict deal, course, play and hint.  Also here: a run that
fails (in a worker, or in the main process before any chunk) is marked failed and the
same command continues it; ``golfstats --help`` imports no heavy library.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from conftest import mid_game_positions
from pty_run import golfstats, run_on_pty

from golfstats.board import format_board
from golfstats.cli.progress import DELAY
from golfstats.rules import parse_variant

#: A PySolFC strict deal whose chance of winning alone takes seconds, not minutes.
FAST_STRICT_DEAL = "1"


def _ok(run) -> None:
    assert run.code == 0, run
    assert "Traceback" not in run.text and "golfstats: error" not in run.text, run


def _shows_clock_if_long(run, marker: str) -> None:
    """A command that ran longer than the displays' delay showed what it was doing."""
    if run.seconds > DELAY + 1.0:
        assert marker in run.text, run


# ------------------------------------------------------------------ simulate, par, report

@pytest.fixture(scope="module")
def terminal_run(tmp_path_factory):
    """``golfstats simulate`` of three players on 1,000 putt-putt deals, on a terminal."""
    out = tmp_path_factory.mktemp("terminal") / "run"
    run = run_on_pty(golfstats("simulate", "--variant", "putt-putt", "-n", "1000", "--seed", "7",
                               "--workers", "2", "--out", str(out)))
    return out, run


def test_simulate_on_a_terminal_shows_the_bar_and_the_rates(terminal_run):
    out, run = terminal_run
    _ok(run)
    assert re.search(r"putt-putt .*1000/1000", run.text), run  # the bar, complete
    assert "deals/s" in run.text and "ETA" in run.text, run
    for policy in ("greedy", "lookahead", "exact"):  # the running win rates, then the table
        assert re.search(rf"{policy}\s+\d+\.\d\d% \[\d+\.\d\d, \d+\.\d\d\] of [\d,]+", run.text), run
    assert "win %" in run.text
    assert json.loads((out / "run.json").read_text())["status"] == "complete"


def test_simulate_interrupted_by_ctrl_c_then_resumed_on_a_terminal(tmp_path):
    out = tmp_path / "stopped"
    command = ["simulate", "--variant", "strict", "-n", "12000", "--policy", "lookahead",
               "--chunk-size", "500", "--workers", "2", "--out", str(out)]
    stopped = run_on_pty(golfstats(*command), interrupt_when=r"\b[1-9]\d*/12000")
    assert stopped.code == 130 and "Traceback" not in stopped.text, stopped
    assert "interrupted" in stopped.text, stopped
    record = json.loads((out / "run.json").read_text())
    assert record["status"] == "interrupted"
    kept = len(list((out / "deals").glob("part-*.parquet")))
    assert 0 < kept < 24

    resumed = run_on_pty(golfstats(*command, "--resume"))
    _ok(resumed)
    assert "12000/12000" in resumed.text and "deals/s" in resumed.text, resumed
    record = json.loads((out / "run.json").read_text())
    assert record["status"] == "complete" and len(record["attempts"]) == 2


def test_par_simulates_on_a_terminal(tmp_path):
    run = run_on_pty(golfstats("par", "--variant", "putt-putt", "-n", "2000"), cwd=tmp_path)
    _ok(run)
    assert re.search(r"putt-putt .*2000/2000", run.text) and "deals/s" in run.text, run
    assert "9 holes: par" in run.text, run
    assert list((tmp_path / "results" / "runs").glob("par-putt-putt-lookahead-n2000-s*"))


def test_report_on_a_terminal(terminal_run, tmp_path):
    out, _ = terminal_run
    run = run_on_pty(golfstats("report", str(out), "--out", str(tmp_path / "report")))
    _ok(run)
    assert "page:" in run.text and (tmp_path / "report" / "report.html").exists(), run
    _shows_clock_if_long(run, "writing the report")


def test_study_plan_on_a_terminal(tmp_path):
    run = run_on_pty(golfstats("study", "--plan-only", "--scale", "0.01", "--variants",
                               "strict,black-hole", "--out", str(tmp_path / "study")),
                     timeout=600)
    _ok(run)
    assert "pilot: 20 deals of 2 variants" in run.text, run
    assert re.search(r"black-hole .*20/20", run.text) and "deals/s" in run.text, run  # a bar
    assert "plan: " in run.text and "strict: n = " in run.text, run


# ------------------------------------------------------------------ one deal at a time

def test_odds_of_a_whole_strict_deal_shows_its_passes(tmp_path):
    run = run_on_pty(golfstats("odds", "--pysol", FAST_STRICT_DEAL, "--win-only"))
    _ok(run)
    assert re.search(rf"pysol:{FAST_STRICT_DEAL} · strict · win \d+\.\d\d%", run.text), run
    # the live line: which pass, the clock; in the value pass, the layer and an ETA
    _shows_clock_if_long(run, f"pysol:{FAST_STRICT_DEAL} · ")
    if run.seconds > DELAY + 3:
        assert re.search(r"chances of winning · layer \d+ of \d+ .*ETA", run.text), run


def test_course_on_a_terminal_counts_its_deals():
    run = run_on_pty(golfstats("course", "--variant", "putt-putt", "--seed", "3", "--winnable"))
    _ok(run)
    assert "9-hole course" in run.text, run
    assert re.search(r"holes .*9/9 .*solving deals: \d+ examined on 1 worker", run.text), run


def test_play_on_a_terminal():
    run = run_on_pty(golfstats("play", "--pysol", "1", "--policy", "lookahead"))
    _ok(run)
    assert "pysol:1 · strict · policy lookahead" in run.text and "longest chain" in run.text, run
    _shows_clock_if_long(run, "playing pysol:1")


def test_hint_on_a_terminal(tmp_path):
    rules = parse_variant("strict")
    position = tmp_path / "position.txt"  # a mid-game position, ten stock cards left
    position.write_text(format_board(mid_game_positions(rules, 1, 5, max_stock=10, max_cards=28)[0],
                                     rules))
    run = run_on_pty(golfstats("hint", str(position)))
    _ok(run)
    assert "why: " in run.text and "this position: win" in run.text, run
    _shows_clock_if_long(run, f"{position}#1 · ")


# ------------------------------------------------------------------ help, imports

def test_importing_the_cli_loads_no_heavy_library():
    """`golfstats --help` stays quick (benchmarks/bench_cli.py measures it): the CLI
    imports numpy, numba, polars and matplotlib inside its commands only."""
    code = ("import sys, golfstats.cli; "
            "print(' '.join(m for m in ('numpy', 'numba', 'polars', 'matplotlib', 'pyarrow') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == []


def test_help_on_a_terminal():
    run = run_on_pty(golfstats("--help"))
    _ok(run)
    assert "simulate" in run.text and "Usage" in run.text
