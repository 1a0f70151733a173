"""One deal of the study's perfect play without peeking (``study.optimum``): its stock
orders, its goal-win row (the chance of winning, the clairvoyant share, goal win's
play-outs) and its goal-strokes row (the perfect golfer's play-outs on the same orders),
and their files in the ledger (``optimal-VARIANT-sSEED-kK/deal-NNNNNN.json`` and
``strokes-NNNNNN.json``, docs/study-ledger.md); and the job that values deals on the
fan-out's workers (``DealTask``, ``OptimumJob``: ``sim.backends``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from golfstats.goals import Goal
from golfstats.study.ledger import (
    SITTING,
    LedgerError,
    read_deal_records,
    read_valued,
    write_json,
)
from golfstats.study.records import deal_problem, strokes_problem

#: The version of the goal-strokes files (``strokes-NNNNNN.json``).
STROKES_FORMAT = 1
STROKES_SCHEMA = {"deal_index": pl.Int64, "expected_strokes": pl.Float64, "win_p": pl.Float64,
                  "resolved": pl.Boolean, "states": pl.Int64, "peak_bytes": pl.Int64,
                  "max_bytes": pl.Int64, "seconds": pl.Float64,
                  "order_strokes": pl.List(pl.Int64)}
ROW_SCHEMA = {"deal_index": pl.Int64, "win_p": pl.Float64, "share": pl.Float64,
              "resolved": pl.Boolean, "states": pl.Int64, "peak_bytes": pl.Int64,
              "seconds": pl.Float64, "order_strokes": pl.List(pl.Int64)}


def _folder(ledger: Path, variant: str, seed: int, orders: int) -> Path:
    return ledger / f"optimal-{variant}-s{seed}-k{orders}"


def _deal_path(folder: Path, index: int) -> Path:
    return folder / f"deal-{index:06d}.json"


def _strokes_path(folder: Path, index: int) -> Path:
    return folder / f"strokes-{index:06d}.json"


def read_strokes(folder: Path) -> pl.DataFrame:
    """The goal-strokes play-outs in ``folder`` that can be believed (checked as every
    ledger record is: an altered or inconsistent one is set aside, said, and played out
    again; files of another format are ignored)."""
    def problem(data: dict, index: int, folder: Path) -> str:
        return strokes_problem(data, index, folder) if data.get("format") == STROKES_FORMAT else ""

    rows = [{**{k: data[k] for k in STROKES_SCHEMA}, **_sitting(data)}
            for data in read_deal_records(folder, "strokes", problem)
            if data.get("format") == STROKES_FORMAT]
    schema = {**STROKES_SCHEMA, **SITTING_COLUMNS}
    return pl.DataFrame(rows, schema=schema, orient="row") if rows else pl.DataFrame(schema=schema)


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
    return {"deal_index": index, "win_p": value.value.p, "share": won / orders,
            "resolved": value.resolved, "states": value.stats.states,
            "peak_bytes": value.stats.peak_bytes,
            "seconds": time.perf_counter() - started, "order_strokes": strokes}


def _deal(variant: str, seed: int, index: int):
    from golfstats.deals import board_from_cards, seeded_deals
    from golfstats.rules import parse_variant

    rules = parse_variant(variant)
    return rules, board_from_cards(rules, seeded_deals(rules, seed, index, 1).cards[0])


def strokes_deal(variant: str, seed: int, index: int, orders: int,
                 max_bytes: int = 8_000_000_000) -> dict:
    """One deal's goal-strokes row: the perfect golfer (the fewest expected strokes, honest)
    played out on the same ``orders`` stock orders as the deal's clairvoyant share, from
    one table of the deal; its exact expected strokes and chance of winning (none when
    the table did not fit ``max_bytes``)."""
    from golfstats.goals import Goal
    from golfstats.honest import play_orders

    rules, board = _deal(variant, seed, index)
    started = time.perf_counter()
    play = play_orders(board, rules, stock_orders(board, seed, index, orders), Goal.STROKES,
                       max_bytes=max_bytes)
    value = play.odds
    return {"deal_index": index, "expected_strokes": value.value.e if value.resolved else None,
            "win_p": value.value.p if value.resolved else None, "resolved": value.resolved,
            "states": value.stats.states, "peak_bytes": value.stats.peak_bytes,
            "max_bytes": int(max_bytes), "seconds": time.perf_counter() - started,
            "order_strokes": [int(x) for x in play.strokes] if value.resolved else []}


def honest_playouts(board, rules, stocks: list[tuple], max_bytes: int):
    """The honest optimum's value of ``board`` (goal win, p alone) and its realised strokes
    on each stock order of ``stocks``, played from the one table (``[]`` when the table
    did not fit ``max_bytes``)."""
    from golfstats.cores import value_threads
    from golfstats.goals import Goal
    from golfstats.honest import play_orders

    play = play_orders(board, rules, stocks, Goal.WIN, max_bytes=max_bytes, threads=value_threads())
    return play.odds, [int(s) for s in play.strokes] if play.odds.resolved else []


def write_row(folder: Path, row: dict) -> None:
    """Write a deal just valued; one the ledger's check would set aside is refused here
    (``LedgerError``, one line), else the study would value it again without end."""
    row = {k: v for k, v in row.items() if k not in SITTING_COLUMNS}
    problem = deal_problem(row, row["deal_index"], folder)
    if problem:
        raise LedgerError(f"{folder.name}: deal {row['deal_index']} as just valued {problem} "
                          "(a fault in the valuer; the record is not written)")
    write_json(_deal_path(folder, row["deal_index"]), {**row, "sitting": SITTING})


def write_strokes(folder: Path, row: dict) -> None:
    row = {k: v for k, v in row.items() if k not in SITTING_COLUMNS}
    write_json(_strokes_path(folder, row["deal_index"]),
               {"format": STROKES_FORMAT, "goal": "strokes", **row, "sitting": SITTING})


@dataclass(frozen=True)
class DealTask:
    """One deal to value on a worker: deal ``index`` of ``seed`` under ``variant`` on
    ``orders`` stock orders, for ``goal`` (``WIN``: its row, ``value_deal``; ``STROKES``:
    its goal-strokes play-outs, ``strokes_deal``) within ``max_bytes``, the memory the
    task asks of its worker."""

    variant: str
    seed: int
    index: int
    orders: int
    goal: Goal
    max_bytes: int

    def __str__(self) -> str:
        return f"deal {self.index} of {self.variant} (goal {self.goal}, {self.max_bytes / 1e9:.1f} GB)"


def warm_deal_kernels(variants: tuple[str, ...], seed: int) -> None:
    """Load the kernels a deal of each of ``variants`` is valued with: the exact solver's,
    and the honest kernels' of goal win (every order kept) and goal strokes (a few tenths
    of a second each once compiled; a cold cache compiles them here)."""
    from golfstats.honest import Keep, load_kernels
    from golfstats.solver import solve

    for variant in variants:
        rules, board = _deal(variant, seed, 0)
        solve(board, rules, Goal.WIN)
        load_kernels(board, rules, Goal.WIN, Keep.ALL)
        load_kernels(board, rules, Goal.STROKES, Keep.ORDER)


@dataclass(frozen=True)
class OptimumJob:
    """The study's valued deals as a job of the fan-out (``sim.backends``): a task is a
    ``DealTask``, its result the row its valuer returns, which the study writes to the
    ledger in the main process (so a worker that dies leaves nothing half written, and its
    deal runs again, up to ``retries`` times on the local pool).  ``value`` and ``strokes``
    are the valuers of goal win and goal strokes, ``warm`` loads what they need (picklable,
    module-level functions: the tests pass stand-ins)."""

    variants: tuple[str, ...]
    value: Callable[..., dict] = value_deal
    strokes: Callable[..., dict] = strokes_deal
    warm: Callable[[tuple[str, ...], int], None] = warm_deal_kernels
    seed: int = 0
    retries: int = 2
    inline: bool = True

    def warm_up(self, number: int, peers: int, on_compile) -> float:
        started = time.perf_counter()
        self.warm(self.variants, self.seed)
        return time.perf_counter() - started

    def memory(self, task: DealTask) -> int:
        return task.max_bytes

    def run(self, task: DealTask, on_step=None, wanted=None) -> dict:
        valuer = self.value if task.goal is Goal.WIN else self.strokes
        return valuer(task.variant, task.seed, task.index, task.orders, task.max_bytes)

    def run_remote(self, task: DealTask) -> dict:
        return self.run(task)

    def finish(self, task: DealTask, row: dict) -> dict:
        return row
