"""Options and helpers shared by the CLI commands: rule options, board sources, errors."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, NoReturn, Optional

import typer

from golfstats.rules import Rules, RulesError, parse_variant, with_options


class DrawRule(str, Enum):
    any_time = "any-time"
    when_stuck = "when-stuck"


class GoalChoice(str, Enum):
    strokes = "strokes"
    win = "win"


VariantOpt = Annotated[str, typer.Option(
    "--variant", "-v",
    help="Rule set: a king rule (strict, queens-on-kings, putt-putt; aliases golf-a/b/c, "
         "hard/medium/easy, wrap, relaxed, dead-king) or a game (black-hole, all-in-a-row), "
         "optionally with +options, e.g. putt-putt+jokers2+empty-start.  See `golfstats variants`.")]
JokersOpt = Annotated[Optional[int], typer.Option(
    "--jokers", min=0, max=2, help="Add 0, 1 or 2 wild jokers (overrides the variant's).")]
EmptyStartOpt = Annotated[Optional[bool], typer.Option(
    "--empty-start/--card-start",
    help="Start with an empty foundation (no card turned) / with one card turned.")]
DrawOpt = Annotated[Optional[DrawRule], typer.Option(
    "--draw", help="When a stock card may be turned: any-time (default) or when-stuck.")]
DeadQueenOpt = Annotated[Optional[bool], typer.Option(
    "--dead-queen/--live-queen",
    help="House rule of queens-on-kings: a Queen played on a King accepts nothing.")]
SeedOpt = Annotated[Optional[int], typer.Option(
    "--seed", min=0, help="Seed of golfstats' own deals; deal --index of this seed.")]
IndexOpt = Annotated[int, typer.Option("--index", min=0, help="Deal number within --seed.")]
PysolOpt = Annotated[Optional[str], typer.Option(
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


def parse_pysol_range(text: str) -> list[int]:
    """``1234`` or ``1-3000`` -> deal numbers; errors exit."""
    try:
        if "-" in text.strip("-"):
            lo, hi = (int(part) for part in text.split("-", 1))
            if lo > hi:
                fail(f"--pysol range {text!r} runs backwards")
            return list(range(lo, hi + 1))
        return [int(text)]
    except ValueError:
        fail(f"--pysol takes a deal number or a range A-B, not {text!r}")


def read_text(path: Path) -> str:
    """A board file's text ('-' reads standard input); errors exit."""
    if str(path) == "-":
        return sys.stdin.read()
    try:
        return path.read_text()
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror or exc}")
