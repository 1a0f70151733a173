"""Benchmark of `golfstats simulate`: the headline run and the targets of issue 5.

0. the headline run, `golfstats simulate --variant putt-putt -n 1000000` exactly as a
   user types it (default policies greedy, lookahead, exact): its projected wall time,
   from a sample of --n-headline deals (default 20,000) run the same way: start-up
   plus 1,000,000 deals at the sample's playing rate plus the summary; target <= 20 min;
   after a warm-up run of --warm-up deals (numba's cache filled, the files read once),
   and with each player's ms per deal from the run's summary (its ``cpu_seconds``: the
   players' own time on the workers, dealing and writing excluded);
1. wall time of `golfstats simulate --variant putt-putt -n 1000000 --policy greedy`
   (a subprocess: start-up, workers, Parquet and summary included); target <= 15 s;
2. exact-policy throughput on 2 workers against 1 worker; target ratio >= 1.8;
3. peak memory of all processes (the main process and its workers) for
   `-n 10000000 --policy greedy`; target < 1 GB.

Each figure runs the real CLI in a temporary run directory, removed afterwards.
Full scale takes a few minutes on 2 cores; scale down to check the script:

    python benchmarks/bench_simulate.py --n-headline 2000 --n-greedy 20000 --n-exact 100 \
        --n-memory 50000
    python benchmarks/bench_simulate.py --only headline      # the headline projection only
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import polars as pl
import psutil

GB = 1024**3


@dataclass
class Measured:
    command: str
    wall: float
    peak_rss: int  # sum over the process tree (counts shared pages once per process)
    peak_pss: int  # proportional set size: shared pages divided among the processes
    processes: int
    run: dict


def _golfstats() -> list[str]:
    exe = Path(sys.executable).with_name("golfstats")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "golfstats"]


def _tree_memory(proc: psutil.Process) -> tuple[int, int, int]:
    rss = pss = count = 0
    try:
        members = [proc, *proc.children(recursive=True)]
    except psutil.NoSuchProcess:
        return 0, 0, 0
    for member in members:
        try:
            info = member.memory_full_info()
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
        rss += info.rss
        pss += getattr(info, "pss", info.rss)
        count += 1
    return rss, pss, count


def measure(args: list[str], out: Path, sample: float) -> Measured:
    """Run ``golfstats simulate ARGS --out OUT -q``; wall time and peak memory of its tree."""
    cmd = [*_golfstats(), "simulate", *args, "--out", str(out), "--quiet"]
    shown = shlex.join(["golfstats", "simulate", *args])
    started = time.perf_counter()
    proc = psutil.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak_rss = peak_pss = peak_count = 0
    while proc.poll() is None:
        rss, pss, count = _tree_memory(proc)
        peak_rss, peak_pss, peak_count = max(peak_rss, rss), max(peak_pss, pss), max(peak_count, count)
        time.sleep(sample)
    wall = time.perf_counter() - started
    stderr = proc.stderr.read().decode()
    if proc.returncode != 0:
        raise SystemExit(f"{shown} failed ({proc.returncode}):\n{stderr}")
    run = json.loads((out / "run.json").read_text())
    return Measured(shown, wall, peak_rss, peak_pss, peak_count, run)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--variant", default="putt-putt", help="rule set (default putt-putt)")
    parser.add_argument("--n-greedy", type=int, default=1_000_000,
                        help="deals of the wall-time figure (default 1,000,000)")
    parser.add_argument("--n-exact", type=int, default=2_000,
                        help="deals of the exact throughput figure (default 2,000)")
    parser.add_argument("--exact-chunk", type=int, default=100,
                        help="chunk size of both exact runs (default 100)")
    parser.add_argument("--n-memory", type=int, default=10_000_000,
                        help="deals of the peak-memory figure (default 10,000,000)")
    parser.add_argument("--n-headline", type=int, default=20_000,
                        help="deals of the headline run's sample (default 20,000)")
    parser.add_argument("--warm-up", type=int, default=1_000,
                        help="deals of the unmeasured run before the headline's (default 1,000)")
    parser.add_argument("--only", choices=["headline", "wall", "exact", "memory"], action="append",
                        help="run only these figures (repeatable; default all four)")
    parser.add_argument("--sample", type=float, default=0.1,
                        help="seconds between memory samples (default 0.1)")
    parser.add_argument("--workdir", type=Path, default=None,
                        help="where the temporary run directories go (default: system temp)")
    parser.add_argument("--keep", action="store_true", help="keep the run directories")
    opts = parser.parse_args(argv)
    figures = opts.only or ["headline", "wall", "exact", "memory"]
    workdir = Path(tempfile.mkdtemp(prefix="bench-simulate-", dir=opts.workdir))
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} "
          f"(a shared machine: other work slows every figure)")
    try:
        if "headline" in figures:
            if opts.warm_up > 0:
                measure(["--variant", opts.variant, "-n", str(opts.warm_up)], workdir / "warm-up",
                        opts.sample)
            m = measure(["--variant", opts.variant, "-n", str(opts.n_headline)],
                        workdir / "headline", opts.sample)
            t = m.run["timings"]
            full = 1_000_000
            projected = (t["startup_seconds"] + full / t["deals_per_second"]
                         + t["summary_seconds"] * full / opts.n_headline)
            print(f"\n0. headline run, projected: {projected / 60:.1f} min for {full:,} deals "
                  f"(target <= 20 min)\n"
                  f"   $ golfstats simulate --variant {opts.variant} -n {full} (projected from)\n"
                  f"   $ {m.command}: {m.wall:.1f} s wall; start-up {t['startup_seconds']:.1f} s, "
                  f"playing {t['play_seconds']:.1f} s ({t['deals_per_second']:,.0f} deals/s), "
                  f"summary {t['summary_seconds']:.2f} s; policies {', '.join(m.run['policies'])}; "
                  f"{m.run['workers']} workers, chunks of {m.run['chunk_size']:,}")
            summary = pl.read_parquet(workdir / "headline" / "summary.parquet")
            for row in summary.iter_rows(named=True):
                print(f"   {row['policy']:>12s}: {row['cpu_seconds'] / row['n'] * 1000:7.3f} ms/deal "
                      f"(the player's own time on a worker)")
        if "wall" in figures:
            m = measure(["--variant", opts.variant, "-n", str(opts.n_greedy), "--policy", "greedy"],
                        workdir / "wall", opts.sample)
            t = m.run["timings"]
            print(f"\n1. wall time: {m.wall:.1f} s (target <= 15 s for 1,000,000 deals)\n"
                  f"   $ {m.command}\n"
                  f"   start-up {t['startup_seconds']:.1f} s, playing {t['play_seconds']:.1f} s "
                  f"({t['deals_per_second']:,.0f} deals/s), summary {t['summary_seconds']:.2f} s; "
                  f"{m.run['workers']} workers, chunks of {m.run['chunk_size']:,}")
        if "exact" in figures:
            runs = {}
            for workers in (1, 2):
                args = ["--variant", opts.variant, "-n", str(opts.n_exact), "--policy", "exact",
                        "--workers", str(workers), "--chunk-size", str(opts.exact_chunk)]
                runs[workers] = measure(args, workdir / f"exact{workers}", opts.sample)
            play = {w: m.run["timings"]["deals_per_second"] for w, m in runs.items()}
            wall = {w: opts.n_exact / m.wall for w, m in runs.items()}
            print(f"\n2. exact throughput, 2 workers / 1 worker: {play[2] / play[1]:.2f}x while "
                  f"playing, {wall[2] / wall[1]:.2f}x over the whole command (target >= 1.8)")
            for workers, m in runs.items():
                print(f"   $ {m.command}\n     {play[workers]:,.1f} deals/s playing, "
                      f"{wall[workers]:,.1f} deals/s over {m.wall:.1f} s wall")
        if "memory" in figures:
            m = measure(["--variant", opts.variant, "-n", str(opts.n_memory), "--policy", "greedy"],
                        workdir / "memory", opts.sample)
            print(f"\n3. peak memory, all processes: {m.peak_rss / GB:.2f} GB summed RSS, "
                  f"{m.peak_pss / GB:.2f} GB summed PSS (target < 1 GB)\n"
                  f"   $ {m.command}\n"
                  f"   {m.processes} processes at most, {m.wall:.1f} s wall, sampled every "
                  f"{opts.sample} s")
    finally:
        if opts.keep:
            print(f"\nrun directories kept in {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
