"""Stand-ins for the study's valuers of a whole deal (``study.optimum.value_deal`` and
``strokes_deal`` take seconds to minutes and gigabytes a deal): the plumbing is under test
where they are used; the values are test_odds', test_honest_twin's and test_play_orders'.
Their records pass the ledger's checks (``study.records.deal_problem``)."""

from __future__ import annotations

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
