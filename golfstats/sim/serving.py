"""The fan-out's types (``sim.backends`` is its face): a ``Job`` and its tasks, a
``Serving`` of one job, ``Workers`` that serve jobs, and the memory check they share."""

from __future__ import annotations

import contextlib
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Protocol

from golfstats.sim.plan import SimError

#: ``on_done(result)``: told in this process of each task done, as it finishes.
OnDone = Callable[[object], None]
OnReady = Callable[[], None]
#: Told by the first worker that finds the kernels' cache cold: the compile's seconds.
OnCompile = Callable[[float], None]
#: ``on_playing(worker, *what)``: what a local worker is on (``work.OnDeal``);
#: ``on_playing(worker, None)`` once its task is done.
OnPlaying = Callable[..., None]
#: The share of this machine's physical memory the local pool's tasks may hold at once.
LOCAL_SHARE = 0.75


class Job(Protocol):
    """What every worker of one bulk job runs (``sim.backends``' module doc)."""

    retries: int
    inline: bool

    def warm_up(self, number: int, peers: int, on_compile: OnCompile | None) -> float: ...

    def memory(self, task) -> int: ...

    def run(self, task, on_step: Callable[..., None] | None, wanted: Callable[[], bool]): ...

    def run_remote(self, task): ...

    def finish(self, task, raw): ...


def describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def gigabytes(count: int) -> str:
    return f"{count / 1e9:.1f} GB"


def local_memory(share: float = LOCAL_SHARE) -> int:
    """``share`` of this machine's physical memory, in bytes (0 where the platform does
    not say)."""
    try:
        return int(share * os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, ValueError, OSError):
        return 0


def check_fits(job: Job, tasks: Iterable, largest: int, where: str) -> None:
    """Refuse (``SimError``) a task needing more memory than the ``largest`` worker has."""
    for task in tasks:
        need = job.memory(task)
        if need > largest:
            raise SimError(f"{task} needs {gigabytes(need)} of memory, more than {where} has "
                           f"({gigabytes(largest)}): give it a smaller memory budget, or a "
                           "worker with more memory")


class Serving:
    """One job on the workers; ``stream`` is the one way its tasks run (``sim.backends``)."""

    #: The workers serving (local processes, or the cluster's threads), for messages.
    slots: int = 1

    def stream(self, tasks: list, deadline: float | None = None) -> Iterator[tuple[object, object]]:
        """(task, result) of each of ``tasks`` as it finishes.  ``deadline`` (a
        ``time.monotonic`` time): ``TimeoutError`` when no task finishes before it (the
        tasks in flight go on until the serving closes).  Closing the iterator early drops
        the tasks not handed out."""
        raise NotImplementedError

    def run(self, tasks: list, on_done: OnDone) -> None:
        """Every task of ``tasks``; ``on_done(result)`` as each finishes."""
        for _, result in self.stream(tasks):
            on_done(result)

    def in_order(self, tasks: list, deadline: float | None = None) -> Iterator[object]:
        """The results of ``tasks`` in their order (held back until those before are in)."""
        held, order = {}, deque(t.index for t in tasks)
        results = self.stream(tasks, deadline)
        try:
            for task, result in results:
                held[task.index] = result
                while order and order[0] in held:
                    yield held.pop(order.popleft())
        finally:
            results.close()

    def close(self) -> None:
        """Stop the workers of this serving (those still on a task at once)."""


class Workers:
    """Where a command's jobs run (``open_workers``)."""

    backend: str = "local"
    #: Worker processes (local) or the cluster's threads.
    slots: int = 1
    #: The most memory one task may need: the largest worker's budget, in bytes.
    largest_memory: int = 0

    def serve(self, job: Job, peers: int | None = None, on_ready: OnReady | None = None,
              on_compile: OnCompile | None = None,
              on_playing: OnPlaying | None = None) -> contextlib.AbstractContextManager[Serving]:
        """A ``Serving`` of ``job``: nothing starts before its first task; then (local)
        ``peers`` workers (default: all) warm up together, ``on_ready`` is told when the
        first is ready, ``on_compile`` once when a cold compile begins, ``on_playing``
        what each worker is on (local)."""
        raise NotImplementedError

    def run(self, job: Job, tasks: list, on_done: OnDone, on_ready: OnReady | None = None,
            on_compile: OnCompile | None = None, on_playing: OnPlaying | None = None) -> None:
        """Every task of ``tasks`` on a serving of its own (``peers``: at most one per task)."""
        if not tasks:
            return
        with self.serve(job, len(tasks), on_ready, on_compile, on_playing) as serving:
            serving.run(tasks, on_done)
