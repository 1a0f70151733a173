"""The sampling player's twin, in plain Python on the reference engine and solver.

The same rule as ``kernels.players.sampling``, step for step: the chain endpoints of the
visible position (``chain_endpoints``, breadth-first), ``samples`` stock orders
shuffled from the unseen kinds by the same SplitMix64 stream and Fisher-Yates
swaps, each (endpoint, order) scored by the reference solver (``reference_solve``:
optimal strokes knowing that order, minus ``WIN_FIRST`` for a win), candidates
spent by successive halving, ranked by (mean score, longer chain, first found).

With the stock empty the kernel plays the exact solver's line; this twin plays the
first endpoint (breadth-first) with the fewest cards left, which is optimal too but
need not be the same line (optimal lines tie), so tests compare the two move for
move only while stock remains.
"""

from __future__ import annotations

from golfstats.board import Board
from golfstats.cards import JOKER_KIND, JOKERS
from golfstats.engine import DRAW, Position, playable_columns
from golfstats.reference.policies import SplitMix64, View, chain_endpoints
from golfstats.reference.solver import reference_solve
from golfstats.rules import Draw, Rules

WIN_FIRST = 100.0


def _a_card(kind: int) -> int:
    """Some card of ``kind`` (suits never matter): the club, or the joker."""
    return JOKERS[0] if kind == JOKER_KIND else kind - 1


def _orders(samples: int, view: View, rng: SplitMix64) -> list[list[int]]:
    pool = [k for k in range(16) for _ in range(view.unseen[k])]
    orders = []
    for _ in range(samples):
        for a in range(len(pool) - 1, 0, -1):
            b = rng.below(a + 1)
            pool[a], pool[b] = pool[b], pool[a]
        orders.append(list(pool))
    return orders


def _score(rules: Rules, end: Position, order: list[int]) -> float:
    if end.cards_left() == 0:
        return -float(len(order)) - WIN_FIRST
    board = Board(end.tableau, tuple(_a_card(k) for k in order[1:]), _a_card(order[0]))
    won, strokes = reference_solve(board, rules)
    return strokes - (WIN_FIRST if won else 0.0)


def sampling(rules: Rules, view: View, samples: int, rng: SplitMix64) -> list[int]:
    """The plan of the sampling player with ``samples`` orders in the visible position."""
    pos = view.position()
    ends = chain_endpoints(rules, pos)
    if view.n_left == 0:
        fewest = min(e.cards_left() for e, _ in ends)
        return next(line for e, line in ends if e.cards_left() == fewest)
    if rules.draw is Draw.WHEN_STUCK:
        ends = [(e, line) for e, line in ends if not playable_columns(rules, e)]
    if not ends:
        return []
    best = 0
    if len(ends) > 1:
        best = _halving(rules, ends, _orders(samples, view, rng), samples)
    end, line = ends[best]
    return line + ([DRAW] if end.cards_left() else [])


def _halving(rules: Rules, ends, orders, samples: int) -> int:
    totals = [0.0] * len(ends)
    done = [0] * len(ends)
    alive = set(range(len(ends)))

    def ranked() -> list[int]:
        return sorted(alive, key=lambda i: (totals[i] / done[i], -len(ends[i][1]), i))

    m = max(min(samples, 4), samples // 4)
    while True:
        for i in sorted(alive):
            while done[i] < m:
                totals[i] += _score(rules, ends[i][0], orders[done[i]])
                done[i] += 1
        if len(alive) <= 1 or m >= samples:
            break
        alive = set(ranked()[:(len(alive) + 1) // 2])
        m = min(samples, 2 * m)
    return ranked()[0]
