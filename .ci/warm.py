"""Compile (or load) the numba kernels into the checkout's cache before the tests run.

    python .ci/warm.py honest     # the honest expectimax (golfstats.honest)
    python .ci/warm.py players    # the solvers, the stockless search and every quick player
                                  # (each compiled player's batch, hand and plan entries)

CI runs the two parts at once, one per core, so each kernel is compiled once; without
this, each pytest worker would compile nearly every kernel itself when its first test
needs it.  Nothing here is checked: the tests check the kernels.
"""

from __future__ import annotations

import sys
import time

from golfstats.board import Board
from golfstats.deals import seeded_board, seeded_deals
from golfstats.engine import apply, legal_moves
from golfstats.rules import parse_variant

GOLF = ("strict", "strict+when-stuck", "queens-on-kings+jokers1+empty-start+dead-queen",
        "putt-putt+jokers2")
STOCKLESS = ("black-hole", "all-in-a-row")


def late_position(rules, index: int) -> Board:
    """A seeded deal played by a fixed rule (first play, else draw) until it is small."""
    pos = seeded_board(rules, 1, index).position()
    while legal_moves(rules, pos) and (len(pos.stock) > 4 or pos.cards_left() > 12):
        pos = apply(rules, pos, legal_moves(rules, pos)[0])
    return Board(pos.tableau, pos.stock, pos.top_card)


def honest() -> None:
    from golfstats.goals import Goal
    from golfstats.honest import odds, play_optimal, play_orders

    for variant in GOLF:
        rules = parse_variant(variant)
        board = late_position(rules, 0)
        for goal in Goal:  # each goal's value (with its moves' values) and its play-out
            odds(board, rules, goal)
            play_optimal(rules, [board], goal)
        # one table played on other orders of the stock (the study, review)
        play_orders(board, rules, [board.stock, board.stock[::-1]], Goal.WIN_STROKES)


def players() -> None:
    from golfstats.policies import REGISTRY, Policy, plan, play_board, play_deals
    from golfstats.solver import solve

    for variant in GOLF + STOCKLESS:
        rules = parse_variant(variant)
        batch = seeded_deals(rules, 1, 0, 2)
        board = seeded_board(rules, 1, 0)
        for goal in ("win", "strokes"):
            solve(board, rules, goal)
        for info in REGISTRY.values():
            if info.seconds_per_deal > 1.0:
                continue
            # compiled code depends on types, not values: the cheapest parameters will do
            values = tuple(p.default if p.choices else p.lo for p in info.params)
            policy = Policy(info.name, values)
            play_deals(rules, policy, batch)  # each compiled player has three entries
            play_board(rules, policy, board)
            plan(rules, policy, board)


if __name__ == "__main__":
    part = sys.argv[1] if len(sys.argv) > 1 else ""
    if part not in ("honest", "players"):
        sys.exit("usage: python .ci/warm.py honest|players")
    started = time.perf_counter()
    {"honest": honest, "players": players}[part]()
    print(f"warm {part}: {time.perf_counter() - started:.0f} s")
