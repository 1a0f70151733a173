"""Playing policies by name: ``random``, ``greedy``, ``lookahead``, ``sampling``, ``exact``.

Parameters go in the name: ``lookahead:depth=2``, ``sampling:samples=32``.  Every
registered policy is one ``PolicyInfo`` (``policies.registry``) holding all there is
to know about it: parameters, honesty, how it plays (its strategy), chunk size, chart
style and its slow twin.  Every policy but ``exact`` decides only from what a player
sees (tableau, top, the number of stock cards left and the multiset of their ranks,
never their order); ``exact`` is the clairvoyant solver used as a player.

``play_deals`` plays a batch of seeded deals (compiled, for simulations);
``play_board`` plays one board and ``plan`` gives the decision in one position
(for the CLI and for tests).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from golfstats.goals import Goal
from golfstats.policies import registry  # noqa: F401  (importing it registers the policies)
from golfstats.policies.roles import (
    CLAIRVOYANT,
    DEFAULT_POLICIES,
    FALLBACK,
    LADDER,
    OPTIMAL,
    PAR_REFERENCE,
    PAR_RUN_POLICIES,
    PERFECT_GOLFER,
    SAMPLING_POLICY,
    STUDY_POLICIES,
)
from golfstats.policies.spec import (
    REGISTRY,
    Param,
    Policy,
    PolicyError,
    PolicyInfo,
    is_honest,
    parse_policy,
    policy_order,
    style,
)

if TYPE_CHECKING:
    from golfstats.board import Board
    from golfstats.deals import DealBatch
    from golfstats.engine import Line
    from golfstats.rules import Rules

__all__ = ["CLAIRVOYANT", "DEFAULT_POLICIES", "FALLBACK", "LADDER", "OPTIMAL", "PAR_REFERENCE",
           "PAR_RUN_POLICIES", "PERFECT_GOLFER", "REGISTRY", "SAMPLING_POLICY", "STUDY_POLICIES",
           "Param", "Policy", "PolicyError", "PolicyInfo", "is_honest", "parse_policy", "plan",
           "play_board", "play_deals", "policies_from_names", "policy_order", "style"]


def policies_from_names(names) -> tuple[Policy, ...]:
    """Policies from names such as ``greedy`` or ``lookahead:depth=2`` (``PolicyError``)."""
    return tuple(parse_policy(name) for name in names)


def play_deals(rules: Rules, policy: Policy, batch: DealBatch, goal: Goal = Goal.STROKES,
               record_moves: bool = False) -> dict:
    """Play every deal of ``batch``: one array per played column (``runs.schema.PLAYED``) and per value
    column the policy declares (and ``move_list``, a list of int arrays, with
    ``record_moves``).  ``states`` counts a solver's positions (0 for honest players)."""
    return policy.info.strategy.play_deals(policy, rules, batch, goal, record_moves)


def play_board(rules: Rules, policy: Policy, board: Board, key: int = 0,
               goal: Goal = Goal.STROKES) -> Line:
    """Play ``board`` (a deal or a mid-game position) to the end of the hand."""
    return policy.info.strategy.play_board(policy, rules, board, key, goal)


def plan(rules: Rules, policy: Policy, board: Board, key: int = 0,
         goal: Goal = Goal.STROKES) -> list[int]:
    """What ``policy`` decides to do now in ``board``: a chain of plays, maybe then a draw.
    Honest policies are given only the visible position; the stock order is not passed."""
    return policy.info.strategy.plan(policy, rules, board, key, goal)
