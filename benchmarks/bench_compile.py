"""Benchmark: seconds to compile each policy's kernels from a cold cache.

    python benchmarks/bench_compile.py                          # every policy, putt-putt
    python benchmarks/bench_compile.py --policy greedy --policy exact --variant strict

Each policy is played on two seeded deals in a fresh process whose numba cache is an
empty temporary directory, so it compiles exactly what that policy needs (its kernels
and their callees); the same deals are then played again in a second fresh process on
that cache, which only loads.  The difference of their CPU times is the compile time
(one thread: an idle machine's wall time), what the registry's ``compile_seconds``
records (``golfstats.policies.registry``): the estimate a cold run announces
("compiling the kernels (first run only, about N s)").  Prints figures only.
"""

from __future__ import annotations

import argparse
import os
import platform
import shlex
import subprocess
import sys
import tempfile

_PLAY = """
import sys, time
from golfstats.deals import seeded_deals
from golfstats.policies import parse_policy, play_deals
from golfstats.rules import parse_variant
rules = parse_variant(sys.argv[1])
batch = seeded_deals(rules, 1, 0, 2)
started, cpu = time.perf_counter(), time.process_time()
play_deals(rules, parse_policy(sys.argv[2]), batch)
print(time.perf_counter() - started, time.process_time() - cpu)
"""


def _play(variant: str, policy: str, cache: str) -> tuple[float, float]:
    """Wall and CPU seconds of the first call (the CPU time is what an idle machine's wall
    time would be: the compile runs on one thread)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    env.pop("GOLFSTATS_NUMBA_CACHE", None)  # the directory above, not the checkout's
    out = subprocess.run([sys.executable, "-c", _PLAY, variant, policy], env=env,
                         capture_output=True, text=True, check=True)
    wall, cpu = out.stdout.split()[-2:]
    return float(wall), float(cpu)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="putt-putt", help="rule set id (default %(default)s)")
    parser.add_argument("--policy", action="append",
                        help="a policy (repeat; default: every registered one)")
    args = parser.parse_args(argv)

    from golfstats.policies import REGISTRY
    from golfstats.rules import parse_variant

    policies = args.policy or list(REGISTRY)
    print("command: " + shlex.join([sys.executable, *sys.argv]))
    print(f"machine: {platform.machine()}, {os.cpu_count()} cpus, python {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.2f}")
    print("first call on two deals in a fresh process: wall and CPU seconds, on an empty "
          "cache (cold) and on the cache it filled (cached); compile = cold - cached")
    print(f"{'policy':<12} {'cold wall':>9} {'cold cpu':>9} {'cached cpu':>10} {'compile cpu':>11} "
          f"{'registry':>8}")
    for name in policies:
        with tempfile.TemporaryDirectory(prefix="golfstats-numba-") as cache:
            cold, cold_cpu = _play(args.variant, name, cache)
            _, warm_cpu = _play(args.variant, name, cache)
        recorded = REGISTRY[name.partition(":")[0]].compile_estimate(parse_variant(args.variant))
        print(f"{name:<12} {cold:9.1f} {cold_cpu:9.1f} {warm_cpu:10.2f} {cold_cpu - warm_cpu:11.1f} "
              f"{recorded:8.0f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
