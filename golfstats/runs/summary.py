"""``summary.parquet``: one row per variant and policy, aggregated from deal rows.

Deals whose policy's work was cut short by a search budget (``truncated``) are counted
apart and left out of every other figure (as Solvitaire reports its timeouts), so the
win rates and intervals speak only of deals the policy played out in full.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from golfstats.runs.tally import summary_of, tally


def summarize(deals: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
    """One row per variant and policy from deal rows (a frame, or a lazy scan of parts),
    sorted by variant, then policy: ``summary_of(tally(deals))`` (``runs.tally``).

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
    for the others.

    A lazy input is aggregated by polars' streaming engine into small tables (the sums,
    and the counts per stroke value), so memory does not grow with the rows; the median
    comes from the stroke counts.
    """
    return summary_of(tally(deals))


def summarize_parts(paths: list[Path]) -> pl.DataFrame:
    """``summarize`` over Parquet parts, by a lazy (streaming) scan."""
    return summarize(pl.scan_parquet([str(p) for p in paths]))
