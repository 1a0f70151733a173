"""The ``golfstats`` command line: a thin Typer app (``cli.app``).

Every command is registered here, explicitly; each lives in the module of its family
(``catalog``: variants, policies, deal; ``solving``: solve, odds, hint, play; ``reviewing``:
review; ``simulate``; ``reports``: report, par, compare; ``courses``: course; ``study``) and only
parses, calls the
library and prints.  Options shared by several commands (the rule set, the board
source) are declared once in ``cli.options``.  Heavy imports (numba, polars,
matplotlib) happen inside the commands, so ``golfstats --help`` is instant.
"""

from __future__ import annotations

import typer

from golfstats.cli import catalog, courses, reports, reviewing, simulate, solving, study
from golfstats.cli.app import app
from golfstats.cli.options import Command
from golfstats.cli.output import MOVES_NOTATION


def _help(func) -> str:
    """The command's docstring as help: paragraphs kept, the line breaks inside a paragraph
    turned into spaces (the help is wrapped to the terminal, never cut mid-sentence)."""
    import inspect

    text = inspect.cleandoc(func.__doc__ or "")
    return "\n\n".join(" ".join(p.split()) for p in text.split("\n\n"))


def _register(name: str, func, epilog: str | None = None) -> None:
    app.command(name, cls=Command, help=_help(func), epilog=epilog)(func)


_register("variants", catalog.variants_command)
_register("policies", catalog.policies_command)
_register("deal", catalog.deal_command)
_register("solve", solving.solve_command, MOVES_NOTATION)
_register("odds", solving.odds_command)
_register("hint", solving.hint_command, MOVES_NOTATION)
_register("play", solving.play_command, MOVES_NOTATION)
_register("review", reviewing.review_command)
_register("simulate", simulate.simulate)
_register("report", reports.report)
_register("par", reports.par)
_register("compare", reports.compare)
_register("course", courses.course)
_register("study", study.study)

__all__ = ["app", "main"]


def main() -> None:
    """Entry point: like ``app()``, but a usage error is one ``golfstats: error:`` line, and
    so is a fault of the system (a full disk, a vanished folder: exit 1); a reader of
    standard output that goes away (``golfstats ... | head``) ends the command quietly,
    exit 0, as other Unix tools do; ``kill PID`` (SIGTERM) stops it as Ctrl-C does: its
    finished work kept, its worker processes stopped with it."""
    import signal
    import sys

    signal.signal(signal.SIGTERM, _interrupt)

    try:  # recent Typer releases carry their own copy of click
        from typer._click.exceptions import ClickException, UsageError
    except ImportError:  # pragma: no cover - older Typer on top of click
        from click.exceptions import ClickException, UsageError

    was_devnull = _is_devnull()
    try:
        code = app(standalone_mode=False)
    except UsageError as exc:
        where = f" (see `{exc.ctx.command_path} --help`)" if exc.ctx else ""
        typer.echo(f"golfstats: error: {exc.format_message()}{where}", err=True)
        sys.exit(2)
    except ClickException as exc:
        typer.echo(f"golfstats: error: {exc.format_message()}", err=True)
        sys.exit(exc.exit_code)
    except (typer.Abort, KeyboardInterrupt):
        typer.echo("golfstats: interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        _quiet_exit()
    except OSError as exc:
        typer.echo(f"golfstats: error: {_fault(exc)}", err=True)
        sys.exit(1)
    except SystemExit:
        # a closed pipe, as click marks it (its wrapper on stdout) or rich (stdout pointed
        # at /dev/null, then exit 1)
        if type(sys.stdout).__name__ == "PacifyFlushWrapper" or (_is_devnull() and not was_devnull):
            _quiet_exit()
        raise
    sys.exit(code if isinstance(code, int) else 0)


def _interrupt(signum, frame) -> None:
    """SIGTERM as Ctrl-C: a ``KeyboardInterrupt`` in the main thread, so that every command's
    own handling of an interrupt runs (a run marked interrupted, its finished chunks kept)
    and the process exits through Python, which stops its daemonic workers (the default
    action would leave them running, orphaned)."""
    raise KeyboardInterrupt


def _fault(exc: OSError) -> str:
    """A fault of the system in words: its reason, and the file it concerns."""
    what = exc.strerror or str(exc) or type(exc).__name__
    return f"{what}: {exc.filename}" if exc.filename else what


def _is_devnull() -> bool:
    """Whether standard output is /dev/null."""
    import os
    import sys

    try:
        mine, null = os.fstat(sys.stdout.fileno()), os.stat(os.devnull)
    except (OSError, ValueError, AttributeError):
        return False
    return (mine.st_dev, mine.st_ino, mine.st_rdev) == (null.st_dev, null.st_ino, null.st_rdev)


def _quiet_exit() -> None:
    """Standard output's reader is gone: point stdout at /dev/null (so that the flush at
    exit says nothing) and exit 0."""
    import os
    import sys

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, AttributeError, ValueError):
        pass
    sys.exit(0)
