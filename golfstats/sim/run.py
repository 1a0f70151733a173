"""Run a simulation: check everything, play the chunks not yet on disk, summarise.

Order of a run (``run_simulation``):

1. refuse a bad configuration before any work: ``SimConfig.validate``, the backend,
   the log file, the output directory (writable; no run there unless ``resume``, and
   then the same run);
2. take the folder's lock (``golfstats.locks``: one writer at a time; a second is
   refused in one line naming the first's pid);
3. write ``run.json`` (status ``running``), list the chunks whose part is missing or
   not the one run.json records (``sim.record.kept_parts``: a resumed run keeps every
   part whose bytes are the recorded ones, and removes temporaries);
4. play them on the backend; each part is written atomically as its chunk finishes, and
   run.json records it (its deals, rows, bytes and sha256) at once;
5. summarise every part by a lazy polars scan into ``summary.parquet``; ``run.json``
   gets status ``complete``, the summary's digest and the timings.

A failure (a chunk raising, a worker dying, a full disk, any exception once ``run.json``
is written, before the chunks start too) or Ctrl-C keeps the finished parts, marks
``run.json`` ``failed`` or ``interrupted`` and raises ``SimError`` (or
``KeyboardInterrupt``).  The same command, run again, continues a failed or interrupted
run of the same identity (as ``resume`` does), and a run left ``running`` whose lock's
holder is gone (its process killed outright): the lock says whether it still runs.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from golfstats.atomic import write_json
from golfstats.locks import LockError, has_content, hold
from golfstats.rules import RULES_VERSION
from golfstats.runs.schema import DEALS_DIR, RUN_JSON, SUMMARY, part_path
from golfstats.runs.summary import summarize_parts
from golfstats.runs.write import write_summary
from golfstats.sim.plan import Chunk, RunSpec, SimConfig, SimError, auto_chunk_size, plan_chunks
from golfstats.sim.record import (
    invoked_command,
    kept_parts,
    parquet_metadata,
    replay_command,
    run_record,
    versions,
)

__all__ = ["check_config", "parquet_metadata", "replay_command", "run_or_reuse", "run_simulation",
           "versions"]

log = logging.getLogger("golfstats.sim")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


# ------------------------------------------------------------------ checks

#: Statuses of a run that stopped (said so, or was killed while ``running``: its writer
#: is gone, since this process holds the folder's lock): the same command continues it.
_STOPPED = ("failed", "interrupted", "running")


def _check_out_dir(config: SimConfig) -> dict | None:
    """Refuse an unusable output directory; returns the stored run.json when resuming (or
    continuing a stopped run of the same identity, ``_STOPPED``)."""
    run_dir = config.run_dir
    if run_dir.exists() and not run_dir.is_dir():
        raise SimError(f"--out {run_dir} exists and is not a directory")
    stored = None
    if run_dir.is_dir() and has_content(run_dir):
        run_json = run_dir / RUN_JSON
        if not config.resume:
            stored = _stopped_run(config, run_json)
            if stored is None:
                what = "holds a run" if run_json.exists() else "exists and is not empty"
                raise SimError(f"{run_dir} {what}; pass --resume to finish or re-summarise it, "
                               "or choose another --out")
            how = "killed" if stored["status"] == "running" else stored["status"]
            log.info("%s: continuing the %s run there", run_dir, how)
        else:
            if not run_json.exists():
                raise SimError(f"--resume: {run_dir} is not a golfstats run (no {RUN_JSON})")
            try:
                stored = json.loads(run_json.read_text())
            except (OSError, ValueError) as exc:
                raise SimError(f"--resume: cannot read {run_json}: {exc}") from exc
            _check_same_run(config, stored)
    try:
        run_dir.mkdir(parents=True, exist_ok=True)
        probe = run_dir / f".write-test-{os.getpid()}"
        probe.write_text("ok")
        probe.unlink()
    except OSError as exc:
        raise SimError(f"cannot write --out {run_dir}: {exc.strerror or exc}") from exc
    return stored


def _stopped_run(config: SimConfig, run_json: Path) -> dict | None:
    """The stored run.json when it records a failed, interrupted or killed run that
    ``config`` continues as it is (same identity, same chunk size if one is given), else None."""
    try:
        stored = json.loads(run_json.read_text())
        if stored.get("status") not in _STOPPED:
            return None
        _check_same_run(config, stored)
    except (OSError, ValueError):  # SimError is a ValueError: another run, another chunk size
        return None
    return stored


def _check_same_run(config: SimConfig, stored: dict) -> None:
    ours, theirs = config.identity(), stored.get("identity", {})
    diffs = [f"{key} {theirs.get(key)!r} there, {value!r} here"
             for key, value in ours.items() if theirs.get(key) != value]
    if diffs:
        raise SimError(f"--resume: {config.run_dir} holds another run ({'; '.join(diffs)})")
    if config.chunk_size is not None and config.chunk_size != stored.get("chunk_size"):
        raise SimError(f"--resume: the run in {config.run_dir} uses chunks of "
                       f"{stored.get('chunk_size')} deals, not {config.chunk_size}")


def check_config(config: SimConfig) -> None:
    """Everything that can be refused without touching the disk."""
    config.validate()
    if config.backend == "dask":
        from golfstats.sim.backends import dask_available

        if not dask_available():
            raise SimError("the dask backend needs dask.distributed: "
                           "pip install 'golfstats[dask]'")


# ------------------------------------------------------------------ running

def _kept_tally(config: SimConfig, chunks: list[Chunk], todo: list[Chunk], deals_dir: Path):
    """(wins, deals played to the end) per policy in the parts a resumed run keeps."""
    import polars as pl

    from golfstats.sim.work import tally

    playing = {c.index for c in todo}
    kept = [str(part_path(deals_dir, c.index)) for c in chunks if c.index not in playing]
    rows = pl.read_parquet(kept, columns=["policy", "won", "truncated"])
    return tally(rows, config.policy_specs)


def run_or_reuse(config: SimConfig, *, progress: bool = True,
                 log_file: Path | str | None = None, log_level: int | str = "INFO",
                 fanout=None) -> Path:
    """The run of ``config``: reused if its directory holds it complete, finished if it holds
    it in part (resumed), else made.  What ``golfstats par`` and the study call (the study
    on its open workers, ``fanout``: see ``run_simulation``)."""
    run_dir = config.run_dir
    if (run_dir / SUMMARY).is_file() and (run_dir / RUN_JSON).is_file():
        try:
            stored = json.loads((run_dir / RUN_JSON).read_text())
        except (OSError, ValueError):
            stored = {}
        if stored.get("status") == "complete" and stored.get("identity") == config.identity():
            return run_dir
    resume = run_dir.is_dir() and has_content(run_dir)
    return run_simulation(replace(config, resume=resume), progress=progress, log_file=log_file,
                          log_level=log_level, fanout=fanout)


def run_simulation(config: SimConfig, *, progress: bool = True,
                   log_file: Path | str | None = None, log_level: int | str = "INFO",
                   on_start: Callable[[], None] | None = None, fanout=None) -> Path:
    """Run (or, with ``config.resume``, finish) a simulation; returns the run directory.
    ``fanout``: workers already open (``sim.backends.open_workers``, of ``config.backend``)
    to play the chunks on, instead of opening those ``config`` names.

    Raises ``SimError`` (one-line message) for a configuration refused before any work,
    and for a run that stopped (the finished parts are kept; resume finishes it).
    """
    check_config(config)
    run_dir = config.run_dir
    created = not run_dir.exists()
    try:
        if run_dir.exists() and not run_dir.is_dir():
            raise SimError(f"--out {run_dir} exists and is not a directory")
        try:
            run_dir.mkdir(parents=True, exist_ok=True)
            lock = hold(run_dir, f"the run folder {run_dir}")
            lock.__enter__()
        except OSError as exc:
            raise SimError(f"cannot write --out {run_dir}: {exc.strerror or exc}") from exc
        except LockError as exc:
            raise SimError(str(exc)) from None
        try:
            return _locked(config, progress, log_file, log_level, on_start, fanout)
        finally:
            lock.__exit__(None, None, None)
    except SimError:
        if created and not (run_dir / RUN_JSON).exists():
            with contextlib.suppress(OSError):  # refused before the run began: leave no trace
                run_dir.rmdir()
        raise


def _locked(config: SimConfig, progress: bool, log_file, log_level, on_start, fanout) -> Path:
    """``run_simulation`` once this process holds the run folder's lock."""
    from golfstats.sim.backends import open_workers
    from golfstats.sim.logs import run_logging

    stored = _check_out_dir(config)
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(run_logging(log_file, log_level))
        except (OSError, ValueError, TypeError) as exc:
            raise SimError(f"cannot log to {log_file} at level {log_level}: {exc}") from exc
        if fanout is None:
            fanout = stack.enter_context(open_workers(config.backend, config.workers,
                                                      config.scheduler, log_level))
        if on_start is not None:
            on_start()
        return _run(config, stored, fanout, progress)


def _run(config: SimConfig, stored: dict | None, fanout, progress: bool) -> Path:
    started_wall = time.perf_counter()
    run_dir = config.run_dir
    chunk_size = (config.chunk_size or (stored or {}).get("chunk_size")
                  or auto_chunk_size(config.policies, config.n, config.workers))
    chunks = plan_chunks(config.n, chunk_size)
    deals_dir = run_dir / DEALS_DIR
    try:
        deals_dir.mkdir(exist_ok=True)
        todo, parts = kept_parts(config, chunks, deals_dir, stored)
    except OSError as exc:
        raise SimError(f"cannot write --out {run_dir}: {exc.strerror or exc}") from exc
    attempt = {"started": _now(), "command": invoked_command(), "workers": config.workers,
               "backend": config.backend, "chunks_played": 0,
               "chunks_kept": len(chunks) - len(todo), "status": "running"}
    record = run_record(config, stored, chunk_size, len(chunks), attempt)
    record["parts"] = parts
    try:
        write_json(run_dir / RUN_JSON, record)
    except OSError as exc:
        raise SimError(f"cannot write {run_dir / RUN_JSON}: {exc.strerror or exc}") from exc
    log.info("%s: %s, n=%d, seed %d, %s; %d chunks of %d deals (%d to play), %d %s workers",
             run_dir, config.rules.id, config.n, config.seed, ", ".join(config.policy_specs),
             len(chunks), chunk_size, len(todo), config.workers, config.backend)
    try:
        timings = _play_and_summarize(config, fanout, progress, chunks, todo, attempt, record,
                                      started_wall)
    except BaseException as exc:
        # whatever stopped the run, and wherever: say so in run.json, so that the same
        # command continues it (``_stopped_run``), and keep the finished parts
        interrupted = isinstance(exc, KeyboardInterrupt)
        attempt["status"] = record["status"] = "interrupted" if interrupted else "failed"
        record["error"] = "interrupted" if interrupted else _error_text(exc)
        attempt["finished"] = _now()
        unmarked = ""
        try:
            write_json(run_dir / RUN_JSON, record)
        except OSError as again:  # a full disk: run.json stays "running", its lock says the rest
            unmarked = f" (run.json could not be marked {record['status']}: {again.strerror or again})"
        if interrupted:
            raise
        if isinstance(exc, SimError):
            what = str(exc)
        elif isinstance(exc, OSError):
            what = f"cannot write the run in {run_dir}: {record['error']}"
        else:
            what = f"internal error: {record['error']}"
        log.debug("the run stopped", exc_info=exc)
        kept = len(chunks) - len(todo) + attempt["chunks_played"]
        raise SimError(f"{what}; {kept} of {len(chunks)} chunks are kept in {deals_dir}{unmarked}; "
                       "run the same command again (or with --resume) to finish") from exc
    attempt.update(status="complete", finished=_now())
    record.update(status="complete", error=None, timings=timings)
    try:
        write_json(run_dir / RUN_JSON, record)
    except OSError as exc:
        raise SimError(f"cannot write {run_dir / RUN_JSON}: {exc.strerror or exc}; every part "
                       "is kept: run the same command again to finish") from exc
    return run_dir


def _error_text(exc: BaseException) -> str:
    """An exception in one line (an OSError as its reason and file)."""
    if isinstance(exc, OSError) and exc.strerror:
        where = f": {exc.filename}" if exc.filename else ""
        return f"{exc.strerror}{where}"
    return f"{type(exc).__name__}: {exc}"


def _play_and_summarize(config: SimConfig, fanout, progress: bool, chunks: list[Chunk],
                        todo: list[Chunk], attempt: dict, record: dict, started_wall: float) -> dict:
    """Play the chunks of ``todo`` (``attempt`` counts them, ``record`` gets each part's
    record and is written as run.json at once), then write the summary; returns the run's
    timings."""
    from golfstats.sim.progress import RunProgress
    from golfstats.sim.work import ChunkJob

    run_dir = config.run_dir
    deals_dir = run_dir / DEALS_DIR
    spec = RunSpec(config.rules, config.policies, config.seed, config.goal, config.run_id,
                   RULES_VERSION, str(deals_dir), tuple(parquet_metadata(config).items()),
                   config.before_chunk)
    timing = {"ready": None, "last_chunk": None}
    deals_done = [0]
    done_deals = config.n - sum(c.count for c in todo)
    sizes = {c.index: c.count for c in chunks}
    with RunProgress(config.n, done_deals, config.rules.id, progress,
                     config.policy_specs) as bar:
        if progress and done_deals:  # a resumed run: the kept parts' wins count from the start
            bar.count(*_kept_tally(config, chunks, todo, deals_dir))

        def on_compile(seconds: float) -> None:
            log.debug("compiling the kernels, about %.0f s", seconds)
            bar.compiling(seconds)

        def on_ready() -> None:
            timing["ready"] = time.perf_counter()
            bar.ready()

        def on_done(done) -> None:
            if done.part is not None:
                record["parts"][done.part["name"]] = {k: v for k, v in done.part.items()
                                                      if k != "name"}
                record["parts"] = dict(sorted(record["parts"].items()))
                write_json(run_dir / RUN_JSON, record)
            attempt["chunks_played"] += 1
            deals_done[0] += sizes[done.index]
            timing["last_chunk"] = time.perf_counter()
            bar.advance(sizes[done.index])
            bar.count(done.wins, done.played)
            log.debug("chunk %d done: %d rows in %.3f s", done.index, done.rows, done.seconds)

        if todo:
            bar.starting()
        fanout.run(ChunkJob(spec), todo, on_done, on_ready, on_compile, bar.playing)
        bar.ready()
    summary_started = time.perf_counter()
    played_until = timing["last_chunk"] or summary_started
    paths = [part_path(deals_dir, c.index) for c in chunks]
    missing = [p.name for p in paths if not p.exists()]
    if missing:
        raise SimError(f"parts missing after the run: {', '.join(missing[:5])}")
    summary = summarize_parts(paths)
    record["summary"] = write_summary(summary, run_dir / SUMMARY, parquet_metadata(config))
    finished = time.perf_counter()
    ready = timing["ready"] or played_until
    playing = max(played_until - ready, 1e-9)
    log.info("done: %d deals played in %.1f s (%.0f deals/s), summary in %s", deals_done[0],
             playing, deals_done[0] / playing, run_dir / SUMMARY)
    return {
        "wall_seconds": round(finished - started_wall, 3),
        "startup_seconds": round(ready - started_wall, 3),
        "play_seconds": round(playing, 3),
        "shutdown_seconds": round(summary_started - played_until, 3),
        "summary_seconds": round(finished - summary_started, 3),
        "deals_played": deals_done[0],
        "deals_per_second": round(deals_done[0] / playing, 1) if deals_done[0] else None,
    }
