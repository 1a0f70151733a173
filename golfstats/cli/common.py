"""Options and helpers shared by the CLI commands: rule options, board sources, errors."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, NoReturn

import typer

from golfstats.rules import Rules, RulesError, parse_variant, with_options


class DrawRule(StrEnum):
    any_time = "any-time"
    when_stuck = "when-stuck"


class GoalChoice(StrEnum):
    strokes = "strokes"
    win = "win"


VariantOpt = Annotated[str, typer.Option(
    "--variant", "-v",
    help="Rule set: a king rule (strict, queens-on-kings, putt-putt; aliases golf-a/b/c, "
         "hard/medium/easy, wrap, relaxed, dead-king) or a game (black-hole, all-in-a-row), "
         "optionally with +options, e.g. putt-putt+jokers2+empty-start.  See `golfstats variants`.")]
JokersOpt = Annotated[int | None, typer.Option(
    "--jokers", min=0, max=2, help="Add 0, 1 or 2 wild jokers (overrides the variant's).")]
EmptyStartOpt = Annotated[bool | None, typer.Option(
    "--empty-start/--card-start",
    help="Start with an empty foundation (no card turned) / with one card turned.")]
DrawOpt = Annotated[DrawRule | None, typer.Option(
    "--draw", help="When a stock card may be turned: any-time (default) or when-stuck.")]
DeadQueenOpt = Annotated[bool | None, typer.Option(
    "--dead-queen/--live-queen",
    help="House rule of queens-on-kings: a Queen played on a King accepts nothing.")]
SeedOpt = Annotated[int | None, typer.Option(
    "--seed", min=0, help="Seed of golfstats' own deals; deal --index of this seed.")]
IndexOpt = Annotated[int, typer.Option("--index", min=0, help="Deal number within --seed.")]
PysolOpt = Annotated[str | None, typer.Option(
    "--pysol", help="PySolFC deal number N, or a range A-B (solve), of the variant's game.")]
GoalOpt = Annotated[GoalChoice, typer.Option(
    "--goal", help="strokes: best stroke score (most stock left if winnable, else fewest "
                   "cards left); win: only decide winnability (faster).")]


def fail(message: str, code: int = 2) -> NoReturn:
    """Print a one-line error (no traceback) and exit non-zero."""
    typer.echo(f"golfstats: error: {message}", err=True)
    raise typer.Exit(code)


def resolve_rules(variant: str, jokers: int | None = None, empty_start: bool | None = None,
                  draw: DrawRule | None = None, dead_queen: bool | None = None) -> Rules:
    """The rule set of ``--variant`` with the rule options laid over it; errors exit."""
    try:
        rules = parse_variant(variant)
        return with_options(rules, jokers=jokers, empty_start=empty_start,
                            draw=draw.value if draw else None, dead_queen=dead_queen)
    except RulesError as exc:
        fail(str(exc))


def pysol_numbers(text: str, allow_range: bool = True) -> range:
    """``1234`` or ``1-3000`` -> PySol deal numbers as a ``range`` (never a list, so a huge
    range costs nothing until it is walked); numbers must be 1 .. 2**33-1.  Errors exit."""
    lo_text, dash, hi_text = text.strip().partition("-")
    if dash and not allow_range:
        fail(f"--pysol takes one deal number here, not {text!r} (ranges A-B are for solve)")
    try:
        lo = int(lo_text)
        hi = int(hi_text) if dash else lo
    except ValueError:
        fail(f"--pysol takes a deal number N{' or a range A-B' if allow_range else ''}, "
             f"not {text!r}")
    top = 2**33 - 1  # PySolFC's deal numbers (golfstats.deals.PYSOL_MAX)
    if not (1 <= lo <= top and 1 <= hi <= top):
        fail(f"PySol deal numbers run from 1 to {top}, not {text!r}")
    if lo > hi:
        fail(f"--pysol range {text!r} runs backwards")
    return range(lo, hi + 1)
