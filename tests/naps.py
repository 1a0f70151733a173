"""A fan-out job for the memory tests of test_fanout (``sim.backends``): tasks that hold a
given share of their worker's memory for a moment and say which process did them and
when.  Module-level, so that the workers import it by name (``tests/`` is on their path)."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Nap:
    """A task that asks for ``need`` bytes of its worker's memory."""

    index: int
    need: int

    def __str__(self) -> str:
        return f"nap {self.index}"


@dataclass(frozen=True)
class NapJob:
    """Each task sleeps ``seconds`` and returns (pid, start, end)."""

    seconds: float = 0.4
    retries: int = 0
    inline: bool = False

    def warm_up(self, number, peers, on_compile) -> float:
        return 0.0

    def memory(self, task: Nap) -> int:
        return task.need

    def run(self, task: Nap, on_step=None, wanted=None) -> tuple[int, float, float]:
        started = time.time()
        time.sleep(self.seconds)
        return os.getpid(), started, time.time()

    def run_remote(self, task: Nap):
        return self.run(task)

    def finish(self, task: Nap, span):
        return span


def overlap(spans) -> bool:
    """Whether any two of the (pid, start, end) spans ran at the same time."""
    spans = sorted(spans, key=lambda s: s[1])
    return any(b[1] < a[2] for a, b in zip(spans, spans[1:], strict=False))


@dataclass(frozen=True)
class DyingNapJob(NapJob):
    """``NapJob``, but the first run of task ``dies_at`` kills its process outright (leaving
    the file ``marker``, so that it runs again without dying); ``retries`` as a valuation's."""

    marker: str = ""
    dies_at: int = 2
    retries: int = 2

    def run(self, task: Nap, on_step=None, wanted=None):
        from pathlib import Path

        if task.index == self.dies_at and not Path(self.marker).exists():
            Path(self.marker).write_text(str(os.getpid()))
            os.kill(os.getpid(), 9)
        return super().run(task)
