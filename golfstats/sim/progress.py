"""A progress bar on the terminal (rich, on stderr): deals done, deals per second, ETA,
and each policy's win rate so far with its Wilson 95% interval (so a user can stop a run
once it is precise enough, and resume it later).  A first run's compile of the kernels is
announced on stderr, as the bar's description on a terminal and as one line otherwise."""

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

from golfstats.stats import wilson


class _RateColumn(ProgressColumn):
    """Deals per second (rich's own speed estimate over the last half minute)."""

    def render(self, task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("-- deals/s" if speed is None else f"{speed:,.0f} deals/s", style="cyan")


class _BarAndRates(Progress):
    """The bar, then one line per policy with its win rate so far (``rates``)."""

    def __init__(self, *columns, **kwargs) -> None:
        # set before rich's __init__, which renders once (through get_renderables)
        self.rates: list[str] = []
        super().__init__(*columns, **kwargs)

    def get_renderables(self):
        yield self.make_tasks_table(self.tasks)
        for line in self.rates:
            yield Text(line, style="green")


def compile_notice(seconds: float) -> str:
    """What a run says while its kernels compile (a cold numba cache)."""
    return f"compiling the kernels (first run only, about {seconds:.0f} s)"


class RunProgress:
    """Deals done out of ``total``; draws only when ``enabled`` and stderr is a terminal.

    Use as a context manager; ``advance(deals)`` after each chunk and ``count(wins,
    played)`` with its wins per policy (``policies`` order) for the running win rates;
    ``starting()`` before the workers start, ``compiling(seconds)`` when they compile the
    kernels, ``ready()`` when they play.
    """

    def __init__(self, total: int, done: int, description: str, enabled: bool = True,
                 policies: tuple[str, ...] = ()) -> None:
        console = Console(stderr=True)
        self._console, self._enabled = console, enabled
        self._progress = None
        if enabled and console.is_terminal:
            self._progress = _BarAndRates(
                TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                _RateColumn(), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                console=console, transient=False)
        self._total, self._done, self._description = total, done, description
        self._task = None
        self._policies = policies
        self._wins = [0] * len(policies)
        self._played = [0] * len(policies)

    def starting(self) -> None:
        """The workers start (and load the kernels): the bar says so until ``ready``."""
        self._say(f"{self._description}: starting the workers")

    def compiling(self, seconds: float) -> None:
        """The kernels are being compiled, for about ``seconds``: the bar says so, or one
        line on stderr when it is not a terminal."""
        if self._progress is None and self._enabled:
            self._console.print(f"{self._description}: {compile_notice(seconds)}", markup=False,
                                highlight=False, soft_wrap=True)
        self._say(f"{self._description}: {compile_notice(seconds)}")

    def ready(self) -> None:
        """The workers play: the bar's description is the run's again."""
        self._say(self._description)

    def _say(self, description: str) -> None:
        if self._progress is not None:
            self._progress.update(self._task, description=description)

    def advance(self, deals: int) -> None:
        if self._progress is not None:
            self._progress.advance(self._task, deals)

    def count(self, wins, played) -> None:
        """Add a chunk's wins and deals played (per policy) to the running win rates."""
        for k, (w, n) in enumerate(zip(wins, played, strict=True)):
            self._wins[k] += w
            self._played[k] += n
        if self._progress is not None:
            self._progress.rates = self.rates()
            self._progress.refresh()

    def rates(self) -> list[str]:
        """"  greedy   3.12% [2.95, 3.30] of 40,000": each policy's win rate so far."""
        width = max(map(len, self._policies), default=0)
        lines = []
        for spec, w, n in zip(self._policies, self._wins, self._played, strict=True):
            if n:
                low, high = wilson(w, n)
                lines.append(f"  {spec:<{width}}  {100 * w / n:6.2f}% "
                             f"[{100 * low:.2f}, {100 * high:.2f}] of {n:,}")
        return lines

    def __enter__(self) -> RunProgress:
        if self._progress is not None:
            self._task = self._progress.add_task(self._description, total=self._total,
                                                 completed=self._done)
            self._progress.start()
        return self

    def __exit__(self, *exc) -> None:
        if self._progress is not None:
            self._progress.stop()
