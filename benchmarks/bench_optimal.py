"""Benchmark: the honest expectimax (``golfstats.honest.odds``), one core.

    python benchmarks/bench_optimal.py                      # 3 king rules, both goals
    python benchmarks/bench_optimal.py --n 10 --variant strict --goal win --start-only
    python benchmarks/bench_optimal.py --mid-only --mid-n 50

Two sets of positions per variant:

* start: PySolFC golf deals 1..n, valued from the start of the deal;
* mid: ``--mid-n`` positions with 8 stock cards left, made reproducibly from seeded
  deals 0.. of ``--seed``: each deal is played by a fixed honest rule (play the tallest
  playable column, the leftmost of equals, else draw) until 8 stock cards are left.

For each variant, goal and set it prints mean, median and max seconds per position
(wall time of ``odds()``), mean and max states (``Odds.states``), the largest table
(``Odds.peak_bytes``: state lists, values, and under goal win the W bitsets and the
policy's table) and the process's peak memory
(``ru_maxrss``: a high-water mark over the whole run, so a later row includes the
earlier ones), the share unresolved (state budget hit), and the mean win_p with its
95% interval (normal approximation) over the resolved positions.  ``--verbose`` prints
one line per position.  One untimed call loads the compiled kernels first.  It asserts
nothing about speed: the figures are for the record.

Recorded on 2026-12-01, idle (one core; the machine ran 1.8-2.5 times slower that day
than on 2026-11-30, see benchmarks/README.md)::

    $ python benchmarks/bench_optimal.py --mid-only --goal win
    variant         goal set    n mean s med. s max s mean st.  max st. tMB rss unres win_p [95%]
    strict          win  mid8  200 0.097 0.048 0.65 6,936 69,774 29 189 0.0% 0.0372 [0.0219, 0.0525]
    queens-on-kings win  mid8  200 0.068 0.036 0.60 9,726 145,994 26 189 0.0% 0.0947 [0.0671, 0.1223]
    putt-putt       win  mid8  200 0.071 0.028 0.84 23,371 424,712 33 189 0.0% 0.3946 [0.3440, 0.4453]

    $ python benchmarks/bench_optimal.py --mid-only --goal strokes
    strict          str. mid8  200 0.057 0.025 0.76 147,228 1,845,554 30 191 0.0% 0.0327 [0.0180, 0.0473]
    queens-on-kings str. mid8  200 0.061 0.028 0.58 144,363 1,279,048 20 191 0.0% 0.0860 [0.0592, 0.1129]
    putt-putt       str. mid8  200 0.112 0.038 1.46 249,172 3,021,404 50 224 0.0% 0.3805 [0.3294, 0.4316]

    $ python benchmarks/bench_optimal.py --start-only --variant strict --goal win --n 5 --verbose
      #1   6.96 s   1,253,491 states  p=0         e=12.1651
      #2 110.16 s  60,303,574 states  p=0.271747  e=3.4621
      #3  48.81 s  11,766,103 states  p=0.028165  e=10.2524
      #4 156.51 s  61,202,029 states  p=0.047017  e=5.8814
      #5 120.31 s  92,921,076 states  p=0.462958  e=1.4540
    strict          win  start 5 88.551 110.163 156.51 45,489,255 92,921,076 2747 3590 0.0% 0.1620 [0, 0.3373]

Recorded figures, goal win after the rule change of docs/honest-play.md (W bitsets, the
positive part listed, the policy's values along its own choices; ``kernels/honest.py``).
2 cores shared with other jobs, load average 3-5 (so single-core times are inflated,
perhaps 2-3x); tMB = the kernel's arrays, rss = ru_maxrss, MB::

    variant   goal set     n mean s med. s max s mean states max states tMB rss unres win_p [95%]
    strict          win  mid8  200 0.511 0.254 3.92 6,936 69,774 29 189 0.0% 0.0372 [0.0219, 0.0525]
    qok       win  mid8  200  0.431  0.226  3.66       9,726    145,994  26 189  0.0% 0.0947 [0.0671, 0.1223]
    putt-putt       win  mid8  200 0.426 0.171 5.21 23,371 424,712 33 189 0.0% 0.3946 [0.3440, 0.4453]

    strict    win  start, --verbose, PySol deals 1-3 only (the run was stopped there):
      #1  26.7 s    1,253,491 states  p=0         e=12.1651  (alone: 6.7 s)
      #2 601.1 s   60,303,574 states  p=0.271747  e=3.4621   (alone: 136-157 s, 1.9 GB table)
      #3 142.1 s   11,766,103 states  p=0.028165  e=10.2524  (alone: 49 s)

    (mid8: ``--mid-only --goal win``, 7 minutes for the three rules; the mid8 win_p agree
    with the figures before the rule change, as they must: p is unchanged by it)

Figures before the rule change (the whole reachable space for both goals)::

    variant   goal    set     n  mean s  med. s  max s  mean states   tMB  rss  unres  win_p [95%]
    strict          win  mid8  200 0.105 0.049 1.41 147,228 30 192 0.0% 0.0372 [0.0219, 0.0525]
    strict    strokes mid8  200   0.112   0.050   1.60      147,228    30  195   0.0%  0.0327 [0.0180, 0.0473]
    qok       win     mid8  200   0.082   0.033   1.00      144,363    20  195   0.0%  0.0947 [0.0671, 0.1223]
    qok       strokes mid8  200   0.083   0.036   0.77      144,363    20  195   0.0%  0.0860 [0.0592, 0.1129]
    putt-putt       win  mid8  200 0.197 0.068 2.57 249,172 50 225 0.0% 0.3946 [0.3440, 0.4453]
    putt-putt strokes mid8  200   0.205   0.063   2.55      249,172    50  226   0.0%  0.3805 [0.3294, 0.4316]
    strict          win  start 4 33.002 33.868 36.66 100,209,128 720 916 75.0% 0.0000 [0.0000, 0.0000]
    strict    strokes start   4  51.497  49.499  76.37  100,209,128   720  916  75.0%  0.0000 [0.0000, 0.0000]
    qok       win     start   4  32.013  25.263  53.82  104,715,476   720  939  75.0%  0.0000 [0.0000, 0.0000]
    qok       strokes start   4  25.505  24.647  29.04  104,715,476   720  939  75.0%  0.0000 [0.0000, 0.0000]
    putt-putt       win  start 4 28.542 26.634 37.33 119,949,691 720 939 100.0% -
    putt-putt strokes start   4  32.932  33.196  36.39  119,949,691   720  939 100.0%  -

    (goal strokes is unchanged by the rule change, so are its figures)
"""

from __future__ import annotations

import argparse
import math
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
MID_STOCK = 8


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KB


def _tallest_first(rules, pos):
    """The fixed honest rule of the mid-game set: the tallest playable column, else draw."""
    from golfstats.engine import DRAW, legal_moves

    moves = legal_moves(rules, pos)
    plays = [m for m in moves if m != DRAW]
    if plays:
        return max(plays, key=lambda c: (len(pos.tableau[c]), -c))
    return moves[0] if moves else None


def mid_boards(rules, count: int, seed: int):
    """``count`` positions with ``MID_STOCK`` stock cards left (deals that end earlier are
    skipped), from seeded deals 0.. of ``seed``."""
    from golfstats.board import Board
    from golfstats.deals import seeded_board
    from golfstats.engine import apply

    out, index = [], 0
    while len(out) < count:
        pos = seeded_board(rules, seed, index).position()
        index += 1
        while len(pos.stock) > MID_STOCK:
            move = _tallest_first(rules, pos)
            if move is None:
                break
            pos = apply(rules, pos, move)
        if len(pos.stock) == MID_STOCK and pos.cards_left() > 0:
            out.append(Board(pos.tableau, pos.stock, pos.top_card))
    return out


def _interval(values: list[float]) -> str:
    if not values:
        return "-"
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return f"{mean:.4f} [{max(mean - half, 0):.4f}, {min(mean + half, 1):.4f}]"


def run_set(rules, goal: str, label: str, boards, max_states, verbose: bool) -> None:
    from golfstats.honest import odds

    times, states, table, win_p = [], [], [], []
    unresolved = 0
    for i, board in enumerate(boards):
        started = time.perf_counter()
        o = odds(board, rules, goal, max_states=max_states)
        times.append(time.perf_counter() - started)
        states.append(o.states)
        table.append(o.peak_bytes / 1e6)
        if o.resolved:
            win_p.append(o.win_p)
        else:
            unresolved += 1
        if verbose:
            value = f"p={o.win_p:.6f} e={o.expected_strokes:.4f}" if o.resolved else "unresolved"
            print(f"  {rules.id} {goal} {label} #{i + 1}: {times[-1]:.2f} s, {o.states:,} states, "
                  f"{value}", flush=True)
    n = len(boards)
    print(f"{rules.id:<16} {goal:<8} {label:<6} {n:>5} {statistics.fmean(times):>8.3f} "
          f"{statistics.median(times):>8.3f} {max(times):>8.2f} {statistics.fmean(states):>12,.0f} "
          f"{max(states):>12,} {max(table):>8.0f} {_peak_mb():>8.0f} {100 * unresolved / n:>6.1f}%  "
          f"{_interval(win_p)}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", action="append", default=None,
                        help="rule set id; repeat for several (default: " + ", ".join(KING_RULES) + ")")
    parser.add_argument("--n", type=int, default=100, help="PySol deals 1..n (default %(default)s)")
    parser.add_argument("--mid-n", type=int, default=200,
                        help="positions with 8 stock cards left (default %(default)s)")
    parser.add_argument("--seed", type=int, default=1,
                        help="seed of the mid-game deals (default %(default)s)")
    parser.add_argument("--goal", choices=("win", "strokes", "both"), default="both",
                        help="objective (default %(default)s)")
    parser.add_argument("--max-states", type=int, default=None,
                        help="state budget per position (default: golfstats.honest's)")
    parser.add_argument("--verbose", action="store_true", help="one line per position")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--mid-only", action="store_true", help="only the mid-game positions")
    which.add_argument("--start-only", action="store_true", help="only the deals from the start")
    args = parser.parse_args(argv)
    if args.n <= 0 or args.mid_n <= 0:
        parser.error("--n and --mid-n must be positive")

    from golfstats.deals import pysol_board
    from golfstats.honest import DEFAULT_MAX_STATES, odds
    from golfstats.rules import parse_variant

    goals = ("win", "strokes") if args.goal == "both" else (args.goal,)
    print("command: " + shlex.join([sys.executable, *sys.argv]))
    print(f"machine: {platform.machine()}, {os.cpu_count()} cpus, python {platform.python_version()}; "
          f"state budget {args.max_states or DEFAULT_MAX_STATES:,}")
    print(f"{'variant':<16} {'goal':<8} {'set':<6} {'n':>5} {'mean s':>8} {'median s':>8} {'max s':>8} "
          f"{'mean states':>12} {'max states':>12} {'table MB':>8} {'rss MB':>8} {'unres':>7}  "
          "mean win_p [95% interval]")
    for name in args.variant or KING_RULES:
        rules = parse_variant(name)
        sets = []
        if not args.mid_only:
            sets.append(("start", [pysol_board(rules, i) for i in range(1, args.n + 1)]))
        if not args.start_only:
            sets.append(("mid8", mid_boards(rules, args.mid_n, args.seed)))
        warm = mid_boards(rules, 1, args.seed)[0]
        for goal in goals:
            odds(warm, rules, goal)  # warm-up: load the compiled kernels (a small position)
            for label, boards in sets:
                run_set(rules, goal, label, boards, args.max_states, args.verbose)
    print(f"(start: PySol deals 1-{args.n} from the start; mid8: seeded positions with 8 stock "
          "cards left; table MB: the kernel's arrays; rss MB: process high-water mark)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
