"""Adding a compiled player touches its kernel, its registry entry, its twin and its
golden only (``policies.registry``): a player registered from this module, its plan
function here too, plays through the play-out's entries made from its name, with
nothing in ``kernels/players/playout.py`` or ``kernels/constants.py`` naming it, and
agrees with its plain twin move for move."""

from __future__ import annotations

from pathlib import Path

import numba as nb
import pytest

from golfstats.deals import seeded_board, seeded_deals
from golfstats.engine import DRAW, legal_moves
from golfstats.kernels.players import playout
from golfstats.policies import REGISTRY, Policy, PolicyInfo, plan, play_deals
from golfstats.policies.strategies import CompiledPlayer
from golfstats.reference.policies import View, play_out
from golfstats.rules import parse_variant

KERNELS = Path(playout.__file__).resolve().parent.parent


@nb.njit(nogil=True)
def leftmost_plan(params, kt, exposed, heights, top, n_left, unseen, rng, kv, kb, plan):
    """The kernel: play the leftmost playable column, else draw."""
    for c in range(heights.shape[0]):
        h = heights[c]
        if h > 0 and kt.play_next[top, exposed[c, h]] >= 0:
            plan[0] = c
            return 1, False
    if n_left > 0:
        plan[0] = DRAW
        return 1, False
    return 0, False


def leftmost_twin(rules, view: View, rng) -> list[int]:
    """The twin, on the reference engine."""
    moves = legal_moves(rules, view.position())
    plays = [m for m in moves if m != DRAW]
    return [min(plays)] if plays else moves[:1]


@pytest.fixture
def leftmost():
    """The registry entry, for this test only."""
    info = PolicyInfo("leftmost", "the leftmost playable column, else draw",
                      CompiledPlayer(f"{__name__}:leftmost_plan"), chunk_size=1000)
    REGISTRY[info.name] = info
    yield Policy(info.name)
    del REGISTRY[info.name]


@pytest.mark.parametrize("variant", ["strict", "putt-putt+jokers2", "queens-on-kings+when-stuck",
                                     "black-hole"])
def test_a_player_registered_elsewhere_plays_like_its_twin(leftmost, variant):
    rules = parse_variant(variant)
    batch = seeded_deals(rules, 5, 0, 4)
    rows = play_deals(rules, leftmost, batch, record_moves=True)
    for index in range(4):
        start = seeded_board(rules, 5, index).position()
        slow = play_out(rules, start, leftmost_twin)
        assert tuple(rows["move_list"][index]) == slow.moves, f"deal {index}"
        assert (rows["won"][index], rows["strokes"][index], rows["points"][index]) == (
            slow.won, slow.strokes, slow.points)
        assert plan(rules, leftmost, seeded_board(rules, 5, index)) == leftmost_twin(
            rules, View.of(start), None)


def test_the_play_out_names_no_player():
    """The kernels list no players: no id, no copied entry (a player is its plan function's
    name in its registry entry)."""
    for path in (KERNELS / "players" / "playout.py", KERNELS / "constants.py"):
        text = path.read_text()
        for name in ("random", "greedy", "lookahead", "sampling", "leftmost"):
            assert f"{name}_plan" not in text and name.upper() not in text, (path.name, name)


def test_unknown_plan_function_is_refused():
    for bad in ("golfstats.kernels.players.simple:nothing", "no.such.module:plan", "greedy"):
        with pytest.raises(ValueError, match="plan function"):
            playout.entries(bad)
