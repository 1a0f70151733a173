"""Tables of a run's summary: the answers (win rate and par per rule set and player), win
rates with intervals, strokes, the clairvoyant gap.

Every table is a polars frame; ``markdown`` and ``write_table`` turn one into a
Markdown table and a CSV file.  Win rates are fractions in the frames and
percentages in the Markdown.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import polars as pl

from golfstats.policies import is_honest, policy_order
from golfstats.rules import parse_variant
from golfstats.runs import best_honest

#: Stroke ranges of the binned distribution in the Markdown (inclusive bounds).
STROKE_BINS: tuple[tuple[str, int | None, int | None], ...] = (
    ("won (<=0)", None, 0), ("1-2", 1, 2), ("3-4", 3, 4), ("5-6", 5, 6), ("7-9", 7, 9),
    ("10-14", 10, 14), ("15-19", 15, 19), ("20+", 20, None))


# ------------------------------------------------------------------ tables

def win_rates(summary: pl.DataFrame) -> pl.DataFrame:
    """variant, policy, n, truncated, wins, win_rate, ci_low, ci_high, half_width, mean/median
    strokes, points."""
    return summary.select(
        "variant", "policy", "n", "truncated", "wins", "win_rate", "ci_low", "ci_high",
        ((pl.col("ci_high") - pl.col("ci_low")) / 2).alias("half_width"),
        "mean_strokes", "median_strokes", "mean_points")


def stroke_distribution(summary: pl.DataFrame) -> pl.DataFrame:
    """Long form: variant, policy, strokes, count, share (of that variant and policy's deals)."""
    long = (summary.select("variant", "policy", "n", "stroke_hist")
            .explode("stroke_hist").unnest("stroke_hist"))
    return long.select("variant", "policy", "strokes", "count",
                       (pl.col("count") / pl.col("n")).alias("share"))


def _hist_quantile(strokes: list[int], counts: list[int], q: float) -> int:
    target, seen = q * sum(counts), 0
    for s, c in zip(strokes, counts, strict=True):
        seen += c
        if seen >= target:
            return s
    return strokes[-1]


def stroke_quantiles(summary: pl.DataFrame) -> pl.DataFrame:
    """variant, policy, p10, p25, median, p75, p90 of strokes, and the binned shares."""
    rows = []
    for row in summary.iter_rows(named=True):
        hist = sorted((h["strokes"], h["count"]) for h in row["stroke_hist"])
        strokes, counts = [h[0] for h in hist], [h[1] for h in hist]
        out = {"variant": row["variant"], "policy": row["policy"], "n": row["n"]}
        for name, q in (("p10", .1), ("p25", .25), ("median", .5), ("p75", .75), ("p90", .9)):
            out[name] = _hist_quantile(strokes, counts, q) if strokes else None
        total = max(sum(counts), 1)
        for label, lo, hi in STROKE_BINS:
            inside = sum(c for s, c in hist if (lo is None or s >= lo) and (hi is None or s <= hi))
            out[label] = inside / total
        rows.append(out)
    return pl.DataFrame(rows, infer_schema_length=None)


def has_hidden_stock(variant: str) -> bool:
    """Does the rule set deal a stock (something a player cannot see)?  Black Hole and All
    in a Row do not: there honest and clairvoyant play are the same thing."""
    try:
        return parse_variant(variant).layout.has_stock
    except ValueError:
        return True


def gap(summary: pl.DataFrame) -> pl.DataFrame:
    """Per variant with a stock and a clairvoyant policy: the clairvoyant win rate, the best
    honest policy (lowest mean strokes) and its win rate, and the gap between them with a
    95% interval.  Stockless variants are left out: nothing is hidden there.

    The interval is Newcombe's for two independent proportions (method 10), which is
    conservative here: on the same deals the two win rates are positively correlated.
    ``golfstats compare`` gives the paired interval from the deal rows.
    """
    from golfstats.report.compare import newcombe_independent

    rows = []
    for variant in summary["variant"].unique(maintain_order=True):
        here = summary.filter(pl.col("variant") == variant)
        clairvoyant = [p for p in here["policy"] if not is_honest(p)]
        best = best_honest(summary, variant)
        if not has_hidden_stock(variant) or not clairvoyant or best is None:
            continue
        ex = here.filter(pl.col("policy") == clairvoyant[0]).row(0, named=True)
        honest = here.filter(pl.col("policy") == best).row(0, named=True)
        lo, hi = newcombe_independent(ex["wins"], ex["n"] - ex["truncated"], honest["wins"],
                                      honest["n"] - honest["truncated"])
        rows.append({"variant": variant, "clairvoyant": clairvoyant[0],
                     "clairvoyant_win_rate": ex["win_rate"], "clairvoyant_n": ex["n"],
                     "best_honest": best, "honest_win_rate": honest["win_rate"], "honest_n": honest["n"],
                     "gap": ex["win_rate"] - honest["win_rate"], "gap_low": lo, "gap_high": hi,
                     "clairvoyant_mean_strokes": ex["mean_strokes"],
                     "honest_mean_strokes": honest["mean_strokes"]})
    schema = {"variant": pl.String, "clairvoyant": pl.String, "clairvoyant_win_rate": pl.Float64,
              "clairvoyant_n": pl.Int64, "best_honest": pl.String, "honest_win_rate": pl.Float64,
              "honest_n": pl.Int64, "gap": pl.Float64, "gap_low": pl.Float64, "gap_high": pl.Float64,
              "clairvoyant_mean_strokes": pl.Float64, "honest_mean_strokes": pl.Float64}
    return pl.DataFrame(rows, schema=schema)


def win_rate_pivot(summary: pl.DataFrame) -> pl.DataFrame:
    """variant x policy: the win rate and its interval as text, e.g. ``33.1% (32.6-33.6)``."""
    cells = summary.select(
        "variant", "policy",
        pl.format("{}% ({}-{})", *(pl.col(c).mul(100).round(1) for c in ("win_rate", "ci_low", "ci_high")))
        .alias("cell"))
    policies = sorted(summary["policy"].unique(), key=policy_order)
    wide = cells.pivot(on="policy", index="variant", values="cell")
    return wide.select("variant", *[p for p in policies if p in wide.columns])


def honest_policies(summary: pl.DataFrame) -> list[str]:
    return [p for p in summary["policy"].unique(maintain_order=True) if is_honest(p)]


# ------------------------------------------------------------------ formatting

def by_policy(frame: pl.DataFrame, variant: str) -> dict[str, dict]:
    """The rows of ``frame`` (a summary or a par table) for ``variant``, by policy."""
    return {r["policy"]: r for r in frame.filter(pl.col("variant") == variant).iter_rows(named=True)}


def percent(x: float | None, digits: int = 1) -> str:
    return "" if x is None else f"{100 * x:.{digits}f}%"


def _fmt(value, formatter: Callable | None) -> str:
    if value is None:
        return ""
    if formatter is not None:
        return formatter(value)
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def markdown(df: pl.DataFrame, formats: dict[str, Callable] | None = None,
             headers: dict[str, str] | None = None) -> str:
    """A GitHub Markdown table of ``df`` (numbers right-aligned), ending with a newline."""
    formats, headers = formats or {}, headers or {}
    cols = df.columns
    numeric = [df.schema[c].is_numeric() for c in cols]
    lines = ["| " + " | ".join(headers.get(c, c) for c in cols) + " |",
             "|" + "|".join("---:" if num else "---" for num in numeric) + "|"]
    for row in df.iter_rows():
        cells = [_fmt(v, formats.get(c)).replace("|", "\\|") for c, v in zip(cols, row, strict=True)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def table_block(df: pl.DataFrame, formats: dict[str, Callable] | None = None,
                headers: dict[str, str] | None = None, title: str = ""):
    """``df`` as a ``report.doc.Table`` (cells formatted as ``markdown`` formats them)."""
    from golfstats.report.doc import Table

    formats, headers = formats or {}, headers or {}
    cols = df.columns
    return Table(tuple(headers.get(c, c) for c in cols),
                 tuple(tuple(_fmt(v, formats.get(c)) for c, v in zip(cols, row, strict=True))
                       for row in df.iter_rows()),
                 tuple(df.schema[c].is_numeric() for c in cols), title)


WIN_FORMATS: dict[str, Callable] = {
    "win_rate": percent, "ci_low": percent, "ci_high": percent,
    "half_width": lambda x: f"±{100 * x:.2f}%",
    "mean_strokes": lambda x: f"{x:.2f}", "median_strokes": lambda x: f"{x:g}",
    "mean_points": lambda x: f"{x:.1f}",
}
WIN_HEADERS = {"win_rate": "win rate", "ci_low": "95% low", "ci_high": "95% high",
               "half_width": "± (half-width)", "mean_strokes": "mean strokes",
               "median_strokes": "median strokes", "mean_points": "mean points"}
GAP_FORMATS: dict[str, Callable] = {
    "clairvoyant_win_rate": percent, "honest_win_rate": percent,
    "gap": lambda x: f"{100 * x:+.1f} pp", "gap_low": lambda x: f"{100 * x:+.1f}",
    "gap_high": lambda x: f"{100 * x:+.1f}", "clairvoyant_mean_strokes": lambda x: f"{x:.2f}",
    "honest_mean_strokes": lambda x: f"{x:.2f}"}
GAP_HEADERS = {"clairvoyant_win_rate": "clairvoyant win rate", "clairvoyant_n": "n clairvoyant",
               "best_honest": "best honest", "honest_win_rate": "its win rate", "honest_n": "n honest",
               "gap": "gap", "gap_low": "gap 95% low", "gap_high": "gap 95% high",
               "clairvoyant_mean_strokes": "clairvoyant mean strokes",
               "honest_mean_strokes": "honest mean strokes"}


def quantile_formats(df: pl.DataFrame) -> dict[str, Callable]:
    return {label: (lambda x: f"{100 * x:.1f}") for label, _, _ in STROKE_BINS if label in df.columns}


def write_table(df: pl.DataFrame, out_dir: Path, stem: str, title: str, note: str = "",
                formats: dict | None = None, headers: dict | None = None) -> list[Path]:
    """``stem.csv`` (raw values) and ``stem.md`` (formatted, with a title and a note)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    csv, md = out_dir / f"{stem}.csv", out_dir / f"{stem}.md"
    flat = df.select([pl.col(c) for c in df.columns if not isinstance(df.schema[c], pl.List)])
    from golfstats.atomic import write_csv, write_text

    write_csv(csv, flat, float_precision=6)
    body = f"## {title}\n\n" + (f"{note}\n\n" if note else "") + markdown(flat, formats, headers)
    write_text(md, body)
    return [md, csv]


@dataclass(frozen=True)
class Table:
    """A table of the report: its frame, file stem, title, note and cell formats."""

    stem: str
    df: pl.DataFrame
    title: str
    note: str = ""
    formats: dict = field(default_factory=dict)
    headers: dict = field(default_factory=dict)

    def write(self, out_dir: Path) -> list[Path]:
        return write_table(self.df, out_dir, self.stem, self.title, self.note, self.formats, self.headers)


def report_tables(summary: pl.DataFrame) -> list[Table]:
    """The tables of ``golfstats report``: win rates, the pivot, strokes, the clairvoyant gap."""
    quantiles = stroke_quantiles(summary)
    return [
        Table("win_rates", win_rates(summary), "Win rate and strokes per variant and policy",
              "Win rate with its 95% Wilson interval; strokes are tableau cards left (a win scores "
              "minus the stock cards left unturned). truncated: deals a search budget cut short, "
              "left out of the other figures.", WIN_FORMATS, WIN_HEADERS),
        Table("win_rate_pivot", win_rate_pivot(summary), "Win rate (95% interval) by variant and policy"),
        Table("stroke_distribution", quantiles, "Stroke distribution per variant and policy",
              "Quantiles of strokes, then the percentage of deals in each stroke range "
              "(full histogram: stroke_histogram.csv).", quantile_formats(quantiles)),
        Table("clairvoyant_gap", gap(summary), "Gap between honest play and the clairvoyant optimum",
              "The clairvoyant policy knows the stock order; the best honest policy is the one with "
              "the lowest mean strokes. Gap = clairvoyant win rate - best honest win rate, in "
              "percentage points, with Newcombe's 95% interval for independent samples "
              "(conservative for paired deals; `golfstats compare` gives the paired one). Only "
              "variants with a stock: in Black Hole and All in a Row nothing is hidden.",
              GAP_FORMATS, GAP_HEADERS),
    ]


def write_tables(summary: pl.DataFrame, out_dir: Path, status: str = "") -> list[Table]:
    """Write every report table (Markdown and CSV) and the long stroke histogram CSV;
    ``status`` (an unfinished run's "unfinished: K of N deals") opens every table's note."""
    out_dir = Path(out_dir)
    tables = report_tables(summary)
    if status:
        tables = [replace(t, note=f"{status}. {t.note}".strip()) for t in tables]
    for table in tables:
        table.write(out_dir)
    from golfstats.atomic import write_csv

    write_csv(out_dir / "stroke_histogram.csv", stroke_distribution(summary), float_precision=6)
    return tables


# ------------------------------------------------------------------ the answers

#: Rounds the answers give par for.
ANSWER_ROUNDS = (9, 18)
#: The summary columns the answers read.
_ANSWER_COLUMNS = ("variant", "policy", "n", "truncated", "win_rate", "ci_low", "ci_high",
                   "mean_strokes", "stroke_hist")


def answer_rows(summary: pl.DataFrame, extra: pl.DataFrame | None = None) -> pl.DataFrame:
    """The rows the answers stand on: ``summary`` and the ``extra`` rows of players the runs
    do not hold (the study's ``optimal``: any frame with the summary's core columns), in
    display order; an extra row of a (variant, policy) the summary has is left out."""
    from golfstats.runs import order

    def core(df: pl.DataFrame) -> pl.DataFrame:
        notes = [pl.col(c) if c in df.columns else pl.lit(None, t).alias(c)
                 for c, t in (("estimator", pl.String), ("playouts", pl.Int64),
                              ("strokes_goal", pl.String))]
        return df.select(*_ANSWER_COLUMNS, *notes)

    rows = core(summary)
    if extra is not None and not extra.is_empty():
        more = core(extra).join(rows.select("variant", "policy"), on=["variant", "policy"], how="anti")
        rows = pl.concat([rows, more], how="vertical_relaxed")
    return order(rows)


def answers(summary: pl.DataFrame, extra: pl.DataFrame | None = None,
            by_rule_set: bool = False) -> list:
    """The answers a designer reads first, as ``report.doc`` blocks: the par to print per
    rule set (its reference player's), then one table of every rule set and player: deals,
    win rate with its 95% interval, mean strokes a hole and the par of 9- and 18-hole rounds
    (the median round total, ``report.par``); a note for each estimated row.  With
    ``by_rule_set`` (a terminal's 80 columns), a heading, its par to print and a table
    for each rule set instead."""
    from golfstats.policies import PAR_REFERENCE
    from golfstats.report.doc import Heading, Para, Table

    numeric = (False, True, True, True, True, *(True,) * len(ANSWER_ROUNDS))
    rows, to_print, notes = _answer_cells(answer_rows(summary, extra), marks=not by_rule_set)
    rounds = " / ".join(f"{h} holes" for h in ANSWER_ROUNDS)
    blocks = []
    if by_rule_set:  # short headers and bare names: 80 columns hold every figure whole
        head = ("player", "deals", "win rate", "95% interval", "strokes a hole",
                *(f"par {h}" for h in ANSWER_ROUNDS))
        for variant, cells in rows.items():
            blocks.append(Heading(variant))
            if variant in to_print:
                blocks.append(Para(f"Par to print ({rounds}): {to_print[variant]}, the median round "
                                   f"total of the reference player {PAR_REFERENCE}.", strong=True))
            blocks.append(Table(head, tuple(cells), numeric))
    else:
        head = ("player", "deals", "win rate", "95% interval", "mean strokes a hole",
                *(f"par {h} holes" for h in ANSWER_ROUNDS))
        if to_print:
            blocks.append(Para(f"Par to print ({rounds}; {PAR_REFERENCE}'s median round total): "
                               + "; ".join(f"{v} {t}" for v, t in to_print.items()) + ".",
                               strong=True))
        blocks.append(Table(("rule set", *head),
                            tuple((v, *c) for v, cells in rows.items() for c in cells),
                            (False, *numeric)))
    blocks.append(Para(
        "Par of a round is the player's median round total over deals nobody chose: that "
        "player scores it or better in half of their rounds (what golfstats par prints). The reference "
        f"player {PAR_REFERENCE} sets the par to print; clairvoyant players see the stock "
        "order, so their figures bound what any honest player can reach."))
    return blocks + [Para(n) for n in notes]


def _answer_cells(rows: pl.DataFrame, marks: bool) -> tuple[dict, dict, list]:
    """The answers' cells by rule set (player first; with ``marks``, the reference and the
    clairvoyant players so named), the par to print by rule set as text ("70 / 141"), and
    the notes on estimated rows."""
    from golfstats.policies import PAR_REFERENCE
    from golfstats.report.par import par_from_hist

    cells: dict[str, list] = {}
    to_print, notes = {}, []
    for r in rows.iter_rows(named=True):
        hist = r["stroke_hist"] or []
        pars = par_from_hist(r["variant"], r["policy"], hist).rounds if hist else {}
        par_cells = tuple(str(pars[h].par) if h in pars else "" for h in ANSWER_ROUNDS)
        reference = r["policy"] == PAR_REFERENCE
        if reference and pars:
            to_print[r["variant"]] = " / ".join(par_cells)
        name = r["policy"] + ("" if not marks else " (reference)" if reference else
                              "" if is_honest(r["policy"]) else " (clairvoyant)")
        deals = f"{r['n']:,}" + (f" ({r['truncated']:,} cut short)" if r["truncated"] else "")
        interval = ("" if r["ci_low"] is None else
                    f"{100 * r['ci_low']:.2f}-{100 * r['ci_high']:.2f}%")
        mean = "" if r["mean_strokes"] is None else f"{r['mean_strokes']:.2f}"
        cells.setdefault(r["variant"], []).append(
            (name, deals, percent(r["win_rate"], 2), interval, mean, *par_cells))
        if r["estimator"]:
            notes.append(f"{r['policy']} on {r['variant']}: the win rate is its mean chance of "
                         f"winning, estimated ({r['estimator']}) from {r['n']:,} valued deals"
                         + (f"; strokes and par from {r['playouts']:,} play-outs of them"
                            + (f" (goal {r['strokes_goal']})" if r["strokes_goal"] else "")
                            if r["playouts"] else "; no play-outs, so no strokes or par"))
    return cells, to_print, notes
