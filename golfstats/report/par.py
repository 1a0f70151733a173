"""Par for rounds of 9 and 18 holes, from a reference player's per-hole stroke distribution.

Method.  The strokes of one hole (one fresh deal) have the distribution observed for
the reference policy (its stroke histogram over a run's deals).  Holes are
independent deals, so the distribution of a round's total is the per-hole
distribution convolved with itself 9 (or 18) times: computed *exactly* by discrete
convolution, no resampling.

Recommended par rule.  The par of a round is the *median* round total: the smallest
total t with P(total <= t) >= 1/2, so the reference player scores par or better in at
least half of his rounds (totals are whole strokes, so the median needs no rounding).
Against it a round is an eagle (or better) at par-2 or less, a birdie at par-1,
par, a bogey at par+1, a double bogey at par+2, and worse beyond.

Per-hole par.  Some games give each hole its own par: what the reference player
scores on that very deal, clamped to 3..5 by default (``hole_par``); a course's par
is the sum of its holes' pars.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import polars as pl

#: Result names against a par, by strokes over par (None: open end).
CLASSES: tuple[tuple[str, int | None, int | None], ...] = (
    ("eagle or better", None, -2), ("birdie", -1, -1), ("par", 0, 0), ("bogey", 1, 1),
    ("double bogey", 2, 2), ("worse", 3, None))
TRADITIONAL_PER_HOLE = 5  # docs/rules.md: par 45 for 9 holes, 90 for 18
METHOD = "exact convolution of the per-hole stroke distribution (holes are independent deals)"
PAR_RULE = "par = median round total (smallest t with P(total <= t) >= 1/2)"


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
    classes: list[tuple[str, str, float]]  # (name, totals, probability)
    traditional: int
    p_at_or_under_traditional: float
    p_under_traditional: float
    p_perfect: float  # total <= 0
    pmf: Pmf = field(repr=False)


def round_par(per_hole: Pmf, holes: int) -> RoundPar:
    """The round total's distribution, its par (the median) and what each result needs."""
    total = per_hole.total(holes)
    par = total.quantile(0.5)
    classes = []
    for name, lo, hi in CLASSES:
        a = None if lo is None else par + lo
        b = None if hi is None else par + hi
        if a is None:
            text = f"<= {b}"
        elif b is None:
            text = f">= {a}"
        else:
            text = str(a) if a == b else f"{a}..{b}"
        classes.append((name, text, total.prob(a, b)))
    traditional = TRADITIONAL_PER_HOLE * holes
    quantiles = {f"p{int(q * 100)}": total.quantile(q) for q in (0.1, 0.25, 0.5, 0.75, 0.9)}
    return RoundPar(holes, par, total.mean, total.sd, quantiles, classes, traditional,
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


def format_par(r: ParResult) -> str:
    """A human-readable report of one ``ParResult`` (Markdown-friendly)."""
    lines = [f"### {r.variant}: par for the reference player {r.policy} ({r.n} deals)", "",
             f"Per hole: mean {r.per_hole.mean:.2f} strokes, sd {r.per_hole.sd:.2f}.",
             f"Round totals: {METHOD}.", f"Recommended par rule: {PAR_RULE}.", ""]
    for h, rp in r.rounds.items():
        q = rp.quantiles
        lines += [f"**{h} holes: par {rp.par}** (mean {rp.mean:.1f}, sd {rp.sd:.1f}; "
                  f"10/25/50/75/90% quantiles {q['p10']}/{q['p25']}/{q['p50']}/{q['p75']}/{q['p90']})", "",
                  "| result | round total | probability |", "|---|---:|---:|"]
        lines += [f"| {name} | {text} | {100 * p:.1f}% |" for name, text, p in rp.classes]
        lines += ["", f"Traditional par {rp.traditional}: the reference player scores {rp.traditional} "
                      f"or better in {100 * rp.p_at_or_under_traditional:.1f}% of rounds (beats it in "
                      f"{100 * rp.p_under_traditional:.1f}%); a perfect round (total <= 0) has "
                      f"probability {100 * rp.p_perfect:.2g}%.", ""]
    hp = r.hole
    shares = ", ".join(f"par {p}: {100 * s:.1f}%" for p, s in sorted(hp.shares.items()))
    courses = ", ".join(f"{h} holes {cp}" for h, cp in hp.course_par.items())
    lines += [f"Per-hole par (the reference player's strokes on the deal, clamped to {hp.lo}..{hp.hi}): "
              f"{shares}; mean hole par {hp.mean:.2f}; median course par {courses}.", ""]
    if r.versus_hole_par is not None and not r.versus_hole_par.is_empty():
        cols = [name for name, _, _ in CLASSES]
        lines += ["Each policy against these hole pars (share of holes):", "",
                  "| policy | holes | mean over par | " + " | ".join(cols) + " |",
                  "|---|---:|---:|" + "---:|" * len(cols)]
        for row in r.versus_hole_par.iter_rows(named=True):
            lines.append(f"| {row['policy']} | {row['holes']} | {row['mean_over_par']:+.2f} | "
                         + " | ".join(f"{100 * row[c]:.1f}%" for c in cols) + " |")
        lines.append("")
    return "\n".join(lines)


def par_for_runs(runs, policy: str | None = None, variant: str | None = None, lo: int = 3,
                 hi: int = 5) -> list[ParResult]:
    """``ParResult`` of every variant of ``runs`` (or only ``variant``, a canonical id) for
    the reference ``policy`` (default: the best honest policy of each variant); with deal
    rows, every policy is also scored against that reference's hole pars.  ``RunError``
    when the variant or the policy is not in the runs."""
    from dataclasses import replace

    from golfstats.runs import RunError, best_honest, merge_deals, merge_summaries, resolve_policy

    summary = merge_summaries(runs)
    if variant:
        summary = summary.filter(pl.col("variant") == variant)
        if summary.is_empty():
            raise RunError(f"variant {variant} is not in the run")
    deals = merge_deals(runs) if any(r.has_deals for r in runs) else None
    results = []
    for v in summary["variant"].unique(maintain_order=True):
        rows = summary.filter(pl.col("variant") == v)
        ref = resolve_policy(policy, rows["policy"]) if policy else best_honest(summary, v)
        if ref is None:
            raise RunError(f"no honest policy in the run for {v}; choose one with --policy")
        hist = rows.filter(pl.col("policy") == ref)["stroke_hist"][0].to_list()
        result = par_from_hist(v, ref, hist, lo, hi)
        if deals is not None:
            result = replace(result, versus_hole_par=versus_hole_par(deals, v, ref, lo, hi))
        results.append(result)
    return results
