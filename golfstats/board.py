"""Board text: read and write the interchange format of docs/rules.md.

```
Talon: 8H 2C JH ...        (stock in draw order; absent in Black Hole / All in a Row)
Foundations: TH             (the top card, or - when empty)
JD 5H KH AS 4H              (one line per column, first card dealt first: last is exposed)
```

Mid-game positions have shorter columns and a shorter talon; an empty column is
written ``-``.  A file may hold several boards separated by blank lines; a line
starting with ``#`` is a comment, and the comment ``# rules: ID`` names the rule set of
the boards after it (``rules_comment``).  ``board_texts`` reads a file board by board,
as a stream.  Malformed input raises ``BoardError`` naming the line and what is wrong.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from golfstats.cards import JOKERS, CardError, format_card, is_joker, parse_card
from golfstats.engine import Position, start_position
from golfstats.rules import ACE_OF_SPADES, Game, Rules, RulesError, parse_variant


class BoardError(ValueError):
    """Malformed board text; ``line`` is the 1-based line number in the file (0 if unknown)."""

    def __init__(self, line: int, message: str):
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line
        self.message = message


@dataclass(frozen=True)
class Board:
    """Cards of a position: columns (last card exposed), stock in draw order, foundation top."""

    tableau: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    foundation: int | None

    def position(self) -> Position:
        return start_position(self.tableau, self.stock, self.foundation)

    def cards(self) -> list[int]:
        out = [c for col in self.tableau for c in col] + list(self.stock)
        if self.foundation is not None:
            out.append(self.foundation)
        return out


def format_board(board: Board, rules: Rules) -> str:
    """Board text, ending with a newline."""
    lines = []
    if rules.layout.has_stock:
        lines.append(" ".join(["Talon:", *map(format_card, board.stock)]))
    top = "-" if board.foundation is None else format_card(board.foundation)
    lines.append(f"Foundations: {top}")
    for col in board.tableau:
        lines.append(" ".join(map(format_card, col)) if col else "-")
    return "\n".join(lines) + "\n"


#: A comment line ``# rules: ID`` names the rule set of the boards after it (its canonical
#: id, as ``golfstats deal --board`` writes it), until the next such line.
RULES_TAG = "rules:"


def rules_comment(rules: Rules) -> str:
    """The comment line that names ``rules`` in board text (with its newline)."""
    return f"# {RULES_TAG} {rules.id}\n"


def _named_rules(comment: str, number: int) -> Rules | None | BoardError:
    """The rule set a ``# rules: ID`` comment names (None for any other comment), or the
    ``BoardError`` of an id that names none."""
    body = comment[1:].strip()
    if not body.lower().startswith(RULES_TAG):
        return None
    name = body[len(RULES_TAG):].strip()
    if not name:
        return BoardError(number, "'# rules:' names no rule set (write e.g. # rules: strict)")
    try:
        return parse_variant(name)
    except RulesError as exc:
        return BoardError(number, f"'# rules: {name}': {exc}")


@dataclass(frozen=True)
class BoardText:
    """The lines of one board of a file, as read, with the rule set the file names for it.

    ``number`` counts the boards of the file from 1; ``lines`` are (line number, text);
    ``named`` is the rule set of the last ``# rules:`` line above the board (None: the
    file names none there), ``named_line`` that line's number, and ``named_error`` the
    ``BoardError`` of a ``# rules:`` line that names no valid rule set."""

    number: int
    lines: tuple[tuple[int, str], ...]
    named: Rules | None = None
    named_line: int = 0
    named_error: BoardError | None = None

    @property
    def first_line(self) -> int:
        return self.lines[0][0]

    def parse(self, rules: Rules) -> Board:
        """The board, read under ``rules``; raises ``BoardError``."""
        if self.named_error is not None:
            raise self.named_error
        return _parse_block(self, rules)


def board_texts(lines: Iterable[str]) -> Iterator[BoardText]:
    """The boards of a file, one at a time, as its ``lines`` arrive (a file object is read
    as a stream: a file of many boards never sits in memory whole).  Blank lines separate
    boards; comment lines are skipped, and a ``# rules: ID`` comment sets the rule set of
    the boards that start after it."""
    in_force: tuple = (None, 0, None)  # (named, named_line, named_error)
    start = in_force  # what was in force where the current board started
    current: list[tuple[int, str]] = []
    count = 0
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if line.startswith("#"):
            found = _named_rules(line, number)
            if isinstance(found, BoardError):
                in_force = (None, number, found)
            elif found is not None:
                in_force = (found, number, None)
            continue
        if not line:
            if current:
                count += 1
                yield BoardText(count, tuple(current), *start)
                current = []
            continue
        if not current:
            start = in_force
        current.append((number, line))
    if current:
        count += 1
        yield BoardText(count, tuple(current), *start)


def _cards(words: list[str], number: int, jokers_seen: list[int]) -> list[int]:
    out = []
    for word in words:
        try:
            card = parse_card(word)
        except CardError as exc:
            raise BoardError(number, str(exc)) from None
        if is_joker(card):
            if len(jokers_seen) == len(JOKERS):
                raise BoardError(number, "more than two jokers")
            card = JOKERS[len(jokers_seen)]
            jokers_seen.append(number)
        out.append(card)
    return out


def _parse_block(block: BoardText, rules: Rules) -> Board:
    layout = rules.layout
    lines = list(block.lines)
    stock: tuple[int, ...] = ()
    foundation: int | None = None
    seen: dict[int, tuple[int, str]] = {}
    jokers: list[int] = []

    def remember(cards: list[int], number: int, where: str) -> None:
        for card in cards:
            if card in seen:
                other_line, other_where = seen[card]
                if other_where == where:
                    problem = f"appears twice in the {where}"
                else:
                    problem = f"is both in the {other_where} (line {other_line}) and in the {where}"
                raise BoardError(number, f"duplicate card: {format_card(card)} {problem}")
            allowed = card in rules.deck or (card == ACE_OF_SPADES and where == "foundation"
                                              and rules.game is Game.BLACK_HOLE)
            if not allowed:
                raise BoardError(number, f"{format_card(card)} is not in the deck of {rules.id}")
            seen[card] = (number, where)

    number, line = lines[0]
    if line.lower().startswith("talon:"):
        if not layout.has_stock:
            raise BoardError(number, f"{rules.id} has no stock, so no Talon: line")
        words = line[len("talon:"):].split()
        if words == ["-"]:
            words = []
        cards = _cards(words, number, jokers)
        remember(cards, number, "talon")
        stock = tuple(cards)
        lines.pop(0)
    elif layout.has_stock:
        raise BoardError(number, "expected the Talon: line first (the stock in draw order)")
    if not lines:
        raise BoardError(number, "board ends before its Foundations: line")
    number, line = lines[0]
    if not line.lower().startswith("foundations:"):
        raise BoardError(number, "expected a Foundations: line (the top card, or -)")
    words = line[len("foundations:"):].split()
    if len(words) != 1:
        raise BoardError(number, "Foundations: takes exactly one card, or - when empty")
    if words[0] != "-":
        cards = _cards(words, number, jokers)
        remember(cards, number, "foundation")
        foundation = cards[0]
    lines.pop(0)
    if len(lines) != layout.columns:
        where = lines[-1][0] if lines else number
        raise BoardError(where, f"{rules.id} has {layout.columns} columns, this board has {len(lines)}")
    columns = []
    for number, line in lines:
        if line.lower().startswith(("talon:", "foundations:")):
            raise BoardError(number, "expected a column line here")
        words = [] if line == "-" else line.split()
        cards = _cards(words, number, jokers)
        if len(cards) > layout.height:
            raise BoardError(number, f"column of {len(cards)} cards; {rules.id} deals {layout.height}")
        remember(cards, number, "tableau")
        columns.append(tuple(cards))
    return Board(tuple(columns), stock, foundation)


def parse_board(text: str, rules: Rules) -> Board:
    """Exactly one board from ``text``."""
    boards = parse_boards(text, rules)
    if len(boards) != 1:
        raise BoardError(0, f"expected one board, found {len(boards)}")
    if isinstance(boards[0], BoardError):
        raise boards[0]
    return boards[0]


def parse_boards(text: str, rules: Rules) -> list[Board | BoardError]:
    """Every board in ``text``, in order, read under ``rules``; a malformed one, or one
    that the text's ``# rules:`` line says is of another rule set, is returned as its
    ``BoardError`` so that callers can report it and carry on with the others."""
    out: list[Board | BoardError] = []
    for block in board_texts(text.splitlines()):
        try:
            if block.named is not None and block.named != rules:
                raise BoardError(block.named_line, f"the text names the rule set "
                                                   f"{block.named.id}, not {rules.id}")
            out.append(block.parse(rules))
        except BoardError as exc:
            out.append(exc)
    return out
