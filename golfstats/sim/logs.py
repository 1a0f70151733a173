"""Logging of a run: the run's log file, and worker records carried to the main process.

Workers are *spawned*, not forked: a forked child of a process whose polars or numba
thread pools are running can deadlock.  ``multiprocessing_logging.install_mp_handler``
only supports fork (it asserts the start method, and its queue belongs to the default
context), so this module uses its ``MultiProcessingHandler`` machinery with a queue of
the spawn context instead:

- in the main process ``WorkerLogSink`` (a ``MultiProcessingHandler``) owns the queue
  and its receiving thread, and hands every worker record to the main process's
  logger of the same name, so the records reach whatever handlers are configured
  there (the CLI's console, ``--log-file``, pytest's capture);
- in a worker ``install_worker_logging`` puts a ``_ToMain`` handler (the same class's
  formatting and sending) on the root logger.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing.queues
import threading
from collections.abc import Iterator
from pathlib import Path

from multiprocessing_logging import MultiProcessingHandler

LOGGER = "golfstats"
FILE_FORMAT = "%(asctime)s %(levelname)-7s %(processName)s %(name)s: %(message)s"


class _Relay(logging.Handler):
    """Hands a worker's record to the main process's logger of the same name."""

    def emit(self, record: logging.LogRecord) -> None:
        logger = logging.getLogger(record.name)
        if logger.isEnabledFor(record.levelno):
            logger.handle(record)


class _PipeQueue(multiprocessing.queues.Queue):
    """A queue whose ``qsize`` is 1 while a record waits in its pipe, else 0.

    ``MultiProcessingHandler.close`` waits until ``qsize() == 0``.  The base class counts
    records *put*; a worker killed between putting a record and writing it to the pipe
    leaves that count above zero for ever.  Once the workers have exited, the pipe holds
    every record that will arrive, so this count is the one that matters.
    """

    def qsize(self) -> int:
        return int(self._poll())


class WorkerLogSink(MultiProcessingHandler):
    """Receives the workers' records in the main process (``close`` once they have exited)."""

    def __init__(self, context) -> None:
        # MultiProcessingHandler.__init__ would make its queue in the default (fork)
        # context, which spawned workers cannot open; the rest of the class is reused.
        logging.Handler.__init__(self)
        self.sub_handler = _Relay()
        self.queue = _PipeQueue(-1, ctx=context)
        self._is_closed = False
        self._receive_thread = threading.Thread(target=self._receive, daemon=True,
                                                name="golfstats-worker-logs")
        self._receive_thread.start()


class _ToMain(MultiProcessingHandler):
    """In a worker: formats records as multiprocessing-logging does and queues them."""

    def __init__(self, queue) -> None:
        logging.Handler.__init__(self)
        self.queue = queue

    def close(self) -> None:
        logging.Handler.close(self)


def install_worker_logging(queue, level: int | str) -> None:
    """In a worker process: send every record of ``level`` or above to the main process."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    root.addHandler(_ToMain(queue))
    root.setLevel(logging.WARNING)
    logging.getLogger(LOGGER).setLevel(level)
    logging.captureWarnings(True)


@contextlib.contextmanager
def run_logging(log_file: Path | str | None, level: int | str) -> Iterator[None]:
    """For one run: the ``golfstats`` logger at ``level``, and a ``log_file`` (appended to)
    that receives the run's records, the workers' included.  Restored afterwards."""
    logger = logging.getLogger(LOGGER)
    previous = logger.level
    logger.setLevel(level)
    handler = None
    if log_file is not None:
        handler = logging.FileHandler(log_file, encoding="utf-8")
        handler.setFormatter(logging.Formatter(FILE_FORMAT))
        handler.setLevel(level)
        logger.addHandler(handler)
    try:
        yield
    finally:
        logger.setLevel(previous)
        if handler is not None:
            logger.removeHandler(handler)
            handler.close()
