"""The study's plan: which variants and players, and how many deals each gets.

``golfstats study`` (``study.run.run_study``) does, in order:

1. Pilot: ``pilot_n`` deals of every study variant with random, greedy, lookahead and
   exact.  It gives a first estimate p of the exact win rate and the solver's cost per deal.
2. Plan: for each variant the n whose Wilson 95% interval at rate p* has half-width
   ``target_half_width`` or less (``half_width``, 0.10%, for the three plain king rules;
   ``other_half_width``, 0.30%, for every other rule set), where p* is the point of the
   pilot's own 95% interval closest to 1/2 (so an unlucky pilot does not undersize the
   run); at least ``min_n`` (so the honest players' figures are precise too) and at most
   ``max_n``.  If the
   estimated wall time (measured cost per deal, ``workers`` cores) does not fit in
   ``hours_budget``, the most expensive variants are cut to a common time cap
   (water-filling; never below ``min_n``) and the README says which miss the target.
   ``scale`` multiplies all sizes (0.01 for a smoke test).  The plan is kept in
   ``OUT/runs/plan.json`` and reused by a later sitting with the same settings, so a
   study resumed on a slower day runs the same deals (its run directories are named by n).
3. Runs: one ``golfstats simulate`` run per variant into ``OUT/runs/`` (git-ignored),
   plus ``sampling`` (32 samples) on ``sampling_n`` deals of every rule set with a stock
   (same seed, so the same first deals), and perfect play without peeking
   (``study.optimum``) on the same rule sets, to +/- ``optimal_half_width`` on the three
   plain king rules and +/- ``optimal_other_half_width`` on the others.  A run already complete is reused, an
   unfinished one resumed: an interrupted study is restarted by the same command.
   Par runs (``ParPlan``, ``study.par_runs``): where a finished main run holds fewer deals
   than a par stable to one stroke needs and playing that many costs at most
   ``par_run_seconds`` of one core, the cheap players (``PAR_RUN_POLICIES``) alone on
   that many deals of the same seed; record runs (``RecordPlan``) last.
4. Outputs kept in ``OUT``: ``summary.parquet``, ``tables/`` (Markdown, CSV),
   ``charts/`` (PNG, SVG), ``report.html``, ``study.json`` and ``README.md``.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from golfstats.deals import DEFAULT_SEED
from golfstats.policies import is_honest
from golfstats.rules import PLAIN_KING_RULES
from golfstats.runs import VARIANT_ORDER, Run
from golfstats.stats import Z95, wilson

SAMPLING_VARIANTS = PLAIN_KING_RULES
#: The rule sets whose clairvoyant win rate is measured to ``half_width`` (the published
#: Golf-A, Golf-B and Golf-C); the others to ``other_half_width``.
PRECISE_VARIANTS = PLAIN_KING_RULES
#: The rule sets with a record run (Golf-B: the published figure most precise).
RECORD_VARIANTS = ("queens-on-kings",)
#: Honest compiled players: a short pilot's time is mostly loading compiled code, so
#: their measured cost per deal is capped at this (they run at ~0.01-0.5 ms/deal).
HONEST_COST_CAP = 0.002
#: Seconds per deal of perfect play without peeking from the start (p alone and the
#: clairvoyant share of 100 orders), one core: the means over the study's first deals
#: (strict 40, queens-on-kings 50, putt-putt 20; 2026-12-02, the other core busy).  A
#: part with valued deals in the ledger is estimated from their own mean instead.
#: The pilots of 2026-12-07 (deal 0, CPU seconds of goal win's value and play-outs plus
#: the share): strict+empty-start 59.6 + 1.3 (411 million states, 2.9 GB),
#: queens-on-kings+empty-start 72.4 + 1.3 (492 million, 3.5 GB); strict+jokers2 unresolved
#: under 7 GB (1.33 billion states, 9.1 GB): 34 s of first passes measured plus 0.1 us a
#: state (docs/honest-play.md) and its share's 3 s.  The other rule sets not piloted yet.
OPTIMAL_COST = {"strict": 11.2, "queens-on-kings": 23.3, "putt-putt": 72.3,
                "strict+empty-start": 61.0, "queens-on-kings+empty-start": 74.0,
                "strict+jokers2": 170.0}
#: The same for a rule set not measured (the pilot's figures go in OPTIMAL_COST).
OPTIMAL_COST_DEFAULT = 60.0
#: One core's seconds per deal of the perfect golfer's part (a goal-strokes table and its
#: play-outs on the deal's orders), measured by its pilot (benchmarks/pilot_strokes.py,
#: 2026-12-07, one core beside the running study; benchmarks/records/pilot-strokes-
#: 2026-12-07.txt): strict deals 1-6, 74-359 s, 0.17-0.84 billion states, 3.2-12.4 GB;
#: queens-on-kings deals 1-3, 85-483 s, 0.20-1.69 billion states, 3.7-24.2 GB (deal 2
#: refused at 20 GB after its listing); putt-putt deal 0, 625 s, 1.37 billion, 17.3 GB.
STROKES_COST = {"strict": 210.1, "queens-on-kings": 287.0, "putt-putt": 625.0}
#: ... for a rule set without a pilot: its goal-win part's planned cost times the ratio
#: measured on strict (about 19).
STROKES_COST_RATIO = STROKES_COST["strict"] / OPTIMAL_COST["strict"]
SAMPLING_COST = 0.55  # seconds per deal of sampling, one core (measured 0.35-0.82 by rule set)
RUN_OVERHEAD = 10.0  # seconds per run: worker start-up, Parquet, summary
PARALLEL_EFFICIENCY = 0.9


@dataclass(frozen=True)
class StudyConfig:
    out: Path = Path("results")
    seed: int = DEFAULT_SEED
    hours_budget: float = 5.0
    scale: float = 1.0
    workers: int = field(default_factory=lambda: os.cpu_count() or 1)
    half_width: float = 0.001
    other_half_width: float = 0.003
    pilot_n: int = 2000
    min_n: int = 2000
    max_n: int = 2_000_000
    sampling_n: int = 2000
    #: Hours of the budget kept for the honest optimum's part (not planned here).
    honest_hours: float = 1.0
    variants: tuple[str, ...] = VARIANT_ORDER
    sampling_variants: tuple[str, ...] = SAMPLING_VARIANTS
    progress: bool = False
    plan_only: bool = False
    #: Play nothing: write the outputs from what the ledger holds (an unfinished part's
    #: figures rest on its finished chunks and valued deals, and say so).
    play: bool = True
    #: Perfect play without peeking (``study.optimum``): the rule sets, the random stock
    #: orders of each deal's clairvoyant share, the deals valued at least and at most, and
    #: the target half-width of the mean chance of winning (``optimal_target``: on the
    #: three plain king rules, ``optimal_other_target`` on the others).
    optimal_variants: tuple[str, ...] = SAMPLING_VARIANTS
    optimal_orders: int = 100
    optimal_min_n: int = 60  # the bootstrap-t interval is calibrated from 60 (benchmarks/README.md)
    optimal_max_n: int = 1000
    optimal_target: float = 0.010
    optimal_other_target: float = 0.025
    optimal_max_bytes: int = 8_000_000_000  # per deal (per worker): putt-putt deals need 4-11 GB
    #: The perfect golfer's par (goal strokes) rests on the first ``strokes_max_n`` valued
    #: deals: its table lists every reachable state, about ten times goal win's and five to
    #: eighty times its time (``STROKES_COST``), so it is played out on fewer deals and its
    #: par's interval says so.  ``strokes_max_bytes``: a table's budget beside another
    #: worker (strict deals need 3-13 GB); a deal over it is played out again alone.
    #: Neither is scaled by ``scale`` (a scaled-down study plays out all its few deals).
    strokes_max_n: int = 100
    strokes_max_bytes: int = 10_000_000_000
    #: Record runs: the clairvoyant player alone on more deals of these rule sets, for a
    #: +/- ``record_half_width`` interval on their clairvoyant win rate (``RecordPlan``).
    record_variants: tuple[str, ...] = RECORD_VARIANTS
    record_half_width: float = 0.0003
    #: Par runs: the most one core's seconds a rule set's par run may cost (``ParPlan``):
    #: ten minutes, which reaches a par stable to one stroke on the golf rule sets whose
    #: main runs are short, not on the stockless ones (lookahead plays the solver's line).
    par_run_seconds: float = 600.0
    #: Where the runs and valued deals are played (``sim.backends.open_workers``): local,
    #: ``workers`` processes here; dask, the cluster at ``scheduler`` (None: a local dask
    #: cluster of ``workers`` processes).  Neither changes a figure, nor the plan.
    backend: str = "local"
    scheduler: str | None = None

    def scaled(self, n: int, floor: int = 20) -> int:
        return max(floor, round(n * self.scale))

    def target_half_width(self, variant: str) -> float:
        """The half-width the exact win rate of ``variant`` is planned for."""
        return self.half_width if variant in PRECISE_VARIANTS else self.other_half_width

    def optimal_target_for(self, variant: str) -> float:
        """The half-width the optimum's mean chance of winning on ``variant`` is valued to."""
        return self.optimal_target if variant in PRECISE_VARIANTS else self.optimal_other_target

    def plan_key(self) -> dict:
        """The settings that fix the plan's sizes (a kept plan is reused when they match;
        ``ADDITIVE`` ones only add runs to it)."""
        return {"seed": self.seed, "variants": list(self.variants), "half_width": self.half_width,
                "other_half_width": self.other_half_width, "pilot_n": self.pilot_n,
                "min_n": self.min_n, "max_n": self.max_n, "scale": self.scale,
                "hours_budget": self.hours_budget, "honest_hours": self.honest_hours,
                "sampling_n": self.sampling_n, "sampling_variants": list(self.sampling_variants),
                "record_variants": list(self.record_variants),
                "record_half_width": self.record_half_width,
                "optimal_variants": list(self.optimal_variants),
                "optimal_target": self.optimal_target,
                "optimal_other_target": self.optimal_other_target,
                "par_run_seconds": self.par_run_seconds}


#: Settings of the plan key that only add work to a kept plan (its main runs unchanged):
#: a later edition of the study may change them, and its plan is extended, not refused.
#: (The optimum's deals are valued in order until its target is met, so a tighter target
#: or more rule sets only value more deals; the deals valued stay valid.  The par runs'
#: cap only chooses which par runs are played: a lower one leaves a played one's chunks
#: in the ledger, unused.)
ADDITIVE = ("sampling_n", "sampling_variants", "record_variants", "record_half_width",
            "optimal_variants", "optimal_target", "optimal_other_target", "par_run_seconds")


def hidden_stock(variant: str) -> bool:
    """Whether ``variant`` hides a stock: perfect play without peeking (``optimal``) and
    ``sampling`` differ from the clairvoyant solver only there (black-hole and all-in-a-row
    deal every card face up: their optimum is the exact solver's line)."""
    from golfstats.rules import parse_variant

    return parse_variant(variant).layout.has_stock


@dataclass
class VariantPlan:
    variant: str
    pilot_n: int
    pilot_wins: int
    p_plan: float  # the rate the size is planned for (pilot interval point nearest 1/2)
    n_required: int  # for the target half-width at p_plan
    n: int  # what is run
    seconds_per_deal: float  # all study policies on one deal, one core
    est_seconds: float  # wall time on the study's workers
    achieved_half_width: float | None = None


@dataclass(frozen=True)
class RecordPlan:
    """A record run: the clairvoyant player alone continues the main run of ``variant``
    (deals ``base_n .. n-1``) so that its win rate over deals ``0 .. n-1`` has a Wilson
    interval of +/- ``half_width``, planned at ``p_plan``, the point of the main run's own
    interval nearest 1/2 (sized once, from the finished main run, and kept in the plan)."""

    variant: str
    half_width: float
    base_n: int
    base_wins: int
    p_plan: float
    n: int
    seconds_per_deal: float  # the clairvoyant player alone, one core (the main run's mean)

    @staticmethod
    def size(variant: str, config: StudyConfig, base_n: int, base_wins: int,
             seconds_per_deal: float) -> RecordPlan:
        """Sized as every run of the study: the n the half-width needs, times ``scale``."""
        p = planning_rate(base_wins, base_n)
        n = config.scaled(required_n(p, config.record_half_width))
        return RecordPlan(variant, config.record_half_width, base_n, base_wins, p, max(base_n, n),
                          seconds_per_deal)

    @property
    def est_core_seconds(self) -> float:
        return (self.n - self.base_n) * self.seconds_per_deal


@dataclass(frozen=True)
class ParPlan:
    """A rule set's par run, sized once from its finished main run (``base_n`` deals) and
    kept in the plan: ``n``, the deals the par reference's par needs to be stable to one
    stroke (its 95% interval within one stroke for every round size: ``report.par``'s
    ``deals_needed``, times ``scale``), and ``seconds_per_deal``, what the par run's
    players (``PAR_RUN_POLICIES``) cost a deal on one core, as the main run measured them
    on its own deals (the pilot's are its first 2,000, and it does not keep its players'
    times apart).  Kept for every rule set sized, played only where ``planned``."""

    variant: str
    base_n: int
    n: int
    seconds_per_deal: float

    @staticmethod
    def size(variant: str, config: StudyConfig, base_n: int, reference_hist: list[dict],
             seconds_per_deal: float) -> ParPlan:
        """From the main run's stroke histogram of the par reference (one play-out a deal)."""
        from golfstats.policies import PAR_REFERENCE
        from golfstats.report.par import par_from_hist

        par = par_from_hist(variant, PAR_REFERENCE, reference_hist)
        needed = max(r.deals_needed for r in par.rounds.values())
        return ParPlan(variant, base_n, config.scaled(needed), seconds_per_deal)

    @property
    def est_core_seconds(self) -> float:
        """One core's seconds of the par run: every one of its ``n`` deals (it plays the
        main run's deals again, so that it is whole in itself)."""
        return self.n * self.seconds_per_deal

    @property
    def short(self) -> bool:
        """Whether the main run has fewer deals than a stable par needs."""
        return self.base_n < self.n

    def cheap(self, config: StudyConfig) -> bool:
        return self.est_core_seconds <= config.par_run_seconds

    def planned(self, config: StudyConfig) -> bool:
        """Whether the par run is played: the main run is short and the run is cheap."""
        return self.short and self.cheap(config)


def required_n(p: float, half_width: float = 0.005, z: float = Z95) -> int:
    """Smallest n (from the normal formula up) whose Wilson interval at rate p is within
    +/- ``half_width``: n >= z^2 p (1-p) / half_width^2, checked with Wilson."""
    p = min(max(p, 0.0), 1.0)
    n = max(1, math.ceil(z * z * p * (1 - p) / half_width ** 2))
    while True:
        lo, hi = wilson(round(p * n), n, z)
        if (hi - lo) / 2 <= half_width:
            return n
        n = max(n + 1, math.ceil(n * 1.01))


def planning_rate(wins: int, n: int, z: float = Z95) -> float:
    """The point of the pilot's Wilson interval nearest 1/2 (the most demanding plausible p)."""
    lo, hi = wilson(wins, n, z)
    return min(max(0.5, lo), hi)


def plan_sizes(pilots: dict[str, tuple[int, int, float]], config: StudyConfig,
               spent_seconds: float = 0.0) -> list[VariantPlan]:
    """Sizes from pilots {variant: (n, exact wins, seconds per deal)} and the time budget."""
    plans = []
    for variant, (n, wins, cost) in pilots.items():
        p = planning_rate(wins, n)
        need = required_n(p, config.target_half_width(variant))
        need = min(max(need, config.min_n), config.max_n)
        plans.append(VariantPlan(variant, n, wins, p, need, need, cost, 0.0))
    sampling = len(config.sampling_variants) * config.sampling_n * SAMPLING_COST
    rate = config.workers * PARALLEL_EFFICIENCY
    # core-seconds left for the main runs
    available = ((config.hours_budget - config.honest_hours) * 3600 - spent_seconds
                 - RUN_OVERHEAD * (len(plans) + 3)) * rate
    available -= sampling
    cap = _time_cap([p.n * p.seconds_per_deal for p in plans], available)
    if cap is not None:  # over budget: only the variants that cost more than ``cap`` shrink
        for p in plans:
            if p.n * p.seconds_per_deal > cap:
                p.n = max(min(config.min_n, p.n), math.floor(cap / p.seconds_per_deal))
    for p in plans:
        p.n = config.scaled(p.n)
        p.est_seconds = p.n * p.seconds_per_deal / rate + RUN_OVERHEAD
    return plans


def _time_cap(costs: list[float], available: float) -> float | None:
    """Water-filling: the largest T with sum(min(c, T)) <= available (None if all fit)."""
    if sum(costs) <= available:
        return None
    spent = 0.0
    ordered = sorted(costs)
    for k, c in enumerate(ordered):
        left = len(ordered) - k  # variants that will be capped at T
        if spent + c * left > available:
            return max(0.0, (available - spent) / left)
        spent += c
    return None


def optimal_cost(variant: str) -> float:
    """One core's seconds per deal of the optimum's goal-win part on ``variant`` (planned)."""
    return OPTIMAL_COST.get(variant, OPTIMAL_COST_DEFAULT)


def strokes_deals(valued: int, cap: int) -> int:
    """How many of ``valued`` deals (0..valued-1) the perfect golfer is played out on, at
    most ``cap`` (0: every one)."""
    return min(valued, cap) if cap else valued


def strokes_cost_of(variant: str) -> float:
    """One core's seconds per deal of the perfect golfer's part on ``variant`` (planned):
    the pilot's (``STROKES_COST``), else ``STROKES_COST_RATIO`` times goal win's."""
    return STROKES_COST.get(variant, optimal_cost(variant) * STROKES_COST_RATIO)


def optimal_seconds(variant: str, config: StudyConfig) -> float:
    """Wall time of the optimum part of ``variant`` at its minimum number of deals (both
    goals: win for the chance, strokes for par on the first ``strokes_max_n``)."""
    deals = config.scaled(config.optimal_min_n, 3)
    par_deals = strokes_deals(deals, config.strokes_max_n)
    core = deals * optimal_cost(variant) + par_deals * strokes_cost_of(variant)
    return core / config.workers / PARALLEL_EFFICIENCY


def optimal_deals_needed(n: int, half_width: float | None, target: float, min_n: int,
                         max_n: int, batch: int = 10) -> int:
    """The deals the optimum will likely value in all: at least ``min_n``; with ``n``
    valued at ``half_width``, the n at which the half-width (shrinking as 1/sqrt(n)) meets
    ``target``, in whole batches, at most ``max_n``."""
    need = min_n
    if half_width is not None and n >= 3 and half_width > target:
        need = max(need, math.ceil(n * (half_width / target) ** 2))
    elif half_width is not None and n >= min_n:
        need = n
    return min(max_n, batch * math.ceil(need / batch))


def sampling_seconds(config: StudyConfig, per_deal: float = SAMPLING_COST) -> float:
    """Wall time of one sampling run (``sampling_n`` deals at ``per_deal`` one-core seconds)."""
    return config.scaled(config.sampling_n, 10) * per_deal / config.workers / PARALLEL_EFFICIENCY


#: Seconds of one core a chunk of the study takes (about): small enough that a killed
#: sitting loses little, large enough that the ledger keeps few files.
CHUNK_SECONDS = 60.0
#: Chunks start at multiples of this (rounds of 9 and 18 holes never straddle two).
ROUND = 18


def chunk_size(seconds_per_deal: float) -> int:
    """Deals per chunk of a study run costing ``seconds_per_deal`` on one core."""
    return ROUND * max(1, round(CHUNK_SECONDS / (ROUND * max(seconds_per_deal, 1e-9))))


def cost_per_deal(run: Run, has_stock: bool) -> float:
    """Seconds per deal of all the run's policies on one core: the solver's mean time (its
    tail is heavy on black-hole and all-in-a-row, so no trimming) plus the honest players'
    times, capped for golf (see HONEST_COST_CAP).  Without a stock, lookahead and sampling
    play the exact solver's line, as costly as the solver, so there times are taken as is."""
    deals = run.deals(("policy", "seconds"))
    per_policy = deals.group_by("policy").agg(pl.col("seconds").mean())
    total = 0.0
    for policy, seconds in per_policy.iter_rows():
        capped = is_honest(policy) and has_stock
        total += min(seconds, HONEST_COST_CAP) if capped else seconds
    return total
