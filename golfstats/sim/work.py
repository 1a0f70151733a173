"""One unit of work: play a chunk of deals with every policy, as rows of a polars frame.

Runs in a worker process (local pool or dask worker); imports numba kernels there.
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass

import numpy as np
import polars as pl

from golfstats.sim.plan import Chunk, RunSpec

log = logging.getLogger("golfstats.sim")

#: Test hooks (environment, read in the worker): make a chunk fail, or slow chunks down.
FAIL_CHUNK_ENV = "GOLFSTATS_TEST_FAIL_CHUNK"  # "<index>" raises; "<index>:exit" kills the worker
DELAY_ENV = "GOLFSTATS_TEST_CHUNK_DELAY"  # seconds to sleep before each chunk


@dataclass(frozen=True)
class ChunkDone:
    """What a worker reports about a finished chunk (the rows are on disk)."""

    index: int
    rows: int
    seconds: float


def _test_hooks(chunk: Chunk) -> None:
    delay = os.environ.get(DELAY_ENV)
    if delay:
        time.sleep(float(delay))
    target = os.environ.get(FAIL_CHUNK_ENV)
    if not target:
        return
    index, _, how = target.partition(":")
    if int(index) == chunk.index:
        if how == "exit":
            log.warning("test hook: worker exits abruptly in %s", chunk)
            os._exit(3)
        raise RuntimeError(f"test hook {FAIL_CHUNK_ENV} made {chunk} fail")


def play_chunk(spec: RunSpec, chunk: Chunk) -> pl.DataFrame:
    """Rows of ``chunk`` (``runs.DEAL_SCHEMA``): every policy on deals ``chunk.start ..
    chunk.stop-1``, policy by policy in ``spec.policies`` order, deals in index order.
    Same deals for every policy."""
    from golfstats.deals import seeded_deals
    from golfstats.policies import play_deals
    from golfstats.runs.write import deal_rows

    _test_hooks(chunk)
    batch = seeded_deals(spec.rules, spec.seed, chunk.start, chunk.count)
    results = []
    for policy in spec.policies:
        started = time.perf_counter()
        results.append((policy.spec, play_deals(spec.rules, policy, batch, spec.goal)))
        log.debug("%s: %s played %d deals in %.3f s", chunk, policy.spec, chunk.count,
                  time.perf_counter() - started)
    identity = {"run_id": spec.run_id, "seed": spec.seed, "variant": spec.rules.id,
                "rules_version": spec.rules_version}
    return deal_rows(results, np.arange(chunk.start, chunk.stop, dtype=np.int64), identity)


def warm_up(spec: RunSpec) -> float:
    """Load (or compile) the kernels of every policy in this process; returns seconds."""
    from golfstats.deals import seeded_deals
    from golfstats.policies import play_deals

    started = time.perf_counter()
    batch = seeded_deals(spec.rules, spec.seed, 0, 2)
    for policy in spec.policies:
        play_deals(spec.rules, policy, batch, spec.goal)
    return time.perf_counter() - started


def play_and_write(spec: RunSpec, chunk: Chunk) -> ChunkDone:
    """Play ``chunk`` and write its part atomically (local workers share the run's disk)."""
    from golfstats.runs.write import write_part

    started = time.perf_counter()
    rows = play_chunk(spec, chunk)
    write_part(rows, spec.deals_dir, chunk.index, spec.part_metadata(chunk))
    return ChunkDone(chunk.index, rows.height, time.perf_counter() - started)
