"""Commands ``report``, ``par``, ``compare`` and ``course``: thin wrappers over
``golfstats.report`` (which reads run directories through ``golfstats.runs``).  Heavy
imports (polars, matplotlib, numba) happen inside."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from golfstats.cli.options import (
    DATA_ERROR,
    USAGE_ERROR,
    SeedOpt,
    deals_option,
    fail,
    resolve_rules,
    rule_options,
    seed_option,
    writable_dir,
    writable_file,
    write_text,
)
from golfstats.course import Difficulty
from golfstats.course_par import PAR_ORDERS
from golfstats.deals import DEFAULT_SEED
from golfstats.policies import PAR_REFERENCE
from golfstats.rules import DEFAULT_VARIANT, Rules

RunDirsArg = Annotated[list[Path], typer.Argument(
    help="Run directories of `golfstats simulate` (or a directory holding a summary.parquet, "
         "such as results/).", show_default=False)]
ReferenceOpt = Annotated[str | None, typer.Option(
    "--policy", "-p", help=f"Reference player whose strokes set par (default {PAR_REFERENCE}, "
                           "the steady player of every par: par, course, report and the study; "
                           "optimal: the perfect golfer, optimal:goal=strokes).",
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
        with Activity(f"writing the report (tables, charts, page) to {out}"):
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
            par_table(results_of(sets)).write_csv(out / "par.csv", float_precision=6)
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


def _card_scale(text: str | None) -> tuple[int, int] | None:
    """``LO..HI`` as (lo, hi); a one-line error otherwise."""
    if text is None:
        return None
    lo, sep, hi = text.partition("..")
    try:
        scale = (int(lo), int(hi))
    except ValueError:
        scale = None
    if not sep or scale is None or scale[0] > scale[1]:
        fail(f"--card-scale takes LO..HI with LO <= HI (e.g. 3..5), not {text!r}")
    return scale


@rule_options()
def course(
    rules: Rules,
    holes: Annotated[int, typer.Option("--holes", help="9 or 18.")] = 9,
    seed: Annotated[int | None, seed_option("Seed of the deals (default: the date's).")] = None,
    date: Annotated[str | None, typer.Option(
        "--date", help="YYYY-MM-DD: the course of that day (seed = int(YYYYMMDD)); default today.")] = None,
    winnable: Annotated[bool, typer.Option(
        "--winnable", help="Only deals the exact solver can win (others are skipped in order).")] = False,
    difficulty: Annotated[Difficulty | None, typer.Option(
        "--difficulty", help="Only deals of this band of honest win chance (perfect play "
                             "without peeking): the thirds, hard, medium and easy, of the rule "
                             "set's deals that some order of the stock wins (measured for "
                             "strict, queens-on-kings and putt-putt; see README).  Each deal's "
                             "chance is computed exactly: seconds to minutes a deal.")] = None,
    min_win: Annotated[float | None, typer.Option(
        "--min-win", min=0.0, max=1.0, help="Only deals whose honest win chance is at least "
                                            "this (0..1), for any rule set.")] = None,
    max_win: Annotated[float | None, typer.Option(
        "--max-win", min=0.0, max=1.0, help="Only deals whose honest win chance is below "
                                            "this (0..1).")] = None,
    workers: Annotated[int | None, typer.Option(
        "--workers", min=1, help="Processes valuing deals for a band (default: all cores).")] = None,
    time_limit: Annotated[float, typer.Option(
        "--time-limit", min=0.1, help="Minutes the search for a band's deals may take; then it "
                                      "stops and says how far it got (exit code 1).")] = 10.0,
    policy: ReferenceOpt = None,
    orders: Annotated[int, typer.Option(
        "--orders", min=1, help="Stock orders of each deal that the reference player's expected "
                                "strokes, a hole's par, are measured on (and as many fresh ones "
                                "for the check beside the par); unused for optimal, whose "
                                "expectation is exact.")] = PAR_ORDERS,
    card_scale: Annotated[str | None, typer.Option(
        "--card-scale", help="LO..HI, e.g. 3..5: keep every hole's par within LO..HI, as "
                             "traditional cards do.  It trades away the point of par: the "
                             "reference player then no longer averages the course's par.  Off "
                             "by default.", show_default=False)] = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write the course as JSON here.")] = None,
    boards: Annotated[Path | None, typer.Option(
        "--boards", help="Write the board text here (readable by `golfstats solve`).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of board text.")] = False,
    card: Annotated[Path | None, typer.Option(
        "--card", help="Also draw the course card here, PNG or SVG by the suffix: each hole's "
                       "deal in miniature, its par and difficulty, the course par and blank "
                       "score boxes.", show_default=False)] = None,
) -> None:
    """A course of 9 or 18 deals with a par for each hole; the same date gives the same course.

    A hole's par is what the reference player is expected to score on that deal over its
    unknown stock order (docs/rules.md, "Par"), the course's par the sum, rounded, and the
    holes' pars add up to it; the reference player's own mean total over fresh stock orders
    is printed beside it.  `optimal` is the perfect golfer (optimal:goal=strokes), whose
    expectation is exact (seconds to minutes a deal).
    """
    import datetime as dt
    import os

    from golfstats.cli.progress import CourseProgress
    from golfstats.course import CourseError, CourseShort, band_for, date_seed, make_course
    from golfstats.policies import PolicyError

    if holes not in (9, 18):
        fail(f"--holes must be 9 or 18, not {holes}")
    if seed is not None and date is not None:
        fail("give --seed or --date, not both")
    scale = _card_scale(card_scale)
    if card and card.suffix.lower() not in (".png", ".svg"):
        fail(f"--card {card}: the card is drawn as .png or .svg, by the file's suffix")
    for path, option in ((out, "--out"), (boards, "--boards"), (card, "--card")):
        if path:
            writable_file(path, option)  # refuse before the (long) work, not after
    try:
        if seed is None:
            date = date or dt.date.today().isoformat()
            seed = date_seed(date)
        band = band_for(rules, difficulty.value if difficulty else None, min_win, max_win)
        workers = (workers or os.cpu_count() or 1) if band else 1
        what = ("valuing deals' honest win chance" if band else
                "solving deals" if winnable else "playing the holes")
        with CourseProgress(holes, workers, what=what) as bar:
            result = make_course(rules, holes, seed, date=date, winnable=winnable, policy=policy,
                                 orders=orders, card_scale=scale, band=band, workers=workers,
                                 time_limit=60 * time_limit, progress=bar.update)
    except CourseShort as exc:
        fail(str(exc), DATA_ERROR)
    except (CourseError, PolicyError) as exc:
        fail(str(exc))
    typer.echo(result.to_json() if as_json else result.text())
    if out:
        write_text(out, result.to_json(), "--out")
    if boards:
        write_text(boards, result.text(), "--boards")
    if card:
        _draw_card(result, rules, card, quiet=as_json)


def _draw_card(course, rules: Rules, path: Path, quiet: bool = False) -> None:
    """The course card of ``course`` at ``path`` (``report.card``), from its holes' boards;
    ``quiet``: no line saying so (the output is JSON)."""
    from golfstats.board import parse_board
    from golfstats.cards import format_card
    from golfstats.report.card import CardError, CardHole, draw_card

    holes = []
    for hole in course.hole_list:
        board = parse_board(hole.board, rules)
        chance = "" if hole.win_p is None else f"honest win {100 * hole.win_p:.0f}%"
        holes.append(CardHole(tuple(tuple(map(format_card, col)) for col in board.tableau),
                              None if board.foundation is None else format_card(board.foundation),
                              len(board.stock), hole.par, chance or ("winnable" if hole.winnable else "")))
    when = f"{course.date}, " if course.date else ""
    valued = any(h.win_p is not None for h in course.hole_list)
    note = ("Par: each hole's as `golfstats course` prints it; course par: their sum.  Difficulty: "
            + ("the honest win chance (perfect play without seeing the stock)" if valued else
               "deals the exact solver wins" if any(h.winnable for h in course.hole_list) else
               "none asked (`golfstats course --difficulty` or `--min-win` values each hole)"))
    try:
        draw_card(holes, f"{course.variant}: {course.holes}-hole course, {when}seed {course.seed}",
                  path, footnote=note)
    except CardError as exc:
        fail(f"--card {path}: {exc}", DATA_ERROR)
    except OSError as exc:
        fail(f"cannot write --card {path}: {exc.strerror or exc}", DATA_ERROR)
    if not quiet:
        typer.echo(f"card: {path}")


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
            comparison_table(results).write_csv(out / "compare.csv", float_precision=6)
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
            rule_set_table(result).write_csv(out / "compare.csv", float_precision=6)
        except OSError as exc:
            fail(f"cannot write --out {out}: {exc.strerror or exc}", DATA_ERROR)
        typer.echo(f"wrote {out / 'compare.md'} and {out / 'compare.csv'}")
