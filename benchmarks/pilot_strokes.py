"""The pilot of the study's perfect-golfer part (issue 41 item 1): the goal-strokes table
and its play-outs (``study.optimum_deals.strokes_deal``, the same call the study makes)
on the first deals of a rule set, beside the goal-win part of the same deals as the
published ledger holds it.  Prints per deal the seconds, states, the table's bytes, the
peak resident set and whether it fitted; then the mean cost per deal (what
``study.plan.STROKES_COST`` takes) and its ratio to goal win's on the same deals.

    python benchmarks/pilot_strokes.py --variant strict --deals 0-5 --max-memory 20
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from pathlib import Path

LEDGER = Path(__file__).resolve().parent.parent / "results" / "ledger"


def _deals(text: str) -> range:
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def _win_seconds(variant: str, seed: int, orders: int, index: int) -> float | None:
    """The goal-win part's seconds of this deal in the published ledger (None: not held)."""
    path = LEDGER / f"optimal-{variant}-s{seed}-k{orders}" / f"deal-{index:06d}.json"
    return json.loads(path.read_text())["seconds"] if path.exists() else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", required=True, help="a golf rule set with a hidden stock")
    parser.add_argument("--deals", default="0-4", help="deal indices A-B of the study's seed")
    parser.add_argument("--seed", type=int, default=2026, help="the study's seed")
    parser.add_argument("--orders", type=int, default=100, help="stock orders played out a deal")
    parser.add_argument("--max-memory", type=float, default=8.0,
                        help="GB a deal's goal-strokes table may take (the study's is 8)")
    args = parser.parse_args()

    from golfstats.study.optimum_deals import strokes_deal

    print(f"goal strokes on {args.variant}, seed {args.seed}, {args.orders} orders a deal, "
          f"budget {args.max_memory:g} GB, one thread")
    print(f"{'deal':>5} {'seconds':>8} {'states':>13} {'table GB':>9} {'resolved':>9} "
          f"{'win s':>7} {'ratio':>6} {'E strokes':>9}")
    spent, wins, fitted = [], [], 0
    for index in _deals(args.deals):
        started = time.perf_counter()
        row = strokes_deal(args.variant, args.seed, index, args.orders,
                           max_bytes=int(args.max_memory * 1e9))
        seconds = time.perf_counter() - started
        win = _win_seconds(args.variant, args.seed, args.orders, index)
        spent.append(seconds)
        fitted += bool(row["resolved"])
        if win:
            wins.append(win)
        e = f"{row['expected_strokes']:.3f}" if row["resolved"] else "-"
        print(f"{index:>5} {seconds:>8.1f} {row['states']:>13,} {row['peak_bytes'] / 1e9:>9.2f} "
              f"{row['resolved']!s:>9} {win or float('nan'):>7.1f} "
              f"{seconds / win if win else float('nan'):>6.1f} {e:>9}", flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6
    mean = sum(spent) / len(spent)
    ratio = mean / (sum(wins) / len(wins)) if len(wins) == len(spent) else float("nan")
    print(f"mean {mean:.1f} s a deal; {fitted} of {len(spent)} fitted {args.max_memory:g} GB; "
          f"{ratio:.1f} times the ledger's goal-win seconds of the same deals (their means); "
          f"peak resident {peak:.2f} GB")


if __name__ == "__main__":
    main()
