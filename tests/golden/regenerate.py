"""Regenerate the golden files: tests/golden/<variant-id>.txt (the solver) and
tests/golden/policies/<variant-id>.txt (every registered policy).

Run from the repository root:

    python tests/golden/regenerate.py              # both kinds
    python tests/golden/regenerate.py --solver     # only the solver's
    python tests/golden/regenerate.py --policies   # only the policies'

Only regenerate on purpose (a rule changed meaning and RULES_VERSION was bumped, the
deal generator changed, or a policy's rule changed on purpose): tests/test_golden.py
checks the solver and the policies against these files, and a diff in them is the
visible record of the change.

Each file holds ``DEALS`` seeded deals of ``SEED`` for one rule set.  The fast solver
gives the optimal strokes and a line; before anything is written, the slow reference
solver must agree on (won, strokes) and the line must replay through the reference
engine to that score.  The format (see ``HEADER``) is plain text: one record per deal,
records separated by blank lines, ``#`` lines are comments.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from golfstats.board import format_board
from golfstats.deals import seeded_board
from golfstats.engine import DRAW, apply, legal_moves, score_moves
from golfstats.policies import REGISTRY, Policy, play_board
from golfstats.reference import reference_solve
from golfstats.reference.twins import twin_of
from golfstats.rules import RULES_VERSION, parse_variant
from golfstats.solver import solve

HERE = Path(__file__).resolve().parent
VARIANTS = ("strict", "queens-on-kings", "putt-putt", "strict+jokers2", "putt-putt+empty-start",
            "queens-on-kings+dead-queen", "putt-putt+when-stuck", "black-hole", "all-in-a-row")
SEED = 7
DEALS = 3

HEADER = """\
# Golden file: optimal strokes and one optimal line for {deals} seeded deals under {variant}.
# rules version: {version}
# Regenerate (on purpose only): python tests/golden/regenerate.py
# Checked by tests/test_golden.py.  One record per deal, blank line between records:
#   deal: seed S index I     the deal (golfstats.deals.seeded_board)
#   <board text>             docs/rules.md "Board text"
#   won: yes|no              whether the optimal line clears the tableau
#   strokes: N               optimal strokes (docs/rules.md)
#   stock_left: N            stock cards never turned on that line
#   solution: ...            the line: column numbers 1..{columns} in board order, D = draw
"""


def format_moves(moves: list[int]) -> str:
    """``solution:`` notation: a play of column c (0-based) is ``c + 1``, a draw ``D``."""
    return " ".join("D" if m == DRAW else str(m + 1) for m in moves)


def parse_moves(text: str) -> list[int]:
    """Inverse of ``format_moves``."""
    return [DRAW if word == "D" else int(word) - 1 for word in text.split()]


def record(rules, seed: int, index: int) -> str:
    """One checked record (raises AssertionError if the solvers or the replay disagree)."""
    board = seeded_board(rules, seed, index)
    sol = solve(board, rules)
    expected = reference_solve(board, rules)
    assert (sol.won, sol.strokes) == expected, (rules.id, index, sol, expected)
    out = score_moves(rules, board.position(), sol.moves)
    assert out.finished and (out.won, out.strokes) == expected, (rules.id, index, out)
    return "\n".join([
        f"deal: seed {seed} index {index}",
        format_board(board, rules).rstrip("\n"),
        f"won: {'yes' if sol.won else 'no'}",
        f"strokes: {sol.strokes}",
        f"stock_left: {sol.stock_left}",
        f"solution: {format_moves(sol.moves)}",
    ])


POLICY_HEADER = """\
# Golden file: the line every registered policy plays from {positions} positions under {variant}.
# rules version: {version}
# Regenerate (on purpose only): python tests/golden/regenerate.py --policies
# Checked by tests/test_golden.py.  One record per position and policy, blank line between:
#   position: seed S index I moves M   deal I of seed S after M scripted moves (see below)
#   <board text>                        the position
#   policy: SPEC key K                  the policy at its cheapest parameters, its random key
#   line: ...                           the moves it plays: columns 1..{columns}, D = draw
#   strokes: N                          the strokes at the end of that line
# The scripted moves: from the deal, play the first legal play if any, else draw, M times
# (golf: until {stock} stock cards are left, so that the slow twins can check each line).
"""
POSITION_MOVES = (14, 20)  # mid-game: small enough for every policy to be quick
#: Golf positions are played on until this many stock cards are left: small enough for
#: every policy's slow twin (the plain expectimax among them) to check the recorded line.
GOLDEN_STOCK = 5


def cheapest(name: str) -> Policy:
    """The policy at its cheapest parameters: every integer parameter at its lower limit."""
    info = REGISTRY[name]
    return Policy(name, tuple(p.default if p.choices else p.lo for p in info.params))


def scripted_position(rules, seed: int, index: int, moves: int):
    """The position after the scripted moves: ``moves`` of them, or for a golf deal as many
    as leave ``GOLDEN_STOCK`` stock cards (at least ``moves``); returns (position, moves made)."""
    pos = seeded_board(rules, seed, index).position()
    made = 0
    while made < moves or (rules.layout.has_stock and len(pos.stock) > GOLDEN_STOCK):
        options = legal_moves(rules, pos)
        if not options:
            break
        pos = apply(rules, pos, options[0])
        made += 1
    return pos, made


class TwinDisagrees(SystemExit):
    """A policy's kernel and its twin play different lines: nothing is re-approved."""


def _twin_agrees(rules, policy, pos, key: int, line) -> None:
    """Refuse to record a line the policy's slow twin does not play (or, for a twin that
    names no line, whose result it does not reach)."""
    twin = twin_of(policy)(rules, pos, policy, key)
    if not twin.agrees(line.moves, line.won, line.strokes):
        said = (f"plays {format_moves(list(twin.moves))}" if twin.moves is not None
                else f"reaches won={twin.won} strokes={twin.strokes}")
        raise TwinDisagrees(f"{rules.id}: {policy.spec} (key {key}) plays {format_moves(line.moves)} "
                            f"but its twin {said}; no golden file written")


def policy_records(rules) -> list[str]:
    from golfstats.board import Board

    out = []
    for index, moves in enumerate(POSITION_MOVES):
        pos, moves = scripted_position(rules, SEED, index, moves)
        board = Board(pos.tableau, pos.stock, pos.top_card)
        for name in REGISTRY:
            policy = cheapest(name)
            line = play_board(rules, policy, board, key=index + 1)
            replay = score_moves(rules, pos, line.moves)
            assert replay.finished and replay.strokes == line.strokes, (rules.id, name, index)
            _twin_agrees(rules, policy, pos, index + 1, line)
            out.append("\n".join([
                f"position: seed {SEED} index {index} moves {moves}",
                format_board(board, rules).rstrip("\n"),
                f"policy: {policy.spec} key {index + 1}",
                f"line: {format_moves(line.moves)}",
                f"strokes: {line.strokes}",
            ]))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("variants", nargs="*", default=list(VARIANTS),
                        help="variant ids to regenerate (default: all of %(default)s)")
    parser.add_argument("--solver", action="store_true", help="only the solver's files")
    parser.add_argument("--policies", action="store_true", help="only the policies' files")
    args = parser.parse_args(argv)
    both = not (args.solver or args.policies)
    files = {}  # every policy file is made (and its twins asked) before any is written
    for name in args.variants if both or args.policies else ():
        rules = parse_variant(name)
        text = POLICY_HEADER.format(positions=len(POSITION_MOVES), variant=rules.id, stock=GOLDEN_STOCK,
                                    version=RULES_VERSION, columns=rules.layout.columns)
        files[HERE / "policies" / f"{rules.id}.txt"] = text + "\n" + "\n\n".join(policy_records(rules)) + "\n"
        print(f"checked the policies of {rules.id} against their twins", flush=True)
    for path, text in files.items():
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)
        print(f"wrote {path.relative_to(HERE.parent.parent)}")
    for name in args.variants if both or args.solver else ():
        rules = parse_variant(name)
        records = [record(rules, SEED, i) for i in range(DEALS)]
        text = HEADER.format(deals=DEALS, variant=rules.id, version=RULES_VERSION,
                             columns=rules.layout.columns)
        path = HERE / f"{rules.id}.txt"
        path.write_text(text + "\n" + "\n\n".join(records) + "\n")
        print(f"wrote {path.relative_to(HERE.parent.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
