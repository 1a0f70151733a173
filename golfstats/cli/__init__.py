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
    app()


# Command modules register themselves on ``app`` when imported.
from golfstats.cli import game, report, simulate  # noqa: E402,F401
