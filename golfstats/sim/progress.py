"""A progress bar on the terminal (rich, on stderr): deals done, deals per second, ETA,
each policy's win rate so far with its Wilson 95% interval (so a user can stop a run
once it is precise enough, and resume it later), and what each worker is on: its chunk
and policy and, for a slow player, its deal, with how long it has been on it.  A first
run's compile of the kernels is announced on stderr, as the bar's description on a
terminal and as one line otherwise."""

from __future__ import annotations

import time

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

#: Seconds a worker stays on one chunk or deal before the bar names it (fast chunks
#: come and go unnamed).
SHOW_AFTER = 2.0


def clock(seconds: float) -> str:
    """``42 s``, ``3 min 05 s``, ``1 h 02 min``."""
    seconds = int(seconds)
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


def percent(wins: int, n: int) -> str:
    """A win rate in percent with two decimals, rounded as the run's summary table rounds
    ``win_rate`` (``100 * (wins / n)``: the rate first, then the percent)."""
    return f"{100 * (wins / n):.2f}"


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
        self.doing = lambda: []
        super().__init__(*columns, **kwargs)

    def get_renderables(self):
        yield self.make_tasks_table(self.tasks)
        for line in self.rates:
            yield Text(line, style="green")
        for line in self.doing():
            yield Text(line, style="cyan", no_wrap=True, overflow="ellipsis")


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
        #: worker -> (chunk, policy, deal or None, since when on that deal or chunk)
        self._doing: dict[int, tuple] = {}
        if self._progress is not None:
            self._progress.doing = self.doing

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

    def playing(self, worker: int, chunk=None, policy: str | None = None,
                deal: int | None = None) -> None:
        """Worker ``worker`` is on ``chunk`` with ``policy`` (and on ``deal`` of it, for a
        player slow enough to be told deal by deal); ``chunk`` None: it is done."""
        if chunk is None:
            self._doing.pop(worker, None)
            return
        before = self._doing.get(worker)
        same = before is not None and before[:3] == (chunk, policy, deal)
        self._doing[worker] = (chunk, policy, deal, before[3] if same else time.perf_counter())

    def doing(self, now: float | None = None) -> list[str]:
        """"  worker 0: chunk 3 (deals 6-7) · optimal · deal 7 for 2 min 05 s": what each
        worker has been on for ``SHOW_AFTER`` seconds or more."""
        now = time.perf_counter() if now is None else now
        lines = []
        for worker, (chunk, policy, deal, since) in sorted(self._doing.items()):
            if now - since >= SHOW_AFTER:
                on = f" · deal {deal}" if deal is not None else ""
                lines.append(f"  worker {worker}: {chunk} · {policy}{on} for {clock(now - since)}")
        return lines

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
                lines.append(f"  {spec:<{width}}  {percent(w, n):>6}% "
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
