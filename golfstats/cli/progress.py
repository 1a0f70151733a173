"""What a long honest computation is doing, on the terminal (rich, on stderr).

``HonestProgress(label)`` is the ``progress`` callback of ``golfstats.odds``: after a
second and a half it shows one line (the board, the pass, how far it is, the states and
the memory of its tables) and clears it when the computation ends.  Nothing is drawn
when stderr is not a terminal, so piped and ``--json`` output stay clean.
"""

from __future__ import annotations

import time

from rich.console import Console
from rich.live import Live
from rich.text import Text

#: Seconds before the line appears (fast positions print nothing).
DELAY = 1.5
PASSES = {"wins": "which states some order still wins", "reach": "which states the deal reaches",
          "values": "chances of winning", "strokes": "expected strokes"}


class HonestProgress:
    """Use as a context manager; call it as ``progress(pass_name, done, total, info)``."""

    def __init__(self, label: str, enabled: bool = True) -> None:
        self._console = Console(stderr=True)
        self._on = enabled and self._console.is_terminal
        self._label = label
        self._live: Live | None = None
        self._started = time.perf_counter()
        self._info: dict = {}

    def __enter__(self) -> HonestProgress:
        self._started = time.perf_counter()
        return self

    def __exit__(self, *exc) -> None:
        if self._live is not None:
            self._live.stop()
            self._live = None

    def __call__(self, name: str, done: int, total: int, info: dict) -> None:
        if not self._on:
            return
        self._info.update(info)
        elapsed = time.perf_counter() - self._started
        if elapsed < DELAY:
            return
        parts = [self._label, PASSES.get(name, name)]
        if name == "values":
            parts.append(f"layer {done} of {total}")
        if "valued" in self._info and "states" in self._info:
            parts.append(f"{self._info['valued']:,} of {self._info['states']:,} states")
        elif "states" in self._info:
            parts.append(f"{self._info['states']:,} states")
        if "bytes" in self._info:
            parts.append(f"{self._info['bytes'] / 1e9:.2f} GB of tables")
        parts.append(f"{elapsed:.0f} s")
        line = Text(" · ".join(parts), style="cyan")
        if self._live is None:
            self._live = Live(line, console=self._console, transient=True, auto_refresh=False)
            self._live.start()
        self._live.update(line, refresh=True)


class CourseProgress:
    """The search of a band's deals: deals examined, holes kept of the course, elapsed
    time and an ETA from the rate of kept deals.  Drawn only on a terminal."""

    def __init__(self, holes: int, enabled: bool = True) -> None:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self._console = Console(stderr=True)
        self._progress = None
        if enabled and self._console.is_terminal:
            self._progress = Progress(TextColumn("[bold]holes"), BarColumn(), MofNCompleteColumn(),
                                      TextColumn("{task.fields[seen]}"), TimeElapsedColumn(),
                                      TextColumn("{task.fields[eta]}"), console=self._console)
        self._holes = holes
        self._task = None
        self._started = time.perf_counter()

    def __enter__(self) -> CourseProgress:
        if self._progress is not None:
            self._task = self._progress.add_task("holes", total=self._holes, seen="", eta="")
            self._progress.start()
        self._started = time.perf_counter()
        return self

    def __exit__(self, *exc) -> None:
        if self._progress is not None:
            self._progress.stop()

    def update(self, examined: int, kept: int, holes: int) -> None:
        if self._progress is None:
            return
        elapsed = time.perf_counter() - self._started
        eta = ""
        if 0 < kept < holes:
            eta = f"ETA {(holes - kept) * elapsed / kept / 60:.1f} min"
        self._progress.update(self._task, completed=kept,
                              seen=f"{examined} deals examined", eta=eta)
