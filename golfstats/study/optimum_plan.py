"""What is done and left of the study's perfect play without peeking (``study.optimum``),
per rule set, in one core's hours: for ``golfstats study --plan-only`` and the progress
of every sitting.

The optimum values deals in order until its interval meets the rule set's target, so
what is left is an estimate: the deals the target needs (the half-width shrinks as
1/sqrt(n) from the deals valued so far; at least the minimum), times each part's cost
per deal, measured on the deals the ledger holds (else ``plan.OPTIMAL_COST`` and
``plan.STROKES_COST``, the pilots'): the goal-win value with the clairvoyant share, and the
perfect golfer's goal-strokes play-outs on the first ``strokes_max_n`` of those deals.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import polars as pl

from golfstats.study.plan import (
    PARALLEL_EFFICIENCY,
    StudyConfig,
    hidden_stock,
    optimal_cost,
    optimal_deals_needed,
    strokes_cost_of,
    strokes_deals,
)


def no_hidden_stock_line(variant: str) -> str:
    """The one line that says why the optimum of a stockless rule set is not valued."""
    return (f"  optimal on {variant}: every card is dealt face up (no hidden stock), so perfect "
            "play without peeking is the exact solver's line: optimal = exact, nothing to value")


def optimum_progress(config: StudyConfig, ledger: Path, rates: dict[str, float],
                     say: Callable[[str], None]) -> list[float]:
    """Say what the ledger holds and what is left of each optimum part; returns each part's
    estimated wall seconds left on the study's workers.  ``rates``: the exact win rate of
    each rule set's main run so far (the covariate's mean; absent before it has deals)."""
    from golfstats.study.optimum import _prefix, estimate, held

    rate = config.workers * PARALLEL_EFFICIENCY
    left = []
    for variant in config.optimal_variants:
        if not hidden_stock(variant):
            say(no_hidden_stock_line(variant))
            continue
        target = config.optimal_target_for(variant)
        rows, strokes = held(ledger, variant, config.seed, config.optimal_orders)
        n = _prefix(rows)
        rows = rows.filter(pl.col("deal_index") < n)
        half = None
        text = f"{n} deals valued"
        if n >= 3 and variant in rates:
            regression = estimate(rows, rates[variant])[0]
            half = regression.half_width
            text += f" (mean win_p {regression.mean:.3f} +/- {half:.3f})"
        least = config.scaled(config.optimal_min_n, 3)
        need = optimal_deals_needed(n, half, target, least, config.scaled(config.optimal_max_n, 3))
        win_cost = float(rows["seconds"].mean()) if rows.height else optimal_cost(variant)
        wanted = strokes_deals(max(n, need), config.strokes_max_n)
        done = strokes.filter(pl.col("deal_index") < wanted)
        strokes_cost = float(done["seconds"].mean()) if done.height else strokes_cost_of(variant)
        core = max(0, need - n) * win_cost + max(0, wanted - done.height) * strokes_cost
        left.append(core / rate)
        state = "done" if core == 0 else f"~{core / 3600:.2f} one-core hours left"
        say(f"  optimal on {variant} (+/-{100 * target:.1f} points): {text}, {done.height} played "
            f"out for par (goal strokes); about {need} deals in all ({win_cost:.0f} s a deal), "
            f"{wanted} of them for par ({strokes_cost:.0f} s a deal more), {state}")
    return left
