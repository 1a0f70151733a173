"""Stand-ins for the study's valuers of a whole deal (``study.optimum.value_deal`` and
``strokes_deal`` take seconds to minutes and gigabytes a deal): the plumbing is under test
where they are used; the values are test_odds', test_honest_twin's and test_play_orders'.
Their records pass the ledger's checks (``study.records.deal_problem``)."""

from __future__ import annotations

import os
import signal

import numpy as np


def fake_value(variant: str, seed: int, index: int, orders: int, max_bytes: int = 0) -> dict:
    """A stand-in for ``study.optimum.value_deal`` (whole deals take seconds to minutes):
    its share a count of the orders, its play-outs winning none the share loses."""
    won = round((index * 7 % 10) / 10 * orders)  # a share that is a count of the orders,
    share = won / orders  # and play-outs that win no order the clairvoyant player loses
    return {"deal_index": index, "win_p": share * 0.4, "share": share, "resolved": True,
            "states": 1, "peak_bytes": 1, "seconds": 0.0,
            "order_strokes": [-(k % 2) if k < won // 2 else 1 + (index + k) % 6
                              for k in range(orders)]}


def fake_strokes(variant: str, seed: int, index: int, orders: int, max_bytes: int = 0) -> dict:
    """A stand-in for ``study.optimum.strokes_deal`` (a goal-strokes table of a real deal
    costs minutes and gigabytes): the perfect golfer one stroke under goal win's play-outs."""
    won = fake_value(variant, seed, index, orders)["order_strokes"]
    return {"deal_index": index, "expected_strokes": float(np.mean(won)) - 1, "win_p": 0.0,
            "resolved": True, "states": 1, "peak_bytes": 1, "max_bytes": max_bytes, "seconds": 0.0,
            "order_strokes": [s - 1 for s in won]}


def fake_warm(variants: tuple[str, ...], seed: int) -> None:
    """A stand-in for ``study.optimum.warm_deal_kernels``: the stand-in valuers need no kernels."""


#: The environment variable naming a folder: ``dying_value`` kills its worker once per
#: (variant, seed), leaving a file there that says it did.
DIE_ONCE = "GOLFSTATS_TEST_DIE_ONCE"
#: The deal whose valuation kills its worker.
DYING_DEAL = 5


def died_file(variant: str, seed: int):
    from pathlib import Path

    return Path(os.environ[DIE_ONCE]) / f"died-{variant}-s{seed}"


def dying_value(variant: str, seed: int, index: int, orders: int, max_bytes: int = 0) -> dict:
    """``fake_value``, but the first valuation of ``DYING_DEAL`` (of this variant and seed)
    kills its process outright, as the kernel's OOM killer or a lost machine would."""
    if index == DYING_DEAL and DIE_ONCE in os.environ and not died_file(variant, seed).exists():
        died_file(variant, seed).write_text(f"pid {os.getpid()}\n")
        os.kill(os.getpid(), signal.SIGKILL)
    return fake_value(variant, seed, index, orders, max_bytes)


def fake_win_p(board, rules) -> float | None:
    """A stand-in for ``course_search.honest_win_p`` (a deal's honest chance takes seconds
    to minutes): a chance fixed by the deal's cards, the same in every process; about one
    deal in 17 unresolved."""
    import zlib

    code = zlib.crc32(repr((board.tableau, board.stock)).encode())
    return None if code % 17 == 0 else (code % 1000) / 1000
