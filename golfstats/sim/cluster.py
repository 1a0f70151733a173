"""The dask backend of ``sim.backends``: a job's tasks on a dask.distributed cluster
(imported only when the dask backend is asked for, and dask is installed).

Every worker warms up once per job (``Job.warm_up``: each compiles what it lacks, since
dask workers need not share a disk, nor numba's cache); a worker that joins later loads
the kernels at its first task.  Tasks are dask tasks; what they return comes back to this
process, which finishes them (``Job.finish``), so the cluster needs no shared disk.

Memory.  A task that needs memory (``Job.memory``) asks for it as the dask resource
``MEMORY`` (bytes): the scheduler runs it only on a worker with that much free, so a task
as large as a worker's whole ``MEMORY`` runs there alone, and one larger than every
worker's is refused before it is sent.  A worker started without the resource (``dask
worker ADDR --resources MEMORY=16e9`` declares it) is given ``LIMIT_SHARE`` of its memory
limit (``--memory-limit``; of its machine's memory where it has none) when it joins, by a
worker plugin, so workers restarted by their nanny have it too.

A worker that dies loses only the tasks it had: the scheduler runs them again elsewhere
(``KilledWorker`` after ``distributed.scheduler.allowed-failures`` deaths, reported with
the task); what a task returned is written by this process alone, so nothing is half done.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import time
from collections import deque
from collections.abc import Iterator

from distributed import Client, LocalCluster, WorkerPlugin, wait

from golfstats.sim.plan import SimError
from golfstats.sim.serving import Serving, Workers, check_fits, describe, gigabytes, local_memory

log = logging.getLogger("golfstats.sim")

#: The dask resource a task's memory is asked as, in bytes.
MEMORY = "MEMORY"
#: The share of a worker's memory limit its tasks may count on when it declares no
#: ``MEMORY``: dask pauses a worker at 80% of its limit and restarts it at 95%, and the
#: process itself (Python, numba's code, polars) holds a few hundred MB.
LIMIT_SHARE = 0.7
#: Seconds between looks at the cluster while tasks run (is there still room for them?).
_TICK = 5.0
#: Seconds to wait for the scheduler's port to answer.
_CONNECT_SECONDS = 5.0
#: How long the cluster may have no worker at all before the call gives up.
_NO_WORKERS_SECONDS = 120.0


class _DeclareMemory(WorkerPlugin):
    """Gives a worker that declares no ``MEMORY`` its share of its memory limit."""

    idempotent = True
    name = "golfstats-memory"

    async def setup(self, worker) -> None:
        if MEMORY in worker.state.total_resources:
            return
        limit = worker.memory_manager.memory_limit
        await worker.set_resources(**{MEMORY: int(LIMIT_SHARE * limit) if limit else local_memory()})


def _warm_up(job, log_level: int | str) -> float:
    """On a dask worker: let golfstats records of ``log_level`` through (dask forwards them
    to the client), and warm the job up."""
    logging.getLogger("golfstats").setLevel(log_level)
    return job.warm_up(0, 1, lambda seconds: log.info(
        "compiling the kernels on a dask worker (first run only, about %.0f s)", seconds))


def _run_remote(job, task):
    return job.run_remote(task)


@contextlib.contextmanager
def dask_workers(scheduler: str | None, workers: int, log_level: int | str) -> Iterator[Workers]:
    """The cluster at ``scheduler`` (``None``: a new local cluster of ``workers``
    processes on loopback, closed afterwards); ``SimError`` if it cannot be reached."""
    with contextlib.ExitStack() as stack:
        if scheduler is None:
            address = stack.enter_context(LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                dashboard_address=None))
        else:
            address = scheduler
            _probe(scheduler)
        try:
            client = stack.enter_context(Client(address, timeout="10s"))
        except (OSError, TimeoutError, ValueError, TypeError) as exc:
            raise SimError(f"cannot reach the dask scheduler at {scheduler}: "
                           f"{' '.join(str(exc).split())}") from None
        client.forward_logging("golfstats", level=log_level)
        client.register_plugin(_DeclareMemory())
        yield DaskWorkers(client, log_level)


def _probe(scheduler: str) -> None:
    """Refuse (``SimError``) a scheduler address that is malformed, or a TCP one where
    nothing listens, before a client is made (a client that cannot connect waits out its
    timeout, and again when it is collected)."""
    from distributed.comm import parse_address
    from distributed.comm.addressing import parse_host_port

    try:
        scheme, location = parse_address(scheduler)
        if scheme != "tcp":
            return
        host, port = parse_host_port(location)
        socket.create_connection((host, port), timeout=_CONNECT_SECONDS).close()
    except (OSError, ValueError, TypeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise SimError(f"cannot reach the dask scheduler at {scheduler}: {why}") from None


class DaskWorkers(Workers):
    """The workers of a dask cluster, through ``client``."""

    backend = "dask"

    def __init__(self, client, log_level: int | str) -> None:
        self.client, self.log_level = client, log_level

    def _workers(self) -> dict:
        return self.client.scheduler_info(n_workers=-1).get("workers", {})

    @property
    def slots(self) -> int:
        return max(1, sum(self.client.nthreads().values()))

    @property
    def largest_memory(self) -> int:
        return max((int(w.get("resources", {}).get(MEMORY, 0)) for w in self._workers().values()),
                   default=0)

    def serve(self, job, peers=None, on_ready=None, on_compile=None, on_playing=None):
        return contextlib.closing(DaskServing(self, job, on_ready))


class DaskServing(Serving):
    """One job on the cluster: at most two tasks in flight per worker thread."""

    def __init__(self, fleet: DaskWorkers, job, on_ready=None) -> None:
        self._fleet, self.job, self._on_ready = fleet, job, on_ready
        self._warm = False
        self.slots = fleet.slots

    def _warm_up(self) -> None:
        try:
            self._fleet.client.run(_warm_up, self.job, self._fleet.log_level)
        except Exception as exc:
            raise SimError(f"a dask worker failed to warm up: {describe(exc)}") from exc
        self._warm = True
        if self._on_ready is not None:
            self._on_ready()

    def stream(self, tasks, deadline=None):
        if not tasks:
            return
        check_fits(self.job, tasks, self._fleet.largest_memory, "the largest dask worker")
        if not self._warm:
            self._warm_up()
        client = self._fleet.client
        pending, flying = deque(tasks), {}
        limit = max(2, 2 * self._fleet.slots)
        failure = None
        try:
            while pending or flying:
                while pending and failure is None and len(flying) < limit:
                    task = pending.popleft()
                    need = self.job.memory(task)
                    future = client.submit(
                        _run_remote, self.job, task, pure=False,
                        key=f"golfstats-{type(self.job).__name__}-{task.index}-{time.time_ns()}",
                        resources={MEMORY: need} if need else None)
                    flying[future] = task
                if not flying:
                    break
                for future in self._finished(flying, deadline):
                    task = flying.pop(future)
                    try:
                        result = self.job.finish(task, future.result())
                    except Exception as exc:
                        if failure is None:
                            failure = f"{task} failed: {describe(exc)}"
                            log.info("%s; finishing the tasks in flight, then stopping", failure)
                        continue
                    finally:
                        future.release()
                    yield task, result
            if failure is not None:
                raise SimError(failure)
        finally:
            for future in flying:  # closed early or stopped: nobody waits for these
                future.cancel()

    def _finished(self, flying: dict, deadline: float | None) -> set:
        """The futures of ``flying`` that are done, once one is; between looks, refuse a
        wait that cannot end (no worker left with the memory a task needs)."""
        alone_since = None
        while True:
            timeout = _TICK if deadline is None else max(0.01, min(_TICK, deadline - time.monotonic()))
            try:
                done, _ = wait(list(flying), timeout=timeout, return_when="FIRST_COMPLETED")
                return done
            except TimeoutError:
                if deadline is not None and time.monotonic() >= deadline:
                    raise TimeoutError("no task finished before the deadline") from None
            workers = self._fleet._workers()
            if not workers:
                alone_since = alone_since or time.monotonic()
                if time.monotonic() - alone_since > _NO_WORKERS_SECONDS:
                    raise SimError(f"the dask cluster has had no worker for "
                                   f"{_NO_WORKERS_SECONDS:.0f} s, with tasks left")
                continue
            alone_since = None
            largest = self._fleet.largest_memory
            for task in flying.values():
                if self.job.memory(task) > largest:
                    raise SimError(f"{task} needs {gigabytes(self.job.memory(task))} of memory and "
                                   f"no dask worker left has it (the largest: {gigabytes(largest)})")
