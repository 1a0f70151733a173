"""Where bulk work runs: a local pool of spawned processes, or a dask.distributed cluster.

Every command that plays or values many deals (simulate's chunks, a course's deals, the
study's runs and valued deals) hands its work to the one fan-out here, as *tasks* of a
*job*:

- a **job** is what every worker needs for one kind of task (small and picklable, sent
  to each worker once): ``warm_up(number, peers, on_compile)`` loads its kernels (seconds),
  ``memory(task)`` is the bytes a task may need at most (0: too little to count),
  ``run(task, on_step, wanted)`` does a task in a local worker (``on_step(*what)`` says
  what it is on; ``wanted()`` is False once nobody waits for it: return None),
  ``run_remote(task)`` does it on a dask worker, and ``finish(task, raw)`` turns that into
  what ``run`` returns, in this process (the chunks of simulate are written here, as the
  cluster needs no shared disk).  ``retries`` is how many times a task whose local
  worker died runs again on a new one (a cluster retries on its own,
  ``distributed.scheduler.allowed-failures``); ``inline`` lets one local worker be this
  process;
- a **task** is a small picklable value with an ``index`` unique among the tasks of one
  call, and a ``str`` that names it in messages (``Chunk``: "chunk 3 (deals 150-199)").

``open_workers(backend, workers, scheduler, log_level)`` gives the ``Workers`` of a
command (connected to the cluster, or a local pool started at its first task) and
``Workers.serve(job)`` a ``Serving`` of one job: one warm-up, one log sink (the local
workers' records reach this process's loggers; dask forwards them), one report of a
dead worker, and memory counted against each worker's budget: a task is handed out only
when its ``memory`` fits what the worker (the local pool: the machine, ``local_memory``)
has left, so a task needing a whole worker waits to run there alone, and one needing
more than any worker has is refused before anything runs (``SimError``, one line).

On the first failure (a task raising, a worker dying past its retries) a ``Serving``
hands out no more tasks, lets those in flight finish (their results are given), and
raises ``SimError`` naming the task.
"""

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
    """What every worker of one bulk job runs (see the module doc)."""

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
    """One job on the workers; ``stream`` is the one way tasks run (see the module doc)."""

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


class LocalWorkers(Workers):
    """``workers`` spawned processes on this machine whose tasks share ``memory`` bytes
    (default ``local_memory()``; unbounded where the platform does not say); one worker of
    a job that allows it (``Job.inline``) is this process."""

    def __init__(self, workers: int, log_level: int | str, memory: int | None = None) -> None:
        self.slots = max(1, workers)
        self.largest_memory = (local_memory() or _UNBOUNDED) if memory is None else memory
        self.log_level = log_level

    def serve(self, job, peers=None, on_ready=None, on_compile=None, on_playing=None):
        from golfstats.sim.pool import InlinePool, LocalPool

        peers = min(self.slots, peers or self.slots)
        if self.slots == 1 and job.inline:
            return contextlib.nullcontext(InlinePool(job, self.largest_memory, on_ready, on_playing))
        return contextlib.closing(LocalPool(job, peers, self, on_ready, on_compile, on_playing))


_UNBOUNDED = 1 << 62


def dask_available() -> bool:
    import importlib.util

    return importlib.util.find_spec("distributed") is not None


@contextlib.contextmanager
def open_workers(backend: str, workers: int, scheduler: str | None = None,
                 log_level: int | str = "INFO", memory: int | None = None) -> Iterator[Workers]:
    """The workers of a command: ``local``, a pool of ``workers`` processes sharing
    ``memory`` bytes (default ``local_memory()``), started at its first task; ``dask``, the
    cluster at ``scheduler`` (None: a local dask cluster of ``workers`` processes), connected
    here, so that a missing dask or an unreachable scheduler is refused (``SimError``, one
    line) before any work."""
    if backend == "dask":
        if not dask_available():
            raise SimError("the dask backend needs dask.distributed: pip install 'golfstats[dask]'")
        from golfstats.sim.cluster import dask_workers

        with dask_workers(scheduler, workers, log_level) as fleet:
            yield fleet
        return
    if backend != "local":
        raise SimError(f"backend must be local or dask, not {backend!r}")
    if scheduler:
        raise SimError("--scheduler is only for --backend dask")
    yield LocalWorkers(workers, log_level, memory)
