"""Printing for the commands: the console, card style, moves in JSON and in words."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from rich.console import Console

    from golfstats.board import Board
    from golfstats.render import Step, Style
    from golfstats.rules import Rules

MOVES_NOTATION = (
    "Moves in JSON: a play is {\"play\": \"7S\", \"column\": 3} (the card in board text, "
    "the column counted from 1); a draw is {\"draw\": \"9H\"} (the card turned).")


def console() -> Console:
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True)


def style(con: Console) -> Style:
    from golfstats.render import detect_style

    return detect_style(con)


def move_json(step: Step) -> dict:
    from golfstats.cards import format_card

    if step.column is None:
        return {"draw": format_card(step.card)}
    return {"play": format_card(step.card), "column": step.column}


def report(message: str) -> None:
    """A one-line error for one board; the command carries on and exits 1 at the end."""
    typer.echo(f"golfstats: error: {message}", err=True)


def replay(rules: Rules, board: Board, moves, label: str) -> list[Step] | None:
    """The steps of ``moves`` through the reference engine (None, reported, if illegal)."""
    from golfstats.render import replay as engine_replay

    try:
        return engine_replay(rules, board.position(), list(moves))
    except ValueError as exc:
        report(f"internal error: {label}: the line does not replay through the reference "
               f"engine ({exc})")
        return None


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def outcome(won: bool, strokes: int, stock_left: int, has_stock: bool = True,
            goal_win: bool = False) -> str:
    """The end of a line in words, e.g. ``won with 3 stock cards unturned: -3 strokes``."""
    if won:
        if goal_win:
            how = " (the first win found, not the best)"
        elif has_stock:
            how = f" with {plural(stock_left, 'stock card')} unturned"
        else:
            how = ""
        return f"won{how}: {plural(strokes, 'stroke')}"
    if goal_win:
        return f"cannot be won (the line shown leaves {plural(strokes, 'card')})"
    return f"lost: {plural(strokes, 'card')} left, {plural(strokes, 'stroke')}"


def print_blocks(blocks) -> None:
    """A report's blocks (``report.doc``) on standard output: rich tables and bold answers
    on a terminal, the same as plain text when piped (no markup, no colour codes)."""
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from golfstats.report.doc import Bullets, Heading, Para

    con = Console(highlight=False)
    for block in blocks:
        if isinstance(block, Heading):
            con.print(Text(block.text, style="bold underline"))
        elif isinstance(block, Para):
            con.print(Text(block.text, style="bold" if block.strong else ""))
        elif isinstance(block, Bullets):
            for item in block.items:
                line = Text("- ")
                line.append(item)
                con.print(line)
        else:
            table = Table(title=block.title or None, title_justify="left", box=box.SIMPLE_HEAD,
                          pad_edge=False, title_style="italic")
            for k, (name, numeric) in enumerate(zip(block.columns, block.numeric, strict=True)):
                widest = max((len(row[k]) for row in block.rows), default=0)
                table.add_column(name, justify="right" if numeric else "left",
                                 no_wrap=not numeric,  # names stay whole
                                 overflow="fold",  # never an ellipsis in place of a figure
                                 # headers wrap at spaces; a figure is never cut in two
                                 min_width=max(*map(len, name.split()), widest if numeric else 0))
            for row in block.rows:
                table.add_row(*row)
            con.print(table)
            continue
        con.print()
