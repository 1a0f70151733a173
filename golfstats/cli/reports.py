"""Commands ``report``, ``par`` and ``compare``: thin wrappers over
``golfstats.report`` (which reads run directories through ``golfstats.runs``).  Heavy
imports (polars, matplotlib, numba) happen inside."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from golfstats.atomic import write_csv
from golfstats.cli.options import (
    DATA_ERROR,
    USAGE_ERROR,
    SeedOpt,
    deals_option,
    fail,
    resolve_rules,
    writable_dir,
    write_text,
)
from golfstats.deals import DEFAULT_SEED
from golfstats.policies import PAR_REFERENCE
from golfstats.rules import DEFAULT_VARIANT

RunDirsArg = Annotated[list[Path], typer.Argument(
    help="Run directories of `golfstats simulate` (or a directory holding a summary.parquet, "
         "such as results/).", show_default=False)]
ReferenceOpt = Annotated[str | None, typer.Option(
    "--policy", "-p", help=f"Reference player whose strokes set par (default {PAR_REFERENCE}, "
                           "the steady player of every par: par, course, report and the study; "
                           "optimal: the perfect golfer, optimal with goal=strokes).",
    show_default=False)]


def _run_failed(exc: Exception):
    """A ``RunError`` in one line: exit 1 for runs that cannot be used, 2 for a question
    they cannot answer as asked (``RunQueryError``: an unknown policy or variant)."""
    from golfstats.runs import RunQueryError

    fail(str(exc), USAGE_ERROR if isinstance(exc, RunQueryError) else DATA_ERROR)


def _runs(paths: list[Path]):
    from golfstats.runs import RunError, load_runs

    try:
        return load_runs(paths)
    except RunError as exc:
        _run_failed(exc)


def report(
    run_dirs: RunDirsArg,
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", help="Output directory (default: report/ inside the first run directory).")] = None,
    title: Annotated[str, typer.Option("--title", help="Title of the HTML page.")] = "golfstats report",
) -> None:
    """Tables (Markdown, CSV), charts (PNG, SVG) and one self-contained HTML page of runs.

    The page opens with the answers (win rate and par of 9- and 18-hole rounds per rule
    set and player, the par to print marked, as `golfstats par` gives it), then the
    tables, the charts, and the run directories it read; the terminal shows the answers.
    """
    from golfstats.cli.output import print_blocks
    from golfstats.cli.progress import Activity
    from golfstats.report import build_report
    from golfstats.report.tables import answers
    from golfstats.runs import RunError, merge_summaries, unfinished_note

    runs = _runs(run_dirs)
    out = writable_dir(out or run_dirs[0] / "report")
    try:
        with Activity("writing the report (tables, charts, page)"):  # where: said at its end
            files = build_report(runs, out, title)
    except RunError as exc:
        _run_failed(exc)
    except OSError as exc:
        fail(f"cannot write --out {out}: {exc.strerror or exc}", DATA_ERROR)
    if unfinished_note(runs):
        typer.echo(unfinished_note(runs))
    print_blocks(answers(merge_summaries(runs), by_rule_set=True))
    typer.echo(f"tables: {out / 'tables'} ({len(files.tables)} files)")
    typer.echo(f"charts: {out / 'charts'} ({', '.join(sorted(files.charts))}; PNG and SVG)")
    typer.echo(f"page:   {files.html}")


def par(
    run_dirs: Annotated[list[Path] | None, typer.Argument(
        help="Run directories (or results/); without one, a run is made (or reused) with "
             "--variant, -n and --seed.", show_default=False)] = None,
    policy: ReferenceOpt = None,
    variant: Annotated[str | None, typer.Option(
        "--variant", "-v", help="Only this variant of the runs; without a run directory, the "
                                f"variant to simulate (default {DEFAULT_VARIANT}).",
        show_default=False)] = None,
    n: Annotated[int, deals_option("Deals to simulate when no run directory is given.")] = 20000,
    seed: SeedOpt = DEFAULT_SEED,
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", help="Also write par.md (Markdown), par.csv and round_totals.png/.svg "
                            "into this folder.")] = None,
) -> None:
    """The par to print for 9- and 18-hole rounds: one table of every player of the run.

    Par of a round of deals nobody chose is the median round total of the player, from
    the exact convolution of its per-hole stroke distribution (docs/rules.md, "Par"); each
    par has its 95% interval from a bootstrap over whole deals, the chance that it is a
    stroke off and the deals a par stable to one stroke would need.  The reference player
    (lookahead unless --policy names another; `optimal` is the perfect golfer,
    optimal:goal=strokes) is marked, and one line says which par to print.  Without a run
    directory, a simulation of --variant is made, or reused if results/runs holds it.
    """
    from golfstats.report.par import par_table
    from golfstats.report.par_text import par_blocks, par_for_runs, references, results_of
    from golfstats.runs import RunError

    if out is not None:
        writable_dir(out)  # before a simulation or any reading
    for path in run_dirs or []:
        if path.exists() and not path.is_dir():
            fail(f"{path} is a file, not a run directory (a folder written by `golfstats simulate`, "
                 "or one holding a summary.parquet)", DATA_ERROR)
    if not run_dirs:
        run_dirs = [_simulate_for_par(variant, policy or PAR_REFERENCE, n, seed)]
    try:
        sets = par_for_runs(_runs(run_dirs), policy, resolve_rules(variant).id if variant else None)
    except RunError as exc:
        _run_failed(exc)
    blocks = par_blocks(sets)
    from golfstats.cli.output import print_blocks

    print_blocks(blocks)
    if out:
        from golfstats.report.charts import round_chart, save
        from golfstats.report.doc import markdown

        write_text(out / "par.md", markdown(blocks))
        try:
            write_csv(out / "par.csv", par_table(results_of(sets)), float_precision=6)
            save(round_chart(references(sets)), out, "round_totals")
        except OSError as exc:
            fail(f"cannot write --out {out}: {exc.strerror or exc}", DATA_ERROR)
        typer.echo(f"wrote {out / 'par.md'}, {out / 'par.csv'}, {out / 'round_totals.png'} (.svg)")


def _simulate_for_par(variant: str | None, policy: str, n: int, seed: int) -> Path:
    """The run results/runs/par-<variant>-<policy>-n<n>-s<seed> of the reference policy,
    made or reused by ``sim.run_or_reuse``."""
    from golfstats.course_par import par_player
    from golfstats.policies import PolicyError
    from golfstats.sim import SimConfig, SimError, run_or_reuse

    rules = resolve_rules(variant)
    try:
        ref = par_player(policy)
    except PolicyError as exc:
        fail(str(exc))
    out = Path("results") / "runs" / f"par-{rules.id}-{ref.spec.replace(':', '_')}-n{n}-s{seed}"
    try:
        return run_or_reuse(SimConfig(rules=rules, policies=(ref,), n=n, seed=seed, out=out))
    except SimError as exc:
        fail(f"simulation for par failed: {exc}", code=DATA_ERROR)


def compare(
    run_dirs: RunDirsArg,
    policies: Annotated[list[str], typer.Option(
        "--policy", "-p", help="Two policies of the run, A then B (--policy lookahead --policy "
                               "greedy), as simulate takes its policies; or, with two run "
                               "directories RUN_A RUN_B, one policy, compared with itself "
                               "under the two runs' rule sets.")],
    variant: Annotated[str | None, typer.Option(
        "--variant", "-v", help="Only this variant (two policies of one run).")] = None,
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", help="Also write compare.md and compare.csv here.")] = None,
) -> None:
    """Paired comparison on the same deals: win-rate difference with a 95% interval,
    McNemar's test, mean stroke difference with its interval.

    `compare RUN --policy A --policy B`: two policies of a run (and 9- and 18-hole match
    play).  `compare RUN_A RUN_B --policy P`: one policy under two rule sets, from two runs
    of the same seed (so the same deals), paired by deal index.
    """
    from golfstats.cli.output import print_blocks
    from golfstats.report.doc import markdown
    from golfstats.runs import RunError, merge_deals, resolve_policy

    names = [p.strip() for p in policies]
    if len(names) == 1 and len(run_dirs) == 2:
        if variant is not None:
            fail("--variant picks a variant of one run; RUN_A RUN_B are one rule set each")
        return _compare_rule_sets(run_dirs, names[0], out)
    if len(names) != 2:
        fail(f"compare takes two policies of one run (--policy A --policy B), or two runs and "
             f"one policy (RUN_A RUN_B --policy P); not {len(names)} policies and "
             f"{len(run_dirs)} run{'s' if len(run_dirs) != 1 else ''}")
    from golfstats.report.compare import compare_policies, comparison_blocks, comparison_table

    if out is not None:
        writable_dir(out)
    runs = _runs(run_dirs)
    try:
        deals = merge_deals(runs)
        if variant:
            rules_id = resolve_rules(variant).id
            deals = deals.filter(deals["variant"] == rules_id)
            if deals.is_empty():
                fail(f"variant {rules_id} is not in the runs")
        a, b = (resolve_policy(p, deals["policy"].unique()) for p in names)
    except RunError as exc:
        _run_failed(exc)
    if a == b:
        fail("compare two different policies")
    results = compare_policies(deals, a, b)
    if not results:
        fail(f"{a} and {b} played no deal in common")
    blocks = [b for r in results for b in comparison_blocks(r)]
    print_blocks(blocks)
    if out:
        write_text(out / "compare.md", markdown(blocks))
        try:
            write_csv(out / "compare.csv", comparison_table(results), float_precision=6)
        except OSError as exc:
            fail(f"cannot write --out {out}: {exc.strerror or exc}", DATA_ERROR)
        typer.echo(f"wrote {out / 'compare.md'} and {out / 'compare.csv'}")


def _compare_rule_sets(run_dirs: list[Path], policy: str, out: Path | None) -> None:
    """``compare RUN_A RUN_B --policy P``: the policy under the two runs' rule sets."""
    from golfstats.cli.output import print_blocks
    from golfstats.report.doc import markdown
    from golfstats.report.rulesets import (
        PairingError,
        compare_rule_sets,
        rule_set_blocks,
        rule_set_table,
    )
    from golfstats.runs import RunError, resolve_policy

    if out is not None:
        writable_dir(out)
    run_a, run_b = _runs(run_dirs)
    try:
        deals_a, deals_b = run_a.deals(), run_b.deals()
        spec = resolve_policy(policy, set(deals_a["policy"].unique()) & set(deals_b["policy"].unique()))
        result = compare_rule_sets(deals_a, deals_b, spec, str(run_dirs[0]), str(run_dirs[1]))
    except RunError as exc:
        _run_failed(exc)
    except PairingError as exc:
        fail(str(exc))
    blocks = rule_set_blocks(result)
    print_blocks(blocks)
    if out:
        write_text(out / "compare.md", markdown(blocks))
        try:
            write_csv(out / "compare.csv", rule_set_table(result), float_precision=6)
        except OSError as exc:
            fail(f"cannot write --out {out}: {exc.strerror or exc}", DATA_ERROR)
        typer.echo(f"wrote {out / 'compare.md'} and {out / 'compare.csv'}")
