"""The ``golfstats`` command line: a thin Typer app.

Each command lives in the module of its family (``game``: variants, deal, solve,
hint, play; ``simulate``; ``report``: report, par, course, compare, study) and only
parses, calls the library and prints.  Heavy imports (numba, polars, matplotlib)
happen inside the commands, so ``golfstats --help`` is instant.
"""

from __future__ import annotations

import typer

app = typer.Typer(
    name="golfstats",
    help="Statistics, simulation and exact solving for Golf solitaire and its variants "
         "(see `golfstats variants`).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def main() -> None:
    """Entry point: like ``app()``, but a usage error is one ``golfstats: error:`` line."""
    import sys

    try:  # recent Typer releases carry their own copy of click
        from typer._click.exceptions import ClickException, UsageError
    except ImportError:  # pragma: no cover - older Typer on top of click
        from click.exceptions import ClickException, UsageError

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
    sys.exit(code if isinstance(code, int) else 0)


# Command modules register themselves on ``app`` when imported.
from golfstats.cli import game, report, simulate  # noqa: E402,F401
