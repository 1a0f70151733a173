"""Slow, plain twins of the compiled players, on the reference engine.

Each twin decides from the visible position only: ``View`` holds the engine
position's tableau and top, the number of stock cards left and the multiset of
their kinds.  It returns the same *plan* as the kernel (a chain of plays, maybe
then a draw), with the same tie-breaks, so that a play-out through the engine
must match the compiled play-out move for move (``tests/test_policies.py``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from golfstats.cards import JOKER_KIND, kind
from golfstats.engine import (
    DRAW,
    Line,
    Position,
    Top,
    apply,
    legal_moves,
    playable_columns,
    score_moves,
)
from golfstats.rules import Draw, Rules

WIN = 1000.0
MASK64 = (1 << 64) - 1


@dataclass(frozen=True)
class View:
    """What a player sees: everything but the order of the stock."""

    tableau: tuple[tuple[int, ...], ...]
    top: Top
    n_left: int
    unseen: Counter  # kind -> how many of the stock cards are of that kind

    @staticmethod
    def of(pos: Position) -> View:
        return View(pos.tableau, pos.top, len(pos.stock), Counter(kind(c) for c in pos.stock))

    def position(self) -> Position:
        """A position with a stand-in stock of the right size (never drawn from by a twin)."""
        return Position(self.tableau, (0,) * self.n_left, self.top)


def _signature(rules: Rules, top: Top) -> frozenset:
    nxt = top.after(rules, JOKER_KIND)
    return frozenset() if nxt is None else nxt.meanings


def _heights(pos: Position) -> tuple[int, ...]:
    return tuple(len(col) for col in pos.tableau)


def greedy(rules: Rules, view: View) -> list[int]:
    """Play whenever possible (the tallest column, then the leftmost), else draw."""
    pos = view.position()
    plays = playable_columns(rules, pos)
    if plays:
        return [max(plays, key=lambda c: (len(pos.tableau[c]), -c))]
    return [DRAW] if view.n_left else []


class SplitMix64:
    """The kernels' counter-based generator (``kernels.players.rng``), in plain Python."""

    def __init__(self, key: int):
        self.state = key & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        limit = MASK64 - (MASK64 % n)
        while True:
            z = self.next()
            if z < limit:
                return z % n


def random_move(rules: Rules, view: View, rng: SplitMix64) -> list[int]:
    """A uniformly random legal move (plays in column order, then the draw)."""
    options = legal_moves(rules, view.position())
    return [options[rng.below(len(options))]] if options else []


def chain_endpoints(rules: Rules, pos: Position) -> list[tuple[Position, list[int]]]:
    """Every position a chain of plays reaches (the start included), breadth-first,
    one per (heights, what the top accepts), each with the plays that reach it."""
    seen = {(_heights(pos), _signature(rules, pos.top))}
    out = [(pos, [])]
    i = 0
    while i < len(out):
        here, line = out[i]
        for c in playable_columns(rules, here):
            nxt = apply(rules, here, c)
            key = (_heights(nxt), _signature(rules, nxt.top))
            if key not in seen:
                seen.add(key)
                out.append((nxt, line + [c]))
        i += 1
    return out


def longest_chain(rules: Rules, pos: Position) -> int:
    best = 0
    for c in playable_columns(rules, pos):
        best = max(best, 1 + longest_chain(rules, apply(rules, pos, c)))
    return best


def _with_top(pos: Position, top: Top) -> Position:
    return Position(pos.tableau, pos.stock, top)


def _value(rules: Rules, depth: int, pos: Position, n_left: int, unseen: Counter) -> float:
    left = pos.cards_left()
    if left == 0:
        return WIN + n_left
    if n_left == 0:
        return -float(left)
    total = 0.0
    for r in range(16):
        if unseen[r] == 0:
            continue
        p = unseen[r] / n_left
        after = _with_top(pos, Top.drawn(r))
        if depth <= 1:
            run = longest_chain(rules, after)
            v = WIN + n_left - 1 if run >= left else -float(left - run)
        else:
            rest = unseen.copy()
            rest[r] -= 1
            v = max(_value(rules, depth - 1, end, n_left - 1, rest)
                    for end, _ in _candidates(rules, after, n_left - 1))
        total += p * v
    return total


def _candidates(rules: Rules, pos: Position, n_left: int) -> list[tuple[Position, list[int]]]:
    ends = chain_endpoints(rules, pos)
    if rules.draw is Draw.WHEN_STUCK and n_left > 0:
        ends = [(e, line) for e, line in ends if not playable_columns(rules, e)]
    return ends


def lookahead(rules: Rules, view: View, depth: int = 1) -> list[int]:
    """The best chain by expected value over the next ``depth`` draws, then a draw."""
    best, best_line, best_left = -1e300, None, None
    for end, line in _candidates(rules, view.position(), view.n_left):
        v = _value(rules, depth, end, view.n_left, view.unseen)
        if best_line is None or v > best + 1e-9 or (v > best - 1e-9 and len(line) > len(best_line)):
            best, best_line, best_left = v, line, end.cards_left()
    if best_line is None:
        return []
    return best_line + ([DRAW] if view.n_left and best_left else [])


def play_out(rules: Rules, start: Position, decide, key: int = 0) -> Line:
    """Play ``start`` to the end of the hand with the twin decision rule
    ``decide(rules, view, rng) -> plan``; the scored line."""
    rng = SplitMix64(key)
    pos, moves = start, []
    while legal_moves(rules, pos):
        chosen = decide(rules, View.of(pos), rng)
        if not chosen:
            break
        for move in chosen:
            pos = apply(rules, pos, move)
            moves.append(move)
            if pos.cards_left() == 0:
                break
    return score_moves(rules, start, moves)
