"""Policy speed on one core, dealing included (issue 4 targets).

    python benchmarks/bench_policies.py                 # greedy 1,000,000; lookahead 10,000; sampling 100
    python benchmarks/bench_policies.py --greedy 100000 --lookahead 2000 --sampling 20
    python benchmarks/bench_policies.py --variant putt-putt --greedy 200000 --lookahead 20000 \
        --sampling 0 --exact 5000                       # the headline's players, one core

Prints, per variant, wall seconds and ms per deal for each policy, and CPU ms per deal.  Targets:
greedy 1,000,000 deals in 3 s or less; lookahead (depth 1) 1 ms per deal or less;
sampling as fast as the solver allows.  Compilation happens in a warm-up first.
The exact player (``--exact``) is timed the same way, through ``play_deals``.
"""

from __future__ import annotations

import argparse
import sys
import time

from golfstats.deals import seeded_deals
from golfstats.policies import parse_policy, play_deals
from golfstats.rules import parse_variant


def timed(rules, policy: str, n: int, seed: int) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, win rate) to deal and play ``n`` deals, in chunks of
    100,000.  On a busy machine the CPU seconds (one thread) stand for an idle wall time."""
    pol = parse_policy(policy)
    play_deals(rules, pol, seeded_deals(rules, seed, 0, 4))  # warm-up / compile
    started, cpu = time.perf_counter(), time.process_time()
    wins = 0
    for start in range(0, n, 100_000):
        batch = seeded_deals(rules, seed, start, min(100_000, n - start))
        wins += int(play_deals(rules, pol, batch)["won"].sum())
    return time.perf_counter() - started, time.process_time() - cpu, wins / n


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--variant", action="append", help="repeatable; default the three king rules")
    parser.add_argument("--greedy", type=int, default=1_000_000, help="deals for greedy and random")
    parser.add_argument("--lookahead", type=int, default=10_000, help="deals for lookahead")
    parser.add_argument("--sampling", type=int, default=100, help="deals for sampling")
    parser.add_argument("--samples", type=int, default=16, help="sampling:samples=N")
    parser.add_argument("--exact", type=int, default=0, help="deals for exact (default 0: none)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    print("command:", " ".join(["python", *sys.argv]))
    for variant in args.variant or ["strict", "queens-on-kings", "putt-putt"]:
        rules = parse_variant(variant)
        for policy, n in [("random", args.greedy), ("greedy", args.greedy),
                          ("lookahead", args.lookahead),
                          (f"sampling:samples={args.samples}", args.sampling),
                          ("exact", args.exact)]:
            if n <= 0:
                continue
            seconds, cpu, win_rate = timed(rules, policy, n, args.seed)
            print(f"{rules.id:16s} {policy:20s} n={n:>9,d}  {seconds:8.2f} s  "
                  f"{seconds / n * 1000:9.4f} ms/deal  cpu {cpu / n * 1000:9.4f} ms/deal  "
                  f"win rate {win_rate:.4f}", flush=True)


if __name__ == "__main__":
    main()
