"""The committed study: every rule set x every kind of player, sized for a +/-0.5% interval.

``golfstats study`` (``run_study``) does, in order:

1. Pilot: ``pilot_n`` deals of every study variant with random, greedy, lookahead and
   exact.  It gives a first estimate p of the exact win rate and the solver's cost per deal.
2. Plan: for each variant the n whose Wilson 95% interval at rate p* has half-width
   ``half_width`` (0.5%) or less, where p* is the point of the pilot's own 95% interval
   closest to 1/2 (so an unlucky pilot does not undersize the run); at least ``min_n``
   (so the honest players' figures are precise too) and at most ``max_n``.  If the
   estimated wall time (measured cost per deal, ``workers`` cores) does not fit in
   ``hours_budget``, the most expensive variants are cut to a common time cap
   (water-filling; never below ``min_n``) and the README says which miss the target.
   ``scale`` multiplies all sizes (0.01 for a smoke test).
3. Runs: one ``golfstats simulate`` run per variant into ``OUT/runs/`` (git-ignored),
   plus ``sampling`` (32 samples) on ``sampling_n`` deals of the three plain king rules
   (same seed, so the same first deals).  A run already complete is reused, an
   unfinished one resumed: an interrupted study is restarted by the same command.
4. Outputs kept in ``OUT``: ``summary.parquet``, ``tables/`` (Markdown, CSV),
   ``charts/`` (PNG, SVG), ``report.html``, ``study.json`` and ``README.md``.
"""

from __future__ import annotations

import json
import math
import os
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import polars as pl

from golfstats.report.runs import VARIANT_ORDER, Run, load_run
from golfstats.stats import Z95, wilson

STUDY_POLICIES = ("random", "greedy", "lookahead", "exact")
SAMPLING_POLICY = "sampling"  # the default sampling player (32 samples, successive halving)
SAMPLING_VARIANTS = ("strict", "queens-on-kings", "putt-putt")
#: Honest compiled players: a short pilot's time is mostly loading compiled code, so
#: their measured cost per deal is capped at this (they run at ~0.01-0.5 ms/deal).
HONEST_COST_CAP = 0.002
SAMPLING_COST = 0.55  # seconds per deal of sampling, one core (measured 0.35-0.82 by rule set)
RUN_OVERHEAD = 10.0  # seconds per run: worker start-up, Parquet, summary
PARALLEL_EFFICIENCY = 0.9


class StudyError(RuntimeError):
    """A study that cannot run (no golfstats.sim, a failed run)."""


@dataclass(frozen=True)
class StudyConfig:
    out: Path = Path("results")
    seed: int = 2026
    hours_budget: float = 2.0
    scale: float = 1.0
    workers: int = field(default_factory=lambda: os.cpu_count() or 1)
    half_width: float = 0.005
    pilot_n: int = 400
    min_n: int = 2000
    max_n: int = 50000
    sampling_n: int = 500
    variants: tuple[str, ...] = VARIANT_ORDER
    sampling_variants: tuple[str, ...] = SAMPLING_VARIANTS
    progress: bool = False
    plan_only: bool = False

    def scaled(self, n: int, floor: int = 20) -> int:
        return max(floor, round(n * self.scale))


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
        need = min(max(required_n(p, config.half_width), config.min_n), config.max_n)
        plans.append(VariantPlan(variant, n, wins, p, need, need, cost, 0.0))
    sampling = len(config.sampling_variants) * config.sampling_n * SAMPLING_COST
    rate = config.workers * PARALLEL_EFFICIENCY
    # core-seconds left for the main runs
    available = (config.hours_budget * 3600 - spent_seconds - RUN_OVERHEAD * (len(plans) + 3)) * rate
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


def estimate_seconds(plans: list[VariantPlan], config: StudyConfig) -> float:
    """Estimated wall time of the main and sampling runs."""
    sampling = (len(config.sampling_variants) * config.scaled(config.sampling_n, 10) * SAMPLING_COST
                / (config.workers * PARALLEL_EFFICIENCY))
    return sum(p.est_seconds for p in plans) + sampling


def _cost_per_deal(run: Run, has_stock: bool) -> float:
    """Seconds per deal of all the run's policies on one core: the solver's mean time (its
    tail is heavy on black-hole and all-in-a-row, so no trimming) plus the honest players'
    times, capped for golf (see HONEST_COST_CAP).  Without a stock, lookahead weighs every
    chain of the whole hand, as costly as the solver, so there its time is taken as is."""
    deals = run.deals(("policy", "seconds"))
    per_policy = deals.group_by("policy").agg(pl.col("seconds").mean())
    total = 0.0
    for policy, seconds in per_policy.iter_rows():
        capped = policy != "exact" and (has_stock or policy != "lookahead")
        total += min(seconds, HONEST_COST_CAP) if capped else seconds
    return total


# ------------------------------------------------------------------ running

def _simulate(rules_id: str, policies: tuple[str, ...], n: int, seed: int, out: Path,
              config: StudyConfig) -> Path:
    """Run, resume or reuse the simulate run in ``out``."""
    try:
        from golfstats.sim import SimConfig, run_simulation
    except ImportError as exc:
        raise StudyError(f"the study needs golfstats.sim (`golfstats simulate`): {exc}") from None
    from golfstats.policies import parse_policy
    from golfstats.rules import parse_variant

    if (out / "summary.parquet").is_file():
        return out
    sim = SimConfig(rules=parse_variant(rules_id), policies=tuple(parse_policy(p) for p in policies),
                    n=n, seed=seed, goal="strokes", workers=config.workers, out=out,
                    resume=out.exists())
    try:
        return Path(run_simulation(sim, progress=config.progress,
                                   log_file=config.out / "runs" / "study.log"))
    except Exception as exc:  # SimError and worker failures: one line, the run is kept
        raise StudyError(f"simulate {rules_id} n={n} failed: {exc}") from exc


@dataclass
class StudyResult:
    out: Path
    plans: list[VariantPlan]
    runs: list[Path]
    seconds: float
    files: list[Path] = field(default_factory=list)


def run_study(config: StudyConfig, note: Callable[[str], None] | None = None) -> StudyResult:
    """Run the whole study (see the module doc); ``note`` receives progress lines."""
    from golfstats.rules import parse_variant

    say = note or (lambda _msg: None)
    started = time.perf_counter()
    runs_dir = config.out / "runs"
    runs_dir.mkdir(parents=True, exist_ok=True)
    pilot_n = config.scaled(config.pilot_n)
    pilots: dict[str, tuple[int, int, float]] = {}
    say(f"pilot: {pilot_n} deals of {len(config.variants)} variants with {', '.join(STUDY_POLICIES)}")
    for variant in config.variants:
        run = load_run(_simulate(variant, STUDY_POLICIES, pilot_n, config.seed,
                                 runs_dir / "pilot" / f"{variant}-n{pilot_n}-s{config.seed}", config))
        exact = run.summary.filter(pl.col("policy") == "exact").row(0, named=True)
        has_stock = parse_variant(variant).layout.has_stock
        pilots[variant] = (exact["n"], exact["wins"], _cost_per_deal(run, has_stock))
        say(f"  {variant}: exact won {exact['wins']}/{exact['n']}, "
            f"{1000 * pilots[variant][2]:.1f} ms/deal for the four policies")
    plans = plan_sizes(pilots, config, time.perf_counter() - started)
    say(f"plan: {sum(p.n for p in plans)} deals in all, about "
        f"{estimate_seconds(plans, config) / 60:.0f} min on {config.workers} workers")
    for p in plans:
        say(f"  {p.variant}: n = {p.n} (needs {p.n_required} at p = {p.p_plan:.3f}), "
            f"~{p.est_seconds / 60:.1f} min")
    if config.plan_only:
        return StudyResult(config.out, plans, [], time.perf_counter() - started)

    run_dirs = []
    for p in plans:
        say(f"run {p.variant}, n = {p.n}")
        run_dirs.append(_simulate(p.variant, STUDY_POLICIES, p.n, config.seed,
                                  runs_dir / f"{p.variant}-n{p.n}-s{config.seed}", config))
    sampling_n = config.scaled(config.sampling_n, 10)
    for variant in config.sampling_variants:
        say(f"run {variant} with {SAMPLING_POLICY}, n = {sampling_n}")
        name = f"{variant}-sampling-n{sampling_n}-s{config.seed}"
        run_dirs.append(_simulate(variant, (SAMPLING_POLICY,), sampling_n, config.seed,
                                  runs_dir / name, config))
    say("writing tables, charts, report.html and README.md")
    from golfstats.report.study_output import write_outputs

    result = StudyResult(config.out, plans, run_dirs, 0.0)
    result.files = write_outputs(config, result, [load_run(d) for d in run_dirs], started)
    result.seconds = time.perf_counter() - started
    return result


def study_record(config: StudyConfig, result: StudyResult, seconds: float) -> dict:
    """What ``study.json`` keeps: the command, the configuration, the plan, timings, versions."""
    import numba
    import numpy

    from golfstats.rules import RULES_VERSION

    cfg = {k: (str(v) if isinstance(v, Path) else v) for k, v in asdict(config).items()}
    return {
        "command": " ".join(["golfstats", *sys.argv[1:]]) if sys.argv else "golfstats study",
        "config": cfg, "seed": config.seed, "rules_version": RULES_VERSION,
        "plan": [asdict(p) for p in result.plans],
        "runs": [str(p) for p in result.runs], "seconds": round(seconds, 1),
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(),
                    "python": platform.python_version()},
        "versions": {"golfstats": _version(), "numpy": numpy.__version__, "polars": pl.__version__,
                     "numba": numba.__version__},
    }


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("golfstats")
    except PackageNotFoundError:
        return "unknown"


def write_json(path: Path, data: dict) -> None:
    path.write_text(json.dumps(data, indent=2) + "\n")
