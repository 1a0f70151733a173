"""What the study keeps in ``results/``: summary, tables, charts, the HTML page, study.json
and a README.md that reads them (including par and published figures)."""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
import string
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import polars as pl

from golfstats.policies import policy_order
from golfstats.report.tables import markdown, percent
from golfstats.runs import Run, merge_summaries
from golfstats.stats import Z95, wilson
from golfstats.study.plan import CLAIRVOYANT, REFERENCE, SAMPLING_POLICY, SAMPLING_VARIANTS


@dataclass(frozen=True)
class Published:
    """A published winnability figure: ``value`` over ``deals`` deals (None when the source
    does not say), or a figure rounded to ``rounding`` (its uncertainty then taken as
    uniform over +/- rounding)."""

    variant: str
    value: float
    deals: int | None
    what: str
    source: str
    rounding: float = 0.0

    def interval(self) -> tuple[float, float]:
        if self.deals:
            return wilson(round(self.value * self.deals), self.deals)
        return self.value - self.rounding, self.value + self.rounding

    def variance(self) -> float:
        """Of the published figure: binomial over its deals, or uniform rounding error."""
        if self.deals:
            return self.value * (1 - self.value) / self.deals
        return self.rounding ** 2 / 3


_WIKI_GOLF = ("Wikipedia, \"Golf (patience)\" (a whole percent; the sample size is not given "
              "there)")
#: Published winnability figures we can cite (all clairvoyant: the solver knows the stock).
PUBLISHED = (
    Published("strict", 0.26, None, "about 26% of deals possible to win", _WIKI_GOLF, 0.005),
    Published("queens-on-kings", 0.45, None, "45% if Queens may be played on Kings", _WIKI_GOLF, 0.005),
    Published("putt-putt", 0.93, None, "93% if turning the corner is allowed", _WIKI_GOLF, 0.005),
    Published("black-hole", 0.869413, 1_000_000,
              "869,413 of the first million PySolFC deals solvable (Shlomi Fish's black-hole-solver)",
              "Wikipedia, \"Black Hole (solitaire)\", section Solvers and Solvability Statistics"),
    Published("black-hole", 0.875, 2_500, "87.5% of 2,500 deals (Gent et al.'s solvers)",
              "as reported by Jan Wolter, \"Experimental Analysis of Black Hole and All-In-A-Row "
              "Solitaire\", politaire.com, 7 Dec 2014"),
    Published("all-in-a-row", 0.671, 1_000_000,
              "67.1% of the first million PySol deals (Shlomi Fish's solver)",
              "as reported by Jan Wolter, ibid.", 0.0005),
)


#: Figures of the clairvoyant player that depend on which optimal line its solver picks
#: (won, strokes and draws do not): left out of the study, which may span solvers.
LINE_FIGURES = ("mean_points", "mean_n_moves", "mean_longest_chain")
#: The paired comparisons the study prints: (A, B) on the same deals.
COMPARED = ((CLAIRVOYANT, REFERENCE), (SAMPLING_POLICY, REFERENCE))


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


def _without_line_figures(run: Run) -> Run:
    summary = run.summary.with_columns(
        pl.when(pl.col("policy") == CLAIRVOYANT).then(None).otherwise(pl.col(c)).alias(c)
        for c in LINE_FIGURES)
    return Run(run.path, summary, run.info, run.deal_files)


def write_outputs(config, result, started: float) -> list[Path]:
    """Write everything the study keeps under ``config.out`` from its ledger; returns the paths."""
    from golfstats.report import build_report, html
    from golfstats.report.compare import comparison_table
    from golfstats.report.par import par_from_hist, par_table
    from golfstats.report.tables import write_table
    from golfstats.study.ledger import LEDGER

    out = Path(config.out)
    runs = [_without_line_figures(t.as_run(out / LEDGER)) for t in result.tallies]
    summary = merge_summaries(runs)
    from golfstats.study.optimum_tables import ladder_chart, with_optimum

    full = with_optimum(summary, result.optimum)  # the runs' rows and the optimum's
    full.write_parquet(out / "summary.parquet")
    for plan in result.plans:
        row = summary.filter((pl.col("variant") == plan.variant) & (pl.col("policy") == CLAIRVOYANT))
        if row.height:
            plan.achieved_half_width = float((row["ci_high"][0] - row["ci_low"][0]) / 2)

    pars = [par_from_hist(r["variant"], r["policy"], r["stroke_hist"]) for r in summary.iter_rows(named=True)]
    par_df = par_table(pars)
    cmp_df = comparison_table(comparisons_of(result.tallies))

    tables_dir = out / "tables"
    par_md = _par_markdown(par_df)
    cmp_md = _compare_markdown(cmp_df)
    write_table(par_df, tables_dir, "par", "Par for 9 and 18 holes, every variant and policy",
                "Round totals by exact convolution of the policy's per-hole stroke distribution; "
                "par = median round total; p_le_45 / p_le_90: share of rounds at or under the "
                "traditional par; hole par clamped to 3..5.")
    write_table(cmp_df, tables_dir, "compare", "Paired comparisons (exact vs lookahead; sampling vs "
                "lookahead)", "Same deals; McNemar's test and Newcombe's paired interval; match "
                "play over consecutive deals (r9_/r18_ columns).")
    extra = [("Par for 9 and 18 holes (reference: lookahead)", html.paragraph(
        "Round totals by exact convolution of the per-hole stroke distribution; par = the median "
        "round total.") + _md_table_html(par_md)),
        ("Paired comparisons", _md_table_html(cmp_md))]
    from golfstats.report.charts import round_chart, save

    plain = [r for r in pars if r.policy == REFERENCE and r.variant in SAMPLING_VARIANTS]
    if plain:
        round_files = save(round_chart(plain), out / "charts", "par_rounds")
        extra.append(("Round totals and par", html.image_html(
            round_files[1], "round totals chart", "9- and 18-hole round totals of lookahead on the "
            "plain king rules; dashed: par (the median); dotted: traditional par.")))
    ladder_files = []
    if result.optimum:
        ladder_files = save(ladder_chart(full, [r.variant for r in result.optimum]), out / "charts",
                            "ladder")
    files = build_report(runs, out, "golfstats study: Golf solitaire win rates and par", extra,
                         par=False)
    seconds = time.perf_counter() - started
    record = study_record(config, result, seconds)
    write_json(out / "study.json", record)
    (out / "README.md").write_text(readme(config, result, summary, full, par_md, cmp_df, record,
                                          par_df))
    return [out / "summary.parquet", out / "study.json", out / "README.md", *files.all(), *ladder_files,
            *(tables_dir / f"{s}.{e}" for s in ("par", "compare") for e in ("md", "csv"))]


def _md_table_html(md: str) -> str:
    from golfstats.report import html

    return html.preformatted(md)


def _par_markdown(par_df: pl.DataFrame) -> str:
    ref = par_df.filter(pl.col("policy") == REFERENCE)
    exact = par_df.filter(pl.col("policy") == CLAIRVOYANT).select(
        "variant", pl.col("par9").alias("exact_par9"), pl.col("par18").alias("exact_par18"))
    df = ref.join(exact, on="variant", how="left").select(
        "variant", "n", "mean_per_hole", "par9", "p_le_45", "par18", "p_le_90", "mean_hole_par",
        "course_par9", "course_par18", "exact_par9", "exact_par18")
    fmt = {"mean_per_hole": lambda x: f"{x:.2f}", "p_le_45": percent, "p_le_90": percent,
           "mean_hole_par": lambda x: f"{x:.2f}"}
    headers = {"mean_per_hole": "mean strokes/hole", "par9": "par 9 holes", "p_le_45": "rounds <= 45",
               "par18": "par 18 holes", "p_le_90": "rounds <= 90", "mean_hole_par": "mean hole par (3-5)",
               "course_par9": "course par 9", "course_par18": "course par 18",
               "exact_par9": "clairvoyant par 9", "exact_par18": "clairvoyant par 18"}
    return markdown(df, fmt, headers)


#: The players par is given for, weakest first (``optimal`` needs its expected strokes,
#: which the study's p-alone estimate does not compute).
PAR_PLAYERS = ("greedy", "lookahead", SAMPLING_POLICY, CLAIRVOYANT)


def _answers_markdown(full: pl.DataFrame, par_df: pl.DataFrame) -> str:
    """The opening answers for a designer: per plain king rule, how winnable it is for a
    perfect player who cannot see the stock (and one who can), and par for casual,
    strong and clairvoyant players (``full``: the summary with the optimum's rows)."""
    from golfstats.study.optimum_tables import OPTIMAL

    lines = []
    for variant in SAMPLING_VARIANTS:
        rows = {r["policy"]: r for r in full.filter(pl.col("variant") == variant).iter_rows(named=True)}
        pars = {r["policy"]: r for r in par_df.filter(pl.col("variant") == variant).iter_rows(named=True)}
        if CLAIRVOYANT not in rows:
            continue
        honest = rows.get(OPTIMAL)
        won = (f"a perfect player who cannot see the stock wins {percent(honest['win_rate'], 1)} of deals "
               f"({percent(honest['ci_low'], 1)}-{percent(honest['ci_high'], 1)})" if honest else
               "perfect play without peeking is not estimated yet")
        par = ", ".join(f"{who} {pars[p]['par9']} / {pars[p]['par18']}" for who, p in
                        (("casual (greedy)", "greedy"), ("strong (lookahead)", REFERENCE),
                         ("strong (sampling)", SAMPLING_POLICY), ("clairvoyant", CLAIRVOYANT))
                        if p in pars)
        lines.append(f"- **{variant}**: {won}; {percent(rows[CLAIRVOYANT]['win_rate'], 2)} can be won "
                     f"by someone who sees the stock. Par for 9 / 18 holes: {par}.")
    return "\n".join(lines) + "\n"


def _par_by_player_markdown(par_df: pl.DataFrame) -> str:
    """Par 9 / par 18 of every player per rule set, and the player the traditional
    45 / 90 (5 a hole) fits best: the one whose 9-hole par is nearest 45."""
    lines = ["| variant | " + " | ".join(f"{p} par 9 / 18" for p in PAR_PLAYERS)
             + " | 45 / 90 fits |", "|---|" + "---:|" * len(PAR_PLAYERS) + "---|"]
    for variant in par_df["variant"].unique(maintain_order=True):
        rows = {r["policy"]: r for r in par_df.filter(pl.col("variant") == variant).iter_rows(named=True)}
        cells = [f"{rows[p]['par9']} / {rows[p]['par18']}" if p in rows else "" for p in PAR_PLAYERS]
        present = [p for p in PAR_PLAYERS if p in rows]
        fits = min(present, key=lambda p: abs(rows[p]["par9"] - 45)) if present else ""
        lines.append(f"| {variant} | " + " | ".join(cells) + f" | {fits} |")
    return "\n".join(lines) + "\n"


def _compare_markdown(cmp_df: pl.DataFrame) -> str:
    if cmp_df.is_empty():
        return "(no paired comparison)\n"
    df = cmp_df.select(
        "variant", "a", "b", "n", "win_rate_a", "win_rate_b",
        pl.format("{} [{}, {}]", *(pl.col(c).mul(100).round(2) for c in ("diff", "diff_low", "diff_high")))
        .alias("diff_pp"), "mcnemar_exact_p",
        pl.format("{} [{}, {}]", *(pl.col(c).round(2) for c in
                                   ("stroke_diff", "stroke_diff_low", "stroke_diff_high"))).alias("strokes"),
        pl.format("{}-{}-{}", "r18_a_rounds", "r18_b_rounds", "r18_halved_rounds").alias("r18"))
    fmt = {"win_rate_a": percent, "win_rate_b": percent, "mcnemar_exact_p": lambda x: f"{x:.3g}"}
    headers = {"a": "A", "b": "B", "win_rate_a": "A wins", "win_rate_b": "B wins",
               "diff_pp": "A-B (pp) [95% CI]", "mcnemar_exact_p": "McNemar p",
               "strokes": "stroke diff A-B [95% CI]", "r18": "18-hole matches A-B-halved"}
    return markdown(df, fmt, headers)


def _published_markdown(summary: pl.DataFrame) -> str:
    lines = ["| variant | published | its 95% interval | our exact win rate (95% interval), n | z | "
             "agreement | source |", "|---|---|---|---|---:|---|---|"]
    for pub in PUBLISHED:
        row = summary.filter((pl.col("variant") == pub.variant) & (pl.col("policy") == CLAIRVOYANT))
        low, high = pub.interval()
        theirs = f"{percent(low, 2)}-{percent(high, 2)}" + ("" if pub.deals else " (rounding)")
        if row.is_empty():
            lines.append(f"| {pub.variant} | {pub.what} | {theirs} | not run | | | {pub.source} |")
            continue
        r = row.row(0, named=True)
        ours = (f"{percent(r['win_rate'], 2)} ({percent(r['ci_low'], 2)}-{percent(r['ci_high'], 2)}), "
                f"{r['n']:,}")
        # both sampling errors: ours from the Wilson half-width, theirs from its deals or rounding
        var = ((r["ci_high"] - r["ci_low"]) / (2 * Z95)) ** 2 + pub.variance()
        z = (r["win_rate"] - pub.value) / var ** 0.5 if var > 0 else 0.0
        verdict = "consistent" if abs(z) < Z95 else "differs"
        lines.append(f"| {pub.variant} | {pub.what} | {theirs} | {ours} | {z:+.1f} | {verdict} | "
                     f"{pub.source} |")
    return "\n".join(lines) + "\n"


def _sizes_markdown(result, summary: pl.DataFrame, target: float) -> str:
    lines = ["| variant | n | pilot p | planned for p | n needed | exact win rate | 95% half-width | "
             "target met |", "|---|---:|---:|---:|---:|---:|---:|---|"]
    for p in result.plans:
        hw = p.achieved_half_width
        row = summary.filter((pl.col("variant") == p.variant) & (pl.col("policy") == CLAIRVOYANT))
        rate = percent(row["win_rate"][0], 2) if row.height else ""
        met = "yes" if hw is not None and hw <= target + 1e-12 else "no"
        lines.append(f"| {p.variant} | {p.n} | {p.pilot_wins}/{p.pilot_n} | {p.p_plan:.3f} | "
                     f"{p.n_required} | {rate} | {'' if hw is None else f'±{100 * hw:.2f}%'} | {met} |")
    return "\n".join(lines) + "\n"


def _strokes_markdown(summary: pl.DataFrame) -> str:
    wide = summary.select("variant", "policy", pl.col("mean_strokes").round(2)).pivot(
        on="policy", index="variant", values="mean_strokes")
    cols = sorted([c for c in wide.columns if c != "variant"], key=policy_order)
    return markdown(wide.select("variant", *cols))


def readme(config, result, summary: pl.DataFrame, full: pl.DataFrame, par_md: str,
           cmp_df: pl.DataFrame, record: dict, par_df: pl.DataFrame) -> str:
    """The text of results/README.md."""
    from golfstats.report.tables import win_rate_pivot

    today = dt.date.today().isoformat()
    minutes = record["seconds"] / 60
    scale_note = ""
    if config.scale != 1.0:
        scale_note = (f"\n> **Smoke run at scale {config.scale}:** every size is {config.scale:g} of the "
                      "study's, so the intervals are wide and the +/-0.5% target is not met. "
                      "Run `golfstats study` (scale 1) for the real results.\n")
    par_chart = ("![Round totals and par](charts/par_rounds.png)\n"
                 if (Path(config.out) / "charts" / "par_rounds.png").is_file() else "")
    exact_vs = cmp_df.filter(pl.col("a") == CLAIRVOYANT) if not cmp_df.is_empty() else cmp_df
    fields = {
        "command": record["command"], "today": today, "minutes": f"{minutes:.0f}",
        "cpus": record["machine"]["cpus"], "seed": config.seed,
        "rules_version": record["rules_version"], "version": record["versions"]["golfstats"],
        "scale_note": scale_note, "sampling_policy": SAMPLING_POLICY,
        "sampling_n": config.scaled(config.sampling_n, 10), "pilot_n": config.scaled(config.pilot_n),
        "half_width": f"{100 * config.half_width:.1f}", "min_n": config.min_n,
        "hours_budget": f"{config.hours_budget:g}",
        "sizes": _sizes_markdown(result, summary, config.half_width),
        "win_rates": markdown(win_rate_pivot(summary)),
        "clairvoyant_vs_reference": _compare_markdown(exact_vs), "strokes": _strokes_markdown(summary),
        "par": par_md, "par_chart": par_chart, "published": _published_markdown(summary),
        "optimal": _optimal_markdown(config, result, full),
        "par_by_player": _par_by_player_markdown(par_df),
        "answers": _answers_markdown(full, par_df),
    }
    template = (Path(__file__).with_name("README.md.template")).read_text()
    return string.Template(template).substitute(fields)


def _optimal_markdown(config, result, full: pl.DataFrame) -> str:
    from golfstats.study.optimum import ESTIMATOR
    from golfstats.study.optimum_tables import estimator_markdown, ladder_markdown

    if not result.optimum:
        return "Not run in this sitting (the main runs come first).\n"
    variants = [r.variant for r in result.optimum]
    return (f"Estimator: {ESTIMATOR} (target half-width ±{100 * config.optimal_target:.1f} points, "
            f"at least {config.scaled(config.optimal_min_n, 3)} deals, {config.optimal_orders} "
            "stock orders per deal's share):\n\n" + estimator_markdown(result.optimum)
            + "\nThe ladder of players on each plain king rule (the honest players' figures from "
            "their runs; `optimal` estimated as above):\n\n"
            + ladder_markdown(full, variants) + "\n![The ladder of players](charts/ladder.png)\n")


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


def write_json(path: Path, data: dict) -> None:
    path.write_text(json.dumps(data, indent=2) + "\n")
