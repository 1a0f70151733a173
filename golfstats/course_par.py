"""A hole's par on a course card (docs/rules.md, "Par"): what the reference player is
expected to score on that deal over its unknown stock order.

For a player whose rows carry the deal's exact ``expected_strokes`` (the perfect golfer,
``optimal:goal=strokes``) the expectation is that value, exact.  For any other player it
is the mean of its strokes over ``orders`` stock orders of the deal (the same tableau and
start card, the stock shuffled), drawn reproducibly from a generator seeded by (seed,
deal index, orders, stream): stream 0 sets the par, stream 1 draws as many fresh orders
on which the player's mean is measured again, independently (``HoleValue.check``), so a
course can show that the player averages its par within noise.  ``course_par`` and
``hole_pars`` turn the holes' expectations into the card's whole strokes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from golfstats.rules import Rules

if TYPE_CHECKING:  # the command line reads PAR_ORDERS from here: numpy stays out
    import numpy as np

    from golfstats.policies import Policy

#: Stock orders per hole when the expectation is measured (``course --orders``): the
#: reference player's mean over them has a standard error of about 0.16 strokes a hole
#: (lookahead, 18 holes of seed 2026 under strict, queens-on-kings and a house rule).
PAR_ORDERS = 400
#: The streams of stock orders: the par's, and the check's (independent of it).
PAR_STREAM, CHECK_STREAM = 0, 1


def par_player(text: str) -> Policy:
    """The player named ``text`` where par is concerned: ``optimal`` without a goal is the
    perfect golfer (``PERFECT_GOLFER``, the fewest expected strokes); ``PolicyError`` for
    an unknown name."""
    from golfstats.policies import PERFECT_GOLFER, parse_policy

    policy, perfect = parse_policy(text), parse_policy(PERFECT_GOLFER)
    return perfect if policy.info is perfect.info and ":" not in text else policy


def course_par(expectations) -> int:
    """The par of a course: the sum of its holes' expected strokes, rounded (halves up)."""
    import numpy as np

    return math.floor(float(np.sum(expectations)) + 0.5)


def hole_pars(expectations) -> np.ndarray:
    """Whole-stroke pars of a course's holes that add up to ``course_par``: each hole's
    expectation rounded down, and one stroke more for the holes with the largest
    remainders (ties: the earlier hole) until the sum is the course's par."""
    import numpy as np

    e = np.asarray(expectations, np.float64)
    base = np.floor(e)
    short = course_par(e) - int(base.sum())
    order = np.argsort(-(e - base), kind="stable")
    base[order[:short]] += 1
    return base.astype(np.int64)


class NoExpectation(ValueError):
    """The player values no expected strokes and cannot be measured on stock orders."""


@dataclass(frozen=True)
class HoleValue:
    """One hole's expected strokes for the reference player: ``expected`` (exact, or
    the mean over ``orders`` stock orders with standard deviation ``sd`` of one
    play-out), and ``check``, the mean over as many fresh orders (NaN when exact)."""

    expected: float
    exact: bool
    orders: int = 0
    sd: float = math.nan
    check: float = math.nan


def stock_orders(cards: np.ndarray, stock: int, seed: int, index: int, orders: int,
                 stream: int = PAR_STREAM) -> tuple[np.ndarray, np.ndarray]:
    """``orders`` copies of one deal's cards (layout order: the stock is the last
    ``stock`` cards) with the stock shuffled, and a player key per copy, drawn from a
    generator seeded by (seed, index, orders, stream)."""
    import numpy as np

    rng = np.random.default_rng([seed, index, orders, stream])
    out = np.repeat(np.asarray(cards)[None, :], orders, axis=0)
    if stock:
        perm = np.argsort(rng.random((orders, stock)), axis=1)
        out[:, -stock:] = out[0, -stock:][perm]
    keys = rng.integers(0, 2**63 - 1, size=orders, dtype=np.int64)
    return out, keys


def exact_values(policy: Policy) -> bool:
    """The player's rows carry each deal's exact expected strokes (``optimal``)."""
    return "expected_strokes" in policy.info.values


def hole_values(rules: Rules, policy: Policy, seed: int, indices, cards: np.ndarray,
                keys: np.ndarray, orders: int = PAR_ORDERS) -> list[HoleValue]:
    """The expected strokes of ``policy`` on each deal (``cards[i]`` is deal
    ``indices[i]`` of ``seed``, ``keys[i]`` its key): exact when the player values them
    (``NoExpectation`` when its goal leaves them out), else measured on ``orders`` stock
    orders and checked on as many fresh ones."""
    import numpy as np

    from golfstats.deals import DealBatch, board_from_cards
    from golfstats.policies import play_deals

    cards = np.asarray(cards)
    if exact_values(policy):
        played = play_deals(rules, policy, DealBatch(0, cards, np.asarray(keys, np.int64)))
        expected = np.array([math.nan if e is None else float(e) for e in played["expected_strokes"]])
        if not np.isfinite(expected).all():
            raise NoExpectation(f"{policy.spec} values no expected strokes on some deal (its goal "
                                "plays for the win alone, or a deal was too large to value): par "
                                "needs them; name optimal (the perfect golfer, goal strokes)")
        return [HoleValue(float(e), True) for e in expected]
    if orders < 1:
        raise ValueError("a hole's par needs at least one stock order")
    stock = len(board_from_cards(rules, cards[0]).stock) if len(cards) else 0
    batches = [stock_orders(c, stock, seed, int(i), orders, s)
               for c, i in zip(cards, indices, strict=True) for s in (PAR_STREAM, CHECK_STREAM)]
    played = play_deals(rules, policy, DealBatch(0, np.concatenate([b[0] for b in batches]),
                                                 np.concatenate([b[1] for b in batches])))
    strokes = np.asarray(played["strokes"], np.float64).reshape(len(cards), 2, orders)
    return [HoleValue(float(s[0].mean()), False, orders, float(s[0].std(ddof=1)) if orders > 1
                      else math.nan, float(s[1].mean())) for s in strokes]
