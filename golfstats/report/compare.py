"""Paired comparison of two policies on the same deals, and match play between them.

Every policy of a simulate run plays the same deals, so two policies' results form
pairs.  Win rates are compared with McNemar's test (exact binomial, and the
continuity-corrected chi-square) and Newcombe's paired interval for the difference;
strokes with the mean paired difference and its normal-approximation interval.
Match play groups consecutive deals (by deal index) into rounds of 9 or 18 holes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import polars as pl

from golfstats.runs.tally import MATCH_FIELDS, ROUND_SIZES, match_counts, pair_tally_of, paired
from golfstats.stats import Z95, wilson

# ------------------------------------------------------------------ statistics

def mcnemar(b: int, c: int) -> tuple[float, float, float]:
    """McNemar's test on the discordant counts ``b`` (only A won) and ``c`` (only B won).

    Returns (exact two-sided p, chi-square with continuity correction, its p-value).
    The exact p is ``min(1, 2 P(X <= min(b, c)))`` with ``X ~ Binomial(b + c, 1/2)``.
    With no discordant pair both p-values are 1.
    """
    m = b + c
    if m == 0:
        return 1.0, 0.0, 1.0
    k = np.arange(min(b, c) + 1)
    # log C(m, k) by a running sum of log((m - j) / (j + 1)): exact enough for any m here
    steps = np.log(m - k[:-1]) - np.log(k[:-1] + 1) if k.size > 1 else np.zeros(0)
    log_pmf = np.concatenate([[0.0], np.cumsum(steps)]) - m * math.log(2)
    top = log_pmf.max()
    tail = math.exp(top) * float(np.exp(log_pmf - top).sum())
    exact = min(1.0, 2 * tail)
    chi2 = (abs(b - c) - 1) ** 2 / m if abs(b - c) > 1 else 0.0
    return exact, chi2, math.erfc(math.sqrt(chi2 / 2))


#: Below this a p-value is printed as "< 1e-300": a double's exponent ends near there, and
#: a p that small (strict's exact p is about 1e-57708) underflows to 0, which it is not.
P_FLOOR = 1e-300


def p_text(p: float) -> str:
    """A p-value in words: ``0.0123``, or ``< 1e-300`` where it is too small for a double
    (never ``0``)."""
    return "< 1e-300" if p < P_FLOOR else f"{p:.4g}"


def newcombe_independent(x1: int, n1: int, x2: int, n2: int, z: float = Z95) -> tuple[float, float]:
    """95% interval for ``x1/n1 - x2/n2`` from independent samples (Newcombe 1998, method 10)."""
    p1, p2 = x1 / n1, x2 / n2
    l1, u1 = wilson(x1, n1, z)
    l2, u2 = wilson(x2, n2, z)
    d = p1 - p2
    return d - math.hypot(p1 - l1, u2 - p2), d + math.hypot(u1 - p1, p2 - l2)


def newcombe_paired(a: int, b: int, c: int, d: int, z: float = Z95) -> tuple[float, float]:
    """95% interval for the difference of paired proportions (A won) - (B won).

    ``a`` both won, ``b`` only A, ``c`` only B, ``d`` neither.  Newcombe (1998) method 10:
    the Wilson intervals of the two marginal rates combined with the phi correlation of
    the 2x2 table, corrected for continuity as in Newcombe's paper (and Altman et al.,
    *Statistics with confidence*, 2000).
    """
    n = a + b + c + d
    p1, p2 = (a + b) / n, (a + c) / n
    l1, u1 = wilson(a + b, n, z)
    l2, u2 = wilson(a + c, n, z)
    margins = (a + b) * (c + d) * (a + c) * (b + d)
    cross = a * d - b * c
    if margins == 0:
        phi = 0.0
    else:
        corrected = cross - n / 2 if cross > n / 2 else (cross if cross < 0 else 0.0)
        phi = corrected / math.sqrt(margins)
    diff = p1 - p2
    low = diff - math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    high = diff + math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
    return max(-1.0, low), min(1.0, high)


def mean_interval_of_sums(n: int, total: int | float, squares: int | float,
                          z: float = Z95) -> tuple[float, float, float]:
    """Mean of n values from their sum and sum of squares, and its normal-approximation
    95% interval (fine for n >= 30); integer sums give an exact variance."""
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    mean = total / n
    if n < 2:
        return mean, float("nan"), float("nan")
    var = max(0.0, (squares * n - total * total) / (n * (n - 1)))
    half = z * math.sqrt(var) / math.sqrt(n)
    return mean, mean - half, mean + half


# ------------------------------------------------------------------ match play

@dataclass(frozen=True)
class MatchPlay:
    """Rounds of ``holes`` consecutive deals between A and B (an incomplete last round is
    dropped; counted by ``runs.tally.match_counts``).

    Match play: the player who wins more holes (fewer strokes on the hole) wins the round;
    equal holes won halve it.  Stroke play: the lower round total wins.
    """

    holes: int
    rounds: int
    a_rounds: int
    b_rounds: int
    halved_rounds: int
    a_holes: int
    b_holes: int
    halved_holes: int
    a_stroke_rounds: int
    b_stroke_rounds: int
    tied_stroke_rounds: int


def match_play(strokes_a: np.ndarray, strokes_b: np.ndarray, holes: int) -> MatchPlay:
    """Match play over rounds of ``holes`` consecutive deals (arrays in deal order)."""
    return MatchPlay(holes, **match_counts(strokes_a, strokes_b, holes))


# ------------------------------------------------------------------ comparison

@dataclass(frozen=True)
class Comparison:
    """A paired comparison of policies ``a`` and ``b`` on the ``n`` deals both played."""

    variant: str
    a: str
    b: str
    n: int
    both: int  # deals both won
    only_a: int
    only_b: int
    neither: int
    win_rate_a: float
    win_rate_b: float
    diff: float  # win_rate_a - win_rate_b
    diff_low: float
    diff_high: float
    mcnemar_exact_p: float
    mcnemar_chi2: float
    mcnemar_chi2_p: float
    mean_strokes_a: float
    mean_strokes_b: float
    stroke_diff: float  # mean of strokes_a - strokes_b (negative: A scores better)
    stroke_diff_low: float
    stroke_diff_high: float
    matches: dict[int, MatchPlay] = field(default_factory=dict)
    #: "a" or "b" when that side sees the stock order (a clairvoyant player), else "".
    clairvoyant: str = ""

    def mcnemar_omitted(self) -> str | None:
        """Why McNemar's test is empty here (it is then not printed), or None.  It weighs
        the deals one side won and the other lost; with none it has nothing to weigh, and
        against the clairvoyant optimum an honest player never wins a deal alone: every
        deal it wins, the player who sees the stock order wins too."""
        if self.only_a + self.only_b == 0:
            return "no deal was won by one and lost by the other"
        seer, other, alone = ((self.a, self.b, self.only_b) if self.clairvoyant == "a" else
                              (self.b, self.a, self.only_a) if self.clairvoyant == "b" else
                              (None, None, 1))
        if seer is not None and alone == 0:
            return (f"{seer} sees the stock order and won every deal {other} won, as the "
                    "clairvoyant optimum does by construction: the test would only restate that")
        return None


def comparison_from_tally(t: dict) -> Comparison:
    """The comparison of a pair tally (``runs.tally``: one ``PAIR_SCHEMA`` row as a dict)."""
    n, both, only_a, only_b, neither = t["n"], t["both"], t["only_a"], t["only_b"], t["neither"]
    low, high = newcombe_paired(both, only_a, only_b, neither) if n else (float("nan"),) * 2
    exact_p, chi2, chi2_p = mcnemar(only_a, only_b)
    diff_sum = t["strokes_a_sum"] - t["strokes_b_sum"]
    mean, mlow, mhigh = mean_interval_of_sums(n, diff_sum, t["diff_sq"])
    matches = {h: MatchPlay(h, **{f: t[f"r{h}_{f}"] for f in MATCH_FIELDS}) for h in ROUND_SIZES}
    nan = float("nan")
    return Comparison(t["variant"], t["a"], t["b"], n, both, only_a, only_b, neither,
                      (both + only_a) / n if n else nan, (both + only_b) / n if n else nan,
                      (only_a - only_b) / n if n else nan, low, high, exact_p, chi2, chi2_p,
                      t["strokes_a_sum"] / n if n else nan, t["strokes_b_sum"] / n if n else nan,
                      mean, mlow, mhigh, matches, clairvoyant_side(t["a"], t["b"]))


def compare_pair(pairs: pl.DataFrame, variant: str, a: str, b: str) -> Comparison:
    """The comparison of one variant's paired rows (as made by ``runs.tally.paired``)."""
    return comparison_from_tally(pair_tally_of(pairs, variant, a, b))


def clairvoyant_side(a: str, b: str) -> str:
    """"a" or "b" when that policy sees the stock order (and the other does not), else ""
    (names that are no registered policy count as honest)."""
    from golfstats.policies import PolicyError, is_honest

    def sees(spec: str) -> bool:
        try:
            return not is_honest(spec)
        except PolicyError:
            return False

    seer_a, seer_b = sees(a), sees(b)
    return "a" if seer_a and not seer_b else "b" if seer_b and not seer_a else ""


def compare_policies(deals: pl.DataFrame, a: str, b: str) -> list[Comparison]:
    """One ``Comparison`` per variant in ``deals`` where both policies played."""
    pairs = paired(deals, a, b)
    out = []
    for variant in pairs["variant"].unique(maintain_order=True):
        rows = pairs.filter(pl.col("variant") == variant)
        out.append(compare_pair(rows, variant, a, b))
    return out


def comparison_table(results: list[Comparison]) -> pl.DataFrame:
    """One row per comparison (and round size) with every figure, for CSV."""
    rows = []
    for r in results:
        row = {k: v for k, v in r.__dict__.items() if k not in ("matches", "clairvoyant")}
        row["mcnemar_omitted"] = r.mcnemar_omitted() or ""
        for h, m in r.matches.items():
            for key, value in m.__dict__.items():
                if key != "holes":
                    row[f"r{h}_{key}"] = value
        rows.append(row)
    return pl.DataFrame(rows, infer_schema_length=None)


def mcnemar_line(r: Comparison) -> str:
    """McNemar's test in words: both p-values (``p_text``), or why it is omitted."""
    omitted = r.mcnemar_omitted()
    if omitted:
        return f"McNemar's test: omitted ({omitted})"
    return (f"McNemar's test: exact p = {p_text(r.mcnemar_exact_p)}; chi-square "
            f"(continuity-corrected) = {r.mcnemar_chi2:.3f}, p = {p_text(r.mcnemar_chi2_p)}")


def paired_findings(r: Comparison) -> list[str]:
    """The paired findings of A against B: win rates and their difference, the deals by
    who won them, McNemar's test and the stroke difference."""
    def pct(x: float) -> str:
        return f"{100 * x:.2f}%"

    return [
        f"Win rate: A {pct(r.win_rate_a)}, B {pct(r.win_rate_b)}; difference A-B "
        f"{100 * r.diff:+.2f} pp, 95% CI [{100 * r.diff_low:+.2f}, {100 * r.diff_high:+.2f}] pp "
        "(Newcombe, paired)",
        f"Deals: both won {r.both}, only A {r.only_a}, only B {r.only_b}, neither {r.neither}",
        mcnemar_line(r),
        f"Strokes: mean A {r.mean_strokes_a:.3f}, B {r.mean_strokes_b:.3f}; mean difference A-B "
        f"{r.stroke_diff:+.3f}, 95% CI [{r.stroke_diff_low:+.3f}, {r.stroke_diff_high:+.3f}] "
        "(normal approximation)",
    ]


def comparison_blocks(r: Comparison) -> list:
    """The comparison as report blocks (``report.doc``): a heading and its findings."""
    from golfstats.report.doc import Bullets, Heading

    items = paired_findings(r)
    for h, m in r.matches.items():
        if not m.rounds:
            items.append(f"{h}-hole rounds: fewer than {h} paired deals, no round played")
            continue
        items.append(
            f"{h}-hole match play, {m.rounds} rounds: A won {m.a_rounds}, B won {m.b_rounds}, "
            f"halved {m.halved_rounds}; holes won A {m.a_holes}, B {m.b_holes}, halved {m.halved_holes}. "
            f"Stroke play: A lower {m.a_stroke_rounds}, B lower {m.b_stroke_rounds}, "
            f"tied {m.tied_stroke_rounds}")
    return [Heading(f"{r.variant}: {r.a} (A) vs {r.b} (B), {r.n} paired deals"), Bullets(tuple(items))]


def format_comparison(r: Comparison) -> str:
    """``comparison_blocks`` as Markdown (what ``golfstats compare --out`` writes)."""
    from golfstats.report.doc import markdown

    return markdown(comparison_blocks(r))
