"""The local pool of ``sim.backends``: worker processes on this machine, *spawned* (a
forked child of a process whose polars or numba thread pools run can deadlock), each
warmed up once for its job and kept until the serving closes; and ``InlinePool``, the one
worker of a job that may be this process (``Job.inline``).

A worker has one task in flight.  A task is handed out only when its memory fits what the
machine has left (``backends.LocalWorkers.largest_memory`` less the tasks in flight), so a
task that needs it all waits until it can run alone.  A worker that dies with a task in
flight either fails the call (naming the task) or, while the job's ``retries`` allow,
is replaced by a new worker and the task runs again there.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import time
import traceback
from collections import deque
from dataclasses import dataclass

from golfstats.sim.plan import SimError
from golfstats.sim.serving import Serving, Workers, check_fits, describe, local_memory

log = logging.getLogger("golfstats.sim")
_JOIN_SECONDS = 10.0


# ------------------------------------------------------------------ in a worker

def _worker_main(number: int, peers: int, job, conn, log_queue, log_level) -> None:
    """A worker process (``number`` of ``peers`` started together): warm up, then do the
    tasks the main process sends until None."""
    from golfstats.sim.logs import install_worker_logging

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the main process's to handle
    install_worker_logging(log_queue, log_level)
    code = 0
    try:
        _serve(number, peers, job, conn)
    except BaseException:
        log.exception("worker %d failed", number)
        code = 1
    finally:
        # Flush the log queue, then skip the interpreter's slow teardown (numba, polars):
        # every file is already closed and renamed, so there is nothing left to save.
        for handler in logging.getLogger().handlers:
            handler.flush()
        log_queue.close()
        log_queue.join_thread()
        conn.close()
        os._exit(code)


def _serve(number: int, peers: int, job, conn) -> None:
    from golfstats.cores import share_cores

    share_cores(peers)  # a deal's value pass on this worker's share of the cores
    try:
        seconds = job.warm_up(number, peers, lambda estimate: conn.send(("compiling", estimate)))
    except Exception as exc:
        conn.send(("error", None, None, describe(exc), traceback.format_exc()))
        return
    log.debug("worker %d (pid %d) ready in %.2f s", number, os.getpid(), seconds)
    conn.send(("ready", seconds))
    parent = os.getppid()

    def wanted() -> bool:  # the main process still runs (killed outright, it is reparented)
        return os.getppid() == parent

    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):  # the main process is gone
            return
        if message is None:
            return
        call, task = message
        try:
            result = job.run(task, lambda *what: conn.send(("playing", *what)), wanted)
        except Exception as exc:
            conn.send(("error", call, task.index, describe(exc), traceback.format_exc()))
            continue
        if result is None and not wanted():
            return
        conn.send(("done", call, task.index, result))


# ------------------------------------------------------------------ in this process

@dataclass
class _Worker:
    number: int
    process: object
    conn: object
    task: object | None = None
    call: int = 0  # the ``stream`` call its task belongs to
    need: int = 0  # the task's memory
    ready: bool = False
    stopping: bool = False


class LocalPool(Serving):
    """``peers`` spawned workers serving ``job`` (started at the first task)."""

    def __init__(self, job, peers: int, fleet, on_ready=None, on_compile=None, on_playing=None):
        self.job, self.slots, self._fleet = job, peers, fleet
        self._on_ready, self._on_compile, self._on_playing = on_ready, on_compile, on_playing
        self._context = self._sink = None
        self._workers: list[_Worker] = []  # every process started
        self._alive: list[_Worker] = []
        self._call = 0
        self._in_use = 0
        self._started_any = False
        self._pending: deque = deque()
        self._results: deque = deque()
        self._left = 0
        self._failure: str | None = None
        self._attempts: dict[int, int] = {}

    # -------------------------------------------------------------- starting

    def _start(self) -> None:
        import multiprocessing

        from golfstats.sim.logs import WorkerLogSink

        self._context = multiprocessing.get_context("spawn")
        self._sink = WorkerLogSink(self._context)
        for number in range(self.slots):
            self._spawn(number, self.slots)

    def _spawn(self, number: int, peers: int) -> None:
        conn, child_conn = self._context.Pipe()
        process = self._context.Process(
            target=_worker_main, daemon=True, name=f"golfstats-worker-{number}",
            args=(number, peers, self.job, child_conn, self._sink.queue, self._fleet.log_level))
        process.start()
        child_conn.close()
        worker = _Worker(number, process, conn)
        self._workers.append(worker)
        self._alive.append(worker)

    # -------------------------------------------------------------- the main loop

    def stream(self, tasks, deadline=None):
        from multiprocessing.connection import wait

        check_fits(self.job, tasks, self._fleet.largest_memory, "this machine's pool")
        if not tasks:
            return
        if self._context is None:
            self._start()
        self._call += 1
        self._pending, self._left, self._failure = deque(tasks), len(tasks), None
        self._results.clear()
        self._attempts = {}
        try:
            self._fill()
            while self._left and not (self._failure and not self._busy()):
                if not self._alive:
                    self._fail(f"every worker exited with {self._left} tasks left")
                    break
                by_conn = {w.conn: w for w in self._alive}
                by_sentinel = {w.process.sentinel: w for w in self._alive}
                timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
                ready = wait([*by_conn, *by_sentinel], timeout)
                if not ready:
                    raise TimeoutError("no task finished before the deadline")
                for handle in ready:
                    if handle in by_conn and by_conn[handle] in self._alive:
                        self._message(by_conn[handle])
                    elif handle in by_sentinel and by_sentinel[handle] in self._alive:
                        self._ended(by_sentinel[handle])
                while self._results:
                    yield self._results.popleft()
                self._fill()
            while self._results:
                yield self._results.popleft()
            if self._failure is not None:
                raise SimError(self._failure)
        finally:
            self._pending.clear()
            self._call += 1  # what is still in flight belongs to no call now: dropped

    def _busy(self) -> bool:
        return any(w.task is not None and w.call == self._call for w in self._alive)

    def _fail(self, message: str) -> None:
        if self._failure is None:
            self._failure = message
            log.info("%s; finishing the tasks in flight, then stopping", message)

    def _fill(self) -> None:
        for worker in list(self._alive):
            self._dispatch(worker)

    def _dispatch(self, worker: _Worker) -> None:
        """Give an idle ``worker`` the next task, if its memory fits what is left."""
        if (worker.stopping or not worker.ready or worker.task is not None or not self._pending
                or self._failure is not None):
            return
        need = self.job.memory(self._pending[0])
        if need and self._in_use + need > self._fleet.largest_memory:
            return  # it waits for the tasks in flight to give their memory back
        worker.task, worker.call, worker.need = self._pending.popleft(), self._call, need
        self._in_use += need
        try:
            worker.conn.send((self._call, worker.task))
        except OSError:
            pass  # the worker just died: its sentinel reports it, with this task

    def _release(self, worker: _Worker) -> None:
        self._in_use -= worker.need
        worker.task, worker.need = None, 0

    def _message(self, worker: _Worker) -> bool:
        """Handle one message of ``worker``; False at the end of its pipe."""
        try:
            msg = worker.conn.recv()
        except (EOFError, OSError):
            return False  # the process ended; its sentinel says how
        kind = msg[0]
        if kind == "playing":  # what the worker is on now
            if self._on_playing is not None:
                self._on_playing(worker.number, *msg[1:])
            return True
        if kind == "compiling":
            if self._on_compile is not None:
                self._on_compile(msg[1])
            self._on_compile = None  # said once, by the first worker to find the cache cold
            return True
        if kind == "ready":
            worker.ready = True
            if not self._started_any and self._on_ready is not None:
                self._on_ready()
            self._started_any = True
            return True
        if self._on_playing is not None:
            self._on_playing(worker.number, None)
        _, call, _index, *rest = msg
        task = worker.task
        self._release(worker)
        if call is None:
            log.debug("worker %d traceback:\n%s", worker.number, rest[1])
            self._fail(f"worker {worker.number} failed to start: {rest[0]}")
        elif call != self._call:
            log.debug("worker %d: %s finished after its call ended; dropped", worker.number, task)
        elif kind == "done":
            self._left -= 1
            self._results.append((task, rest[0]))
        else:
            log.debug("worker %d traceback:\n%s", worker.number, rest[1])
            self._fail(f"{task} failed: {rest[0]}")
        return True

    def _ended(self, worker: _Worker) -> None:
        """``worker``'s process has exited."""
        while worker.conn.poll() and self._message(worker):
            pass  # messages sent before it exited
        self._alive.remove(worker)
        worker.process.join(_JOIN_SECONDS)
        died = f"worker {worker.number} (pid {worker.process.pid}) died with exit code " \
               f"{worker.process.exitcode}"
        task, mine = worker.task, worker.call == self._call
        if task is not None:
            self._release(worker)
            if not mine:
                log.warning("%s while on %s, of a call that had ended", died, task)
            elif self._failure is None and self._attempts.get(task.index, 0) < self.job.retries:
                self._attempts[task.index] = self._attempts.get(task.index, 0) + 1
                log.warning("%s while on %s; it runs again on a new worker", died, task)
                self._pending.appendleft(task)
            else:
                self._fail(f"{died} while playing {task}")
                return
        elif worker.stopping:
            return
        elif not (self.job.retries and worker.ready):
            self._fail(f"{died} {'between tasks' if worker.ready else 'while starting'}")
            return
        else:
            log.warning("%s between tasks", died)
        self._spawn(worker.number, 1)

    # -------------------------------------------------------------- closing

    def close(self) -> None:
        """Stop every worker (one still on a task at once: nobody waits for it) and the
        log sink, once the workers' records are in."""
        deadline = time.monotonic() + _JOIN_SECONDS
        for worker in self._alive:
            if worker.process.is_alive() and worker.task is None and not worker.stopping:
                worker.stopping = True
                try:
                    worker.conn.send(None)
                except OSError:
                    pass
        for worker in self._workers:
            worker.process.join(max(0.0, deadline - time.monotonic()) if worker.task is None else 0)
            if worker.process.is_alive():
                worker.process.terminate()
                worker.process.join(_JOIN_SECONDS)
            worker.conn.close()
        if self._sink is not None:
            self._sink.close()
            self._sink = None


class InlinePool(Serving):
    """A job's one local worker as this process: no warm-up (its first task loads the
    kernels, as a command valuing one deal does), nothing to die but this process."""

    def __init__(self, job, memory: int, on_ready=None, on_playing=None) -> None:
        from golfstats.cores import share_cores

        share_cores(1)  # the one worker: its value pass on every core
        self.job, self._memory = job, memory
        self._on_ready, self._on_playing = on_ready, on_playing

    def stream(self, tasks, deadline=None):
        check_fits(self.job, tasks, self._memory, "this machine")
        if self._on_ready is not None and tasks:
            self._on_ready()
            self._on_ready = None
        on_step = None if self._on_playing is None else (lambda *what: self._on_playing(0, *what))
        for task in tasks:
            try:
                result = self.job.run(task, on_step, lambda: True)
            except SimError:
                raise
            except Exception as exc:
                log.debug("%s failed", task, exc_info=True)
                raise SimError(f"{task} failed: {describe(exc)}") from exc
            yield task, result


class LocalWorkers(Workers):
    """``workers`` spawned processes on this machine whose tasks share ``memory`` bytes
    (default ``local_memory()``; unbounded where the platform does not say); one worker of
    a job that allows it (``Job.inline``) is this process."""

    def __init__(self, workers: int, log_level: int | str, memory: int | None = None) -> None:
        self.slots = max(1, workers)
        self.largest_memory = (local_memory() or _UNBOUNDED) if memory is None else memory
        self.log_level = log_level

    def serve(self, job, peers=None, on_ready=None, on_compile=None, on_playing=None):
        peers = min(self.slots, peers or self.slots)
        if self.slots == 1 and job.inline:
            return contextlib.nullcontext(InlinePool(job, self.largest_memory, on_ready, on_playing))
        return contextlib.closing(LocalPool(job, peers, self, on_ready, on_compile, on_playing))


_UNBOUNDED = 1 << 62
