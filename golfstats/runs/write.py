"""Writing a run directory (``runs.schema``): deal rows, parts, the summary, JSON files."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import polars as pl

from golfstats.runs.schema import DEAL_SCHEMA, PLAYED, TMP_SUFFIX, VALUES, part_path


def deal_rows(results: list[tuple[str, dict]], deal_index: np.ndarray, identity: dict) -> pl.DataFrame:
    """Deal rows in ``DEAL_SCHEMA`` from each policy's ``play_deals`` result, policy by
    policy in the given order.  ``identity`` holds run_id, seed, variant, rules_version.
    Value columns a policy does not fill are null; the casts are strict, so a value out
    of range of its small type raises instead of wrapping."""
    frames = []
    for spec, result in results:
        columns = {"deal_index": pl.Series(deal_index)}
        columns.update({key: pl.Series(result[key]) for key in PLAYED})
        for key in VALUES:
            # a value column may hold None (an unresolved deal): read it item by item
            values = list(result[key]) if key in result else [None] * len(deal_index)
            columns[key] = pl.Series(values, dtype=pl.Float64)
        frames.append(pl.DataFrame(columns).with_columns(
            policy=pl.lit(spec), **{k: pl.lit(v) for k, v in identity.items()}))
    rows = pl.concat(frames, how="vertical")
    return rows.select(pl.col(name).cast(dtype, strict=True) for name, dtype in DEAL_SCHEMA.items())


def write_part(rows: pl.DataFrame, deals_dir: Path | str, index: int, metadata: dict[str, str]) -> Path:
    """Write the rows of chunk ``index`` atomically: a temporary file, then a rename."""
    final = part_path(deals_dir, index)
    tmp = final.with_name(f".{final.stem}.{os.getpid()}{TMP_SUFFIX}")
    rows.write_parquet(tmp, compression="zstd", metadata=metadata)
    os.replace(tmp, final)
    return final


def part_is_valid(path: Path, run_id: str, index: int, start: int, stop: int, rows: int) -> bool:
    """Is ``path`` a complete part of this run's chunk ``index`` (deals start..stop-1) with
    ``rows`` rows?"""
    try:
        meta = pl.read_parquet_metadata(path)
        if (meta.get("golfstats.run_id") != run_id
                or meta.get("golfstats.chunk") != str(index)
                or meta.get("golfstats.deal_start") != str(start)
                or meta.get("golfstats.deal_stop") != str(stop)):
            return False
        return pl.scan_parquet(path).select(pl.len()).collect().item() == rows
    except Exception:  # unreadable, truncated or foreign: the chunk is played again
        return False


def remove_temporaries(deals_dir: Path) -> int:
    """Delete temporary parts left by a killed run; returns how many."""
    count = 0
    for tmp in deals_dir.glob(f".part-*{TMP_SUFFIX}"):
        tmp.unlink(missing_ok=True)
        count += 1
    return count


def write_json(path: Path, data: dict) -> None:
    """Write JSON atomically (temporary file, then rename)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=False) + "\n")
    os.replace(tmp, path)


def write_summary(summary: pl.DataFrame, path: Path, metadata: dict[str, str]) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    summary.write_parquet(tmp, metadata=metadata)
    os.replace(tmp, path)
