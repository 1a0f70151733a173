"""The study's perfect play without peeking: the mean chance of winning of the honest
optimum per plain king rule (``docs/honest-play.md``; results/README.md, "Estimators").

Deals 0, 1, 2, ... of the study's seed (the first deals of every run of the study) are
valued one by one: the chance of winning ``win_p`` exactly (``golfstats.odds``, goal win,
p alone) and the deal's clairvoyant share, the fraction of ``orders`` random orders of its
stock (the same tableau and top; orders drawn from a generator seeded by (seed, deal))
that the exact solver wins.  A random order of a random deal's stock is a random deal, so
the share's population mean is the rule set's clairvoyant win rate, which the study's main
run measures to +/-0.1%: the regression estimator (``stats.regression_mean``) uses it.

Deals are valued in batches until the regression interval's half-width is at most
``target`` with at least ``min_n`` deals, or ``max_n`` are valued (sequential stopping
at the target: the interval's coverage is a fixed n's only approximately, which the
minimum n keeps small).  A deal left unresolved by the memory budget is never dropped: its
win_p lies in [0, share] (no honest player beats the clairvoyant one on every order), so
the interval reported is the union of the intervals with the one and with the other.

Rows are kept in ``OUT/runs/optimal-VARIANT-sSEED-kORDERS/part-NNNNNN.parquet``, one file
a batch, so a killed study continues where it stopped.  Each deal's computation has a
memory budget (``max_bytes``, 8 GB by default: putt-putt deals need 4-8 GB); a later
sitting with a larger budget values the deals kept as unresolved again.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from golfstats.stats import MeanEstimate, plain_mean, regression_mean

ESTIMATOR = "regression on the clairvoyant share"
ROW_SCHEMA = {"deal_index": pl.Int64, "win_p": pl.Float64, "share": pl.Float64,
              "resolved": pl.Boolean, "states": pl.Int64, "peak_bytes": pl.Int64,
              "seconds": pl.Float64}


@dataclass(frozen=True)
class OptimumPlan:
    variant: str
    seed: int
    exact_rate: float  # the clairvoyant win rate of the main run (the share's mean)
    orders: int = 100
    min_n: int = 40
    max_n: int = 300
    target: float = 0.025
    batch: int = 10
    workers: int = 1
    max_bytes: int = 8_000_000_000  # memory budget of one deal's computation


@dataclass(frozen=True)
class OptimumResult:
    variant: str
    rows: pl.DataFrame
    regression: MeanEstimate
    plain: MeanEstimate
    unresolved: int
    target: float

    @property
    def met(self) -> bool:
        return self.regression.half_width <= self.target


def run_dir(out: Path, plan: OptimumPlan) -> Path:
    return out / f"optimal-{plan.variant}-s{plan.seed}-k{plan.orders}"


def value_deal(variant: str, seed: int, index: int, orders: int,
               max_bytes: int = 8_000_000_000) -> dict:
    """One deal's row: its exact chance of winning (p alone) and its clairvoyant share."""
    from golfstats.board import Board
    from golfstats.deals import board_from_cards, seeded_deals
    from golfstats.odds import odds
    from golfstats.rules import parse_variant
    from golfstats.solver import solve

    rules = parse_variant(variant)
    board = board_from_cards(rules, seeded_deals(rules, seed, index, 1).cards[0])
    started = time.perf_counter()
    rng = np.random.default_rng([seed, index, orders])
    won = 0
    for _ in range(orders):
        stock = list(board.stock)
        rng.shuffle(stock)
        won += solve(Board(board.tableau, tuple(stock), board.foundation), rules, "win").won
    share = won / orders
    value = odds(board, rules, "win", win_only=True, max_bytes=max_bytes)  # Fact 1: fast when 0
    return {"deal_index": index, "win_p": value.win_p, "share": share, "resolved": value.resolved,
            "states": value.states, "peak_bytes": value.peak_bytes,
            "seconds": time.perf_counter() - started}


def _write_part(part: pl.DataFrame, folder: Path, start: int) -> None:
    tmp = folder / f".part-{start:06d}.parquet.tmp"
    part.write_parquet(tmp)
    tmp.rename(folder / f"part-{start:06d}.parquet")


def _retry_unresolved(folder: Path, plan: OptimumPlan, say: Callable[[str], None]) -> None:
    """Value again the kept deals left unresolved under a smaller memory budget than the
    plan's (a deal's ``peak_bytes`` is at least what it would have needed)."""
    for path in sorted(folder.glob("part-*.parquet")):
        part = pl.read_parquet(path)
        again = part.filter(~pl.col("resolved") & (pl.col("peak_bytes") < plan.max_bytes))
        if again.is_empty():
            continue
        say(f"  optimal {plan.variant}: valuing {again.height} unresolved deals again "
            f"with {plan.max_bytes / 1e9:.0f} GB")
        fresh = {r["deal_index"]: r for r in (
            value_deal(plan.variant, plan.seed, int(i), plan.orders, plan.max_bytes)
            for i in again["deal_index"])}
        rows = [fresh.get(r["deal_index"], r) for r in part.iter_rows(named=True)]
        _write_part(pl.DataFrame(rows, schema=ROW_SCHEMA), folder, int(path.stem.split("-")[1]))


def _value_task(task) -> dict:
    return value_deal(*task)


def estimate(rows: pl.DataFrame, exact_rate: float) -> tuple[MeanEstimate, MeanEstimate, int]:
    """(regression, plain) estimates of the mean win_p of ``rows``, and the unresolved
    count; an unresolved deal counts as 0 for the interval's low end and as its share for
    its high end (and at the midpoint for the estimate itself)."""
    share = rows["share"].to_numpy()
    resolved = rows["resolved"].to_numpy()
    y = np.where(resolved, np.nan_to_num(rows["win_p"].to_numpy()), 0.0)
    low_y, high_y = y, np.where(resolved, y, share)
    pairs = [(regression_mean(v, share, exact_rate, ESTIMATOR), plain_mean(v)) for v in (low_y, high_y)]
    mid = (low_y + high_y) / 2
    out = []
    for k, est in enumerate((regression_mean(mid, share, exact_rate, ESTIMATOR), plain_mean(mid))):
        out.append(MeanEstimate(est.estimator, est.n, est.mean, pairs[0][k].low, pairs[1][k].high))
    return out[0], out[1], int((~resolved).sum())


def run_optimum(plan: OptimumPlan, out: Path, say: Callable[[str], None] = lambda _m: None
                ) -> OptimumResult:
    """Value deals of ``plan.variant`` until the target is met (see the module doc)."""
    folder = run_dir(out, plan)
    folder.mkdir(parents=True, exist_ok=True)
    pool = None
    try:
        _retry_unresolved(folder, plan, say)
        parts = sorted(folder.glob("part-*.parquet"))
        rows = (pl.read_parquet(parts) if parts else pl.DataFrame(schema=ROW_SCHEMA)).sort("deal_index")
        valued = False  # a batch valued in this call: report the estimate
        while True:
            n = rows.height
            regression, plain, unresolved = estimate(rows, plan.exact_rate) if n >= 3 else (None,) * 3
            if valued:
                line = f"  optimal {plan.variant}: {n} deals valued"
                if regression is not None:
                    line += (f", mean win_p {regression.mean:.4f} [{regression.low:.4f}, "
                             f"{regression.high:.4f}] (plain {plain.mean:.4f} +/- {plain.half_width:.4f})")
                say(line)
            if regression is not None and n >= plan.min_n and (
                    regression.half_width <= plan.target or n >= plan.max_n):
                return OptimumResult(plan.variant, rows, regression, plain, unresolved, plan.target)
            if pool is None and plan.workers > 1:
                import multiprocessing as mp

                pool = mp.get_context("spawn").Pool(plan.workers)
            stop = min(n + plan.batch, plan.max_n)
            tasks = [(plan.variant, plan.seed, i, plan.orders, plan.max_bytes) for i in range(n, stop)]
            batch = list(pool.imap(_value_task, tasks) if pool else map(_value_task, tasks))
            part = pl.DataFrame(batch, schema=ROW_SCHEMA)
            _write_part(part, folder, n)
            rows = pl.concat([rows, part])
            valued = True
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
