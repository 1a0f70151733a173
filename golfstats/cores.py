"""The cores this process may use, and how a machine's cores are shared between worker
processes and the threads each one values a deal with (the machine used once, never
oversubscribed)."""

from __future__ import annotations

import os


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system says; else
    every core)."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def threads_per_process(processes: int, cores: int | None = None) -> int:
    """The threads each of ``processes`` processes values with so that all of them use
    ``cores`` (default ``available_cores()``) once: at least 1."""
    return max((cores or available_cores()) // max(int(processes), 1), 1)


_value_threads = 1


def value_threads() -> int:
    """The threads this process values a deal with when a bulk job's task does (1 unless
    ``share_cores`` said otherwise)."""
    return _value_threads


def share_cores(processes: int) -> None:
    """This process is one of ``processes`` worker processes on this machine (the local
    pool: each values with ``threads_per_process``; the calling process alone: every
    core)."""
    global _value_threads
    _value_threads = threads_per_process(processes)
