"""results/README.md: the study's answers, tables and notes in words, from its summary,
par table, comparisons and ledger (``README.md.template``), and the published figures it
sets beside its own."""

from __future__ import annotations

import datetime as dt
import string
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from golfstats.policies import CLAIRVOYANT, LADDER, OPTIMAL, PAR_REFERENCE, SAMPLING_POLICY, policy_order
from golfstats.report.tables import by_policy, markdown, percent
from golfstats.stats import MIN_N, Z95, wilson
from golfstats.study.plan import SAMPLING_VARIANTS


@dataclass(frozen=True)
class Published:
    """A published winnability figure: ``value`` over ``deals`` deals (None when the source
    does not say), with the source's own 95% half-width ``half_width`` where it states one
    (else Wilson over its deals), or a figure rounded to ``rounding`` (its uncertainty then
    taken as uniform over +/- rounding)."""

    variant: str
    value: float
    deals: int | None
    what: str
    source: str
    rounding: float = 0.0
    half_width: float = 0.0

    def interval(self) -> tuple[float, float]:
        if self.half_width:
            return self.value - self.half_width, self.value + self.half_width
        if self.deals:
            return wilson(round(self.value * self.deals), self.deals)
        return self.value - self.rounding, self.value + self.rounding

    def variance(self) -> float:
        """Of the published figure: from its stated interval, binomial over its deals, or
        uniform rounding error."""
        if self.half_width:
            return (self.half_width / Z95) ** 2
        if self.deals:
            return self.value * (1 - self.value) / self.deals
        return self.rounding ** 2 / 3


_WIKI_GOLF = ("Wikipedia, \"Golf (patience)\" (a whole percent; the sample size is not given "
              "there)")
_SOLVITAIRE = ("Charlie Blake and Ian P. Gent, \"The Winnability of Klondike Solitaire and Many Other "
               "Patience Games\" (Solvitaire), JAIR 2026, Tables 1 and 8; arXiv 1906.12314v6")
#: Published winnability figures we can cite (all clairvoyant: the solver knows the stock).
PUBLISHED = (
    Published("strict", 0.26, None, "about 26% of deals possible to win", _WIKI_GOLF, 0.005),
    Published("queens-on-kings", 0.45109, 10_000_000,
              "Golf-B: 4,510,859 of 10^7 deals winnable, 45.109% +/- 0.032% (Solvitaire)",
              _SOLVITAIRE, half_width=0.00032),
    Published("queens-on-kings", 0.45077, 100_000,
              "Golf-B: 45,077 of 100,000 deals winnable (Jan Wolter's raw data)",
              "Blake and Gent, ibid., Table 9"),
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
#: Rule sets whose published figures are all looser than our +/-0.10% (said in the README).
NO_TIGHTER = ("strict", "putt-putt")


def par_markdown(par_df: pl.DataFrame) -> str:
    ref = par_df.filter(pl.col("policy") == PAR_REFERENCE)
    exact = par_df.filter(pl.col("policy") == CLAIRVOYANT).select(
        "variant", pl.col("par9").alias("exact_par9"), pl.col("par18").alias("exact_par18"))
    df = ref.join(exact, on="variant", how="left").select(
        "variant", "n", "mean_per_hole", "par9", "par9_low", "par9_high", "p_off9", "p_le_45",
        "par18", "par18_low", "par18_high", "p_off18", "p_le_90", "deals_needed18",
        "exact_par9", "exact_par18")
    fmt = {"mean_per_hole": lambda x: f"{x:.2f}", "p_le_45": percent, "p_le_90": percent,
           "p_off9": percent, "p_off18": percent, "deals_needed18": lambda x: f"{x:,}"}
    headers = {"mean_per_hole": "mean strokes/hole", "par9": "par 9 holes", "par9_low": "95% low",
               "par9_high": "95% high", "p_off9": "off", "p_le_45": "rounds <= 45",
               "par18": "par 18 holes", "par18_low": "95% low", "par18_high": "95% high",
               "p_off18": "off", "p_le_90": "rounds <= 90",
               "deals_needed18": "deals for an 18-hole par stable to one stroke",
               "exact_par9": "clairvoyant par 9", "exact_par18": "clairvoyant par 18"}
    return markdown(df, fmt, headers)


#: The players par is given for, weakest first (``optimal``'s from its play-outs; random,
#: who never wins, left out).
PAR_PLAYERS = LADDER[1:]


def _answers_markdown(full: pl.DataFrame, par_df: pl.DataFrame) -> str:
    """The opening answers for a designer: per plain king rule, how winnable it is for a
    perfect player who cannot see the stock (and one who can), and par for casual,
    strong and clairvoyant players (``full``: the summary with the optimum's rows)."""
    lines = []
    for variant in SAMPLING_VARIANTS:
        rows = by_policy(full, variant)
        pars = by_policy(par_df, variant)
        if CLAIRVOYANT not in rows:
            continue
        honest = rows.get(OPTIMAL)
        won = (f"a perfect player who cannot see the stock wins {percent(honest['win_rate'], 1)} of deals "
               f"({percent(honest['ci_low'], 1)}-{percent(honest['ci_high'], 1)})" if honest else
               "perfect play without peeking is not estimated yet")
        par = ", ".join(f"{who} {pars[p]['par9']} / {pars[p]['par18']}" for who, p in
                        (("casual (greedy)", "greedy"), ("strong (lookahead)", PAR_REFERENCE),
                         ("strong (sampling)", SAMPLING_POLICY),
                         ("perfect without peeking (optimal)", OPTIMAL), ("clairvoyant", CLAIRVOYANT))
                        if p in pars)
        lines.append(f"- **{variant}**: {won}; {percent(rows[CLAIRVOYANT]['win_rate'], 2)} can be won "
                     f"by someone who sees the stock. Par for 9 / 18 holes: {par}.")
    return "\n".join(lines) + "\n"


def _par_by_player_markdown(par_df: pl.DataFrame, pars=()) -> str:
    """Par 9 / par 18 of every player per rule set with their 95% intervals, and the
    player the traditional 45 / 90 (5 a hole) fits best: the one whose 9-hole par is
    nearest 45 (ties to the weaker player), with how often the same player is chosen
    when every player's par is drawn from its own bootstrap (``pars``: the ``ParResult``s
    whose resampled pars the choice is held to; the players' resamples are drawn apart,
    although most of them played the same deals, so the share is a rough one)."""
    from golfstats.study.opening import par_cell

    draws = {(r.variant, r.policy): r.rounds[9].draws for r in pars if 9 in r.rounds}
    lines = ["| variant | " + " | ".join(f"{p} par 9 / 18 (95%)" for p in PAR_PLAYERS)
             + " | 45 / 90 fits (how often) |", "|---|" + "---:|" * len(PAR_PLAYERS) + "---|"]
    for variant in par_df["variant"].unique(maintain_order=True):
        rows = by_policy(par_df, variant)
        cells = [f"{par_cell(rows[p], 9)} / {par_cell(rows[p], 18)}" if p in rows else ""
                 for p in PAR_PLAYERS]
        present = [p for p in PAR_PLAYERS if p in rows]
        fits = min(present, key=lambda p: abs(rows[p]["par9"] - 45)) if present else ""
        how = _fits_share(present, fits, [draws.get((variant, p)) for p in present])
        lines.append(f"| {variant} | " + " | ".join(cells) + f" | {fits}{how} |")
    return "\n".join(lines) + "\n"


def _fits_share(players: list[str], chosen: str, draws: list) -> str:
    """`` (83%)``: the share of joint resamples in which ``chosen`` is still the player
    whose 9-hole par is nearest 45; empty without every player's resamples."""
    if not players or any(d is None or not len(d) for d in draws):
        return ""
    k = min(len(d) for d in draws)
    distance = np.abs(np.stack([np.asarray(d[:k]) for d in draws]) - 45)
    share = float(np.mean(np.argmin(distance, axis=0) == players.index(chosen)))
    return f" ({100 * share:.0f}%)"


def compare_markdown(cmp_df: pl.DataFrame) -> str:
    """The paired comparisons; McNemar's p in words (``report.compare.p_text``: never 0),
    omitted with its reason where the test is empty (a clairvoyant player against an
    honest one)."""
    from golfstats.report.compare import p_text

    if cmp_df.is_empty():
        return "(no paired comparison)\n"
    df = cmp_df.select(
        "variant", "a", "b", "n", "win_rate_a", "win_rate_b",
        pl.format("{} [{}, {}]", *(pl.col(c).mul(100).round(2) for c in ("diff", "diff_low", "diff_high")))
        .alias("diff_pp"),
        pl.struct("mcnemar_exact_p", "mcnemar_omitted").map_elements(
            lambda r: f"omitted: {r['mcnemar_omitted']}" if r["mcnemar_omitted"]
            else p_text(r["mcnemar_exact_p"]), return_dtype=pl.String).alias("mcnemar_exact_p"),
        pl.format("{} [{}, {}]", *(pl.col(c).round(2) for c in
                                   ("stroke_diff", "stroke_diff_low", "stroke_diff_high"))).alias("strokes"),
        pl.format("{}-{}-{}", "r18_a_rounds", "r18_b_rounds", "r18_halved_rounds").alias("r18"))
    fmt = {"win_rate_a": percent, "win_rate_b": percent}
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
        digits = 3 if pub.half_width or (pub.deals or 0) >= 10 ** 5 else 2
        theirs = (f"{percent(low, digits)}-{percent(high, digits)}"
                  + ("" if pub.deals else " (rounding)"))
        if row.is_empty():
            lines.append(f"| {pub.variant} | {pub.what} | {theirs} | not run | | | {pub.source} |")
            continue
        r = row.row(0, named=True)
        ours = (f"{percent(r['win_rate'], digits)} ({percent(r['ci_low'], digits)}-"
                f"{percent(r['ci_high'], digits)}), {r['n']:,}")
        # both sampling errors: ours from the Wilson half-width, theirs from its deals or rounding
        var = ((r["ci_high"] - r["ci_low"]) / (2 * Z95)) ** 2 + pub.variance()
        z = (r["win_rate"] - pub.value) / var ** 0.5 if var > 0 else 0.0
        verdict = "consistent" if abs(z) < Z95 else "differs"
        lines.append(f"| {pub.variant} | {pub.what} | {theirs} | {ours} | {z:+.1f} | {verdict} | "
                     f"{pub.source} |")
    loose = [v for v in NO_TIGHTER if not summary.filter(pl.col("variant") == v).is_empty()]
    if loose:
        lines.append("")
        lines.append(f"For {' and '.join(loose)} no published figure we know of is tighter than our "
                     "+/-0.10%: Wikipedia's article gives a whole percent (above), and neither Jan "
                     "Wolter's \"Experimental Analysis of Golf Solitaire\" (politaire.com, 2013) "
                     "nor Blake and Gent's paper, which gives Golf-B's, gives a tighter one.")
    return "\n".join(lines) + "\n"


def _sizes_markdown(result, summary: pl.DataFrame, config) -> str:
    """Each run's size, its exact win rate's half-width and whether it meets its own target
    (``config.target_half_width``: +/-0.10% or +/-0.30% by rule set)."""
    lines = ["| variant | n | pilot p | planned for p | n needed | exact win rate | 95% half-width | "
             "target | target met |", "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for p in result.plans:
        hw, target = p.achieved_half_width, config.target_half_width(p.variant)
        row = summary.filter((pl.col("variant") == p.variant) & (pl.col("policy") == CLAIRVOYANT))
        rate = percent(row["win_rate"][0], 2) if row.height else ""
        met = "yes" if hw is not None and hw <= target + 1e-12 else "no"
        lines.append(f"| {p.variant} | {p.n} | {p.pilot_wins}/{p.pilot_n} | {p.p_plan:.3f} | "
                     f"{p.n_required} | {rate} | {'' if hw is None else f'±{100 * hw:.2f}%'} | "
                     f"±{100 * target:.2f}% | {met} |")
    return "\n".join(lines) + "\n"


def _strokes_markdown(summary: pl.DataFrame) -> str:
    wide = summary.select("variant", "policy", pl.col("mean_strokes").round(2)).pivot(
        on="policy", index="variant", values="mean_strokes")
    cols = sorted([c for c in wide.columns if c != "variant"], key=policy_order)
    return markdown(wide.select("variant", *cols))


def readme(config, result, summary: pl.DataFrame, full: pl.DataFrame, par_md: str,
           cmp_df: pl.DataFrame, record: dict, par_df: pl.DataFrame, pars=()) -> str:
    """The text of results/README.md (``pars``: the ``ParResult`` behind ``par_df``, whose
    resamples the "45 / 90 fits" choice is held to)."""
    from golfstats.report.tables import win_rate_pivot

    today = dt.date.today().isoformat()
    minutes = record["seconds"] / 60
    making, parts = making_markdown(result)
    scale_note = ""
    if config.scale != 1.0:
        scale_note = (f"\n> **Smoke run at scale {config.scale}:** every size is {config.scale:g} of the "
                      f"study's, so the intervals are wide and the +/-{config.half_width:.1%} target is "
                      "not met. Run `golfstats study` (scale 1) for the real results.\n")
    par_chart = ("![Round totals and par](charts/par_rounds.png)\n"
                 if (Path(config.out) / "charts" / "par_rounds.png").is_file() else "")
    exact_vs = cmp_df.filter(pl.col("a") == CLAIRVOYANT) if not cmp_df.is_empty() else cmp_df
    fields = {
        "command": record["command"], "today": today, "minutes": f"{minutes:.0f}",
        "cpus": record["machine"]["cpus"], "seed": config.seed,
        "rules_version": record["rules_version"], "version": record["versions"]["golfstats"],
        "scale_note": scale_note, "sampling_policy": SAMPLING_POLICY,
        "sampling_n": config.scaled(config.sampling_n, 10), "pilot_n": config.scaled(config.pilot_n),
        "half_width": f"{100 * config.half_width:.2f}",
        "other_half_width": f"{100 * config.other_half_width:.2f}", "min_n": config.min_n,
        "optimal_min_n": config.scaled(config.optimal_min_n, 3), "min_calibrated": MIN_N,
        "hours_budget": f"{config.hours_budget:g}",
        "sizes": _sizes_markdown(result, summary, config),
        "win_rates": markdown(win_rate_pivot(summary)),
        "clairvoyant_vs_reference": compare_markdown(exact_vs), "strokes": _strokes_markdown(summary),
        "par": par_md, "par_chart": par_chart, "published": _published_markdown(summary),
        "optimal": _optimal_markdown(config, result, full),
        "par_by_player": _par_by_player_markdown(par_df, pars),
        "answers": _in_short(_answers_markdown(full, par_df)), "making": making, "parts": parts,
        **opening_fields(full, par_df, result.unfinished), **par_run_fields(config, result),
    }
    template = (Path(__file__).with_name("README.md.template")).read_text()
    return string.Template(template).substitute(fields)


def _in_short(answers: str) -> str:
    """The answers in words for the three king rules, under their heading (none when the
    study has none of them)."""
    if not answers.strip():
        return ""
    return "In short, for the three king rules (draws any time, no jokers):\n\n" + answers


def opening_fields(full: pl.DataFrame, par_df: pl.DataFrame, unfinished=None) -> dict:
    """The README's opening: the table of every rule set and player (a player whose row
    rests on a run not finished marked so: ``StudyResult.unfinished``), and the par to
    print."""
    from golfstats.study.opening import opening_markdown, par_to_print_markdown

    return {"opening": opening_markdown(full, par_df, unfinished),
            "par_to_print": par_to_print_markdown(par_df, full)}


def par_run_fields(config, result) -> dict:
    """Which pars rest on a par run (under the par to print, and in the par section, with
    what a stable par would take where it is not cheap): ``study.par_runs``."""
    from golfstats.study.par_runs import par_runs_markdown, par_runs_note

    return {"par_runs_note": par_runs_note(config, result.pars, result.tallies),
            "par_runs": par_runs_markdown(config, result.pars, result.tallies)}


def making_markdown(result) -> tuple[str, str]:
    """When and how the study was made, from its ledger: one sentence (the sittings, the
    machines, one core's time in all) and a table per part (deals, chunks, one core's
    hours, the sittings that played it)."""
    rows = ["| part | deals | chunks | one core's hours | sittings (UTC start) |", "|---|---:|---:|---:|---|"]
    sittings, machines, seconds = set(), set(), 0.0

    def when(starts) -> str:
        return ", ".join(s[:16].replace("T", " ") for s in sorted(starts))

    for t in result.tallies:
        sittings |= set(t.sittings)
        machines |= set(t.machines)
        seconds += t.seconds
        rows.append(f"| {t.run.name} | {t.deals_done:,} | {t.chunks_done} | {t.seconds / 3600:.2f} | "
                    f"{when(t.sittings)} |")
    for r in result.optimum:
        starts = set(r.rows["sitting"].to_list()) - {""}
        sittings |= starts
        machines |= set(r.rows["machine"].to_list()) - {""}
        part = float(r.rows["seconds"].sum())
        seconds += part
        rows.append(f"| optimal on {r.variant} | {r.rows.height:,} valued | | {part / 3600:.2f} | "
                    f"{when(starts)} |")
    first, last = (min(sittings)[:10], max(sittings)[:10]) if sittings else ("", "")
    span = first if first == last else f"{first} to {last}"
    sentence = (f"{len(sittings)} sitting{'s' if len(sittings) != 1 else ''} ({span}) on "
                f"{'; '.join(sorted(machines)) or 'this machine'}, {seconds / 3600:.1f} hours of one "
                "core in all")
    return sentence, "\n".join(rows) + "\n"


def _optimal_markdown(config, result, full: pl.DataFrame) -> str:
    from golfstats.study.optimum import ESTIMATOR
    from golfstats.study.optimum_tables import estimator_markdown, ladder_markdown

    if not result.optimum:
        return "Not run in this sitting (the main runs come first).\n"
    variants = [r.variant for r in result.optimum]
    return (f"Estimator: {ESTIMATOR} (target half-width ±{100 * config.optimal_target:.1f} points "
            f"on the three plain king rules, ±{100 * config.optimal_other_target:.1f} on the others, "
            f"at least {config.scaled(config.optimal_min_n, 3)} deals, {config.optimal_orders} "
            "stock orders per deal's share):\n\n" + estimator_markdown(result.optimum)
            + "\nThe ladder of players on each rule set valued (the honest players' figures from "
            "their runs; `optimal` estimated as above; how far each lies from greedy towards "
            "`optimal` with its delta-method 95% interval, each rate's error from its own interval, "
            "the rates taken as independent but for greedy's, which is in both differences):\n\n"
            + ladder_markdown(full, variants) + "\n![The ladder of players](charts/ladder.png)\n\n"
            + _playouts_markdown(full, config.optimal_orders))


def _playouts_markdown(full: pl.DataFrame, orders: int) -> str:
    """On how many deals and orders the honest optimum's strokes and par rest."""
    lines = []
    for r in full.filter(pl.col("estimator").is_not_null()).iter_rows(named=True):
        if not r["playouts"]:
            lines.append(f"- {r['variant']}: no play-outs (no deal resolved), so no strokes or par.")
            continue
        goal = ("goal strokes" if r.get("strokes_goal") == "strokes" else
                f"goal win: the goal-strokes tables of the {r['strokes_unresolved']} deals tried "
                "did not fit their memory budget" if r.get("strokes_unresolved") else
                "goal win, since no deal has its goal-strokes play-outs yet")
        lines.append(
            f"- {r['variant']}: `optimal`'s strokes and par ({goal}) rest on {r['playout_deals']} "
            f"valued deals{_left_out(r)}, each played out on its {orders} stock orders (the orders of the "
            f"clairvoyant share; {r['playouts']:,} play-outs, but the orders of one deal are not "
            f"independent, so the deals are the sample size); mean {r['mean_strokes']:.2f} "
            f"strokes a hole, median {r['median_strokes']:g}; goal win's play-outs won "
            f"{percent(r['playout_win_rate'], 1)} of theirs (from the same deals as the estimate, "
            f"{percent(r['win_rate'], 1)}: a consistency check, not an independent one).")
    return ("The perfect golfer (goal strokes: the fewest expected strokes, honest) played out "
            "from each valued deal's one table on its stock orders (the win rate stays goal "
            "win's):\n\n" + "\n".join(lines) + "\n")


def _left_out(row: dict) -> str:
    """Which valued deals the perfect golfer's par rests on, where not every one (else '')."""
    wanted, n = row.get("strokes_wanted"), row["n"]
    over, missing = row.get("strokes_unresolved") or 0, row.get("strokes_missing") or 0
    if row.get("strokes_goal") != "strokes" or wanted is None:
        return ""
    text = f" of the first {wanted:,} of its {n:,}" if wanted < n else ""
    parts = [f"{over} whose goal-strokes table did not fit its memory budget"] if over else []
    parts += [f"{missing} not played out yet"] if missing else []
    if parts:
        text += (f" ({' and '.join(parts)} left out: not a random sample of the deals, so this "
                 "par may lean)")
    return text
