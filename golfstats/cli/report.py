"""Commands ``report``, ``par``, ``course``, ``compare`` and ``study``: thin wrappers over
``golfstats.report``.  Heavy imports (polars, matplotlib, numba) happen inside."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from golfstats.cli import app
from golfstats.cli.common import VariantOpt, fail, resolve_rules

RunDirsArg = Annotated[list[Path], typer.Argument(
    help="Run directories of `golfstats simulate` (or a directory holding a summary.parquet, "
         "such as results/).", show_default=False)]
HoleParMinOpt = Annotated[int, typer.Option("--hole-par-min", help="Lowest par a hole may have.")]
HoleParMaxOpt = Annotated[int, typer.Option("--hole-par-max", help="Highest par a hole may have.")]


def _runs(paths: list[Path]):
    from golfstats.report import ReportError, load_runs

    try:
        return load_runs(paths)
    except ReportError as exc:
        fail(str(exc))


@app.command()
def report(
    run_dirs: RunDirsArg,
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", help="Output directory (default: report/ inside the first run directory).")] = None,
    title: Annotated[str, typer.Option("--title", help="Title of the HTML page.")] = "golfstats report",
) -> None:
    """Tables (Markdown, CSV), charts (PNG, SVG) and one self-contained HTML page of runs."""
    from golfstats.report import ReportError, build_report
    from golfstats.report.runs import merge_summaries
    from golfstats.report.tables import WIN_FORMATS, WIN_HEADERS, markdown, win_rates

    runs = _runs(run_dirs)
    out = out or run_dirs[0] / "report"
    try:
        files = build_report(runs, out, title)
    except (ReportError, OSError) as exc:
        fail(str(exc))
    typer.echo(markdown(win_rates(merge_summaries(runs)).drop("mean_points"), WIN_FORMATS, WIN_HEADERS))
    typer.echo(f"tables: {out / 'tables'} ({len(files.tables)} files)")
    typer.echo(f"charts: {out / 'charts'} ({', '.join(sorted(files.charts))}; PNG and SVG)")
    typer.echo(f"page:   {files.html}")


@app.command()
def par(
    run_dirs: Annotated[list[Path] | None, typer.Argument(
        help="Run directories (or results/); without one, a run is made with --variant, -n, --seed.",
        show_default=False)] = None,
    policy: Annotated[str | None, typer.Option(
        "--policy", "-p", help="Reference player (default: the best honest policy in the run, by "
                               "mean strokes).")] = None,
    variant: Annotated[str | None, typer.Option(
        "--variant", "-v", help="Only this variant of the runs; or the variant to simulate.")] = None,
    n: Annotated[int, typer.Option("-n", min=1, help="Deals to simulate when no run is given.")] = 20000,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Seed of that simulation.")] = 1,
    hole_par_min: HoleParMinOpt = 3,
    hole_par_max: HoleParMaxOpt = 5,
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", help="Also write par.md, par.csv and round_totals.png/.svg here.")] = None,
) -> None:
    """Par for 9- and 18-hole rounds: round totals by exact convolution of the reference
    player's per-hole stroke distribution; par = the median round total."""
    from dataclasses import replace

    from golfstats.report import ReportError
    from golfstats.report.par import format_par, par_from_hist, par_table, versus_hole_par
    from golfstats.report.runs import best_honest, merge_deals, merge_summaries, resolve_policy

    if hole_par_min > hole_par_max:
        fail(f"--hole-par-min {hole_par_min} is above --hole-par-max {hole_par_max}")
    if not run_dirs:
        if not variant:
            fail("give a run directory, or --variant (and -n, --seed) to simulate one")
        run_dirs = [_simulate_for_par(variant, policy or "lookahead", n, seed)]
    runs = _runs(run_dirs)
    summary = merge_summaries(runs)
    if variant:
        rules_id = resolve_rules(variant).id
        summary = summary.filter(summary["variant"] == rules_id)
        if summary.is_empty():
            fail(f"variant {rules_id} is not in the run")
    results = []
    try:
        deals = merge_deals(runs) if any(r.has_deals for r in runs) else None
        for v in summary["variant"].unique(maintain_order=True):
            rows = summary.filter(summary["variant"] == v)
            ref = resolve_policy(policy, rows["policy"]) if policy else best_honest(summary, v)
            if ref is None:
                fail(f"no honest policy in the run for {v}; choose one with --policy")
            hist = rows.filter(rows["policy"] == ref)["stroke_hist"][0].to_list()
            result = par_from_hist(v, ref, hist, hole_par_min, hole_par_max)
            if deals is not None:
                vs = versus_hole_par(deals, v, ref, hole_par_min, hole_par_max)
                result = replace(result, versus_hole_par=vs)
            results.append(result)
    except ReportError as exc:
        fail(str(exc))
    text = "\n".join(format_par(r) for r in results)
    typer.echo(text)
    if out:
        from golfstats.report.charts import round_chart, save

        out.mkdir(parents=True, exist_ok=True)
        (out / "par.md").write_text(text)
        par_table(results).write_csv(out / "par.csv", float_precision=6)
        save(round_chart(results), out, "round_totals")
        typer.echo(f"wrote {out / 'par.md'}, {out / 'par.csv'}, {out / 'round_totals.png'} (.svg)")


def _simulate_for_par(variant: str, policy: str, n: int, seed: int) -> Path:
    """Run (or reuse) results/runs/par-<variant>-n<n>-s<seed> with the reference policy."""
    from golfstats.policies import PolicyError, parse_policy

    rules = resolve_rules(variant)
    try:
        ref = parse_policy(policy)
    except PolicyError as exc:
        fail(str(exc))
    try:
        from golfstats.sim import SimConfig, run_simulation
    except ImportError:
        fail("golfstats.sim is not installed; give a run directory instead")
    out = Path("results") / "runs" / f"par-{rules.id}-{ref.spec.replace(':', '_')}-n{n}-s{seed}"
    if (out / "summary.parquet").is_file():
        return out
    config = SimConfig(rules=rules, policies=(ref,), n=n, seed=seed, out=out, resume=out.exists())
    try:
        return Path(run_simulation(config, progress=True))
    except Exception as exc:  # SimError and worker failures, as one line
        fail(f"simulation for par failed: {exc}", code=1)


@app.command()
def course(
    variant: VariantOpt = "queens-on-kings",
    holes: Annotated[int, typer.Option("--holes", help="9 or 18.")] = 9,
    seed: Annotated[int | None, typer.Option("--seed", min=0, help="Seed of the deals.")] = None,
    date: Annotated[str | None, typer.Option(
        "--date", help="YYYY-MM-DD: the course of that day (seed = int(YYYYMMDD)); default today.")] = None,
    winnable: Annotated[bool, typer.Option(
        "--winnable", help="Only deals the exact solver can win (others are skipped in order).")] = False,
    policy: Annotated[str, typer.Option(
        "--policy", "-p", help="Reference player whose strokes on a deal set its par.")] = "lookahead",
    hole_par_min: HoleParMinOpt = 3,
    hole_par_max: HoleParMaxOpt = 5,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write the course as JSON here.")] = None,
    boards: Annotated[Path | None, typer.Option(
        "--boards", help="Write the board text here (readable by `golfstats solve`).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of board text.")] = False,
) -> None:
    """A course of 9 or 18 deals with a par for each hole; the same date gives the same course."""
    import datetime as dt

    from golfstats.policies import PolicyError, parse_policy
    from golfstats.report.course import CourseError, date_seed, make_course

    rules = resolve_rules(variant)
    if holes not in (9, 18):
        fail(f"--holes must be 9 or 18, not {holes}")
    if seed is not None and date is not None:
        fail("give --seed or --date, not both")
    try:
        ref = parse_policy(policy)
        if seed is None:
            date = date or dt.date.today().isoformat()
            seed = date_seed(date)
        result = make_course(rules, holes, seed, date=date, winnable=winnable, policy=ref,
                             hole_par_min=hole_par_min, hole_par_max=hole_par_max)
    except (CourseError, PolicyError) as exc:
        fail(str(exc))
    typer.echo(result.to_json() if as_json else result.text())
    for path, content in ((out, result.to_json()), (boards, result.text())):
        if path:
            try:
                path.write_text(content)
            except OSError as exc:
                fail(f"cannot write {path}: {exc.strerror or exc}")


@app.command()
def compare(
    run_dirs: RunDirsArg,
    policies: Annotated[str, typer.Option(
        "--policies", help="Two policies of the run, A,B (e.g. lookahead,greedy).")],
    variant: Annotated[str | None, typer.Option("--variant", "-v", help="Only this variant.")] = None,
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", help="Also write compare.md and compare.csv here.")] = None,
) -> None:
    """Paired comparison of two policies on the same deals: win-rate difference with a 95%
    interval, McNemar's test, mean stroke difference, and 9- and 18-hole match play."""
    from golfstats.report import ReportError
    from golfstats.report.compare import compare_policies, comparison_table, format_comparison
    from golfstats.report.runs import merge_deals, resolve_policy

    names = _split_policies(policies)
    if len(names) != 2:
        fail(f"--policies takes two policies A,B, not {policies!r}")
    runs = _runs(run_dirs)
    try:
        deals = merge_deals(runs)
        if variant:
            rules_id = resolve_rules(variant).id
            deals = deals.filter(deals["variant"] == rules_id)
            if deals.is_empty():
                fail(f"variant {rules_id} is not in the runs")
        a, b = (resolve_policy(p, deals["policy"].unique()) for p in names)
    except ReportError as exc:
        fail(str(exc))
    if a == b:
        fail("compare two different policies")
    results = compare_policies(deals, a, b)
    if not results:
        fail(f"{a} and {b} played no deal in common")
    text = "\n".join(format_comparison(r) for r in results)
    typer.echo(text)
    if out:
        out.mkdir(parents=True, exist_ok=True)
        (out / "compare.md").write_text(text)
        comparison_table(results).write_csv(out / "compare.csv", float_precision=6)
        typer.echo(f"wrote {out / 'compare.md'} and {out / 'compare.csv'}")


def _split_policies(text: str) -> list[str]:
    """``A,B`` where a policy may itself hold ``key=value`` parameters after a colon."""
    parts: list[str] = []
    for item in (p.strip() for p in text.split(",")):
        if parts and "=" in item and ":" not in item and ":" in parts[-1]:
            parts[-1] += "," + item  # a second parameter of the previous policy
        elif item:
            parts.append(item)
    return parts


@app.command()
def study(
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder of the committed study.")]
    = Path("results"),
    hours_budget: Annotated[float, typer.Option(
        "--hours-budget", min=0.01, help="Wall-time budget; sizes shrink (and say so) to fit.")] = 2.0,
    scale: Annotated[float, typer.Option(
        "--scale", min=0.0001, max=1.0, help="Multiply every size (0.01: a quick end-to-end check).")] = 1.0,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Seed of the deals.")] = 2026,
    workers: Annotated[int | None, typer.Option("--workers", min=1, help="Processes (default: all cores).")]
    = None,
    variants: Annotated[str | None, typer.Option(
        "--variants", help="Comma-separated subset of the study's variants (default: all 14).")] = None,
    plan_only: Annotated[bool, typer.Option(
        "--plan-only", help="Run the pilot, print the plan and its time estimate, stop.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bars.")] = False,
) -> None:
    """The committed study: every king rule with/without 2 jokers and empty-start, plus
    black-hole and all-in-a-row; random, greedy, lookahead, exact (sampling on fewer deals);
    n per variant for a +/-0.5% interval on the exact win rate; tables, charts, README."""
    import os

    from golfstats.report.runs import VARIANT_ORDER
    from golfstats.report.study import SAMPLING_VARIANTS, StudyConfig, StudyError, run_study

    chosen = VARIANT_ORDER
    if variants:
        chosen = tuple(resolve_rules(v).id for v in variants.split(",") if v.strip())
        unknown = [v for v in chosen if v not in VARIANT_ORDER]
        if unknown:
            fail(f"not a study variant: {', '.join(unknown)}; they are: {', '.join(VARIANT_ORDER)}")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"cannot write {out}: {exc.strerror or exc}")
    config = StudyConfig(out=out, seed=seed, hours_budget=hours_budget, scale=scale,
                         workers=workers or os.cpu_count() or 1, variants=chosen,
                         sampling_variants=tuple(v for v in SAMPLING_VARIANTS if v in chosen),
                         progress=not quiet, plan_only=plan_only)
    try:
        result = run_study(config, note=typer.echo)
    except StudyError as exc:
        fail(str(exc), code=1)
    if not plan_only:
        typer.echo(f"study done in {result.seconds / 60:.1f} min; see {out / 'README.md'}")
