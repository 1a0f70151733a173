"""The long commands as a user runs them: on a terminal (a pseudo-terminal, ``pty_run``).

rich's live displays only run on a terminal, and the headline command once crashed there
while every piped test passed (issue 22).  Each command here must exit 0, print no
traceback, and show its progress (asserted on what the display drew), on a small case.
Covered: simulate (and --resume of a run interrupted by Ctrl-C), par -n, report, study
--plan-only, odds on a whole strict deal, course, play, hint and review.  Also here: a run that
fails (in a worker, or in the main process before any chunk) is marked failed and the
same command continues it; ``golfstats --help`` imports no heavy library.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import chunk_hooks
import polars as pl
import pytest
from conftest import mid_game_positions
from pty_run import golfstats, run_on_pty

from golfstats.board import format_board
from golfstats.cli.progress import DELAY, PASSES
from golfstats.policies import policies_from_names
from golfstats.rules import parse_variant
from golfstats.sim import SimConfig, SimError, run_simulation

#: A PySolFC strict deal whose chance of winning alone takes seconds, not minutes.
FAST_STRICT_DEAL = "3"


def _ok(run) -> None:
    assert run.code == 0, run
    assert "Traceback" not in run.text and "golfstats: error" not in run.text, run


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
    assert "putt-putt: starting the workers" in run.text, run  # the bar, from the start
    assert re.search(r"putt-putt .*1000/1000", run.text), run  # to the end
    assert "deals/s" in run.text and "ETA" in run.text, run
    for policy in ("greedy", "lookahead", "exact"):  # the running win rates, then the table
        assert re.search(rf"{policy}\s+\d+\.\d\d% \[\d+\.\d\d, \d+\.\d\d\] of [\d,]+", run.text), run
    assert "win %" in run.text
    assert json.loads((out / "run.json").read_text())["status"] == "complete"


def test_a_cold_cache_is_announced_on_the_terminal_and_when_piped(tmp_path):
    """On an empty numba cache the run says it compiles and about how long (the registry's
    figure); once compiled, it says nothing of it.  Greedy alone: seconds to compile."""
    from golfstats.policies import REGISTRY

    cold = {"NUMBA_CACHE_DIR": str(tmp_path / "cache"), "GOLFSTATS_NUMBA_CACHE": None}
    notice = (f"putt-putt: compiling the kernels (first run only, about "
              f"{REGISTRY['greedy'].compile_estimate(parse_variant('putt-putt')):.0f} s)")
    command = ["simulate", "--variant", "putt-putt", "-n", "400", "--policy", "greedy",
               "--workers", "1"]
    first = run_on_pty(golfstats(*command, "--out", str(tmp_path / "first")), env=cold)
    _ok(first)
    assert notice in first.text, first
    env = {k: v for k, v in {**os.environ, **cold}.items() if v is not None}
    piped = subprocess.run(golfstats(*command, "--out", str(tmp_path / "piped")), env=env,
                           capture_output=True, text=True, timeout=300)
    assert piped.returncode == 0 and "compiling" not in piped.stderr, piped.stderr
    (tmp_path / "cache").rename(tmp_path / "gone")  # cold again
    piped = subprocess.run(golfstats(*command, "--out", str(tmp_path / "piped-cold")), env=env,
                           capture_output=True, text=True, timeout=300)
    assert piped.returncode == 0 and notice in piped.stderr, piped.stderr


def test_workers_share_a_cold_compile_out_longest_first(monkeypatch):
    """Each policy to compile goes to the least loaded worker, the longest first; the
    estimate is the largest share; nothing cold, no shares."""
    from golfstats.sim import work

    rules = parse_variant("putt-putt")
    trio = policies_from_names(["greedy", "lookahead", "exact"])
    monkeypatch.setattr(work, "_cached", lambda rules, policy: False)
    shares, seconds = work.compile_share(rules, trio, 2)
    assert [[p.name for p in share] for share in shares] == [["lookahead"], ["exact", "greedy"]]
    assert seconds == max(trio[1].info.compile_estimate(rules),
                          trio[0].info.compile_estimate(rules) + trio[2].info.compile_estimate(rules))
    assert [len(s) for s in work.compile_share(rules, trio, 8)[0]] == [1, 1, 1]
    monkeypatch.setattr(work, "_cached", lambda rules, policy: policy.name != "exact")
    assert work.compile_share(rules, trio, 2) == ([(trio[2],)], trio[2].info.compile_estimate(rules))
    monkeypatch.setattr(work, "_cached", lambda rules, policy: True)
    assert work.compile_share(rules, trio, 2) == ([], 0.0)


def test_simulate_interrupted_by_ctrl_c_then_resumed_on_a_terminal(tmp_path):
    out = tmp_path / "stopped"
    command = ["simulate", "--variant", "strict", "-n", "12000", "--policy", "lookahead",
               "--chunk-size", "500", "--workers", "2", "--out", str(out)]
    stopped = run_on_pty(golfstats(*command), interrupt_when=r"\b[1-9]\d*/12000")
    assert stopped.code == 130 and "Traceback" not in stopped.text, stopped
    assert "interrupted" in stopped.text and "run the same command again" in stopped.text, stopped
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
    assert re.search(r"Par to print: 9 holes \d+, 18 holes \d+", run.text), run
    assert list((tmp_path / "results" / "runs").glob("par-putt-putt-lookahead-n2000-s*"))


def test_report_on_a_terminal(terminal_run, tmp_path):
    out, _ = terminal_run
    run = run_on_pty(golfstats("report", str(out), "--out", str(tmp_path / "report")))
    _ok(run)
    assert "page:" in run.text and (tmp_path / "report" / "report.html").exists(), run


def test_study_plan_on_a_terminal(tmp_path):
    run = run_on_pty(golfstats("study", "--plan-only", "--scale", "0.01", "--variants",
                               "strict,black-hole", "--out", str(tmp_path / "study")),
                     timeout=600)
    _ok(run)
    assert "pilot: 20 deals of 2 variants" in run.text, run
    assert re.search(r"black-hole .*20/20", run.text) and "deals/s" in run.text, run  # a bar
    assert "plan: " in run.text and re.search(r"strict-n\d+-s\d+: 0 of [\d,]+ deals", run.text), run


# ------------------------------------------------------------------ one deal at a time

def test_odds_of_a_whole_strict_deal_shows_its_passes(tmp_path):
    run = run_on_pty(golfstats("odds", "--pysol", FAST_STRICT_DEAL, "--goal", "win"))
    _ok(run)
    result = re.search(rf"pysol:{FAST_STRICT_DEAL} · strict · honest odds, the stock order "
                       rf"unknown: win \d+\.\d\d%.* · clairvoyant, knowing this board's Talon "
                       rf"order: .* (\d+\.\d\d) s( · peak [\d.]+ GB resident)?\n",
                       run.text)
    assert result, run
    # the live line, ticking: the board, the pass and the clock (in the value pass, the
    # layer, the states valued and an ETA, when a redraw falls in it); it shows once the
    # computation (its seconds end the result line) has run DELAY seconds
    if float(result.group(1)) > DELAY + 0.5:
        passes = "|".join(PASSES.values())
        assert re.search(rf"pysol:{FAST_STRICT_DEAL} · ({passes}) · .*\d+ s", run.text), run
    for layer in re.findall(r"chances of winning · layer (\d+) of 17 · .*", run.text):
        assert int(layer) == 0 or "ETA" in run.text


def test_course_on_a_terminal_counts_its_deals():
    run = run_on_pty(golfstats("course", "--variant", "putt-putt", "--seed", "3", "--winnable"))
    _ok(run)
    assert "9-hole course" in run.text, run
    assert re.search(r"holes .*9/9 .*solving deals: \d+ examined on 1 worker", run.text), run


def test_play_on_a_terminal():
    run = run_on_pty(golfstats("play", "--pysol", "1", "--policy", "lookahead"))
    _ok(run)
    assert "pysol:1 · strict · policy lookahead" in run.text and "longest chain" in run.text, run


def test_hint_on_a_terminal(tmp_path):
    rules = parse_variant("strict")
    position = tmp_path / "position.txt"  # a mid-game position, ten stock cards left
    position.write_text(format_board(mid_game_positions(rules, 1, 5, max_stock=10, max_cards=28)[0],
                                     rules))
    run = run_on_pty(golfstats("hint", str(position)))
    _ok(run)
    assert "why: " in run.text and "this position: win" in run.text, run


def test_review_on_a_terminal(tmp_path):
    """A game as ``play --json`` writes it, reviewed on a terminal, with its chart."""
    rules = parse_variant("putt-putt")
    position = tmp_path / "position.txt"
    position.write_text(format_board(mid_game_positions(rules, 1, 11, max_stock=8, max_cards=20)[0],
                                     rules))
    played = run_on_pty(golfstats("play", str(position), "--variant", "putt-putt", "--policy",
                                  "random", "--json"))
    _ok(played)
    record = json.loads(played.text[played.text.index("{"):played.text.rindex("}") + 1])
    game = tmp_path / "game.json"
    game.write_text(json.dumps(record))
    run = run_on_pty(golfstats("review", str(game), "--chart", str(tmp_path / "chance.png")))
    _ok(run)
    assert "review · putt-putt" in run.text and "given away" in run.text, run
    assert len(re.findall(r"^\s+\d+ (play|draw) ", run.text, re.M)) == len(record["moves"]), run
    assert (tmp_path / "chance.png").stat().st_size > 0


def test_a_long_computation_shows_what_it_does_and_a_ticking_clock():
    """The displays of the commands without countable steps (report, play, solve, hint and
    odds): nothing for quick work, then a line that refreshes itself, and is cleared."""
    code = ("import time; from golfstats.cli.progress import Activity\n"
            "with Activity('quick'): time.sleep(0.1)\n"
            "with Activity('valuing the deal'): time.sleep(DELAY + 2.2)\n"
            "print('done')\n").replace("DELAY", repr(DELAY))
    run = run_on_pty([sys.executable, "-c", code])
    _ok(run)
    assert "quick" not in run.text, run
    ticks = re.findall(r"valuing the deal · (\d+) s", run.text)
    assert {"1", "2", "3"} <= set(ticks), run  # redrawn while the main thread sleeps
    assert run.text.rstrip().endswith("done"), run


# ------------------------------------------------------------------ a run that stops

def _greedy_run(out, **changes) -> SimConfig:
    fields = {"rules": parse_variant("putt-putt"), "policies": policies_from_names(["greedy"]),
              "n": 300, "seed": 7, "workers": 1, "chunk_size": 50, "out": out}
    return SimConfig(**{**fields, **changes})


def _continued(out) -> dict:
    """Run the same command again (no --resume): it continues the stopped run."""
    run_simulation(_greedy_run(out), progress=False)
    rows = pl.read_parquet(out / "deals")
    assert sorted(rows["deal_index"].to_list()) == list(range(300))  # none lost, none twice
    return json.loads((out / "run.json").read_text())


def test_a_failed_chunk_marks_the_run_failed_and_the_same_command_continues_it(tmp_path):
    out = tmp_path / "fails"
    with pytest.raises(SimError, match=r"chunk 2 \(deals 100-149\) failed: RuntimeError.*"
                                       r"run the same command again"):
        run_simulation(_greedy_run(out, before_chunk=chunk_hooks.raise_at_chunk), progress=False)
    record = json.loads((out / "run.json").read_text())
    assert record["status"] == "failed" and "RuntimeError" in record["error"]
    record = _continued(out)
    assert record["status"] == "complete"
    assert [a["status"] for a in record["attempts"]] == ["failed", "complete"]
    assert record["attempts"][1]["chunks_kept"] == 2


def test_a_crash_before_any_chunk_marks_the_run_failed(tmp_path, monkeypatch):
    """The defect of issue 22: the progress display raised in the main process before the
    first chunk, and run.json stayed "running"."""
    from golfstats.sim import progress

    def broken(self):
        raise AttributeError("'_BarAndRates' object has no attribute 'rates'")

    out = tmp_path / "crashes"
    with monkeypatch.context() as patch:
        patch.setattr(progress.RunProgress, "__enter__", broken)
        with pytest.raises(SimError, match="internal error: AttributeError: .* 0 of 6 chunks"):
            run_simulation(_greedy_run(out), progress=True)
    assert json.loads((out / "run.json").read_text())["status"] == "failed"
    assert _continued(out)["status"] == "complete"


def test_a_run_left_running_is_continued_once_its_writer_is_gone(tmp_path):
    """A run.json still "running" whose writer is gone (no live process holds the folder's
    lock: killed outright) is continued by the same command; issue 38 (the lock, not the
    status, says whether another process writes it: tests/test_run_integrity.py)."""
    out = tmp_path / "running"
    with pytest.raises(SimError):
        run_simulation(_greedy_run(out, before_chunk=chunk_hooks.raise_at_chunk), progress=False)
    record = json.loads((out / "run.json").read_text())
    (out / "run.json").write_text(json.dumps({**record, "status": "running"}))
    run_simulation(_greedy_run(out), progress=False)
    assert json.loads((out / "run.json").read_text())["status"] == "complete"


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
