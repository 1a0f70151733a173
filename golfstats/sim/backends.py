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
from collections.abc import Iterator

from golfstats.sim.plan import SimError
from golfstats.sim.serving import (  # (the fan-out's types, re-exported)
    Job,
    Serving,
    Workers,
    check_fits,
    describe,
    gigabytes,
    local_memory,
)

__all__ = ["Job", "Serving", "Workers", "check_fits", "dask_available", "describe", "gigabytes",
           "local_memory", "open_workers"]


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
    from golfstats.sim.pool import LocalWorkers

    yield LocalWorkers(workers, log_level, memory)
