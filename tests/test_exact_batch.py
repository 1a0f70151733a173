"""The exact player's batch (``kernels.players.exact``, one compiled call per chunk) against
its twin, the per-deal path: ``golfstats.solver.solve`` on each deal's board, scored by
``engine.line_score`` (``Line.scored``).  Every played column but ``seconds`` (a time)
must be identical, and so must each recorded line, on every rule set and both goals."""

from __future__ import annotations

import numpy as np
import pytest

from golfstats.deals import board_from_cards, seeded_deals
from golfstats.policies import parse_policy, play_deals
from golfstats.policies.strategies import lines_to_columns
from golfstats.rules import all_rule_sets, parse_variant
from golfstats.runs.schema import PLAYED
from golfstats.solver import solve

EXACT = parse_policy("exact")


def _agree(rules, goal: str, seed: int, n: int) -> None:
    batch = seeded_deals(rules, seed, 0, n)
    together = play_deals(rules, EXACT, batch, goal, record_moves=True)
    alone = lines_to_columns([solve(board_from_cards(rules, cards), rules, goal)
                              for cards in batch.cards], record_moves=True)
    for column in PLAYED:
        if column != "seconds":
            assert np.array_equal(together[column], alone[column]), (rules.id, goal, column)
            assert together[column].dtype == alone[column].dtype, (rules.id, goal, column)
    for d in range(n):
        assert together["move_list"][d].tolist() == alone["move_list"][d].tolist(), (rules.id, d)
    assert together["seconds"].shape == (n,) and (together["seconds"] >= 0).all()


@pytest.mark.parametrize("goal", ["strokes", "win"])
@pytest.mark.parametrize("rules", all_rule_sets(), ids=lambda r: r.id)
def test_the_batch_gives_the_rows_of_each_deal_solved_alone(rules, goal):
    _agree(rules, goal, seed=31, n=6 if rules.layout.has_stock else 3)


@pytest.mark.slow
@pytest.mark.parametrize("goal", ["strokes", "win"])
@pytest.mark.parametrize("variant", ["putt-putt", "strict", "queens-on-kings+jokers2+when-stuck",
                                     "putt-putt+empty-start", "black-hole", "all-in-a-row"])
def test_the_batch_agrees_on_many_deals(variant, goal):
    _agree(parse_variant(variant), goal, seed=5, n=300)


def test_an_empty_batch_gives_empty_columns():
    rules = parse_variant("putt-putt")
    rows = play_deals(rules, EXACT, seeded_deals(rules, 1, 0, 0))
    assert all(len(rows[column]) == 0 for column in PLAYED)
