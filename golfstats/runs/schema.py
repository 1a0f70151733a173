"""The run directory's layout and columns: what ``golfstats simulate`` writes and every
reader reads.

::

    DIR/run.json                    configuration, versions, command, timings, status,
                                    and each part's and the summary's record (deals,
                                    rows, bytes, sha256: ``runs.check``)
    DIR/.golfstats.lock             while a process writes the folder (``golfstats.locks``)
    DIR/deals/part-000000.parquet   the rows of chunk 0 (one row per deal and policy)
    DIR/summary.parquet             one row per variant and policy (``runs.summary``)

A part appears under its final name only once it is complete (written to a temporary
name, then renamed), so a run killed at any moment leaves whole parts or none.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

DEALS_DIR = "deals"
RUN_JSON = "run.json"
SUMMARY = "summary.parquet"
RUN_FORMAT = 2  # version of the layout: 2 added truncated, win_p, expected_strokes, n_moves
TMP_SUFFIX = ".parquet.tmp"

#: Columns of a deal row and their Parquet types (small integers where the range allows:
#: strokes >= -19 (empty-start with two jokers leaves 19 stock cards) and <= 52, points <
#: 32768, at most 54 cards and 19 draws).
#: ``truncated``: a search budget cut the policy's work on this deal short (its figures
#: are then not a proven optimum; summaries count such deals apart).  ``win_p`` and
#: ``expected_strokes``: the deal's exact values under perfect honest play, for the
#: policies that compute them (null for the others and for truncated deals).
DEAL_SCHEMA: dict[str, pl.DataType] = {
    "run_id": pl.Categorical(),
    "seed": pl.Int64(),
    "deal_index": pl.Int64(),
    "variant": pl.Categorical(),
    "rules_version": pl.Categorical(),
    "policy": pl.Categorical(),
    "won": pl.Boolean(),
    "strokes": pl.Int8(),
    "points": pl.Int16(),
    "draws": pl.Int8(),
    "n_moves": pl.Int16(),
    "longest_chain": pl.Int8(),
    "states": pl.Int64(),
    "seconds": pl.Float64(),
    "truncated": pl.Boolean(),
    "win_p": pl.Float64(),
    "expected_strokes": pl.Float64(),
}

#: Deal columns a policy's play fills (the rest are the run's identity): what every
#: strategy's ``play_deals`` returns (``policies.strategies``; the compiled players' row
#: is ``kernels.constants.RESULT_ROW``).
PLAYED = ("won", "strokes", "points", "draws", "n_moves", "longest_chain", "states", "seconds",
          "truncated")
#: Deal columns only some policies fill (``PolicyInfo.values``); null elsewhere.
VALUES = ("win_p", "expected_strokes")

#: The columns of ``summary.parquet``, in order.
SUMMARY_SCHEMA: dict[str, pl.DataType] = {
    "variant": pl.String, "policy": pl.String, "n": pl.Int64, "truncated": pl.Int64,
    "wins": pl.Int64, "win_rate": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64,
    "mean_strokes": pl.Float64, "median_strokes": pl.Float64, "std_strokes": pl.Float64,
    "min_strokes": pl.Int64, "max_strokes": pl.Int64, "mean_points": pl.Float64,
    "mean_draws": pl.Float64, "mean_n_moves": pl.Float64, "mean_longest_chain": pl.Float64,
    "mean_states": pl.Float64, "max_states": pl.Int64, "cpu_seconds": pl.Float64,
    "n_win_p": pl.Int64, "mean_win_p": pl.Float64, "win_p_ci_low": pl.Float64,
    "win_p_ci_high": pl.Float64, "mean_expected_strokes": pl.Float64,
    "stroke_hist": pl.List(pl.Struct({"strokes": pl.Int64, "count": pl.Int64})),
}


#: The summary columns every reader may count on (the study's committed summary keeps
#: these and the honest-value columns); a reader fills the others with nulls.
SUMMARY_CORE = ("variant", "policy", "n", "truncated", "wins", "win_rate", "ci_low", "ci_high",
                "mean_strokes", "median_strokes", "mean_points", "stroke_hist")


def part_name(index: int) -> str:
    return f"part-{index:06d}.parquet"


def part_path(deals_dir: Path | str, index: int) -> Path:
    return Path(deals_dir) / part_name(index)
