"""What the study keeps in ``results/``: summary, tables, charts, the HTML page, study.json
and a README.md that reads them (including par and published figures)."""

from __future__ import annotations

import datetime as dt
import time
from pathlib import Path

import polars as pl

from golfstats.report.runs import SUMMARY_SCHEMA, Run, merge_deals, merge_summaries
from golfstats.report.tables import markdown, percent

#: Published winnability figures we can cite: (variant, fraction, deals, what, source).
PUBLISHED = (
    ("black-hole", 0.869413, 1_000_000,
     "869,413 of the first million PySolFC deals solvable (Shlomi Fish's black-hole-solver)",
     "Wikipedia, \"Black Hole (solitaire)\", section Solvers and Solvability Statistics"),
    ("black-hole", 0.875, 2_500, "87.5% of 2,500 deals (Gent et al.'s solvers)",
     "as reported by Jan Wolter, \"Experimental Analysis of Black Hole and All-In-A-Row "
     "Solitaire\", politaire.com, 7 Dec 2014"),
    ("all-in-a-row", 0.671, 1_000_000, "67.1% of the first million PySol deals (Shlomi Fish's solver)",
     "as reported by Jan Wolter, ibid."),
)


def write_outputs(config, result, runs: list[Run], started: float) -> list[Path]:
    """Write everything the study keeps under ``config.out``; returns the paths."""
    from golfstats.report import build_report, html
    from golfstats.report.compare import compare_policies, comparison_table
    from golfstats.report.par import par_from_hist, par_table
    from golfstats.report.study import SAMPLING_POLICY, study_record, write_json
    from golfstats.report.tables import write_table

    out = Path(config.out)
    summary = merge_summaries(runs)
    summary.select(list(SUMMARY_SCHEMA)).write_parquet(out / "summary.parquet")
    for plan in result.plans:
        row = summary.filter((pl.col("variant") == plan.variant) & (pl.col("policy") == "exact"))
        if row.height:
            plan.achieved_half_width = float((row["ci_high"][0] - row["ci_low"][0]) / 2)

    pars = [par_from_hist(r["variant"], r["policy"], r["stroke_hist"]) for r in summary.iter_rows(named=True)]
    par_df = par_table(pars)
    deals = merge_deals(runs)
    comparisons = []
    for variant in summary["variant"].unique(maintain_order=True):
        rows = deals.filter(pl.col("variant") == variant)
        comparisons += compare_policies(rows, "exact", "lookahead")
        if SAMPLING_POLICY in rows["policy"].unique().to_list():
            comparisons += compare_policies(rows, SAMPLING_POLICY, "lookahead")
    cmp_df = comparison_table(comparisons)

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

    plain = [r for r in pars if r.policy == "lookahead" and r.variant in ("strict", "queens-on-kings",
                                                                            "putt-putt")]
    if plain:
        round_files = save(round_chart(plain), out / "charts", "par_rounds")
        extra.append(("Round totals and par", html.image_html(
            round_files[1], "round totals chart", "9- and 18-hole round totals of lookahead on the "
            "plain king rules; dashed: par (the median); dotted: traditional par.")))
    files = build_report(runs, out, "golfstats study: Golf solitaire win rates and par", extra)
    seconds = time.perf_counter() - started
    record = study_record(config, result, seconds)
    write_json(out / "study.json", record)
    (out / "README.md").write_text(readme(config, result, summary, par_md, cmp_df, record))
    return [out / "summary.parquet", out / "study.json", out / "README.md", *files.all(),
            *(tables_dir / f"{s}.{e}" for s in ("par", "compare") for e in ("md", "csv"))]


def _md_table_html(md: str) -> str:
    from golfstats.report import html

    return html.preformatted(md)


def _par_markdown(par_df: pl.DataFrame) -> str:
    ref = par_df.filter(pl.col("policy") == "lookahead")
    exact = par_df.filter(pl.col("policy") == "exact").select(
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
    lines = ["| variant | published | our exact win rate (95% CI) | agreement | source |",
             "|---|---|---|---|---|"]
    for variant, value, deals, what, source in PUBLISHED:
        row = summary.filter((pl.col("variant") == variant) & (pl.col("policy") == "exact"))
        if row.is_empty():
            ours, verdict = "not run", ""
        else:
            r = row.row(0, named=True)
            ours = (f"{percent(r['win_rate'], 2)} ({percent(r['ci_low'], 2)}-"
                    f"{percent(r['ci_high'], 2)}), n={r['n']}")
            # the published figure has its own sampling error: sd sqrt(p(1-p)/deals)
            se = ((r["ci_high"] - r["ci_low"]) / 3.92) ** 2 + value * (1 - value) / deals
            z = (r["win_rate"] - value) / se ** 0.5 if se > 0 else 0.0
            verdict = ("consistent" if abs(z) < 1.96 else "differs") + f" (z = {z:+.1f})"
        lines.append(f"| {variant} | {what} | {ours} | {verdict} | {source} |")
    return "\n".join(lines) + "\n"


def _sizes_markdown(result, summary: pl.DataFrame, target: float) -> str:
    lines = ["| variant | n | pilot p | planned for p | n needed | exact win rate | 95% half-width | "
             "target met |", "|---|---:|---:|---:|---:|---:|---:|---|"]
    for p in result.plans:
        hw = p.achieved_half_width
        row = summary.filter((pl.col("variant") == p.variant) & (pl.col("policy") == "exact"))
        rate = percent(row["win_rate"][0], 2) if row.height else ""
        met = "yes" if hw is not None and hw <= target + 1e-12 else "no"
        lines.append(f"| {p.variant} | {p.n} | {p.pilot_wins}/{p.pilot_n} | {p.p_plan:.3f} | "
                     f"{p.n_required} | {rate} | {'' if hw is None else f'±{100 * hw:.2f}%'} | {met} |")
    return "\n".join(lines) + "\n"


def _strokes_markdown(summary: pl.DataFrame) -> str:
    from golfstats.report.runs import policy_key

    wide = summary.select("variant", "policy", pl.col("mean_strokes").round(2)).pivot(
        on="policy", index="variant", values="mean_strokes")
    cols = sorted([c for c in wide.columns if c != "variant"], key=policy_key)
    return markdown(wide.select("variant", *cols))


def readme(config, result, summary: pl.DataFrame, par_md: str, cmp_df: pl.DataFrame, record: dict) -> str:
    """The text of results/README.md."""
    from golfstats.report.study import SAMPLING_POLICY
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
    exact_vs = cmp_df.filter(pl.col("a") == "exact") if not cmp_df.is_empty() else cmp_df
    return f"""# Results: how winnable is Golf solitaire, and what is par?

Made by `{record['command']}` on {today}: {minutes:.0f} minutes on {record['machine']['cpus']} cores,
seed {config.seed}, rules version {record['rules_version']}, golfstats {record['versions']['golfstats']}.
{scale_note}
Everything in this folder is regenerated by that one command (`golfstats study --help` lists
its options; it restarts where it stopped). It keeps the summary (`summary.parquet`), the
tables (`tables/*.md`, `tables/*.csv`), the charts (`charts/*.png`, `charts/*.svg`), one
self-contained page (`report.html`) and the plan and timings (`study.json`). The per-deal
rows stay in `results/runs/`, which is not committed; `golfstats report`, `golfstats par`
and `golfstats compare` read them (and `report`/`par` also read this folder).

## What was run

- Rule sets: the three king rules (strict = Golf-A, queens-on-kings = Golf-B,
  putt-putt = Golf-C), each plain, with 2 jokers (`+jokers2`), with `+empty-start` and with
  both; and the stockless relatives black-hole and all-in-a-row. Draws are allowed any time.
- Players: `random`, `greedy` and `lookahead` are honest (they never see the stock order);
  `exact` is the clairvoyant solver (it knows the stock order, as published solvers do),
  so its win rate is the share of deals that *can* be won. `{SAMPLING_POLICY}` (honest,
  slow) played the first {config.scaled(config.sampling_n, 10)} deals of the three plain king rules.
- Every player played the same deals (seeded deals 0..n-1 of the seed), so comparisons
  are paired.
- Sizes: a pilot of {config.scaled(config.pilot_n)} deals estimated each exact win rate p; n is the
  smallest size whose Wilson 95% interval is +/-{100 * config.half_width:.1f}% or narrower
  (about 1.96^2 p(1-p)/0.005^2) at the plausible p nearest 1/2, at least {config.min_n}, within
  a {config.hours_budget:g}-hour budget on this machine.

{_sizes_markdown(result, summary, config.half_width)}
## Win rates

Win rate (95% Wilson interval), per variant and player:

{markdown(win_rate_pivot(summary))}
![Win rate by variant and policy](charts/win_rates.png)

Full table with counts, intervals and strokes: `tables/win_rates.md`.

## What seeing the stock is worth

The clairvoyant optimum against `lookahead`, the honest player run on every variant,
paired on the same deals (`tables/compare.md` also compares sampling with lookahead;
`tables/clairvoyant_gap.md` measures the gap to the best honest player, unpaired):

{_compare_markdown(exact_vs)}
![Clairvoyant gap](charts/clairvoyant_gap.png)

## Strokes

Mean strokes (cards left; a win scores minus the stock cards left unturned):

{_strokes_markdown(summary)}
![Stroke distributions](charts/stroke_distribution.png)

Quantiles and binned shares: `tables/stroke_distribution.md`; every count:
`tables/stroke_histogram.csv`.

## Par for 9 and 18 holes

The round total's distribution is the per-hole stroke distribution of the reference
player (`lookahead`, the best honest player run on every variant) convolved with itself
9 or 18 times (exact convolution, holes are independent deals). **Par is the median round
total**; birdie is par-1, bogey par+1 and so on (`golfstats par` prints the whole table
for any run). "rounds <= 45/90": how often that player meets the traditional par of 5 a
hole. Hole par: the player's strokes on the deal clamped to 3..5; "course par" is the
median total of 9 or 18 such hole pars. The clairvoyant par is the same rule applied to
`exact`. Every policy's figures: `tables/par.csv`.

{par_md}
{par_chart}
## Comparison with published figures

Published solver figures are clairvoyant (the solver knows the stock order, or there is
no stock), so they compare with our `exact` player, never with the honest ones.
"agreement" tests the difference against both sampling errors (z beyond +/-1.96: differs).

{_published_markdown(summary)}
Differences can come from the deals (PySolFC's numbered deals versus our seeded uniform
shuffles) and, for a figure from few deals, from its own sampling error. For Golf itself
our rule names follow Jan Wolter's "Experimental Analysis of Golf Solitaire"
(politaire.com, 2013), which names the three king rules Golf-A, Golf-B and Golf-C and
reports solver results for them; we do not quote his figures here because we could not
check them when writing this, so compare the tables above with his article directly.
Honest players win far less than the clairvoyant figures suggest: the gap table above
is the price of not seeing the stock.
"""
