"""Benchmark: the exact solver per variant, over a fixed set of deals, one core.

    python benchmarks/bench_solver.py              # 1,000 deals, 3 king rules
    python benchmarks/bench_solver.py --n 50 --variant black-hole --goal win

Default deals: PySolFC golf deals 1..n for rule sets PySol can deal (no jokers; under
empty-start the turned card goes back on the stock), seeded deals 0..n-1 of --seed
for the others (``--deals seeded`` forces seeded deals everywhere).  Boards are made
before timing; one untimed solve per variant and goal loads the compiled kernels.

For each variant and goal it prints mean and median milliseconds per deal (wall
time of ``solve()``), mean states examined per deal, the share of deals won, and
the peak memory of the process so far (``ru_maxrss``, MB: a high-water mark over
the whole run, so the figure of a later row includes the earlier ones).  It asserts
nothing about speed: the figures are for the record.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shlex
import statistics
import sys
import time

for _var in ("NUMBA_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

KING_RULES = ("strict", "queens-on-kings", "putt-putt")


def _boards(rules, n: int, source: str, seed: int):
    from golfstats.deals import pysol_board, seeded_board

    if source == "auto":
        source = "seeded" if rules.jokers else "pysol"
    if source == "pysol":
        return f"PySol deals 1-{n}", [pysol_board(rules, i) for i in range(1, n + 1)]
    return f"seeded deals 0-{n - 1} of seed {seed}", [seeded_board(rules, seed, i) for i in range(n)]


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KB


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", action="append", default=None,
                        help="rule set id; repeat for several (default: " + ", ".join(KING_RULES) + ")")
    parser.add_argument("--n", type=int, default=1000, help="deals per variant (default %(default)s)")
    parser.add_argument("--deals", choices=("auto", "pysol", "seeded"), default="auto",
                        help="deal source (default %(default)s: PySol where it can, else seeded)")
    parser.add_argument("--seed", type=int, default=1, help="seed of seeded deals (default %(default)s)")
    parser.add_argument("--goal", choices=("strokes", "win", "both"), default="both",
                        help="solver goal (default %(default)s)")
    args = parser.parse_args(argv)
    if args.n <= 0:
        parser.error("--n must be positive")

    from golfstats.rules import parse_variant
    from golfstats.solver import solve

    goals = ("strokes", "win") if args.goal == "both" else (args.goal,)
    print("command: " + shlex.join([sys.executable, *sys.argv]))
    print(f"machine: {platform.machine()}, {os.cpu_count()} cpus, python {platform.python_version()}")
    print(f"{'variant':<28} {'goal':<8} {'deals':>6} {'mean ms':>9} {'median ms':>10} "
          f"{'states':>10} {'won':>6} {'peak MB':>8}  deals")
    for name in args.variant or KING_RULES:
        rules = parse_variant(name)
        label, boards = _boards(rules, args.n, args.deals, args.seed)
        for goal in goals:
            solve(boards[0], rules, goal=goal)  # warm-up: load the compiled kernels
            times, states, won = [], 0, 0
            for board in boards:
                started = time.perf_counter()
                sol = solve(board, rules, goal=goal)
                times.append(time.perf_counter() - started)
                states += sol.states
                won += sol.won
            n = len(boards)
            print(f"{rules.id:<28} {goal:<8} {n:>6} {1e3 * statistics.fmean(times):>9.3f} "
                  f"{1e3 * statistics.median(times):>10.3f} {states / n:>10.0f} "
                  f"{100 * won / n:>5.1f}% {_peak_mb():>8.1f}  {label}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
