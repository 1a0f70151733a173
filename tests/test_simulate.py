"""golfstats simulate: paired, reproducible, resumable runs into Parquet (issue 5).

Small runs (a few hundred deals, chunks of 25-100) on real worker processes.  The
reference for "the same rows" is another run of the same configuration with other
workers, chunk sizes or backend: every column but ``seconds`` must be equal.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import chunk_hooks
import polars as pl
import pytest
import typer
from typer.testing import CliRunner

from golfstats.cli import app
from golfstats.deals import seeded_deals
from golfstats.policies import play_deals, policies_from_names
from golfstats.rules import RULES_VERSION, parse_variant
from golfstats.runs import DEAL_SCHEMA, summarize
from golfstats.sim import (
    SimConfig,
    SimError,
    auto_chunk_size,
    plan_chunks,
    run_simulation,
)
from golfstats.stats import wilson

RULES = parse_variant("putt-putt")
POLICIES = policies_from_names(["greedy", "lookahead", "exact"])
N = 120
SEED = 7


def _cli_args(*args: str) -> list[str]:
    """``simulate ARGS`` (just ARGS while simulate is the app's only command)."""
    command = typer.main.get_command(app)
    return ["simulate", *args] if hasattr(command, "commands") else list(args)


def _rows(run_dir: Path) -> pl.DataFrame:
    """The deal rows of a run, comparable across runs: no ``seconds``, sorted."""
    rows = pl.read_parquet(run_dir / "deals")
    return (rows.drop("seconds").with_columns(pl.col(pl.Categorical).cast(pl.String))
            .sort("policy", "deal_index"))


def _config(out: Path, **changes) -> SimConfig:
    fields = {"rules": RULES, "policies": POLICIES, "n": N, "seed": SEED, "workers": 1,
              "chunk_size": 40, "out": out}
    fields.update(changes)
    return SimConfig(**fields)


@pytest.fixture(scope="module")
def run_one_worker(tmp_path_factory) -> Path:
    """Reference run: 1 worker, chunks of 40, a DEBUG log file."""
    out = tmp_path_factory.mktemp("sim") / "one"
    run_simulation(_config(out), progress=False, log_file=out.parent / "one.log",
                   log_level="DEBUG")
    return out


@pytest.fixture(scope="module")
def run_two_workers_cli(tmp_path_factory) -> tuple[Path, str]:
    """The same run through the CLI: 2 workers, chunks of 25."""
    out = tmp_path_factory.mktemp("sim") / "two"
    result = CliRunner().invoke(app, _cli_args(
        "--variant", "putt-putt", "-n", str(N), "--seed", str(SEED), "--policy", "greedy",
        "--policy", "lookahead", "--policy", "exact", "--workers", "2", "--chunk-size", "25",
        "--out", str(out), "--quiet"))
    assert result.exit_code == 0, result.output
    return out, result.output


# ------------------------------------------------------------------ plan (no processes)

def test_chunks_cover_every_deal_once():
    for n, size in [(1, 1), (10, 3), (1000, 1000), (1001, 250)]:
        chunks = plan_chunks(n, size)
        covered = [i for c in chunks for i in range(c.start, c.stop)]
        assert covered == list(range(n))
        assert [c.index for c in chunks] == list(range(len(chunks)))
    # the slowest policy sets the pace, and a small run still gives every worker a few chunks
    assert auto_chunk_size(POLICIES, 10**6, 2) < auto_chunk_size(policies_from_names(["greedy"]),
                                                                 10**6, 2)
    assert len(plan_chunks(100, auto_chunk_size(POLICIES, 100, 2))) >= 2 * 4


def test_run_id_is_a_function_of_what_fixes_the_rows(tmp_path):
    a = _config(tmp_path / "a")
    assert a.run_id == _config(tmp_path / "b", workers=2, chunk_size=7, backend="dask").run_id
    assert a.run_id != _config(tmp_path / "a", seed=SEED + 1).run_id
    assert a.run_id != _config(tmp_path / "a", n=N + 1).run_id


def test_summarize_a_known_frame():
    deals = pl.DataFrame({
        "variant": ["v"] * 4 + ["v"] * 3, "policy": ["a"] * 4 + ["b"] * 3,
        "won": [True, False, True, True, False, False, True],
        "strokes": [-2, 3, 0, -1, 4, 4, -5], "points": [1, 2, 3, 4, 5, 6, 7],
        "draws": [1] * 7, "n_moves": [1] * 7, "longest_chain": [1] * 7, "states": [0] * 7,
        "seconds": [0.5] * 7, "truncated": [False] * 7,
        "win_p": [None] * 4 + [0.5, 0.25, 0.75], "expected_strokes": [None] * 4 + [1.0, 2.0, 3.0],
    })
    summary = summarize(deals)
    a, b = summary.row(0, named=True), summary.row(1, named=True)
    assert (a["policy"], a["n"], a["wins"], a["win_rate"]) == ("a", 4, 3, 0.75)
    assert a["median_strokes"] == -0.5  # even n: the mean of the two middle values
    assert b["median_strokes"] == 4.0
    assert (a["ci_low"], a["ci_high"]) == pytest.approx(wilson(3, 4))
    assert a["stroke_hist"] == [{"strokes": s, "count": 1} for s in (-2, -1, 0, 3)]
    assert b["stroke_hist"] == [{"strokes": -5, "count": 1}, {"strokes": 4, "count": 2}]
    assert a["cpu_seconds"] == pytest.approx(2.0)
    # exact honest values: only for the policy that gives them; mean +/- 1.96 standard errors
    assert (a["n_win_p"], a["mean_win_p"], a["win_p_ci_low"]) == (0, None, None)
    assert (b["n_win_p"], b["mean_win_p"], b["mean_expected_strokes"]) == (3, 0.5, 2.0)
    half = 1.959963984540054 * 0.25 / 3 ** 0.5  # sample sd of 0.5, 0.25, 0.75 is 0.25
    assert (b["win_p_ci_low"], b["win_p_ci_high"]) == pytest.approx((0.5 - half, 0.5 + half))


def test_truncated_deals_are_counted_apart():
    """A deal whose search a budget cut short is counted in ``truncated`` and left out of
    the win rate, its interval and the strokes."""
    deals = pl.DataFrame({
        "variant": ["v"] * 4, "policy": ["a"] * 4, "won": [True, False, False, True],
        "strokes": [-2, 3, 9, -1], "points": [1] * 4, "draws": [1] * 4, "n_moves": [1] * 4,
        "longest_chain": [1] * 4, "states": [5] * 4, "seconds": [0.5] * 4,
        "truncated": [False, False, True, True],
        "win_p": [None] * 4, "expected_strokes": [None] * 4,
    }, schema_overrides={"win_p": pl.Float64, "expected_strokes": pl.Float64})
    a = summarize(deals).row(0, named=True)
    assert (a["n"], a["truncated"], a["wins"], a["win_rate"]) == (4, 2, 1, 0.5)
    assert (a["ci_low"], a["ci_high"]) == pytest.approx(wilson(1, 2))
    assert (a["min_strokes"], a["max_strokes"]) == (-2, 3)
    assert sum(h["count"] for h in a["stroke_hist"]) == 2


# ------------------------------------------------------------------ a run and its files

def test_paired_rows_equal_direct_play(run_one_worker):
    rows = pl.read_parquet(run_one_worker / "deals")
    assert rows.height == N * len(POLICIES)
    for policy in POLICIES:
        mine = rows.filter(pl.col("policy") == policy.spec).sort("deal_index")
        assert mine["deal_index"].to_list() == list(range(N))  # every policy, every deal once
    # deal i depends only on (seed, i): replay a few deals on their own
    for index in (0, 57, N - 1):
        batch = seeded_deals(RULES, SEED, index, 1)
        for policy in POLICIES:
            direct = play_deals(RULES, policy, batch, "strokes")
            row = rows.filter((pl.col("policy") == policy.spec) & (pl.col("deal_index") == index))
            for key in ("won", "strokes", "points", "draws", "n_moves", "longest_chain", "states",
                        "truncated"):
                assert row[key].item() == direct[key][0], (index, policy.spec, key)
    # paired: on every deal the clairvoyant optimum is never worse than an honest player
    wide = rows.pivot(on="policy", index="deal_index", values="strokes")
    assert (wide["exact"] <= wide["greedy"]).all() and (wide["exact"] <= wide["lookahead"]).all()


def test_parquet_schema_and_metadata(run_one_worker):
    part = sorted((run_one_worker / "deals").glob("part-*.parquet"))[1]
    assert part.name == "part-000001.parquet"
    frame = pl.read_parquet(part)
    assert dict(frame.schema) == DEAL_SCHEMA
    assert set(frame["variant"].cast(pl.String)) == {"putt-putt"}
    assert set(frame["rules_version"].cast(pl.String)) == {RULES_VERSION}
    assert set(frame["seed"]) == {SEED}
    meta = pl.read_parquet_metadata(part)
    assert meta["golfstats.variant"] == "putt-putt" and meta["golfstats.seed"] == str(SEED)
    assert json.loads(meta["golfstats.rules"])["king"] == "putt-putt"
    assert (meta["golfstats.chunk"], meta["golfstats.deal_start"], meta["golfstats.deal_stop"]) \
        == ("1", "40", "80")
    assert pl.read_parquet_metadata(run_one_worker / "summary.parquet")["golfstats.seed"] == str(SEED)
    assert not list((run_one_worker / "deals").glob(".*"))  # no temporaries left


def test_summary_agrees_with_polars_aggregation(run_one_worker):
    summary = pl.read_parquet(run_one_worker / "summary.parquet").sort("policy")
    rows = pl.read_parquet(run_one_worker / "deals").with_columns(pl.col("policy").cast(pl.String))
    expected = rows.group_by("policy").agg(
        n=pl.len(), wins=pl.col("won").sum(), mean_strokes=pl.col("strokes").cast(pl.Float64).mean(),
        median_strokes=pl.col("strokes").median(), mean_points=pl.col("points").cast(pl.Float64).mean(),
    ).sort("policy")
    for got, want in zip(summary.iter_rows(named=True), expected.iter_rows(named=True), strict=True):
        assert got["policy"] == want["policy"] and got["variant"] == "putt-putt"
        assert (got["n"], got["wins"]) == (want["n"], want["wins"])
        assert got["win_rate"] == pytest.approx(want["wins"] / want["n"])
        assert (got["ci_low"], got["ci_high"]) == pytest.approx(wilson(want["wins"], want["n"]))
        for key in ("mean_strokes", "median_strokes", "mean_points"):
            assert got[key] == pytest.approx(want[key]), key
        counts = rows.filter(pl.col("policy") == got["policy"])["strokes"].value_counts().sort("strokes")
        assert got["stroke_hist"] == [{"strokes": s, "count": c} for s, c in counts.iter_rows()]
    assert summary.schema["stroke_hist"] == pl.List(pl.Struct({"strokes": pl.Int64, "count": pl.Int64}))


def test_run_json_and_worker_logs(run_one_worker):
    record = json.loads((run_one_worker / "run.json").read_text())
    assert record["status"] == "complete"
    assert (record["seed"], record["n"], record["variant"]) == (SEED, N, "putt-putt")
    assert record["policies"] == ["greedy", "lookahead", "exact"]
    assert (record["chunk_size"], record["chunks"], record["workers"]) == (40, 3, 1)
    assert {"golfstats", "numba", "numpy", "polars", "python"} <= set(record["versions"])
    assert record["timings"]["deals_played"] == N and record["timings"]["wall_seconds"] > 0
    assert "--seed 7" in record["replay_command"]
    log = (run_one_worker.parent / "one.log").read_text()
    # a record made in a worker process reached the main process's log file
    assert "golfstats-worker-0 golfstats.sim: chunk 2 (deals 80-119): exact played" in log


def test_same_rows_whatever_workers_and_chunk_size(run_one_worker, run_two_workers_cli):
    out, output = run_two_workers_cli
    assert _rows(out).equals(_rows(run_one_worker))
    assert len(list((out / "deals").glob("part-*.parquet"))) == 5
    assert "exact" in output and "seed 7" in output  # the summary table


def test_same_rows_on_dask(run_one_worker, tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  dashboard_address=None) as cluster:
        out = run_simulation(_config(tmp_path / "dask", chunk_size=30, workers=2, backend="dask",
                                     scheduler=cluster.scheduler_address), progress=False)
    assert _rows(out).equals(_rows(run_one_worker))
    assert json.loads((out / "run.json").read_text())["backend"] == "dask"


# ------------------------------------------------------------------ resume and failures

def test_resume_after_kill_gives_the_uninterrupted_rows(tmp_path):
    out = tmp_path / "killed"
    script = ("import chunk_hooks\n"
              "from golfstats.policies import policies_from_names\n"
              "from golfstats.rules import parse_variant\n"
              "from golfstats.sim import SimConfig, run_simulation\n"
              "if __name__ == '__main__':\n"
              f"    run_simulation(SimConfig(parse_variant({RULES.id!r}), policies_from_names(['greedy']),"
              f" n=1500, seed={SEED}, workers=2, chunk_size=100, out={str(out)!r},"
              " before_chunk=chunk_hooks.kill_run_at_chunk), progress=False)\n")
    tests = str(Path(__file__).parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([tests, os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, "-c", script], env=env, start_new_session=True,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600)
    assert proc.returncode == -signal.SIGKILL  # killed when a worker started chunk 6
    parts = sorted((out / "deals").glob("part-*.parquet"))
    assert 5 <= len(parts) < 15 and not (out / "summary.parquet").exists()  # 0-5 begun, one running
    parts[0].write_bytes(parts[0].read_bytes()[:100])  # as if cut short by a crash
    (out / "deals" / ".part-000009.1.parquet.tmp").write_bytes(b"partial")

    resumed = SimConfig(RULES, policies_from_names(["greedy"]), n=1500, seed=SEED, workers=2,
                        out=out, resume=True)
    run_simulation(resumed, progress=False)
    reference = run_simulation(SimConfig(RULES, policies_from_names(["greedy"]), n=1500, seed=SEED,
                                         workers=1, chunk_size=1500, out=tmp_path / "whole"),
                               progress=False)
    rows = _rows(out)
    assert rows.height == 1500 and rows["deal_index"].n_unique() == 1500  # none lost, none twice
    assert rows.equals(_rows(reference))
    assert not list((out / "deals").glob(".*"))
    record = json.loads((out / "run.json").read_text())
    assert record["status"] == "complete" and len(record["attempts"]) == 2
    assert record["chunk_size"] == 100  # the stored chunk size was kept


@pytest.mark.parametrize("hook, message", [
    (chunk_hooks.raise_at_chunk, "chunk 2 (deals 100-149) failed: RuntimeError"),
    (chunk_hooks.exit_at_chunk, "died with exit code 3 while playing chunk 2 (deals 100-149)"),
])
def test_failed_chunk_stops_the_run_and_keeps_finished_parts(tmp_path, hook, message):
    out = tmp_path / "fails"
    config = SimConfig(RULES, policies_from_names(["greedy"]), n=300, seed=SEED, workers=1,
                       chunk_size=50, out=out, before_chunk=hook)
    with pytest.raises(SimError) as failure:
        run_simulation(config, progress=False)
    assert message in str(failure.value) and "--resume" in str(failure.value)
    kept = sorted(p.name for p in (out / "deals").glob("part-*.parquet"))
    assert kept == ["part-000000.parquet", "part-000001.parquet"]  # one worker: in order
    assert json.loads((out / "run.json").read_text())["status"] == "failed"
    run_simulation(SimConfig(RULES, policies_from_names(["greedy"]), n=300, seed=SEED, workers=2,
                             out=out, resume=True), progress=False)
    assert _rows(out)["deal_index"].sort().to_list() == list(range(300))


@pytest.mark.parametrize("args, message, code", [
    (["-n", "0"], "Invalid value for '-n'", 2),
    (["-n", "-5"], "Invalid value for '-n'", 2),
    (["--variant", "nope"], "unknown variant 'nope'", 2),
    (["--policy", "psychic"], "unknown policy 'psychic'", 2),
    (["--policy", "greedy", "--policy", "greedy"], "a policy is given twice", 2),
    (["--chunk-size", "0"], "Invalid value for '--chunk-size'", 2),
    (["--workers", "0"], "Invalid value for '--workers'", 2),
    (["--seed", "-1"], "seed must be between 0", 2),
    (["--scheduler", "tcp://127.0.0.1:1"], "--scheduler is only for --backend dask", 2),
    (["--out", "FILE/run"], "cannot write --out", 1),
    (["--out", "EXISTING"], "holds a run; pass --resume", 1),
    (["--out", "EXISTING", "--resume", "--seed", "8"], "has seed 7, not 8; leave seed out", 2),
    (["--out", "EXISTING", "--resume", "--chunk-size", "33"], "has chunk size 40, not 33", 2),
    (["--out", "NOTARUN", "--resume"], "is not a golfstats run", 1),
    (["--log-file", "FILE/log.txt"], "cannot write --log-file", 1),
])
def test_bad_arguments_are_refused_before_any_work(run_one_worker, tmp_path, args, message, code):
    """Through the console script's entry point, as a user meets them: one line, the
    README's exit code, nothing written."""
    from test_errors import invoke

    regular_file = tmp_path / "file"
    regular_file.write_text("not a directory")
    (tmp_path / "notarun").mkdir()
    (tmp_path / "notarun" / "notes.txt").write_text("mine")
    places = {"FILE/run": str(regular_file / "run"), "FILE/log.txt": str(regular_file / "log.txt"),
              "EXISTING": str(run_one_worker),
              "NOTARUN": str(tmp_path / "notarun")}
    args = [places.get(a, a) for a in args]
    resumed = "--resume" in args
    if "--out" not in args:
        args += ["--out", str(tmp_path / "new")]
    if "-n" not in args and not resumed:
        args += ["-n", str(N)]
    if "--seed" not in args and not resumed:
        args += ["--seed", str(SEED)]
    if "--policy" not in args and not resumed:
        args += ["--policy", "greedy", "--policy", "lookahead", "--policy", "exact"]
    before = (run_one_worker / "run.json").read_text()
    exit_code, out, err = invoke(_cli_args(*args, "--quiet"))
    lines = [line for line in (out + err).splitlines() if line.strip()]
    assert lines == [lines[0]] and lines[0].startswith("golfstats: error: ") and message in lines[0]
    assert exit_code == code, lines[0]
    assert not (tmp_path / "new").exists()
    assert (run_one_worker / "run.json").read_text() == before


def test_resume_takes_the_settings_from_the_run(run_one_worker, tmp_path):
    """`simulate --out DIR --resume` alone finishes the run as it was started: the variant,
    n, seed, policies, goal and chunk size come from run.json; given again they are
    checked (here: the same values, the policies in another order)."""
    import shutil

    from test_errors import invoke

    run = shutil.copytree(run_one_worker, tmp_path / "run")
    stored = json.loads((run / "run.json").read_text())
    parts = sorted((run / "deals").glob("part-*.parquet"))
    parts[-1].unlink()  # an unfinished run: its last chunk is missing
    code, _, err = invoke(_cli_args("--out", str(run), "--resume", "--quiet"))
    assert code == 0, err
    again = json.loads((run / "run.json").read_text())
    assert again["identity"] == stored["identity"] and again["chunk_size"] == stored["chunk_size"]
    assert again["attempts"][-1]["chunks_played"] == 1
    assert _rows(run).equals(_rows(run_one_worker))
    given = [*(x for p in reversed(stored["policies"]) for x in ("-p", p)), "-n",
             str(stored["n"]), "--seed", str(stored["seed"]), "--variant", stored["variant"]]
    code, _, err = invoke(_cli_args("--out", str(run), "--resume", "--quiet", *given))
    assert code == 0, err
    code, _, err = invoke(_cli_args("--out", str(run), "--resume", "--quiet", "-v", "strict"))
    assert code == 2 and f"has variant {stored['variant']}, not strict" in err


def test_library_refuses_bad_config(tmp_path):
    with pytest.raises(SimError, match="positive"):
        run_simulation(_config(tmp_path / "x", n=0), progress=False)
    with pytest.raises(SimError, match="backend must be local or dask"):
        run_simulation(_config(tmp_path / "x", backend="mpi"), progress=False)
    assert not (tmp_path / "x").exists()



def test_progress_shows_each_policys_running_win_rate(run_one_worker):
    """The progress display's win rates are the rows' (wins over deals played to the end,
    with the Wilson interval), counted chunk by chunk."""
    from golfstats.sim.progress import RunProgress
    from golfstats.sim.work import tally

    rows = pl.read_parquet(run_one_worker / "deals")
    specs = tuple(p.spec for p in POLICIES)
    bar = RunProgress(N, 0, "test", enabled=False, policies=specs)
    for start in range(0, N, 50):  # as chunks of 50 deals
        bar.count(*tally(rows.filter(pl.col("deal_index").is_between(start, start + 49)), specs))
    for spec, line in zip(specs, bar.rates(), strict=True):
        mine = rows.filter(pl.col("policy") == spec)
        wins = int(mine["won"].sum())
        low, high = wilson(wins, mine.height)
        assert line.split() == [spec, f"{100 * wins / mine.height:.2f}%",
                                f"[{100 * low:.2f},", f"{100 * high:.2f}]", "of", f"{N:,}"]
