"""What ``run.json`` holds (``sim.run``): the run's configuration, versions, command,
attempts, and its parts' records (``runs.check``), and which parts a resumed run keeps.

The parts' records are the run's account of what it wrote: a part on disk that run.json
records is kept only if its bytes are the ones recorded (their sha256); a part it does
not record (written by a run killed before run.json was, or by a run older than the
records) is kept if its Parquet metadata says it is this run's chunk, with the rows the
chunk has, and is recorded then.  Every other part is played again, and said.
"""

from __future__ import annotations

import json
import logging
import os
import platform
import shlex
import sys
from dataclasses import asdict
from importlib import metadata as importlib_metadata
from pathlib import Path

from golfstats.atomic import sha256_of
from golfstats.runs.schema import RUN_FORMAT, part_path
from golfstats.runs.write import part_is_valid, part_record, remove_temporaries
from golfstats.sim.plan import Chunk, SimConfig

log = logging.getLogger("golfstats.sim")


def versions(backend: str = "local") -> dict[str, str]:
    """Versions of golfstats, its compute libraries and python (without importing them)."""
    names = ["golfstats", "numba", "numpy", "polars", "pyarrow"]
    if backend == "dask":
        names += ["dask", "distributed"]
    out = {"python": platform.python_version()}
    for name in names:
        try:
            out[name] = importlib_metadata.version(name)
        except importlib_metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


def _rules_fields(config: SimConfig) -> dict:
    return {k: (v.value if hasattr(v, "value") else v) for k, v in asdict(config.rules).items()}


def parquet_metadata(config: SimConfig) -> dict[str, str]:
    """Key-value metadata of every Parquet file of the run: the rules, the seed and more."""
    identity = config.identity()
    return {
        "golfstats.run_id": config.run_id,
        "golfstats.variant": config.rules.id,
        "golfstats.rules": json.dumps(_rules_fields(config), sort_keys=True),
        "golfstats.rules_version": identity["rules_version"],
        "golfstats.seed": str(config.seed),
        "golfstats.n": str(config.n),
        "golfstats.policies": json.dumps(list(config.policy_specs)),
        "golfstats.goal": config.goal,
        "golfstats.version": versions()["golfstats"],
    }


def replay_command(config: SimConfig, chunk_size: int) -> str:
    """A ``golfstats simulate`` command line that makes the same rows."""
    args = ["golfstats", "simulate", "--variant", config.rules.id, "-n", str(config.n),
            "--seed", str(config.seed)]
    for spec in config.policy_specs:
        args += ["--policy", spec]
    args += ["--goal", config.goal, "--chunk-size", str(chunk_size), "--out", str(config.run_dir)]
    return shlex.join(args)


def invoked_command() -> str:
    argv = list(sys.argv)
    if argv:
        argv[0] = Path(argv[0]).name
    return shlex.join(argv)


def kept_parts(config: SimConfig, chunks: list[Chunk], deals_dir: Path, stored: dict | None
               ) -> tuple[list[Chunk], dict[str, dict]]:
    """(the chunks to play, the records of the parts kept), checking each part on disk
    against run.json's record of it (see the module doc)."""
    removed = remove_temporaries(deals_dir)
    if removed:
        log.info("removed %d unfinished temporary parts", removed)
    recorded = (stored or {}).get("parts")
    recorded = recorded if isinstance(recorded, dict) else {}
    rows_per_deal = len(config.policies)
    todo, kept = [], {}
    for chunk in chunks:
        path = part_path(deals_dir, chunk.index)
        record = recorded.get(path.name)
        if not path.exists():
            if record is not None:
                log.warning("%s: part %s is missing; playing the chunk again", chunk, path.name)
            todo.append(chunk)
            continue
        if record is not None:
            same = (isinstance(record, dict) and path.stat().st_size == record.get("bytes")
                    and sha256_of(path) == record.get("sha256"))
            if same:
                kept[path.name] = record
                continue
            log.warning("%s: part %s is not the one run.json records (truncated or altered); "
                        "playing the chunk again", chunk, path.name)
        elif part_is_valid(path, config.run_id, chunk.index, chunk.start, chunk.stop,
                           chunk.count * rows_per_deal):
            kept[path.name] = part_record(path, chunk.count, chunk.count * rows_per_deal)
            continue
        else:
            log.warning("%s: part %s is invalid; playing the chunk again", chunk, path.name)
        path.unlink()
        todo.append(chunk)
    return todo, kept


def run_record(config: SimConfig, stored: dict | None, chunk_size: int, n_chunks: int,
                attempt: dict) -> dict:
    """The content of run.json (earlier attempts of a resumed run are kept)."""
    attempts = list((stored or {}).get("attempts", []))
    attempts.append(attempt)
    return {
        "format": RUN_FORMAT,
        "run_id": config.run_id,
        "status": "running",
        "error": None,
        "command": attempt["command"],
        "argv": list(sys.argv),
        "replay_command": replay_command(config, chunk_size),
        "identity": config.identity(),
        "variant": config.rules.id,
        "rules": _rules_fields(config),
        "rules_version": config.identity()["rules_version"],
        "seed": config.seed,
        "n": config.n,
        "policies": list(config.policy_specs),
        "goal": config.goal,
        "workers": config.workers,
        "chunk_size": chunk_size,
        "chunks": n_chunks,
        "backend": config.backend,
        "scheduler": config.scheduler,
        "versions": versions(config.backend),
        "machine": {"platform": platform.platform(), "cpus": os.cpu_count()},
        "started": (stored or {}).get("started", attempt["started"]),
        "timings": None,
        "attempts": attempts,
    }
