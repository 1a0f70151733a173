"""Fault injection for the simulation tests: ``SimConfig.before_chunk`` functions.

They run in the worker processes (which import this module by name, ``tests/`` being on
their path), so each is a plain module-level function.
"""

from __future__ import annotations

import os
import signal

from golfstats.sim.plan import Chunk

#: The chunk a failing hook fails at.
FAILING_CHUNK = 2
#: The kill hook takes the whole run down when this chunk starts.
KILL_AT_CHUNK = 6


def raise_at_chunk(chunk: Chunk) -> None:
    if chunk.index == FAILING_CHUNK:
        raise RuntimeError(f"test hook made {chunk} fail")


def exit_at_chunk(chunk: Chunk) -> None:
    if chunk.index == FAILING_CHUNK:
        os._exit(3)


def kill_run_at_chunk(chunk: Chunk) -> None:
    """SIGKILL to the run's process group (the main process and every worker at once),
    as a power cut would; the run was started in a session of its own."""
    if chunk.index == KILL_AT_CHUNK:
        os.killpg(os.getpgid(0), signal.SIGKILL)


def slow_chunk(chunk: Chunk) -> None:
    """Half a second a chunk: a run long enough for a second writer to meet it."""
    import time

    time.sleep(0.5)


def kill_run_at_chunk_2(chunk: Chunk) -> None:
    """``kill_run_at_chunk`` when chunk 2 starts (a run of few chunks)."""
    if chunk.index == 2:
        os.killpg(os.getpgid(0), signal.SIGKILL)
