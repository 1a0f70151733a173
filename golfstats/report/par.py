"""Par for rounds of 9 and 18 holes, from a reference player's per-hole stroke distribution.

Method.  The strokes of one hole (one fresh deal) have the distribution observed for
the reference policy (its stroke histogram over a run's deals).  Holes are
independent deals, so the distribution of a round's total is the per-hole
distribution convolved with itself 9 (or 18) times: computed *exactly* by discrete
convolution, no resampling.

The par to print.  The par of a round is the *median* round total: the smallest total
t with P(total <= t) >= 1/2, so the reference player scores par or better in at least
half of his rounds (totals are whole strokes, so the median needs no rounding).  The
reference player is ``PAR_REFERENCE`` (lookahead) unless another is named, as in
``golfstats course`` and the study.

Hole par.  Some games give each hole its own par: what the reference player scores on
that very deal, kept within 3..5 by default (``hole_par``); a course's par is the sum
of its holes' pars (``golfstats course``).  Against a hole's par a hole is an eagle (or
better) at par-2 or less, a birdie at par-1, par, a bogey, a double bogey, or worse
(``CLASSES``).  The sum of hole pars is not the round par: the bounds lift every deal
the player clears (a score of 0 or less) to par 3 and cut every heavy loss to par 5,
so a course card's par differs from the par of a round of unchosen deals, and
``par_blocks`` says by how much and why.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import polars as pl

from golfstats.policies import PAR_REFERENCE
from golfstats.report.doc import Block, Heading, Para, Table

#: A hole's result against its own par, by strokes over par (None: open end).
CLASSES: tuple[tuple[str, int | None, int | None], ...] = (
    ("eagle or better", None, -2), ("birdie", -1, -1), ("par", 0, 0), ("bogey", 1, 1),
    ("double bogey", 2, 2), ("worse", 3, None))
TRADITIONAL_PER_HOLE = 5  # docs/rules.md: par 45 for 9 holes, 90 for 18


@dataclass(frozen=True)
class Pmf:
    """A distribution on whole strokes: ``P(X = lo + k) = probs[k]``."""

    lo: int
    probs: np.ndarray

    @classmethod
    def from_counts(cls, strokes, counts) -> Pmf:
        strokes = np.asarray(strokes, np.int64)
        counts = np.asarray(counts, np.float64)
        if strokes.size == 0 or counts.sum() <= 0:
            raise ValueError("an empty stroke distribution")
        lo, hi = int(strokes.min()), int(strokes.max())
        probs = np.zeros(hi - lo + 1)
        np.add.at(probs, strokes - lo, counts)
        return cls(lo, probs / probs.sum())

    @property
    def values(self) -> np.ndarray:
        return np.arange(self.lo, self.lo + self.probs.size)

    def __add__(self, other: Pmf) -> Pmf:
        """The distribution of the sum of independent draws from ``self`` and ``other``."""
        return Pmf(self.lo + other.lo, np.convolve(self.probs, other.probs))

    def total(self, holes: int) -> Pmf:
        """Sum of ``holes`` independent draws, by exact convolution (square-and-multiply)."""
        if holes < 1:
            raise ValueError("a round has at least one hole")
        result, power, k = None, self, holes
        while k:
            if k & 1:
                result = power if result is None else result + power
            k >>= 1
            if k:
                power = power + power
        return Pmf(result.lo, np.clip(result.probs, 0.0, None))

    def cdf(self, t: int) -> float:
        k = t - self.lo
        return 0.0 if k < 0 else float(self.probs[:k + 1].sum())

    def prob(self, lo: int | None, hi: int | None) -> float:
        """P(lo <= X <= hi), an open end for None."""
        v = self.values
        mask = np.ones(v.size, bool)
        if lo is not None:
            mask &= v >= lo
        if hi is not None:
            mask &= v <= hi
        return float(self.probs[mask].sum())

    def quantile(self, q: float) -> int:
        """Smallest value t with P(X <= t) >= q."""
        cum = np.cumsum(self.probs)
        return self.lo + int(np.searchsorted(cum, q - 1e-12))

    @property
    def mean(self) -> float:
        return float((self.values * self.probs).sum())

    @property
    def sd(self) -> float:
        return float(np.sqrt(((self.values - self.mean) ** 2 * self.probs).sum()))


def hole_par(strokes, lo: int = 3, hi: int = 5):
    """The par of a hole: the reference player's strokes on that deal, clamped to lo..hi."""
    if lo > hi:
        raise ValueError(f"hole par minimum {lo} is above the maximum {hi}")
    return np.clip(strokes, lo, hi)


@dataclass(frozen=True)
class RoundPar:
    """Par of a round of ``holes`` holes for one reference distribution."""

    holes: int
    par: int
    mean: float
    sd: float
    quantiles: dict[str, int]
    traditional: int
    p_at_or_under_traditional: float
    p_under_traditional: float
    p_perfect: float  # total <= 0
    pmf: Pmf = field(repr=False)


def round_par(per_hole: Pmf, holes: int) -> RoundPar:
    """The round total's distribution, its par (the median) and its spread."""
    total = per_hole.total(holes)
    par = total.quantile(0.5)
    traditional = TRADITIONAL_PER_HOLE * holes
    quantiles = {f"p{int(q * 100)}": total.quantile(q) for q in (0.1, 0.25, 0.5, 0.75, 0.9)}
    return RoundPar(holes, par, total.mean, total.sd, quantiles, traditional,
                    total.cdf(traditional), total.cdf(traditional - 1), total.cdf(0), total)


@dataclass(frozen=True)
class HolePar:
    """Per-hole pars of the reference player (clamped to ``lo..hi``) on random deals."""

    lo: int
    hi: int
    shares: dict[int, float]  # hole par -> share of deals
    mean: float
    course_par: dict[int, int]  # holes -> median sum of hole pars over a random course


def hole_par_summary(per_hole: Pmf, lo: int = 3, hi: int = 5, round_sizes=(9, 18)) -> HolePar:
    v = per_hole.values
    clamped = Pmf.from_counts(hole_par(v, lo, hi), per_hole.probs)
    shares = {int(p): float(q) for p, q in zip(clamped.values, clamped.probs, strict=True) if q > 0}
    course = {h: clamped.total(h).quantile(0.5) for h in round_sizes}
    return HolePar(lo, hi, shares, clamped.mean, course)


@dataclass(frozen=True)
class ParResult:
    """Everything ``golfstats par`` reports for one variant and reference policy."""

    variant: str
    policy: str
    n: int
    per_hole: Pmf
    rounds: dict[int, RoundPar]
    hole: HolePar
    versus_hole_par: pl.DataFrame | None = None  # policy x result shares, from deal rows


def par_from_hist(variant: str, policy: str, hist: list[dict], lo: int = 3, hi: int = 5,
                  round_sizes=(9, 18)) -> ParResult:
    """Par from a stroke histogram (``[{"strokes": s, "count": c}, ...]``, as in summary.parquet)."""
    pmf = Pmf.from_counts([h["strokes"] for h in hist], [h["count"] for h in hist])
    n = int(sum(h["count"] for h in hist))
    rounds = {h: round_par(pmf, h) for h in round_sizes}
    return ParResult(variant, policy, n, pmf, rounds, hole_par_summary(pmf, lo, hi, round_sizes))


def versus_hole_par(deals: pl.DataFrame, variant: str, reference: str, lo: int = 3,
                    hi: int = 5) -> pl.DataFrame:
    """How every policy scores against the hole pars set by ``reference`` on the same deals:
    one row per policy with the share of holes in each result class and mean strokes over par."""
    keys = ["seed", "deal_index"]
    rows = deals.filter(pl.col("variant") == variant)
    ref = (rows.filter(pl.col("policy") == reference)
           .select(*keys, pl.col("strokes").clip(lo, hi).alias("hole_par")))
    joined = rows.join(ref, on=keys).with_columns((pl.col("strokes") - pl.col("hole_par")).alias("over"))
    aggs = [pl.len().alias("holes"), pl.col("over").mean().alias("mean_over_par")]
    for name, a, b in CLASSES:
        cond = pl.lit(True)
        if a is not None:
            cond = cond & (pl.col("over") >= a)
        if b is not None:
            cond = cond & (pl.col("over") <= b)
        aggs.append(cond.mean().alias(name))
    from golfstats.runs import order

    out = joined.group_by("policy").agg(aggs).with_columns(pl.lit(variant).alias("variant"))
    return order(out.select("variant", "policy", *[c for c in out.columns if c not in ("variant", "policy")]))


def par_table(results: list[ParResult]) -> pl.DataFrame:
    """One row per variant and reference: par, quantiles and the traditional comparison."""
    rows = []
    for r in results:
        row = {"variant": r.variant, "policy": r.policy, "n": r.n, "mean_per_hole": r.per_hole.mean}
        for h, rp in r.rounds.items():
            row[f"par{h}"] = rp.par
            row[f"mean{h}"] = rp.mean
            row[f"p10_{h}"] = rp.quantiles["p10"]
            row[f"p90_{h}"] = rp.quantiles["p90"]
            row[f"p_le_{rp.traditional}"] = rp.p_at_or_under_traditional
        row["mean_hole_par"] = r.hole.mean
        for h, cp in r.hole.course_par.items():
            row[f"course_par{h}"] = cp
        rows.append(row)
    return pl.DataFrame(rows, infer_schema_length=None)


def _pct(p: float) -> str:
    if p == 0:
        return "0%"
    return f"{100 * p:.1f}%" if p >= 0.001 else f"{100 * p:.2g}%"


def _hole_pars_text(r: ParResult) -> str:
    """The hole pars in words, and why a course of them has another par than a round."""
    hp = r.hole
    shares = ", ".join(f"par {p} on {_pct(s)}" for p, s in sorted(hp.shares.items()))
    courses = " and ".join(f"{cp} for {h} holes" for h, cp in hp.course_par.items())
    text = (f"A hole's par is {r.policy}'s strokes on that deal, kept within {hp.lo}..{hp.hi}: "
            f"{shares} of deals.  A course of such holes has par {courses} (the median; "
            "`golfstats course` gives each course its own, the sum of its holes' pars).")
    diffs = [(h, hp.course_par[h] - r.rounds[h].par) for h in hp.course_par if h in r.rounds]
    if any(d for _, d in diffs):
        h, d = diffs[0]
        why = (f"a deal {r.policy} clears (0 strokes or fewer) still has par {hp.lo} on the card"
               if d > 0 else f"a deal {r.policy} loses with many cards left has par {hp.hi} at most")
        text += (f"  That is {abs(d)} {'above' if d > 0 else 'below'} the round par for {h} holes "
                 f"because {why}: print the round par for a round of deals nobody chose, the "
                 "sum of the hole pars on a course card that gives each hole its par.")
    return text


def par_blocks(r: ParResult) -> list[Block]:
    """The par report of one ``ParResult``: the par to print and why, the spread of round
    totals, the hole pars and (with deal rows) every player against them."""
    pars = ", ".join(f"{h} holes {rp.par}" for h, rp in r.rounds.items())
    blocks: list[Block] = [
        Heading(f"{r.variant}: par for {r.policy} ({r.n:,} deals)"),
        Para(f"Par to print: {pars}.", strong=True),
        Para(f"Why: par is the median round total of the reference player {r.policy}, so a "
             f"steady player scores par or better in at least half of his rounds.  {r.policy} "
             f"scores {r.per_hole.mean:.2f} strokes a hole on average (sd {r.per_hole.sd:.2f}); "
             "a round's total is that distribution convolved over its independent deals, "
             "exactly."),
        Table(("holes", "par", "mean", "10% <=", "90% <=", "<= 5 a hole", "<= 0"),
              tuple((str(h), str(rp.par), f"{rp.mean:.1f}", str(rp.quantiles["p10"]),
                     str(rp.quantiles["p90"]), _pct(rp.p_at_or_under_traditional),
                     _pct(rp.p_perfect)) for h, rp in r.rounds.items()),
              (True,) * 7, title=f"Round totals of {r.policy}"),
        Para("10% <= and 90% <=: one round in ten totals that or less, nine in ten that or "
             "less; <= 5 a hole: the share of rounds that meet the traditional par (45 for 9 "
             "holes, 90 for 18); <= 0: perfect rounds."),
        Para(_hole_pars_text(r)),
    ]
    if r.versus_hole_par is not None and not r.versus_hole_par.is_empty():
        cols = [name for name, _, _ in CLASSES]
        blocks.append(Table(
            ("player", "holes", "mean over par", *cols),
            tuple((row["policy"], f"{row['holes']:,}", f"{row['mean_over_par']:+.2f}",
                   *(_pct(row[c]) for c in cols)) for row in r.versus_hole_par.iter_rows(named=True)),
            (False, True, True, *(True,) * len(cols)),
            title=f"Every player against {r.policy}'s hole pars (share of holes)"))
    return blocks


def format_par(r: ParResult) -> str:
    """``par_blocks`` as Markdown (what ``golfstats par --out`` writes)."""
    from golfstats.report.doc import markdown

    return markdown(par_blocks(r))


def par_for_runs(runs, policy: str | None = None, variant: str | None = None, lo: int = 3,
                 hi: int = 5) -> list[ParResult]:
    """``ParResult`` of every variant of ``runs`` (or only ``variant``, a canonical id) for
    the reference ``policy`` (default ``PAR_REFERENCE``); with deal rows, every policy is
    also scored against that reference's hole pars.  ``RunQueryError`` when the variant or
    the policy is not in the runs."""
    from golfstats.runs import RunQueryError, merge_summaries

    summary = merge_summaries(runs)
    if variant:
        summary = summary.filter(pl.col("variant") == variant)
        if summary.is_empty():
            raise RunQueryError(f"variant {variant} is not in the run")
    deals = _deals(runs)
    return [_variant_par(summary, deals, v, policy, lo, hi)
            for v in summary["variant"].unique(maintain_order=True)]


def par_section(runs) -> list[Block]:
    """The report page's par: for every variant the runs played ``PAR_REFERENCE`` on, its
    ``par_blocks``; a line for each variant they did not."""
    from golfstats.runs import RunQueryError, merge_summaries

    summary = merge_summaries(runs)
    deals = _deals(runs)
    blocks: list[Block] = []
    for v in summary["variant"].unique(maintain_order=True):
        try:
            blocks += par_blocks(_variant_par(summary, deals, v, None, 3, 5))
        except RunQueryError as exc:
            blocks.append(Para(f"{v}: no par here: {exc}."))
    return blocks


def _deals(runs) -> pl.DataFrame | None:
    from golfstats.runs import merge_deals

    return merge_deals(runs) if any(r.has_deals for r in runs) else None


def _variant_par(summary: pl.DataFrame, deals: pl.DataFrame | None, variant: str,
                 policy: str | None, lo: int, hi: int) -> ParResult:
    from dataclasses import replace

    from golfstats.runs import RunQueryError, resolve_policy

    rows = summary.filter(pl.col("variant") == variant)
    try:
        ref = resolve_policy(policy or PAR_REFERENCE, rows["policy"])
    except RunQueryError:
        if policy:
            raise
        raise RunQueryError(f"the run has no rows of {PAR_REFERENCE}, par's reference player by "
                            f"default, for {variant}; name another with --policy (it has: "
                            f"{', '.join(rows['policy'])})") from None
    hist = rows.filter(pl.col("policy") == ref)["stroke_hist"][0].to_list()
    result = par_from_hist(variant, ref, hist, lo, hi)
    if deals is not None:
        result = replace(result, versus_hole_par=versus_hole_par(deals, variant, ref, lo, hi))
    return result
