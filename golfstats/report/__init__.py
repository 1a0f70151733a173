"""Reports of simulate runs: tables, charts, one HTML page, par, comparisons.

``build_report(runs, out_dir)`` is what ``golfstats report`` does: it merges the runs'
summaries and writes ``tables/`` (Markdown and CSV), ``charts/`` (PNG and SVG) and
``report.html`` (self-contained: the answers first, then the tables, the charts and the
sources) under ``out_dir``.  Runs are read through ``golfstats.runs``; nothing here
launches a simulation.  ``report.card`` draws a course's scorecard.
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
                 extra_sections: list[tuple[str, str | list]] | None = None,
                 par: bool = True, extra_rows=None) -> ReportFiles:
    """Tables, charts and the HTML page of the merged summaries of ``runs``; with ``par``,
    the page's par section (``par_text.par_section``: the par to print per variant) and
    ``tables/par.md``.

    The page reads top down: the answers (``tables.answers``: win rate and par per rule
    set and player, ``extra_rows`` included: summary rows of players the runs do not
    hold, as the study's ``optimal``), then every table, then every chart, then the
    sources (run directories).  ``extra_sections`` are (heading, ``report.doc`` blocks or
    inner HTML); a section of ``doc.Figure`` blocks only joins the charts, any other the
    tables (the study adds its own par table and passes ``par=False``).
    """
    from golfstats.report import charts, doc, html, tables
    from golfstats.report.par_text import par_section

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

    answers = ([doc.Para(status, strong=True)] if status else []) + tables.answers(summary, extra_rows)
    table_sections = [("The answers: win rate and par per rule set and player", doc.html(answers))]
    for chart in charts.CHARTS:  # the tables the charts draw, in the charts' order
        t = by_stem[chart.table]
        table_sections.append((t.title, html.paragraph(t.note)
                               + html.table_html(t.df, t.formats, t.headers)))
    chart_sections = [(chart.title, html.image_html(files.charts[chart.name][1], f"{chart.name} chart",
                                                    chart.caption)) for chart in charts.CHARTS]
    if par:
        blocks = ([doc.Para(status)] if status else []) + par_section(runs)
        write_text(out_dir / "tables" / "par.md", doc.markdown(blocks))
        files.tables = sorted((out_dir / "tables").glob("*.*"))
        table_sections.append(("Par for 9 and 18 holes", doc.html(blocks)))
    for heading, inner in extra_sections or []:
        if isinstance(inner, str):
            table_sections.append((heading, inner))
        else:
            figures_only = bool(inner) and all(isinstance(b, doc.Figure) for b in inner)
            (chart_sections if figures_only else table_sections).append((heading, doc.html(inner)))
    sources = html.sources_table(runs)
    if extra_rows is not None and not extra_rows.is_empty():
        others = sorted({f"{r['policy']} on {r['variant']}" for r in extra_rows.iter_rows(named=True)})
        sources += html.paragraph(f"Not from these run directories: the answers' rows of "
                                  f"{', '.join(others)} (computed by the caller, the study: "
                                  "from the deals its ledger values).")
    sections = [*table_sections, *chart_sections, ("Sources", sources)]
    files.html = out_dir / "report.html"
    write_text(files.html, html.page(title, sections))
    return files
