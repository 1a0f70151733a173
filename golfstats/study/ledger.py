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

Every record carries its digest and is checked when read (``study.records``): one that
cannot be believed is set aside, said, and played again.  A sitting holds the ledger's
lock (``sitting``, ``golfstats.locks``): one writer at a time.
"""

from __future__ import annotations

import contextlib
import json
import os
import platform
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

import polars as pl

from golfstats.goals import Goal
from golfstats.runs import Run, order
from golfstats.runs.tally import (
    PAIR_SCHEMA,
    TALLY_SCHEMA,
    merge_pair_tallies,
    merge_tallies,
    summary_of,
)
from golfstats.sim.plan import Chunk, plan_chunks
from golfstats.study.records import (
    chunk_problem,
    deal_problem,
    note_unsealed,
    open_record,
    plan_problem,
    report_to,
    say,
    say_once,
    sealed,
    set_aside,
    strokes_problem,
)

LEDGER = "ledger"
PLAN_FILE = "plan.json"
FORMAT = 1
#: This process's sitting: when it started (UTC) and on what kind of machine.
SITTING = {"started": datetime.now(UTC).isoformat(timespec="seconds"),
           "machine": f"{platform.machine()}, {os.cpu_count()} cpus, {platform.system()}"}


class LedgerError(ValueError):
    """A ledger that cannot be used (another process writes it; the message is one line)."""


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
                         n=self.n, seed=self.seed, goal=Goal.STROKES, workers=workers,
                         chunk_size=self.chunk_size)

    def identity(self) -> dict:
        return self.sim_config().identity()


def read_json(path: Path, ledger: Path | None = None) -> dict | None:
    """The record at ``path`` without its digest, or None: missing, or not to be believed
    (unreadable, or its digest not its content's: set aside and said, ``study.records``).
    ``ledger`` is the ledger's folder (default: ``path``'s)."""
    data, why = open_record(path)
    if why not in ("", "unsealed"):
        set_aside(ledger or path.parent, path, why)
        return None
    return data


def read_record(ledger: Path, path: Path, problem: Callable[[dict], str]
                ) -> tuple[dict | None, bool]:
    """(the record at ``path``, whether it is unsealed); None when it is missing or set
    aside (unreadable, altered, or ``problem(record)`` says why it is inconsistent)."""
    data, why = open_record(path)
    if data is not None and why in ("", "unsealed"):
        inconsistent = problem(data)
        if not inconsistent:
            return data, why == "unsealed"
        why = inconsistent
    if why:
        set_aside(ledger, path, why)
    return None, False


def read_plan(ledger: Path) -> dict | None:
    """``plan.json`` when it can be believed (else set aside, said: the study plans anew)."""
    data, _ = read_record(ledger, ledger / PLAN_FILE, plan_problem)
    return data


def read_valued(folder: Path) -> list[dict]:
    """The valued deals of an optimum's folder that can be believed, by deal index (the
    others set aside and said, so they are valued again)."""
    return read_deal_records(folder, "deal", deal_problem)


def read_deal_records(folder: Path, kind: str, problem: Callable[[dict, int, Path], str]
                      ) -> list[dict]:
    """The records ``KIND-NNNNNN.json`` of an optimum's folder that can be believed
    (``problem(record, NNNNNN, folder)`` says why one is inconsistent), by deal index; the
    others set aside and said, the unsealed ones counted in one line."""
    out, unsealed = [], 0
    for path in sorted(folder.glob(f"{kind}-*.json")):
        try:
            index = int(path.stem.split("-")[1])
        except (IndexError, ValueError):
            continue
        data, legacy = read_record(folder.parent, path, lambda d, i=index: problem(d, i, folder))
        if data is not None:
            out.append(data)
            unsealed += legacy
    note_unsealed(folder, unsealed)
    return out


def dumps(data: dict) -> str:
    """JSON with one line per top-level key and per row of a list of rows: small, and
    readable in a diff."""
    def value(v) -> str:
        if isinstance(v, list) and v and all(isinstance(r, dict) for r in v):
            return "[\n  " + ",\n  ".join(json.dumps(r, separators=(",", ":")) for r in v) + "]"
        return json.dumps(v, separators=(",", ":"))

    return "{\n" + ",\n".join(f"{json.dumps(k)}:{value(v)}" for k, v in data.items()) + "\n}\n"


def write_json(path: Path, data: dict) -> None:
    """With its digest (``study.records.sealed``), atomically (``golfstats.atomic``: a
    killed sitting or a full disk leaves whole files or none)."""
    from golfstats.atomic import write_text

    path.parent.mkdir(parents=True, exist_ok=True)
    write_text(path, dumps(sealed(data)))


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
    """The run's finished chunks in the ledger, by index.  A file that is unreadable,
    altered or inconsistent is set aside and said (``study.records``); one of another run
    or chunking is not used (said once per run); either way its chunk is played again."""
    identity = run.identity()
    out = {}
    unsealed = foreign = 0
    for chunk in run.chunks():
        want = [chunk.index, chunk.start, chunk.stop]

        def problem(data: dict, want=want) -> str:
            nonlocal foreign
            if (data.get("format") != FORMAT or data.get("identity") != identity
                    or data.get("chunk") != want):
                foreign += 1  # of another plan: not a record of this run to doubt
                return ""
            return chunk_problem(data)

        before = foreign
        data, legacy = read_record(ledger, chunk_path(ledger, run, chunk.index), problem)
        if data is None or foreign > before:
            continue
        unsealed += legacy
        out[chunk.index] = ChunkRecord(chunk, _frame(data["tally"], TALLY_SCHEMA),
                                       _frame(data["pairs"], PAIR_SCHEMA), float(data["seconds"]),
                                       data.get("sitting", {}))
    if foreign:
        say_once(("foreign", ledger / run.name),
                 f"ledger: {ledger / run.name}: {foreign} records of another run or chunking than "
                 "the plan's are not used (their chunks are played again, over them)")
    note_unsealed(ledger / run.name, unsealed)
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


def play_run(ledger: Path, run: PlannedRun, fanout, progress: bool,
             log_file: Path | None = None, note: Callable[[str], None] = lambda _m: None) -> None:
    """Play the run's chunks the ledger lacks on the study's workers (``fanout``,
    ``sim.backends``), writing each chunk's file here as it finishes.  Raises ``SimError``
    when a chunk fails (the finished chunks are kept)."""
    from golfstats.rules import RULES_VERSION
    from golfstats.sim.logs import run_logging
    from golfstats.sim.plan import RunSpec
    from golfstats.sim.progress import RunProgress
    from golfstats.sim.work import ChunkJob

    done = read_chunks(ledger, run)
    todo = [c for c in run.chunks() if c.index not in done]
    if not todo:
        return
    config = run.sim_config(fanout.slots)
    spec = RunSpec(config.rules, config.policies, run.seed, config.goal, config.run_id, RULES_VERSION,
                   "", (), keep_rows=False, tallies=True)
    sizes = {c.index: c for c in todo}
    held = sum(r.chunk.count for r in done.values())
    note(f"  {run.name}: {len(done)} of {len(run.chunks())} chunks in the ledger, {len(todo)} to play")
    with run_logging(log_file, "INFO"), \
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
        fanout.run(ChunkJob(spec), todo, on_done, bar.ready, bar.compiling)


@contextlib.contextmanager
def sitting(ledger: Path, note: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold the ledger's lock for a sitting (``LedgerError``, one line, when another
    process holds it) and say its problems through ``note``."""
    from golfstats.locks import LockError, hold

    try:
        ledger.mkdir(parents=True, exist_ok=True)
        lock = hold(ledger, f"the study's ledger {ledger}")
        lock.__enter__()
    except LockError as exc:
        raise LedgerError(str(exc)) from None
    before = report_to(note)
    try:
        yield
    finally:
        report_to(before)
        lock.__exit__(None, None, None)


def seal(ledger: Path) -> tuple[int, int, int]:
    """Give every consistent record of the ledger without a digest its digest (written
    before digests: the migration, docs/study-ledger.md); (sealed, already sealed, left:
    inconsistent or altered, each said in one line, to be set aside by the next sitting)."""
    done = kept = left = 0
    paths = [ledger / PLAN_FILE, *sorted(ledger.glob("*/chunk-*.json")),
             *sorted(ledger.glob("optimal-*/deal-*.json")),
             *sorted(ledger.glob("optimal-*/strokes-*.json"))]
    for path in paths:
        data, why = open_record(path)
        if data is None and not why:
            continue
        if why not in ("", "unsealed"):
            say(f"ledger: {path} {why}; left unsealed (the next sitting sets it aside)")
            left += 1
            continue
        if path.name == PLAN_FILE:
            problem = plan_problem(data)
        elif path.name.startswith("chunk-"):
            problem = chunk_problem(data)
        elif path.name.startswith("strokes-"):
            problem = strokes_problem(data, int(path.stem.split("-")[1]), path.parent)
        else:
            problem = deal_problem(data, int(path.stem.split("-")[1]), path.parent)
        if problem:
            say(f"ledger: {path} {problem}; left unsealed (the next sitting sets it aside)")
            left += 1
        elif why == "unsealed":
            write_json(path, data)
            done += 1
        else:
            kept += 1
    return done, kept, left
