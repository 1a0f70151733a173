"""The registered policies: one ``PolicyInfo`` each, in display order.

Adding a compiled player touches four files and nothing else:

1. its kernel: a plan function of the play-out's contract (``kernels.players.playout``:
   the visible position in, ``(length, truncated)`` and the plan out) in a module under
   ``golfstats/kernels/players/``;
2. its entry here: ``CompiledPlayer("golfstats.kernels.players.<module>:<function>")``
   (and, if it plays otherwise without a stock, ``stockless=`` that function's name),
   with its parameters, honesty, chunk size, chart style and costs; the play-out makes
   its compiled entries from the name (``playout.entries``): no id, no copied entry;
3. its twin in ``golfstats.reference``, paired with it in ``reference.twins.TWINS``;
4. its golden file, ``python tests/golden/regenerate.py --policies``.

A policy that is not a compiled player is a ``Strategy`` of its own
(``policies.strategies``) instead of step 1.  Nothing in sim/, report/ or cli/ names a
policy: a player needed for a role (the par reference, the clairvoyant optimum, the
fallback...) is named by that role in ``policies.roles``.  ``compile_seconds`` (golf, no
stock) are the CPU seconds ``benchmarks/bench_compile.py`` measured on 2026-12-02
(putt-putt and black-hole; optimal on strict, goal win).
"""

from __future__ import annotations

from golfstats.goals import Goal
from golfstats.policies.spec import Param, PolicyInfo, register
from golfstats.policies.strategies import ClairvoyantSolver, CompiledPlayer, HonestOptimum

_PLAYERS = "golfstats.kernels.players"

register(PolicyInfo(
    "random", "a uniformly random legal move", CompiledPlayer(f"{_PLAYERS}.simple:random_plan"),
    chunk_size=50_000, colour="#8c8c8c", marker="v", compile_seconds=(5, 5)))
register(PolicyInfo(
    "greedy", "play whenever possible (tallest column first), otherwise draw",
    CompiledPlayer(f"{_PLAYERS}.simple:greedy_plan"), chunk_size=50_000, colour="#e6862a",
    marker="s", compile_seconds=(5, 5)))
register(PolicyInfo(
    "lookahead", "best chain now, valued by expectation over the next `depth` draws "
    "(in Black Hole and All in a Row, where nothing is hidden, the exact line)",
    CompiledPlayer(f"{_PLAYERS}.lookahead:lookahead_plan",
                   stockless=f"{_PLAYERS}.sampling:solved_line"),
    params=(Param("depth", 1, "draws looked ahead", lo=1, hi=2),),
    chunk_size=2_000, colour="#1f77b4", marker="o", compile_seconds=(19, 54)))
register(PolicyInfo(
    "sampling", "per chain, solve `samples` stock orders consistent with what it sees; play "
    "the best on average (samples spent by successive halving)",
    CompiledPlayer(f"{_PLAYERS}.sampling:sampling_plan"),
    params=(Param("samples", 32, "stock orders sampled per decision", lo=1, hi=4096),),
    chunk_size=100, colour="#2ca02c", marker="D", seconds_per_deal=0.8, compile_seconds=(81, 81)))
register(PolicyInfo(
    "optimal", "perfect play without peeking: the exact optimum for a player who sees "
    "everything but the stock order (docs/honest-play.md); rows carry the deal's exact win_p "
    "and, but for goal win, its expected_strokes", HonestOptimum(),
    params=(Param("goal", Goal.WIN.value, "win: the largest win probability, ties to the "
                  "fewest cards left (the chance of winning alone: fast); win-strokes: the "
                  "largest win probability, ties to the fewest expected strokes (slow: it "
                  "needs every chance kept); strokes: the fewest expected strokes "
                  "(golfstats.goals.Goal)", choices=tuple(g.value for g in Goal)),),
    chunk_size=2, colour="#17becf", marker="P",
    values=("win_p", "expected_strokes"), seconds_per_deal=30.0, compile_seconds=(32, 33)))
register(PolicyInfo(
    "exact", "the clairvoyant exact solver (knows the stock order)", ClairvoyantSolver(),
    honest=False, chunk_size=250, colour="#7b2d8e", marker="*",
    seconds_per_deal=0.004, compile_seconds=(7, 33)))
