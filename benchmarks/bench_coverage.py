"""Coverage of the honest optimum's interval under the study's own sequential rule.

The study (``golfstats.study.optimum.run_optimum``) values deals in batches and stops at
the first look (a whole batch, at least the minimum n) where the interval's half-width
is at most the target, or at the maximum n.  Stopping on a narrow interval favours
samples whose spread happens to be small, so the coverage of the reported interval is
not the fixed-n figure.  This script measures it by a Monte Carlo: per population and
candidate interval, ``--reps`` studies are simulated (each deal drawn with replacement
from the population, the covariate's mean the population's own), and it prints how often
the interval held the population mean, missed it below (the truth above the interval's
high end) and missed it above.

Populations: per plain king rule, the ledger's valued (win_p, share) pairs of
``results/ledger/optimal-VARIANT-s2026-k100/`` taken as the whole population (as a
bootstrap does), and the synthetic population of ``tests/test_coverage.py``.

Candidates (``--kind``): ``t`` (the jackknife t interval the first edition used),
``bootstrap-t`` and ``union`` (each end the farther of the two: ``stats.regression_mean``'s
default), each at the minimum n given (``--min-n``, default the study's).  Rules
(``--rule``): ``sequential`` (the study's) and ``two-stage`` (Stein's: the half-width on
the first min n deals fixes n, one more look).

    python benchmarks/bench_coverage.py                      # the study's settings
    python benchmarks/bench_coverage.py --target 0.010 --max-n 600 --reps 2000
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

from golfstats.stats import BOOTSTRAP_B, bootstrap_t_quantiles, regression_jackknife, t_quantile
from golfstats.study.plan import SAMPLING_VARIANTS, StudyConfig

ROOT = Path(__file__).resolve().parent.parent


def ledger_population(ledger: Path, variant: str, seed: int, orders: int) -> tuple[np.ndarray, np.ndarray]:
    """The resolved (win_p, share) pairs the ledger holds for ``variant``."""
    ys, xs = [], []
    for path in sorted((ledger / f"optimal-{variant}-s{seed}-k{orders}").glob("deal-*.json")):
        row = json.loads(path.read_text())
        if row.get("resolved"):
            ys.append(row["win_p"])
            xs.append(row["share"])
    return np.array(ys), np.array(xs)


def synthetic_population() -> tuple[np.ndarray, np.ndarray]:
    sys.path.insert(0, str(ROOT))
    from tests.test_coverage import population

    return population()


def interval(kind: str, y: np.ndarray, x: np.ndarray, x_mean: float, rng, b: int
             ) -> tuple[np.ndarray, np.ndarray]:
    """The (low, high) of each sample (rows of ``y``, ``x``), clipped to [0, 1]."""
    mean, se = regression_jackknife(y, x, x_mean)
    n = y.shape[-1]
    if kind == "t":
        half = t_quantile(n - 2) * se
        low, high = mean - half, mean + half
    elif kind == "union":  # each end the farther of the two intervals' (stats.regression_mean)
        t_low, t_high = interval("t", y, x, x_mean, rng, b)
        b_low, b_high = interval("bootstrap-t", y, x, x_mean, rng, b)
        low, high = np.minimum(t_low, b_low), np.maximum(t_high, b_high)
    else:
        low, high = np.empty_like(mean), np.empty_like(mean)
        chunk = max(1, 4_000_000 // (b * n))  # samples per pass: about 32 MB an array
        for s in range(0, len(mean), chunk):
            rows = slice(s, s + chunk)
            pick = rng.integers(0, n, (len(mean[rows]), b, n))
            ys = np.take_along_axis(y[rows, None, :], pick, -1)
            xs = np.take_along_axis(x[rows, None, :], pick, -1)
            q_lo, q_hi = bootstrap_t_quantiles(ys, xs, x_mean, mean[rows])
            low[rows], high[rows] = mean[rows] - q_hi * se[rows], mean[rows] - q_lo * se[rows]
    return np.clip(low, 0, 1), np.clip(high, 0, 1)


def planned_n(first_n: int, half_width: float, target: float, batch: int, max_n: int) -> int:
    """The two-stage size (Stein's rule): from the half-width on the first ``first_n``
    deals, n ~ first_n (half_width / target)^2 in whole batches, within [first_n, max_n]."""
    if half_width <= target:
        return first_n
    need = first_n * (half_width / target) ** 2
    return min(max_n, max(first_n, batch * math.ceil(need / batch - 1e-9)))


def sequential(y_pop, x_pop, kind: str, min_n: int, batch: int, max_n: int, target: float,
               reps: int, seed: int, b: int, rule: str = "sequential") -> dict:
    """Simulate ``reps`` studies under the sequential rule; coverage, both tails, the
    mean n and the share stopped at the first look."""
    rng = np.random.default_rng(seed)
    truth, x_mean = float(y_pop.mean()), float(x_pop.mean())
    draw = rng.integers(0, len(y_pop), (reps, max_n))
    y_all, x_all = y_pop[draw], x_pop[draw]
    looks = sorted({n for n in range(batch, max_n + 1, batch) if n >= min_n} | {max_n})
    active = np.ones(reps, bool)
    low, high, stop_n = np.zeros(reps), np.zeros(reps), np.zeros(reps, int)
    if rule == "two-stage":  # the first look fixes n (study.optimum.planned_n), one more look
        lo, hi = interval(kind, y_all[:, :min_n], x_all[:, :min_n], x_mean, rng, b)
        planned = np.array([planned_n(min_n, (h - w) / 2, target, batch, max_n)
                            for w, h in zip(lo, hi, strict=True)])
        looks = sorted(set(planned.tolist()))
        active = planned == min_n
        low[active], high[active], stop_n[active] = lo[active], hi[active], min_n
        active = ~active
    for n in looks:
        if rule == "two-stage":
            active = planned == n
        idx = np.flatnonzero(active)
        if not idx.size:
            continue
        lo, hi = interval(kind, y_all[idx, :n], x_all[idx, :n], x_mean, rng, b)
        done = ((hi - lo) / 2 <= target) | (n >= max_n) | (rule == "two-stage")
        low[idx[done]], high[idx[done]], stop_n[idx[done]] = lo[done], hi[done], n
        active[idx[done]] = False
    above, below = truth > high, truth < low  # truth above the interval: it missed low
    return {"coverage": 1 - (above | below).mean(), "truth_above": above.mean(),
            "truth_below": below.mean(), "mean_n": stop_n.mean(),
            "first_look": (stop_n == min_n).mean()}


def main(argv=None) -> int:
    config = StudyConfig()
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ledger", type=Path, default=ROOT / "results" / "ledger",
                    help="the study's ledger (its optimal-* folders are the populations)")
    ap.add_argument("--reps", type=int, default=10_000, help="simulated studies per population and candidate")
    ap.add_argument("--target", type=float, default=config.optimal_target, help="target half-width")
    ap.add_argument("--min-n", type=int, action="append", default=None,
                    help=f"minimum n (repeatable; default the study's, {config.optimal_min_n})")
    ap.add_argument("--max-n", type=int, default=config.optimal_max_n, help="maximum n")
    ap.add_argument("--batch", type=int, default=10, help="deals per batch (the looks)")
    ap.add_argument("--b", type=int, default=BOOTSTRAP_B, help="bootstrap resamples per interval")
    ap.add_argument("--kind", action="append", choices=("t", "bootstrap-t", "union"), default=None,
                    help="candidate intervals (repeatable; default all three)")
    ap.add_argument("--rule", action="append", choices=("sequential", "two-stage"), default=None,
                    help="stopping rules (repeatable; default the study's, sequential)")
    ap.add_argument("--population", action="append", default=None,
                    help="populations (repeatable; default the three plain king rules and synthetic)")
    ap.add_argument("--seed", type=int, default=1, help="the Monte Carlo's seed")
    args = ap.parse_args(argv)
    min_ns = args.min_n or [config.optimal_min_n]
    kinds = args.kind or ["t", "bootstrap-t", "union"]
    rules = args.rule or ["sequential"]
    names = args.population or [*SAMPLING_VARIANTS, "synthetic"]
    print(f"# python benchmarks/bench_coverage.py {' '.join(argv if argv is not None else sys.argv[1:])}")
    print(f"# target +/-{args.target}, looks every {args.batch} deals, max n {args.max_n}, "
          f"{args.reps} studies each, B = {args.b}")
    print("| population | pairs | mean | candidate | min n | coverage | truth above | truth below | "
          "mean n | stopped at min n | seconds |")
    print("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for name in names:
        if name == "synthetic":
            y, x = synthetic_population()
        else:
            y, x = ledger_population(args.ledger, name, config.seed, config.optimal_orders)
            if not y.size:
                print(f"| {name} | 0 | | (no valued deals in {args.ledger}) | | | | | | | |")
                continue
        for kind, rule, min_n in ((k, r, m) for k in kinds for r in rules for m in min_ns):
            t0 = time.perf_counter()
            r = sequential(y, x, kind, min_n, args.batch, max(args.max_n, min_n), args.target,
                           args.reps, args.seed, args.b, rule)
            print(f"| {name} | {y.size} | {y.mean():.4f} | {kind}, {rule} | {min_n} | "
                  f"{r['coverage']:.2%} | {r['truth_above']:.2%} | {r['truth_below']:.2%} | "
                  f"{r['mean_n']:.0f} | {r['first_look']:.0%} | {time.perf_counter() - t0:.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
