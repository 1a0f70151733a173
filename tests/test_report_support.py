"""Run directories in simulate's output format, made in-process for the report tests.

``write_run`` plays seeded deals with ``play_deals`` (no process pool) and writes
``deals/part-00000.parquet``, ``summary.parquet`` and ``run.json`` with exactly the
columns of the simulate contract, so the report tests do not depend on
``golfstats.sim``.  ``fake_sim_module`` builds a stand-in ``golfstats.sim`` with the
same contract for the study test when the real one is absent.
"""

from __future__ import annotations

import json
import types
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from golfstats.deals import seeded_deals
from golfstats.policies import Policy, parse_policy, play_deals
from golfstats.report.runs import SUMMARY_SCHEMA
from golfstats.report.tables import summarize_deals
from golfstats.rules import RULES_VERSION, Rules, parse_variant

DEAL_SCHEMA = {
    "run_id": pl.String, "seed": pl.Int64, "deal_index": pl.Int64, "variant": pl.String,
    "rules_version": pl.String, "policy": pl.String, "won": pl.Boolean, "strokes": pl.Int64,
    "points": pl.Int64, "draws": pl.Int64, "moves": pl.Int64, "longest_chain": pl.Int64,
    "states": pl.Int64, "seconds": pl.Float64,
}


def deal_rows(rules: Rules, policies, n: int, seed: int, run_id: str = "test") -> pl.DataFrame:
    batch = seeded_deals(rules, seed, 0, n)
    frames = []
    for policy in policies:
        policy = parse_policy(policy) if isinstance(policy, str) else policy
        res = play_deals(rules, policy, batch)
        cols = {k: res[k] for k in ("won", "strokes", "points", "draws", "moves", "longest_chain",
                                    "states", "seconds")}
        frames.append(pl.DataFrame({
            "run_id": [run_id] * n, "seed": [seed] * n, "deal_index": np.arange(n),
            "variant": [rules.id] * n, "rules_version": [RULES_VERSION] * n, "policy": [policy.spec] * n,
            **cols}).select([pl.col(c).cast(t) for c, t in DEAL_SCHEMA.items()]))
    return pl.concat(frames)


def write_frames(out: Path, deals: pl.DataFrame, info: dict) -> Path:
    (out / "deals").mkdir(parents=True, exist_ok=True)
    deals.write_parquet(out / "deals" / "part-00000.parquet")
    summarize_deals(deals).write_parquet(out / "summary.parquet")
    (out / "run.json").write_text(json.dumps(info))
    return out


def write_run(out: Path, variant: str, policies, n: int, seed: int = 7) -> Path:
    rules = parse_variant(variant)
    deals = deal_rows(rules, policies, n, seed)
    info = {"command": "test", "seed": seed, "n": n, "variant": rules.id,
            "policies": [parse_policy(p).spec for p in policies], "timings": {}}
    return write_frames(out, deals, info)


def fake_sim_module() -> types.ModuleType:
    """A ``golfstats.sim`` stand-in with the contract's SimConfig, run_simulation, summarize."""
    module = types.ModuleType("golfstats.sim")

    @dataclass(frozen=True)
    class SimConfig:
        rules: Rules
        policies: tuple[Policy, ...]
        n: int
        seed: int
        goal: str = "strokes"
        workers: int = 1
        chunk_size: int = 1000
        out: Path = Path("run")
        resume: bool = False
        backend: str = "local"
        scheduler: str | None = None

    def run_simulation(config, progress=True, log_file=None, log_level="INFO") -> Path:
        deals = deal_rows(config.rules, config.policies, config.n, config.seed)
        info = {"command": "fake", "seed": config.seed, "n": config.n, "variant": config.rules.id,
                "policies": [p.spec for p in config.policies], "timings": {}}
        return write_frames(Path(config.out), deals, info)

    module.SimConfig = SimConfig
    module.run_simulation = run_simulation
    module.summarize = summarize_deals
    return module


def test_written_run_has_the_contract_columns(tmp_path):
    run = write_run(tmp_path / "run", "strict", ["greedy", "exact"], 20)
    deals = pl.read_parquet(run / "deals" / "part-00000.parquet")
    assert dict(deals.schema) == DEAL_SCHEMA
    summary = pl.read_parquet(run / "summary.parquet")
    assert dict(summary.schema) == SUMMARY_SCHEMA
    assert sorted(summary["policy"]) == ["exact", "greedy"]
    assert summary["n"].to_list() == [20, 20]
