"""Invariants over every rule set x every registered policy (in the spirit of pgx's api_test).

Each registered policy plays, at its cheapest parameters (every integer parameter at its
lower limit), mid-game positions of every rule set and a couple of whole seeded deals:

* every hand is a legal, finished hand through the reference engine, with the scores the
  policy reports (strokes, points, draws, longest chain);
* strokes lie between minus the stock and the cards in the tableau;
* no policy beats the clairvoyant optimum on the same position;
* a batch of seeded deals played together gives what each deal played alone gives (the
  policies whose ``seconds_per_deal`` is over a second only in the slow run);
* honest policies never see the order of the stock: shuffling it changes no decision.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import mid_game_positions

from golfstats.board import Board
from golfstats.deals import board_from_cards, seeded_deals
from golfstats.engine import score_moves
from golfstats.policies import REGISTRY, Policy, plan, play_board, play_deals
from golfstats.rules import all_rule_sets, parse_variant
from golfstats.solver import solve


def _cheapest(info) -> Policy:
    values = tuple(p.default if p.choices else p.lo for p in info.params)
    return Policy(info.name, values)


POLICIES = [_cheapest(info) for info in REGISTRY.values()]
#: Policies quick enough to play whole seeded deals in CI; the others (the honest optimum
#: takes seconds to minutes per deal) play them in the slow run.
QUICK = [p for p in POLICIES if p.info.seconds_per_deal <= 1.0]
HEAVY = [p for p in POLICIES if p.info.seconds_per_deal > 1.0]


@pytest.mark.parametrize("rules", all_rule_sets(), ids=lambda r: r.id)
def test_every_policy_plays_legal_hands_never_beating_the_clairvoyant(rules):
    positions = mid_game_positions(rules, count=3, seed=5)
    for board in positions:
        best = solve(board, rules).strokes
        cards = sum(map(len, board.tableau))
        for policy in POLICIES:
            line = play_board(rules, policy, board, key=3)
            replay = score_moves(rules, board.position(), line.moves)  # raises on illegal moves
            where = f"{policy.spec} on {rules.id}"
            assert replay.finished, where
            assert (replay.won, replay.strokes, replay.points, replay.draws, replay.longest_chain) \
                == (line.won, line.strokes, line.points, line.draws, line.longest_chain), where
            assert -len(board.stock) <= line.strokes <= cards, where
            assert line.strokes >= best, where


def _batch_plays_like_each_deal_alone(rules, policies):
    batch = seeded_deals(rules, 77, 0, 2)
    for policy in policies:
        together = play_deals(rules, policy, batch, record_moves=True)
        for d, (cards, key) in enumerate(zip(batch.cards, batch.keys, strict=True)):
            alone = play_board(rules, policy, board_from_cards(rules, cards), key=int(key))
            assert tuple(together["move_list"][d].tolist()) == alone.moves, policy.spec
            assert (together["won"][d], together["strokes"][d], together["points"][d]) == \
                (alone.won, alone.strokes, alone.points)


@pytest.mark.parametrize("rules", all_rule_sets(), ids=lambda r: r.id)
def test_a_batch_plays_like_each_deal_alone(rules):
    _batch_plays_like_each_deal_alone(rules, QUICK)


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["strict", "black-hole"])
def test_a_batch_plays_like_each_deal_alone_heavy_policies(variant):
    """Whole deals of the honest optimum take seconds to minutes each: two rule sets."""
    _batch_plays_like_each_deal_alone(parse_variant(variant), HEAVY)


@pytest.mark.parametrize("rules", [r for r in all_rule_sets() if r.layout.has_stock][::4],
                         ids=lambda r: r.id)
def test_honest_policies_never_see_the_stock_order(rules):
    rng = np.random.default_rng(17)
    for board in mid_game_positions(rules, count=4, seed=9):
        if len(board.stock) < 2:
            continue
        for policy in (p for p in POLICIES if p.honest):
            decided = plan(rules, policy, board, key=5)
            for _ in range(2):
                stock = tuple(rng.permutation(np.array(board.stock)).tolist())
                assert plan(rules, policy, Board(board.tableau, stock, board.foundation), key=5) \
                    == decided, policy.spec
