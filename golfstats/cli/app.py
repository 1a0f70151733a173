"""The Typer app.  Commands are registered on it in ``golfstats.cli``."""

from __future__ import annotations

import typer

from golfstats.cli.options import Group

app = typer.Typer(
    name="golfstats",
    help="Statistics, simulation and exact solving for Golf solitaire and its variants "
         "(see `golfstats variants`).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=Group,
)
