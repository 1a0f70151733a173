"""The report page as a reader meets it: parsed for its tables (standard library
``html.parser``) and rendered by headless Chromium (skipped where it is not installed).

What is checked: the answers come first (win rate and par per rule set and player,
``optimal`` included when given), every table is an HTML table with all its rows and
whole cell texts (none a Markdown table in ``<pre>``), charts after the tables, sources
last, nothing linked; and a screenshot shows tables drawn (header shading, cell borders).
"""

from __future__ import annotations

import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from pty_run import golfstats, run_on_pty
from run_fixtures import write_run
from typer.testing import CliRunner

from golfstats.cli import app
from golfstats.report import build_report, doc
from golfstats.runs import load_runs

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
#: A Markdown table as the study hands it over, its header long (today's page cut off
#: "clairvoyant par 18" inside a <pre>), a cell holding an escaped pipe.
STUDY_MD = ("| variant | n | par 9 holes | clairvoyant par 9 | clairvoyant par 18 |\n"
            "|---|---:|---:|---:|---:|\n"
            "| strict | 773016 | 70 | 18 | 37 |\n"
            "| putt-putt \\| house | 279915 | 16 | -40 | -79 |\n")


class _Page(HTMLParser):
    """The page as a list of headings and tables, in document order: ("h2", text),
    ("table", [[cell, ...], ...]) (header row first), ("pre", text), ("img", src)."""

    def __init__(self) -> None:
        super().__init__()
        self.items: list[tuple[str, object]] = []
        self._text: list[str] | None = None
        self._rows: list[list[str]] | None = None
        self._tag = ""

    def handle_starttag(self, tag, attrs):
        if tag in ("h2", "pre", "th", "td"):
            self._text, self._tag = [], tag
        elif tag == "table":
            self._rows = []
        elif tag == "tr" and self._rows is not None:
            self._rows.append([])
        elif tag == "img":
            self.items.append(("img", dict(attrs)["src"]))

    def handle_data(self, data):
        if self._text is not None:
            self._text.append(data)

    def handle_endtag(self, tag):
        if tag in ("th", "td") and self._rows is not None and self._text is not None:
            self._rows[-1].append("".join(self._text).strip())
            self._text = None
        elif tag in ("h2", "pre") and self._text is not None:
            self.items.append((tag, "".join(self._text).strip()))
            self._text = None
        elif tag == "table" and self._rows is not None:
            self.items.append(("table", self._rows))
            self._rows = None


def parse_page(text: str) -> _Page:
    page = _Page()
    page.feed(text)
    return page


def _median_round(hist: list[dict], holes: int) -> int:
    """The oracle of a round's par: the median total of ``holes`` independent holes, by
    plain repeated convolution of the stroke histogram (no square-and-multiply)."""
    lo = min(h["strokes"] for h in hist)
    probs = np.zeros(max(h["strokes"] for h in hist) - lo + 1)
    for h in hist:
        probs[h["strokes"] - lo] += h["count"]
    probs /= probs.sum()
    total = probs
    for _ in range(holes - 1):
        total = np.convolve(total, probs)
    return holes * lo + int(np.argmax(np.cumsum(total) >= 0.5 - 1e-12))


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("page")
    return load_runs([write_run(root / "strict", "strict", ["greedy", "lookahead", "exact"], 30),
                      write_run(root / "putt", "putt-putt", ["lookahead", "exact"], 20)])


def _optimal_row() -> pl.DataFrame:
    """A summary row of a player the runs do not hold, as the study passes its optimum."""
    return pl.DataFrame([{"variant": "strict", "policy": "optimal", "n": 12, "truncated": 0,
                          "win_rate": 0.0825, "ci_low": 0.031, "ci_high": 0.152,
                          "mean_strokes": 4.5, "stroke_hist": [{"strokes": 2, "count": 3},
                                                               {"strokes": 6, "count": 5}],
                          "estimator": "regression on the clairvoyant share", "playouts": 8}])


@pytest.fixture(scope="module")
def report(runs, tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    chart = out / "extra.svg"
    chart.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>')
    extra = [("Par for 9 and 18 holes (study)", doc.html(doc.from_markdown(STUDY_MD))),
             ("Round totals and par", [doc.Figure(chart, "round totals chart", "a caption")])]
    files = build_report(runs, out, "page test", extra, extra_rows=_optimal_row())
    return files, parse_page(files.html.read_text())


def _sections(page: _Page) -> list[tuple[str, list]]:
    """(h2 heading, the items under it)."""
    out: list[tuple[str, list]] = []
    for kind, value in page.items:
        if kind == "h2":
            out.append((value, []))
        elif out:
            out[-1][1].append((kind, value))
    return out


def test_the_answers_come_first_with_every_player_and_its_par(runs, report):
    files, page = report
    sections = _sections(page)
    assert sections[0][0].startswith("The answers")
    first = next(v for k, v in page.items if k == "table")
    header, *rows = first
    assert header == ["rule set", "player", "deals", "win rate", "95% interval",
                      "mean strokes a hole", "par 9 holes", "par 18 holes"]
    summary = pl.concat([r.summary for r in runs], how="diagonal_relaxed")
    expected = {}
    for r in summary.iter_rows(named=True):
        hist = r["stroke_hist"]
        expected[(r["variant"], r["policy"])] = [
            f"{r['n']:,}", f"{100 * r['wins'] / r['n']:.2f}%",
            f"{100 * r['ci_low']:.2f}-{100 * r['ci_high']:.2f}%", f"{r['mean_strokes']:.2f}",
            str(_median_round(hist, 9)), str(_median_round(hist, 18))]
    opt = _optimal_row().row(0, named=True)
    expected[("strict", "optimal")] = ["12", "8.25%", "3.10-15.20%", "4.50",
                                       str(_median_round(opt["stroke_hist"], 9)),
                                       str(_median_round(opt["stroke_hist"], 18))]
    got = {(row[0], row[1].split(" (")[0]): row[2:] for row in rows}
    assert got == expected
    marks = {row[1] for row in rows}
    assert {"lookahead (reference)", "exact (clairvoyant)", "optimal", "greedy"} <= marks
    players = [row[1].split(" (")[0] for row in rows if row[0] == "strict"]
    assert players == ["greedy", "lookahead", "optimal", "exact"]  # weakest first
    text = files.html.read_text()
    par9 = expected[("strict", "lookahead")][4]
    assert f"Par to print (9 holes / 18 holes; lookahead&#x27;s median round total): strict {par9} /" in text
    assert "optimal on strict: the win rate is its mean chance of winning, estimated" in text


def test_every_table_is_an_html_table_with_whole_cells_and_sources_come_last(runs, report):
    files, page = report
    assert not [v for k, v in page.items if k == "pre"]  # no Markdown (nor anything) in <pre>
    assert "|---" not in files.html.read_text()
    sections = dict(_sections(page))
    study = [v for k, v in sections["Par for 9 and 18 holes (study)"] if k == "table"]
    assert study == [[["variant", "n", "par 9 holes", "clairvoyant par 9", "clairvoyant par 18"],
                      ["strict", "773016", "70", "18", "37"],
                      ["putt-putt | house", "279915", "16", "-40", "-79"]]]
    wins = next(v for k, v in sections["Win rate and strokes per variant and policy"] if k == "table")
    assert len(wins) == 1 + 5 and wins[0][:3] == ["variant", "policy", "n"]
    assert [row[:2] for row in wins[1:]] == [["strict", "greedy"], ["strict", "lookahead"],
                                             ["strict", "exact"], ["putt-putt", "lookahead"],
                                             ["putt-putt", "exact"]]
    assert all(len(row) == len(wins[0]) and all(cell for cell in row[:3]) for row in wins)
    par = [v for k, v in sections["Par for 9 and 18 holes"] if k == "table"]
    assert par and all(len({len(r) for r in t}) == 1 for t in par)  # every row whole
    headings = [h for h, _ in _sections(page)]
    first_chart = headings.index("Win rate by variant and policy")
    assert headings[first_chart:] == ["Win rate by variant and policy", "Stroke distribution per policy",
                                      "Clairvoyant gap", "Round totals and par", "Sources"]
    assert all(not any(k == "img" for k, _ in items) for _, items in _sections(page)[:first_chart])
    sources = next(v for k, v in sections["Sources"] if k == "table")
    assert [row[0] for row in sources[1:]] == [str(r.path) for r in runs]
    imgs = [v for k, v in page.items if k == "img"]
    assert len(imgs) == 4 and all(src.startswith("data:image/svg+xml;base64,") for src in imgs)
    text = files.html.read_text()
    assert "http://" not in text.replace("http://www.w3.org", "") and "<link" not in text


def test_markdown_tables_read_back_into_blocks():
    blocks = [doc.Para("Par to print.", strong=True),
              doc.Table(("player", "cells | left"), (("look|ahead", "41.0%"), ("greedy", "")),
                        (False, True))]
    assert doc.from_markdown(doc.markdown(blocks)) == blocks
    assert doc.from_markdown("| not a table\nbut a line\n") == [doc.Para("| not a table but a line")]
    with pytest.raises(ValueError, match="match its columns"):
        doc.from_markdown("| a | b |\n|---|---|\n| 1 |\n")


def test_report_command_prints_the_answers_as_the_page_has_them(runs, tmp_path):
    """The terminal shows the page's answers, a table per rule set with every cell whole
    (piped: 80 columns; on a pseudo-terminal: 120)."""
    result = CliRunner().invoke(app, ["report", str(runs[0].path), "--out", str(tmp_path / "rep")])
    assert result.exit_code == 0, result.output
    page = parse_page((tmp_path / "rep" / "report.html").read_text())
    header, *rows = next(v for k, v in page.items if k == "table")
    reference = next(r for r in rows if r[1] == "lookahead (reference)")
    words = " ".join(result.output.split())
    assert (f"Par to print (9 holes / 18 holes): {reference[6]} / {reference[7]}, the median "
            "round total of the reference player lookahead.") in words
    for row in rows:  # the same cells, the player's name bare
        assert [row[1].split(" (")[0], *row[2:]] in [line.split() for line in result.output.splitlines()]
    run = run_on_pty(golfstats("report", str(runs[0].path), "--out", str(tmp_path / "pty")))
    assert run.code == 0, run
    assert "Par to print" in run.text and "…" not in run.text, run
    lines = [line.split() for line in run.text.splitlines()]
    assert all([row[1].split(" (")[0], *row[2:]] in lines for row in rows), run


def _screenshot(page: Path, png: Path, profile: Path) -> None:
    subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", f"--user-data-dir={profile}", f"--screenshot={png}",
                    "--window-size=1200,2400", page.resolve().as_uri()],
                   check=True, capture_output=True, timeout=180)


def _drawn_tables(png: Path) -> tuple[int, int]:
    """Pixels of the table header shading (#f2f2f2) and the longest run of cell-border
    grey (#cccccc) along one pixel row, in the screenshot's top 1,200 pixels."""
    from PIL import Image

    pixels = np.asarray(Image.open(png).convert("RGB"))[:1200]
    header = int(np.all(pixels == (242, 242, 242), axis=2).sum())
    border = np.all(pixels == (204, 204, 204), axis=2)
    longest = 0
    for row in border:
        runs_ = np.diff(np.flatnonzero(np.diff(np.concatenate(([0], row.astype(int), [0])))))[::2]
        longest = max(longest, int(runs_.max()) if runs_.size else 0)
    return header, longest


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (Debian: apt-get install chromium)")
def test_the_page_renders_its_tables_in_chromium(report, tmp_path):
    files, _ = report
    png = tmp_path / "report.png"
    _screenshot(files.html, png, tmp_path / "profile")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    header, border = _drawn_tables(png)
    assert header > 2000, header  # shaded header cells of the answers table
    assert border > 400, border  # a table's rule, drawn across the page


COMMITTED = ROOT / "results" / "report.html"


@pytest.mark.skipif(not COMMITTED.is_file(), reason="no committed results/report.html")
def test_the_committed_report_opens_with_the_answers_and_has_no_markdown_in_pre(tmp_path):
    """results/report.html as the study wrote it (regenerate it with `golfstats study`)."""
    page = parse_page(COMMITTED.read_text())
    assert not [v for k, v in page.items if k == "pre" and "|---" in v]
    headings = [h for h, _ in _sections(page)]
    assert headings[0].startswith("The answers") and headings[-1] == "Sources", headings
    answers = next(v for k, v in page.items if k == "table")
    assert any(row[1].startswith("optimal") for row in answers[1:]), "optimal is not in the answers"
    if CHROMIUM:
        png = tmp_path / "committed.png"
        _screenshot(COMMITTED, png, tmp_path / "profile")
        header, border = _drawn_tables(png)
        assert header > 2000 and border > 400, (header, border)
