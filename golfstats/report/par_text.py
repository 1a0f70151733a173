"""The par of runs, as ``golfstats par`` prints it and the report page shows it: one
table per run (every player of every rule set, par for 9 and 18 holes with its interval),
the reference player marked, and one line per rule set saying which par to print.

The numbers are ``golfstats.report.par``'s (the one definition, docs/rules.md "Par"):
``par``, ``report`` and the study call the same functions on the same deals.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from golfstats.course_par import par_player
from golfstats.policies import PAR_REFERENCE, PERFECT_GOLFER, parse_policy, policy_order
from golfstats.report.doc import Block, Para, Table
from golfstats.report.par import ParResult, par_from_hist, par_of_playouts


@dataclass(frozen=True)
class VariantPar:
    """Par of every player of one rule set of the runs; ``reference`` is the spec of the
    player whose par to print."""

    variant: str
    reference: str
    players: tuple[ParResult, ...]

    @property
    def chosen(self) -> ParResult:
        return next(p for p in self.players if p.policy == self.reference)


def par_for_runs(runs, policy: str | None = None, variant: str | None = None) -> list[VariantPar]:
    """``VariantPar`` of every rule set of ``runs`` (or only ``variant``, a canonical id):
    the par of each player with a stroke distribution, from its deal rows where the runs
    keep them (the exact expected strokes too, when the rows carry them), else from the
    summary's histogram (the same deals, the same numbers).  ``RunQueryError`` when the
    variant or the reference player (``policy``, default ``PAR_REFERENCE``) is not there."""
    from golfstats.runs import RunQueryError, merge_summaries

    summary = merge_summaries(runs)
    if variant:
        summary = summary.filter(pl.col("variant") == variant)
        if summary.is_empty():
            raise RunQueryError(f"variant {variant} is not in the run")
    deals = _deals(runs)
    return [_variant_par(summary, deals, v, policy)
            for v in summary["variant"].unique(maintain_order=True)]


def _deals(runs) -> pl.DataFrame | None:
    from golfstats.runs import merge_deals

    if not any(r.has_deals for r in runs):
        return None
    return merge_deals(runs, ("variant", "policy", "seed", "deal_index", "strokes", "expected_strokes"))


def _reference(rows: pl.DataFrame, variant: str, policy: str | None) -> str:
    from golfstats.policies import PolicyError
    from golfstats.runs import RunQueryError, resolve_policy

    try:
        return resolve_policy(par_player(policy or PAR_REFERENCE).spec, rows["policy"])
    except PolicyError as exc:
        raise RunQueryError(str(exc)) from None
    except RunQueryError:
        if policy:
            raise
        raise RunQueryError(f"the run has no rows of {PAR_REFERENCE}, par's reference player by "
                            f"default, for {variant}; name another with --policy (it has: "
                            f"{', '.join(rows['policy'])})") from None


def _variant_par(summary: pl.DataFrame, deals: pl.DataFrame | None, variant: str,
                 policy: str | None) -> VariantPar:
    rows = summary.filter(pl.col("variant") == variant)
    reference = _reference(rows, variant, policy)
    players = []
    for row in sorted(rows.iter_rows(named=True), key=lambda r: policy_order(r["policy"])):
        if not row["stroke_hist"]:
            continue
        own = (deals.filter((pl.col("variant") == variant) & (pl.col("policy") == row["policy"]))
               if deals is not None else None)
        if own is not None and own.height == row["n"]:
            players.append(_from_rows(variant, row["policy"], own))
        else:
            players.append(par_from_hist(variant, row["policy"], row["stroke_hist"], deals=row["n"]))
    return VariantPar(variant, reference, tuple(players))


def _from_rows(variant: str, policy: str, rows: pl.DataFrame) -> ParResult:
    """Par from a player's deal rows (one play-out each), with the deals' exact expected
    strokes when every row has one."""
    expected = rows["expected_strokes"].cast(pl.Float64, strict=False).to_numpy()
    exact = bool(expected.size) and bool(np.isfinite(expected).all())
    return par_of_playouts(variant, policy, rows["strokes"].to_numpy(),
                           expectations=expected if exact else None)


def _label(spec: str, reference: str) -> str:
    marks = (["reference"] if spec == reference else []) + (
        ["perfect golfer"] if spec == parse_policy(PERFECT_GOLFER).spec else [])
    return spec + (f" ({', '.join(marks)})" if marks else "")


def _pct(p: float) -> str:
    return f"{100 * p:.0f}%" if p == 0 or p >= 0.01 else "<1%"


def _deals_text(n: int) -> str:
    return f"{n:,}" if n < 10_000 else f"{n / 1000:,.0f}k" if n < 10**6 else f"{n / 1e6:,.1f}M"


def par_blocks(sets: list[VariantPar]) -> list[Block]:
    """The one table (every rule set and player: 9- and 18-hole par, each with its 95%
    interval and the chance it is a stroke or more off), the line on which par to print,
    a line per rule set with the deals the reference's par stable to one stroke would
    need (kept out of the table so that it fits 80 columns), and what the columns mean."""
    several = len(sets) > 1
    sizes = sorted({h for s in sets for p in s.players for h in p.rounds})
    columns = (*(("rule set",) if several else ()), "player", "deals", "strokes a hole", "holes",
               "par", "95%", "off")
    rows = []
    for s in sets:
        for p in s.players:  # a row per round size, the player named on its first
            mean = f"{p.mean_per_hole:.2f}" + (" exact" if p.exact else "")
            first = [*([s.variant] if several else []), _label(p.policy, s.reference), f"{p.n:,}", mean]
            for h in sizes:
                rp = p.rounds[h]
                rows.append((*first, str(h), str(rp.par), f"{rp.low}..{rp.high}", _pct(rp.p_off)))
                first = [""] * len(first)
    numeric = (*((False,) if several else ()), False, True, True, True, True, True, True)
    title = "Par for " + " and ".join(map(str, sizes)) + " holes" + (
        "" if several else f", {sets[0].variant}")
    blocks: list[Block] = [Table(columns, tuple(rows), numeric, title=title)]
    refs = sorted({s.reference for s in sets})
    who = (f"{refs[0]}'s median round total; {refs[0]} is the reference player, --policy names "
           "another") if len(refs) == 1 else "the reference player's median round total"
    if several:
        pars = ", ".join(f"{s.variant} " + " / ".join(str(s.chosen.rounds[h].par) for h in sizes)
                         for s in sets)
        blocks.append(Para(f"Par to print ({' / '.join(map(str, sizes))} holes; {who}): {pars}.",
                           strong=True))
    else:
        pars = ", ".join(f"{h} holes {sets[0].chosen.rounds[h].par}" for h in sizes)
        blocks.append(Para(f"Par to print: {pars} ({who}).", strong=True))
    for s in sets:  # the sizes a par stable to one stroke needs: the reference's only (a line each)
        need = " and ".join(f"{_deals_text(max(s.chosen.rounds[h].deals_needed, 1))} deals for "
                            f"{h} holes" for h in sizes)
        blocks.append(Para(f"{s.variant + ': ' if several else ''}{s.chosen.policy}'s par would be "
                           f"stable to one stroke (95%) with about {need}."))
    blocks.append(Para(
        "Par of a round of deals nobody chose is the player's median round total (docs/rules.md, "
        "\"Par\"); strokes a hole: a hole's expected par (exact: from the deals' exact "
        "expected strokes).  95%: the par's interval from a bootstrap over whole deals; off: "
        "how often a resample's par differs from the printed one; stable to one stroke: about "
        "how many deals would put the 95% interval within one stroke (the deals here times "
        "(1.96 sd / 0.5)^2, sd the resamples' spread of the median)."))
    return blocks


def format_par(sets: list[VariantPar]) -> str:
    """``par_blocks`` as Markdown (what ``golfstats par --out`` writes)."""
    from golfstats.report.doc import markdown

    return markdown(par_blocks(sets))


def par_section(runs) -> list[Block]:
    """The report page's par: ``par_blocks`` of the rule sets the runs played
    ``PAR_REFERENCE`` on, and a line for each they did not."""
    from golfstats.runs import RunQueryError, merge_summaries

    summary = merge_summaries(runs)
    deals = _deals(runs)
    sets, missing = [], []
    for v in summary["variant"].unique(maintain_order=True):
        try:
            sets.append(_variant_par(summary, deals, v, None))
        except RunQueryError as exc:
            missing.append(Para(f"{v}: no par here: {exc}."))
    return (par_blocks(sets) if sets else []) + missing


def results_of(sets: list[VariantPar]) -> list[ParResult]:
    """Every player's ``ParResult`` (for ``par_table``)."""
    return [p for s in sets for p in s.players]


def references(sets: list[VariantPar]) -> list[ParResult]:
    """The reference player's ``ParResult`` of each rule set (for the round-total chart)."""
    return [s.chosen for s in sets]


__all__ = ["VariantPar", "format_par", "par_blocks", "par_for_runs", "par_section",
           "references", "results_of"]
