"""``golfstats simulate``: many seeded deals, every policy on each, into Parquet."""

from __future__ import annotations

import logging
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from golfstats.cli.options import (
    DATA_ERROR,
    USAGE_ERROR,
    BackendOpt,
    SchedulerOpt,
    WorkersOpt,
    deals_option,
    fail,
    resolve_rules,
    rule_options,
    seed_option,
    writable_file,
)
from golfstats.deals import DEFAULT_SEED
from golfstats.goals import Goal
from golfstats.policies import DEFAULT_POLICIES
from golfstats.rules import Rules
from golfstats.sim import Backend

#: Deals of a run when -n is not given (and the run is not resumed).
DEFAULT_N = 10_000


class LogLevel(StrEnum):
    debug = "debug"
    info = "info"
    warning = "warning"
    error = "error"


@rule_options(optional=True)
def simulate(
    rules: Rules | None,
    n: Annotated[int | None, deals_option(
        f"Number of deals (deal indices 0 .. N-1 of --seed).  Default: {DEFAULT_N:,}, or the "
        "resumed run's.")] = None,
    seed: Annotated[int | None, seed_option(
        f"Seed of the deals: deal i depends only on (seed, i).  Default: {DEFAULT_SEED}, or the "
        "resumed run's.")] = None,
    policy: Annotated[list[str] | None, typer.Option(
        "--policy", "-p", help="A policy to play every deal with; repeat for several "
        "(`golfstats policies` lists them; parameters as lookahead:depth=2).  "
        f"Default: {', '.join(DEFAULT_POLICIES)}, or the resumed run's.")] = None,
    goal: Annotated[Goal | None, typer.Option(
        "--goal", help="The clairvoyant solver's goal (policy exact): strokes, the best stroke "
                       "score (default); win, only winnability (faster); win-strokes, for a "
                       "solver that knows the order the same as strokes.  Refused when no "
                       "policy is exact: the honest optimum's goal is its own parameter, "
                       "e.g. optimal with goal=strokes.")] = None,
    workers: WorkersOpt = None,
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", help="Run directory.  Default: a folder of results/runs named after "
                            "the variant, n and seed (e.g. strict-n1000-s2026).")] = None,
    chunk_size: Annotated[int | None, typer.Option(
        "--chunk-size", min=1, help="Deals per chunk (a unit of work and one Parquet part).  "
        "Default: from the slowest policy (50,000 for greedy, 250 with exact), or the resumed "
        "run's.")] = None,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Finish the run in --out: keep its complete parts, play the rest.  "
        "The variant, n, seed, policies, goal and chunk size are the run's (from its "
        "run.json); any given again must be the run's.")] = False,
    quiet: Annotated[bool, typer.Option(
        "--quiet", "-q", help="No progress bar and no informational log lines.")] = False,
    log_file: Annotated[Path | None, typer.Option(
        "--log-file", help="Append the run's log (the workers' records included) to this file.")
    ] = None,
    log_level: Annotated[LogLevel, typer.Option(
        "--log-level", case_sensitive=False, help="Least severe log records kept.")] = LogLevel.info,
    backend: BackendOpt = Backend.LOCAL,
    scheduler: SchedulerOpt = None,
) -> None:
    """Play N seeded deals with every policy (each policy sees the same deals), over all
    cores or a Dask cluster, into Parquet.

    DIR/deals/part-*.parquet holds one row per deal and policy, DIR/summary.parquet one
    row per policy (win rate with its Wilson 95% interval, strokes), DIR/run.json the
    command, versions, seed, timings and each part's digest (every reader checks the
    parts against it).  Rows are the same whatever --workers, --chunk-size or --backend.
    An interrupted, failed or killed run is finished by the same command, or with `--out
    DIR --resume`, which takes the run's settings from DIR/run.json and plays again any
    part that is missing or not the one run.json records.  One process writes DIR at a
    time.  --goal is the clairvoyant solver's (exact).
    """
    import os

    from golfstats.policies import PolicyError, policies_from_names
    from golfstats.sim import SimConfig, SimError, default_out_dir, run_simulation
    from golfstats.sim.resume import SettingError, Settings, resumed, stored_settings

    try:
        policies = policies_from_names(policy) if policy else None
    except PolicyError as exc:
        fail(str(exc))
    given = Settings(rules=rules, policies=policies, n=n, seed=seed,
                     goal=goal, chunk_size=chunk_size)
    if resume:
        run_dir = out or default_out_dir(rules or resolve_rules(None), n or DEFAULT_N,
                                         DEFAULT_SEED if seed is None else seed)
        try:
            stored = stored_settings(run_dir)
            if stored is not None:
                given = resumed(stored, given, run_dir)
        except SettingError as exc:
            fail(str(exc))
        except SimError as exc:
            fail(str(exc), DATA_ERROR)
    rules = given.rules or resolve_rules(None)
    policies = given.policies or policies_from_names(DEFAULT_POLICIES)
    if goal is not None and not any(p.info.strategy.takes_goal for p in policies):
        fail(f"--goal is the clairvoyant solver's and no policy here is exact "
             f"({', '.join(p.spec for p in policies)}); the honest optimum takes its goal as "
             "optimal:goal=...")
    config = SimConfig(rules=rules, policies=policies, n=given.n or DEFAULT_N,
                       seed=DEFAULT_SEED if given.seed is None else given.seed,
                       goal=given.goal or Goal.STROKES,
                       workers=workers if workers is not None else (os.cpu_count() or 1),
                       chunk_size=given.chunk_size, out=out, resume=resume, backend=backend.value,
                       scheduler=scheduler)
    try:
        config.validate()  # a bad option is a usage error (exit code 2)
    except SimError as exc:
        fail(str(exc), USAGE_ERROR)
    if log_file is not None:
        writable_file(log_file, "--log-file")

    def started() -> None:  # every check passed: say what runs
        if not quiet:
            typer.echo(f"simulate {rules.id}: n={config.n:,}, seed {config.seed}, policies "
                       f"{', '.join(config.policy_specs)} -> {config.run_dir}", err=True)

    handler = _console_log(logging.WARNING if quiet else log_level.value.upper())
    try:
        run_dir = run_simulation(config, progress=not quiet, log_file=log_file,
                                 log_level=log_level.value.upper(), on_start=started)
    except SimError as exc:
        fail(str(exc), code=DATA_ERROR)
    except KeyboardInterrupt:
        fail(f"interrupted; finished chunks are kept in {config.run_dir}; "
             "run the same command again (or with --resume) to finish", code=130)
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
    """The summary table; it stays readable in an 80-column terminal (policy names with
    parameters wrap rather than squeezing the numbers)."""
    import polars as pl
    from rich import box
    from rich.console import Console
    from rich.table import Table

    from golfstats.runs import SUMMARY

    summary = pl.read_parquet(run_dir / SUMMARY)
    order = {spec: i for i, spec in enumerate(config.policy_specs)}
    rows = sorted(summary.iter_rows(named=True), key=lambda r: order.get(r["policy"], len(order)))
    table = Table(box=box.SIMPLE_HEAD, title=f"{config.rules.id}: {config.n:,} deals, seed {config.seed}",
                  caption=f"strokes, points: means; median: of strokes; {run_dir}")
    table.add_column("policy", overflow="fold", min_width=6)
    for name in ("deals", "win %", "95% CI", "strokes", "median", "points"):
        table.add_column(name, justify="right", no_wrap=True)
    truncated = sum(r["truncated"] for r in rows)
    if truncated:
        table.add_column("cut", justify="right", no_wrap=True)
    for r in rows:
        cells = [r["policy"], f"{r['n']:,}", _pct(r["win_rate"]),
                 f"{_pct(r['ci_low'])}-{_pct(r['ci_high'])}", _num(r["mean_strokes"], ".2f"),
                 _num(r["median_strokes"], "g"), _num(r["mean_points"], ".1f")]
        table.add_row(*cells, *([f"{r['truncated']:,}"] if truncated else []))
    Console().print(table)
    if truncated:
        Console().print("cut: deals a search budget cut short, left out of the other figures.")
    for r in rows:
        if r.get("n_win_p"):
            Console().print(f"{r['policy']}: mean win_p {_pct(r['mean_win_p'])}% (95% CI "
                            f"{_pct(r['win_p_ci_low'])}-{_pct(r['win_p_ci_high'])}, mean +/- 1.96 "
                            f"sd/sqrt(n) over {r['n_win_p']:,} deals), mean expected strokes "
                            f"{_num(r['mean_expected_strokes'], '.2f')}", markup=False)


def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.2f}"


def _num(x, fmt: str) -> str:
    return "-" if x is None else format(x, fmt)
