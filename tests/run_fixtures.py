"""Run directories in simulate's output format, made in-process for the report tests.

``write_run`` plays seeded deals with simulate's own ``play_chunk`` (no process pool)
and writes ``deals/part-00000.parquet``, ``summary.parquet`` (simulate's ``summarize``)
and ``run.json``, as a one-chunk ``golfstats simulate`` run would.
"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from golfstats.policies import parse_policy
from golfstats.rules import RULES_VERSION, Rules, parse_variant
from golfstats.runs import summarize
from golfstats.sim import Chunk
from golfstats.sim.plan import RunSpec
from golfstats.sim.work import play_chunk


def deal_rows(rules: Rules, policies, n: int, seed: int, run_id: str = "test") -> pl.DataFrame:
    """Deals ``0 .. n-1`` played by every policy, as simulate's own ``play_chunk`` makes them."""
    policies = tuple(parse_policy(p) if isinstance(p, str) else p for p in policies)
    spec = RunSpec(rules, policies, seed, "strokes", run_id, RULES_VERSION, "", ())
    return play_chunk(spec, Chunk(0, 0, n))


def write_frames(out: Path, deals: pl.DataFrame, info: dict) -> Path:
    (out / "deals").mkdir(parents=True, exist_ok=True)
    deals.write_parquet(out / "deals" / "part-00000.parquet")
    summarize(deals).write_parquet(out / "summary.parquet")
    (out / "run.json").write_text(json.dumps(info))
    return out


def write_run(out: Path, variant: str, policies, n: int, seed: int = 7) -> Path:
    rules = parse_variant(variant)
    deals = deal_rows(rules, policies, n, seed)
    info = {"command": "test", "seed": seed, "n": n, "variant": rules.id,
            "policies": [parse_policy(p).spec for p in policies], "timings": {}}
    return write_frames(out, deals, info)
