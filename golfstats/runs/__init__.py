"""The run directory: one contract between what writes it (``golfstats.sim``) and what
reads it (``golfstats.report``, ``golfstats.study``, the notebooks).

``runs.schema`` fixes the layout and columns, ``runs.write`` writes parts and files,
``runs.summary`` aggregates deal rows into ``summary.parquet``, ``runs.read`` loads run
directories.  Readers never launch a simulation (``golfstats.sim.run_or_reuse`` does).
"""

from golfstats.runs.read import (
    DEAL_COLUMNS,
    VARIANT_ORDER,
    Run,
    RunError,
    RunQueryError,
    best_honest,
    example_source,
    find_repo_results,
    load_run,
    load_runs,
    merge_deals,
    merge_summaries,
    order,
    resolve_policy,
    unfinished_note,
    variant_key,
)
from golfstats.runs.schema import DEAL_SCHEMA, DEALS_DIR, RUN_JSON, SUMMARY, SUMMARY_SCHEMA
from golfstats.runs.summary import summarize, summarize_parts

__all__ = ["DEALS_DIR", "DEAL_COLUMNS", "DEAL_SCHEMA", "RUN_JSON", "SUMMARY", "SUMMARY_SCHEMA",
           "VARIANT_ORDER", "Run", "RunError", "RunQueryError", "best_honest", "example_source",
           "find_repo_results", "load_run", "load_runs", "merge_deals", "merge_summaries", "order",
           "resolve_policy", "summarize", "summarize_parts", "unfinished_note", "variant_key"]
