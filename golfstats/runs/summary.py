"""``summary.parquet``: one row per variant and policy, aggregated from deal rows.

Deals whose policy's work was cut short by a search budget (``truncated``) are counted
apart and left out of every other figure (as Solvitaire reports its timeouts), so the
win rates and intervals speak only of deals the policy played out in full.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from golfstats.runs.schema import SUMMARY_SCHEMA
from golfstats.stats import Z95, wilson

_KEYS = ["variant", "policy"]


def summarize(deals: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
    """One row per variant and policy from deal rows (a frame, or a lazy scan of parts).

    Columns (``SUMMARY_SCHEMA``): ``n`` deals and ``truncated`` of them; over the other
    ``n - truncated``: ``wins``, ``win_rate``, ``ci_low`` and ``ci_high`` (Wilson 95%),
    ``mean_strokes``, ``median_strokes`` (the mean of the two middle values when the
    count is even), ``std_strokes``, ``min_strokes``, ``max_strokes``, ``mean_points``,
    ``mean_draws``, ``mean_n_moves``, ``mean_longest_chain``, ``mean_states``,
    ``max_states``, ``cpu_seconds`` (sum of the ``seconds`` column, all deals) and
    ``stroke_hist``, a list of ``{strokes, count}`` sorted by strokes.  For policies that
    give each deal its exact honest values: ``n_win_p`` deals with a value,
    ``mean_win_p`` with its 95% interval ``win_p_ci_low``..``win_p_ci_high`` (mean +/-
    1.96 standard errors, the sample standard deviation over sqrt(n_win_p): the central
    limit theorem for a mean of values in [0, 1]), and ``mean_expected_strokes``; null
    for the others.  Sorted by variant, then policy.

    A lazy input is aggregated by polars' streaming engine into small tables (the sums,
    and the counts per stroke value), so memory does not grow with the rows; the median
    comes from the stroke counts.
    """
    lf = deals.lazy()
    resolved = ~pl.col("truncated")
    strokes = pl.col("strokes").cast(pl.Int64)
    kept = strokes.filter(resolved)
    sums = lf.group_by(_KEYS).agg(
        n=pl.len().cast(pl.Int64),
        truncated=pl.col("truncated").cast(pl.Int64).sum(),
        wins=pl.col("won").filter(resolved).cast(pl.Int64).sum(),
        mean_strokes=kept.cast(pl.Float64).mean(),
        std_strokes=kept.cast(pl.Float64).std(),
        min_strokes=kept.min(),
        max_strokes=kept.max(),
        mean_points=pl.col("points").filter(resolved).cast(pl.Float64).mean(),
        mean_draws=pl.col("draws").filter(resolved).cast(pl.Float64).mean(),
        mean_n_moves=pl.col("n_moves").filter(resolved).cast(pl.Float64).mean(),
        mean_longest_chain=pl.col("longest_chain").filter(resolved).cast(pl.Float64).mean(),
        mean_states=pl.col("states").filter(resolved).cast(pl.Float64).mean(),
        max_states=pl.col("states").cast(pl.Int64).max(),
        cpu_seconds=pl.col("seconds").cast(pl.Float64).sum(),
        n_win_p=pl.col("win_p").count().cast(pl.Int64),
        mean_win_p=pl.col("win_p").mean(),
        std_win_p=pl.col("win_p").std(),
        mean_expected_strokes=pl.col("expected_strokes").mean(),
    )
    counts = (lf.filter(resolved).group_by([*_KEYS, strokes.alias("strokes")])
              .agg(count=pl.len().cast(pl.Int64)))
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
    played = out["n"] - out["truncated"]
    bounds = [wilson(w, n) if n else (None, None) for w, n in zip(out["wins"], played, strict=True)]
    half = pl.col("std_win_p").fill_null(0.0) * Z95 / pl.col("n_win_p").cast(pl.Float64).sqrt()
    out = out.with_columns(
        win_rate=pl.when(pl.col("n") > pl.col("truncated"))
        .then(pl.col("wins") / (pl.col("n") - pl.col("truncated"))),
        ci_low=pl.Series([lo for lo, _ in bounds], dtype=pl.Float64),
        ci_high=pl.Series([hi for _, hi in bounds], dtype=pl.Float64),
        win_p_ci_low=pl.when(pl.col("n_win_p") > 0).then((pl.col("mean_win_p") - half).clip(0.0, 1.0)),
        win_p_ci_high=pl.when(pl.col("n_win_p") > 0).then((pl.col("mean_win_p") + half).clip(0.0, 1.0)),
    )
    return out.select([pl.col(c).cast(t) for c, t in SUMMARY_SCHEMA.items()])


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
