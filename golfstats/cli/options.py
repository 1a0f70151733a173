"""Options shared by the commands, declared once: the rule set (``--variant`` and the rule
flags), the board source (FILE, ``--seed``/``--index``/``--count``, ``--pysol``), the deal
count ``-n``, the memory budget and where bulk work runs (``--backend``, ``--scheduler``,
``--workers``: ``fanout``); the exit codes and the one-line error (``fail``);
writable output paths, checked before any long work (``writable_dir``, ``writable_file``).

``rule_options`` and ``board_source`` are decorators: a command written as
``def solve(rules: Rules, boards: BoardSource, ...)`` gets the shared options in its
``--help`` and receives the resolved values.
"""

from __future__ import annotations

import functools
import inspect
import os
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from typer.core import TyperCommand, TyperGroup

from golfstats.deals import MAX_SEED
from golfstats.goals import Goal
from golfstats.rules import DEFAULT_VARIANT, Draw, Rules, RulesError, parse_variant, with_options
from golfstats.sim.plan import Backend


def _no_flag_type(option) -> None:
    """Typer's rich help prints every option's type beside it, ``<bool>`` for a flag (the
    help option included), which reads as if the flag took a value; an empty metavar
    shows nothing there (the plain help already leaves flags without a type)."""
    if getattr(option, "is_flag", False) and option.metavar is None:
        option.metavar = ""


class Command(TyperCommand):
    """A command whose help shows no type beside a flag (``_no_flag_type``)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:
            _no_flag_type(param)

    def get_help_option(self, ctx):
        option = super().get_help_option(ctx)
        if option is not None:
            _no_flag_type(option)
        return option


class Group(TyperGroup):
    """The app's group, whose ``--help`` shows no type either."""

    def get_help_option(self, ctx):
        option = super().get_help_option(ctx)
        if option is not None:
            _no_flag_type(option)
        return option


_VARIANT_HELP = ("Rule set: a king rule (strict, queens-on-kings, putt-putt; aliases golf-a/b/c, "
                 "wrap, relaxed, dead-king) or a game (black-hole, all-in-a-row), optionally "
                 "with +options (+jokers2, +empty-start, ...: e.g. putt-putt+jokers2).  See "
                 f"`golfstats variants`.  Default: {DEFAULT_VARIANT}, in every command")
VariantOpt = Annotated[str | None, typer.Option(
    "--variant", "-v", help=_VARIANT_HELP + ".", show_default=False)]
BoardVariantOpt = Annotated[str | None, typer.Option(
    "--variant", "-v", show_default=False,
    help=_VARIANT_HELP + "; a board file's own '# rules: ID' line (as `golfstats deal --board` "
         "writes it) for its boards, which --variant and the rule flags may repeat but not "
         "contradict.")]
JokersOpt = Annotated[int | None, typer.Option(
    "--jokers", min=0, max=2, help="Add 0, 1 or 2 wild jokers (overrides the variant's).")]
EmptyStartOpt = Annotated[bool | None, typer.Option(
    "--empty-start/--card-start",
    help="Start with an empty foundation (no card turned) / with one card turned.")]
DrawOpt = Annotated[Draw | None, typer.Option(
    "--draw", help="When a stock card may be turned: any-time (default) or when-stuck.")]
DeadQueenOpt = Annotated[bool | None, typer.Option(
    "--dead-queen/--live-queen",
    help="House rule of queens-on-kings: a Queen played on a King accepts nothing.")]
GoalOpt = Annotated[Goal, typer.Option(
    "--goal", help="The clairvoyant solver's goal.  strokes: best stroke score (most stock "
                   "left if winnable, else fewest cards left); win: only decide winnability "
                   "(faster); win-strokes: for a solver that knows the order, the same as "
                   "strokes (a won line always scores fewer strokes than a lost one).")]
MaxMemoryOpt = Annotated[float, typer.Option(
    "--max-memory", min=0.01, metavar="GB",
    help="Memory budget of one deal's honest value (perfect play without peeking), in GB: "
         "goals win and win-strokes check the bit rows of their first passes after each, size "
         "their long pass before it starts and (win-strokes) pay the expected strokes' table "
         "as it grows; goal strokes "
         "sizes its state list.  Where goal win's two layers of values (the p of one deal "
         "alone, or of one stock order) do not fit but the part a step works on does, the "
         "layers go to files in the temporary directory (TMPDIR) and the output says so.  "
         "A deal over it is reported unresolved, never approximated.")]


def _every_core(threads: int | None) -> int:
    from golfstats.cores import available_cores

    return threads or available_cores()


ThreadsOpt = Annotated[int | None, typer.Option(
    "--threads", min=1, metavar="N", callback=_every_core,
    help="Threads of goal win's value pass (also under goal win-strokes), the long part of "
         "perfect play without peeking: the same values bit for bit on any number.  Default: "
         "every core this process may use.  Fewer run where their buffers would not fit in "
         "the memory budget.", show_default=False)]
WorkersOpt = Annotated[int | None, typer.Option(
    "--workers", "-w", min=1, help="Worker processes (local), or local dask workers when "
    "--backend dask has no --scheduler.  Default: all cores.")]
BackendOpt = Annotated[Backend, typer.Option(
    "--backend", help="local: a process pool on this machine; dask: a dask.distributed "
    "cluster (pip install 'golfstats\\[dask]').")]
SchedulerOpt = Annotated[str | None, typer.Option(
    "--scheduler", help="Address of the dask scheduler, e.g. tcp://10.0.0.5:8786 "
    "(--backend dask; without it a local dask cluster is started).")]


def fanout(backend: Backend, scheduler: str | None, workers: int | None) -> tuple[str, str | None, int]:
    """``--backend``, ``--scheduler`` and ``--workers`` as the library takes them (the
    workers' default: every core); ``--scheduler`` without ``--backend dask`` exits 2."""
    if scheduler and backend is not Backend.DASK:
        fail("--scheduler is only for --backend dask")
    return backend.value, scheduler, workers or os.cpu_count() or 1


def deals_option(help: str):
    """``-n``, the number of deals, in every command that plays seeded deals: at least 1."""
    return typer.Option("-n", min=1, metavar="N", help=help)


def _checked_seed(value: int | None) -> int | None:
    if value is not None and not 0 <= value <= MAX_SEED:
        fail(f"seed must be between 0 and {MAX_SEED}, not {value}")
    return value


def seed_option(help: str):
    """``--seed``, checked the same way in every command (one line, exit 2): a whole
    number from 0 to 2**63 - 1."""
    return typer.Option("--seed", callback=_checked_seed, help=help + "  A whole number, 0 or more.")


SeedOpt = Annotated[int, seed_option("Seed of the deals: deal i depends only on (seed, i).")]
KeyOpt = Annotated[int | None, typer.Option(
    "--key", min=0,
    help="Random key of the random and sampling policies (default: the seeded deal's own "
         "key, as in simulate; 0 for files and PySol deals).")]
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


def _cannot_write(option: str, path: Path, exc: OSError) -> NoReturn:
    fail(f"cannot write {option} {path}: {exc.strerror or exc}", DATA_ERROR)


def _probe(folder: Path) -> None:
    """Write and remove a file in ``folder``: the only sure test (permission bits say
    nothing to root, and /proc refuses new files whatever they say)."""
    probe = folder / f".golfstats-write-test-{os.getpid()}"
    probe.write_text("")
    probe.unlink()


def writable_dir(path: Path, option: str = "--out") -> Path:
    """The folder ``path``, made (with its parents) and tried for writing before any long
    work; a path that cannot be one exits 1 (``file.txt/x``, ``/proc/x``, no permission)."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        _probe(path)
    except OSError as exc:
        _cannot_write(option, path, exc)
    return path


def writable_file(path: Path, option: str = "--out") -> Path:
    """``path`` checked before any long work: not a folder, in a folder that exists and
    takes new files; else exit 1.  Nothing is created."""
    folder = path.parent if str(path.parent) else Path(".")
    try:
        if path.is_dir():
            raise IsADirectoryError(21, "Is a directory")
        if not folder.is_dir():
            folder.stat()  # the reason: no such folder, or a file on the way
            raise NotADirectoryError(20, "Not a directory")
        _probe(folder)
    except OSError as exc:
        _cannot_write(option, path, exc)
    return path


def write_text(path: Path, text: str, option: str = "--out") -> None:
    """Write ``text`` to ``path``; an error exits 1 in one line."""
    try:
        path.write_text(text)
    except OSError as exc:
        _cannot_write(option, path, exc)


def resolve_rules(variant: str | None, jokers: int | None = None, empty_start: bool | None = None,
                  draw: Draw | None = None, dead_queen: bool | None = None) -> Rules:
    """The rule set of ``--variant`` (``DEFAULT_VARIANT`` when None) with the rule options
    laid over it; errors exit."""
    try:
        rules = parse_variant(DEFAULT_VARIANT if variant is None else variant)
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


def _given_rules(variant: str | None = None, **flags) -> Rules | None:
    """The rule set when ``--variant`` or a rule flag was given, else None."""
    if variant is None and all(v is None for v in flags.values()):
        return None
    return resolve_rules(variant, **flags)


@dataclass(frozen=True)
class RuleChoice:
    """The rule set as a command that reads board files was given it: ``--variant`` and
    the rule flags as typed (None where not given).  A file's ``# rules: ID`` line names
    the rule set of its boards (``for_file``): what was given must agree with it."""

    variant: str | None = None
    jokers: int | None = None
    empty_start: bool | None = None
    draw: Draw | None = None
    dead_queen: bool | None = None

    @classmethod
    def checked(cls, **given) -> RuleChoice:
        """The choice, its rule set resolved once up front (an unknown variant exits here,
        before any board is read)."""
        choice = cls(**given)
        choice.rules()
        return choice

    @property
    def given(self) -> bool:
        """A variant or a rule flag was given."""
        return any(v is not None for v in (self.variant, self.jokers, self.empty_start,
                                            self.draw, self.dead_queen))

    def _flags(self) -> dict:
        return {"jokers": self.jokers, "empty_start": self.empty_start, "draw": self.draw,
                "dead_queen": self.dead_queen}

    def rules(self) -> Rules:
        """The rule set given (``DEFAULT_VARIANT`` where no variant is); errors exit."""
        return resolve_rules(self.variant, **self._flags())

    def words(self) -> str:
        """The options as typed, e.g. ``-v strict --jokers 1``."""
        parts = [f"-v {self.variant}"] if self.variant is not None else []
        if self.jokers is not None:
            parts.append(f"--jokers {self.jokers}")
        if self.empty_start is not None:
            parts.append("--empty-start" if self.empty_start else "--card-start")
        if self.draw is not None:
            parts.append(f"--draw {self.draw.value}")
        if self.dead_queen is not None:
            parts.append("--dead-queen" if self.dead_queen else "--live-queen")
        return " ".join(parts)

    def for_file(self, named: Rules | None, where: str) -> Rules:
        """The rule set of boards whose file names ``named`` (None: names none, and the
        given or default rule set applies).  Options that say another rule set than the
        file's exit 2 in one line naming both (``where``: the file and its line)."""
        if named is None or not self.given:
            return self.rules() if named is None else named
        try:
            mine = (parse_variant(self.variant) if self.variant is not None else named)
            mine = with_options(mine, jokers=self.jokers, empty_start=self.empty_start,
                                draw=self.draw.value if self.draw else None,
                                dead_queen=self.dead_queen)
        except RulesError as exc:
            fail(f"{where} names the rule set {named.id}; {self.words()} cannot apply to it: {exc}")
        if mine != named:
            fail(f"{where} names the rule set {named.id}, but {self.words()} says {mine.id}; "
                 "drop the option (the file's rule set applies) or give the file's")
        return named


def board_rules():
    """Decorator of the commands that read boards: replace the command's ``rules:
    RuleChoice`` parameter by ``--variant`` and the rule flags, as ``rule_options``
    does; the command gets what was given, and takes the rule set of each board file
    from its ``# rules:`` line (``RuleChoice.for_file``)."""
    return lambda func: _replace_parameter(func, "rules", _rule_parameters(BoardVariantOpt),
                                           RuleChoice.checked)


def _rule_parameters(variant=VariantOpt) -> list[inspect.Parameter]:
    return [_keyword("variant", variant, None), _keyword("jokers", JokersOpt, None),
            _keyword("empty_start", EmptyStartOpt, None), _keyword("draw", DrawOpt, None),
            _keyword("dead_queen", DeadQueenOpt, None)]


def rule_options(optional: bool = False):
    """Decorator: replace the command's ``rules: Rules`` parameter by ``--variant`` and the
    rule flags ``--jokers``, ``--empty-start``, ``--draw`` and ``--dead-queen``.  The
    command gets ``DEFAULT_VARIANT`` when none is given, or, with ``optional``, None (it
    then takes the rule set from elsewhere, as ``simulate --resume`` from the run)."""
    return lambda func: _replace_parameter(func, "rules", _rule_parameters(),
                                           _given_rules if optional else resolve_rules)


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
