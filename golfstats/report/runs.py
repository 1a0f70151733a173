"""Reading what ``golfstats simulate`` writes: run directories, their summaries and deal rows.

A *run directory* holds ``summary.parquet`` (one row per variant and policy),
``deals/part-*.parquet`` (one row per deal and policy) and ``run.json``.  The
study's committed ``results/`` directory has the same ``summary.parquet`` but no
deal rows; everything that needs only the summary (tables, charts, par) works on
it too.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from golfstats.policies import REGISTRY, PolicyError, parse_policy

#: The columns of ``summary.parquet`` (the simulate contract), in order.
SUMMARY_SCHEMA: dict[str, pl.DataType] = {
    "variant": pl.String, "policy": pl.String, "n": pl.Int64, "wins": pl.Int64,
    "win_rate": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64,
    "mean_strokes": pl.Float64, "median_strokes": pl.Float64, "mean_points": pl.Float64,
    "stroke_hist": pl.List(pl.Struct({"strokes": pl.Int64, "count": pl.Int64})),
}

#: The columns of the deal rows that the reports read.
DEAL_COLUMNS = ("seed", "deal_index", "variant", "policy", "won", "strokes", "points", "seconds")

_KINGS = ("strict", "queens-on-kings", "putt-putt")
_OPTIONS = ("", "+empty-start", "+jokers2", "+jokers2+empty-start")
#: Display order of variants: each king rule with its options, then the stockless games.
VARIANT_ORDER = tuple(k + o for k in _KINGS for o in _OPTIONS) + ("black-hole", "all-in-a-row")


class ReportError(ValueError):
    """Input the reports cannot use: a missing run directory, an unknown policy, ..."""


def variant_key(variant: str) -> tuple[int, str]:
    """Sort key: the study's order first, any other variant after, alphabetically."""
    return (VARIANT_ORDER.index(variant) if variant in VARIANT_ORDER else len(VARIANT_ORDER), variant)


def policy_key(spec: str) -> tuple[int, str]:
    """Sort key: the registry's order (random, greedy, lookahead, sampling, exact)."""
    name = spec.partition(":")[0]
    names = list(REGISTRY)
    return (names.index(name) if name in names else len(names), spec)


def is_honest(spec: str) -> bool:
    """True for a player that does not see the stock order (every policy but ``exact``)."""
    info = REGISTRY.get(spec.partition(":")[0])
    return bool(info and info.honest)


def order(df: pl.DataFrame) -> pl.DataFrame:
    """Rows sorted by variant then policy, in display order."""
    if df.is_empty():
        return df
    keys = df.select(
        pl.col("variant").map_elements(lambda v: variant_key(v)[0], return_dtype=pl.Int64).alias("_v"),
        pl.col("policy").map_elements(lambda p: policy_key(p)[0], return_dtype=pl.Int64).alias("_p"))
    return (pl.concat([df, keys], how="horizontal")
            .sort(["_v", "variant", "_p", "policy"]).drop(["_v", "_p"]))


@dataclass(frozen=True)
class Run:
    """One run directory (or a directory holding only a ``summary.parquet``)."""

    path: Path
    summary: pl.DataFrame
    info: dict
    deal_files: tuple[Path, ...]

    @property
    def has_deals(self) -> bool:
        return bool(self.deal_files)

    def deals(self, columns: tuple[str, ...] = DEAL_COLUMNS) -> pl.DataFrame:
        """The deal rows (only ``columns``); raises ``ReportError`` when the run kept none."""
        if not self.deal_files:
            raise ReportError(f"{self.path} has no deal rows (deals/part-*.parquet); "
                              "this needs a run directory of `golfstats simulate`")
        return pl.read_parquet(list(self.deal_files), columns=list(columns))


def load_run(path: Path | str) -> Run:
    """Read a run directory.  Without ``summary.parquet`` the summary is computed from
    the deal rows (simulate's own ``summarize``); with neither, ``ReportError``."""
    from golfstats.sim.writer import summarize

    path = Path(path)
    if not path.is_dir():
        raise ReportError(f"no such run directory: {path}")
    deal_files = tuple(sorted((path / "deals").glob("part-*.parquet")))
    summary_file = path / "summary.parquet"
    if summary_file.is_file():
        summary = pl.read_parquet(summary_file)
        missing = [c for c in SUMMARY_SCHEMA if c not in summary.columns]
        if missing:
            raise ReportError(f"{summary_file} lacks the columns {', '.join(missing)}")
    elif deal_files:
        summary = summarize(pl.scan_parquet([str(f) for f in deal_files]))
    else:
        raise ReportError(f"{path} is not a run directory (no summary.parquet, no deals/part-*.parquet)")
    info: dict = {}
    if (path / "run.json").is_file():
        try:
            info = json.loads((path / "run.json").read_text())
        except (OSError, ValueError) as exc:
            raise ReportError(f"cannot read {path / 'run.json'}: {exc}") from None
    summary = summary.select([pl.col(c).cast(t) for c, t in SUMMARY_SCHEMA.items()])
    return Run(path, order(summary), info, deal_files)


def load_runs(paths) -> list[Run]:
    if not paths:
        raise ReportError("give at least one run directory")
    return [load_run(p) for p in paths]


def merge_summaries(runs: list[Run]) -> pl.DataFrame:
    """All runs' summary rows; where several runs hold the same variant and policy, the
    row with the most deals is kept (the study runs sampling on fewer deals)."""
    frames = [r.summary for r in runs]
    merged = pl.concat(frames, how="vertical") if frames else pl.DataFrame(schema=SUMMARY_SCHEMA)
    merged = merged.sort("n", descending=True).unique(["variant", "policy"], keep="first")
    return order(merged)


def merge_deals(runs: list[Run], columns: tuple[str, ...] = DEAL_COLUMNS) -> pl.DataFrame:
    """The deal rows of every run that kept them; ``ReportError`` if none did."""
    frames = [r.deals(columns) for r in runs if r.has_deals]
    if not frames:
        raise ReportError("none of the given directories has deal rows (deals/part-*.parquet)")
    if len(frames) == 1:
        return frames[0]
    return pl.concat(frames, how="vertical").unique(["variant", "policy", "seed", "deal_index"],
                                                     keep="first", maintain_order=True)


def resolve_policy(text: str, present) -> str:
    """The canonical spec of ``text`` (``lookahead:depth=1`` -> ``lookahead``), checked to be
    among ``present``; raises ``ReportError`` naming the policies that are."""
    present = sorted(set(present), key=policy_key)
    try:
        spec = parse_policy(text).spec
    except PolicyError as exc:
        raise ReportError(str(exc)) from None
    if spec not in present:
        raise ReportError(f"policy {spec} is not in the run; it has: {', '.join(present) or 'none'}")
    return spec


def best_honest(summary: pl.DataFrame, variant: str) -> str | None:
    """The honest policy with the lowest mean strokes on ``variant`` (ties: higher win rate),
    among those that played at least half as many deals as the most-played one (the study
    runs the slow sampling player on few deals; its figures are too rough to set par)."""
    rows = summary.filter(pl.col("variant") == variant)
    rows = rows.filter(pl.col("policy").map_elements(is_honest, return_dtype=pl.Boolean))
    if rows.is_empty():
        return None
    rows = rows.filter(pl.col("n") * 2 >= rows["n"].max())
    return rows.sort(["mean_strokes", "win_rate"], descending=[False, True])["policy"][0]


def find_repo_results(start: Path | None = None) -> Path | None:
    """The ``results/`` directory of the golfstats checkout above ``start`` (or the cwd)."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "pyproject.toml").is_file() and (folder / "results").is_dir():
            return folder / "results"
    return None


def example_source(env_var: str = "GOLFSTATS_RUN") -> Path | None:
    """Where the notebooks read from: the directory named by ``$GOLFSTATS_RUN``, else the
    committed ``results/`` if it holds a ``summary.parquet``, else None (make a small run)."""
    named = os.environ.get(env_var)
    if named:
        return Path(named)
    results = find_repo_results()
    if results is not None and (results / "summary.parquet").is_file():
        return results
    return None
