"""Where chunks are played: a local pool of spawned processes, or a dask.distributed cluster.

Both backends play the chunks they are given and call ``on_done(ChunkDone)`` in the
main process once a chunk's part is on disk.  On the first failure (a chunk raising, a
worker dying) they hand out no more chunks, let the chunks in flight finish (their
parts are kept), and raise ``SimError`` naming the failed chunk.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from golfstats.sim.plan import Chunk, RunSpec, SimError
from golfstats.sim.work import ChunkDone, chunk_done

log = logging.getLogger("golfstats.sim")

OnDone = Callable[[ChunkDone], None]
OnReady = Callable[[], None]
#: Told by the first worker that finds the kernels' cache cold: the compile's seconds.
OnCompile = Callable[[float], None]
#: ``on_playing(worker, chunk, policy, deal)``: what a local worker is on (``work.OnDeal``);
#: ``on_playing(worker, None)`` once its chunk is done.
OnPlaying = Callable[..., None]
_JOIN_SECONDS = 10.0


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


# ------------------------------------------------------------------ local pool

def _worker_main(number: int, peers: int, spec: RunSpec, conn, log_queue, log_level) -> None:
    """A worker process (``number`` of ``peers`` started together): warm up, then play the
    chunks the main process sends until None."""
    from golfstats.sim.logs import install_worker_logging

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the main process's to handle
    install_worker_logging(log_queue, log_level)
    code = 0
    try:
        _serve(number, peers, spec, conn)
    except BaseException:
        log.exception("worker %d failed", number)
        code = 1
    finally:
        # Flush the log queue, then skip the interpreter's slow teardown (numba, polars):
        # every part is already closed and renamed, so there is nothing left to save.
        for handler in logging.getLogger().handlers:
            handler.flush()
        log_queue.close()
        log_queue.join_thread()
        conn.close()
        os._exit(code)


def _serve(number: int, peers: int, spec: RunSpec, conn) -> None:
    from golfstats.sim.work import play_and_write, warm_up

    try:
        seconds = warm_up(spec, number, peers, lambda estimate: conn.send(("compiling", estimate)))
    except Exception as exc:
        conn.send(("error", None, _describe(exc), traceback.format_exc()))
        return
    log.debug("worker %d (pid %d) ready in %.2f s", number, os.getpid(), seconds)
    conn.send(("ready", seconds))
    parent = os.getppid()

    def wanted() -> bool:  # the main process still runs (killed outright, it is reparented)
        return os.getppid() == parent

    while True:
        try:
            chunk = conn.recv()
        except (EOFError, OSError):  # the main process is gone
            return
        if chunk is None:
            return
        try:
            done = play_and_write(spec, chunk, lambda on, policy, deal: conn.send(
                ("playing", on, policy, deal)), wanted)
        except Exception as exc:
            conn.send(("error", chunk.index, _describe(exc), traceback.format_exc()))
            continue
        if done is None:
            return
        conn.send(("done", done))


@dataclass
class _Worker:
    number: int
    process: object
    conn: object
    chunk: Chunk | None = None
    ready: bool = False
    stopping: bool = False


@dataclass
class _Pool:
    """Bookkeeping of the local pool's main loop."""

    pending: deque
    workers: list[_Worker]
    chunks: dict[int, Chunk]
    on_done: OnDone
    on_ready: OnReady | None
    on_compile: OnCompile | None = None
    on_playing: OnPlaying | None = None
    failure: str | None = None
    started_any: bool = False
    alive: list[_Worker] = field(default_factory=list)

    def fail(self, message: str) -> None:
        if self.failure is None:
            self.failure = message
            log.info("%s; finishing the chunks in flight, then stopping", message)

    def dispatch(self, worker: _Worker) -> None:
        """Give ``worker`` its next chunk, or tell it to stop (one chunk in flight each)."""
        if worker.stopping:
            return
        if self.pending and self.failure is None:
            worker.chunk = self.pending.popleft()
            try:
                worker.conn.send(worker.chunk)
            except OSError:
                pass  # the worker just died: its sentinel reports it, with this chunk
        else:
            worker.chunk = None
            worker.stopping = True
            try:
                worker.conn.send(None)
            except OSError:
                pass

    def message(self, worker: _Worker, dispatch: bool = True) -> bool:
        """Handle one message of ``worker``; False at the end of its pipe."""
        try:
            msg = worker.conn.recv()
        except (EOFError, OSError):
            return False  # the process ended; its sentinel says how
        kind = msg[0]
        if kind == "playing":  # what the worker is on now: no answer, no dispatch
            if self.on_playing is not None:
                self.on_playing(worker.number, *msg[1:])
            return True
        if kind in ("done", "error") and self.on_playing is not None:
            self.on_playing(worker.number, None)
        if kind == "compiling":
            if self.on_compile is not None:
                self.on_compile(msg[1])
            self.on_compile = None  # said once, by the first worker to find the cache cold
            return True
        if kind == "ready":
            worker.ready = True
            if not self.started_any and self.on_ready is not None:
                self.on_ready()
            self.started_any = True
        elif kind == "done":
            worker.chunk = None
            self.on_done(msg[1])
        else:
            _, index, text, trace = msg
            log.debug("worker %d traceback:\n%s", worker.number, trace)
            where = f"{self.chunks[index]} failed" if index is not None else \
                f"worker {worker.number} failed to start"
            worker.chunk = None
            self.fail(f"{where}: {text}")
        if dispatch:
            self.dispatch(worker)
        return True

    def ended(self, worker: _Worker) -> None:
        """``worker``'s process has exited."""
        while worker.conn.poll() and self.message(worker, dispatch=False):
            pass  # messages sent before it exited
        self.alive.remove(worker)
        worker.process.join(_JOIN_SECONDS)
        code = worker.process.exitcode
        if worker.chunk is not None:
            self.fail(f"worker {worker.number} (pid {worker.process.pid}) died with exit code "
                      f"{code} while playing {worker.chunk}")
        elif not worker.stopping:
            when = "between chunks" if worker.ready else "while starting"
            self.fail(f"worker {worker.number} (pid {worker.process.pid}) died with exit code "
                      f"{code} {when}")


def run_local(spec: RunSpec, chunks: list[Chunk], workers: int, on_done: OnDone,
              log_level: int | str, on_ready: OnReady | None = None,
              on_compile: OnCompile | None = None, on_playing: OnPlaying | None = None) -> None:
    """Play ``chunks`` on ``workers`` spawned processes (each writes its own parts; on a
    cold cache they share the compile out, ``work.warm_up``)."""
    import multiprocessing
    from multiprocessing.connection import wait

    from golfstats.sim.logs import WorkerLogSink

    if not chunks:
        return
    context = multiprocessing.get_context("spawn")
    sink = WorkerLogSink(context)
    pool = _Pool(deque(chunks), [], {c.index: c for c in chunks}, on_done, on_ready, on_compile,
                 on_playing)
    peers = min(workers, len(chunks))
    try:
        for number in range(peers):
            conn, child_conn = context.Pipe()
            process = context.Process(target=_worker_main, daemon=True,
                                      name=f"golfstats-worker-{number}",
                                      args=(number, peers, spec, child_conn, sink.queue, log_level))
            process.start()
            child_conn.close()
            pool.workers.append(_Worker(number, process, conn))
        pool.alive = list(pool.workers)
        by_conn = {w.conn: w for w in pool.workers}
        by_sentinel = {w.process.sentinel: w for w in pool.workers}
        while pool.alive:
            waiting = [w.conn for w in pool.alive] + [w.process.sentinel for w in pool.alive]
            for ready in wait(waiting):
                if ready in by_conn and by_conn[ready] in pool.alive:
                    pool.message(by_conn[ready])
                elif ready in by_sentinel and by_sentinel[ready] in pool.alive:
                    pool.ended(by_sentinel[ready])
            if pool.failure is None and pool.pending and not pool.alive:
                pool.fail("every worker exited with chunks left to play")
        if pool.failure is None and pool.pending:
            pool.fail(f"{len(pool.pending)} chunks were left unplayed")
    finally:
        _shut_down(pool.workers)
        sink.close()
    if pool.failure is not None:
        raise SimError(pool.failure)


def _shut_down(workers: list[_Worker]) -> None:
    deadline = time.monotonic() + _JOIN_SECONDS
    for worker in workers:
        if worker.process.is_alive() and worker.chunk is None and not worker.stopping:
            try:
                worker.conn.send(None)
            except OSError:
                pass
    for worker in workers:
        worker.process.join(max(0.0, deadline - time.monotonic()) if worker.chunk is None else 0)
        if worker.process.is_alive():
            worker.process.terminate()
            worker.process.join(_JOIN_SECONDS)
        worker.conn.close()


# ------------------------------------------------------------------ dask

def dask_available() -> bool:
    import importlib.util

    return importlib.util.find_spec("distributed") is not None


def _dask_warm_up(spec: RunSpec, log_level: int | str) -> float:
    """On a dask worker: let golfstats records of ``log_level`` through (dask forwards them
    to the client), and load the kernels (each worker compiles all it lacks: dask workers
    need not share a disk, nor numba's cache)."""
    from golfstats.sim.work import warm_up

    logging.getLogger("golfstats").setLevel(log_level)
    return warm_up(spec, on_compile=lambda seconds: log.info(
        "compiling the kernels on a dask worker (first run only, about %.0f s)", seconds))


@contextlib.contextmanager
def dask_client(scheduler: str | None, workers: int) -> Iterator:
    """A client of the cluster at ``scheduler`` (``None``: a new local cluster of
    ``workers`` processes, closed afterwards); ``SimError`` if it cannot be reached."""
    if not dask_available():
        raise SimError("the dask backend needs dask.distributed: pip install 'golfstats[dask]'")
    from distributed import Client, LocalCluster

    with contextlib.ExitStack() as stack:
        if scheduler is None:
            address = stack.enter_context(LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None))
        else:
            address = scheduler
        try:
            client = stack.enter_context(Client(address, timeout="10s"))
        except (OSError, TimeoutError) as exc:
            raise SimError(f"cannot reach the dask scheduler at {scheduler}: {exc}") from exc
        yield client


def run_dask(spec: RunSpec, chunks: list[Chunk], client, on_done: OnDone, log_level: int | str,
             on_ready: OnReady | None = None) -> None:
    """Play ``chunks`` on the dask cluster of ``client``, at most two chunks in flight per
    worker thread.  Workers return the rows; this process writes the parts, so the
    cluster needs no shared disk."""
    from distributed import as_completed

    from golfstats.runs.write import write_part
    from golfstats.sim.work import play_chunk

    if not chunks:
        return
    client.forward_logging("golfstats", level=log_level)
    client.run(_dask_warm_up, spec, log_level)
    if on_ready is not None:
        on_ready()
    in_flight = max(2, 2 * sum(client.nthreads().values()))
    pending = deque(chunks)
    failure = None
    futures = as_completed()
    which = {}

    def submit() -> None:
        chunk = pending.popleft()
        future = client.submit(play_chunk, spec, chunk, pure=False,
                               key=f"golfstats-{spec.run_id}-chunk-{chunk.index}-{time.time_ns()}")
        which[future.key] = chunk
        futures.add(future)

    while pending and len(which) < in_flight:
        submit()
    for future in futures:
        chunk = which.pop(future.key)
        try:
            rows = future.result()
            started = time.perf_counter()
            part = None
            if spec.keep_rows:
                part = write_part(rows, spec.deals_dir, chunk.index, spec.part_metadata(chunk))
            on_done(chunk_done(spec, chunk, rows, time.perf_counter() - started, part))
        except Exception as exc:
            if failure is None:
                failure = f"{chunk} failed: {_describe(exc)}"
                log.info("%s; finishing the chunks in flight, then stopping", failure)
        future.release()
        if pending and failure is None:
            submit()
    if failure is not None:
        raise SimError(failure)


# ------------------------------------------------------------------ either

Play = Callable[[RunSpec, list[Chunk], OnDone, OnReady, OnCompile, OnPlaying], None]


@contextlib.contextmanager
def open_backend(backend: str, workers: int, scheduler: str | None,
                 log_level: int | str) -> Iterator[Play]:
    """``play(spec, chunks, on_done, on_ready, on_compile=None, on_playing=None)`` on
    ``backend``.  The dask backend connects here, so an unreachable scheduler is refused
    before the run starts (its workers log their compile instead of calling
    ``on_compile``, and say nothing of the chunk they are on: ``on_playing`` is local)."""
    if backend == "dask":
        with dask_client(scheduler, workers) as client:
            yield lambda spec, chunks, on_done, on_ready, on_compile=None, on_playing=None: \
                run_dask(spec, chunks, client, on_done, log_level, on_ready)
    else:
        yield lambda spec, chunks, on_done, on_ready, on_compile=None, on_playing=None: \
            run_local(spec, chunks, workers, on_done, log_level, on_ready, on_compile,
                      on_playing)
