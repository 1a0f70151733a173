"""Positions small enough for the pure-Python honest twin (``golfstats.reference.honest``).

Seeded deals advanced by random legal engine moves (``walk``) until the stock is small and
``size``, a bound on the twin's work, is within a budget.  Used by tests/test_honest_twin.py;
everything depends only on (rules, seed, deal index, aim, budget).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from functools import cache

import numpy as np

from golfstats.board import Board
from golfstats.cards import kind
from golfstats.deals import board_from_cards, seeded_deals
from golfstats.engine import DRAW, Position, apply, legal_moves

_DEALS, _CHUNK = 8192, 512


def size(pos: Position) -> int:
    """A bound on the twin's positions: tableau height vectors times sub-multisets of the stock."""
    counts = Counter(kind(c) for c in pos.stock)
    return math.prod(len(c) + 1 for c in pos.tableau) * math.prod(n + 1 for n in counts.values())


def walk(rules, board: Board, rng: np.random.Generator, stock: int, budget: int) -> Board | None:
    """``board`` after random legal moves until at most ``stock`` stock cards are left and
    ``size`` is at most ``budget``: a random play while the position is too big (a draw when
    none is legal), a draw while the stock is too big.  None if the hand ends, or the stock
    runs out, first."""
    pos = board.position()
    while True:
        moves = legal_moves(rules, pos)
        if not moves or not pos.stock:
            return None
        small = size(pos) <= budget
        if small and len(pos.stock) <= stock:
            return Board(pos.tableau, pos.stock, pos.top_card)
        plays = [m for m in moves if m != DRAW]
        if plays and (not small or DRAW not in moves):
            pos = apply(rules, pos, plays[int(rng.integers(len(plays)))])
        else:
            pos = apply(rules, pos, DRAW)


@cache
def positions(rules, seed: int, count: int, budget: int, min_stock: int = 1,
              max_stock: int = 8) -> tuple[Board, ...]:
    """``count`` positions from the seeded deals of ``seed``, deal after deal; the k-th aims at
    ``min_stock + k % (max_stock - min_stock + 1)`` stock cards and is kept if it has at least
    ``min_stock`` (hands that end first are skipped).  Each depends only on its deal and aim."""
    out: list[Board] = []
    for start in range(0, _DEALS, _CHUNK):
        for index, cards in enumerate(seeded_deals(rules, seed, start, _CHUNK).cards, start):
            target = min_stock + len(out) % (max_stock - min_stock + 1)
            rng = np.random.default_rng([seed, index])
            board = walk(rules, board_from_cards(rules, cards), rng, target, budget)
            if board is not None and len(board.stock) >= min_stock:
                out.append(board)
                if len(out) == count:
                    return tuple(out)
    raise AssertionError(f"fewer than {count} positions in {_DEALS} deals of {rules.id}")


def orders(board: Board) -> list[Board]:
    """The board once for every distinct order of the kinds in its stock.  Every card order
    is equally likely, so every distinct order of kinds is too (each stands for the same
    number, the product of M[r]!, of card orders)."""
    by_kind: dict[int, list[int]] = {}
    for c in board.stock:
        by_kind.setdefault(kind(c), []).append(c)
    out = []
    for seq in sorted(set(itertools.permutations(kind(c) for c in board.stock))):
        left = {r: list(cs) for r, cs in by_kind.items()}
        out.append(Board(board.tableau, tuple(left[r].pop() for r in seq), board.foundation))
    return out


def shuffled(board: Board, rng: np.random.Generator) -> Board:
    """The board with its talon in a random order."""
    stock = tuple(int(c) for c in rng.permutation(np.array(board.stock, np.int64)))
    return Board(board.tableau, stock, board.foundation)
