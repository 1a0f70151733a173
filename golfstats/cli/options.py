"""Options shared by the commands, declared once: the rule set (``--variant`` and the rule
flags) and the board source (FILE, ``--seed``/``--index``/``--count``, ``--pysol``).

``rule_options`` and ``board_source`` are decorators: a command written as
``def solve(rules: Rules, boards: BoardSource, ...)`` gets the shared options in its
``--help`` and receives the resolved values.  ``fail`` prints the one-line error.
"""

from __future__ import annotations

import functools
import inspect
import typing
from enum import StrEnum
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from golfstats.deals import MAX_SEED
from golfstats.goals import Goal
from golfstats.rules import Rules, RulesError, parse_variant, with_options


class DrawRule(StrEnum):
    any_time = "any-time"
    when_stuck = "when-stuck"


VariantOpt = Annotated[str, typer.Option(
    "--variant", "-v",
    help="Rule set: a king rule (strict, queens-on-kings, putt-putt; aliases golf-a/b/c, "
         "hard/medium/easy, wrap, relaxed, dead-king) or a game (black-hole, all-in-a-row), "
         "optionally with +options (+jokers2, +empty-start, ...: e.g. putt-putt+jokers2).  See "
         "`golfstats variants`.")]
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
GoalOpt = Annotated[Goal, typer.Option(
    "--goal", help="strokes: best stroke score (most stock left if winnable, else fewest "
                   "cards left); win: only decide winnability (faster).")]
def _checked_seed(value: int | None) -> int | None:
    if value is not None and not 0 <= value <= MAX_SEED:
        fail(f"seed must be between 0 and {MAX_SEED}, not {value}")
    return value


def seed_option(help: str):
    """``--seed``, checked the same way in every command (one line, exit 2): a whole
    number from 0 to 2**63 - 1."""
    return typer.Option("--seed", callback=_checked_seed, help=help + "  A whole number, 0 or more.")


SeedOpt = Annotated[int, seed_option("Seed of the deals: deal i depends only on (seed, i).")]
PYSOL_MAX = 2**33 - 1  # PySolFC's deal numbers (golfstats.deals.PYSOL_MAX)
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]


#: Exit codes of every command (README, "Exit codes"): a usage error (a bad option, a
#: missing or conflicting argument), and input data that cannot be read or is invalid (a
#: malformed board, an unreadable file, a run directory that is not a run).
USAGE_ERROR, DATA_ERROR = 2, 1


def fail(message: str, code: int = USAGE_ERROR) -> NoReturn:
    """Print a one-line error (no traceback) and exit non-zero (``USAGE_ERROR`` or
    ``DATA_ERROR``)."""
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


def _replace_parameter(func, name: str, new: list[inspect.Parameter], convert):
    """A wrapper of ``func`` whose signature has ``new`` in place of parameter ``name``;
    the wrapper calls ``func`` with ``name=convert(**values of new)``."""
    hints = typing.get_type_hints(func, include_extras=True)
    old = inspect.signature(func)
    params = []
    for p in old.parameters.values():
        if p.name == name:
            params.extend(new)
        else:
            params.append(p.replace(annotation=hints.get(p.name, p.annotation),
                                    kind=inspect.Parameter.KEYWORD_ONLY))
    names = [p.name for p in new]

    @functools.wraps(func)
    def wrapper(**kwargs):
        values = {n: kwargs.pop(n) for n in names}
        return func(**kwargs, **{name: convert(**values)})

    del wrapper.__wrapped__  # Typer reads the signature below, not func's
    wrapper.__signature__ = old.replace(parameters=params)
    wrapper.__annotations__ = {p.name: p.annotation for p in params}
    return wrapper


def _keyword(name: str, annotation, default) -> inspect.Parameter:
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default,
                             annotation=annotation)


def rule_options(default_variant: str):
    """Decorator: replace the command's ``rules: Rules`` parameter by ``--variant`` and the
    rule flags ``--jokers``, ``--empty-start``, ``--draw`` and ``--dead-queen``."""
    new = [_keyword("variant", VariantOpt, default_variant), _keyword("jokers", JokersOpt, None),
           _keyword("empty_start", EmptyStartOpt, None), _keyword("draw", DrawOpt, None),
           _keyword("dead_queen", DeadQueenOpt, None)]
    return lambda func: _replace_parameter(func, "rules", new, resolve_rules)


class BoardSource(typing.NamedTuple):
    """Which boards a command works on (checked by ``cli.boards.check_sources``)."""

    files: list[Path]
    seed: int | None
    index: int
    count: int
    pysol: str | None


_SOURCE_SEED = Annotated[int | None, seed_option("Seed of golfstats' own deals; deal --index of "
                                                   "this seed.")]
_SOURCE_INDEX = Annotated[int, typer.Option("--index", min=0, help="Deal number within --seed.")]
_SOURCE_COUNT = Annotated[int, typer.Option(
    "--count", min=1, help="With --seed: K consecutive deals, --index I to I+K-1.")]


def board_source(many: bool):
    """Decorator: replace the command's ``boards: BoardSource`` parameter by the board
    source options: board FILE(s) (one, or several with ``many``), ``--seed S --index I``
    (``--count K`` with ``many``) or ``--pysol N`` (``N`` or a range ``A-B`` with ``many``)."""
    if many:
        files = _keyword("files", Annotated[list[Path] | None, typer.Argument(
            help="Board text files, each with one or more boards separated by blank lines "
                 "('-' reads standard input).", show_default=False)], None)
    else:
        files = _keyword("file", Annotated[Path | None, typer.Argument(
            help="Board text file (the board text of docs/rules.md; '-' reads standard input).",
            show_default=False)], None)
    pysol = _keyword("pysol", Annotated[str | None, typer.Option(
        "--pysol", help="PySolFC deal number N" + (", or a range A-B," if many else "")
        + " of the variant's game.")], None)
    new = [files, _keyword("seed", _SOURCE_SEED, None), _keyword("index", _SOURCE_INDEX, 0)]
    if many:
        new.append(_keyword("count", _SOURCE_COUNT, 1))
    new.append(pysol)

    def convert(seed, index, pysol, count=1, files=None, file=None) -> BoardSource:
        paths = list(files or []) if many else ([file] if file is not None else [])
        return BoardSource(paths, seed, index, count, pysol)

    return lambda func: _replace_parameter(func, "boards", new, convert)
