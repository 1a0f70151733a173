"""Terminal rendering: boards, cards and moves in words, as ``rich`` text.

Everything here returns ``rich.text.Text`` (or plain strings) and never prints;
the CLI prints.  Two independent switches decide how a card looks:

- ``Style.symbols``: suit symbols (``7♠``, ``10♥``) or board-text letters (``7S``,
  ``TH``).  ``detect_style`` turns symbols on when the output is a terminal that
  can encode them, so piped output stays plain text that tools can read.
- colour: red suits are styled red and jokers magenta, always; whether the
  style reaches the screen is the console's business (``rich`` drops it when the
  output is not a terminal or when ``NO_COLOR`` is set; ``FORCE_COLOR`` forces it).

Columns are numbered from 1 in everything a person reads (the engine counts from 0).
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import Console
from rich.text import Text

from golfstats.board import Board
from golfstats.cards import RED_SUITS, format_card, is_joker, pretty_card, suit_letter
from golfstats.engine import DRAW, Position, apply, is_won
from golfstats.rules import Rules
from golfstats.scoring import clear_points, play_points


@dataclass(frozen=True)
class Style:
    """How cards are written: suit symbols (terminal) or board-text letters (plain)."""

    symbols: bool = False


PLAIN = Style(symbols=False)
SYMBOLS = Style(symbols=True)


def detect_style(console: Console) -> Style:
    """Symbols when ``console`` writes to a terminal whose encoding has the suit symbols."""
    if not console.is_terminal:
        return PLAIN
    try:
        "\u2660\u2665\u2666\u2663".encode(console.encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return PLAIN
    return SYMBOLS


def card_name(card: int, style: Style = PLAIN) -> str:
    """A card as plain text: ``10♥`` with symbols, ``TH`` without."""
    return pretty_card(card) if style.symbols else format_card(card)


def card_text(card: int, style: Style = PLAIN, bold: bool = False) -> Text:
    """A card as styled text (red suits red, jokers magenta)."""
    if is_joker(card):
        colour = "bold magenta"
    else:
        colour = "red" if suit_letter(card) in RED_SUITS else ""
    if bold:
        colour = f"bold {colour}".strip()
    return Text(card_name(card, style), style=colour)


# ------------------------------------------------------------------ boards

def board_lines(board: Board, rules: Rules, style: Style = PLAIN,
                title: str | None = None) -> list[Text]:
    """The position laid out as on the table: columns top to bottom, exposed card last (bold).

    Above the columns: the foundation top, the stock in draw order (it is part of the
    board text, although a player would not see its order) and the cards left.
    """
    lines: list[Text] = []
    if title:
        lines.append(Text(title, style="bold"))
    top = Text("Foundation  ")
    if board.foundation is None:
        top.append("- (empty: any card starts it)", style="dim")
    else:
        top.append_text(card_text(board.foundation, style, bold=True))
    lines.append(top)
    if rules.layout.has_stock:
        stock = Text(f"Stock       {len(board.stock)} card{'s' if len(board.stock) != 1 else ''}")
        if board.stock:
            stock.append(", in draw order: ")
            for i, card in enumerate(board.stock):
                if i:
                    stock.append(" ")
                stock.append_text(card_text(card, style))
        lines.append(stock)
    left = sum(len(col) for col in board.tableau)
    lines.append(Text(f"Cards left  {left}"))
    lines.append(Text())
    width = 4
    header = Text()
    for c in range(len(board.tableau)):
        header.append(f"{c + 1:>{width - 1}} ", style="dim")
    header.rstrip()
    lines.append(header)
    depth = max([len(col) for col in board.tableau] + [1])
    for row in range(depth):
        line = Text()
        for col in board.tableau:
            if row < len(col):
                cell = card_text(col[row], style, bold=row == len(col) - 1)
            elif row == 0:
                cell = Text("-", style="dim")
            else:
                cell = Text("")
            line.append(" " * (width - 1 - cell.cell_len))
            line.append_text(cell)
            line.append(" ")
        line.rstrip()
        lines.append(line)
    return lines


# ------------------------------------------------------------------ moves

@dataclass(frozen=True)
class Step:
    """One move of a replayed line, with the position after it.

    ``column`` is 1-based (None for a draw); ``points`` is the running docs/rules.md points
    score (the clearing bonus included on the move that clears the tableau); ``chain``
    the plays since the last draw.  While a hand runs, its stroke count is
    ``cards_left``; once cleared it is minus ``stock_left``.
    """

    number: int
    move: int
    card: int
    column: int | None
    cards_left: int
    stock_left: int
    points: int
    chain: int

    @property
    def is_draw(self) -> bool:
        return self.move == DRAW

    @property
    def strokes(self) -> int:
        return -self.stock_left if self.cards_left == 0 else self.cards_left


def replay(rules: Rules, start: Position, moves: list[int]) -> list[Step]:
    """Replay ``moves`` through the reference engine; raises ``ValueError`` on an illegal move."""
    steps = []
    pos = start
    points = chain = 0
    for number, move in enumerate(moves, start=1):
        if move == DRAW:
            if not pos.stock:
                raise ValueError(f"move {number}: draw from an empty stock")
            card = pos.stock[0]
        else:
            if not 0 <= move < len(pos.tableau) or not pos.tableau[move]:
                raise ValueError(f"move {number}: no card in column {move + 1}")
            card = pos.tableau[move][-1]
        try:
            pos = apply(rules, pos, move)
        except ValueError:
            raise ValueError(f"move {number} ({format_card(card)}) is illegal") from None
        if move == DRAW:
            chain = 0
        else:
            points += play_points(chain)
            chain += 1
            if is_won(pos):
                points += clear_points(len(pos.stock))
        steps.append(Step(number, move, card, None if move == DRAW else move + 1,
                          pos.cards_left(), len(pos.stock), points, chain))
    return steps


def describe_move(card: int, column: int | None, style: Style = PLAIN) -> Text:
    """``play 7♠ from column 3`` (``column`` 1-based) or ``draw 9♥`` (``column`` None)."""
    if column is None:
        return Text("draw ").append_text(card_text(card, style))
    return Text("play ").append_text(card_text(card, style)).append(f" from column {column}")


def step_line(step: Step, style: Style = PLAIN, points: bool = False, stock: bool = True) -> Text:
    """One numbered line of a replay: the move in words, then the top, cards left, stock.

    ``points`` adds the running strokes and points (for `golfstats play`); ``stock=False``
    leaves out the stock count (games without a stock).
    """
    line = Text(f"{step.number:>4}. ")
    line.append_text(describe_move(step.card, step.column, style))
    line.append(" " * max(1, 31 - line.cell_len))
    line.append("top ").append_text(card_text(step.card, style))
    line.append(" " * max(1, 40 - line.cell_len))
    line.append(f"cards left {step.cards_left:>2}")
    if stock:
        line.append(f"  stock {step.stock_left:>2}")
    if points:
        line.append(f"  strokes {step.strokes:>3}  points {step.points:>4}")
    return line
