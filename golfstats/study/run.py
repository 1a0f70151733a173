"""Running the study: the plan (kept in the ledger, else made from a pilot), the planned
runs' missing chunks (``study.ledger``), the optimum's missing deals, then the outputs
(``study.outputs``), all from the ledger."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import polars as pl

from golfstats.goals import Goal
from golfstats.policies import CLAIRVOYANT, PAR_REFERENCE, SAMPLING_POLICY, STUDY_POLICIES
from golfstats.runs import load_run
from golfstats.study.ledger import (
    LEDGER,
    PLAN_FILE,
    LedgerError,
    PlannedRun,
    RunTallies,
    play_run,
    read_json,
    read_plan,
    run_tallies,
    sitting,
    write_json,
)
from golfstats.study.par_runs import is_par_run, par_run, plan_pars
from golfstats.study.plan import (
    ADDITIVE,
    HONEST_COST_CAP,
    PARALLEL_EFFICIENCY,
    RUN_OVERHEAD,
    SAMPLING_COST,
    ParPlan,
    RecordPlan,
    StudyConfig,
    VariantPlan,
    chunk_size,
    cost_per_deal,
    plan_sizes,
    sampling_seconds,
)
from golfstats.study.record_runs import record_run, with_records


def _optimum(config: StudyConfig, plans: list[VariantPlan], tallies: list[RunTallies],
             say: Callable[[str], None], parts: _Parts, fanout) -> list:
    """Perfect play without peeking on the rule sets with a hidden stock (``study.optimum``),
    its covariate's mean the exact win rate of the rule set's main run.  Every deal is a
    task of one serving of ``fanout`` (one warm-up); a deal valued alone gets the largest
    worker's memory."""
    from golfstats.study.optimum import OptimumPlan, optimum_job, run_optimum
    from golfstats.study.plan import hidden_stock

    results = []
    main = {t.run.variant: t for t in tallies if t.run.policies == STUDY_POLICIES}
    with fanout.serve(optimum_job(config.optimal_variants, config.seed)) as serving:
        for variant in config.optimal_variants:
            if variant not in main or not main[variant].deals_done or not hidden_stock(variant):
                continue  # (a rule set without a hidden stock: optimal = exact, said in the plan)
            summary = main[variant].as_run(config.out / LEDGER).summary
            exact = summary.filter(pl.col("policy") == CLAIRVOYANT).row(0, named=True)
            target = config.optimal_target_for(variant)
            plan = OptimumPlan(variant, config.seed, exact["win_rate"], config.optimal_orders,
                               config.scaled(config.optimal_min_n, 3),
                               config.scaled(config.optimal_max_n, 3), target,
                               workers=config.workers, max_bytes=config.optimal_max_bytes,
                               alone_bytes=fanout.largest_memory, value_more=config.play,
                               strokes_n=config.strokes_max_n,
                               strokes_bytes=config.strokes_max_bytes)
            if config.play:
                parts.begin(f"optimal (perfect play without peeking) on {variant}: at least "
                            f"{plan.min_n} deals, until +/-{100 * target:.1f} points; then its par "
                            "(goal strokes)")
            result = run_optimum(plan, config.out / LEDGER, say, serving)
            if result is not None:
                results.append(result)
    return results


class _Parts:
    """The study's one progress line per part: "[k/N] part; about M min left in all".
    What is left is the plan's estimate of the parts not finished, scaled by how the
    parts run in this sitting compared with their estimates (a reused part, done in
    seconds, does not count)."""

    def __init__(self, estimates: list[float], say: Callable[[str], None]) -> None:
        self._estimates, self.say = list(estimates), say
        self._k, self._spent, self._planned = 0, 0.0, 0.0
        self._began: float | None = None

    def begin(self, text: str) -> None:
        self._finish()
        left = sum(self._estimates[self._k:])
        if self._planned > 0:
            left *= self._spent / self._planned
        self._k += 1
        self.say(f"[{self._k}/{len(self._estimates)}] {text}; about {left / 60:.0f} min left in all")
        self._began = time.perf_counter()

    def expect(self, estimates, next_parts: bool = False) -> None:
        """More parts, planned during the study (par and record runs whose main run just
        finished): the last ones, or with ``next_parts`` the ones begun next."""
        at = self._k if next_parts else len(self._estimates)
        self._estimates[at:at] = list(estimates)

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
               ) -> tuple[StudyConfig, list[VariantPlan], list[RecordPlan], list[ParPlan]] | None:
    """The plan an earlier sitting made (``ledger/plan.json``), with ``config`` carrying the
    budget it was sized for, or None when the ledger has no plan.  A plan made with other
    deal-fixing settings (seed, variants, targets, scale) is an error, never overwritten;
    other ``ADDITIVE`` settings only add runs to it."""
    kept = read_plan(ledger)
    if not kept:
        return None
    made, wanted = kept.get("key", {}), config.plan_key()
    fixed = [k for k in wanted if k not in _BUDGET_SETTINGS and k not in ADDITIVE]
    differ = [k for k in fixed if made.get(k) != wanted[k]]
    if differ:
        settings = ", ".join(f"{k} {made.get(k)!r} (asked: {wanted[k]!r})" for k in differ)
        raise StudyError(f"{ledger / PLAN_FILE} holds a plan made with other settings: {settings}; "
                         "run with the plan's settings, or give another --out")
    config = replace(config, **{k: made[k] for k in _BUDGET_SETTINGS if k in made})
    records = [RecordPlan(**r) for r in kept.get("records", [])]
    pars = [ParPlan(**p) for p in kept.get("pars", [])]
    return config, [VariantPlan(**p) for p in kept["plans"]], records, pars


def _write_plan(config: StudyConfig, plans: list[VariantPlan], records: list[RecordPlan],
                runs: list[PlannedRun], pars: list[ParPlan] = ()) -> None:
    data = {"key": config.plan_key(), "plans": [asdict(p) for p in plans],
            "records": [asdict(r) for r in records], "runs": [asdict(r) for r in runs]}
    if pars:
        data["pars"] = [asdict(p) for p in pars]
    if read_json(config.out / LEDGER / PLAN_FILE) != data:
        write_json(config.out / LEDGER / PLAN_FILE, data)


def _plan_records(config: StudyConfig, plans: list[VariantPlan], kept: list[RecordPlan],
                  say: Callable[[str], None], fanout) -> list[RecordPlan]:
    """The record runs: kept ones as planned, new ones sized from their finished main run
    (a main run not yet finished sizes its record in a later sitting), their cost from a
    pilot of the clairvoyant player alone."""
    records = []
    for variant in config.record_variants:
        same = [r for r in kept if r.variant == variant and r.half_width == config.record_half_width]
        if same:
            records.append(same[0])
            continue
        main = next((p for p in plans if p.variant == variant), None)
        if main is None:
            continue
        t = run_tallies(config.out / LEDGER, _main_run(config, main))
        if not t.complete:
            say(f"  record of {variant}: planned once its main run is finished")
            continue
        exact = t.tally.filter(pl.col("policy") == CLAIRVOYANT).row(0, named=True)
        pilot = load_run(_pilot_run(variant, config.scaled(config.pilot_n), config, fanout,
                                    (CLAIRVOYANT,)))
        record = RecordPlan.size(variant, config, exact["n"], exact["wins"],
                                 cost_per_deal(pilot, has_stock=True))
        say(f"  record of {variant}: {record.n:,} deals for +/-{100 * record.half_width:.3f}%, "
            f"{record.n - record.base_n:,} more, about {record.est_core_seconds / 3600:.1f} one-core hours")
        records.append(record)
    return records


def _main_run(config: StudyConfig, p: VariantPlan) -> PlannedRun:
    return PlannedRun(f"{p.variant}-n{p.n}-s{config.seed}", p.variant, STUDY_POLICIES, p.n,
                      config.seed, chunk_size(p.seconds_per_deal))


def _pilot_run(rules_id: str, n: int, config: StudyConfig, fanout,
               policies: tuple[str, ...] = STUDY_POLICIES) -> Path:
    """Run, resume or reuse a pilot's simulate run (kept in the ignored ``OUT/runs/pilot``)
    on the study's workers."""
    from golfstats.policies import policies_from_names
    from golfstats.rules import parse_variant
    from golfstats.sim import SimConfig, run_or_reuse

    name = "-".join([rules_id, *(() if policies == STUDY_POLICIES else policies)])
    out = config.out / "runs" / "pilot" / f"{name}-n{n}-s{config.seed}"
    sim = SimConfig(rules=parse_variant(rules_id), policies=policies_from_names(policies),
                    n=n, seed=config.seed, goal=Goal.STROKES, workers=config.workers, out=out,
                    backend=config.backend, scheduler=config.scheduler)
    try:
        return Path(run_or_reuse(sim, progress=config.progress,
                                 log_file=config.out / "runs" / "study.log", fanout=fanout))
    except Exception as exc:  # SimError and worker failures: one line, the run is kept
        raise StudyError(f"pilot of {rules_id} n={n} failed: {exc}") from exc


def _make_plan(config: StudyConfig, say: Callable[[str], None], fanout
               ) -> tuple[list[VariantPlan], list[PlannedRun]]:
    """The pilot, then the plan (written to the ledger, so every later sitting runs it)."""
    from golfstats.rules import parse_variant

    started = time.perf_counter()
    pilot_n = config.scaled(config.pilot_n)
    pilots: dict[str, tuple[int, int, float]] = {}
    say(f"pilot: {pilot_n} deals of {len(config.variants)} variants with {', '.join(STUDY_POLICIES)}")
    for variant in config.variants:
        run = load_run(_pilot_run(variant, pilot_n, config, fanout))
        exact = run.summary.filter(pl.col("policy") == CLAIRVOYANT).row(0, named=True)
        has_stock = parse_variant(variant).layout.has_stock
        pilots[variant] = (exact["n"], exact["wins"], cost_per_deal(run, has_stock))
        say(f"  {variant}: exact won {exact['wins']}/{exact['n']}, "
            f"{1000 * pilots[variant][2]:.1f} ms/deal for the four policies")
    plans = plan_sizes(pilots, config, time.perf_counter() - started)
    runs = planned_runs(config, plans)
    _write_plan(config, plans, [], runs)
    return plans, runs


def planned_runs(config: StudyConfig, plans: list[VariantPlan], records: list[RecordPlan] = (),
                 pars: list[ParPlan] = ()) -> list[PlannedRun]:
    """The main run of every variant, the sampling runs (sampling beside the reference
    player, so that their comparison is paired within one run), the record runs, then the
    par runs that are planned (``ParPlan.planned``; last, so that the runs planned before
    them keep their places)."""
    runs = [_main_run(config, p) for p in plans]
    n = config.scaled(config.sampling_n, 10)
    runs += [PlannedRun(f"{v}-sampling-n{n}-s{config.seed}", v, (SAMPLING_POLICY, PAR_REFERENCE), n,
                        config.seed, chunk_size(SAMPLING_COST + HONEST_COST_CAP))
             for v in config.sampling_variants]
    runs += [record_run(config, r) for r in records]
    runs += [par_run(config, p) for p in pars if p.planned(config)]
    return runs


@dataclass
class StudyResult:
    out: Path
    plans: list[VariantPlan]
    tallies: list[RunTallies]
    seconds: float
    files: list[Path] = field(default_factory=list)
    optimum: list = field(default_factory=list)  # study.optimum.OptimumResult per rule set
    pars: list[ParPlan] = field(default_factory=list)  # every rule set's par run, as sized
    #: (deals held, deals planned) per (rule set, player) of each run not finished (a
    #: record run's held counting its main run's deals)
    unfinished: dict = field(default_factory=dict)


def _progress_lines(config: StudyConfig, plans: list[VariantPlan], records: list[RecordPlan],
                    runs: list[PlannedRun], say: Callable[[str], None], pars: list[ParPlan] = ()
                    ) -> list[float]:
    """Say what the ledger holds and what is left of each part; returns the parts' estimated
    seconds left, in the order they are played (runs, par runs, the optimum, record runs)."""
    ledger = config.out / LEDGER
    estimates = {p.variant: p.est_seconds for p in plans}
    rate = config.workers * PARALLEL_EFFICIENCY
    record_estimates = {r.variant: (r.n - r.base_n) * r.seconds_per_deal / rate for r in records}
    par_estimates = {p.variant: p.est_core_seconds / rate + RUN_OVERHEAD for p in pars}
    left, pars_left, records_left = [], [], []
    rates = {}  # the clairvoyant win rate of each main run so far (the optimum's covariate)
    held = {run.name: run_tallies(ledger, run) for run in runs}
    sampled = [t for t in held.values() if t.run.policies[0] == SAMPLING_POLICY and t.deals_done]
    # a sampling run not started: at the cost per deal its finished siblings measured
    sampling_cost = (sum(t.seconds for t in sampled) / sum(t.deals_done for t in sampled)
                     if sampled else SAMPLING_COST)
    say(f"plan: {sum(r.count for r in runs):,} deals in {len(runs)} runs; the ledger {ledger} holds:")
    for run in runs:
        t = held[run.name]
        if run.first:  # a record run
            whole = record_estimates.get(run.variant, 0.0)
        elif is_par_run(run):
            whole = par_estimates.get(run.variant, 0.0)
        elif run.policies == STUDY_POLICIES:
            whole = estimates.get(run.variant, 0.0)
        else:
            whole = sampling_seconds(config, t.seconds / t.deals_done if t.deals_done else sampling_cost)
        part_left = whole * (1 - t.deals_done / run.count)
        if run.policies == STUDY_POLICIES and t.deals_done:
            exact = t.tally.filter(pl.col("policy") == CLAIRVOYANT).row(0, named=True)
            rates[run.variant] = exact["wins"] / max(1, exact["n"] - exact["truncated"])
        (records_left if run.first else pars_left if is_par_run(run) else left).append(part_left)
        state = ("done" if t.complete else
                 f"~{part_left * rate / 3600:.2f} one-core hours left (~{part_left / 60:.1f} min)")
        say(f"  {run.name}: {t.deals_done:,} of {run.count:,} deals "
            f"({t.chunks_done}/{t.chunks} chunks), {state}")
    from golfstats.study.optimum_plan import optimum_progress

    left += pars_left
    left += optimum_progress(config, ledger, rates, say)
    left += records_left
    say(f"about {sum(left) * rate / 3600:.1f} one-core hours left in all: about "
        f"{sum(left) / 60:.0f} min on {config.workers} workers")
    return left


def _play(config: StudyConfig, run: PlannedRun, parts: _Parts, fanout) -> None:
    parts.begin(f"run {run.name}")
    try:
        play_run(config.out / LEDGER, run, fanout, config.progress,
                 config.out / "runs" / "study.log", parts.say)
    except Exception as exc:  # SimError and worker failures: one line, the chunks are kept
        raise StudyError(f"run {run.name} failed: {exc}") from exc


def run_study(config: StudyConfig, note: Callable[[str], None] | None = None) -> StudyResult:
    """Run the whole study (see the module doc); ``note`` receives progress lines.  The
    sitting holds the ledger's lock (a second study on it is refused, ``StudyError``) and
    its workers (``config.backend``: ``sim.backends.open_workers``), on which every run and
    valued deal is played."""
    from golfstats.sim import SimError
    from golfstats.sim.backends import open_workers

    try:
        with open_workers(config.backend, config.workers, config.scheduler, "INFO") as fanout, \
                sitting(config.out / LEDGER, note):
            return _run_study(config, note, fanout)
    except LedgerError as exc:
        raise StudyError(str(exc)) from None
    except SimError as exc:  # the workers refused (no dask, no scheduler), or a deal failed
        raise StudyError(str(exc)) from None


def _run_study(config: StudyConfig, note: Callable[[str], None] | None, fanout) -> StudyResult:
    say = note or (lambda _msg: None)
    started = time.perf_counter()
    ledger = config.out / LEDGER
    (config.out / "runs").mkdir(parents=True, exist_ok=True)
    kept = _kept_plan(config, ledger)
    if kept is None:
        plans, _ = _make_plan(config, say, fanout)
        records: list[RecordPlan] = []
        pars: list[ParPlan] = []
    else:
        config, plans, records, pars = kept
        say(f"plan: kept from {ledger / PLAN_FILE} (sized for --hours-budget {config.hours_budget:g})")
    records = _plan_records(config, plans, records, say, fanout)
    mains = [_main_run(config, p) for p in plans]
    pars = plan_pars(config, mains, pars, say)
    runs = planned_runs(config, plans, records, pars)
    _write_plan(config, plans, records, runs, pars)
    left = _progress_lines(config, plans, records, runs, say, pars)
    if config.plan_only:
        return StudyResult(config.out, plans, [], time.perf_counter() - started, pars=pars)

    parts = _Parts(left if config.play else [], say)
    main = [r for r in runs if not r.first and not is_par_run(r)]
    for run in main if config.play else ():
        _play(config, run, parts, fanout)
    if config.play and len(pars) < len(plans):  # main runs finished now: their par runs
        before = set(pars)
        pars = plan_pars(config, mains, pars, say)
        runs = planned_runs(config, plans, records, pars)
        _write_plan(config, plans, records, runs, pars)
        rate = config.workers * PARALLEL_EFFICIENCY
        parts.expect((p.est_core_seconds / rate + RUN_OVERHEAD for p in pars
                      if p not in before and p.planned(config)), next_parts=True)
    for run in runs if config.play else ():
        if is_par_run(run):
            _play(config, run, parts, fanout)
    result = StudyResult(config.out, plans, [run_tallies(ledger, r) for r in main], 0.0, pars=pars)
    result.optimum = _optimum(config, plans, result.tallies, say, parts, fanout)
    if config.play and len(records) < len(config.record_variants):  # main runs finished now
        before = {r.variant for r in records}
        records = _plan_records(config, plans, records, say, fanout)
        runs = planned_runs(config, plans, records, pars)
        _write_plan(config, plans, records, runs, pars)
        parts.expect(r.est_core_seconds / (config.workers * PARALLEL_EFFICIENCY) for r in records
                     if r.variant not in before)
    for run in runs if config.play else ():
        if run.first:
            _play(config, run, parts, fanout)
    every = [run_tallies(ledger, r) for r in runs]
    result.tallies = with_records(every)
    result.unfinished = {(t.run.variant, p): (t.run.first + t.deals_done, t.run.n)
                         for t in every if not t.complete for p in t.run.policies}
    say("writing tables, charts, report.html and README.md")
    from golfstats.study.outputs import write_outputs

    result.files = write_outputs(config, result, started)
    result.seconds = time.perf_counter() - started
    return result
