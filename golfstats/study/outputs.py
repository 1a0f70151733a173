"""What the study keeps in ``results/``: summary, tables, charts, the HTML page, study.json
and a README.md that reads them (including par and published figures)."""

from __future__ import annotations

import os
import platform
import sys
import time
from dataclasses import asdict
from pathlib import Path

import polars as pl

from golfstats.atomic import write_json, write_parquet, write_text
from golfstats.policies import CLAIRVOYANT, OPTIMAL, PAR_REFERENCE, SAMPLING_POLICY
from golfstats.runs import Run, merge_summaries
from golfstats.study.plan import SAMPLING_VARIANTS
from golfstats.study.readme import compare_markdown, par_markdown, readme

#: Figures of the clairvoyant player that depend on which solver found its line (the
#: optimal line it picks, the states it examined; won, strokes and draws do not): left out
#: of the study, whose chunks may span solvers (kernels/solve.py chooses one per rule set).
SOLVER_FIGURES = ("mean_points", "mean_n_moves", "mean_longest_chain", "mean_states", "max_states")
#: The paired comparisons the study prints: (A, B) on the same deals.
COMPARED = ((CLAIRVOYANT, PAR_REFERENCE), (SAMPLING_POLICY, PAR_REFERENCE))


def comparisons_of(tallies) -> list:
    """The study's paired comparisons (``COMPARED``) from the runs' pair tallies."""
    from golfstats.report.compare import comparison_from_tally
    from golfstats.runs.tally import swapped

    out = []
    for t in tallies:
        for pair in t.pairs.to_dicts():
            if (pair["a"], pair["b"]) in COMPARED:
                out.append(comparison_from_tally(pair))
            elif (pair["b"], pair["a"]) in COMPARED:
                out.append(comparison_from_tally(swapped(pair)))
    return out


def _without_solver_figures(run: Run) -> Run:
    summary = run.summary.with_columns(
        pl.when(pl.col("policy") == CLAIRVOYANT).then(None).otherwise(pl.col(c)).alias(c)
        for c in SOLVER_FIGURES)
    return Run(run.path, summary, run.info, run.deal_files)


def write_outputs(config, result, started: float) -> list[Path]:
    """Write everything the study keeps under ``config.out`` from its ledger; returns the paths."""
    from golfstats.report import build_report, doc, html
    from golfstats.report.compare import comparison_table
    from golfstats.report.par import par_table
    from golfstats.report.tables import write_table
    from golfstats.study.ledger import LEDGER

    out = Path(config.out)
    runs = [_without_solver_figures(t.as_run(out / LEDGER)) for t in result.tallies]
    summary = merge_summaries(runs)
    from golfstats.study.optimum_tables import ladder_chart, with_optimum

    full = with_optimum(summary, result.optimum)  # the runs' rows and the optimum's
    write_parquet(out / "summary.parquet", full)
    for plan in result.plans:
        row = summary.filter((pl.col("variant") == plan.variant) & (pl.col("policy") == CLAIRVOYANT))
        if row.height:
            plan.achieved_half_width = float((row["ci_high"][0] - row["ci_low"][0]) / 2)

    # par of every player with a stroke distribution: the runs' players, and the honest
    # optimum from its play-outs (when it has any)
    pars = study_pars(summary.select("variant", "policy", "stroke_hist"), result.optimum)
    par_df = par_table(pars)
    cmp_df = comparison_table(comparisons_of(result.tallies))

    tables_dir = out / "tables"
    par_md = par_markdown(par_df)
    cmp_md = compare_markdown(cmp_df)
    write_table(par_df, tables_dir, "par", "Par for 9 and 18 holes, every variant and policy",
                "Round totals by exact convolution of the policy's per-hole stroke distribution; "
                "par = median round total; p_le_45 / p_le_90: share of rounds at or under the "
                "traditional par; parH_low..parH_high: the par's 95% interval from a bootstrap over "
                "whole deals, p_offH how often a resample's par is not parH (docs/rules.md, \"Par\").")
    write_table(cmp_df, tables_dir, "compare", "Paired comparisons (exact vs lookahead; sampling vs "
                "lookahead)", "Same deals; McNemar's test and Newcombe's paired interval; match "
                "play over consecutive deals (r9_/r18_ columns).")
    extra = [("Par for 9 and 18 holes (reference: lookahead)", html.paragraph(
        "Round totals by exact convolution of the per-hole stroke distribution; par = the median "
        "round total.") + _md_table_html(par_md)),
        ("Paired comparisons", _md_table_html(cmp_md))]
    from golfstats.report.charts import round_chart, save

    plain = [r for r in pars if r.policy == PAR_REFERENCE and r.variant in SAMPLING_VARIANTS]
    if plain:
        round_files = save(round_chart(plain), out / "charts", "par_rounds")
        extra.append(("Round totals and par", [doc.Figure(
            round_files[1], "round totals chart", "9- and 18-hole round totals of lookahead on the "
            "plain king rules; dashed: par (the median); dotted: traditional par.")]))
    ladder_files = []
    if result.optimum:
        ladder_files = save(ladder_chart(full, [r.variant for r in result.optimum]), out / "charts",
                            "ladder")
    files = build_report(runs, out, "golfstats study: Golf solitaire win rates and par", extra,
                         par=False, extra_rows=full.filter(pl.col("estimator").is_not_null()))
    seconds = time.perf_counter() - started
    record = study_record(config, result, seconds)
    write_json(out / "study.json", record)
    write_text(out / "README.md", readme(config, result, summary, full, par_md, cmp_df, record,
                                         par_df, pars))
    return [out / "summary.parquet", out / "study.json", out / "README.md", *files.all(), *ladder_files,
            *(tables_dir / f"{s}.{e}" for s in ("par", "compare") for e in ("md", "csv"))]


def study_pars(with_strokes: pl.DataFrame, optimum=()) -> list:
    """The par of every (variant, policy) row with a stroke histogram (one play-out a deal)
    and of the honest optimum of each ``optimum`` result, from each valued deal's strokes on
    its stock orders, the deals resampled whole (its orders are not independent): the
    study's one call of the par definition (``report.par``), for every table and the README."""
    from golfstats.report.par import par_from_hist, par_of_deals
    from golfstats.study.optimum_tables import optimum_playouts

    pars = [par_from_hist(r["variant"], r["policy"], r["stroke_hist"])
            for r in with_strokes.iter_rows(named=True) if r["stroke_hist"]]
    for r in optimum:
        per_deal = [s for s in optimum_playouts(r)["order_strokes"].to_list() if s]
        if per_deal:
            pars.append(par_of_deals(r.variant, OPTIMAL, per_deal))
    return pars


def _md_table_html(md: str) -> str:
    from golfstats.report import doc

    return doc.html(doc.from_markdown(md))


def study_record(config, result, seconds: float) -> dict:
    """What ``study.json`` keeps: the command, the configuration, the plan, timings, versions."""
    import numba
    import numpy

    from golfstats.rules import RULES_VERSION

    cfg = {k: (str(v) if isinstance(v, Path) else v) for k, v in asdict(config).items()}
    return {
        "command": " ".join(["golfstats", *sys.argv[1:]]) if sys.argv else "golfstats study",
        "config": cfg, "seed": config.seed, "rules_version": RULES_VERSION,
        "plan": [asdict(p) for p in result.plans],
        "par_runs": [asdict(p) for p in result.pars],
        "runs": [{"name": t.run.name, "n": t.run.n, "chunks": t.chunks, "chunks_done": t.chunks_done,
                  "core_seconds": round(t.seconds, 1), "sittings": list(t.sittings)}
                 for t in result.tallies],
        "seconds": round(seconds, 1),
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(),
                    "python": platform.python_version()},
        "versions": {"golfstats": _version(), "numpy": numpy.__version__, "polars": pl.__version__,
                     "numba": numba.__version__},
    }


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("golfstats")
    except PackageNotFoundError:
        return "unknown"

