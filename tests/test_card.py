"""The course card (``report.card`` and ``golfstats course --card``): PNG and SVG files
that hold every hole's par, the course par, the deals' faces (red suits red) and blank
score rows; what cannot be drawn or written is refused in one line before any work."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from typer.testing import CliRunner

from golfstats.cards import format_card
from golfstats.cli import app
from golfstats.deals import seeded_board
from golfstats.report.card import BLANK_ROWS, CardError, CardHole, course_par, draw_card
from golfstats.rules import parse_variant

_SVG = "{http://www.w3.org/2000/svg}"


def _holes(variant: str, count: int, seed: int = 5) -> list[CardHole]:
    rules = parse_variant(variant)
    out = []
    for i in range(count):
        board = seeded_board(rules, seed, i)
        out.append(CardHole(tuple(tuple(map(format_card, col)) for col in board.tableau),
                            None if board.foundation is None else format_card(board.foundation),
                            len(board.stock), 3 + (i * 5) % 4, f"win {10 + i}%"))
    return out


def _texts(svg) -> list[tuple[float, float, str, str]]:
    """(y, x, text, style) of every text element."""
    root = ET.parse(svg).getroot()
    return [(float(e.get("y")), float(e.get("x")), e.text or "", e.get("style", ""))
            for e in root.iter(f"{_SVG}text")]


def _row(texts, label: str) -> list[str]:
    """The texts on the rows of ``label`` (same baseline; one row a band of nine), top
    band first, left to right, the labels left out."""
    ys = sorted(y for y, _, s, _ in texts if s == label)
    assert ys, f"no {label!r} row"
    return [s for y0 in ys for y, _x, s, _style in sorted(texts, key=lambda t: t[1])
            if abs(y - y0) < 1.5 and s != label]


@pytest.mark.parametrize("variant, count", [("strict", 9), ("strict+jokers2+empty-start", 18),
                                            ("black-hole", 9)])
def test_svg_card_holds_every_par_the_course_par_and_the_faces(variant, count, tmp_path):
    holes = _holes(variant, count)
    path = draw_card(holes, f"{variant} test course", tmp_path / "card.svg")
    texts = _texts(path)
    words = [s for _, _, s, _ in texts]
    pars = [str(h.par) for h in holes]
    if count == 9:
        assert _row(texts, "Par") == [*pars, str(course_par(holes))]
        assert _row(texts, "Hole") == [*map(str, range(1, 10)), "Total"]
    else:  # front nine and back nine, each with its sum, then the total
        front, back = sum(h.par for h in holes[:9]), sum(h.par for h in holes[9:])
        assert _row(texts, "Par") == [*pars[:9], str(front), *pars[9:], str(back), str(front + back)]
        assert _row(texts, "Hole") == [*map(str, range(1, 10)), "Out", *map(str, range(10, 19)),
                                       "In", "Total"]
    assert f"Course par {course_par(holes)}" in words
    assert _row(texts, "Difficulty") == [h.difficulty for h in holes]
    assert words.count("name") == BLANK_ROWS * len(range(0, count, 9))
    faces = [(s, style) for _, _, s, style in texts if s[-1:] in "\u2660\u2663\u2665\u2666"]
    tableau = sum(c != "JK" for h in holes for col in h.columns for c in col)
    tops = sum(1 for h in holes for col in h.columns if col and col[-1] != "JK")
    founded = sum(1 for h in holes if h.foundation not in (None, "JK"))
    assert len(faces) == tableau + tops + 2 * founded  # a corner each, the top cards' faces too
    for face, style in faces:
        red = face[-1] in "\u2665\u2666"
        assert ("fill: #c8102e" in style) == red, (face, style)
    if holes[0].foundation is None:
        assert "foundation: empty" in words


def test_png_card_is_written_and_refusals(tmp_path):
    holes = _holes("strict", 9)
    path = draw_card(holes, "strict", tmp_path / "card.PNG", players=2)
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 50_000
    with pytest.raises(CardError, match="9 or 18 holes"):
        draw_card(holes[:8], "short", tmp_path / "c.svg")
    with pytest.raises(CardError, match=".png or .svg"):
        draw_card(holes, "pdf", tmp_path / "c.pdf")
    bad = CardHole(holes[0].columns, "ZZ", 16, 4)
    with pytest.raises(CardError, match="not a card: 'ZZ'"):
        draw_card([bad] + holes[1:], "bad", tmp_path / "c.svg")
    assert not (tmp_path / "c.svg").exists()


def test_course_command_draws_the_card(tmp_path, monkeypatch):
    runner = CliRunner()
    svg = tmp_path / "course.svg"
    result = runner.invoke(app, ["course", "-v", "strict", "--seed", "11", "--json", "--card", str(svg)])
    assert result.exit_code == 0, result.output
    course = json.loads(result.output)  # --json stays JSON: the card says nothing on stdout
    texts = _texts(svg)
    assert _row(texts, "Par") == [*(str(h["par"]) for h in course["hole_list"]), str(course["par"])]
    assert f"Course par {course['par']}" in [s for _, _, s, _ in texts]
    png = tmp_path / "course.png"
    result = runner.invoke(app, ["course", "-v", "strict", "--seed", "11", "--card", str(png)])
    assert result.exit_code == 0 and f"card: {png}" in result.output, result.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    import golfstats.course

    def no_course(*args, **kwargs):
        raise AssertionError("the course was made before --card was checked")

    monkeypatch.setattr(golfstats.course, "make_course", no_course)
    (tmp_path / "folder.png").mkdir()
    for card, text, code in ((tmp_path / "missing" / "c.png", "cannot write --card", 1),
                             (tmp_path / "c.pdf", "the card is drawn as .png or .svg", 2),
                             (tmp_path / "folder.png", "cannot write --card", 1)):
        result = runner.invoke(app, ["course", "--card", str(card)])
        lines = [line for line in result.output.splitlines() if line.strip()]
        assert result.exit_code == code and len(lines) == 1, result.output
        assert lines[0].startswith("golfstats: error:") and text in lines[0], result.output
