"""The record runs: the clairvoyant player alone on more deals of a rule set
(``RecordPlan``), and the main runs' tallies with their record runs' added."""

from __future__ import annotations

from golfstats.policies import CLAIRVOYANT, STUDY_POLICIES
from golfstats.study.ledger import PlannedRun, RunTallies
from golfstats.study.plan import RecordPlan, StudyConfig, chunk_size


def record_run(config: StudyConfig, r: RecordPlan) -> PlannedRun:
    return PlannedRun(f"{r.variant}-{CLAIRVOYANT}-n{r.n}-s{config.seed}", r.variant, (CLAIRVOYANT,),
                      r.n, config.seed, chunk_size(r.seconds_per_deal), first=r.base_n)


def with_records(tallies: list[RunTallies]) -> list[RunTallies]:
    """The main runs' tallies with their record runs' added (the clairvoyant player's figures
    then rest on the record's deals), the record runs themselves left out."""
    records = {t.run.variant: t for t in tallies if t.run.first}
    out = []
    for t in tallies:
        if t.run.first:
            continue
        extra = records.get(t.run.variant) if t.run.policies == STUDY_POLICIES else None
        out.append(t.plus(extra) if extra is not None else t)
    return out
