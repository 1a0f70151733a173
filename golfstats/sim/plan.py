"""What a simulation run is: its configuration, its identity and its chunks.

A run plays deals ``0 .. n-1`` of one seed with every policy (a paired design: each
policy sees the same deals).  The deals are cut into chunks of ``chunk_size``
consecutive indices; chunk ``c`` is one unit of work and one Parquet part on disk.
Because deal ``i`` depends only on ``(seed, i)`` (see ``golfstats.deals``), the rows
of a run do not depend on the chunk size, the worker count or the backend.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

from golfstats.deals import DEFAULT_SEED, MAX_SEED
from golfstats.goals import Goal
from golfstats.rules import RULES_VERSION, Rules

if TYPE_CHECKING:  # the command line imports this module for Backend; policies stay out
    from golfstats.policies import Policy

#: Seeds are stored as Int64.
#: A chunk is a unit of work, a Parquet part and the grain of resuming.
MAX_CHUNK_SIZE = 1_000_000
# At least this many chunks per worker when n is small, so every worker gets work.
_CHUNKS_PER_WORKER = 4


class Backend(StrEnum):
    """Where the chunks are played: ``local``, a process pool on this machine; ``dask``, a
    dask.distributed cluster."""

    LOCAL = "local"
    DASK = "dask"


class SimError(ValueError):
    """A simulation that cannot start (bad configuration, unusable output directory)
    or that stopped (a chunk failed, a worker died).  The message is one line."""


def _default_workers() -> int:
    return os.cpu_count() or 1


@dataclass(frozen=True)
class SimConfig:
    """One simulation run.

    ``out=None`` is ``default_out_dir(rules, n, seed)``.  ``chunk_size=None`` chooses it
    from the policies (large for the compiled players, small for the solver) and the
    worker count; on ``resume`` it is the stored run's.
    ``backend`` is ``local`` (a process pool of ``workers`` processes) or ``dask``
    (``scheduler`` is a dask.distributed address; ``None`` starts a local dask cluster
    of ``workers`` processes).  ``workers``, ``backend`` and ``scheduler`` never change
    the rows, so a run may be resumed with other values.  ``before_chunk`` (a picklable,
    module-level function of the ``Chunk``) runs in the worker before each chunk: a place
    for instrumentation and fault injection (the tests make chunks fail or a run die
    with it); it must not change the rows.
    """

    rules: Rules
    policies: tuple[Policy, ...]
    n: int
    seed: int = DEFAULT_SEED
    goal: Goal = Goal.STROKES
    workers: int = field(default_factory=_default_workers)
    chunk_size: int | None = None
    out: Path | None = None
    resume: bool = False
    backend: str = "local"
    scheduler: str | None = None
    before_chunk: Callable[[Chunk], None] | None = None

    def validate(self) -> None:
        """Raise ``SimError`` for a configuration that cannot run (checks no files)."""
        if not isinstance(self.n, int) or self.n <= 0:
            raise SimError(f"n must be a positive number of deals, not {self.n!r}")
        if not 0 <= self.seed <= MAX_SEED:
            raise SimError(f"seed must be between 0 and {MAX_SEED}, not {self.seed}")
        if not self.policies:
            raise SimError("give at least one policy")
        specs = [p.spec for p in self.policies]
        if len(set(specs)) != len(specs):
            raise SimError(f"a policy is given twice: {', '.join(specs)}")
        if self.goal not in tuple(Goal):
            raise SimError(f"goal must be strokes or win, not {self.goal!r}")
        if not isinstance(self.workers, int) or self.workers < 1:
            raise SimError(f"workers must be at least 1, not {self.workers}")
        if self.chunk_size is not None and not 1 <= self.chunk_size <= MAX_CHUNK_SIZE:
            raise SimError(f"chunk size must be between 1 and {MAX_CHUNK_SIZE:,}, "
                           f"not {self.chunk_size}")
        if self.backend not in tuple(Backend):
            raise SimError(f"backend must be {' or '.join(Backend)}, not {self.backend!r}")
        if self.scheduler and self.backend != Backend.DASK:
            raise SimError("--scheduler is only for --backend dask")

    @property
    def run_dir(self) -> Path:
        return Path(self.out) if self.out is not None else default_out_dir(self.rules, self.n,
                                                                           self.seed)

    @property
    def policy_specs(self) -> tuple[str, ...]:
        return tuple(p.spec for p in self.policies)

    def identity(self) -> dict:
        """What fixes the rows of the run: a resumed run must match it exactly."""
        return {"variant": self.rules.id, "rules_version": RULES_VERSION, "seed": self.seed,
                "n": self.n, "policies": list(self.policy_specs), "goal": self.goal}

    @property
    def run_id(self) -> str:
        """16 hex digits of a hash of ``identity()``: the same run always has the same id."""
        text = json.dumps(self.identity(), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def auto_chunk_size(policies, n: int, workers: int) -> int:
    """Deals per chunk: set by the slowest policy (its registry entry's ``chunk_size``:
    about 0.5-2 s of work, so process and Parquet overheads stay small and progress
    still moves), and small enough that each worker gets a few chunks of a small run."""
    by_policy = min(p.info.chunk_size for p in policies)
    spread = math.ceil(n / (_CHUNKS_PER_WORKER * max(workers, 1)))
    return max(1, min(by_policy, spread))


def default_out_dir(rules: Rules, n: int, seed: int, root: Path = Path("results/runs")) -> Path:
    """``results/runs/<variant>-n<N>-s<seed>``."""
    return root / f"{rules.id}-n{n}-s{seed}"


@dataclass(frozen=True)
class Chunk:
    """Deals ``start .. stop-1``: chunk ``index`` of a run."""

    index: int
    start: int
    stop: int

    @property
    def count(self) -> int:
        return self.stop - self.start

    def __str__(self) -> str:
        return f"chunk {self.index} (deals {self.start}-{self.stop - 1})"


def plan_chunks(n: int, chunk_size: int, first: int = 0) -> list[Chunk]:
    """The chunks of deals ``first .. n-1``, in order; they cover them exactly once."""
    return [Chunk(i, start, min(start + chunk_size, n))
            for i, start in enumerate(range(first, n, chunk_size))]


@dataclass(frozen=True)
class RunSpec:
    """What a worker needs to play a chunk (small and picklable)."""

    rules: Rules
    policies: tuple[Policy, ...]
    seed: int
    goal: Goal
    run_id: str
    rules_version: str
    deals_dir: str
    metadata: tuple[tuple[str, str], ...]  # Parquet key-value metadata of every part
    before_chunk: Callable[[Chunk], None] | None = None  # SimConfig.before_chunk
    keep_rows: bool = True  # write each chunk's rows as a part in ``deals_dir``
    tallies: bool = False  # report each chunk's tallies (``runs.tally``) in its ChunkDone

    def part_metadata(self, chunk: Chunk) -> dict[str, str]:
        """Parquet key-value metadata of a part: the run's, plus which deals it holds."""
        meta = dict(self.metadata)
        meta.update({"golfstats.chunk": str(chunk.index), "golfstats.deal_start": str(chunk.start),
                     "golfstats.deal_stop": str(chunk.stop)})
        return meta
