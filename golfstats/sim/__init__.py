"""Simulation runs: many seeded deals, every policy on each (a paired design), over a
local process pool or a dask.distributed cluster, into Parquet.

    from golfstats.sim import SimConfig, run_simulation, summarize

    run_dir = run_simulation(SimConfig(rules, policies, n=10_000, seed=2026))
    summary = polars.read_parquet(run_dir / "summary.parquet")

``run_simulation`` writes ``deals/part-*.parquet`` (one row per deal and policy),
``summary.parquet`` (one row per variant and policy, see ``summarize``) and
``run.json`` in the run directory; rows do not depend on the worker count, the chunk
size or the backend, and an interrupted run is finished with ``resume=True``.
"""

from golfstats.sim.plan import (
    DEFAULT_POLICIES,
    DEFAULT_SEED,
    Chunk,
    SimConfig,
    SimError,
    auto_chunk_size,
    default_out_dir,
    plan_chunks,
    policies_from_names,
)
from golfstats.sim.run import run_simulation
from golfstats.sim.work import DEAL_SCHEMA
from golfstats.sim.writer import DEALS_DIR, RUN_JSON, SUMMARY, summarize

__all__ = [
    "DEALS_DIR", "DEAL_SCHEMA", "DEFAULT_POLICIES", "DEFAULT_SEED", "RUN_JSON", "SUMMARY", "Chunk",
    "SimConfig", "SimError", "auto_chunk_size", "default_out_dir", "plan_chunks",
    "policies_from_names", "run_simulation", "summarize",
]
