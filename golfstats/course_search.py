"""The search for a course's deals (``golfstats.course.make_course``): each deal judged
in index order (winnable, and inside a band of honest win chance), on a pool of worker
processes when there are several, and the reasons the search stops (the deal limit, the
time limit, a band too rare to fill)."""

from __future__ import annotations

import time

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


class Valuer:
    """Judges deals (``_qualifies``), on a pool of ``workers`` processes when there are
    several; verdicts come back in the deals' order.  On the pool, waiting for a verdict
    stops at the deadline (``OutOfTime``) and the pool's work is dropped; in this
    process a deal being valued is finished first."""

    def __init__(self, rules: Rules, workers: int) -> None:
        self._rules, self._workers, self._pool = rules, max(1, workers), None

    def __enter__(self) -> Valuer:
        if self._workers > 1:
            import multiprocessing as mp

            self._pool = mp.get_context("spawn").Pool(self._workers)
        return self

    def __exit__(self, *exc) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()

    def judge(self, boards, winnable: bool, band, deadline: float | None = None):
        tasks = [(b, self._rules, winnable, band) for b in boards]
        if self._pool is None:
            yield from (_qualifies(*t) for t in tasks)
            return
        import multiprocessing as mp

        verdicts = self._pool.imap(_qualifies_task, tasks)
        for _ in tasks:
            wait = None if deadline is None else max(0.05, deadline - time.monotonic())
            try:
                yield verdicts.next(timeout=wait)
            except mp.TimeoutError:
                raise OutOfTime from None


def _qualifies_task(task):
    return _qualifies(*task)


def _qualifies(board, rules: Rules, winnable: bool, band):
    """False: the deal is left out; None: unresolved (left out, counted); otherwise True,
    or the deal's honest ``Odds`` (its chance of winning) when a band asks for them."""
    from golfstats.solver import solve

    if winnable and not solve(board, rules, Goal.WIN).won:
        return False
    if band is None:
        return True
    from golfstats import odds as honest

    value = honest.odds(board, rules, Goal.WIN)
    if not value.resolved:
        return None
    return value if band.holds(value.win_p) else False
