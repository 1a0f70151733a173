"""A small document model for text reports: headings, paragraphs and tables, written once
and rendered three ways: Markdown (files), HTML (the report page) and, in the command
line, rich (a terminal) or plain text (a pipe).

A report function returns a list of blocks; it never decides how they look.  The page
also takes ``Figure`` blocks (a chart file, inlined); ``from_markdown`` reads back the
Markdown that ``markdown`` and ``tables.markdown`` write, so a table handed over as
Markdown is still a table on the page.
"""

from __future__ import annotations

import base64
import html as _html
import re
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Heading:
    text: str


@dataclass(frozen=True)
class Para:
    """A paragraph; ``strong`` paragraphs carry the answer (bold on every medium)."""

    text: str
    strong: bool = False


@dataclass(frozen=True)
class Bullets:
    """A list of short findings, one item each."""

    items: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    """Cells are text already formatted; ``numeric`` columns are right-aligned."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    numeric: tuple[bool, ...]
    title: str = ""

    def __post_init__(self) -> None:
        if len(self.numeric) != len(self.columns) or any(len(r) != len(self.columns) for r in self.rows):
            raise ValueError("a table's rows and alignment must match its columns")


@dataclass(frozen=True)
class Figure:
    """A chart file on the page (an SVG, inlined as a ``data:`` URI), with its caption."""

    path: Path
    alt: str
    caption: str = ""


#: What every medium renders (the terminal included); the page also takes ``Figure``.
Block = Heading | Para | Bullets | Table
PageBlock = Block | Figure


def markdown(blocks: list[PageBlock]) -> str:
    """GitHub Markdown: ``###`` headings, ``**`` for strong paragraphs, pipe tables (a ``|``
    in a cell written ``\\|``), figures as images."""
    out: list[str] = []
    for block in blocks:
        if isinstance(block, Heading):
            out += [f"### {block.text}", ""]
        elif isinstance(block, Para):
            out += [f"**{block.text}**" if block.strong else block.text, ""]
        elif isinstance(block, Bullets):
            out += [*(f"- {item}" for item in block.items), ""]
        elif isinstance(block, Figure):
            out += [f"![{block.alt}]({block.path})", ""] + ([block.caption, ""] if block.caption else [])
        else:
            if block.title:
                out += [block.title, ""]
            out.append("| " + " | ".join(map(_md_cell, block.columns)) + " |")
            out.append("|" + "".join("---:|" if n else "---|" for n in block.numeric))
            out += ["| " + " | ".join(map(_md_cell, row)) + " |" for row in block.rows]
            out.append("")
    return "\n".join(out)


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|")


def html(blocks: list[PageBlock]) -> str:
    """HTML for the report page (its stylesheet right-aligns ``td.num``); a table sits in a
    ``div.wide`` that scrolls sideways when the table is wider than the page, so no cell is
    ever cut off."""
    out: list[str] = []
    for block in blocks:
        if isinstance(block, Heading):
            out.append(f"<h3>{_html.escape(block.text)}</h3>")
        elif isinstance(block, Para):
            text = _html.escape(block.text)
            out.append(f"<p><strong>{text}</strong></p>" if block.strong else f"<p>{text}</p>")
        elif isinstance(block, Bullets):
            out.append("<ul>" + "".join(f"<li>{_html.escape(i)}</li>" for i in block.items) + "</ul>")
        elif isinstance(block, Figure):
            out.append(figure_html(block))
        else:
            cap = f"<caption>{_html.escape(block.title)}</caption>" if block.title else ""
            head = "".join(f"<th>{_html.escape(c)}</th>" for c in block.columns)
            opens = ['<td class="num">' if n else "<td>" for n in block.numeric]
            body = "".join("<tr>" + "".join(f"{o}{_html.escape(v)}</td>"
                                            for o, v in zip(opens, row, strict=True)) + "</tr>"
                           for row in block.rows)
            out.append(f'<div class="wide"><table>{cap}<thead><tr>{head}</tr></thead>'
                       f"<tbody>{body}</tbody></table></div>")
    return "\n".join(out)


def figure_html(figure: Figure) -> str:
    """A ``<figure>`` with the SVG file inlined as a base64 ``data:`` URI (nothing linked)."""
    data = base64.b64encode(Path(figure.path).read_bytes()).decode("ascii")
    cap = f"<figcaption>{_html.escape(figure.caption)}</figcaption>" if figure.caption else ""
    return (f'<figure><img alt="{_html.escape(figure.alt)}" '
            f'src="data:image/svg+xml;base64,{data}">{cap}</figure>')


_RULE = re.compile(r"^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?$")  # |---|---:|


def _md_row(line: str) -> list[str]:
    """The cells of a pipe-table line; ``\\|`` is a ``|`` inside a cell."""
    body = line.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") and not body.endswith("\\|") else body
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", body)]


def from_markdown(text: str) -> list[Block]:
    """The blocks of Markdown as ``markdown`` (or ``tables.markdown``) writes it: ``#``
    headings, paragraphs (``**...**`` strong), ``-`` lists and pipe tables, a column
    numeric when its rule is ``---:``.  The line just before a table, set apart by a blank
    line, stays a paragraph (no guessing at titles).  ``ValueError`` for a table whose rows
    do not match its header."""
    blocks: list[Block] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        if not line:
            i += 1
        elif line.startswith("#"):
            blocks.append(Heading(line.lstrip("#").strip()))
            i += 1
        elif line.startswith("|") and i + 1 < len(lines) and _RULE.match(lines[i + 1].strip()):
            columns = _md_row(line)
            numeric = tuple(c.endswith(":") for c in _md_row(lines[i + 1]))
            i += 2
            rows = []
            while i < len(lines) and lines[i].strip().startswith("|"):
                rows.append(tuple(_md_row(lines[i])))
                i += 1
            blocks.append(Table(tuple(columns), tuple(rows), numeric))
        elif line.startswith("- "):
            items = []
            while i < len(lines) and lines[i].strip().startswith("- "):
                items.append(lines[i].strip()[2:])
                i += 1
            blocks.append(Bullets(tuple(items)))
        else:
            para = [line]  # a line that only looks like a table's starts a paragraph too
            i += 1
            while i < len(lines) and lines[i].strip() and not lines[i].strip().startswith(("|", "#", "- ")):
                para.append(lines[i].strip())
                i += 1
            joined = " ".join(para)
            strong = len(joined) > 4 and joined.startswith("**") and joined.endswith("**")
            blocks.append(Para(joined[2:-2] if strong else joined, strong))
    return blocks
