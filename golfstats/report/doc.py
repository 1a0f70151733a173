"""A small document model for text reports: headings, paragraphs and tables, written once
and rendered three ways: Markdown (files), HTML (the report page) and, in the command
line, rich (a terminal) or plain text (a pipe).

A report function returns a list of blocks; it never decides how they look.
"""

from __future__ import annotations

import html as _html
from dataclasses import dataclass


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


Block = Heading | Para | Bullets | Table


def markdown(blocks: list[Block]) -> str:
    """GitHub Markdown: ``###`` headings, ``**`` for strong paragraphs, pipe tables."""
    out: list[str] = []
    for block in blocks:
        if isinstance(block, Heading):
            out += [f"### {block.text}", ""]
        elif isinstance(block, Para):
            out += [f"**{block.text}**" if block.strong else block.text, ""]
        elif isinstance(block, Bullets):
            out += [*(f"- {item}" for item in block.items), ""]
        else:
            if block.title:
                out += [block.title, ""]
            out.append("| " + " | ".join(block.columns) + " |")
            out.append("|" + "".join("---:|" if n else "---|" for n in block.numeric))
            out += ["| " + " | ".join(row) + " |" for row in block.rows]
            out.append("")
    return "\n".join(out)


def html(blocks: list[Block]) -> str:
    """HTML for the report page (its stylesheet right-aligns ``td.num``)."""
    out: list[str] = []
    for block in blocks:
        if isinstance(block, Heading):
            out.append(f"<h3>{_html.escape(block.text)}</h3>")
        elif isinstance(block, Para):
            text = _html.escape(block.text)
            out.append(f"<p><strong>{text}</strong></p>" if block.strong else f"<p>{text}</p>")
        elif isinstance(block, Bullets):
            out.append("<ul>" + "".join(f"<li>{_html.escape(i)}</li>" for i in block.items) + "</ul>")
        else:
            cap = f"<caption>{_html.escape(block.title)}</caption>" if block.title else ""
            head = "".join(f"<th>{_html.escape(c)}</th>" for c in block.columns)
            opens = ['<td class="num">' if n else "<td>" for n in block.numeric]
            body = "".join("<tr>" + "".join(f"{o}{_html.escape(v)}</td>"
                                            for o, v in zip(opens, row, strict=True)) + "</tr>"
                           for row in block.rows)
            out.append(f"<table>{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
    return "\n".join(out)
