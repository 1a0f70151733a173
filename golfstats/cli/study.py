"""``golfstats study``: regenerate the committed study in results/ (``golfstats.study``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from golfstats.cli.options import (
    DATA_ERROR,
    BackendOpt,
    SchedulerOpt,
    SeedOpt,
    WorkersOpt,
    fail,
    fanout,
    resolve_rules,
    writable_dir,
)
from golfstats.deals import DEFAULT_SEED
from golfstats.sim.plan import Backend


def study(
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder of the committed study.")]
    = Path("results"),
    hours_budget: Annotated[float, typer.Option(
        "--hours-budget", min=0.01,
        help="Wall-time budget of the whole study; sizes shrink (and say so) to fit.")] = 5.0,
    scale: Annotated[float, typer.Option(
        "--scale", min=0.0001, max=1.0, help="Multiply every size (0.01: a quick end-to-end check).")] = 1.0,
    seed: SeedOpt = DEFAULT_SEED,
    workers: WorkersOpt = None,
    backend: BackendOpt = Backend.LOCAL,
    scheduler: SchedulerOpt = None,
    variants: Annotated[str | None, typer.Option(
        "--variants", metavar="RULES,...",
        help="Comma-separated rule sets, any that -v takes (house rules too, e.g. "
             "strict+jokers1 or putt-putt+when-stuck); default: the study's 14. Each gets the full "
             "ladder: random, greedy, lookahead, exact, sampling and optimal with its par.")] = None,
    optimal: Annotated[str | None, typer.Option(
        "--optimal", help="Comma-separated rule sets among --variants whose perfect play without "
                          "peeking is estimated (deals valued until +/-1.0 point on the plain "
                          "king rules, +/-2.5 on the others; its par from goal-strokes "
                          "play-outs), or 'none' (default: every one of --variants).")] = None,
    max_memory: Annotated[float, typer.Option(
        "--max-memory", min=0.01, metavar="GB",
        help="Memory budget of one deal's honest value (perfect play without peeking, "
             "--optimal), in GB, on each worker, as in `golfstats odds` (putt-putt deals need "
             "4-11). A deal over it is valued again alone after its batch, with 3/4 of the "
             "machine's memory; one over that too is kept as unresolved, bounded, and valued "
             "again by a later sitting with a larger budget.")] = 8.0,
    plan_only: Annotated[bool, typer.Option(
        "--plan-only", help="Run the pilot, print the plan and its time estimate, stop.")] = False,
    no_play: Annotated[bool, typer.Option(
        "--no-play", help="Play and value nothing: write the outputs from what the ledger "
                          "holds (an unfinished part's figures rest on the deals it has "
                          "finished, and the README says so).")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bars.")] = False,
    seal_ledger: Annotated[bool, typer.Option(
        "--seal-ledger", help="Give every consistent record of the ledger under --out that "
                              "has no digest (written before digests) its digest, say each "
                              "record that is inconsistent or altered, and stop: nothing is "
                              "played (docs/study-ledger.md).")] = False,
) -> None:
    """The committed study: every king rule with/without 2 jokers and empty-start, plus
    black-hole and all-in-a-row (or the rule sets of --variants, house rules too); random,
    greedy, lookahead, exact (sampling on 2,000 deals); n per variant for a +/-0.10%
    interval on the exact win rate of the three plain king rules and +/-0.30% on the
    others; perfect play without peeking (optimal) estimated on every rule set with a
    hidden stock, with the perfect golfer's par; tables, charts, README.  Killed, the same
    command continues.  The runs and valued deals are played on --workers local processes
    or a Dask cluster (--backend dask --scheduler ADDR); the figures are the same either way."""
    where, scheduler, workers = fanout(backend, scheduler, workers)
    if where == Backend.DASK and (seal_ledger or no_play):
        what = "--seal-ledger" if seal_ledger else "--no-play"
        fail(f"--backend dask plays the study on a cluster; {what} plays nothing")
    if seal_ledger:
        _seal(out)
        return
    from golfstats.runs import VARIANT_ORDER
    from golfstats.study import StudyConfig, StudyError, run_study
    from golfstats.study.plan import hidden_stock

    chosen = VARIANT_ORDER
    if variants:
        chosen = tuple(dict.fromkeys(resolve_rules(v.strip()).id for v in variants.split(",")
                                     if v.strip()))
        if not chosen:
            fail("--variants names no rule set")
    if optimal is None:
        optimal_variants = chosen
    elif optimal.strip() == "none":
        optimal_variants = ()
    else:
        optimal_variants = tuple(resolve_rules(v.strip()).id for v in optimal.split(",") if v.strip())
    if any(v not in chosen for v in optimal_variants):
        fail(f"--optimal takes rule sets among --variants ({', '.join(chosen)}), or 'none'; "
             f"not {optimal}")
    writable_dir(out)
    config = StudyConfig(out=out, seed=seed, hours_budget=hours_budget, scale=scale,
                         workers=workers, backend=where, scheduler=scheduler, variants=chosen,
                         sampling_variants=tuple(v for v in chosen if hidden_stock(v)),
                         progress=not quiet, plan_only=plan_only, play=not no_play,
                         optimal_variants=optimal_variants,
                         optimal_max_bytes=int(max_memory * 1e9))
    try:
        result = run_study(config, note=typer.echo)
    except StudyError as exc:
        fail(str(exc), code=DATA_ERROR)
    if not plan_only:
        typer.echo(f"study done in {result.seconds / 60:.1f} min; see {out / 'README.md'}")


def _seal(out: Path) -> None:
    """``--seal-ledger``: the ledger's records without a digest sealed (the migration)."""
    from golfstats.study.ledger import LEDGER, LedgerError, seal, sitting

    ledger = out / LEDGER
    if not ledger.is_dir():
        fail(f"no ledger to seal: {ledger} is not a folder", DATA_ERROR)
    first: list[str] = []

    def note(line: str) -> None:
        typer.echo(line)
        if not first:
            first.append(line.removeprefix("ledger: "))

    try:
        with sitting(ledger, note):
            done, kept, left = seal(ledger)
    except LedgerError as exc:
        fail(str(exc), DATA_ERROR)
    typer.echo(f"{ledger}: {done:,} records sealed, {kept:,} already sealed, {left:,} left "
               "unsealed (inconsistent or altered: said above)")
    if left:
        fail(f"{left:,} records of {ledger} left unsealed, the first: {first[0]}", DATA_ERROR)
