"""Command ``course``: a course of seeded deals with a par per hole (``golfstats.course``)
and, with ``--card``, its scorecard (``golfstats.report.card``).  Heavy imports happen
inside."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from golfstats.cli.options import (
    DATA_ERROR,
    BackendOpt,
    SchedulerOpt,
    WorkersOpt,
    fail,
    fanout,
    rule_options,
    seed_option,
    writable_file,
    write_text,
)
from golfstats.cli.reports import ReferenceOpt
from golfstats.course import Difficulty
from golfstats.course_par import PAR_ORDERS
from golfstats.rules import Rules
from golfstats.sim.plan import Backend


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
    workers: WorkersOpt = None,
    backend: BackendOpt = Backend.LOCAL,
    scheduler: SchedulerOpt = None,
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
    expectation is exact (seconds to minutes a deal).  A band's deals are valued on
    --workers local processes or a Dask cluster (--backend dask --scheduler ADDR); the
    course is the same either way.
    """
    import datetime as dt

    from golfstats.cli.progress import CourseProgress
    from golfstats.course import (
        CourseError,
        CourseShort,
        DealSearch,
        ParSettings,
        band_for,
        date_seed,
        make_course,
    )
    from golfstats.policies import PolicyError
    from golfstats.sim import SimError

    if holes not in (9, 18):
        fail(f"--holes must be 9 or 18, not {holes}")
    if seed is not None and date is not None:
        fail("give --seed or --date, not both")
    where, scheduler, workers = fanout(backend, scheduler, workers)
    banded = difficulty is not None or min_win is not None or max_win is not None
    if where == Backend.DASK and not banded:
        fail("--backend dask values a band's deals on a cluster: give --difficulty, --min-win or "
             "--max-win (other courses are judged here)")
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
        workers = workers if band else 1
        what = ("valuing deals' honest win chance" if band else
                "solving deals" if winnable else "playing the holes")
        with CourseProgress(holes, workers, what=what) as bar:
            result = make_course(
                rules, holes, seed, date=date, winnable=winnable,
                par=ParSettings(policy, orders, scale),
                search=DealSearch(band, time_limit=60 * time_limit, workers=workers,
                                  backend=where, scheduler=scheduler),
                progress=bar.update)
    except CourseShort as exc:
        fail(str(exc), DATA_ERROR)
    except (CourseError, PolicyError) as exc:
        fail(str(exc))
    except SimError as exc:  # the workers refused (no dask, no scheduler), or a deal failed
        fail(str(exc), DATA_ERROR)
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
