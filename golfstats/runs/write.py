"""Writing a run directory (``runs.schema``): deal rows, parts, the summary, JSON files.

Every file goes through ``golfstats.atomic`` (a temporary name, then a rename), and a part
or the summary is written with its record for run.json (``part_record``: its deals, rows,
bytes and sha256), which every reader checks it against (``runs.read``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from golfstats.atomic import sha256_of, write_parquet
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


def write_part(rows: pl.DataFrame, deals_dir: Path | str, index: int, metadata: dict[str, str]
               ) -> dict:
    """Write the rows of chunk ``index`` atomically (a temporary file, then a rename);
    returns its record for run.json (``part_record``), the digest of the bytes written."""
    final = write_parquet(part_path(deals_dir, index), rows, compression="zstd", metadata=metadata)
    deals = int(metadata.get("golfstats.deal_stop", 0)) - int(metadata.get("golfstats.deal_start", 0))
    return {"name": final.name, **part_record(final, deals, rows.height)}


def part_record(path: Path, deals: int, rows: int) -> dict:
    """What run.json keeps of a part: its deals and rows, its size and the sha256 of its
    bytes (a part that differs in any byte is not the one the run wrote)."""
    return {"deals": deals, "rows": rows, "bytes": Path(path).stat().st_size,
            "sha256": sha256_of(path)}


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


def write_summary(summary: pl.DataFrame, path: Path, metadata: dict[str, str]) -> dict:
    """Write ``summary.parquet`` atomically; returns its record for run.json (bytes, sha256)."""
    write_parquet(path, summary, metadata=metadata)
    return {"bytes": path.stat().st_size, "sha256": sha256_of(path)}
