"""Running the study: the plan (kept in the ledger, else made from a pilot), the planned
runs' missing chunks (``study.ledger``), the optimum's missing deals, then the outputs
(``study.outputs``), all from the ledger."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import polars as pl

from golfstats.runs import load_run
from golfstats.study.ledger import (
    LEDGER,
    PLAN_FILE,
    PlannedRun,
    RunTallies,
    play_run,
    read_json,
    run_tallies,
    write_json,
)
from golfstats.study.plan import (
    CLAIRVOYANT,
    HONEST_COST_CAP,
    REFERENCE,
    SAMPLING_COST,
    SAMPLING_POLICY,
    STUDY_POLICIES,
    StudyConfig,
    VariantPlan,
    chunk_size,
    cost_per_deal,
    optimal_seconds,
    plan_sizes,
    sampling_seconds,
)


def _optimum(config: StudyConfig, plans: list[VariantPlan], tallies: list[RunTallies],
             say: Callable[[str], None], parts: _Parts) -> list:
    """Perfect play without peeking on the plain king rules (``study.optimum``), its
    covariate's mean the exact win rate of the rule set's main run."""
    from golfstats.study.optimum import OptimumPlan, alone_bytes, run_optimum

    results = []
    main = {t.run.variant: t for t in tallies if t.run.policies == STUDY_POLICIES}
    for variant in config.optimal_variants:
        if variant not in main:
            continue
        summary = main[variant].as_run(config.out / LEDGER).summary
        exact = summary.filter(pl.col("policy") == CLAIRVOYANT).row(0, named=True)
        plan = OptimumPlan(variant, config.seed, exact["win_rate"], config.optimal_orders,
                           config.scaled(config.optimal_min_n, 3), config.scaled(config.optimal_max_n, 3),
                           config.optimal_target, workers=config.workers,
                           max_bytes=config.optimal_max_bytes, alone_bytes=alone_bytes())
        parts.begin(f"optimal (perfect play without peeking) on {variant}: at least {plan.min_n} deals")
        results.append(run_optimum(plan, config.out / LEDGER, say))
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
        if planned > 1.0 and took > 0.05 * planned:  # played here, not reused
            self._spent += took
            self._planned += planned
        self._began = None


class StudyError(RuntimeError):
    """A study that cannot run (a failed run)."""


# settings that only size a new plan: a kept plan keeps the budget it was sized for
_BUDGET_SETTINGS = ("hours_budget", "honest_hours")


def _kept_plan(config: StudyConfig, ledger: Path
               ) -> tuple[StudyConfig, list[VariantPlan], list[PlannedRun]] | None:
    """The plan an earlier sitting made (``ledger/plan.json``), with ``config`` carrying the
    budget it was sized for, or None when the ledger has no plan.  A plan made with other
    deal-fixing settings (seed, variants, targets, scale) is an error, never overwritten."""
    kept = read_json(ledger / PLAN_FILE)
    if not kept:
        return None
    made, wanted = kept.get("key", {}), config.plan_key()
    differ = [k for k in wanted if k not in _BUDGET_SETTINGS and made.get(k) != wanted[k]]
    if differ:
        settings = ", ".join(f"{k} {made.get(k)!r} (asked: {wanted[k]!r})" for k in differ)
        raise StudyError(f"{ledger / PLAN_FILE} holds a plan made with other settings: {settings}; "
                         "run with the plan's settings, or give another --out")
    config = replace(config, **{k: made[k] for k in _BUDGET_SETTINGS if k in made})
    return (config, [VariantPlan(**p) for p in kept["plans"]],
            [PlannedRun(**{**r, "policies": tuple(r["policies"])}) for r in kept["runs"]])


def _pilot_run(rules_id: str, n: int, config: StudyConfig) -> Path:
    """Run, resume or reuse a pilot's simulate run (kept in the ignored ``OUT/runs/pilot``)."""
    from golfstats.policies import policies_from_names
    from golfstats.rules import parse_variant
    from golfstats.sim import SimConfig, run_or_reuse

    out = config.out / "runs" / "pilot" / f"{rules_id}-n{n}-s{config.seed}"
    sim = SimConfig(rules=parse_variant(rules_id), policies=policies_from_names(STUDY_POLICIES),
                    n=n, seed=config.seed, goal="strokes", workers=config.workers, out=out)
    try:
        return Path(run_or_reuse(sim, progress=config.progress,
                                 log_file=config.out / "runs" / "study.log"))
    except Exception as exc:  # SimError and worker failures: one line, the run is kept
        raise StudyError(f"pilot of {rules_id} n={n} failed: {exc}") from exc


def _make_plan(config: StudyConfig, say: Callable[[str], None]
               ) -> tuple[list[VariantPlan], list[PlannedRun]]:
    """The pilot, then the plan (written to the ledger, so every later sitting runs it)."""
    from golfstats.rules import parse_variant

    started = time.perf_counter()
    pilot_n = config.scaled(config.pilot_n)
    pilots: dict[str, tuple[int, int, float]] = {}
    say(f"pilot: {pilot_n} deals of {len(config.variants)} variants with {', '.join(STUDY_POLICIES)}")
    for variant in config.variants:
        run = load_run(_pilot_run(variant, pilot_n, config))
        exact = run.summary.filter(pl.col("policy") == CLAIRVOYANT).row(0, named=True)
        has_stock = parse_variant(variant).layout.has_stock
        pilots[variant] = (exact["n"], exact["wins"], cost_per_deal(run, has_stock))
        say(f"  {variant}: exact won {exact['wins']}/{exact['n']}, "
            f"{1000 * pilots[variant][2]:.1f} ms/deal for the four policies")
    plans = plan_sizes(pilots, config, time.perf_counter() - started)
    runs = planned_runs(config, plans)
    write_json(config.out / LEDGER / PLAN_FILE, {
        "key": config.plan_key(), "plans": [asdict(p) for p in plans], "runs": [asdict(r) for r in runs]})
    return plans, runs


def planned_runs(config: StudyConfig, plans: list[VariantPlan]) -> list[PlannedRun]:
    """The main run of every variant, then the sampling runs (sampling beside the reference
    player, so that their comparison is paired within one run)."""
    runs = [PlannedRun(f"{p.variant}-n{p.n}-s{config.seed}", p.variant, STUDY_POLICIES, p.n,
                       config.seed, chunk_size(p.seconds_per_deal)) for p in plans]
    n = config.scaled(config.sampling_n, 10)
    runs += [PlannedRun(f"{v}-sampling-n{n}-s{config.seed}", v, (SAMPLING_POLICY, REFERENCE), n,
                        config.seed, chunk_size(SAMPLING_COST + HONEST_COST_CAP))
             for v in config.sampling_variants]
    return runs


@dataclass
class StudyResult:
    out: Path
    plans: list[VariantPlan]
    tallies: list[RunTallies]
    seconds: float
    files: list[Path] = field(default_factory=list)
    optimum: list = field(default_factory=list)  # study.optimum.OptimumResult per rule set


def _progress_lines(config: StudyConfig, plans: list[VariantPlan], runs: list[PlannedRun],
                    say: Callable[[str], None]) -> list[float]:
    """Say what the ledger holds and what is left of each part; returns the parts' estimated
    seconds left (runs, then the optimum)."""
    ledger = config.out / LEDGER
    estimates = {p.variant: p.est_seconds for p in plans}
    left = []
    say(f"plan: {sum(r.n for r in runs)} deals in {len(runs)} runs; the ledger {ledger} holds:")
    for run in runs:
        t = run_tallies(ledger, run)
        whole = estimates.get(run.variant) if run.policies == STUDY_POLICIES else sampling_seconds(config)
        part_left = whole * (1 - t.deals_done / run.n)
        left.append(part_left)
        state = "done" if t.complete else f"~{part_left / 60:.1f} min left"
        say(f"  {run.name}: {t.deals_done:,} of {run.n:,} deals ({t.chunks_done}/{t.chunks} chunks), {state}")
    for variant in config.optimal_variants:
        from golfstats.study.optimum import valued_count

        valued = valued_count(ledger, variant, config.seed, config.optimal_orders)
        least = config.scaled(config.optimal_min_n, 3)
        per_deal = optimal_seconds(variant, config) / least
        part_left = max(0, least - valued) * per_deal
        left.append(part_left)
        say(f"  optimal on {variant}: {valued} deals valued, at least {least} (more if the interval "
            f"needs them, at most {config.scaled(config.optimal_max_n, 3)}), ~{part_left / 60:.0f} min left")
    say(f"about {sum(left) / 60:.0f} min left in all on {config.workers} workers")
    return left


def run_study(config: StudyConfig, note: Callable[[str], None] | None = None) -> StudyResult:
    """Run the whole study (see the module doc); ``note`` receives progress lines."""
    say = note or (lambda _msg: None)
    started = time.perf_counter()
    ledger = config.out / LEDGER
    (config.out / "runs").mkdir(parents=True, exist_ok=True)
    kept = _kept_plan(config, ledger)
    if kept is None:
        plans, runs = _make_plan(config, say)
    else:
        config, plans, runs = kept
        say(f"plan: kept from {ledger / PLAN_FILE} (sized for --hours-budget {config.hours_budget:g})")
    left = _progress_lines(config, plans, runs, say)
    if config.plan_only:
        return StudyResult(config.out, plans, [], time.perf_counter() - started)

    parts = _Parts(left, say)
    for run in runs:
        parts.begin(f"run {run.name}")
        try:
            play_run(ledger, run, config.workers, config.progress, config.out / "runs" / "study.log", say)
        except Exception as exc:  # SimError and worker failures: one line, the chunks are kept
            raise StudyError(f"run {run.name} failed: {exc}") from exc
    result = StudyResult(config.out, plans, [run_tallies(ledger, r) for r in runs], 0.0)
    result.optimum = _optimum(config, plans, result.tallies, say, parts)
    say("writing tables, charts, report.html and README.md")
    from golfstats.study.outputs import write_outputs

    result.files = write_outputs(config, result, started)
    result.seconds = time.perf_counter() - started
    return result
