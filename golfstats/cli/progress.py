"""What a long computation is doing, on the terminal (rich, on stderr), with a ticking clock.

Every display here is drawn only when stderr is a terminal (piped and ``--json`` output
stay clean) and refreshes itself (rich's own thread; the kernels release the GIL), so the
clock moves while a compiled pass runs:

* ``HonestProgress(label)``, the ``progress`` callback of ``golfstats.honest.odds``: after a
  second and a half, one line (the board, the pass, how far it is, the states and the
  memory of its tables, the elapsed time and, in the value pass, an ETA from the states
  valued so far), cleared when the computation ends;
* ``CourseProgress(holes)``: holes kept, deals examined, ETA;
* ``Activity(text)``: a computation without countable steps (a report's charts, a play
  whose kernels may compile first): what it does and the elapsed time, after a second
  and a half.
"""

from __future__ import annotations

import threading
import time

from rich.console import Console
from rich.live import Live
from rich.text import Text

from golfstats.sim.progress import clock

#: Seconds before a line appears (fast work prints nothing).
DELAY = 1.5
#: Redraws per second of the ticking displays.
REFRESH = 4
PASSES = {"wins": "which states some order still wins", "reach": "which states the deal reaches",
          "values": "chances of winning", "strokes": "expected strokes",
          "all": "every reachable state and its expected strokes"}


class _Line:
    """A transient status line showing ``render()`` (called at each redraw), drawn from
    ``DELAY`` seconds after ``start`` until ``stop`` (a timer starts it: quick work never
    draws, nor pays for a display)."""

    def __init__(self, enabled: bool) -> None:
        self._console = Console(stderr=True)
        self._on = enabled and self._console.is_terminal
        self._live: Live | None = None
        self._timer: threading.Timer | None = None
        self._lock = threading.Lock()
        self.started = time.perf_counter()

    def __rich__(self) -> Text:
        return Text(self.render(), style="cyan", no_wrap=True, overflow="ellipsis")

    def render(self) -> str:
        raise NotImplementedError

    def start(self) -> None:
        self.started = time.perf_counter()
        if self._on and self._timer is None:
            self._timer = threading.Timer(DELAY, self._show)
            self._timer.daemon = True
            self._timer.start()

    def _show(self) -> None:
        with self._lock:
            if self._timer is not None and self._live is None:
                self._live = Live(self, console=self._console, transient=True,
                                  refresh_per_second=REFRESH)
                self._live.start()

    def stop(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            if self._live is not None:
                self._live.stop()
                self._live = None


class Activity(_Line):
    """``with Activity("writing the report"):`` what the command does, and for how long."""

    def __init__(self, text: str, enabled: bool = True) -> None:
        super().__init__(enabled)
        self.text = text

    def render(self) -> str:
        return f"{self.text} · {clock(time.perf_counter() - self.started)}"

    def __enter__(self) -> Activity:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


class HonestProgress(_Line):
    """Use as a context manager; call it as ``progress(pass_name, done, total, info)``."""

    def __init__(self, label: str, enabled: bool = True) -> None:
        super().__init__(enabled)
        self._label = label
        self._pass = ""
        self._layer = (0, 0)
        self._pass_started = self.started
        self._info: dict = {}

    def __enter__(self) -> HonestProgress:
        self.start()
        self._pass_started = self.started
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def __call__(self, name: str, done: int, total: int, info: dict) -> None:
        if name != self._pass:
            self._pass, self._pass_started = name, time.perf_counter()
        self._layer = (done, total)
        self._info.update(info)

    def render(self) -> str:
        now = time.perf_counter()
        parts = [self._label, PASSES.get(self._pass, self._pass or "starting")]
        info = self._info
        if self._pass == "values":
            parts.append(f"layer {self._layer[0]} of {self._layer[1]}")
        if "valued" in info and "states" in info:
            parts.append(f"{info['valued']:,} of {info['states']:,} states")
        elif "states" in info:
            parts.append(f"{info['states']:,} states")
        if "bytes" in info:
            parts.append(f"{info['bytes'] / 1e9:.2f} GB of tables")
        parts.append(clock(now - self.started))
        eta = self.eta(now)
        if self._pass == "values" and self._info.get("work"):
            parts.append("ETA " + (clock(eta) if eta is not None else "after the first layers"))
        return " · ".join(p for p in parts if p)

    def eta(self, now: float) -> float | None:
        """Seconds left in the value pass, from its states valued so far (None before the
        first layer that has any)."""
        work, done = self._info.get("work", 0), self._info.get("work_done", 0)
        if self._pass != "values" or not work or not done:
            return None
        return (now - self._pass_started) * (work - done) / done


class CourseProgress:
    """The search of a course's deals: holes kept, deals examined (``what``: how), the
    elapsed time and an ETA from the rate of kept deals.  Drawn only on a terminal."""

    def __init__(self, holes: int, workers: int = 1, enabled: bool = True,
                 what: str = "valuing deals") -> None:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self._console = Console(stderr=True)
        self._progress = None
        if enabled and self._console.is_terminal:
            self._progress = Progress(TextColumn("[bold]holes"), BarColumn(), MofNCompleteColumn(),
                                      TextColumn("{task.fields[seen]}"), TimeElapsedColumn(),
                                      TextColumn("{task.fields[eta]}"), console=self._console,
                                      refresh_per_second=REFRESH)
        self._holes, self._workers, self._what = holes, workers, what
        self._task = None
        self._started = time.perf_counter()

    def __enter__(self) -> CourseProgress:
        if self._progress is not None:
            self._task = self._progress.add_task("holes", total=self._holes,
                                                 seen=self._seen(0), eta="ETA after the first hole")
            self._progress.start()
        self._started = time.perf_counter()
        return self

    def __exit__(self, *exc) -> None:
        if self._progress is not None:
            self._progress.stop()

    def _seen(self, examined: int) -> str:
        return (f"{self._what}: {examined} examined on {self._workers} "
                f"worker{'s' if self._workers > 1 else ''}")

    def update(self, examined: int, kept: int, holes: int) -> None:
        if self._progress is None:
            return
        elapsed = time.perf_counter() - self._started
        eta = "ETA after the first hole"
        if 0 < kept < holes:
            eta = f"ETA {clock((holes - kept) * elapsed / kept)}"
        elif kept >= holes:
            eta = ""
        self._progress.update(self._task, completed=kept, seen=self._seen(examined),
                              eta=eta)
