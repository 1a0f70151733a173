"""Par: the one definition (docs/rules.md, "Par"), implemented once for ``par``,
``course``, ``report`` and the study.

- The par of a hole (one deal) is what the reference player is expected to score on it,
  over its unknown stock order: exact for a player whose rows carry the deal's
  ``expected_strokes`` (the perfect golfer, ``optimal:goal=strokes``), otherwise the mean
  over K stock orders of the deal (``golfstats.course_par``).
- A course's par is the sum of its holes' pars: ``course_par`` rounds the sum of the
  holes' expectations, and ``hole_pars`` rounds each hole so that the integers add up to
  it (largest remainder).  So the reference player scores the course's par on average,
  to within the rounding.
- A round of deals nobody chose has par = the median of the reference player's round
  totals: the per-hole stroke distribution convolved over the round's independent deals,
  exactly (``Pmf.total``).  ``round_par`` gives it with its uncertainty, from a bootstrap
  over whole deals (never over the play-outs of one deal): the 95% interval, the chance
  that the printed par is a stroke or more off, and how many deals a par stable to one
  stroke would need.

``par_of_playouts`` is the library function (the study's too): play-outs and their deals
in, ``ParResult`` out; ``par_of_deals`` takes each deal's strokes on its stock orders.
The report's text is ``golfstats.report.par_text``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import polars as pl

from golfstats.course_par import course_par, hole_pars
from golfstats.report.pmf import Pmf, round_medians

__all__ = ["BOOTSTRAP_RESAMPLES", "BOOTSTRAP_SEED", "ROUND_SIZES", "ParResult", "Pmf",
           "RoundPar", "course_par", "hole_pars", "par_from_hist", "par_of_deals", "par_of_playouts",
           "par_table", "round_par"]

ROUND_SIZES = (9, 18)
TRADITIONAL_PER_HOLE = 5  # docs/rules.md: par 45 for 9 holes, 90 for 18
#: Resamples of the bootstrap over deals, and its seed (the same data give the same interval).
BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 20261207
#: A par is stable to one stroke when its 95% interval spans at most one stroke:
#: 1.96 standard deviations of the continuous par at most this.
STABLE_HALF_WIDTH = 0.5
_Z95 = 1.959963984540054


@dataclass(frozen=True)
class RoundPar:
    """Par of a round of ``holes`` holes for one player: the median total ``par``, its
    95% bootstrap interval ``low..high``, ``p_off`` (the share of resamples whose par is
    not ``par``), ``deals_needed`` (deals for a par stable to one stroke; see
    ``round_par``), and the spread of the round total."""

    holes: int
    par: int
    low: int
    high: int
    p_off: float
    deals_needed: int
    mean: float
    sd: float
    quantiles: dict[str, int]
    traditional: int
    p_at_or_under_traditional: float
    p_under_traditional: float
    p_perfect: float  # total <= 0
    pmf: Pmf = field(repr=False)
    #: the resamples' pars (empty without a bootstrap): what a choice among players' pars
    #: (the study's "45 / 90 fits") is held to
    draws: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64), repr=False, compare=False)


@dataclass(frozen=True)
class _Resamples:
    """Per-hole distributions of bootstrap resamples of the deals (one row each)."""

    lo: int
    probs: np.ndarray
    deals: int


def _bare_round(per_hole: Pmf, holes: int) -> tuple[Pmf, dict]:
    total = per_hole.total(holes)
    traditional = TRADITIONAL_PER_HOLE * holes
    spread = dict(mean=total.mean, sd=total.sd,
                  quantiles={f"p{int(q * 100)}": total.quantile(q) for q in (0.1, 0.25, 0.5, 0.75, 0.9)},
                  traditional=traditional, p_at_or_under_traditional=total.cdf(traditional),
                  p_under_traditional=total.cdf(traditional - 1), p_perfect=total.cdf(0), pmf=total)
    return total, spread


def round_par(per_hole: Pmf, holes: int, resamples: _Resamples | None = None) -> RoundPar:
    """The round total's distribution, its par (the median) and its spread; with
    ``resamples`` (a bootstrap over deals), the par's interval, the chance it is off and
    the deals needed: n x (1.96 sd / 0.5)^2, with sd the resamples' standard deviation
    of the continuous median (``pmf.continuous_median``), which shrinks as 1/sqrt(n).
    Without resamples the interval is the par alone and nothing is off."""
    total, spread = _bare_round(per_hole, holes)
    par = total.quantile(0.5)
    if resamples is None:
        return RoundPar(holes, par, par, par, 0.0, 0, **spread)
    pars, smooth = round_medians(resamples.probs, resamples.lo, holes)
    low = int(np.quantile(pars, 0.025, method="lower"))
    high = int(np.quantile(pars, 0.975, method="higher"))
    sd = float(smooth.std())
    needed = math.ceil(resamples.deals * (_Z95 * sd / STABLE_HALF_WIDTH) ** 2)
    return RoundPar(holes, par, low, high, float(np.mean(pars != par)), needed, **spread,
                    draws=np.asarray(pars, np.int64))


@dataclass(frozen=True)
class ParResult:
    """Par of one player (``policy``) of one rule set (``variant``): ``n`` deals and
    ``playouts`` play-outs of them, the per-hole stroke distribution ``per_hole``, a
    hole's expected par ``mean_per_hole`` (``exact``: from the deals' exact expected
    strokes) and the par of each round size."""

    variant: str
    policy: str
    n: int
    per_hole: Pmf
    rounds: dict[int, RoundPar]
    playouts: int = 0
    mean_per_hole: float = math.nan
    exact: bool = False


def _deal_histograms(strokes: np.ndarray, deal: np.ndarray | None, lo: int, width: int
                     ) -> tuple[np.ndarray, np.ndarray]:
    """The deals' distinct rows (the share of a deal's play-outs at each stroke count) and
    how many deals have each.  With one play-out per deal (``deal`` None) a row is one
    stroke count, so the rows are the counts seen and the histogram says how many."""
    if deal is None:
        counts = np.bincount(strokes - lo, minlength=width)
        seen = np.flatnonzero(counts)
        rows = np.zeros((seen.size, width))
        rows[np.arange(seen.size), seen] = 1.0
        return rows, counts[seen]
    codes, deal_of = np.unique(deal, return_inverse=True)
    rows = np.zeros((codes.size, width))
    np.add.at(rows, (deal_of, strokes - lo), 1.0)
    return np.unique(rows / rows.sum(axis=1, keepdims=True), axis=0, return_counts=True)


def _bootstrap(groups: np.ndarray, counts: np.ndarray, lo: int, resamples: int, seed: int,
               size: int | None = None) -> _Resamples:
    """``resamples`` bootstrap resamples of the deals (drawn with replacement, each deal
    whole): the per-hole distribution of each resample.  Deals with the same row
    (``groups[g]``, ``counts[g]`` deals) are one group, so a resample is a multinomial
    draw over the groups (vectorised).  ``size``: draws per resample (default: the deals)."""
    n = int(counts.sum())
    size = size or n
    rng = np.random.default_rng(seed)
    weights = rng.multinomial(size, counts / n, size=resamples).astype(np.float64)
    return _Resamples(lo, weights @ groups / size, size)


def par_of_playouts(variant: str, policy: str, strokes, deal=None, *, expectations=None,
                    round_sizes=ROUND_SIZES, resamples: int = BOOTSTRAP_RESAMPLES,
                    seed: int = BOOTSTRAP_SEED, pooled_deals: int | None = None) -> ParResult:
    """Par of ``policy`` from its realised strokes: ``strokes[i]`` of play-out i of deal
    ``deal[i]`` (``deal`` None: one play-out per deal, as in a simulate run; the study
    passes its K stock orders of each deal).  Each deal weighs the same in the per-hole
    distribution (the mean of its play-outs' distribution).  ``expectations``: the deals'
    exact expected strokes when the player has them (the perfect golfer), which then give
    the mean hole par.  The bootstrap (``resamples`` of the deals, seeded by ``seed``;
    0: none) gives each par's interval.  ``pooled_deals``: the play-outs (``deal`` None)
    pool that many deals' stock orders, which are no longer told apart; each resample then
    draws that many play-outs, as if each deal had been played once: wider than resampling
    the deals whole (one play-out varies at least as much as a deal's mean over its
    orders), so the interval errs on the safe side."""
    strokes = np.asarray(strokes, np.int64).ravel()
    if strokes.size == 0:
        raise ValueError("an empty stroke distribution")
    deal = None if deal is None else np.asarray(deal).ravel()
    if deal is not None and deal.size != strokes.size:
        raise ValueError("one deal per play-out")
    lo = int(strokes.min())
    groups, counts = _deal_histograms(strokes, deal, lo, int(strokes.max()) - lo + 1)
    n = int(counts.sum())
    per_hole = Pmf(lo, counts @ groups / n)
    pooled = pooled_deals if deal is None and pooled_deals and pooled_deals < strokes.size else None
    boot = _bootstrap(groups, counts, lo, resamples, seed, pooled) if resamples else None
    rounds = {h: round_par(per_hole, h, boot) for h in round_sizes}
    exact = expectations is not None
    mean = float(np.mean(expectations)) if exact else per_hole.mean
    return ParResult(variant, policy, pooled or n, per_hole, rounds, strokes.size, mean, exact)


def par_of_deals(variant: str, policy: str, per_deal, **options) -> ParResult:
    """Par from each deal's strokes on its stock orders (``per_deal[d]``: the realised
    strokes of deal d on each of its orders, as the study's ledger keeps them in
    ``order_strokes``): ``par_of_playouts`` resampling the deals whole.  ``options`` are
    ``par_of_playouts``'s (``expectations``, ``round_sizes``, ``resamples``, ``seed``)."""
    kept = [np.asarray(s, np.int64).ravel() for s in per_deal]
    kept = [s for s in kept if s.size]
    if not kept:
        raise ValueError("an empty stroke distribution")
    deal = np.repeat(np.arange(len(kept)), [s.size for s in kept])
    return par_of_playouts(variant, policy, np.concatenate(kept), deal, **options)


def par_from_hist(variant: str, policy: str, hist: list[dict], round_sizes=ROUND_SIZES,
                  resamples: int = BOOTSTRAP_RESAMPLES, seed: int = BOOTSTRAP_SEED,
                  expectations=None, deals: int | None = None) -> ParResult:
    """Par from a stroke histogram (``[{"strokes": s, "count": c}, ...]``, as in
    summary.parquet) of one play-out per deal, or of ``deals`` deals' pooled play-outs
    (the study's optimum: ``par_of_playouts``'s ``pooled_deals``)."""
    values = np.array([h["strokes"] for h in hist], np.int64)
    counts = np.array([h["count"] for h in hist], np.int64)
    return par_of_playouts(variant, policy, np.repeat(values, counts), expectations=expectations,
                           round_sizes=round_sizes, resamples=resamples, seed=seed,
                           pooled_deals=deals)


def par_table(results: list[ParResult]) -> pl.DataFrame:
    """One row per rule set and player: par with its interval, the chance it is off and
    the deals needed, the spread, and the traditional comparison.  ``mean_hole_par`` is a
    hole's expected par (its mean strokes); ``course_parH`` the par of a course of H
    holes of that expectation (``course_par``), which a course of chosen deals replaces
    by the sum of its own holes' pars."""
    rows = []
    for r in results:
        row = {"variant": r.variant, "policy": r.policy, "n": r.n, "playouts": r.playouts,
               "mean_per_hole": r.per_hole.mean}
        for h, rp in r.rounds.items():
            row |= {f"par{h}": rp.par, f"par{h}_low": rp.low, f"par{h}_high": rp.high,
                    f"p_off{h}": rp.p_off, f"deals_needed{h}": rp.deals_needed,
                    f"mean{h}": rp.mean, f"p10_{h}": rp.quantiles["p10"],
                    f"p90_{h}": rp.quantiles["p90"], f"p_le_{rp.traditional}": rp.p_at_or_under_traditional}
        row["mean_hole_par"] = r.mean_per_hole
        row["exact_hole_par"] = r.exact
        for h in r.rounds:
            row[f"course_par{h}"] = course_par(np.full(h, r.mean_per_hole))
        rows.append(row)
    return pl.DataFrame(rows, infer_schema_length=None)
