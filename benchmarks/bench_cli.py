"""Benchmark: how long `golfstats --help` takes, and what importing the CLI loads.

    python benchmarks/bench_cli.py               # 10 runs of each command
    python benchmarks/bench_cli.py --repeat 30

Each command runs in a fresh process (as a user types it), after one untimed run that
fills the operating system's file cache; the median and the range are printed beside a
bare `python -c pass`, the floor any command pays.  Then the heavy libraries that
`import golfstats.cli` loads (none is the target: numpy, numba, polars and matplotlib
are imported inside the commands).  Target (issue 22): `golfstats --help` under 0.5 s.
Prints figures only; asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import os
import platform
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

HEAVY = ("numpy", "numba", "polars", "matplotlib", "pyarrow", "rich")


def golfstats_command() -> list[str]:
    """The installed `golfstats` script beside this Python, else the same entry point."""
    script = Path(sys.executable).parent / "golfstats"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from golfstats.cli import main; main()"]


def timed(argv: list[str], repeat: int) -> list[float]:
    subprocess.run(argv, capture_output=True, check=True)  # untimed: fills the file cache
    runs = []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(argv, capture_output=True, check=True)
        runs.append(time.perf_counter() - started)
    return runs


def heavy_imports() -> list[str]:
    code = ("import sys, golfstats.cli; "
            f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return out.stdout.split()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=10, help="timed runs of each (default %(default)s)")
    args = parser.parse_args(argv)
    if args.repeat <= 0:
        parser.error("--repeat must be positive")

    cli = golfstats_command()
    commands = [("python -c pass", [sys.executable, "-c", "pass"]),
                ("golfstats --help", [*cli, "--help"]),
                ("golfstats simulate --help", [*cli, "simulate", "--help"]),
                ("golfstats odds --help", [*cli, "odds", "--help"])]
    print("command: " + shlex.join([sys.executable, *sys.argv]))
    print(f"machine: {platform.machine()}, {os.cpu_count()} cpus, python {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"{'command':<28} {'median s':>9} {'min s':>7} {'max s':>7}   ({args.repeat} runs each)")
    for name, command in commands:
        runs = timed(command, args.repeat)
        print(f"{name:<28} {statistics.median(runs):9.3f} {min(runs):7.3f} {max(runs):7.3f}")
    loaded = heavy_imports()
    print("import golfstats.cli loads: " + (", ".join(loaded) if loaded else
                                            f"none of {', '.join(HEAVY)}"))
    print("target: golfstats --help under 0.5 s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
