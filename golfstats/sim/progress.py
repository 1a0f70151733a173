"""A progress bar on the terminal (rich, on stderr): deals done, deals per second, ETA."""

from __future__ import annotations

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text


class _RateColumn(ProgressColumn):
    """Deals per second (rich's own speed estimate over the last half minute)."""

    def render(self, task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("-- deals/s" if speed is None else f"{speed:,.0f} deals/s", style="cyan")


class RunProgress:
    """Deals done out of ``total``; draws only when ``enabled`` and stderr is a terminal.

    Use as a context manager; ``advance(deals)`` after each chunk.
    """

    def __init__(self, total: int, done: int, description: str, enabled: bool = True) -> None:
        console = Console(stderr=True)
        self._progress = None
        if enabled and console.is_terminal:
            self._progress = Progress(
                TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                _RateColumn(), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                console=console, transient=False)
        self._total, self._done, self._description = total, done, description
        self._task = None

    def advance(self, deals: int) -> None:
        if self._progress is not None:
            self._progress.advance(self._task, deals)

    def __enter__(self) -> RunProgress:
        if self._progress is not None:
            self._task = self._progress.add_task(self._description, total=self._total,
                                                 completed=self._done)
            self._progress.start()
        return self

    def __exit__(self, *exc) -> None:
        if self._progress is not None:
            self._progress.stop()
