"""Benchmark: seeded deals per second on one core (``golfstats.deals.seeded_deals``).

    python benchmarks/bench_deals.py                 # 2,000,000 strict deals
    python benchmarks/bench_deals.py --n 100000 --variant putt-putt+jokers2

Deals are made in chunks of ``--chunk`` (as a simulation's workers would ask for them)
after one untimed warm-up chunk that loads the compiled shuffle.  Prints the command
line and the figures; asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import os
import platform
import shlex
import sys
import time

# one core: keep numpy's and numba's thread pools to a single thread
for _var in ("NUMBA_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=2_000_000, help="deals to make (default %(default)s)")
    parser.add_argument("--variant", default="strict", help="rule set id (default %(default)s)")
    parser.add_argument("--seed", type=int, default=1, help="seed (default %(default)s)")
    parser.add_argument("--chunk", type=int, default=100_000,
                        help="deals per seeded_deals call (default %(default)s)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="timed runs; the best is reported too (default %(default)s)")
    args = parser.parse_args(argv)
    if args.n <= 0 or args.chunk <= 0 or args.repeat <= 0:
        parser.error("--n, --chunk and --repeat must be positive")

    from golfstats.deals import seeded_deals
    from golfstats.rules import parse_variant

    rules = parse_variant(args.variant)
    seeded_deals(rules, args.seed, 0, min(args.chunk, 4096))  # warm-up: load the kernel
    runs = []
    for _ in range(args.repeat):
        started = time.perf_counter()
        for start in range(0, args.n, args.chunk):
            seeded_deals(rules, args.seed, start, min(args.chunk, args.n - start))
        runs.append(time.perf_counter() - started)

    print("command: " + shlex.join([sys.executable, *sys.argv]))
    print(f"machine: {platform.machine()}, {os.cpu_count()} cpus, "
          f"python {platform.python_version()}")
    print(f"variant {rules.id}: {args.n:,} deals per run, chunks of {args.chunk:,}, {args.repeat} runs")
    for i, seconds in enumerate(runs, 1):
        print(f"  run {i}: {seconds:.3f} s  {args.n / seconds:,.0f} deals/s")
    best = min(runs)
    print(f"best: {args.n / best:,.0f} deals/s ({best * 1e9 / args.n:.0f} ns per deal)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
