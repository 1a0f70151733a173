"""The study's tables of perfect play without peeking (``study.optimum``): its summary
rows, and the ladder of players per plain king rule."""

from __future__ import annotations

import numpy as np
import polars as pl

from golfstats.policies import CLAIRVOYANT, LADDER, OPTIMAL
from golfstats.report.tables import by_policy
from golfstats.runs import SUMMARY_SCHEMA

#: The honest players whose share of the way from greedy to the optimum is given: the
#: ladder's rungs from greedy to ``optimal`` (random and the clairvoyant one left out).
BETWEEN = LADDER[1:-1]
#: Columns the study's summary adds for the estimated rows of ``optimal``.
EXTRA = {"estimator": pl.String, "plain_win_p": pl.Float64, "plain_ci_low": pl.Float64,
         "plain_ci_high": pl.Float64, "unresolved": pl.Int64, "playout_deals": pl.Int64,
         "playouts": pl.Int64, "playout_win_rate": pl.Float64, "strokes_goal": pl.String,
         "strokes_wanted": pl.Int64, "strokes_unresolved": pl.Int64,
         "strokes_missing": pl.Int64}


def summary_rows(results) -> pl.DataFrame:
    """A summary row per rule set for ``optimal``: n deals valued, the estimated mean
    chance of winning (goal win) as ``win_rate`` and ``mean_win_p`` with its interval, the
    estimator, and the plain mean beside it; the strokes columns (mean, median, spread,
    histogram) from the perfect golfer's play-outs (goal strokes, ``strokes_goal``) on
    the valued deals' stock orders, with how many deals and play-outs they rest on (goal
    win's play-outs where no goal-strokes one is held yet); and the share of goal win's
    play-outs won (an estimate of the same mean chance from the same deals: a consistency
    check, not an independent one).  Of the ``strokes_wanted`` valued deals the perfect
    golfer is played out on (the first), those its par leaves out are counted:
    ``strokes_unresolved`` (the table did not fit its memory budget) and ``strokes_missing``
    (not played out yet)."""
    from golfstats.study.optimum import playout_strokes

    rows = []
    for r in results:
        est, plain = r.regression, r.plain
        won = playout_strokes(r.rows)
        source = optimum_playouts(r)
        goal = "strokes" if source is not r.rows else "win"
        strokes = playout_strokes(source)
        wanted = r.rows.height if r.strokes_wanted is None else r.strokes_wanted
        held = r.strokes.filter(pl.col("deal_index") < wanted)
        rows.append({"variant": r.variant, "policy": OPTIMAL, "n": est.n, "truncated": 0,
                     "win_rate": est.mean, "ci_low": est.low, "ci_high": est.high,
                     "n_win_p": est.n, "mean_win_p": est.mean, "win_p_ci_low": est.low,
                     "win_p_ci_high": est.high, "estimator": est.estimator,
                     "plain_win_p": plain.mean, "plain_ci_low": plain.low,
                     "plain_ci_high": plain.high, "unresolved": r.unresolved,
                     **_stroke_figures(strokes),
                     "playout_deals": int(source["order_strokes"].list.len().gt(0).sum()),
                     "playouts": strokes.size, "strokes_goal": goal if strokes.size else None,
                     "playout_win_rate": float((won <= 0).mean()) if won.size else None,
                     "strokes_wanted": wanted,
                     "strokes_unresolved": held.filter(~pl.col("resolved")).height,
                     "strokes_missing": wanted - held.height})
    return pl.DataFrame(rows, schema={**SUMMARY_SCHEMA, **EXTRA})


def optimum_playouts(result) -> pl.DataFrame:
    """The rows whose ``order_strokes`` the optimum's strokes and par rest on: the perfect
    golfer's resolved goal-strokes play-outs when the ledger holds any, else goal win's
    (``result.rows`` itself)."""
    by_strokes = result.strokes.filter(pl.col("resolved"))
    return by_strokes if by_strokes.height else result.rows


def _stroke_figures(strokes: np.ndarray) -> dict:
    """The summary's strokes columns of a sample of realised strokes (empty: none)."""
    if not strokes.size:
        return {"stroke_hist": []}
    values, counts = np.unique(strokes, return_counts=True)
    return {"mean_strokes": float(strokes.mean()), "median_strokes": float(np.median(strokes)),
            "std_strokes": float(strokes.std(ddof=1)) if strokes.size > 1 else None,
            "min_strokes": int(values[0]), "max_strokes": int(values[-1]),
            "stroke_hist": [{"strokes": int(v), "count": int(c)} for v, c in zip(values, counts,
                                                                              strict=True)]}


def with_optimum(summary: pl.DataFrame, results) -> pl.DataFrame:
    """``summary`` (``SUMMARY_SCHEMA``) with the optimum's rows and the extra columns."""
    base = summary.select(list(SUMMARY_SCHEMA)).with_columns(
        pl.lit(None, t).alias(c) for c, t in EXTRA.items())
    return pl.concat([base, summary_rows(results)], how="vertical_relaxed") if results else base


def ladder_markdown(summary: pl.DataFrame, variants) -> str:
    """Per rule set: each player's win rate with its interval, the share of the way from
    greedy to the honest optimum it covers, and the price of not seeing the stock."""
    lines = ["| variant | player | win rate (95% interval) | n | of the way greedy -> optimal (95%) |",
             "|---|---|---:|---:|---:|"]
    for variant in variants:
        rows = by_policy(summary, variant)
        greedy, optimal = rows.get("greedy"), rows.get(OPTIMAL)
        for policy in LADDER:
            r = rows.get(policy)
            if r is None or r["win_rate"] is None:
                continue
            way = ""
            if greedy and optimal and policy in BETWEEN and optimal["win_rate"] > greedy["win_rate"]:
                way = _way(r, greedy, optimal, policy in (GREEDY, OPTIMAL))
            name = f"{policy} ({r['estimator']})" if r.get("estimator") else policy
            lines.append(f"| {variant} | {name} | {100 * r['win_rate']:.2f}% ({100 * r['ci_low']:.2f}-"
                         f"{100 * r['ci_high']:.2f}) | {r['n']:,} | {way} |")
        if optimal and rows.get(CLAIRVOYANT):
            exact = rows[CLAIRVOYANT]
            price = exact["win_rate"] - optimal["win_rate"]
            half = ((optimal["ci_high"] - optimal["ci_low"]) ** 2
                    + (exact["ci_high"] - exact["ci_low"]) ** 2) ** 0.5 / 2
            lines.append(f"| {variant} | price of not seeing the stock (exact - optimal) | "
                         f"{100 * price:.2f} pp (+/-{100 * half:.2f}) | | |")
    return "\n".join(lines) + "\n"


GREEDY = BETWEEN[0]


def _way(r: dict, greedy: dict, optimal: dict, end: bool) -> str:
    """How far ``r`` lies from greedy towards the optimum, with its delta-method 95% interval
    (``stats.ratio_of_differences``; each rate's standard error from its interval, the
    rates independent but for greedy's, which is in both differences): the ends are 0% and
    100% by definition."""
    from golfstats.stats import Z95, ratio_of_differences

    def se(row: dict) -> float:
        return (row["ci_high"] - row["ci_low"]) / (2 * Z95)

    way, low, high = ratio_of_differences(r["win_rate"], se(r), greedy["win_rate"], se(greedy),
                                          optimal["win_rate"], se(optimal))
    return f"{100 * way:.0f}%" if end else f"{100 * way:.0f}% ({100 * low:.0f}-{100 * high:.0f})"


def estimator_markdown(results) -> str:
    """The optimum's estimate beside the plain mean, per rule set."""
    lines = ["| variant | deals valued | unresolved | regression estimate (95%) | half-width | "
             "plain mean (95%) | half-width | target met |", "|---|---:|---:|---:|---:|---:|---:|---|"]
    for r in results:
        e, p = r.regression, r.plain
        lines.append(f"| {r.variant} | {e.n} | {r.unresolved} | {100 * e.mean:.2f}% ({100 * e.low:.2f}-"
                     f"{100 * e.high:.2f}) | ±{100 * e.half_width:.2f} | {100 * p.mean:.2f}% "
                     f"({100 * p.low:.2f}-{100 * p.high:.2f}) | ±{100 * p.half_width:.2f} | "
                     f"{'yes' if r.met else 'no'} |")
    tiny = [r.variant for r in results if not r.regression.calibrated]
    if tiny:
        from golfstats.stats import MIN_N

        lines.append(f"\n**Fewer than {MIN_N} deals valued** ({', '.join(tiny)}): the interval's "
                     f"coverage is checked from {MIN_N} deals up, not below (the study values at least "
                     f"{MIN_N} when it runs).")
    return "\n".join(lines) + "\n"


def ladder_chart(summary: pl.DataFrame, variants):
    """The ladder of players, a panel per rule set: each player's win rate with its 95%
    interval, weakest at the bottom; the honest optimum and the clairvoyant one marked by
    lines, the gap between them shaded (the price of not seeing the stock)."""
    from matplotlib.figure import Figure

    from golfstats.report.charts import DPI, style

    cols = min(3, len(variants))
    rows_of = -(-len(variants) // cols)  # a grid three panels wide
    fig = Figure(figsize=(4.2 * cols, 3.0 * rows_of + 0.6), dpi=DPI, layout="constrained")
    grid = fig.subplots(rows_of, cols, squeeze=False)
    axes = [ax for row in grid for ax in row]
    for ax in axes[len(variants):]:
        ax.set_visible(False)
    for ax, variant in zip(axes, variants, strict=False):
        rows = by_policy(summary, variant)
        rungs = [p for p in LADDER if p in rows and rows[p]["win_rate"] is not None]
        for y, policy in enumerate(rungs):
            r = rows[policy]
            color, marker = style(policy)
            below = max(0.0, r["win_rate"] - r["ci_low"])
            above = max(0.0, r["ci_high"] - r["win_rate"])
            ax.errorbar(100 * r["win_rate"], y, xerr=[[100 * below], [100 * above]],
                        fmt=marker, color=color, capsize=3)
        if OPTIMAL in rows and CLAIRVOYANT in rows:
            lo, hi = 100 * rows[OPTIMAL]["win_rate"], 100 * rows[CLAIRVOYANT]["win_rate"]
            ax.axvline(lo, color=style(OPTIMAL)[0], linestyle="--", linewidth=1)
            ax.axvline(hi, color=style(CLAIRVOYANT)[0], linestyle=":", linewidth=1)
            ax.axvspan(lo, hi, color="0.9", zorder=0)
        ax.set_yticks(range(len(rungs)), rungs)
        ax.set_title(variant)
        ax.set_xlabel("win rate, % (95% interval)")
        ax.set_xlim(left=0)
        ax.grid(axis="x", alpha=0.3)
    fig.suptitle("The ladder of players: shaded, the price of not seeing the stock")
    return fig


__all__ = ["estimator_markdown", "ladder_chart", "ladder_markdown",
           "summary_rows", "with_optimum"]
