"""Simulation runs: many seeded deals, every policy on each (a paired design), over a
local process pool or a dask.distributed cluster, into a run directory (``golfstats.runs``).

    from golfstats.sim import SimConfig, run_simulation

    run_dir = run_simulation(SimConfig(rules, policies, n=10_000, seed=2026))
    summary = polars.read_parquet(run_dir / "summary.parquet")

``run_simulation`` writes ``deals/part-*.parquet`` (one row per deal and policy),
``summary.parquet`` (one row per variant and policy, ``runs.summarize``) and
``run.json`` in the run directory; rows do not depend on the worker count, the chunk
size or the backend, and an interrupted run is finished with ``resume=True``.
``run_or_reuse`` reuses a complete run, finishes a partial one, or makes it.
"""

from golfstats.sim.plan import (
    Backend,
    Chunk,
    SimConfig,
    SimError,
    auto_chunk_size,
    default_out_dir,
    plan_chunks,
)

__all__ = ["Backend", "Chunk", "SimConfig", "SimError", "auto_chunk_size", "default_out_dir",
           "plan_chunks", "run_or_reuse", "run_simulation"]


def __getattr__(name: str):
    """``run_simulation`` and ``run_or_reuse`` are imported on first use: they bring polars,
    and the command line reads ``Backend`` from here for its help, which must stay fast."""
    if name in ("run_or_reuse", "run_simulation"):
        from golfstats.sim import run

        return getattr(run, name)
    raise AttributeError(f"module 'golfstats.sim' has no attribute {name!r}")
