"""Where the CLI's boards come from: board text FILE(s) ('-' is standard input),
golfstats' seeded deals (``--seed S --index I``) or PySolFC's deals (``--pysol N``).

Each board gets an id that says where it came from: ``file.txt#2`` (the second board
of the file), ``seed:S:I`` or ``pysol:N``.  A board that cannot be read comes back as
an error message, so that commands handling many boards can report it and go on.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from golfstats.cli.options import DATA_ERROR, BoardSource, fail
from golfstats.deals import PYSOL_MAX

if TYPE_CHECKING:
    from golfstats.board import Board
    from golfstats.rules import Rules


class InputError(Exception):
    """A board source that cannot be read or parsed (reported in one line)."""


@dataclass(frozen=True)
class Loaded:
    """One board from a source, or the reason it could not be loaded."""

    label: str
    board: Board | None = None
    error: str | None = None
    key: int = 0


def file_label(path: Path) -> str:
    return "<stdin>" if str(path) == "-" else str(path)


def read_file(path: Path) -> str:
    if str(path) == "-":
        return sys.stdin.read()
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise InputError(f"cannot read {path}: not a UTF-8 text file") from None
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None


def file_boards(rules: Rules, path: Path) -> Iterator[Loaded]:
    """Every board of a file, in order; unreadable files and bad boards come back as errors."""
    from golfstats.board import BoardError, parse_boards

    name = file_label(path)
    try:
        text = read_file(path)
    except InputError as exc:
        yield Loaded(name, error=str(exc))
        return
    boards = parse_boards(text, rules)
    if not boards:
        yield Loaded(name, error=f"{name}: no board found (board text: see docs/rules.md)")
    for number, item in enumerate(boards, start=1):
        label = f"{name}#{number}"
        if isinstance(item, BoardError):
            where = f"{name}: board {number}" + (f", line {item.line}" if item.line else "")
            yield Loaded(label, error=f"{where}: {item.message}")
        else:
            yield Loaded(label, board=item)


def seeded(rules: Rules, seed: int, index: int, count: int) -> Iterator[Loaded]:
    from golfstats.deals import board_from_cards, seeded_deals

    step = 1024  # deal in batches: memory stays flat however large --count is
    for start in range(index, index + count, step):
        batch = seeded_deals(rules, seed, start, min(step, index + count - start))
        for i, (cards, key) in enumerate(zip(batch.cards, batch.keys, strict=True)):
            yield Loaded(f"seed:{seed}:{start + i}", board_from_cards(rules, cards), key=int(key))


def pysol_boards(rules: Rules, numbers: range) -> Iterator[Loaded]:
    from golfstats.deals import pysol_board
    from golfstats.rules import RulesError

    for number in numbers:
        try:
            board = pysol_board(rules, number)
        except RulesError as exc:
            fail(str(exc))  # the same for every number: a usage error
        except ValueError as exc:
            yield Loaded(f"pysol:{number}", error=f"pysol:{number}: {exc}")
            continue
        yield Loaded(f"pysol:{number}", board)


def pysol_numbers(text: str, allow_range: bool = True) -> range:
    """``1234`` or ``1-3000`` -> PySol deal numbers as a ``range`` (never a list, so a huge
    range costs nothing until it is walked); numbers must be 1 .. 2**33-1.  Errors exit."""
    lo_text, dash, hi_text = text.strip().partition("-")
    if dash and not allow_range:
        fail(f"--pysol takes one deal number here, not {text!r} (ranges A-B are for solve and odds)")
    try:
        lo = int(lo_text)
        hi = int(hi_text) if dash else lo
    except ValueError:
        fail(f"--pysol takes a deal number N{' or a range A-B' if allow_range else ''}, "
             f"not {text!r}")
    if not (1 <= lo <= PYSOL_MAX and 1 <= hi <= PYSOL_MAX):
        fail(f"PySol deal numbers run from 1 to {PYSOL_MAX}, not {text!r}")
    if lo > hi:
        fail(f"--pysol range {text!r} runs backwards")
    return range(lo, hi + 1)


def check_sources(source: BoardSource, many: bool = False) -> None:
    """Exactly one board source, used consistently; errors exit."""
    files, seed, index, count, pysol = source
    given = [name for name, used in (("a board FILE", bool(files)), ("--seed", seed is not None),
                                      ("--pysol", pysol is not None)) if used]
    file_word = "board FILEs" if many else "a board FILE"
    if not given:
        extra = " [--count K]" if many else ""
        fail(f"say which deal: {file_word}, --seed S [--index I]{extra} or --pysol N"
             + ("|A-B" if many else ""))
    if len(given) > 1:
        fail(f"give only one board source, not {' and '.join(given)}")
    if seed is None and index:
        fail("--index needs --seed (the deal number within that seed)")
    if seed is None and count != 1:
        fail("--count needs --seed (consecutive seeded deals)")
    if sum(str(f) == "-" for f in files) > 1:
        fail("standard input ('-') can be read only once")


def sources(rules: Rules, source: BoardSource, many: bool) -> Iterator[Loaded]:
    """The boards of the source (checked first: errors exit)."""
    check_sources(source, many)
    files, seed, index, count, pysol = source
    if files:
        for path in files:
            yield from file_boards(rules, path)
    elif seed is not None:
        yield from seeded(rules, seed, index, count)
    else:
        yield from pysol_boards(rules, pysol_numbers(pysol, allow_range=many))


def one_board(rules: Rules, source: BoardSource) -> Loaded:
    """The single board a command works on; any problem exits with a one-line error (a
    board that cannot be read or is not a board: exit code 1, invalid data, as in every
    command; a file holding several: 2, a usage error)."""
    loaded = list(sources(rules, source, many=False))
    for item in loaded:
        if item.error:
            fail(item.error, code=DATA_ERROR)
    if len(loaded) != 1:
        fail(f"{loaded[0].label.rsplit('#', 1)[0]} holds {len(loaded)} boards; this command "
             "takes one (split the file, or use `golfstats solve` for many)")
    return loaded[0]
