"""Benchmark: the exact solver per variant, over a fixed set of deals, one core.

    python benchmarks/bench_solver.py              # 1,000 deals, 3 king rules
    python benchmarks/bench_solver.py --n 50 --variant black-hole --goal win
    python benchmarks/bench_solver.py --compare --variant putt-putt --variant strict

Default deals: PySolFC golf deals 1..n for rule sets PySol can deal (no jokers; under
empty-start the turned card goes back on the stock), seeded deals 0..n-1 of --seed
for the others (``--deals seeded`` forces seeded deals everywhere).  Boards are made
before timing; one untimed solve per variant and goal loads the compiled kernels.

For each variant and goal it prints mean and median milliseconds per deal (wall
time of ``solve()``), mean states examined per deal, the share of deals won, and
the peak memory of the process so far (``ru_maxrss``, MB: a high-water mark over
the whole run, so the figure of a later row includes the earlier ones).  It asserts
nothing about speed: the figures are for the record.

``--compare`` (golf only) times, deal by deal in one sitting, ``solve()`` as dispatched
now ("new": the meet in the middle where ``kernels.solve`` chooses it) against the same
front calling the dense sweep alone ("sweep": the solver before issue 24), and prints
mean, p99 and max milliseconds of each and the deals where won, strokes or stock left
differ (there must be none).
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


def _boards(rules, n: int, source: str, seed: int, first: int = 1):
    from golfstats.deals import pysol_board, seeded_board

    if source == "auto":
        source = "seeded" if rules.jokers else "pysol"
    if source == "pysol":
        numbers = range(first, first + n)
        return f"PySol deals {first}-{first + n - 1}", [pysol_board(rules, i) for i in numbers]
    indices = range(first - 1, first - 1 + n)
    return (f"seeded deals {first - 1}-{first + n - 2} of seed {seed}",
            [seeded_board(rules, seed, i) for i in indices])


#: The clock of the timings: wall time, or (``--clock cpu``) this thread's CPU time, the
#: steadier figure on a loaded machine.
_clock = time.perf_counter


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
    parser.add_argument("--compare", action="store_true",
                        help="golf: time the dispatched solver against the sweep alone, per deal")
    parser.add_argument("--first", type=int, default=1,
                        help="first deal (PySol number, or seeded index + 1; default %(default)s)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="time by wall clock or by this thread's CPU time (default %(default)s)")
    args = parser.parse_args(argv)
    global _clock
    _clock = time.perf_counter if args.clock == "wall" else time.thread_time
    if args.n <= 0 or args.first <= 0:
        parser.error("--n and --first must be positive")
    if args.compare:
        return _compare(args)

    from golfstats.rules import parse_variant
    from golfstats.solver import solve

    goals = ("strokes", "win") if args.goal == "both" else (args.goal,)
    print("command: " + shlex.join([sys.executable, *sys.argv]))
    print(f"machine: {platform.machine()}, {os.cpu_count()} cpus, python {platform.python_version()}")
    print(f"{'variant':<28} {'goal':<8} {'deals':>6} {'mean ms':>9} {'median ms':>10} "
          f"{'states':>10} {'won':>6} {'peak MB':>8}  deals")
    for name in args.variant or KING_RULES:
        rules = parse_variant(name)
        label, boards = _boards(rules, args.n, args.deals, args.seed, args.first)
        for goal in goals:
            solve(boards[0], rules, goal=goal)  # warm-up: load the compiled kernels
            times, states, won = [], 0, 0
            for board in boards:
                started = _clock()
                sol = solve(board, rules, goal=goal)
                times.append(_clock() - started)
                states += sol.states
                won += sol.won
            n = len(boards)
            print(f"{rules.id:<28} {goal:<8} {n:>6} {1e3 * statistics.fmean(times):>9.3f} "
                  f"{1e3 * statistics.median(times):>10.3f} {states / n:>10.0f} "
                  f"{100 * won / n:>5.1f}% {_peak_mb():>8.1f}  {label}", flush=True)
    return 0


def _sweep_solve(board, rules, goal_win: bool):
    """``golfstats.solver.solve`` with the dense sweep forced (the same front: arrays in,
    the line scored out): (won, strokes, stock_left)."""
    import numpy as np

    from golfstats.engine import Line
    from golfstats.kernels.golf.sweep import sweep_any_time, sweep_when_stuck
    from golfstats.kernels.rule_tables import board_arrays, kernel_tables, tables_for
    from golfstats.solver import max_line, solver_scratch

    tables = tables_for(rules, board.foundation is None)
    kt = kernel_tables(tables)
    a = board_arrays(board, tables)
    out = np.empty(max_line(board), np.int64)
    kv, kb = solver_scratch(tables.stride)
    if kt.when_stuck:
        r = sweep_when_stuck(kt, a.exposed, a.heights, a.stock, a.top, len(board.stock), goal_win,
                             kb, out)
    else:
        r = sweep_any_time(kt, a.exposed, a.heights, a.stock, a.top, len(board.stock), goal_win,
                           kv, out)
    line = Line.scored(out[:r[3]], r[0], r[1], r[2], states=int(r[4]), seconds=0.0, resolved=True)
    return line.won, line.strokes, line.stock_left


def _figures(times: list[float]) -> str:
    ms = sorted(1e3 * t for t in times)
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
    return f"{statistics.fmean(ms):>7.2f} {p99:>7.1f} {ms[-1]:>7.1f}"


def _compare(args) -> int:
    from golfstats.rules import parse_variant
    from golfstats.solver import solve

    goals = ("strokes", "win") if args.goal == "both" else (args.goal,)
    print("command: " + shlex.join([sys.executable, *sys.argv]))
    print(f"machine: {platform.machine()}, {os.cpu_count()} cpus, python {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.1f}, clock {args.clock}")
    import golfstats

    print(f"golfstats from {os.path.dirname(golfstats.__file__)}")
    print(f"{'variant':<22} {'goal':<8} {'deals':>6} | {'sweep ms: mean':>14} {'p99':>7} {'max':>7} | "
          f"{'new ms: mean':>12} {'p99':>7} {'max':>7} | {'speed-up':>8} {'disagree':>8}  deals")
    for name in args.variant or ("putt-putt", "strict"):
        rules = parse_variant(name)
        label, boards = _boards(rules, args.n, args.deals, args.seed, args.first)
        for goal in goals:
            win = goal == "win"
            solve(boards[0], rules, goal=goal)  # warm-up: load the compiled kernels
            _sweep_solve(boards[0], rules, win)
            old, new, disagree = [], [], 0
            for i, board in enumerate(boards):
                for which in (i % 2, 1 - i % 2):  # alternate who goes first
                    started = _clock()
                    if which == 0:
                        sol = solve(board, rules, goal=goal)
                        new.append(_clock() - started)
                    else:
                        ref = _sweep_solve(board, rules, win)
                        old.append(_clock() - started)
                mine = (sol.won, sol.strokes, sol.stock_left)
                disagree += (mine[0] != ref[0]) if win else (mine != ref)
            speed = statistics.fmean(old) / statistics.fmean(new)
            print(f"{rules.id:<22} {goal:<8} {len(boards):>6} | {'':>7}{_figures(old)} | "
                  f"{'':>5}{_figures(new)} | {speed:>7.2f}x {disagree:>8}  {label}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
