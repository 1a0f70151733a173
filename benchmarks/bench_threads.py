"""Benchmark: perfect play without peeking on several threads (``odds(..., threads=N)``).

    python benchmarks/bench_threads.py                        # PySolFC 1-10, 3 king rules, 1 and 2
    python benchmarks/bench_threads.py --variant putt-putt --first 1 --n 10 --threads 1,2
    python benchmarks/bench_threads.py --variant strict --n 3 --phases   # the passes' seconds

Every deal is valued from the start with goal win (p alone) once per thread count, the
counts one after the other on the same deal (so the machine's drift falls on all of
them alike), all in one process after an untimed call has loaded the kernels.  Per deal
and thread count: the wall seconds of ``odds()``, with ``--phases`` those of its passes
(W, reach, the value pass), the process's peak resident set during the call
(``Odds.peak_rss_bytes``) and the states; then per variant the total and mean wall per
thread count, their ratio to the first count, and whether every p (and every move's p)
is the same bits on every count (they must be: the value pass's threads keep the one
thread's order of sums).  Speed is not asserted: the figures are for
benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

KING_RULES = ("strict", "queens-on-kings", "putt-putt")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", action="append", help="rule set (repeatable; default the "
                                                       "three plain king rules)")
    ap.add_argument("--first", type=int, default=1, help="first PySolFC deal (default 1)")
    ap.add_argument("--n", type=int, default=10, help="deals (default 10)")
    ap.add_argument("--threads", default="1,2", help="thread counts, comma-separated (1,2)")
    ap.add_argument("--max-memory", type=float, default=8.0, help="GB per deal (default 8)")
    ap.add_argument("--phases", action="store_true", help="also the passes' seconds")
    args = ap.parse_args()
    counts = [int(t) for t in args.threads.split(",")]

    from golfstats.deals import pysol_board
    from golfstats.goals import Goal
    from golfstats.honest import load_kernels, odds
    from golfstats.rules import parse_variant

    print(f"# {platform.platform()}, {platform.processor() or platform.machine()}; "
          f"PySolFC {args.first}-{args.first + args.n - 1}, goal win, threads {counts}")
    for name in args.variant or KING_RULES:
        rules = parse_variant(name)
        load_kernels(pysol_board(rules, args.first), rules, Goal.WIN)
        walls: dict[int, list[float]] = {t: [] for t in counts}
        same = True
        for number in range(args.first, args.first + args.n):
            board = pysol_board(rules, number)
            first = None
            for t in counts:
                phases: dict[str, float] = {}
                mark = [time.perf_counter(), None]

                def progress(pass_name, done, total, info, phases=phases, mark=mark):
                    now = time.perf_counter()
                    if mark[1] is not None:
                        phases[mark[1]] = phases.get(mark[1], 0.0) + now - mark[0]
                    mark[0], mark[1] = now, pass_name

                started = time.perf_counter()
                value = odds(board, rules, Goal.WIN, threads=t,
                             process_bytes=int(args.max_memory * 1e9),
                             progress=progress if args.phases else None)
                wall = time.perf_counter() - started
                if mark[1] is not None:
                    phases[mark[1]] = phases.get(mark[1], 0.0) + time.perf_counter() - mark[0]
                walls[t].append(wall)
                key = (value.value.p, tuple((m.move, m.value.p) for m in value.moves))
                if first is None:
                    first = key
                same &= key == first
                extra = ("  " + " ".join(f"{k} {v:.2f}" for k, v in phases.items())
                         if args.phases else "")
                print(f"{name} {number:>4} threads {t}: {wall:7.2f} s  "
                      f"peak {value.peak_rss_bytes / 1e9:5.2f} GB  "
                      f"{value.stats.states:>12,} states  p {value.value.p:.6f}"
                      f"{'' if value.resolved else '  UNRESOLVED'}{extra}", flush=True)
        base = sum(walls[counts[0]])
        for t in counts:
            total = sum(walls[t])
            print(f"{name}: threads {t}: total {total:8.1f} s, mean {statistics.mean(walls[t]):6.2f}"
                  f" s, max {max(walls[t]):6.2f} s, {total / base:.3f}x of threads {counts[0]}")
        print(f"{name}: every p the same bits on every thread count: {same}")


if __name__ == "__main__":
    main()
