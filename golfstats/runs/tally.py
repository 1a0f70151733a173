"""Tallies: the sufficient statistics of deal rows, which add.

A *policy tally* holds, per variant and policy, the counts and sums every figure of
``summary.parquet`` is computed from (``summary_of``): deals, truncated, wins, the sums
and sums of squares of the kept deals' strokes, the sums of points, draws, moves, longest
chains and states, the most states, the seconds, the honest values' counts and sums, and
the stroke histogram.  A *pair tally* holds, per variant and ordered pair of policies
(a, b) that played the same deals, what a paired comparison is computed from
(``report.compare``): the 2x2 table of wins, the strokes' sums, the sum of squared
differences, and the match-play counts of rounds of 9 and 18 consecutive deals.

Merging tallies is addition (``merge_tallies``, ``merge_pair_tallies``): chunks from
workers, parts of a run, or a study's committed chunks (``study.ledger``) combine the
same way.  Integer sums are exact, so the figures do not depend on how the deals were
split; float sums (the honest values, seconds) are added in the order given (a caller
that wants bit-identical figures gives the same tallies in the same order).  Match play
groups consecutive deals starting at each tally's first deal: tallies of chunks that
start at multiples of 18 add up to the tally of the whole run.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from golfstats.runs.schema import SUMMARY_SCHEMA
from golfstats.stats import Z95, wilson

KEYS = ["variant", "policy"]
PAIR_KEYS = ["variant", "a", "b"]
#: Round sizes of match play (holes of consecutive deals).
ROUND_SIZES = (9, 18)

_HIST = pl.List(pl.Struct({"strokes": pl.Int64, "count": pl.Int64}))
TALLY_SCHEMA: dict[str, pl.DataType] = {
    "variant": pl.String, "policy": pl.String, "n": pl.Int64, "truncated": pl.Int64,
    "wins": pl.Int64, "strokes_sum": pl.Int64, "strokes_sq": pl.Int64, "points_sum": pl.Int64,
    "draws_sum": pl.Int64, "n_moves_sum": pl.Int64, "longest_chain_sum": pl.Int64,
    "states_sum": pl.Int64, "max_states": pl.Int64, "seconds_sum": pl.Float64,
    "n_win_p": pl.Int64, "win_p_sum": pl.Float64, "win_p_sq": pl.Float64,
    "n_expected_strokes": pl.Int64, "expected_strokes_sum": pl.Float64, "stroke_hist": _HIST,
}
#: Match-play counts per round size (``report.compare.MatchPlay``'s fields).
MATCH_FIELDS = ("rounds", "a_rounds", "b_rounds", "halved_rounds", "a_holes", "b_holes",
                "halved_holes", "a_stroke_rounds", "b_stroke_rounds", "tied_stroke_rounds")
PAIR_SCHEMA: dict[str, pl.DataType] = {
    "variant": pl.String, "a": pl.String, "b": pl.String, "n": pl.Int64, "both": pl.Int64,
    "only_a": pl.Int64, "only_b": pl.Int64, "neither": pl.Int64, "strokes_a_sum": pl.Int64,
    "strokes_b_sum": pl.Int64, "diff_sq": pl.Int64,
    **{f"r{h}_{f}": pl.Int64 for h in ROUND_SIZES for f in MATCH_FIELDS},
}
_SUMS = [c for c, t in TALLY_SCHEMA.items() if c not in (*KEYS, "max_states", "stroke_hist")]


def tally(deals: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
    """The policy tally of deal rows (a frame, or a lazy scan of parts: aggregated by
    polars' streaming engine, so memory does not grow with the rows), one row per
    variant and policy in ``TALLY_SCHEMA``, sorted by them."""
    lf = deals.lazy()
    kept = ~pl.col("truncated")
    strokes = pl.col("strokes").cast(pl.Int64)

    def kept_sum(name: str) -> pl.Expr:
        return pl.col(name).filter(kept).cast(pl.Int64).sum()

    sums = lf.group_by(KEYS).agg(
        n=pl.len().cast(pl.Int64),
        truncated=pl.col("truncated").cast(pl.Int64).sum(),
        wins=kept_sum("won"),
        strokes_sum=strokes.filter(kept).sum(),
        strokes_sq=(strokes * strokes).filter(kept).sum(),
        points_sum=kept_sum("points"), draws_sum=kept_sum("draws"), n_moves_sum=kept_sum("n_moves"),
        longest_chain_sum=kept_sum("longest_chain"), states_sum=kept_sum("states"),
        max_states=pl.col("states").cast(pl.Int64).max(),
        seconds_sum=pl.col("seconds").cast(pl.Float64).sum(),
        n_win_p=pl.col("win_p").count().cast(pl.Int64),
        win_p_sum=pl.col("win_p").sum(),
        win_p_sq=(pl.col("win_p") * pl.col("win_p")).sum(),
        n_expected_strokes=pl.col("expected_strokes").count().cast(pl.Int64),
        expected_strokes_sum=pl.col("expected_strokes").sum(),
    )
    counts = (lf.filter(kept).group_by([*KEYS, strokes.alias("strokes")])
              .agg(count=pl.len().cast(pl.Int64)))
    # two separate streaming passes: collect_all would share (cache) the whole scan
    as_text = pl.col(KEYS).cast(pl.String)
    sums = sums.collect(engine="streaming").with_columns(as_text)
    counts = counts.collect(engine="streaming").with_columns(as_text)
    return _with_hist(sums, counts)


def _with_hist(sums: pl.DataFrame, counts: pl.DataFrame) -> pl.DataFrame:
    """``sums`` with the stroke histogram of ``counts`` (variant, policy, strokes, count)."""
    hist = (counts.sort([*KEYS, "strokes"]).group_by(KEYS, maintain_order=True)
            .agg(stroke_hist=pl.struct("strokes", "count")))
    out = sums.join(hist, on=KEYS, how="left").with_columns(
        pl.col("stroke_hist").fill_null(pl.lit([], dtype=_HIST)))
    return out.select([pl.col(c).cast(t) for c, t in TALLY_SCHEMA.items()]).sort(KEYS)


def merge_tallies(tallies: list[pl.DataFrame]) -> pl.DataFrame:
    """The sum of policy tallies (addition, in the order given)."""
    if not tallies:
        return pl.DataFrame(schema=TALLY_SCHEMA)
    rows = pl.concat([t.select(list(TALLY_SCHEMA)) for t in tallies], how="vertical")
    sums = rows.group_by(KEYS, maintain_order=True).agg(
        *(pl.col(c).sum() for c in _SUMS), pl.col("max_states").max())
    counts = (rows.select(*KEYS, "stroke_hist").explode("stroke_hist").drop_nulls("stroke_hist")
              .unnest("stroke_hist").group_by([*KEYS, "strokes"]).agg(pl.col("count").sum()))
    return _with_hist(sums, counts)


def summary_of(tallies: pl.DataFrame) -> pl.DataFrame:
    """``summary.parquet``'s rows (``SUMMARY_SCHEMA``) from a policy tally.

    Over the ``n - truncated`` kept deals: ``wins``, ``win_rate`` with its Wilson 95%
    interval, the strokes' mean, median (the mean of the two middle values when the
    count is even), standard deviation (n - 1), least and most, the means of points,
    draws, moves, longest chain and states; ``max_states`` and ``cpu_seconds`` over all
    deals; for policies that give each deal its honest values, ``mean_win_p`` with its
    95% interval (mean +/- 1.96 standard errors, the central limit theorem for a mean of
    values in [0, 1]) and ``mean_expected_strokes``; null elsewhere."""
    rows = [_summary_row(t) for t in tallies.iter_rows(named=True)]
    return pl.DataFrame(rows, schema=SUMMARY_SCHEMA, orient="row") if rows else pl.DataFrame(
        schema=SUMMARY_SCHEMA)


def _summary_row(t: dict) -> dict:
    kept = t["n"] - t["truncated"]
    hist = [(h["strokes"], h["count"]) for h in t["stroke_hist"] if h["count"]]
    values = [s for s, _ in hist]
    low, high = wilson(t["wins"], kept) if kept else (None, None)
    var = None
    if kept > 1:  # exact integer arithmetic, then one division
        var = (t["strokes_sq"] * kept - t["strokes_sum"] ** 2) / (kept * (kept - 1))
    n_p = t["n_win_p"]
    mean_p = t["win_p_sum"] / n_p if n_p else None
    p_low = p_high = None
    if n_p:
        sd = math.sqrt(max(0.0, (t["win_p_sq"] - n_p * mean_p ** 2) / (n_p - 1))) if n_p > 1 else 0.0
        half = Z95 * sd / math.sqrt(n_p)
        p_low, p_high = min(max(mean_p - half, 0.0), 1.0), min(max(mean_p + half, 0.0), 1.0)
    means = {f"mean_{name}": t[f"{name}_sum"] / kept if kept else None
             for name in ("strokes", "points", "draws", "n_moves", "longest_chain", "states")}
    return {
        "variant": t["variant"], "policy": t["policy"], "n": t["n"], "truncated": t["truncated"],
        "wins": t["wins"], "win_rate": t["wins"] / kept if kept else None,
        "ci_low": low, "ci_high": high, **means,
        "median_strokes": _median_of_counts(hist) if hist else None,
        "std_strokes": math.sqrt(max(var, 0.0)) if var is not None else None,
        "min_strokes": min(values) if values else None, "max_strokes": max(values) if values else None,
        "max_states": t["max_states"], "cpu_seconds": t["seconds_sum"], "n_win_p": n_p,
        "mean_win_p": mean_p, "win_p_ci_low": p_low, "win_p_ci_high": p_high,
        "mean_expected_strokes": (t["expected_strokes_sum"] / t["n_expected_strokes"]
                                  if t["n_expected_strokes"] else None),
        "stroke_hist": [{"strokes": s, "count": c} for s, c in hist],
    }


def _median_of_counts(hist: list[tuple[int, int]]) -> float:
    """Median of the values of ``hist`` ((value, count), sorted by value)."""
    total = sum(c for _, c in hist)
    lo_pos, hi_pos = (total - 1) // 2, total // 2
    lo = hi = None
    seen = 0
    for value, count in hist:
        seen += count
        if lo is None and seen > lo_pos:
            lo = value
        if seen > hi_pos:
            hi = value
            break
    return (lo + hi) / 2


# ------------------------------------------------------------------ pairs

def match_counts(strokes_a: np.ndarray, strokes_b: np.ndarray, holes: int) -> dict[str, int]:
    """Match play over rounds of ``holes`` consecutive deals (arrays in deal order, an
    incomplete last round dropped): ``MATCH_FIELDS``.  A round's match goes to the player
    who wins more holes (fewer strokes), equal holes won halve it; its stroke play to the
    lower total."""
    rounds = len(strokes_a) // holes
    a = np.asarray(strokes_a[:rounds * holes], np.int64).reshape(rounds, holes)
    b = np.asarray(strokes_b[:rounds * holes], np.int64).reshape(rounds, holes)
    won_a, won_b = (a < b).sum(axis=1), (b < a).sum(axis=1)
    tot_a, tot_b = a.sum(axis=1), b.sum(axis=1)
    values = (rounds, (won_a > won_b).sum(), (won_b > won_a).sum(), (won_a == won_b).sum(),
              won_a.sum(), won_b.sum(), (a == b).sum(), (tot_a < tot_b).sum(), (tot_b < tot_a).sum(),
              (tot_a == tot_b).sum())
    return {f: int(v) for f, v in zip(MATCH_FIELDS, values, strict=True)}


def paired(deals: pl.DataFrame, a: str, b: str) -> pl.DataFrame:
    """One row per deal both policies played: variant, seed, deal_index, won_a/b,
    strokes_a/b, sorted by variant, seed and deal index."""
    keys = ["variant", "seed", "deal_index"]
    cols = [*keys, "won", "strokes"]
    policy = pl.col("policy").cast(pl.String)
    left = deals.filter(policy == a).select(cols).rename({"won": "won_a", "strokes": "strokes_a"})
    right = deals.filter(policy == b).select(cols).rename({"won": "won_b", "strokes": "strokes_b"})
    return left.join(right, on=keys, how="inner").sort(keys)


def pair_tally_of(pairs: pl.DataFrame, variant: str, a: str, b: str) -> dict:
    """The pair tally (one ``PAIR_SCHEMA`` row as a dict) of one variant's paired rows."""
    won_a, won_b = pairs["won_a"].to_numpy(), pairs["won_b"].to_numpy()
    sa = pairs["strokes_a"].to_numpy().astype(np.int64)
    sb = pairs["strokes_b"].to_numpy().astype(np.int64)
    both = int((won_a & won_b).sum())
    only_a, only_b = int((won_a & ~won_b).sum()), int((~won_a & won_b).sum())
    row = {"variant": variant, "a": a, "b": b, "n": len(pairs), "both": both, "only_a": only_a,
           "only_b": only_b, "neither": len(pairs) - both - only_a - only_b,
           "strokes_a_sum": int(sa.sum()), "strokes_b_sum": int(sb.sum()),
           "diff_sq": int(((sa - sb) ** 2).sum())}
    for h in ROUND_SIZES:
        row.update({f"r{h}_{k}": v for k, v in match_counts(sa, sb, h).items()})
    return row


def pair_tallies(deals: pl.DataFrame, policies: tuple[str, ...]) -> pl.DataFrame:
    """Pair tallies of every pair (a, b) of ``policies``, a before b in the order given,
    for every variant of ``deals`` where both played."""
    rows = []
    for i, a in enumerate(policies):
        for b in policies[i + 1:]:
            pairs = paired(deals, a, b)
            for variant in pairs["variant"].cast(pl.String).unique(maintain_order=True):
                rows.append(pair_tally_of(pairs.filter(pl.col("variant").cast(pl.String) == variant),
                                          variant, a, b))
    return pl.DataFrame(rows, schema=PAIR_SCHEMA, orient="row") if rows else pl.DataFrame(
        schema=PAIR_SCHEMA)


def merge_pair_tallies(tallies: list[pl.DataFrame]) -> pl.DataFrame:
    """The sum of pair tallies."""
    if not tallies:
        return pl.DataFrame(schema=PAIR_SCHEMA)
    rows = pl.concat([t.select(list(PAIR_SCHEMA)) for t in tallies], how="vertical")
    return rows.group_by(PAIR_KEYS, maintain_order=True).agg(
        pl.col(c).sum() for c in PAIR_SCHEMA if c not in PAIR_KEYS).select(list(PAIR_SCHEMA))


def swapped(pair: dict) -> dict:
    """The pair tally of (b, a) from that of (a, b)."""
    out = dict(pair, a=pair["b"], b=pair["a"], only_a=pair["only_b"], only_b=pair["only_a"],
               strokes_a_sum=pair["strokes_b_sum"], strokes_b_sum=pair["strokes_a_sum"])
    for h in ROUND_SIZES:
        for side in ("rounds", "holes", "stroke_rounds"):
            out[f"r{h}_a_{side}"], out[f"r{h}_b_{side}"] = pair[f"r{h}_b_{side}"], pair[f"r{h}_a_{side}"]
    return out
