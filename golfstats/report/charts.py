"""Charts of a run with matplotlib, written as PNG and SVG.

Figures are built with the object API on the Agg canvas (``matplotlib.figure.Figure``),
never through pyplot's global state, so nothing is ever shown and the notebook's own
backend is left alone.  SVG output uses a fixed hash salt and no date, so the same
data gives the same files.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from golfstats.policies import is_honest, policy_order
from golfstats.policies import style as policy_style
from golfstats.runs import order

DPI = 110


def _figure(width: float, height: float):
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=DPI, layout="constrained")


def style(policy: str) -> tuple[str, str]:
    """Colour and marker of a policy spec: its registry entry's, the same in every chart."""
    return policy_style(policy)


def label(policy: str) -> str:
    return policy + ("" if is_honest(policy) else " (clairvoyant)")


def save(fig, out_dir: Path, stem: str) -> list[Path]:
    """``stem.png`` and ``stem.svg`` in ``out_dir``; returns both paths."""
    import matplotlib

    out_dir.mkdir(parents=True, exist_ok=True)
    png, svg = out_dir / f"{stem}.png", out_dir / f"{stem}.svg"
    from golfstats.atomic import write_atomic

    # whole files or none (a full disk): each into a temporary file, then a rename
    write_atomic(png, lambda tmp: fig.savefig(tmp, format="png", metadata={"Software": None}))
    with matplotlib.rc_context({"svg.hashsalt": "golfstats", "svg.fonttype": "none"}):
        write_atomic(svg, lambda tmp: fig.savefig(tmp, format="svg",
                                                  metadata={"Date": None, "Creator": None}))
    return [png, svg]


def stroke_chart(summary: pl.DataFrame):
    """One panel per variant: the share of deals (%) at each stroke score, a line per policy."""
    from matplotlib.ticker import MaxNLocator

    summary = order(summary)
    variants = list(summary["variant"].unique(maintain_order=True))
    cols = min(3, len(variants))
    rows = math.ceil(len(variants) / cols)
    fig = _figure(4.6 * cols, 3.2 * rows + 0.6)
    axes = fig.subplots(rows, cols, squeeze=False)
    handles: dict[str, object] = {}
    for i, variant in enumerate(variants):
        ax = axes[i // cols][i % cols]
        for row in summary.filter(pl.col("variant") == variant).iter_rows(named=True):
            counts = {h["strokes"]: h["count"] for h in row["stroke_hist"]}
            total = sum(counts.values()) or 1
            xs = list(range(min(counts), max(counts) + 1))  # every score, 0% where none fell
            color, marker = style(row["policy"])
            (line,) = ax.plot(xs, [100 * counts.get(x, 0) / total for x in xs], color=color,
                              marker=marker, markersize=3, linewidth=1.3)
            handles.setdefault(row["policy"], line)
        ax.axvline(0, color="#444", linewidth=0.8, linestyle=":")
        ax.set_title(variant, fontsize=10)
        ax.set_xlabel("strokes (cards left; <= 0 won)")
        ax.set_ylabel("deals (%)")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.grid(alpha=0.3)
    for j in range(len(variants), rows * cols):
        axes[j // cols][j % cols].set_visible(False)
    names = sorted(handles, key=policy_order)
    fig.legend([handles[p] for p in names], [label(p) for p in names], loc="outside lower center",
               ncol=len(names), title="policy", frameon=False)
    fig.suptitle("Stroke distribution per policy (share of deals at each score; "
                 "a win scores minus the stock cards left)", fontsize=11)
    return fig


def win_rate_chart(summary: pl.DataFrame):
    """Win rate with its 95% Wilson interval, one row per variant, a marker per policy."""
    summary = order(summary)
    variants = list(summary["variant"].unique(maintain_order=True))
    policies = sorted(summary["policy"].unique(), key=policy_order)
    fig = _figure(9.5, 1.0 + 0.42 * len(variants) * max(1, len(policies)) / 3 + 1.2)
    ax = fig.subplots()
    step = 0.8 / max(1, len(policies))
    for k, policy in enumerate(policies):
        rows = summary.filter(pl.col("policy") == policy)
        ys, xs, lo, hi = [], [], [], []
        for row in rows.iter_rows(named=True):
            y = variants.index(row["variant"]) - 0.4 + step * (k + 0.5)
            ys.append(y)
            xs.append(100 * row["win_rate"])
            lo.append(max(0.0, 100 * (row["win_rate"] - row["ci_low"])))
            hi.append(max(0.0, 100 * (row["ci_high"] - row["win_rate"])))
        color, marker = style(policy)
        ax.errorbar(xs, ys, xerr=[lo, hi], fmt=marker, color=color, markersize=5, capsize=2.5,
                    elinewidth=1.2, label=label(policy))
    ax.set_yticks(range(len(variants)), variants)
    ax.invert_yaxis()
    ax.set_xlim(-2, 102)
    ax.set_xlabel("win rate (% of deals; bars: 95% Wilson interval)")
    ax.set_ylabel("variant")
    for y in range(1, len(variants)):
        ax.axhline(y - 0.5, color="#ddd", linewidth=0.6)
    ax.grid(axis="x", alpha=0.3)
    ax.legend(title="policy", loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    ax.set_title("Win rate by variant and policy")
    return fig


def gap_chart(gap: pl.DataFrame):
    """Clairvoyant win rate minus the best honest policy's, in percentage points."""
    fig = _figure(9.5, 1.4 + 0.45 * max(1, gap.height))
    ax = fig.subplots()
    if gap.is_empty():
        ax.text(0.5, 0.5, "no variant with a stock has both a clairvoyant and an honest policy",
                ha="center", va="center")
        ax.set_axis_off()
        return fig
    ys = list(range(gap.height))
    vals = [100 * g for g in gap["gap"]]
    err = [[max(0.0, 100 * (g - lo)) for g, lo in zip(gap["gap"], gap["gap_low"], strict=True)],
           [max(0.0, 100 * (hi - g)) for g, hi in zip(gap["gap"], gap["gap_high"], strict=True)]]
    ax.barh(ys, vals, xerr=err, color=style(gap["clairvoyant"][0])[0], alpha=0.75, capsize=3,
            label="clairvoyant - best honest")
    for y, row in zip(ys, gap.iter_rows(named=True), strict=True):
        ax.text(max(0.0, 100 * row["gap_high"]) + 0.8, y,
                f"{100 * row['clairvoyant_win_rate']:.1f}% vs {100 * row['honest_win_rate']:.1f}% "
                f"({row['clairvoyant']} vs {row['best_honest']})", va="center", fontsize=8)
    ax.set_yticks(ys, list(gap["variant"]))
    ax.invert_yaxis()
    right = max(100 * h for h in gap["gap_high"])
    ax.set_xlim(min(0.0, min(100 * lo for lo in gap["gap_low"])) - 1, right * 1.45 + 5)
    ax.set_xlabel("win-rate gap (percentage points; bars: 95% interval)")
    ax.set_ylabel("variant")
    ax.grid(axis="x", alpha=0.3)
    ax.set_title("Clairvoyant gap: what seeing the stock is worth (variants with a stock)")
    return fig


def round_chart(results) -> object:
    """Round-total distributions of ``ParResult``s: one panel per round size, par and the
    traditional par marked."""
    sizes = sorted({h for r in results for h in r.rounds})
    fig = _figure(6.0 * len(sizes), 4.2)
    axes = fig.subplots(1, len(sizes), squeeze=False)[0]
    for ax, h in zip(axes, sizes, strict=True):
        for k, r in enumerate(results):
            rp = r.rounds[h]
            color = f"C{k % 10}"
            ax.plot(rp.pmf.values, 100 * rp.pmf.probs, color=color,
                    label=f"{r.variant} / {r.policy}: par {rp.par}")
            ax.axvline(rp.par, color=color, linestyle="--", linewidth=1)
        trad = results[0].rounds[h].traditional if results else 5 * h
        lo = min([trad] + [r.rounds[h].pmf.quantile(0.0005) for r in results])
        hi = max([trad] + [r.rounds[h].pmf.quantile(0.9995) for r in results])
        ax.set_xlim(lo - 5, hi + 5)
        ax.axvline(trad, color="black", linewidth=1.2, linestyle=":", label=f"traditional par {trad}")
        ax.set_xlabel(f"{h}-hole round total (strokes)")
        ax.set_ylabel("rounds (%)")
        ax.set_title(f"{h} holes")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, frameon=False)
    fig.suptitle("Round totals by exact convolution of the per-hole stroke distribution "
                 "(dashed: recommended par = median)", fontsize=10)
    return fig


@dataclass(frozen=True)
class Chart:
    """A chart of the report: its file name, what draws it from the summary and the tables
    (by stem), its caption, the table it draws and its heading on the page."""

    name: str
    draw: Callable[[pl.DataFrame, dict], object]  # a matplotlib Figure
    caption: str
    table: str
    title: str


#: Every chart of the report, in page order: ``write_charts`` makes their files and
#: ``build_report`` puts them on the page after the tables.
CHARTS = (
    Chart("win_rates", lambda summary, tables: win_rate_chart(summary),
          "Win rate per variant and policy; bars are 95% Wilson intervals.", "win_rates",
          "Win rate by variant and policy"),
    Chart("stroke_distribution", lambda summary, tables: stroke_chart(summary),
          "Share of deals at each stroke score, per policy, one panel per variant. Scores <= 0 "
          "are wins (minus the stock cards left unturned).", "stroke_distribution",
          "Stroke distribution per policy"),
    Chart("clairvoyant_gap", lambda summary, tables: gap_chart(tables["clairvoyant_gap"]),
          "Clairvoyant win rate minus the best honest policy's, with a conservative 95% interval "
          "(independent samples); variants with a stock only (in Black Hole and All in a Row "
          "nothing is hidden).", "clairvoyant_gap", "Clairvoyant gap"),
)


def write_charts(summary: pl.DataFrame, tables: dict, out_dir: Path) -> dict[str, list[Path]]:
    """Every chart of ``CHARTS``, as {name: [png, svg]}; ``tables``: the report's tables'
    frames by stem."""
    out_dir = Path(out_dir)
    return {c.name: save(c.draw(summary, tables), out_dir, c.name) for c in CHARTS}
