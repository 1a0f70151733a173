"""Reading run directories (``runs.schema``): their summaries and deal rows.

A *run directory* holds ``summary.parquet``, ``deals/part-*.parquet`` and ``run.json``.
The study's committed ``results/`` directory has the same ``summary.parquet`` but no
deal rows; everything that needs only the summary (tables, charts, par) works on it too.
Readers never run a simulation.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from golfstats.policies import PolicyError, is_honest, parse_policy, policy_order
from golfstats.rules import PLAIN_KING_RULES
from golfstats.runs.check import check_run
from golfstats.runs.errors import RunError, RunQueryError, why  # noqa: F401 (RunQueryError: re-exported)
from golfstats.runs.schema import DEALS_DIR, RUN_JSON, SUMMARY, SUMMARY_CORE, SUMMARY_SCHEMA

#: The columns of the deal rows that the reports read.
DEAL_COLUMNS = ("seed", "deal_index", "variant", "policy", "won", "strokes", "points", "seconds",
                "truncated", "win_p", "expected_strokes")

_OPTIONS = ("", "+empty-start", "+jokers2", "+jokers2+empty-start")
#: Display order of variants: each king rule with its options, then the stockless games.
VARIANT_ORDER = tuple(k + o for k in PLAIN_KING_RULES for o in _OPTIONS) + ("black-hole", "all-in-a-row")


def variant_key(variant: str) -> tuple[int, str]:
    """Sort key: the study's order first, any other variant after, alphabetically."""
    return (VARIANT_ORDER.index(variant) if variant in VARIANT_ORDER else len(VARIANT_ORDER), variant)


def order(df: pl.DataFrame) -> pl.DataFrame:
    """Rows sorted by variant then policy, in display order."""
    if df.is_empty():
        return df
    keys = df.select(
        pl.col("variant").map_elements(lambda v: variant_key(v)[0], return_dtype=pl.Int64).alias("_v"),
        pl.col("policy").map_elements(lambda p: policy_order(p)[0], return_dtype=pl.Int64).alias("_p"))
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

    @property
    def held(self) -> int:
        """Deals the run's rows hold (the most any of its policies played)."""
        return int(self.summary["n"].max() or 0) if self.summary.height else 0

    @property
    def unfinished(self) -> tuple[int, int] | None:
        """(deals held, deals planned) of a run that stopped before its end, else None."""
        planned = self.info.get("n")
        if not isinstance(planned, int) or self.held >= planned:
            return None
        return self.held, planned

    def deals(self, columns: tuple[str, ...] = DEAL_COLUMNS) -> pl.DataFrame:
        """The deal rows (only ``columns``); raises ``RunError`` when the run kept none."""
        if not self.deal_files:
            raise RunError(f"{self.path} has no deal rows ({DEALS_DIR}/part-*.parquet); "
                           "this needs a run directory of `golfstats simulate`")
        frames = [_read_parquet(f, columns=list(columns)) for f in self.deal_files]
        return frames[0] if len(frames) == 1 else pl.concat(frames, how="vertical")


def load_run(path: Path | str) -> Run:
    """Read a run directory.  Without ``summary.parquet`` the summary is computed from
    the deal rows (``runs.summarize``); with neither, ``RunError``.  The parts and the
    summary are first checked against run.json (``runs.check``): a missing, truncated or
    altered file is a ``RunError`` of one line naming it."""
    from golfstats.runs.summary import summarize

    path = Path(path)
    if not path.is_dir():
        raise RunError(f"no such run directory: {path}")
    deal_files = tuple(sorted((path / DEALS_DIR).glob("part-*.parquet")))
    summary_file = path / SUMMARY
    info: dict = {}
    if (path / RUN_JSON).is_file():
        try:
            info = json.loads((path / RUN_JSON).read_text())
        except (OSError, ValueError) as exc:
            raise RunError(f"cannot read {path / RUN_JSON}: {exc}") from None
        if not isinstance(info, dict):
            raise RunError(f"cannot read {path / RUN_JSON}: not a JSON object")
    check_run(path, info, deal_files)
    if summary_file.is_file():
        summary = _upgrade(_read_parquet(summary_file))
        missing = [c for c in SUMMARY_CORE if c not in summary.columns]
        if missing:
            raise RunError(f"{summary_file} lacks the columns {', '.join(missing)}")
        summary = summary.with_columns(pl.lit(None, dtype).alias(c) for c, dtype in
                                       SUMMARY_SCHEMA.items() if c not in summary.columns)
    elif deal_files:
        try:
            summary = summarize(pl.scan_parquet([str(f) for f in deal_files]))
        except (OSError, pl.exceptions.PolarsError) as exc:
            raise RunError(f"cannot read the deal rows of {path}: {_why(exc)}") from None
    else:
        raise RunError(f"{path} is not a run directory (no {SUMMARY}, no {DEALS_DIR}/part-*.parquet)")
    summary = summary.select([pl.col(c).cast(t) for c, t in SUMMARY_SCHEMA.items()])
    return Run(path, order(summary), info, deal_files)


_why = why


def _read_parquet(path: Path, columns=None) -> pl.DataFrame:
    try:
        return pl.read_parquet(path, columns=columns)
    except (OSError, pl.exceptions.PolarsError) as exc:
        raise RunError(f"cannot read {path}: {_why(exc)}") from None


#: Columns a summary written before run format 2 lacks, and what they were then.
_ADDED = {"truncated": pl.lit(0, pl.Int64), "n_win_p": pl.lit(0, pl.Int64)}


def _upgrade(summary: pl.DataFrame) -> pl.DataFrame:
    """A summary of an older run format in today's columns: no deal was flagged truncated
    then (searches that stopped at a budget were not reported), no policy gave exact
    honest values, and ``mean_moves`` was the mean move count."""
    if "mean_moves" in summary.columns and "mean_n_moves" not in summary.columns:
        summary = summary.rename({"mean_moves": "mean_n_moves"})
    return summary.with_columns(**{c: v for c, v in _ADDED.items() if c not in summary.columns})


def load_runs(paths) -> list[Run]:
    if not paths:
        raise RunError("give at least one run directory")
    return [load_run(p) for p in paths]


def unfinished_note(runs: list[Run]) -> str:
    """"unfinished: K of N deals (DIR)" for each run that stopped before its end, and one
    clause for the runs not yet begun (no rows of theirs: named, the first one at length),
    or ""."""
    notes, unplayed = [], []
    for run in runs:
        if run.unfinished is not None:
            held, planned = run.unfinished
            if held:
                notes.append(f"unfinished: {held:,} of {planned:,} deals ({run.path})")
            else:
                unplayed.append(run.path.name)
    if unplayed:
        more = f" and {len(unplayed) - 1} more" if len(unplayed) > 1 else ""
        notes.append(f"not yet played, so absent: {len(unplayed)} planned "
                     f"run{'s' if len(unplayed) > 1 else ''} ({unplayed[0]}{more})")
    return "; ".join(notes)


def merge_summaries(runs: list[Run]) -> pl.DataFrame:
    """All runs' summary rows; where several runs hold the same variant and policy, the
    row with the most deals is kept (the study runs slow players on fewer deals)."""
    frames = [r.summary for r in runs]
    merged = pl.concat(frames, how="vertical") if frames else pl.DataFrame(schema=SUMMARY_SCHEMA)
    merged = merged.sort("n", descending=True).unique(["variant", "policy"], keep="first")
    return order(merged)


def merge_deals(runs: list[Run], columns: tuple[str, ...] = DEAL_COLUMNS) -> pl.DataFrame:
    """The deal rows of every run that kept them; ``RunError`` if none did."""
    frames = [r.deals(columns) for r in runs if r.has_deals]
    if not frames:
        raise RunError(f"none of the given directories has deal rows ({DEALS_DIR}/part-*.parquet)")
    if len(frames) == 1:
        return frames[0]
    return pl.concat(frames, how="vertical").unique(["variant", "policy", "seed", "deal_index"],
                                                     keep="first", maintain_order=True)


def resolve_policy(text: str, present) -> str:
    """The canonical spec of ``text`` (``lookahead:depth=1`` -> ``lookahead``), checked to be
    among ``present``; raises ``RunError`` naming the policies that are."""
    present = sorted(set(present), key=policy_order)
    try:
        spec = parse_policy(text).spec
    except PolicyError as exc:
        raise RunQueryError(str(exc)) from None
    if spec not in present:
        raise RunQueryError(f"policy {spec} is not in the run; it has: {', '.join(present) or 'none'}")
    return spec


def best_honest(summary: pl.DataFrame, variant: str) -> str | None:
    """The honest policy with the lowest mean strokes on ``variant`` (ties: higher win rate),
    among those that played at least half as many deals as the most-played one (the study
    runs slow players on few deals; their figures are too rough to set par)."""
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
    if results is not None and (results / SUMMARY).is_file():
        return results
    return None
