"""The study's ledger: its finished work, kept in the repository (``results/ledger/``),
so that ``golfstats study`` on a fresh clone, on this machine or another, continues where
the last sitting stopped and gives the figures of one uninterrupted run.

::

    ledger/plan.json                          the plan: sizes, chunk sizes, the pilots
    ledger/RUN/chunk-000012.json              one finished chunk of a planned run
    ledger/optimal-VARIANT-sSEED-kK/deal-000007.json   one deal valued by the optimum

A chunk file holds the chunk's tallies (``runs.tally``: per policy the counts and sums
every summary figure is made from, per pair of policies what a paired comparison and
match play are made from), never its deal rows; merging chunks is addition.  Deal ``i``
depends only on (seed, i), so a chunk played anywhere gives the same tallies; the same
chunk played twice (two machines) gives the same file.  The format is documented in
docs/study-ledger.md.
"""

from __future__ import annotations

import json
import os
import platform
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

import polars as pl

from golfstats.runs import Run, order
from golfstats.runs.tally import (
    PAIR_SCHEMA,
    TALLY_SCHEMA,
    merge_pair_tallies,
    merge_tallies,
    summary_of,
)
from golfstats.sim.plan import Chunk, plan_chunks

LEDGER = "ledger"
PLAN_FILE = "plan.json"
FORMAT = 1
#: This process's sitting: when it started (UTC) and on what kind of machine.
SITTING = {"started": datetime.now(UTC).isoformat(timespec="seconds"),
           "machine": f"{platform.machine()}, {os.cpu_count()} cpus, {platform.system()}"}


class LedgerError(ValueError):
    """A ledger that cannot be used (an unreadable plan)."""


@dataclass(frozen=True)
class PlannedRun:
    """One run of the study: ``policies`` on deals first..n-1 of ``seed``, in chunks of
    ``chunk_size`` (a multiple of 18, so that rounds of 9 and 18 holes never straddle
    two chunks and the chunks' match play adds up to the run's).  ``first`` is 0 but for
    a record run, which continues its rule set's main run (deals first..n-1 played by
    one player, their tallies added to the main run's)."""

    name: str
    variant: str
    policies: tuple[str, ...]
    n: int
    seed: int
    chunk_size: int
    first: int = 0

    @property
    def count(self) -> int:
        """The deals the run plays."""
        return self.n - self.first

    def chunks(self) -> list[Chunk]:
        return plan_chunks(self.n, self.chunk_size, self.first)

    def sim_config(self, workers: int = 1):
        from golfstats.policies import policies_from_names
        from golfstats.rules import parse_variant
        from golfstats.sim import SimConfig

        return SimConfig(rules=parse_variant(self.variant), policies=policies_from_names(self.policies),
                         n=self.n, seed=self.seed, goal="strokes", workers=workers,
                         chunk_size=self.chunk_size)

    def identity(self) -> dict:
        return self.sim_config().identity()


def read_json(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def dumps(data: dict) -> str:
    """JSON with one line per top-level key and per row of a list of rows: small, and
    readable in a diff."""
    def value(v) -> str:
        if isinstance(v, list) and v and all(isinstance(r, dict) for r in v):
            return "[\n  " + ",\n  ".join(json.dumps(r, separators=(",", ":")) for r in v) + "]"
        return json.dumps(v, separators=(",", ":"))

    return "{\n" + ",\n".join(f"{json.dumps(k)}:{value(v)}" for k, v in data.items()) + "\n}\n"


def write_json(path: Path, data: dict) -> None:
    """Atomically: a temporary file, then a rename (a killed sitting leaves whole files)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(dumps(data))
    os.replace(tmp, path)


def chunk_path(ledger: Path, run: PlannedRun, index: int) -> Path:
    return ledger / run.name / f"chunk-{index:06d}.json"


def _rows(frame: pl.DataFrame) -> list[dict]:
    """Rows for JSON: a stroke histogram as [[strokes, count], ...]."""
    rows = frame.to_dicts()
    for row in rows:
        if "stroke_hist" in row:
            row["stroke_hist"] = [[h["strokes"], h["count"]] for h in row["stroke_hist"]]
    return rows


def _frame(rows: list[dict], schema: dict) -> pl.DataFrame:
    for row in rows:
        if "stroke_hist" in row:
            row["stroke_hist"] = [{"strokes": s, "count": c} for s, c in row["stroke_hist"]]
    return pl.DataFrame(rows, schema=schema, orient="row") if rows else pl.DataFrame(schema=schema)


def write_chunk(ledger: Path, run: PlannedRun, chunk: Chunk, tally: pl.DataFrame, pairs: pl.DataFrame,
                seconds: float) -> Path:
    path = chunk_path(ledger, run, chunk.index)
    write_json(path, {"format": FORMAT, "run": run.name, "identity": run.identity(),
                      "chunk": [chunk.index, chunk.start, chunk.stop], "seconds": round(seconds, 3),
                      "sitting": SITTING, "tally": _rows(tally), "pairs": _rows(pairs)})
    return path


@dataclass(frozen=True)
class ChunkRecord:
    chunk: Chunk
    tally: pl.DataFrame
    pairs: pl.DataFrame
    seconds: float
    sitting: dict


def read_chunks(ledger: Path, run: PlannedRun) -> dict[int, ChunkRecord]:
    """The run's finished chunks in the ledger, by index.  A file that is unreadable, of
    another run or of another chunking is ignored (its chunk is played again)."""
    identity = run.identity()
    out = {}
    for chunk in run.chunks():
        data = read_json(chunk_path(ledger, run, chunk.index))
        if (data is None or data.get("format") != FORMAT or data.get("identity") != identity
                or data.get("chunk") != [chunk.index, chunk.start, chunk.stop]):
            continue
        out[chunk.index] = ChunkRecord(chunk, _frame(data["tally"], TALLY_SCHEMA),
                                       _frame(data["pairs"], PAIR_SCHEMA), float(data["seconds"]),
                                       data.get("sitting", {}))
    return out


@dataclass(frozen=True)
class RunTallies:
    """A planned run as the ledger holds it: its tallies merged in chunk order."""

    run: PlannedRun
    tally: pl.DataFrame
    pairs: pl.DataFrame
    chunks_done: int
    chunks: int
    deals_done: int
    seconds: float  # one core's seconds over its finished chunks
    sittings: tuple[str, ...]  # when the sittings that played its chunks started (UTC)
    machines: tuple[str, ...]  # and on what kind of machine

    @property
    def complete(self) -> bool:
        return self.chunks_done == self.chunks

    def plus(self, other: RunTallies) -> RunTallies:
        """These tallies with ``other``'s (a record run continuing this one) added: the
        policies they share rest on both runs' deals; pairs stay this run's."""
        return replace(self, tally=merge_tallies([self.tally, other.tally]),
                       seconds=self.seconds + other.seconds,
                       sittings=tuple(sorted(set(self.sittings) | set(other.sittings))),
                       machines=tuple(sorted(set(self.machines) | set(other.machines))))

    def as_run(self, ledger: Path) -> Run:
        """A ``runs.Run`` without deal rows (what reports read)."""
        info = {"n": self.run.n, "variant": self.run.variant, "seed": self.run.seed,
                "policies": list(self.run.policies)}
        return Run(ledger / self.run.name, order(summary_of(self.tally)), info, ())


def run_tallies(ledger: Path, run: PlannedRun) -> RunTallies:
    records = [r for _, r in sorted(read_chunks(ledger, run).items())]
    return RunTallies(run, merge_tallies([r.tally for r in records]),
                      merge_pair_tallies([r.pairs for r in records]), len(records), len(run.chunks()),
                      sum(r.chunk.count for r in records), sum(r.seconds for r in records),
                      tuple(sorted({r.sitting.get("started", "") for r in records} - {""})),
                      tuple(sorted({r.sitting.get("machine", "") for r in records} - {""})))


def play_run(ledger: Path, run: PlannedRun, workers: int, progress: bool,
             log_file: Path | None = None, note: Callable[[str], None] = lambda _m: None) -> None:
    """Play the run's chunks the ledger lacks on the local process pool (``sim.backends``),
    writing each chunk's file as it finishes.  Raises ``SimError`` when a chunk fails (the
    finished chunks are kept)."""
    from golfstats.rules import RULES_VERSION
    from golfstats.sim.backends import open_backend
    from golfstats.sim.logs import run_logging
    from golfstats.sim.plan import RunSpec
    from golfstats.sim.progress import RunProgress

    done = read_chunks(ledger, run)
    todo = [c for c in run.chunks() if c.index not in done]
    if not todo:
        return
    config = run.sim_config(workers)
    spec = RunSpec(config.rules, config.policies, run.seed, config.goal, config.run_id, RULES_VERSION,
                   "", (), keep_rows=False, tallies=True)
    sizes = {c.index: c for c in todo}
    held = sum(r.chunk.count for r in done.values())
    note(f"  {run.name}: {len(done)} of {len(run.chunks())} chunks in the ledger, {len(todo)} to play")
    with run_logging(log_file, "INFO"), open_backend("local", workers, None, "INFO") as play, \
            RunProgress(run.count, held, run.name, progress, run.policies) as bar:
        if done:
            merged = merge_tallies([r.tally for r in done.values()]).to_dicts()
            by_policy = {r["policy"]: r for r in merged}
            bar.count([by_policy[p]["wins"] for p in run.policies],
                      [by_policy[p]["n"] - by_policy[p]["truncated"] for p in run.policies])

        def on_done(report) -> None:
            chunk = sizes[report.index]
            write_chunk(ledger, run, chunk, report.tally, report.pairs, report.seconds)
            bar.advance(chunk.count)
            bar.count(report.wins, report.played)

        bar.starting()
        play(spec, todo, on_done, bar.ready, bar.compiling)
