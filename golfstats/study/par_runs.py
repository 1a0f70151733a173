"""Par runs: the cheap players alone on as many deals as a par stable to one stroke needs.

A rule set's main run is sized for the clairvoyant win rate's interval (``study.plan``),
and its par reference's par may need more deals to be stable to one stroke
(``report.par``: ``deals_needed``).  Once the main run is finished, each rule set's par
run is sized from it (``plan.ParPlan``, kept in the plan); where the main run is short
and the par run costs at most ``StudyConfig.par_run_seconds`` of one core, the study
plays ``PAR_RUN_POLICIES`` alone on deals 0..n-1 of the seed (the main run's deals
first).  The study's summary keeps, per rule set and player, the row with the most deals
(``runs.merge_summaries``), so those players' figures, their par and its interval among
them, rest on the par run as soon as it holds more deals than the main run.
"""

from __future__ import annotations

from collections.abc import Callable

from golfstats.policies import PAR_REFERENCE, PAR_RUN_POLICIES
from golfstats.study.ledger import LEDGER, PlannedRun, RunTallies, run_tallies
from golfstats.study.plan import ParPlan, StudyConfig, chunk_size

__all__ = ["is_par_run", "par_run", "par_runs_markdown", "par_runs_note", "plan_pars"]


def par_run(config: StudyConfig, p: ParPlan) -> PlannedRun:
    """The planned run of ``p``: its players on the first ``p.n`` deals of the seed."""
    return PlannedRun(f"{p.variant}-par-n{p.n}-s{config.seed}", p.variant, PAR_RUN_POLICIES, p.n,
                      config.seed, chunk_size(p.seconds_per_deal))


def is_par_run(run: PlannedRun) -> bool:
    return run.policies == PAR_RUN_POLICIES and not run.first


def plan_pars(config: StudyConfig, mains: list[PlannedRun], kept: list[ParPlan],
              say: Callable[[str], None]) -> list[ParPlan]:
    """The par plan of every rule set of ``mains`` (the main runs): a kept one as planned
    (sized from the same main run), a new one sized from its finished main run (one that
    is not finished yet sizes it in a later sitting), said in one line."""
    ledger = config.out / LEDGER
    pars = []
    for main in mains:
        same = [p for p in kept if p.variant == main.variant and p.base_n == main.n]
        if same:
            pars.append(same[0])
            continue
        t = run_tallies(ledger, main)
        if not t.complete:
            say(f"  par run of {main.variant}: sized once its main run is finished")
            continue
        pars.append(_size(config, t))
        say(f"  par run of {main.variant}: {_line(config, pars[-1])}")
    return pars


def _size(config: StudyConfig, t: RunTallies) -> ParPlan:
    rows = {r["policy"]: r for r in t.tally.iter_rows(named=True)}
    cost = sum(rows[p]["seconds_sum"] / max(1, rows[p]["n"]) for p in PAR_RUN_POLICIES)
    summary = t.as_run(config.out / LEDGER).summary
    (hist,) = summary.filter(summary["policy"] == PAR_REFERENCE)["stroke_hist"].to_list()
    return ParPlan.size(t.run.variant, config, t.run.n, hist, cost)


def _line(config: StudyConfig, p: ParPlan) -> str:
    needs = (f"{p.n:,} deals for a par stable to one stroke (its main run: {p.base_n:,}), "
             f"about {_duration(p.est_core_seconds)} of one core")
    if not p.short:
        return f"not needed (its main run's {p.base_n:,} deals suffice: {p.n:,} needed)"
    if p.cheap(config):
        return f"{needs}: planned"
    return f"{needs}, over the cap of {_duration(config.par_run_seconds)}: not planned"


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} hours"


def _players() -> str:
    return " and ".join(f"`{p}`" for p in PAR_RUN_POLICIES)


def _resting(config: StudyConfig, pars: list[ParPlan], tallies: list[RunTallies]
             ) -> dict[str, int]:
    """The rule sets whose par rests on their par run, with the deals it holds: more than
    its main run's (``runs.merge_summaries`` keeps the row with the most deals)."""
    held = {t.run.name: t.deals_done for t in tallies}
    done = {p: held.get(par_run(config, p).name, 0) for p in pars if p.planned(config)}
    return {p.variant: n for p, n in done.items() if n > p.base_n}


def par_runs_note(config: StudyConfig, pars: list[ParPlan], tallies: list[RunTallies]) -> str:
    """One sentence under the par to print: which pars rest on a par run (empty if none)."""
    resting = _resting(config, pars, tallies)
    if not resting:
        return ""
    return (f"The pars of {', '.join(resting)} rest on par runs ({_players()} alone on more "
            "deals, for a par stable to one stroke: see \"Par for 9 and 18 holes\").\n\n")


def par_runs_markdown(config: StudyConfig, pars: list[ParPlan], tallies: list[RunTallies]) -> str:
    """The README's paragraph on par runs: which pars rest on one and on how many deals,
    where one is planned but not played yet, and where a stable par is not cheap, what it
    would take (empty when no rule set is sized yet)."""
    if not pars:
        return ""
    resting = _resting(config, pars, tallies)
    played, costly = [], []
    for p in pars:
        if not p.short:
            continue
        cost = (f"about {_duration(p.est_core_seconds)} of one core "
                f"({1000 * p.seconds_per_deal:.1f} ms a deal)")
        if not p.cheap(config):
            costly.append(f"- {p.variant}: {p.n:,} deals (its main run: {p.base_n:,}), {cost}.")
        elif p.variant in resting:
            played.append(f"- {p.variant}: {resting[p.variant]:,} of {p.n:,} deals played (its main "
                          f"run: {p.base_n:,}), {cost}.")
        else:
            played.append(f"- {p.variant}: {p.n:,} deals planned, not played yet (its main run: "
                          f"{p.base_n:,}, on which its par above rests), {cost}.")
    enough = [p.variant for p in pars if not p.short]
    text = ("**Par runs.** A main run is sized for the clairvoyant win rate, not for par. Where "
            "it holds fewer deals than the reference player's par needs to be stable to one stroke "
            "(the 95% interval of every round size within one stroke, as estimated from the main "
            f"run) and playing that many costs at most {_duration(config.par_run_seconds)} of one "
            f"core (at its players' cost per deal measured in the main run), {_players()} alone "
            "play that many deals of the same seed (the main run's deals first); their par, its "
            "interval and their other figures above rest on that run, and the table's last column "
            "is estimated again from its deals.\n\n")
    text += "\n".join(played) + "\n\n" if played else "No rule set has a par run.\n\n"
    if costly:
        text += ("Where that is not cheap, the par above is the main run's; a par stable to one "
                 f"stroke would take {_players()} on:\n\n" + "\n".join(costly) + "\n\n")
    if enough:
        text += f"The main runs of {', '.join(enough)} already hold the deals a stable par needs.\n"
    sized = {p.variant for p in pars}
    unsized = [v for v in config.variants if v not in sized]
    if unsized:
        text += (f"\nThe par runs of {', '.join(unsized)} are sized once their main runs are "
                 "finished.\n")
    return text
