"""The study's perfect play without peeking: the mean chance of winning of the honest
optimum per plain king rule (``docs/honest-play.md``; results/README.md, "Estimators").

Deals 0, 1, 2, ... of the study's seed (the first deals of every run of the study) are
valued one by one: the chance of winning ``win_p`` exactly (``golfstats.odds``, goal win,
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
``target`` with at least ``min_n`` deals, or ``max_n`` are valued (sequential stopping
at the target: the interval's coverage is a fixed n's only approximately, which the
minimum n keeps small).  A deal left unresolved by the memory budget is never dropped: its
win_p lies in [0, share] (no honest player beats the clairvoyant one on every order), so
the interval reported is the union of the intervals with the one and with the other.
Before that, each batch's unresolved deals are valued again one at a time in this
process with ``alone_bytes``, the budget of a deal that has the machine to itself (the
workers' budget ``max_bytes`` assumes ``workers`` deals at once).

Rows are kept in the study's ledger (``study.ledger``), one file a deal,
``ledger/optimal-VARIANT-sSEED-kORDERS/deal-NNNNNN.json``, so a killed study continues
where it stopped, on any machine; the stopping rule is checked only after whole batches,
so an interrupted study values the same deals as an uninterrupted one.  Each deal's computation has a
memory budget (``max_bytes``, 8 GB by default: putt-putt deals need 4-11 GB); a later
sitting with a larger budget values the deals kept as unresolved again.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from golfstats.stats import MeanEstimate, plain_mean, regression_mean
from golfstats.study.ledger import SITTING, read_valued, write_json

ESTIMATOR = "regression on the clairvoyant share"
ROW_SCHEMA = {"deal_index": pl.Int64, "win_p": pl.Float64, "share": pl.Float64,
              "resolved": pl.Boolean, "states": pl.Int64, "peak_bytes": pl.Int64,
              "seconds": pl.Float64, "order_strokes": pl.List(pl.Int64)}


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
    max_bytes: int = 8_000_000_000  # memory budget of one deal's computation on a worker
    alone_bytes: int = 0  # ... valued again alone, after its batch (0: max_bytes)
    value_more: bool = True  # False: estimate from the deals the ledger holds, value none

    @property
    def retry_bytes(self) -> int:
        return max(self.max_bytes, self.alone_bytes)


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


def alone_bytes(share: float = 0.75) -> int:
    """The memory budget of a deal valued alone: ``share`` of this machine's physical
    memory (0 where the platform does not say: the workers' budget serves)."""
    try:
        return int(share * os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, ValueError, OSError):
        return 0


def run_dir(ledger: Path, plan: OptimumPlan) -> Path:
    return _folder(ledger, plan.variant, plan.seed, plan.orders)


def _folder(ledger: Path, variant: str, seed: int, orders: int) -> Path:
    return ledger / f"optimal-{variant}-s{seed}-k{orders}"


def _deal_path(folder: Path, index: int) -> Path:
    return folder / f"deal-{index:06d}.json"


def read_rows(folder: Path) -> pl.DataFrame:
    """The valued deals in ``folder``, by deal index (a record that cannot be believed is
    set aside and said, ``study.ledger.read_valued``: its deal is valued again)."""
    rows = [{**{k: data[k] for k in ROW_SCHEMA}, **_sitting(data)} for data in read_valued(folder)]
    schema = {**ROW_SCHEMA, **SITTING_COLUMNS}
    return pl.DataFrame(rows, schema=schema, orient="row") if rows else pl.DataFrame(schema=schema)


#: Where a valued deal was computed (``study.ledger.SITTING``), beside its row.
SITTING_COLUMNS = {"sitting": pl.String, "machine": pl.String}


def _sitting(data: dict) -> dict:
    sitting = data.get("sitting") or {}
    return {"sitting": sitting.get("started", ""), "machine": sitting.get("machine", "")}


def valued_count(ledger: Path, variant: str, seed: int, orders: int) -> int:
    """How many deals of ``variant`` the ledger holds valued (for the plan's progress)."""
    return len(list(_folder(ledger, variant, seed, orders).glob("deal-*.json")))


def stock_orders(board, seed: int, index: int, orders: int) -> list[tuple]:
    """The ``orders`` random orders of ``board``'s stock that deal ``index`` is valued on
    (a generator seeded by (seed, deal, orders))."""
    rng = np.random.default_rng([seed, index, orders])
    out = []
    for _ in range(orders):
        stock = list(board.stock)
        rng.shuffle(stock)
        out.append(tuple(stock))
    return out


def value_deal(variant: str, seed: int, index: int, orders: int,
               max_bytes: int = 8_000_000_000) -> dict:
    """One deal's row: its exact chance of winning (p alone), its clairvoyant share and the
    honest optimum's realised strokes on the same orders (none when unresolved)."""
    from golfstats.board import Board
    from golfstats.deals import board_from_cards, seeded_deals
    from golfstats.goals import Goal
    from golfstats.rules import parse_variant
    from golfstats.solver import solve

    rules = parse_variant(variant)
    board = board_from_cards(rules, seeded_deals(rules, seed, index, 1).cards[0])
    started = time.perf_counter()
    stocks = stock_orders(board, seed, index, orders)
    won = sum(solve(Board(board.tableau, stock, board.foundation), rules, Goal.WIN).won for stock in stocks)
    value, strokes = honest_playouts(board, rules, stocks, max_bytes)
    return {"deal_index": index, "win_p": value.win_p, "share": won / orders,
            "resolved": value.resolved, "states": value.stats.states,
            "peak_bytes": value.stats.peak_bytes,
            "seconds": time.perf_counter() - started, "order_strokes": strokes}


def honest_playouts(board, rules, stocks: list[tuple], max_bytes: int):
    """The honest optimum's value of ``board`` (goal win, p alone) and its realised strokes
    on each stock order of ``stocks``, played from the one table (``[]`` when the table
    did not fit ``max_bytes``)."""
    from golfstats.goals import Goal
    from golfstats.optimal_play import play_orders

    play = play_orders(board, rules, stocks, Goal.WIN, max_bytes=max_bytes)
    return play.odds, [int(s) for s in play.strokes] if play.odds.resolved else []


def playout_strokes(rows: pl.DataFrame) -> np.ndarray:
    """Every realised stroke count of the honest optimum in ``rows`` (deals x orders)."""
    kept = rows["order_strokes"].drop_nulls()
    return np.concatenate([np.asarray(s, dtype=np.int64) for s in kept.to_list()] or
                          [np.zeros(0, dtype=np.int64)])


def _write_row(folder: Path, row: dict) -> None:
    row = {k: v for k, v in row.items() if k not in SITTING_COLUMNS}
    write_json(_deal_path(folder, row["deal_index"]), {**row, "sitting": SITTING})


def _retry_unresolved(folder: Path, plan: OptimumPlan, rows: pl.DataFrame, say: Callable[[str], None]
                      ) -> pl.DataFrame:
    """Value again, one at a time, the kept deals left unresolved under a smaller memory
    budget than the plan's for a deal alone (a deal's ``peak_bytes`` is at least what it
    would have needed)."""
    budget = plan.retry_bytes
    again = rows.filter(~pl.col("resolved") & (pl.col("peak_bytes") < budget))
    if again.is_empty():
        return rows
    say(f"  optimal {plan.variant}: valuing {again.height} unresolved deals again, alone, "
        f"with {budget / 1e9:.0f} GB")
    for i in again["deal_index"]:
        _write_row(folder, value_deal(plan.variant, plan.seed, int(i), plan.orders, budget))
    return read_rows(folder)


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


def run_optimum(plan: OptimumPlan, ledger: Path, say: Callable[[str], None] = lambda _m: None
                ) -> OptimumResult | None:
    """Value deals of ``plan.variant`` until the target is met (see the module doc); with
    ``plan.value_more`` False, the estimate from the deals the ledger holds (None when
    fewer than 3)."""
    folder = run_dir(ledger, plan)
    folder.mkdir(parents=True, exist_ok=True)
    pool = None
    try:
        rows = read_rows(folder)
        if plan.value_more:
            rows = _retry_unresolved(folder, plan, rows, say)
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
                say(line)
            if not plan.value_more and regression is None:
                return None  # too few deals valued for an estimate
            if regression is not None and (not plan.value_more or whole and n >= plan.min_n and (
                    regression.half_width <= plan.target or n >= plan.max_n)):
                return OptimumResult(plan.variant, rows, regression, plain, unresolved, plan.target)
            if pool is None and plan.workers > 1:
                import multiprocessing as mp

                pool = mp.get_context("spawn").Pool(plan.workers)
            stop = min((n // plan.batch + 1) * plan.batch, plan.max_n)
            tasks = [(plan.variant, plan.seed, i, plan.orders, plan.max_bytes) for i in range(n, stop)]
            for row in (pool.imap(_value_task, tasks) if pool else map(_value_task, tasks)):
                _write_row(folder, row)
            rows = _retry_unresolved(folder, plan, read_rows(folder), say)
            valued = True
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()


def _prefix(rows: pl.DataFrame) -> int:
    """How many deals 0, 1, 2, ... are valued without a gap."""
    have = set(rows["deal_index"].to_list())
    n = 0
    while n in have:
        n += 1
    return n
