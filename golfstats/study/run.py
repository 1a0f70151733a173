"""Running the study: the pilot, the planned runs (reused, resumed or made by
``golfstats.sim.run_or_reuse``), then the outputs (``study.outputs``)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import polars as pl

from golfstats.runs import load_run
from golfstats.study.plan import (
    CLAIRVOYANT,
    SAMPLING_POLICY,
    STUDY_POLICIES,
    StudyConfig,
    VariantPlan,
    cost_per_deal,
    estimate_seconds,
    optimal_seconds,
    plan_sizes,
    sampling_seconds,
)


def _optimum(config: StudyConfig, plans: list[VariantPlan], runs_dir: Path,
             say: Callable[[str], None], parts: _Parts) -> list:
    """Perfect play without peeking on the plain king rules (``study.optimum``), its
    covariate's mean the exact win rate of the rule set's main run."""
    from golfstats.study.optimum import OptimumPlan, run_optimum

    results = []
    sizes = {p.variant: p.n for p in plans}
    for variant in config.optimal_variants:
        if variant not in sizes:
            continue
        main = load_run(runs_dir / f"{variant}-n{sizes[variant]}-s{config.seed}")
        exact = main.summary.filter(pl.col("policy") == CLAIRVOYANT).row(0, named=True)
        plan = OptimumPlan(variant, config.seed, exact["win_rate"], config.optimal_orders,
                           config.scaled(config.optimal_min_n, 3), config.scaled(config.optimal_max_n, 3),
                           config.optimal_target, workers=config.workers,
                           max_bytes=config.optimal_max_bytes)
        parts.begin(f"optimal (perfect play without peeking) on {variant}: at least {plan.min_n} deals")
        results.append(run_optimum(plan, runs_dir, say))
    return results


class _Parts:
    """The study's one progress line per part: "[k/N] part; about M min left in all".
    What is left is the plan's estimate of the parts not finished, scaled by how the
    parts run in this sitting compared with their estimates (a reused part, done in
    seconds, does not count)."""

    def __init__(self, estimates: list[float], say: Callable[[str], None]) -> None:
        self._estimates, self._say = estimates, say
        self._k, self._spent, self._planned = 0, 0.0, 0.0
        self._began: float | None = None

    def begin(self, text: str) -> None:
        self._finish()
        left = sum(self._estimates[self._k:])
        if self._planned > 0:
            left *= self._spent / self._planned
        self._k += 1
        self._say(f"[{self._k}/{len(self._estimates)}] {text}; about {left / 60:.0f} min left in all")
        self._began = time.perf_counter()

    def _finish(self) -> None:
        if self._began is None:
            return
        took, planned = time.perf_counter() - self._began, self._estimates[self._k - 1]
        if took > 0.05 * planned:  # played here, not reused
            self._spent += took
            self._planned += planned
        self._began = None


class StudyError(RuntimeError):
    """A study that cannot run (a failed run)."""


#: The plan of a study, kept beside its runs so that every sitting runs the same sizes.
PLAN_FILE = "plan.json"


def _kept_plan(config: StudyConfig, path: Path) -> list[VariantPlan] | None:
    """The plan an earlier sitting made with the same settings, or None."""
    try:
        kept = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if kept.get("key") != config.plan_key():
        return None
    return [VariantPlan(**p) for p in kept["plans"]]


def _simulate(rules_id: str, policies: tuple[str, ...], n: int, seed: int, out: Path,
              config: StudyConfig) -> Path:
    """Run, resume or reuse the simulate run in ``out``."""
    from golfstats.policies import policies_from_names
    from golfstats.rules import parse_variant
    from golfstats.sim import SimConfig, run_or_reuse

    sim = SimConfig(rules=parse_variant(rules_id), policies=policies_from_names(policies),
                    n=n, seed=seed, goal="strokes", workers=config.workers, out=out)
    try:
        return Path(run_or_reuse(sim, progress=config.progress,
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
    optimum: list = field(default_factory=list)  # study.optimum.OptimumResult per rule set


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
        exact = run.summary.filter(pl.col("policy") == CLAIRVOYANT).row(0, named=True)
        has_stock = parse_variant(variant).layout.has_stock
        pilots[variant] = (exact["n"], exact["wins"], cost_per_deal(run, has_stock))
        say(f"  {variant}: exact won {exact['wins']}/{exact['n']}, "
            f"{1000 * pilots[variant][2]:.1f} ms/deal for the four policies")
    plans = _kept_plan(config, runs_dir / PLAN_FILE)
    if plans is None:
        plans = plan_sizes(pilots, config, time.perf_counter() - started)
        (runs_dir / PLAN_FILE).write_text(json.dumps(
            {"key": config.plan_key(), "plans": [asdict(p) for p in plans]}, indent=2) + "\n")
    else:
        say(f"plan: kept from {runs_dir / PLAN_FILE} (made by an earlier sitting)")
    say(f"plan: {sum(p.n for p in plans)} deals in all, about "
        f"{estimate_seconds(plans, config) / 60:.0f} min on {config.workers} workers")
    for p in plans:
        say(f"  {p.variant}: n = {p.n} (needs {p.n_required} at p = {p.p_plan:.3f}), "
            f"~{p.est_seconds / 60:.1f} min")
    for variant in config.optimal_variants:
        say(f"  optimal on {variant}: at least {config.scaled(config.optimal_min_n, 3)} deals "
            f"valued exactly, ~{optimal_seconds(variant, config) / 60:.0f} min (more if the "
            f"interval needs them, at most {config.scaled(config.optimal_max_n, 3)})")
    if config.plan_only:
        return StudyResult(config.out, plans, [], time.perf_counter() - started)

    sampling_n = config.scaled(config.sampling_n, 10)
    parts = _Parts([p.est_seconds for p in plans]
                   + [sampling_seconds(config) for _ in config.sampling_variants]
                   + [optimal_seconds(v, config) for v in config.optimal_variants], say)
    run_dirs = []
    for p in plans:
        parts.begin(f"run {p.variant}, n = {p.n}")
        run_dirs.append(_simulate(p.variant, STUDY_POLICIES, p.n, config.seed,
                                  runs_dir / f"{p.variant}-n{p.n}-s{config.seed}", config))
    for variant in config.sampling_variants:
        parts.begin(f"run {variant} with {SAMPLING_POLICY}, n = {sampling_n}")
        name = f"{variant}-sampling-n{sampling_n}-s{config.seed}"
        run_dirs.append(_simulate(variant, (SAMPLING_POLICY,), sampling_n, config.seed,
                                  runs_dir / name, config))
    result = StudyResult(config.out, plans, run_dirs, 0.0)
    result.optimum = _optimum(config, plans, runs_dir, say, parts)
    say("writing tables, charts, report.html and README.md")
    from golfstats.study.outputs import write_outputs

    result.files = write_outputs(config, result, [load_run(d) for d in run_dirs], started)
    result.seconds = time.perf_counter() - started
    return result
