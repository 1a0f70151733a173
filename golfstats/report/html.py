"""One self-contained HTML page: tables as HTML, charts inline as base64 SVG images.

Nothing is linked: styles are in the page and every chart is a ``data:`` URI, so the
file can be opened anywhere or sent by mail.  SVG images keep the charts sharp; as
``<img>`` sources they cannot clash with each other's ids.  A table wider than the page
scrolls sideways in its ``div.wide`` rather than being cut off.
"""

from __future__ import annotations

import html
from datetime import UTC, datetime
from pathlib import Path

import polars as pl

_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto;
       max-width: 1150px; padding: 0 1em; color: #222; }
h1 { font-size: 1.6em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.88em; }
th, td { border: 1px solid #ccc; padding: 3px 7px; }
th { background: #f2f2f2; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr:nth-child(even) td { background: #fafafa; }
figure { margin: 1em 0; } figure img { max-width: 100%; height: auto; }
figcaption, .note { color: #555; font-size: 0.9em; }
div.wide { overflow-x: auto; max-width: 100%; }
caption { caption-side: top; text-align: left; font-style: italic; padding: 0.2em 0; }
"""


def table_html(df: pl.DataFrame, formats: dict | None = None, headers: dict | None = None) -> str:
    """An HTML table of ``df`` (list columns are left out), numbers right-aligned."""
    formats, headers = formats or {}, headers or {}
    cols = [c for c in df.columns if not isinstance(df.schema[c], pl.List)]
    numeric = {c: df.schema[c].is_numeric() for c in cols}
    head = "".join(f"<th>{html.escape(headers.get(c, c))}</th>" for c in cols)
    body = []
    for row in df.select(cols).iter_rows():
        cells = []
        for c, v in zip(cols, row, strict=True):
            if v is None:
                text = ""
            elif c in formats:
                text = formats[c](v)
            elif isinstance(v, float):
                text = f"{v:.2f}"
            else:
                text = str(v)
            cls = ' class="num"' if numeric[c] else ""
            cells.append(f"<td{cls}>{html.escape(text)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return (f'<div class="wide"><table><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(body)}</tbody></table></div>")


def image_html(svg_path: Path, alt: str, caption: str = "") -> str:
    """A figure with the SVG file inlined as a base64 ``data:`` URI."""
    from golfstats.report.doc import Figure, figure_html

    return figure_html(Figure(Path(svg_path), alt, caption))


def page(title: str, sections: list[tuple[str, str]], intro: str = "") -> str:
    """The whole document, in the order given; ``sections`` are (heading, inner HTML)."""
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    parts = [f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
             f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
             f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>",
             f"<h1>{html.escape(title)}</h1>", f"<p class=\"note\">Made by golfstats on {stamp}.</p>"]
    if intro:
        parts.append(intro)
    for heading, inner in sections:
        parts.append(f"<h2>{html.escape(heading)}</h2>\n{inner}")
    parts.append("</body></html>\n")
    return "\n".join(parts)


def paragraph(text: str) -> str:
    return f"<p class=\"note\">{html.escape(text)}</p>"


def sources_table(runs) -> str:
    """Where the page's figures come from: one table row per run directory (the page puts
    it last)."""
    rows = []
    for run in runs:
        info = run.info or {}
        deals = str(info.get("n", ""))
        if run.unfinished is not None:
            deals = "{:,} of {:,} (unfinished)".format(*run.unfinished)
        cells = [str(run.path), str(info.get("variant", "")), deals,
                 str(info.get("seed", "")), ", ".join(map(str, info.get("policies", [])))]
        rows.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>")
    head = "".join(f"<th>{h}</th>" for h in ("run directory", "variant", "deals", "seed", "policies"))
    return (f'<div class="wide"><table><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table></div>")
