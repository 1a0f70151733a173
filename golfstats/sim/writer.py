"""The run directory on disk: Parquet parts written atomically, the summary, ``run.json``.

::

    DIR/run.json                    configuration, versions, command, timings, status
    DIR/deals/part-000000.parquet   the rows of chunk 0 (one row per deal and policy)
    DIR/summary.parquet             one row per variant and policy

A part appears under its final name only once it is complete (written to a temporary
name, then renamed), so a run killed at any moment leaves whole parts or none.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import polars as pl

from golfstats.sim.plan import Chunk, RunSpec
from golfstats.stats import wilson

DEALS_DIR = "deals"
RUN_JSON = "run.json"
SUMMARY = "summary.parquet"
_TMP_SUFFIX = ".parquet.tmp"


def part_name(index: int) -> str:
    return f"part-{index:06d}.parquet"


def part_path(deals_dir: Path | str, index: int) -> Path:
    return Path(deals_dir) / part_name(index)


def chunk_metadata(spec: RunSpec, chunk: Chunk) -> dict[str, str]:
    """Parquet key-value metadata of a part: the run's, plus which deals it holds."""
    meta = dict(spec.metadata)
    meta.update({"golfstats.chunk": str(chunk.index), "golfstats.deal_start": str(chunk.start),
                 "golfstats.deal_stop": str(chunk.stop)})
    return meta


def write_part(rows: pl.DataFrame, spec: RunSpec, chunk: Chunk) -> Path:
    """Write the rows of ``chunk`` atomically: a temporary file, then a rename."""
    final = part_path(spec.deals_dir, chunk.index)
    tmp = final.with_name(f".{final.stem}.{os.getpid()}{_TMP_SUFFIX}")
    rows.write_parquet(tmp, compression="zstd", metadata=chunk_metadata(spec, chunk))
    os.replace(tmp, final)
    return final


def part_is_valid(path: Path, run_id: str, chunk: Chunk, rows: int) -> bool:
    """Is ``path`` a complete part of this run's ``chunk`` with ``rows`` rows?"""
    try:
        meta = pl.read_parquet_metadata(path)
        if (meta.get("golfstats.run_id") != run_id
                or meta.get("golfstats.chunk") != str(chunk.index)
                or meta.get("golfstats.deal_start") != str(chunk.start)
                or meta.get("golfstats.deal_stop") != str(chunk.stop)):
            return False
        return pl.scan_parquet(path).select(pl.len()).collect().item() == rows
    except Exception:  # unreadable, truncated or foreign: the chunk is played again
        return False


def remove_temporaries(deals_dir: Path) -> int:
    """Delete temporary parts left by a killed run; returns how many."""
    count = 0
    for tmp in deals_dir.glob(f".part-*{_TMP_SUFFIX}"):
        tmp.unlink(missing_ok=True)
        count += 1
    return count


def write_json(path: Path, data: dict) -> None:
    """Write JSON atomically (temporary file, then rename)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=False) + "\n")
    os.replace(tmp, path)


# ------------------------------------------------------------------ summary

_KEYS = ["variant", "policy"]


def summarize(deals: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
    """One row per variant and policy from deal rows (a frame, or a lazy scan of parts).

    Columns: ``variant``, ``policy``, ``n``, ``wins``, ``win_rate``, ``ci_low`` and
    ``ci_high`` (Wilson 95%), ``mean_strokes``, ``median_strokes`` (the mean of the two
    middle values when n is even, as polars' ``median``), ``std_strokes``,
    ``min_strokes``, ``max_strokes``, ``mean_points``, ``mean_draws``, ``mean_moves``,
    ``mean_longest_chain``, ``mean_states``, ``max_states``, ``cpu_seconds`` (sum of the
    ``seconds`` column) and ``stroke_hist``: a list of ``{strokes, count}`` sorted by
    strokes.  Sorted by variant, then policy.

    A lazy input is aggregated by polars' streaming engine into two small tables (the
    sums, and the counts per stroke value), so memory does not grow with the rows;
    the median comes from the stroke counts.
    """
    lf = deals.lazy()
    strokes = pl.col("strokes").cast(pl.Int64)
    sums = lf.group_by(_KEYS).agg(
        n=pl.len().cast(pl.Int64),
        wins=pl.col("won").cast(pl.Int64).sum(),
        mean_strokes=strokes.cast(pl.Float64).mean(),
        std_strokes=strokes.cast(pl.Float64).std(),
        min_strokes=strokes.min(),
        max_strokes=strokes.max(),
        mean_points=pl.col("points").cast(pl.Float64).mean(),
        mean_draws=pl.col("draws").cast(pl.Float64).mean(),
        mean_moves=pl.col("moves").cast(pl.Float64).mean(),
        mean_longest_chain=pl.col("longest_chain").cast(pl.Float64).mean(),
        mean_states=pl.col("states").cast(pl.Float64).mean(),
        max_states=pl.col("states").cast(pl.Int64).max(),
        cpu_seconds=pl.col("seconds").cast(pl.Float64).sum(),
    )
    counts = lf.group_by([*_KEYS, strokes.alias("strokes")]).agg(count=pl.len().cast(pl.Int64))
    # two separate streaming passes: collect_all would share (cache) the whole scan
    as_text = pl.col(_KEYS).cast(pl.String)
    sums = sums.collect(engine="streaming").with_columns(as_text)
    counts = counts.collect(engine="streaming").with_columns(as_text).sort([*_KEYS, "strokes"])
    hist = counts.group_by(_KEYS, maintain_order=True).agg(stroke_hist=pl.struct("strokes", "count"))
    medians = pl.DataFrame(
        [(*key, _median_of_counts(group["strokes"].to_list(), group["count"].to_list()))
         for key, group in counts.group_by(_KEYS, maintain_order=True)],
        schema={"variant": pl.String, "policy": pl.String, "median_strokes": pl.Float64},
        orient="row")
    hist = hist.join(medians, on=_KEYS, how="left")
    out = sums.join(hist, on=_KEYS, how="left").sort(_KEYS)
    bounds = [wilson(w, n) for w, n in zip(out["wins"], out["n"], strict=True)]
    out = out.with_columns(
        win_rate=pl.col("wins") / pl.col("n"),
        ci_low=pl.Series([lo for lo, _ in bounds], dtype=pl.Float64),
        ci_high=pl.Series([hi for _, hi in bounds], dtype=pl.Float64),
    )
    order = ["variant", "policy", "n", "wins", "win_rate", "ci_low", "ci_high", "mean_strokes",
             "median_strokes", "std_strokes", "min_strokes", "max_strokes", "mean_points",
             "mean_draws", "mean_moves", "mean_longest_chain", "mean_states", "max_states",
             "cpu_seconds", "stroke_hist"]
    return out.select(order)


def _median_of_counts(values: list[int], counts: list[int]) -> float:
    """Median of ``values`` (sorted) each seen ``counts`` times."""
    total = sum(counts)
    lo_pos, hi_pos = (total - 1) // 2, total // 2
    lo = hi = None
    seen = 0
    for value, count in zip(values, counts, strict=True):
        seen += count
        if lo is None and seen > lo_pos:
            lo = value
        if seen > hi_pos:
            hi = value
            break
    return (lo + hi) / 2


def summarize_parts(paths: list[Path]) -> pl.DataFrame:
    """``summarize`` over Parquet parts, by a lazy (streaming) scan."""
    return summarize(pl.scan_parquet([str(p) for p in paths]))


def write_summary(summary: pl.DataFrame, path: Path, metadata: dict[str, str]) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    summary.write_parquet(tmp, metadata=metadata)
    os.replace(tmp, path)
