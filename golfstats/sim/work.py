"""One unit of work: play a chunk of deals with every policy, as rows of a polars frame.

Runs in a worker process (local pool or dask worker); imports numba kernels there.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import polars as pl

from golfstats.sim.plan import Chunk, RunSpec

log = logging.getLogger("golfstats.sim")

@dataclass(frozen=True)
class ChunkDone:
    """What a worker reports about a finished chunk (the rows are on disk)."""

    index: int
    rows: int
    seconds: float
    wins: tuple[int, ...] = ()  # per policy, in the run's order: deals won
    played: tuple[int, ...] = ()  # and deals played to the end (not truncated)
    #: The chunk's policy and pair tallies (``runs.tally``), when the run asks for them
    #: (``RunSpec.tallies``): what the study keeps of a chunk.
    tally: pl.DataFrame | None = None
    pairs: pl.DataFrame | None = None
    #: The part's record for run.json (``runs.write.part_record``, with its ``name``),
    #: when the rows were written.
    part: dict | None = None


def tally(rows: pl.DataFrame, specs: tuple[str, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(wins, deals played to the end) per policy spec of deal rows, in ``specs`` order."""
    counted = (rows.filter(~pl.col("truncated")).group_by(pl.col("policy").cast(pl.String))
               .agg(pl.col("won").sum().alias("wins"), pl.len().alias("played")))
    by_spec = {r["policy"]: (int(r["wins"]), int(r["played"])) for r in counted.iter_rows(named=True)}
    pairs = [by_spec.get(spec, (0, 0)) for spec in specs]
    return tuple(w for w, _ in pairs), tuple(n for _, n in pairs)


#: A player whose registry entry says it takes this many seconds a deal or more is played
#: deal by deal when the run wants to know which deal it is on (``play_chunk``'s
#: ``on_deal``); faster players play their chunk in one call and are told per chunk.
DEAL_BY_DEAL = 1.0
#: ``on_deal(chunk, policy spec, deal index or None)``: what a worker is on now.
OnDeal = Callable[[Chunk, str, int | None], None]


def _play_told(spec: RunSpec, policy, batch, chunk: Chunk, on_deal: OnDeal) -> dict:
    """``play_deals`` of ``batch``, saying first what is played: the chunk, or, for a slow
    player, each deal in turn (each deal's row is its own, however the batch is cut)."""
    import numpy as np

    from golfstats.deals import DealBatch
    from golfstats.policies import play_deals

    if policy.info.seconds_per_deal < DEAL_BY_DEAL or chunk.count == 1:
        on_deal(chunk, policy.spec, chunk.start if chunk.count == 1 else None)
        return play_deals(spec.rules, policy, batch, spec.goal)
    parts = []
    for k in range(chunk.count):
        on_deal(chunk, policy.spec, chunk.start + k)
        one = DealBatch(batch.start + k, batch.cards[k:k + 1], batch.keys[k:k + 1])
        parts.append(play_deals(spec.rules, policy, one, spec.goal))
    return {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}


def play_chunk(spec: RunSpec, chunk: Chunk, on_deal: OnDeal | None = None) -> pl.DataFrame:
    """Rows of ``chunk`` (``runs.DEAL_SCHEMA``): every policy on deals ``chunk.start ..
    chunk.stop-1``, policy by policy in ``spec.policies`` order, deals in index order.
    Same deals for every policy.  ``on_deal`` is told what is being played (``OnDeal``)."""
    from golfstats.deals import seeded_deals
    from golfstats.policies import play_deals
    from golfstats.runs.write import deal_rows

    if spec.before_chunk is not None:
        spec.before_chunk(chunk)
    batch = seeded_deals(spec.rules, spec.seed, chunk.start, chunk.count)
    results = []
    for policy in spec.policies:
        started = time.perf_counter()
        if on_deal is None:
            results.append((policy.spec, play_deals(spec.rules, policy, batch, spec.goal)))
        else:
            results.append((policy.spec, _play_told(spec, policy, batch, chunk, on_deal)))
        log.debug("%s: %s played %d deals in %.3f s", chunk, policy.spec, chunk.count,
                  time.perf_counter() - started)
    identity = {"run_id": spec.run_id, "seed": spec.seed, "variant": spec.rules.id,
                "rules_version": spec.rules_version}
    return deal_rows(results, np.arange(chunk.start, chunk.stop, dtype=np.int64), identity)


def warm_up(spec: RunSpec, number: int = 0, peers: int = 1,
            on_compile: Callable[[float], None] | None = None) -> float:
    """Load (or compile) the kernels of every policy in this process; returns seconds.

    On a cold cache (``compile_share``) the policies to compile are shared out among the
    ``peers`` workers that start together: worker ``number`` compiles its share first,
    then waits (``_WAIT``) for the others' shares to reach numba's cache, on the disk they
    share, and loads them, so each kernel is compiled once and the workers compile at the
    same time.  ``on_compile(seconds)`` is told, before, how long the whole compile
    should take (the largest share of the registry's ``compile_estimate``).
    """
    from golfstats.deals import seeded_deals
    from golfstats.policies import play_deals

    started = time.perf_counter()
    shares, seconds = compile_share(spec.rules, spec.policies, peers)
    if seconds and on_compile is not None:
        on_compile(seconds)
    mine = shares[number] if number < len(shares) else ()
    batch = seeded_deals(spec.rules, spec.seed, 0, 2)
    for policy in mine:
        log.debug("compiling the kernels of %s", policy.spec)
        play_deals(spec.rules, policy, batch, spec.goal)
    deadline = time.monotonic() + _WAIT * max(seconds, 10.0)
    for policy in (p for share in shares for p in share if p not in mine):
        while not _cached(spec.rules, policy) and time.monotonic() < deadline:
            time.sleep(0.25)
    for policy in spec.policies:
        play_deals(spec.rules, policy, batch, spec.goal)
    return time.perf_counter() - started


#: How long a worker waits for another's share of the compile, in units of the whole
#: compile's estimate, before it compiles that share itself.
_WAIT = 3.0


def _cached(rules, policy) -> bool:
    """Every kernel of ``policy`` is compiled (unknown counts as compiled)."""
    from golfstats.kernels import is_cached

    return all(is_cached(f) is not False for f in policy.info.strategy.kernels(policy, rules))


def compile_share(rules, policies, peers: int) -> tuple[list[tuple], float]:
    """The policies whose kernels are not in numba's cache, shared out among ``peers``
    workers: one tuple per worker (at most one per policy), the longest to compile
    first, each to the least loaded worker (the registry's ``compile_estimate``); and the
    largest share's seconds, the wall time of the compile (0 when nothing is cold).  Every
    worker computes the same shares."""
    cold = sorted((p for p in policies if not _cached(rules, p)),
                  key=lambda p: (-p.info.compile_estimate(rules), p.spec))
    if not cold:
        return [], 0.0
    shares: list[list] = [[] for _ in range(max(1, min(peers, len(cold))))]
    loads = [0.0] * len(shares)
    for policy in cold:
        k = loads.index(min(loads))
        shares[k].append(policy)
        loads[k] += policy.info.compile_estimate(rules)
    return [tuple(share) for share in shares], max(loads)


def play_and_write(spec: RunSpec, chunk: Chunk, on_deal: OnDeal | None = None,
                   wanted: Callable[[], bool] = lambda: True) -> ChunkDone | None:
    """Play ``chunk`` (telling ``on_deal`` what is played) and write its part atomically
    (local workers share the run's disk), unless the run keeps no rows
    (``RunSpec.keep_rows``).  ``wanted()`` is asked before the part is written: a worker
    whose run was killed meanwhile writes nothing (the run's next writer plays the chunk)
    and returns None."""
    from golfstats.runs.write import write_part

    started = time.perf_counter()
    rows = play_chunk(spec, chunk, on_deal)
    if not wanted():
        return None
    part = None
    if spec.keep_rows:
        part = write_part(rows, spec.deals_dir, chunk.index, spec.part_metadata(chunk))
    return chunk_done(spec, chunk, rows, time.perf_counter() - started, part)


def chunk_done(spec: RunSpec, chunk: Chunk, rows: pl.DataFrame, seconds: float,
               part: dict | None = None) -> ChunkDone:
    """The report of a chunk whose ``rows`` are written (or, without ``keep_rows``, dropped),
    with its tallies when ``spec.tallies`` asks for them."""
    from golfstats.runs.tally import pair_tallies
    from golfstats.runs.tally import tally as policy_tally

    specs = tuple(p.spec for p in spec.policies)
    wins, played = tally(rows, specs)
    if not spec.tallies:
        return ChunkDone(chunk.index, rows.height, seconds, wins, played, part=part)
    return ChunkDone(chunk.index, rows.height, seconds, wins, played, policy_tally(rows),
                     pair_tallies(rows, specs), part)


@dataclass(frozen=True)
class ChunkJob:
    """Simulate's chunks as a job of the fan-out (``sim.backends``): a local worker plays a
    chunk and writes its part on the disk the workers share (``play_and_write``); a dask
    worker returns the rows and this process writes the part (``finish``), so a cluster
    needs no shared disk.  Either way the result is the chunk's ``ChunkDone``.  A chunk
    whose worker died fails the run (the same command finishes it)."""

    spec: RunSpec
    retries: int = 0
    inline: bool = False

    def warm_up(self, number: int, peers: int, on_compile) -> float:
        return warm_up(self.spec, number, peers, on_compile)

    def memory(self, chunk: Chunk) -> int:
        return 0

    def run(self, chunk: Chunk, on_step, wanted) -> ChunkDone | None:
        return play_and_write(self.spec, chunk, on_step, wanted)

    def run_remote(self, chunk: Chunk) -> pl.DataFrame:
        return play_chunk(self.spec, chunk)

    def finish(self, chunk: Chunk, rows: pl.DataFrame) -> ChunkDone:
        from golfstats.runs.write import write_part

        started = time.perf_counter()
        part = None
        if self.spec.keep_rows:
            part = write_part(rows, self.spec.deals_dir, chunk.index, self.spec.part_metadata(chunk))
        return chunk_done(self.spec, chunk, rows, time.perf_counter() - started, part)
