"""The roles the rest of the code gives players: each a registered policy's name (or a
list of them), spelled once, here.

A module outside ``golfstats.policies`` that needs a particular player names it by its
role (the architecture test forbids declaring one anywhere else, and checks that each
role names a registered policy).  No imports: the CLI reads these to print help, and
``honest.optimal`` reads its fallback without loading the registry's strategies.
"""

from __future__ import annotations

#: What ``golfstats simulate`` plays when no policy is named: a simple honest player, a
#: stronger one and the clairvoyant optimum.
DEFAULT_POLICIES = ("greedy", "lookahead", "exact")
#: The steady player whose strokes set par (``golfstats par``, ``course``, the study).
PAR_REFERENCE = "lookahead"
#: The perfect golfer: honest play for the fewest expected strokes.  Wherever par is
#: concerned (``golfstats par``, ``course``), ``optimal`` without a goal means this player
#: (docs/rules.md, "Par").
PERFECT_GOLFER = "optimal:goal=strokes"
#: The clairvoyant optimum: the exact solver, which knows the stock order (the study plans
#: its sizes for it; the reports set it apart from the honest players).
CLAIRVOYANT = "exact"
#: Perfect play without peeking, under its default goal: the most wins (docs/honest-play.md).
OPTIMAL = "optimal"
#: The player of a deal whose optimal table is unresolved (``honest.optimal``).
FALLBACK = "greedy"
#: The study's sampling player, run beside the par reference (32 samples, successive halving).
SAMPLING_POLICY = "sampling"
#: The study's ladder of players, weakest first: the honest ones, then the clairvoyant one.
LADDER = ("random", "greedy", "lookahead", SAMPLING_POLICY, OPTIMAL, CLAIRVOYANT)
#: The players of the study's main runs.
STUDY_POLICIES = ("random", "greedy", "lookahead", CLAIRVOYANT)
#: The players of the study's par runs (``study.par_runs``): the par reference, and the
#: casual player beside it, whose par the study prints too and who costs almost nothing.
PAR_RUN_POLICIES = ("greedy", PAR_REFERENCE)
