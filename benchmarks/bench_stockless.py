"""Benchmark: the exact stockless solver (``kernels.stockless``) on PySolFC deals, one core.

    python benchmarks/bench_stockless.py                       # deals 1-1000, both games, both goals
    python benchmarks/bench_stockless.py --n 100 --game all-in-a-row --goal win
    python benchmarks/bench_stockless.py --n 200 --goal strokes --pool both   # issue 42's A/B

For each game (black-hole, all-in-a-row) and goal (win: is the deal winnable; strokes:
a win, else the fewest cards left) it solves PySolFC deals 1..n.  The boards and their
kernel arrays are made before timing and one untimed solve loads the compiled kernel;
each deal is then timed around the kernel call alone (wall clock, and the process's CPU
time, which a busy machine inflates less).  ``--pool``: where the search's hash set lives,
``kv`` (the golf sweep's buffer, as ``kernels.solve`` passes it: no table allocated per
solve), ``none`` (a table allocated per solve, as before issue 42), or ``both``: each deal
solved both ways one after the other (who goes first alternates), a row for each.

It prints milliseconds per deal (mean, median, 99th percentile, max; mean CPU), states
stored per deal (mean, max), deals won, deals unresolved (the state budget ``--max-states``
was reached: neither won nor lost), and the peak memory of the process so far
(``ru_maxrss``, MB, a high-water mark over the whole run, numba and LLVM included).  It
asserts nothing about speed: the figures are for the record.

Recorded on 2026-12-01 (2 cores shared with other work: one other process busy on the
other core; x86_64, Python 3.11.7, numba 0.68.1):

    $ python benchmarks/bench_stockless.py
    game         goal    deals mean ms median    p99 max ms cpu ms  states  max st.  won unres. peak MB
    black-hole   win      1000    7.77   0.54  114.1  413.4   7.70   31924  1416053  877      0   258.3
    black-hole   strokes  1000    9.97   0.62  163.1  678.8   9.60   32451  1416053  877      0   258.4
    all-in-a-row win      1000   12.83   3.34  148.1  447.4  12.70   45924  1229068  690      0   259.4
    all-in-a-row strokes  1000   19.51   3.94  230.8  450.8  19.35   59877  1248088  690      0   259.5

(the run's figures, printed by the previous column layout; peak MB includes a compile).
A later run, load average 2.3 (other work on both cores: wall above CPU):

    game         goal    deals mean ms median    p99 max ms cpu ms  states  max st.  won unres. peak MB
    black-hole   win      1000    9.22   0.64  149.4  535.6   9.16   31924  1416053  877      0   210.5
    black-hole   strokes  1000   10.07   0.66  165.7  682.3   9.73   32451  1416053  877      0   210.6
    all-in-a-row win      1000   16.94   4.21  219.9  571.8  13.03   45924  1229068  690      0   212.7
    all-in-a-row strokes  1000   31.83   6.48  379.2  995.1  19.82   59877  1248088  690      0   212.8

For comparison, black-hole-solver (C, depth-first with a hash set; batch mode, one core,
same deals): Black Hole 168 ms per deal (median 13, slowest 9.5 s), All in a Row 43 ms
(median 10, slowest 2.9 s).
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

GAMES = ("black-hole", "all-in-a-row")


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KB


def _inputs(rules, n: int):
    from golfstats.deals import pysol_board
    from golfstats.kernels.rule_tables import board_arrays, kernel_tables, tables_for

    tables = tables_for(rules)
    boards = [pysol_board(rules, number) for number in range(1, n + 1)]
    return kernel_tables(tables), [board_arrays(board, tables) for board in boards]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=GAMES, default=None,
                        help="game; repeat for both (default: both)")
    parser.add_argument("--n", type=int, default=1000, help="PySol deals 1..n (default %(default)s)")
    parser.add_argument("--goal", choices=("win", "strokes", "both"), default="both",
                        help="solver goal (default %(default)s)")
    parser.add_argument("--max-states", type=int, default=20_000_000,
                        help="state budget per deal (default %(default)s)")
    parser.add_argument("--pool", choices=("kv", "none", "both"), default="kv",
                        help="the hash set in the sweep's buffer, a table per solve, or both "
                             "interleaved (default %(default)s)")
    args = parser.parse_args(argv)
    if args.n <= 0:
        parser.error("--n must be positive")

    import numpy as np

    from golfstats.kernels.constants import TRUNCATED
    from golfstats.kernels.stockless.solve import solve_stockless, table_pool
    from golfstats.rules import parse_variant
    from golfstats.solver import solver_scratch

    goals = ("win", "strokes") if args.goal == "both" else (args.goal,)
    print("command: " + shlex.join([sys.executable, *sys.argv]))
    print(f"machine: {platform.machine()}, {os.cpu_count()} cpus, python {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.2f}")
    pools = ("kv", "none") if args.pool == "both" else (args.pool,)
    print(f"{'game':<12} {'goal':<7} {'pool':<4} {'deals':>5} {'mean ms':>7} {'median':>6} {'p99':>6} "
          f"{'max ms':>6} {'cpu ms':>6} {'states':>7} {'max st.':>8} {'won':>4} "
          f"{'unres.':>6} {'peak MB':>7}")
    for game in args.game or GAMES:
        rules = parse_variant(game)
        kt, arrays = _inputs(rules, args.n)
        moves = np.empty(64, np.int64)
        kv = solver_scratch(kt.stride)[0]
        given = {"kv": table_pool(kv), "none": np.empty(0, np.int64)}
        for goal in goals:
            stop = goal == "win"
            a = arrays[0]
            for pool in pools:  # warm-up
                solve_stockless(kt, a.exposed, a.heights, a.top, stop, args.max_states, moves,
                                given[pool])
            times = {p: [] for p in pools}
            cpus = {p: [] for p in pools}
            states = {p: [] for p in pools}
            won = dict.fromkeys(pools, 0)
            unresolved = dict.fromkeys(pools, 0)
            for i, a in enumerate(arrays):
                for pool in (pools if i % 2 == 0 else pools[::-1]):
                    wall, cpu = time.perf_counter(), time.process_time()
                    status, w, _, _, n_states = solve_stockless(
                        kt, a.exposed, a.heights, a.top, stop, args.max_states, moves, given[pool])
                    times[pool].append(time.perf_counter() - wall)
                    cpus[pool].append(time.process_time() - cpu)
                    states[pool].append(int(n_states))
                    won[pool] += bool(w)
                    unresolved[pool] += status == TRUNCATED and not w
            for pool in pools:
                ms = sorted(1e3 * t for t in times[pool])
                p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
                print(f"{game:<12} {goal:<7} {pool:<4} {len(ms):>5} {statistics.fmean(ms):>7.2f} "
                      f"{statistics.median(ms):>6.2f} {p99:>6.1f} {ms[-1]:>6.1f} "
                      f"{1e3 * statistics.fmean(cpus[pool]):>6.2f} "
                      f"{statistics.fmean(states[pool]):>7.0f} {max(states[pool]):>8} "
                      f"{won[pool]:>4} {unresolved[pool]:>6} {_peak_mb():>7.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
