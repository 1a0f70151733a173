"""Where the CLI's boards come from: board text FILE(s) ('-' is standard input),
golfstats' seeded deals (``--seed S --index I``) or PySolFC's deals (``--pysol N``).

Each board gets an id that says where it came from: ``file.txt#2`` (the second board
of the file), ``seed:S:I`` or ``pysol:N``, and the rule set it is read under: a file's
own (its ``# rules:`` line), else the options given, else the default.  A board that
cannot be read comes back as an error message, so that commands handling many boards can
report it and go on.  Files are read as streams, board by board.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from golfstats.cli.options import DATA_ERROR, BoardSource, RuleChoice, fail
from golfstats.deals import PYSOL_MAX

if TYPE_CHECKING:
    from golfstats.board import Board
    from golfstats.rules import Rules


class InputError(Exception):
    """A board source that cannot be read or parsed (reported in one line)."""


@dataclass(frozen=True)
class Loaded:
    """One board from a source, or the reason it could not be loaded; ``rules`` is the
    rule set it is read and answered under (its file's ``# rules:`` line, the options
    given, or the default)."""

    label: str
    board: Board | None = None
    error: str | None = None
    key: int = 0
    rules: Rules | None = None
    #: Said once per file, with its first board: the file names no rule set.
    note: str | None = None


def file_label(path: Path) -> str:
    return "<stdin>" if str(path) == "-" else str(path)


def open_lines(path: Path) -> contextlib.AbstractContextManager:
    """The file (standard input for '-') open for reading line by line, as UTF-8."""
    if str(path) == "-":
        return contextlib.nullcontext(sys.stdin)
    try:
        return path.open(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None


def note(message: str) -> None:
    """A one-line note on stderr (not an error: the command goes on)."""
    typer.echo(f"golfstats: note: {message}", err=True)


def file_boards(choice: RuleChoice, path: Path, tell: bool = True) -> Iterator[Loaded]:
    """Every board of a file, in order, read as a stream (each board is parsed and
    answered before the next is read); unreadable files and bad boards come back as
    errors.  Each board's rule set is its file's (``RuleChoice.for_file``: options that
    contradict it exit 2); a file that names none is read under the options given or the
    default, and says so once: on stderr before its first board (``tell``), or in that
    board's ``note``."""
    from golfstats.board import BoardError, board_texts

    name = file_label(path)
    try:
        handle = open_lines(path)
    except InputError as exc:
        yield Loaded(name, error=str(exc))
        return
    count = 0
    told = choice.given
    try:
        with handle as lines:
            for text in board_texts(lines):
                count += 1
                label = f"{name}#{text.number}"
                where = f"{name}: board {text.number}"
                if text.named_error is not None:
                    line = text.named_error.line
                    yield Loaded(label, error=f"{where}, line {line}: {text.named_error.message}")
                    continue
                rules = choice.for_file(text.named, f"{name} (line {text.named_line})")
                try:
                    board = text.parse(rules)
                except BoardError as exc:
                    yield Loaded(label, error=f"{where}" + (f", line {exc.line}" if exc.line else "")
                                 + f": {exc.message}", rules=rules)
                    continue
                said = None
                if text.named is None and not told:
                    told = True
                    said = (f"{name} names no rule set (no '# rules: ID' line): read as "
                            f"{rules.id}, the default; -v gives another")
                    if tell:
                        note(said)
                yield Loaded(label, board=board, rules=rules, note=said)
    except UnicodeDecodeError:
        yield Loaded(name, error=f"cannot read {path}: not a UTF-8 text file")
        return
    except OSError as exc:
        yield Loaded(name, error=f"cannot read {path}: {exc.strerror or exc}")
        return
    if not count:
        yield Loaded(name, error=f"{name}: no board found (board text: see docs/rules.md)")


def seeded(rules: Rules, seed: int, index: int, count: int) -> Iterator[Loaded]:
    from golfstats.deals import board_from_cards, seeded_deals

    step = 1024  # deal in batches: memory stays flat however large --count is
    for start in range(index, index + count, step):
        batch = seeded_deals(rules, seed, start, min(step, index + count - start))
        for i, (cards, key) in enumerate(zip(batch.cards, batch.keys, strict=True)):
            yield Loaded(f"seed:{seed}:{start + i}", board_from_cards(rules, cards), key=int(key),
                         rules=rules)


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
        yield Loaded(f"pysol:{number}", board, rules=rules)


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


def sources(choice: RuleChoice, source: BoardSource, many: bool,
            tell: bool = True) -> Iterator[Loaded]:
    """The boards of the source, one at a time (checked first: errors exit); ``tell``:
    the notes of ``file_boards`` go to stderr as they come."""
    check_sources(source, many)
    files, seed, index, count, pysol = source
    if files:
        for path in files:
            yield from file_boards(choice, path, tell)
    elif seed is not None:
        yield from seeded(choice.rules(), seed, index, count)
    else:
        yield from pysol_boards(choice.rules(), pysol_numbers(pysol, allow_range=many))


def one_board(choice: RuleChoice, source: BoardSource) -> Loaded:
    """The single board a command works on; any problem exits with a one-line error (a
    board that cannot be read or is not a board: exit code 1, invalid data, as in every
    command; a file holding several: 2, a usage error, said at its second board, so a
    large file is not read to the end to be refused)."""
    first: Loaded | None = None
    for item in sources(choice, source, many=False, tell=False):
        if item.error:
            fail(item.error, code=DATA_ERROR)
        if first is not None:
            fail(f"{first.label.rsplit('#', 1)[0]} holds more than one board; this command "
                 "takes one (split the file, or use `golfstats solve` for many)")
        first = item
    if first.note:
        note(first.note)
    return first
