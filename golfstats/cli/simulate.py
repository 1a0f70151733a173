"""``golfstats simulate``: many seeded deals, every policy on each, into Parquet."""

from __future__ import annotations

import logging
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from golfstats.cli import app
from golfstats.cli.common import (
    DeadQueenOpt,
    DrawOpt,
    EmptyStartOpt,
    GoalChoice,
    GoalOpt,
    JokersOpt,
    VariantOpt,
    fail,
    resolve_rules,
)

_DEFAULT_SEED = 2026  # golfstats.sim.DEFAULT_SEED (not imported: it would load polars)
_DEFAULT_POLICIES = ("greedy", "lookahead", "exact")


class Backend(StrEnum):
    local = "local"
    dask = "dask"


class LogLevel(StrEnum):
    debug = "debug"
    info = "info"
    warning = "warning"
    error = "error"


@app.command(help=(
    "Play N seeded deals with every policy (each policy sees the same deals), over all "
    "cores or a Dask cluster, into Parquet: DIR/deals/part-*.parquet (one row per deal and "
    "policy), DIR/summary.parquet (per policy: win rate with Wilson 95% interval, strokes) "
    "and DIR/run.json (command, versions, seed, timings).  Rows are the same whatever "
    "--workers, --chunk-size or --backend; an interrupted run is finished with --resume."))
def simulate(
    variant: VariantOpt = "putt-putt",
    jokers: JokersOpt = None,
    empty_start: EmptyStartOpt = None,
    draw: DrawOpt = None,
    dead_queen: DeadQueenOpt = None,
    n: Annotated[int, typer.Option(
        "-n", "--n", help="Number of deals (deal indices 0 .. N-1 of --seed).")] = 10_000,
    seed: Annotated[int, typer.Option(
        "--seed", help="Seed of the deals: deal i depends only on (seed, i).")] = _DEFAULT_SEED,
    policy: Annotated[list[str] | None, typer.Option(
        "--policy", "-p", help="A policy to play every deal with; repeat for several "
        "(random, greedy, lookahead, sampling, exact; parameters as lookahead:depth=2).  "
        "Default: greedy, lookahead and exact.")] = None,
    goal: GoalOpt = GoalChoice.strokes,
    workers: Annotated[int | None, typer.Option(
        "--workers", "-w", help="Worker processes (local), or local dask workers when "
        "--backend dask has no --scheduler.  Default: all cores.")] = None,
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", help="Run directory.  Default: results/runs/<variant>-n<N>-s<seed>.")] = None,
    chunk_size: Annotated[int | None, typer.Option(
        "--chunk-size", help="Deals per chunk (a unit of work and one Parquet part).  Default: "
        "from the policies (50,000 for greedy, 250 with exact), or the resumed run's.")] = None,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Finish the run in --out: keep its complete parts, play the rest "
        "(the same variant, n, seed, policies and goal are required).")] = False,
    quiet: Annotated[bool, typer.Option(
        "--quiet", "-q", help="No progress bar and no informational log lines.")] = False,
    log_file: Annotated[Path | None, typer.Option(
        "--log-file", help="Append the run's log (the workers' records included) to this file.")
    ] = None,
    log_level: Annotated[LogLevel, typer.Option(
        "--log-level", case_sensitive=False, help="Least severe log records kept.")] = LogLevel.info,
    backend: Annotated[Backend, typer.Option(
        "--backend", help="local: a process pool on this machine; dask: a dask.distributed "
        "cluster (pip install 'golfstats\\[dask]').")] = Backend.local,
    scheduler: Annotated[str | None, typer.Option(
        "--scheduler", help="Address of the dask scheduler, e.g. tcp://10.0.0.5:8786 "
        "(--backend dask; without it a local dask cluster is started).")] = None,
) -> None:
    import os

    from golfstats.policies import PolicyError
    from golfstats.sim import SimConfig, SimError, policies_from_names, run_simulation

    rules = resolve_rules(variant, jokers, empty_start, draw, dead_queen)
    try:
        policies = policies_from_names(policy or _DEFAULT_POLICIES)
    except PolicyError as exc:
        fail(str(exc))
    config = SimConfig(rules=rules, policies=policies, n=n, seed=seed, goal=goal.value,
                       workers=workers if workers is not None else (os.cpu_count() or 1),
                       chunk_size=chunk_size, out=out, resume=resume, backend=backend.value,
                       scheduler=scheduler)
    try:
        config.validate()
    except SimError as exc:
        fail(str(exc))
    if not quiet:
        typer.echo(f"simulate {rules.id}: n={n:,}, seed {seed}, policies "
                   f"{', '.join(config.policy_specs)} -> {config.run_dir}", err=True)
    handler = _console_log(logging.WARNING if quiet else log_level.value.upper())
    try:
        run_dir = run_simulation(config, progress=not quiet, log_file=log_file,
                                 log_level=log_level.value.upper())
    except SimError as exc:
        fail(str(exc), code=1)
    except KeyboardInterrupt:
        fail(f"interrupted; finished chunks are kept in {config.run_dir}; "
             "rerun with --resume to finish", code=130)
    finally:
        logging.getLogger("golfstats").removeHandler(handler)
    _print_summary(run_dir, config)


def _console_log(level: str | int) -> logging.Handler:
    from rich.console import Console
    from rich.logging import RichHandler

    handler = RichHandler(console=Console(stderr=True), show_path=False, level=level)
    logging.getLogger("golfstats").addHandler(handler)
    return handler


def _print_summary(run_dir: Path, config) -> None:
    import polars as pl
    from rich import box
    from rich.console import Console
    from rich.table import Table

    from golfstats.sim import SUMMARY

    summary = pl.read_parquet(run_dir / SUMMARY)
    order = {spec: i for i, spec in enumerate(config.policy_specs)}
    rows = sorted(summary.iter_rows(named=True), key=lambda r: order.get(r["policy"], len(order)))
    table = Table(box=box.SIMPLE_HEAD, title=f"{config.rules.id}: {config.n:,} deals, seed {config.seed}",
                  caption=f"strokes and points: means; median: of strokes; {run_dir}")
    table.add_column("policy", no_wrap=True)
    for name in ("deals", "wins", "win %", "95% CI", "strokes", "median", "points"):
        table.add_column(name, justify="right", no_wrap=True)
    for r in rows:
        table.add_row(r["policy"], f"{r['n']:,}", f"{r['wins']:,}", f"{100 * r['win_rate']:.2f}",
                      f"{100 * r['ci_low']:.2f}-{100 * r['ci_high']:.2f}",
                      f"{r['mean_strokes']:.2f}", f"{r['median_strokes']:g}",
                      f"{r['mean_points']:.1f}")
    Console().print(table)
