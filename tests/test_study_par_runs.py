"""Par runs (issue 43): the study plans the cheap players alone on as many deals as a par
stable to one stroke needs, exactly where its main run is short of them and that many
deals cost at most ``par_run_seconds`` of one core; the runs planned before stay as they
were; the par tables then rest on the larger run.

The plan is tested on main runs' tallies made up here (their stroke histograms and
seconds chosen so that each case occurs; what a tally holds is test_study_ledger's); the
slow test plays a tiny study with a par run and holds its par to a direct run's.
"""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest

from golfstats.policies import PAR_REFERENCE, PAR_RUN_POLICIES, STUDY_POLICIES
from golfstats.report.par import par_from_hist
from golfstats.runs.tally import PAIR_SCHEMA, TALLY_SCHEMA
from golfstats.study import StudyConfig
from golfstats.study.ledger import RunTallies
from golfstats.study.par_runs import is_par_run, par_run, par_runs_markdown, par_runs_note, plan_pars
from golfstats.study.plan import ParPlan, VariantPlan
from golfstats.study.run import _main_run, planned_runs

WIDE = np.arange(0, 6)  # strokes a hole, spread wide enough: a par that needs many deals
NARROW = np.array([3, 4])  # nearly one stroke count: a par stable on few deals


def _hist(values: np.ndarray, n: int) -> list[dict]:
    counts = np.full(values.size, n // values.size)
    counts[: n - counts.sum()] += 1
    return [{"strokes": int(s), "count": int(c)} for s, c in zip(values, counts, strict=True)]


def _row(variant: str, policy: str, hist: list[dict], seconds_per_deal: float) -> dict:
    """A policy tally of the deals ``hist`` counts (what the figures here read: deals,
    strokes, seconds; the other sums 0)."""
    n = sum(h["count"] for h in hist)
    row = {c: 0 for c in TALLY_SCHEMA} | {c: 0.0 for c, t in TALLY_SCHEMA.items() if t == pl.Float64}
    return row | {"variant": variant, "policy": policy, "n": n,
                  "wins": sum(h["count"] for h in hist if h["strokes"] <= 0),
                  "strokes_sum": sum(h["strokes"] * h["count"] for h in hist),
                  "strokes_sq": sum(h["strokes"] ** 2 * h["count"] for h in hist),
                  "seconds_sum": n * seconds_per_deal, "stroke_hist": hist}


def _main(config: StudyConfig, variant: str, values: np.ndarray, n: int, seconds_per_deal: float,
          complete: bool = True) -> tuple[VariantPlan, RunTallies]:
    """A main run of ``n`` deals whose players stroke as ``values`` (evenly) at
    ``seconds_per_deal`` each, its tallies as the ledger would give them."""
    plan = VariantPlan(variant, 2000, 1000, 0.5, n, n, 0.01, 1.0)
    run = _main_run(config, plan)
    rows = [_row(variant, p, _hist(values, n), seconds_per_deal) for p in STUDY_POLICIES]
    tally = pl.DataFrame(rows, schema=TALLY_SCHEMA, orient="row")
    chunks = len(run.chunks())
    return plan, RunTallies(run, tally, pl.DataFrame(schema=PAIR_SCHEMA), chunks if complete else 0,
                            chunks, n if complete else 0, 0.0, (), ())


def _needed(variant: str, values: np.ndarray, n: int) -> int:
    """The deals a stable par needs, as the README's par table says (every round size)."""
    rounds = par_from_hist(variant, PAR_REFERENCE, _hist(values, n)).rounds
    return max(r.deals_needed for r in rounds.values())


@pytest.fixture
def ledger(tmp_path, monkeypatch):
    """Four main runs: short and cheap, short and costly, long enough, and unfinished."""
    import golfstats.study.par_runs as par_runs

    config = StudyConfig(out=tmp_path, variants=("putt-putt+jokers2", "all-in-a-row", "strict",
                                                 "queens-on-kings"), par_run_seconds=600.0)
    mains = [_main(config, "putt-putt+jokers2", WIDE, 300, 0.001),
             _main(config, "all-in-a-row", WIDE, 300, 0.5),
             _main(config, "strict", NARROW, 5000, 0.001),
             _main(config, "queens-on-kings", WIDE, 300, 0.001, complete=False)]
    held = {t.run.name: t for _, t in mains}
    monkeypatch.setattr(par_runs, "run_tallies", lambda _ledger, run: held[run.name])
    return config, [p for p, _ in mains]


def test_a_par_run_is_planned_exactly_where_the_main_run_is_short_and_it_is_cheap(ledger):
    config, plans = ledger
    said = []
    pars = plan_pars(config, [_main_run(config, p) for p in plans], [], said.append)
    by = {p.variant: p for p in pars}
    assert set(by) == {"putt-putt+jokers2", "all-in-a-row", "strict"}  # not the unfinished one
    assert any("queens-on-kings: sized once its main run is finished" in s for s in said)
    wide, narrow = _needed("putt-putt+jokers2", WIDE, 300), _needed("strict", NARROW, 5000)
    assert 300 < wide and narrow < 5000  # the cases the made-up runs stand for
    cheap, costly, enough = by["putt-putt+jokers2"], by["all-in-a-row"], by["strict"]
    assert (cheap.n, cheap.base_n) == (wide, 300)
    assert cheap.seconds_per_deal == pytest.approx(len(PAR_RUN_POLICIES) * 0.001)
    assert cheap.est_core_seconds <= config.par_run_seconds < costly.est_core_seconds
    assert [p.planned(config) for p in (cheap, costly, enough)] == [True, False, False]
    assert enough.short is False and costly.short is True
    # the plan: the runs planned before, unchanged and first, then the one par run
    before = planned_runs(config, plans)
    after = planned_runs(config, plans, (), pars)
    assert after[:len(before)] == before
    (added,) = after[len(before):]
    assert added == par_run(config, cheap) and is_par_run(added)
    assert (added.variant, added.policies, added.n, added.first, added.seed) == (
        "putt-putt+jokers2", PAR_RUN_POLICIES, wide, 0, config.seed)
    assert added.name == f"putt-putt+jokers2-par-n{wide}-s{config.seed}"
    assert not any(is_par_run(r) for r in before)
    # a cap that fits the costly one plans it too; one below the cheap one plans none
    assert costly.planned(StudyConfig(**{**config.__dict__, "par_run_seconds": costly.est_core_seconds}))
    tight = StudyConfig(**{**config.__dict__, "par_run_seconds": cheap.est_core_seconds * 0.99})
    assert planned_runs(tight, plans, (), pars) == before


def test_a_kept_par_plan_is_not_sized_again(ledger, monkeypatch):
    import golfstats.study.par_runs as par_runs

    config, plans = ledger
    mains = [_main_run(config, p) for p in plans]
    pars = plan_pars(config, mains, [], lambda _m: None)
    monkeypatch.setattr(par_runs, "run_tallies", lambda *_a: pytest.fail("sized again"))
    said = []
    assert plan_pars(config, mains[:3], pars, said.append) == pars and not said
    # a main run of another size (another plan) is not the one a kept par run was sized from
    assert ParPlan("strict", 10, 20, 0.1) not in plan_pars(config, mains[:3], pars, said.append)


def test_the_readme_says_which_pars_rest_on_a_par_run_and_what_the_others_would_take(ledger):
    config, plans = ledger
    pars = plan_pars(config, [_main_run(config, p) for p in plans], [], lambda _m: None)
    cheap = next(p for p in pars if p.planned(config))
    text = par_runs_markdown(config, pars, [])
    assert f"putt-putt+jokers2: {cheap.n:,} deals planned, not played yet" in text
    assert "- all-in-a-row:" in text and "would take `greedy` and `lookahead`" in text
    assert "main runs of strict already hold" in text
    assert "par runs of queens-on-kings are sized once" in text
    assert par_runs_note(config, pars, []) == ""
    played = RunTallies(par_run(config, cheap), pl.DataFrame(schema=TALLY_SCHEMA),
                        pl.DataFrame(schema=PAIR_SCHEMA), 1, 1, cheap.n, 0.0, (), ())
    text = par_runs_markdown(config, pars, [played])
    assert f"putt-putt+jokers2: {cheap.n:,} of {cheap.n:,} deals played (its main run: 300)" in text
    assert "pars of putt-putt+jokers2 rest on par runs" in par_runs_note(config, pars, [played])


def test_a_plan_with_a_par_run_that_is_not_one_is_set_aside():
    from golfstats.study.records import plan_problem

    good = {"key": {}, "plans": [], "runs": [], "pars": [{"variant": "strict", "base_n": 1, "n": 2,
                                                        "seconds_per_deal": 0.1}]}
    assert plan_problem(good) == "" and plan_problem({**good, "pars": []}) == ""
    assert plan_problem({**good, "pars": [{"variant": "strict"}]}) == "has a par run's plan that is not one"
    assert plan_problem({**good, "pars": {}}) == "has a par run's plan that is not one"


@pytest.mark.slow
def test_the_par_tables_rest_on_the_par_run(tmp_path):
    """A tiny study whose main run is short of a stable par: its par run is planned and
    played, and the par of lookahead and greedy (the tables, the README) is the par of a
    direct run of them on the par run's deals; exact's stays the main run's."""
    from golfstats.policies import policies_from_names
    from golfstats.rules import parse_variant
    from golfstats.runs import load_run
    from golfstats.sim import SimConfig, run_simulation
    from golfstats.study import run_study

    variant = "putt-putt+jokers2"
    config = StudyConfig(out=tmp_path / "study", scale=0.005, variants=(variant,), sampling_variants=(),
                         optimal_variants=(), record_variants=(), workers=1)
    result = run_study(config)
    plan = json.loads((config.out / "ledger" / "plan.json").read_text())
    (par,) = plan["pars"]
    assert par["base_n"] < par["n"] and [r["name"] for r in plan["runs"]] == [
        f"{variant}-n{par['base_n']}-s{config.seed}", f"{variant}-par-n{par['n']}-s{config.seed}"]
    summary = {r["policy"]: r for r in pl.read_parquet(config.out / "summary.parquet").iter_rows(named=True)}
    assert {p: summary[p]["n"] for p in ("greedy", "lookahead", "exact", "random")} == {
        "greedy": par["n"], "lookahead": par["n"], "exact": par["base_n"], "random": par["base_n"]}
    direct = load_run(run_simulation(SimConfig(
        rules=parse_variant(variant), policies=policies_from_names(PAR_RUN_POLICIES), n=par["n"],
        seed=config.seed, workers=1, out=tmp_path / "direct"))).summary
    table = pl.read_csv(config.out / "tables" / "par.csv")
    for policy in PAR_RUN_POLICIES:
        hist = direct.filter(pl.col("policy") == policy)["stroke_hist"].to_list()[0]
        assert summary[policy]["stroke_hist"] == hist
        want = par_from_hist(variant, policy, hist).rounds
        row = table.filter(pl.col("policy") == policy).row(0, named=True)
        assert row["n"] == par["n"]
        assert [(row[f"par{h}"], row[f"par{h}_low"], row[f"par{h}_high"]) for h in (9, 18)] == [
            (want[h].par, want[h].low, want[h].high) for h in (9, 18)]
    readme = (config.out / "README.md").read_text()
    assert f"{variant}: {par['n']:,} of {par['n']:,} deals played" in readme
    assert f"The pars of {variant} rest on par runs" in readme
    assert [p.variant for p in result.pars] == [variant]
