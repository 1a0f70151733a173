"""The errors of reading runs (re-exported by ``runs.read`` and ``golfstats.runs``)."""

from __future__ import annotations


class RunError(ValueError):
    """Runs a reader cannot use: a missing or unreadable run directory, one that is not a
    run, a part or summary that is not what its run.json records, no deal rows where they
    are needed (bad input data)."""


class RunQueryError(RunError):
    """A question the runs cannot answer as asked: a policy or variant they do not hold,
    no honest policy to choose by itself (a usage error: ask another)."""


def why(exc: Exception) -> str:
    """The first line of a reader's complaint (polars' messages run over many lines)."""
    text = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return (text.strip().splitlines() or [type(exc).__name__])[0]
