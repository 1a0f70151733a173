"""Golden files: the solver still finds the recorded optimal strokes on recorded deals.

The files tests/golden/<variant-id>.txt are written by tests/golden/regenerate.py (see
its header for the format and the command).  Each record is checked three ways: the
board is still the seeded deal it names, the fast solver gives the recorded won and
optimal strokes (for both goals), and the recorded line replays legally through the
reference engine to exactly the recorded score.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from golfstats.board import format_board, parse_board
from golfstats.deals import seeded_board
from golfstats.engine import DRAW, score_moves
from golfstats.rules import RULES_VERSION, parse_variant
from golfstats.solver import solve

GOLDEN = Path(__file__).resolve().parent / "golden"
EXPECTED_VARIANTS = {"strict", "queens-on-kings", "putt-putt", "strict+jokers2",
                     "putt-putt+empty-start", "queens-on-kings+dead-queen",
                     "putt-putt+when-stuck", "black-hole", "all-in-a-row"}
FILES = sorted(GOLDEN.glob("*.txt"))


@dataclass
class Record:
    seed: int
    index: int
    board_text: str
    won: bool
    strokes: int
    stock_left: int
    moves: list[int]


def _read(path: Path) -> tuple[str, list[Record]]:
    """(rules version from the header, records)."""
    text = path.read_text()
    version = re.search(r"^# rules version: (\S+)$", text, re.M)
    assert version, f"{path.name}: no rules version in the header"
    records = []
    for block in re.split(r"\n\s*\n", text):
        lines = [ln for ln in block.strip().splitlines() if not ln.startswith("#")]
        if not lines:
            continue
        deal = re.fullmatch(r"deal: seed (\d+) index (\d+)", lines[0])
        assert deal, f"{path.name}: record starts with {lines[0]!r}"
        fields = dict(ln.split(": ", 1) if ": " in ln else (ln.rstrip(":"), "")
                      for ln in lines[-4:])
        assert list(fields) == ["won", "strokes", "stock_left", "solution"], fields
        moves = [DRAW if w == "D" else int(w) - 1 for w in fields["solution"].split()]
        records.append(Record(int(deal[1]), int(deal[2]), "\n".join(lines[1:-4]) + "\n",
                              {"yes": True, "no": False}[fields["won"]], int(fields["strokes"]),
                              int(fields["stock_left"]), moves))
    return version[1], records


def test_every_variant_has_a_golden_file():
    assert {p.stem for p in FILES} == EXPECTED_VARIANTS


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_golden_file(path):
    rules = parse_variant(path.stem)
    assert rules.id == path.stem
    version, records = _read(path)
    assert version == RULES_VERSION, "rules changed meaning: regenerate the golden files"
    assert len(records) >= 3
    for rec in records:
        where = f"{path.name} seed {rec.seed} index {rec.index}"
        board = parse_board(rec.board_text, rules)
        assert format_board(seeded_board(rules, rec.seed, rec.index), rules) == rec.board_text, \
            f"{where}: the seeded deal changed"
        # the recorded line: legal, finished, and scoring what is recorded
        out = score_moves(rules, board.position(), rec.moves)
        assert out.finished, where
        assert (out.won, out.strokes) == (rec.won, rec.strokes), where
        assert rec.stock_left == (-rec.strokes if rec.won else 0), where
        # the solver still finds that optimum (any optimal line will do)
        best = solve(board, rules)
        assert (best.won, best.strokes, best.stock_left) == (rec.won, rec.strokes, rec.stock_left), where
        assert solve(board, rules, goal="win").won == rec.won, where


POLICY_FILES = sorted((GOLDEN / "policies").glob("*.txt"))


def test_every_variant_has_a_policy_golden_file():
    assert {p.stem for p in POLICY_FILES} == EXPECTED_VARIANTS


@pytest.mark.parametrize("path", POLICY_FILES, ids=lambda p: p.stem)
def test_policy_golden_file(path):
    """Every registered policy plays, from each recorded position, exactly the recorded line;
    and every registered policy has a record (a new policy needs its golden lines)."""
    from golfstats.policies import REGISTRY, parse_policy, play_board

    rules = parse_variant(path.stem)
    text = path.read_text()
    version = re.search(r"^# rules version: (\S+)$", text, re.M)
    assert version and version[1] == RULES_VERSION, "rules changed meaning: regenerate"
    seen = set()
    for block in re.split(r"\n\s*\n", text):
        lines = [ln for ln in block.strip().splitlines() if not ln.startswith("#")]
        if not lines:
            continue
        assert lines[0].startswith("position: "), lines[0]
        policy_line = re.fullmatch(r"policy: (\S+) key (\d+)", lines[-3])
        assert policy_line and lines[-2].startswith("line:") and lines[-1].startswith("strokes:")
        board = parse_board("\n".join(lines[1:-3]) + "\n", rules)
        policy = parse_policy(policy_line[1])
        seen.add(policy.name)
        moves = tuple(DRAW if w == "D" else int(w) - 1 for w in lines[-2].split()[1:])
        played = play_board(rules, policy, board, key=int(policy_line[2]))
        where = f"{path.name}: {lines[0]} {policy.spec}"
        assert played.moves == moves, where
        assert played.strokes == int(lines[-1].split()[1]), where
    assert seen == set(REGISTRY)
