"""The study's perfect play without peeking: the mean chance of winning of the honest
optimum per plain king rule (``docs/honest-play.md``; results/README.md, "Estimators").

Deals 0, 1, 2, ... of the study's seed (the first deals of every run of the study) are
valued one by one: the chance of winning ``win_p`` exactly (``golfstats.honest``, goal win,
p alone) and the deal's clairvoyant share, the fraction of ``orders`` random orders of its
stock (the same tableau and top; orders drawn from a generator seeded by (seed, deal))
that the exact solver wins.  The same table of values then plays the honest optimum out
on the same orders (the player never sees the order, so one table serves them all):
``order_strokes``, its realised strokes on each, from which the study takes the honest
optimum's stroke distribution and par (pooled over deals and orders: a random order of a
random deal's stock is a random deal).  A random order of a random deal's stock is a random deal, so
the share's population mean is the rule set's clairvoyant win rate, which the study's main
run measures to +/-0.1%: the regression estimator (``stats.regression_mean``) uses it.

Deals are valued in batches until the regression interval's half-width is at most
``target`` with at least ``min_n`` deals, or ``max_n`` are valued (sequential stopping at
the target).  Stopping on a narrow interval favours samples whose spread happens to be
small, and the study's deals are skewed, so the interval is ``stats.regression_mean``'s
default (each end the farther of the t and the bootstrap-t interval's) and min_n is
``stats.MIN_N`` (60): together they cover at least 94.5% with at most 3% in each tail
under this rule on populations built from the published deals
(benchmarks/bench_coverage.py; the jackknife t interval alone, from 40 deals, covered 93%
on strict and missed low 5.4% of the time).  A deal left
unresolved by the memory budget is never dropped: its win_p is bracketed by 0 and 1, each
end put where the deal's regression weight makes the estimate lowest or highest
(``estimate``).
Before that, each batch's unresolved deals are valued again with ``alone_bytes``, the
budget of a deal that has a worker to itself (the largest worker's memory: the local
pool's is the machine's, ``sim.backends.local_memory``): it asks for that much memory, so
it runs alone there.

The deals are tasks of the fan-out (``sim.backends``, ``OptimumJob``): on the local pool
or a dask cluster, each asking its worker for the memory of its budget; a worker that
dies loses only the deal it was on, which runs again; each row is written to the ledger
here, atomically, as it comes back, so the ledger never holds half a result, and what is
valued does not depend on the backend or the workers (nor, but for which deals the memory
budgets leave unresolved, on the machines).

The perfect golfer's par is the honest optimum of strokes (goal ``strokes``: the fewest
expected strokes), so each valued deal is also played out under that goal on the same
orders, from one goal-strokes table of the deal (``strokes_deal``): its realised strokes
per order, its exact expected strokes and its own chance of winning.  The chance of
winning stays goal ``win``'s (the largest chance of winning); the strokes, their
distribution and par are goal ``strokes``'.

Rows are kept in the study's ledger (``study.ledger``), one file a deal,
``ledger/optimal-VARIANT-sSEED-kORDERS/deal-NNNNNN.json`` (goal win), and beside it
``strokes-NNNNNN.json`` (goal strokes, ``STROKES_FORMAT``: an additive part, so the
deals valued before it existed stay valid and a later sitting computes only the
strokes files missing), so a killed study continues
where it stopped, on any machine; the stopping rule is checked only after whole batches,
so an interrupted study values the same deals as an uninterrupted one.  Each deal's computation has a
memory budget (``max_bytes``, 8 GB by default: putt-putt deals need 4-11 GB); a later
sitting with a larger budget values the deals kept as unresolved again.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import polars as pl

from golfstats.goals import Goal
from golfstats.stats import MIN_N, MeanEstimate, plain_mean, regression_mean, regression_weights
from golfstats.study.optimum_deals import (  # (re-exported: the study's one deal)
    ROW_SCHEMA,
    SITTING_COLUMNS,
    STROKES_FORMAT,
    STROKES_SCHEMA,
    DealTask,
    OptimumJob,
    _folder,
    honest_playouts,
    read_rows,
    read_strokes,
    stock_orders,
    strokes_deal,
    value_deal,
    warm_deal_kernels,
    write_strokes,
)
from golfstats.study.optimum_deals import (
    write_row as _write_row,
)
from golfstats.study.plan import strokes_deals

ESTIMATOR = "regression on the clairvoyant share"
@dataclass(frozen=True)
class OptimumPlan:
    variant: str
    seed: int
    exact_rate: float  # the clairvoyant win rate of the main run (the share's mean)
    orders: int = 100
    min_n: int = MIN_N
    max_n: int = 300
    target: float = 0.025
    batch: int = 10
    workers: int = 1  # local processes, when ``run_optimum`` is given no serving
    max_bytes: int = 8_000_000_000  # memory budget of one deal's computation on a worker
    alone_bytes: int = 0  # ... valued again alone, after its batch (0: max_bytes)
    value_more: bool = True  # False: estimate from the deals the ledger holds, value none
    #: The perfect golfer's par rests on the first ``strokes_n`` valued deals (0: all);
    #: none is played out past the first ``strokes_pilot`` when none of them fits even
    #: alone; a goal-strokes table's budget on a worker (0: ``max_bytes``).
    strokes_n: int = 0
    strokes_pilot: int = 3
    strokes_bytes: int = 0

    @property
    def retry_bytes(self) -> int:
        return max(self.max_bytes, self.alone_bytes)

    def strokes_deals(self, valued: int) -> int:
        """How many of ``valued`` deals (0..valued-1) the perfect golfer is played out on."""
        return strokes_deals(valued, self.strokes_n)


@dataclass(frozen=True)
class OptimumResult:
    variant: str
    rows: pl.DataFrame
    regression: MeanEstimate
    plain: MeanEstimate
    unresolved: int
    target: float
    #: the goal-strokes play-outs of the valued deals (``STROKES_SCHEMA``; a deal without
    #: one yet is missing): the perfect golfer's strokes and par rest on them
    strokes: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=STROKES_SCHEMA))
    #: the valued deals (the first) the perfect golfer is played out on (None: every one)
    strokes_wanted: int | None = None

    @property
    def met(self) -> bool:
        return self.regression.half_width <= self.target


def alone_bytes() -> int:
    """The memory budget of a deal valued alone on this machine's local pool
    (``sim.backends.local_memory``: 0 where the platform does not say, and the workers'
    budget serves)."""
    from golfstats.sim.backends import local_memory

    return local_memory()


def optimum_job(variants: tuple[str, ...], seed: int) -> OptimumJob:
    """The job that values deals of ``variants`` with this module's valuers (the tests
    replace ``value_deal``, ``strokes_deal`` and ``warm_deal_kernels`` here)."""
    return OptimumJob(tuple(variants), value_deal, strokes_deal, warm_deal_kernels, seed)


def _tasks(plan: OptimumPlan, indices, goal: Goal, budget: int) -> list[DealTask]:
    return [DealTask(plan.variant, plan.seed, int(i), plan.orders, goal, budget) for i in indices]


def run_dir(ledger: Path, plan: OptimumPlan) -> Path:
    return _folder(ledger, plan.variant, plan.seed, plan.orders)


def valued_count(ledger: Path, variant: str, seed: int, orders: int) -> int:
    """How many deals of ``variant`` the ledger holds valued (for the plan's progress)."""
    return len(list(_folder(ledger, variant, seed, orders).glob("deal-*.json")))


def held(ledger: Path, variant: str, seed: int, orders: int) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The valued deals (goal win) and goal-strokes play-outs the ledger holds."""
    folder = _folder(ledger, variant, seed, orders)
    return read_rows(folder), read_strokes(folder)


def playout_strokes(rows: pl.DataFrame) -> np.ndarray:
    """Every realised stroke count in ``rows`` (deals x orders; goal strokes' rows for the
    perfect golfer's par)."""
    kept = rows["order_strokes"].drop_nulls()
    return np.concatenate([np.asarray(s, dtype=np.int64) for s in kept.to_list()] or
                          [np.zeros(0, dtype=np.int64)])


def _retry_unresolved(folder: Path, plan: OptimumPlan, rows: pl.DataFrame, say: Callable[[str], None],
                      serving) -> pl.DataFrame:
    """Value again, each alone on a worker, the kept deals left unresolved under a smaller
    memory budget than the plan's for a deal alone (a deal's ``peak_bytes`` is at least
    what it would have needed)."""
    budget = plan.retry_bytes
    again = rows.filter(~pl.col("resolved") & (pl.col("peak_bytes") < budget))
    if again.is_empty():
        return rows
    say(f"  optimal {plan.variant}: valuing {again.height} unresolved deals again, alone, "
        f"with {budget / 1e9:.0f} GB")
    for _, row in serving.stream(_tasks(plan, again["deal_index"], Goal.WIN, budget)):
        _write_row(folder, row)
    return read_rows(folder)


def _strokes_missing(folder: Path, plan: OptimumPlan, rows: pl.DataFrame, serving,
                     say: Callable[[str], None]) -> pl.DataFrame:
    """Play the perfect golfer out on the first ``plan.strokes_deals`` valued deals of
    ``rows`` that have no goal-strokes file yet: the first ``plan.strokes_pilot`` of them
    (the pilot), then, if one of those fitted, the rest.  Returns every goal-strokes row
    held."""
    wanted = sorted(int(i) for i in rows["deal_index"].to_list())[:plan.strokes_deals(rows.height)]
    pilot = wanted[:plan.strokes_pilot]
    have = _play_strokes(folder, plan, pilot, serving, say)
    tried = have.filter(pl.col("deal_index").is_in(pilot))
    if (len(pilot) < len(wanted) and tried.height == len(pilot) and not tried["resolved"].any()
            and _beyond(tried, plan.retry_bytes).all()):
        say(f"  optimal {plan.variant}: the goal-strokes tables of its first {len(pilot)} deals "
            f"did not fit {plan.retry_bytes / 1e9:.0f} GB; the perfect golfer is not played out "
            f"on its other {len(wanted) - len(pilot)} deals here (a machine with more memory "
            "continues)")
        return have
    return _play_strokes(folder, plan, wanted, serving, say)


def _play_strokes(folder: Path, plan: OptimumPlan, deals: list[int], serving,
                  say: Callable[[str], None]) -> pl.DataFrame:
    """The goal-strokes play-outs of ``deals`` not held yet, on the workers with the
    plan's goal-strokes budget; then, each alone on a worker, those unresolved under a
    smaller budget than a deal alone has whose need may fit it (goal strokes lists every
    reachable state: far more than goal win values).  Returns every goal-strokes row held."""
    budget = plan.retry_bytes
    for alone in (False, True):
        have = read_strokes(folder)
        held = have.filter(have["resolved"] | _beyond(have, budget)) if alone else have
        done = set(held["deal_index"].to_list())
        todo = [i for i in deals if i not in done]
        if not todo:
            continue
        size = budget if alone else min(budget, plan.strokes_bytes or plan.max_bytes)
        say(f"  optimal {plan.variant}: the perfect golfer's par (goal strokes) on {len(todo)} valued "
            f"deals, {'alone ' if alone else ''}with {size / 1e9:.0f} GB, deal {todo[0]} first")
        played = serving.stream(_tasks(plan, todo, Goal.STROKES, size))
        for k, (_, row) in enumerate(played, 1):
            write_strokes(folder, row)
            say(f"  optimal {plan.variant}: goal strokes, deal {row['deal_index']} done ({k} of "
                f"{len(todo)}, {row['seconds']:.0f} s{'' if row['resolved'] else ', unresolved'})")
    return read_strokes(folder)


def _beyond(strokes: pl.DataFrame, budget: int) -> pl.Series:
    """Which goal-strokes rows a budget of ``budget`` would not resolve: tried under it
    already, or needing more (an unresolved row's ``peak_bytes`` is its need, or its
    listing's bytes where that stopped first: then at most the need)."""
    return (strokes["max_bytes"] >= budget) | (strokes["peak_bytes"] > budget)


def estimate(rows: pl.DataFrame, exact_rate: float) -> tuple[MeanEstimate, MeanEstimate, int]:
    """(regression, plain) estimates of the mean win_p of ``rows``, and the unresolved
    count.  An unresolved deal's win_p is known only to lie in [0, 1] (the sampled share
    is no bound: win_p can exceed it), and its weight in the regression estimate can be
    negative (``stats.regression_weights``), so the interval's low end is the low end with
    each unresolved value at 0 where its weight is positive and at 1 where it is negative,
    the high end the other way round; the estimate itself puts them at 1/2 (the middle of
    its range, the estimate being linear in them)."""
    share = rows["share"].to_numpy()
    resolved = rows["resolved"].to_numpy()
    y = np.where(resolved, np.nan_to_num(rows["win_p"].to_numpy()), 0.0)
    unknown = int((~resolved).sum())
    middle = np.where(resolved, y, 0.5)
    regression, plain = regression_mean(middle, share, exact_rate, ESTIMATOR), plain_mean(middle)
    if not unknown:
        return regression, plain, 0
    positive = regression_weights(share, exact_rate) >= 0
    low_y = np.where(resolved, y, np.where(positive, 0.0, 1.0))
    high_y = np.where(resolved, y, np.where(positive, 1.0, 0.0))
    low, high = (regression_mean(v, share, exact_rate, ESTIMATOR) for v in (low_y, high_y))
    plain_low, plain_high = plain_mean(np.where(resolved, y, 0.0)), plain_mean(np.where(resolved, y, 1.0))
    return (replace(regression, low=low.low, high=high.high),
            replace(plain, low=plain_low.low, high=plain_high.high), unknown)


def run_optimum(plan: OptimumPlan, ledger: Path, say: Callable[[str], None] = lambda _m: None,
                serving=None) -> OptimumResult | None:
    """Value deals of ``plan.variant`` until the target is met (see the module doc) as
    tasks of ``serving`` (a ``sim.backends.Serving`` of ``optimum_job``; None: the local
    pool of ``plan.workers`` processes); with ``plan.value_more`` False, the estimate from
    the deals the ledger holds (None when fewer than 3)."""
    with contextlib.ExitStack() as stack:
        if serving is None:
            from golfstats.sim.backends import open_workers

            fleet = stack.enter_context(open_workers("local", plan.workers))
            serving = stack.enter_context(fleet.serve(optimum_job((plan.variant,), plan.seed)))
        return _run_optimum(plan, ledger, say, serving)


def _run_optimum(plan: OptimumPlan, ledger: Path, say: Callable[[str], None], serving
                 ) -> OptimumResult | None:
    folder = run_dir(ledger, plan)
    folder.mkdir(parents=True, exist_ok=True)
    rows = read_rows(folder)
    if plan.value_more:
        rows = _retry_unresolved(folder, plan, rows, say, serving)
    valued = False  # a batch valued in this call: report the estimate
    while True:
        n = _prefix(rows)
        rows = rows.filter(pl.col("deal_index") < n)
        whole = n % plan.batch == 0 or n >= plan.max_n  # the rule is checked after whole batches
        regression, plain, unresolved = estimate(rows, plan.exact_rate) if n >= 3 else (None,) * 3
        if valued and whole:
            line = f"  optimal {plan.variant}: {n} deals valued"
            if regression is not None:
                line += (f", mean win_p {regression.mean:.4f} [{regression.low:.4f}, "
                         f"{regression.high:.4f}] (plain {plain.mean:.4f} +/- {plain.half_width:.4f})")
                if not regression.calibrated:
                    line += f"; fewer than {MIN_N} deals: the interval is not calibrated"
            say(line)
        if not plan.value_more and regression is None:
            return None  # too few deals valued for an estimate
        if regression is not None and (not plan.value_more or whole and n >= plan.min_n and (
                regression.half_width <= plan.target or n >= plan.max_n)):
            if plan.value_more:
                strokes = _strokes_missing(folder, plan, rows, serving, say)
            else:
                strokes = read_strokes(folder)
            wanted = plan.strokes_deals(n)
            strokes = strokes.filter(pl.col("deal_index") < wanted)
            return OptimumResult(plan.variant, rows, regression, plain, unresolved, plan.target,
                                 strokes, wanted)
        stop = min((n // plan.batch + 1) * plan.batch, plan.max_n)
        say(f"  optimal {plan.variant}: valuing deals {n}..{stop - 1} (goal win and the "
            f"clairvoyant share)")
        for _, row in serving.stream(_tasks(plan, range(n, stop), Goal.WIN, plan.max_bytes)):
            _write_row(folder, row)
            say(f"  optimal {plan.variant}: deal {row['deal_index']} valued, win_p "
                f"{row['win_p']:.3f}, share {row['share']:.2f}, {row['seconds']:.0f} s"
                f"{'' if row['resolved'] else ' (unresolved)'}")
        rows = _retry_unresolved(folder, plan, read_rows(folder), say, serving)
        valued = True


def _prefix(rows: pl.DataFrame) -> int:
    """How many deals 0, 1, 2, ... are valued without a gap."""
    have = set(rows["deal_index"].to_list())
    n = 0
    while n in have:
        n += 1
    return n


__all__ = ["ESTIMATOR", "ROW_SCHEMA", "SITTING_COLUMNS", "STROKES_FORMAT", "STROKES_SCHEMA",
           "DealTask", "OptimumJob", "OptimumPlan", "OptimumResult", "alone_bytes", "estimate", "held",
           "honest_playouts", "optimum_job", "playout_strokes", "read_rows", "read_strokes", "run_dir",
           "run_optimum", "stock_orders", "strokes_deal", "value_deal", "warm_deal_kernels"]
