"""The search for a course's deals (``golfstats.course.make_course``): each deal judged
in index order (winnable, and inside a band of honest win chance), as tasks of the one
fan-out (``sim.backends``: the local pool or a dask cluster), and the reasons the search
stops (the deal limit, the time limit, a band too rare to fill)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass

from golfstats.goals import Goal
from golfstats.rules import Rules

Z95 = 1.959963984540054


class OutOfTime(Exception):
    """The time limit passed while a deal was being valued."""


def time_stop(found, holes, examined, started, workers, band) -> str:
    """The time limit's message: how far the search got and what would finish it."""
    elapsed = time.monotonic() - started
    plural = "s" if workers > 1 else ""
    if not examined:
        return (f"stopped at the time limit after {elapsed / 60:.1f} min, before the first deal "
                f"was valued on {workers} worker{plural} (a deal takes longer than that here): "
                "raise --time-limit")
    what = band.text() if band else "winnable"
    need = (holes - found) * examined / max(found, 0.5)
    more = need * elapsed / examined
    return (f"stopped at the time limit after {elapsed / 60:.1f} min: {found} of the first "
            f"{examined} deals are {what}; about {need:.0f} more deals (~{max(1, round(more / 60))} "
            f"min on {workers} worker{plural}) would finish it: raise --time-limit or widen the band")


def stop_reason(found, holes, examined, limit, started, time_limit, band, workers) -> str | None:
    """Why the search must stop now (None: it goes on): the deal limit, the time limit, or
    a band so rare at the rate seen that the limit cannot fill it."""
    what = band.text() if band else "winnable"
    rate = f"{found} of the first {examined} deals are {what}"
    if examined >= limit:
        return f"only {rate}"
    if time_limit and time.monotonic() - started > time_limit:
        return time_stop(found, holes, examined, started, workers, band)
    if band and examined >= 30 and (holes - found) * examined / max(found, 0.5) > limit - examined:
        return (f"only {rate}: at that rate the {limit}-deal limit cannot fill the course; "
                "widen the band")
    return None


@dataclass(frozen=True)
class Deal:
    """A deal to judge: its ``index`` in the seed and its ``board``."""

    index: int
    board: object

    def __str__(self) -> str:
        return f"deal {self.index}"


def honest_win_p(board, rules: Rules) -> float | None:
    """The honest chance of winning of ``board`` (perfect play without peeking, goal win, p
    alone, within ``honest.DEFAULT_MAX_BYTES``); None when it is not resolved."""
    from golfstats import honest
    from golfstats.cores import value_threads

    found = honest.odds(board, rules, Goal.WIN, threads=value_threads())
    return found.value.p if found.resolved else None


@dataclass(frozen=True)
class CourseJob:
    """Judging a course's deals as a job of the fan-out (``sim.backends``): winnable (the
    exact solver), and inside ``band`` (``chance``: ``honest_win_p`` or the tests' stand-in,
    a picklable module-level function).  A task is a ``Deal``; with a band it asks for the
    honest value's memory budget."""

    rules: Rules
    winnable: bool
    band: object | None
    chance: Callable = honest_win_p
    retries: int = 2
    inline: bool = True

    def warm_up(self, number: int, peers: int, on_compile) -> float:
        from golfstats.deals import seeded_board
        from golfstats.honest import load_kernels
        from golfstats.solver import solve

        started = time.perf_counter()
        board = seeded_board(self.rules, 0, 0)
        solve(board, self.rules, Goal.WIN)
        if self.band is not None:
            load_kernels(board, self.rules, Goal.WIN)
        return time.perf_counter() - started

    def memory(self, deal: Deal) -> int:
        from golfstats.honest import DEFAULT_MAX_BYTES

        return DEFAULT_MAX_BYTES if self.band is not None else 0

    def run(self, deal: Deal, on_step=None, wanted=None):
        return _qualifies(deal.board, self.rules, self.winnable, self.band, self.chance)

    def run_remote(self, deal: Deal):
        return self.run(deal)

    def finish(self, deal: Deal, verdict):
        return verdict


class Valuer:
    """Judges deals (``CourseJob``) on the fan-out's workers (``sim.backends``: the local
    pool of ``workers`` processes, this one for one, or a dask cluster); verdicts come
    back in the deals' order.  Waiting for a verdict stops at the deadline (``OutOfTime``:
    the work in flight is dropped); in this process a deal being valued is finished first."""

    def __init__(self, job: CourseJob, workers: int, backend: str = "local",
                 scheduler: str | None = None) -> None:
        self._job, self._where = job, (backend, max(1, workers), scheduler)
        self.workers = max(1, workers)

    def __enter__(self) -> Valuer:
        from golfstats.sim.backends import open_workers

        backend, workers, scheduler = self._where
        self._stack = contextlib.ExitStack()
        try:
            fleet = self._stack.enter_context(open_workers(backend, workers, scheduler, "WARNING"))
            self.workers = fleet.slots
            self._serving = self._stack.enter_context(fleet.serve(self._job))
        except BaseException:
            self._stack.close()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self._stack.close()

    def judge(self, deals: list[Deal], deadline: float | None = None):
        try:
            yield from self._serving.in_order(deals, deadline)
        except TimeoutError:
            raise OutOfTime from None


def _qualifies(board, rules: Rules, winnable: bool, band, chance=honest_win_p):
    """False: the deal is left out; None: unresolved (left out, counted); otherwise True,
    or the deal's honest chance of winning when a band asks for it."""
    from golfstats.solver import solve

    if winnable and not solve(board, rules, Goal.WIN).won:
        return False
    if band is None:
        return True
    win_p = chance(board, rules)
    if win_p is None:
        return None
    return win_p if band.holds(win_p) else False
