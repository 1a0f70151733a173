"""Reports of simulate runs: tables, charts, one HTML page, par, comparisons.

``build_report(runs, out_dir)`` is what ``golfstats report`` does: it merges the runs'
summaries and writes ``tables/`` (Markdown and CSV), ``charts/`` (PNG and SVG) and
``report.html`` (self-contained) under ``out_dir``.  Runs are read through
``golfstats.runs``; nothing here launches a simulation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from golfstats.atomic import write_text
from golfstats.runs import Run, RunError, merge_summaries, unfinished_note

__all__ = ["ReportFiles", "build_report"]

@dataclass
class ReportFiles:
    """What ``build_report`` wrote."""

    out_dir: Path
    tables: list[Path] = field(default_factory=list)
    charts: dict[str, list[Path]] = field(default_factory=dict)
    html: Path | None = None

    def all(self) -> list[Path]:
        return [*self.tables, *(p for pair in self.charts.values() for p in pair),
                *([self.html] if self.html else [])]


def build_report(runs: list[Run], out_dir: Path | str, title: str = "golfstats report",
                 extra_sections: list[tuple[str, str]] | None = None,
                 par: bool = True) -> ReportFiles:
    """Tables, charts and the HTML page of the merged summaries of ``runs``; with ``par``,
    the page's par section (``par.par_section``: the par to print per variant) and
    ``tables/par.md``.

    ``extra_sections`` are (heading, inner HTML) appended to the page (the study adds its
    own par table and passes ``par=False``).
    """
    from golfstats.report import charts, doc, html, tables
    from golfstats.report.par import par_section

    out_dir = Path(out_dir)
    summary = merge_summaries(runs)
    if summary.is_empty():
        raise RunError("the runs hold no summary rows")
    files = ReportFiles(out_dir)
    status = unfinished_note(runs)  # every table and the page say when a run is unfinished
    table_list = tables.write_tables(summary, out_dir / "tables", status)
    files.tables = sorted((out_dir / "tables").glob("*.*"))
    by_stem = {t.stem: t for t in table_list}
    files.charts = charts.write_charts(summary, {k: t.df for k, t in by_stem.items()},
                                       out_dir / "charts")

    intro = html.sources_table(runs) + (html.paragraph(status) if status else "")
    sections = []
    for chart in charts.CHARTS:  # each chart beside its table, in the charts' order
        t = by_stem[chart.table]
        inner = (html.paragraph(t.note) + html.table_html(t.df, t.formats, t.headers)
                 + html.image_html(files.charts[chart.name][1], f"{chart.name} chart", chart.caption))
        sections.append((t.title, inner))
    if par:
        blocks = ([doc.Para(status)] if status else []) + par_section(runs)
        write_text(out_dir / "tables" / "par.md", doc.markdown(blocks))
        files.tables = sorted((out_dir / "tables").glob("*.*"))
        sections.append(("Par for 9 and 18 holes", doc.html(blocks)))
    sections.extend(extra_sections or [])
    files.html = out_dir / "report.html"
    write_text(files.html, html.page(title, sections, intro))
    return files
