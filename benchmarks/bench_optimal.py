"""Benchmark: perfect play without peeking (``golfstats.honest.odds``), one core.

    python benchmarks/bench_optimal.py                       # p alone, PySol 1-100, 3 king rules
    nice -n 5 python benchmarks/bench_optimal.py --start-only --n 10 --sampling -1   # a subset: 1-10
    python benchmarks/bench_optimal.py --variant strict --goal win-strokes # p and e (odds' default)
    python benchmarks/bench_optimal.py --variant strict --goal win-strokes --start-only --n 10 \
        --sampling -1 --clock cpu --verbose      # p and e from the start, CPU s a deal
    python benchmarks/bench_optimal.py --mid-only            # 200 positions, 8 stock cards, p and e
    python benchmarks/bench_optimal.py --mid-only --mid-stock 4  # at the direct search's threshold
    python benchmarks/bench_optimal.py --goal strokes --variant strict --n 20 --max-memory 4
    python benchmarks/bench_optimal.py --summarize run/*.txt  # the rows of --verbose logs (chunks)

Sets of positions per variant:

* start: PySolFC golf deals first..first + n - 1 (``--first``, ``--n``; default 1-100)
  valued from the start of the deal, each in a fresh
  process (so that its peak memory, ``ru_maxrss``, is its own; the time is measured
  inside the process, around ``odds()`` alone, after an untimed call has loaded the
  compiled kernels: the wall's, or with ``--clock cpu`` the process's CPU time);
* mid: ``--mid-n`` positions with 8 stock cards left (``--mid-stock``), reproducible from
  seeded deals 0.. of ``--seed`` (each deal is played by a fixed honest rule, the tallest
  playable column first, else draw, until that many stock cards are left), valued as
  ``odds`` gives them (p and e of the position and of every move; no table kept, so
  positions with at most ``honest.odds.DIRECT_MAX_STOCK`` stock cards take the direct
  search), all in one process; CPU seconds (``time.process_time``) beside the wall's.

Per variant and set: mean, median and max seconds, mean and max states (``Odds.states``),
the peak memory (largest ``ru_maxrss`` of the start deals' processes; for mid the one
process's), the share unresolved and the mean win_p with its 95% interval (normal
approximation) over the resolved positions.  For the start set, beside it: the exact
solver's win rate (the clairvoyant optimum, knowing each deal's order) and sampling's
(``--sampling``, an honest player) on the same deals, with Wilson intervals.  It asserts
nothing about speed: the figures are for the record (benchmarks/README.md).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import os
import platform
import re
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


def mid_boards(rules, count: int, seed: int, stock: int | None = None):
    """``count`` positions with ``stock`` (default ``MID_STOCK``) stock cards left (deals
    that end earlier are skipped), from seeded deals 0.. of ``seed``."""
    from golfstats.board import Board
    from golfstats.deals import seeded_board
    from golfstats.engine import apply

    stock = MID_STOCK if stock is None else stock
    out, index = [], 0
    while len(out) < count:
        pos = seeded_board(rules, seed, index).position()
        index += 1
        while len(pos.stock) > stock:
            move = _tallest_first(rules, pos)
            if move is None:
                break
            pos = apply(rules, pos, move)
        if len(pos.stock) == stock and pos.cards_left() > 0:
            out.append(Board(pos.tableau, pos.stock, pos.top_card))
    return out


def _one_deal(task):
    """In a fresh process: value PySol deal ``number`` from the start (after an untimed warm
    call on a small position).  Returns (seconds, states, resolved, win_p, e, peak MB, MB
    before the deal: the process's own, imports and the warm call)."""
    variant, number, goal, max_memory, max_states, seed, clock = task
    from golfstats.deals import pysol_board
    from golfstats.honest import odds
    from golfstats.rules import parse_variant

    rules = parse_variant(variant)
    odds(mid_boards(rules, 1, seed)[0], rules, goal)
    board = pysol_board(rules, number)
    before = _peak_mb()
    now = time.process_time if clock == "cpu" else time.perf_counter
    started = now()
    o = odds(board, rules, goal, max_states=max_states, max_bytes=max_memory)
    return (now() - started, o.stats.states, o.resolved, o.value.p,
            o.value.e, _peak_mb(), before)


def _interval(values: list[float]) -> str:
    if not values:
        return "-"
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return f"{mean:.4f} [{max(mean - half, 0):.4f}, {min(mean + half, 1):.4f}]"


def _header() -> None:
    print(f"{'variant':<16} {'set':<10} {'n':>4} {'mean s':>8} {'median s':>8} {'max s':>8} "
          f"{'mean states':>13} {'max states':>13} {'peak MB':>8} {'unres':>5}  mean win_p [95% interval]")


def _row(variant: str, what: str, times, states, peak, unresolved, win_p) -> None:
    n = len(times)
    print(f"{variant:<16} {what:<10} {n:>4} {statistics.fmean(times):>8.3f} "
          f"{statistics.median(times):>8.3f} {max(times):>8.2f} {statistics.fmean(states):>13,.0f} "
          f"{max(states):>13,} {peak:>8.0f} {unresolved:>5}  {_interval(win_p)}", flush=True)


def run_start(variant: str, args, goal: str) -> list[float]:
    """The start set, a fresh process per deal; returns the resolved deals' win_p."""
    tasks = [(variant, i, goal, int(args.max_memory * 1e9), args.max_states, args.seed, args.clock)
             for i in range(args.first, args.first + args.n)]
    times, states, win_p = [], [], []
    peak = start_mb = 0.0
    unresolved = 0
    ctx = mp.get_context("spawn")
    with ctx.Pool(1, maxtasksperchild=1) as pool:
        for number, (sec, st, ok, p, e, mb, before) in enumerate(pool.imap(_one_deal, tasks),
                                                                  args.first):
            times.append(sec)
            states.append(st)
            peak = max(peak, mb)
            start_mb = max(start_mb, before)
            if ok:
                win_p.append(p)
            else:
                unresolved += 1
            if args.verbose:
                print(deal_line(variant, number, sec, st, mb, before, p if ok else None, e),
                      flush=True)
    what = {"win": "start", "win-strokes": "start+e", "strokes": "strokes"}[goal]
    _row(variant, what, times, states, peak, unresolved, win_p)
    print(f"{'':<16} start RSS (imports and the warm call, before the deal): {start_mb:.0f} MB",
          flush=True)
    return win_p


def beside(variant: str, first: int, n: int, samples: int | None) -> None:
    """The exact solver's and sampling's win rates on PySol deals first..first + n - 1."""
    from golfstats.deals import pysol_board
    from golfstats.policies import parse_policy, play_board
    from golfstats.rules import parse_variant
    from golfstats.solver import solve
    from golfstats.stats import wilson

    rules = parse_variant(variant)
    boards = [pysol_board(rules, i) for i in range(first, first + n)]
    won = sum(solve(b, rules, "win").won for b in boards)
    lo, hi = wilson(won, n)
    line = f"{'':<16} exact (clairvoyant) on the same deals: {won}/{n} = {won / n:.4f} [{lo:.4f}, {hi:.4f}]"
    if samples:
        policy = parse_policy(f"sampling:samples={samples}")
        sw = sum(play_board(rules, policy, b, key=i).won for i, b in enumerate(boards, 1))
        lo, hi = wilson(sw, n)
        line += f"; sampling:samples={samples}: {sw}/{n} = {sw / n:.4f} [{lo:.4f}, {hi:.4f}]"
    print(line, flush=True)


def deal_line(variant: str, number: int, sec: float, states: int, mb: float, before: float,
              p: float | None, e: float) -> str:
    """A start deal's ``--verbose`` line (p None: unresolved); ``summarize`` reads it back."""
    value = "unresolved" if p is None else f"p={p:.6f} e={e:.4f}"
    return (f"  {variant} #{number}: {sec:.2f} s, {states:,} states, {mb:.0f} MB "
            f"({before:.0f} MB before the deal), {value}")


_DEAL_LINE = re.compile(r"^  (\S+) #(\d+): ([\d.]+) s, ([\d,]+) states, (\d+) MB "
                        r"\((\d+) MB before the deal\), (?:p=([\d.]+)|unresolved)")


def summarize(paths: list[str]) -> None:
    """The start set's rows from ``--verbose`` logs (a long run done in chunks, ``--first A
    --n K`` each): one row per variant over every deal line found (a deal seen twice
    counts once, its last line)."""
    deals: dict[str, dict[int, tuple]] = {}
    for path in paths:
        with open(path, encoding="utf-8") as lines:
            for line in lines:
                m = _DEAL_LINE.match(line)
                if m:
                    variant, number = m.group(1), int(m.group(2))
                    deals.setdefault(variant, {})[number] = m.groups()[2:]
    _header()
    for variant, rows in deals.items():
        found = [rows[k] for k in sorted(rows)]
        times = [float(sec) for sec, *_ in found]
        states = [int(st.replace(",", "")) for _, st, *_ in found]
        win_p = [float(p) for *_, p in found if p is not None]
        _row(variant, "start", times, states, max(float(mb) for _, _, mb, *_ in found),
             len(found) - len(win_p), win_p)
        print(f"{'':<16} deals {min(rows)}-{max(rows)} ({len(rows)} found), start RSS "
              f"{max(float(before) for *_, before, _ in found):.0f} MB", flush=True)


def run_mid(variant: str, args) -> None:
    """The mid-game set in this process: p and e of the position and every move."""
    from golfstats.honest import odds
    from golfstats.rules import parse_variant

    rules = parse_variant(variant)
    boards = mid_boards(rules, args.mid_n, args.seed, args.mid_stock)
    for stock in sorted({args.mid_stock, MID_STOCK, 3}):  # load the kernels of every path
        odds(mid_boards(rules, 1, args.seed + 1, stock)[0], rules, "win-strokes")
    times, cpu, states, win_p = [], [], [], []
    unresolved = 0
    for i, board in enumerate(boards):
        started, cpu0 = time.perf_counter(), time.process_time()
        o = odds(board, rules, "win-strokes", max_states=args.max_states)  # with every move's
        times.append(time.perf_counter() - started)
        cpu.append(time.process_time() - cpu0)
        states.append(o.stats.states)
        if o.resolved:
            win_p.append(o.value.p)
        else:
            unresolved += 1
        if args.verbose:
            print(f"  {variant} mid #{i + 1}: {times[-1] * 1000:.1f} ms, {o.stats.states:,} states",
                  flush=True)
    _row(variant, f"mid{args.mid_stock}+e", times, states, _peak_mb(), unresolved, win_p)
    print(f"{'':<16} mid CPU s: mean {statistics.fmean(cpu):.4f}, median "
          f"{statistics.median(cpu):.4f}, max {max(cpu):.3f}; load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", action="append", default=None,
                        help="rule set id; repeat for several (default: " + ", ".join(KING_RULES) + ")")
    parser.add_argument("--n", type=int, default=100,
                        help="how many PySol deals, from --first (default %(default)s)")
    parser.add_argument("--first", type=int, default=1,
                        help="the first PySol deal (default %(default)s): a bounded subset is "
                             "--first A --n K")
    parser.add_argument("--mid-n", type=int, default=200,
                        help="positions with 8 stock cards left (default %(default)s)")
    parser.add_argument("--mid-stock", type=int, default=MID_STOCK,
                        help="stock cards left in the mid-game positions (default %(default)s)")
    parser.add_argument("--seed", type=int, default=1,
                        help="seed of the mid-game deals (default %(default)s)")
    parser.add_argument("--goal", choices=("win", "win-strokes", "strokes"), default="win",
                        help="golfstats.goals.Goal: win (p alone, the default), win-strokes (p "
                             "and e, as odds gives by default), strokes")
    parser.add_argument("--max-states", type=int, default=None, help="state budget per position")
    parser.add_argument("--max-memory", type=float, default=4.0,
                        help="memory budget per position, GB (default %(default)s)")
    parser.add_argument("--sampling", type=int, default=32, metavar="SAMPLES",
                        help="sampling's samples beside the start set; 0: leave it out, -1: leave "
                             "out the exact solver's rate too (default %(default)s)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="the start set's seconds: the wall's (default) or the process's CPU "
                             "time (time.process_time; fairer on a loaded machine)")
    parser.add_argument("--verbose", action="store_true", help="one line per position")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--mid-only", action="store_true", help="only the mid-game positions")
    which.add_argument("--start-only", action="store_true", help="only the deals from the start")
    which.add_argument("--summarize", nargs="+", metavar="LOG",
                       help="run nothing: the start set's rows from these --verbose logs")
    args = parser.parse_args(argv)
    if args.summarize:
        summarize(args.summarize)
        return 0
    if args.n <= 0 or args.mid_n <= 0 or args.first <= 0 or args.mid_stock <= 0:
        parser.error("--first, --n, --mid-n and --mid-stock must be positive")

    print("command: " + shlex.join([sys.executable, *sys.argv]))
    print(f"machine: {platform.machine()}, {os.cpu_count()} cpus, python {platform.python_version()}; "
          f"budget {args.max_memory:g} GB" + (f", {args.max_states:,} states" if args.max_states else ""))
    _header()
    for variant in args.variant or KING_RULES:
        if not args.mid_only:
            run_start(variant, args, args.goal)
            if args.sampling >= 0:
                beside(variant, args.first, args.n, args.sampling)
        if not args.start_only:
            run_mid(variant, args)
    print("(start: PySol deals --first.. (--n of them) from the start, each in a fresh process; "
          "start: p alone, "
          "start+e: p and e; midK+e: seeded positions with K stock cards, p and e of the "
          "position and of every move; peak MB: ru_maxrss)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
