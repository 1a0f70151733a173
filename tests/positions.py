"""Positions small enough for the pure-Python honest twin (``golfstats.reference.expectimax``).

Seeded deals advanced by random legal engine moves (``walk``) until the stock is small and
``size``, a bound on the twin's work, is within a budget; everything depends only on (rules,
seed, deal index, aim, budget).  And ``HAND``: hand-made boards with their values worked out
by hand from docs/honest-play.md.  Used by tests/test_honest_twin.py.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import dataclass
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


# ---------------------------------------------------------------- hand-computed values

@dataclass(frozen=True)
class Hand:
    """A board, its value (p, e) per goal, the (p, e, c) of its legal moves and the twin's
    plan per goal."""

    name: str
    variant: str
    text: str
    odds: dict
    moves: dict
    plan: dict


def _same(x) -> dict:
    return {"win-strokes": x, "strokes": x}


def _board(*columns: str, talon: str, top: str) -> str:
    cols = list(columns) + ["-"] * (7 - len(columns))
    return f"Talon: {talon}\nFoundations: {top}\n" + "\n".join(cols) + "\n"


# Values are (p, e) for the position and (p, e, c) for each move (c: the cards left at the
# end of the chain the move plays; a draw's c is the cards now).  Every case below the
# "new win rule" line keeps its value and plan under the rule before it ("largest p, then
# smallest e" everywhere); the cases after the line are where the two differ or are close.
HAND = [
    # 6 turned onto the 5, then the 7 on it: cleared with no stock left.
    Hand("one-stock-card", "strict", _board("7D", talon="6H", top="5C"),
         _same((1.0, 0.0)), _same([(DRAW, (1.0, 0.0, 1))]), _same([DRAW])),
    # 6 first (1/2): 7 plays, cleared with 1 left (-1).  K first (1/2): a dead King, draw
    # the 6, 7 plays, cleared with 0 left.  (1, -1/2).
    Hand("two-stock-cards", "strict", _board("7D", talon="6H KS", top="5C"),
         _same((1.0, -0.5)), _same([(DRAW, (1.0, -0.5, 1))]), _same([DRAW])),
    # 6 first (1/2): 7 on it, then the 8, 9 on it: won with 0 left.  8 first (1/2): 7 on it
    # leaves the 9, which the last card (6) does not take: lost with 1.  (1/2, 1/2).
    Hand("two-stock-cards-half-win", "strict", _board("9D 7D", talon="6H 8S", top="5C"),
         _same((0.5, 0.5)), _same([(DRAW, (0.5, 0.5, 2))]), _same([DRAW])),
    # Playing the 9 on the 8 wastes it: 8S follows (the chain ends at the TD, c = 1), the T
    # is stuck (lost with 1).  Drawing first (c = 3): 7, 8S, 9H, TD, cleared with 0 left.
    Hand("draw-before-playing", "strict", _board("9H", "TD 8S", talon="7S", top="8C"),
         _same((1.0, 0.0)), _same([(0, (0.0, 1.0, 1)), (DRAW, (1.0, 0.0, 3))]), _same([DRAW])),
    # The same board under when-stuck: the 9 must be played (then the 8S), which loses with 1
    # whatever the 7 then does.
    Hand("when-stuck-forces-the-play", "strict+when-stuck", _board("9H", "TD 8S", talon="7S", top="8C"),
         _same((0.0, 1.0)), _same([(0, (0.0, 1.0, 1))]), _same([0, 1, DRAW])),
    # A joker on top stands for any rank: the K (on a Q) or the 2.  K first is dead (strict),
    # the 2 never plays: lost with 1; the draw likewise.  2 first, the Q, the K: won, 0 left.
    Hand("joker-on-top", "strict+jokers1", _board("KS", "2D", talon="QH", top="JK"),
         _same((1.0, 0.0)),
         _same([(0, (0.0, 1.0, 1)), (1, (1.0, 0.0, 1)), (DRAW, (0.0, 1.0, 2))]),
         _same([1, DRAW])),
    # The empty foundation takes any card: the same values as the joker on top.
    Hand("empty-foundation", "strict+empty-start", _board("KS", "2D", talon="QH", top="-"),
         _same((1.0, 0.0)),
         _same([(0, (0.0, 1.0, 1)), (1, (1.0, 0.0, 1)), (DRAW, (0.0, 1.0, 2))]),
         _same([1, DRAW])),
    # ... and under when-stuck the empty foundation forbids the draw.
    Hand("empty-foundation-when-stuck", "strict+empty-start+when-stuck",
         _board("KS", "2D", talon="QH", top="-"),
         _same((1.0, 0.0)), _same([(0, (0.0, 1.0, 1)), (1, (1.0, 0.0, 1))]), _same([1, DRAW])),
    # A board may hold an empty foundation under any rule set: it takes any card too.
    Hand("empty-foundation-without-empty-start", "strict", _board("KS", "2D", talon="QH", top="-"),
         _same((1.0, 0.0)),
         _same([(0, (0.0, 1.0, 1)), (1, (1.0, 0.0, 1)), (DRAW, (0.0, 1.0, 2))]),
         _same([1, DRAW])),
    # Q on the K, J on the Q: cleared with the T unturned.  Drawing the T first: the J is
    # under the Q, which the T does not take: lost with 2.
    Hand("queen-on-king", "queens-on-kings", _board("JD QS", talon="TH", top="KC"),
         _same((1.0, -1.0)), _same([(0, (1.0, -1.0, 0)), (DRAW, (0.0, 2.0, 2))]), _same([0, 0])),
    # Under dead-queen the Q played on the K accepts nothing: the T must come first.
    Hand("dead-queen", "queens-on-kings+dead-queen", _board("JD QS", talon="TH", top="KC"),
         _same((1.0, 0.0)), _same([(0, (1.0, 0.0, 1)), (DRAW, (0.0, 2.0, 2))]), _same([0, DRAW])),
    # A joker in the tableau bridges the 5 and the 7 (as a 6): cleared with the K unturned.
    # Drawing the K first: nothing goes on a King, not even a joker: lost with 2.
    Hand("joker-bridges", "strict+jokers1", _board("7S JK", talon="KH", top="5C"),
         _same((1.0, -1.0)), _same([(0, (1.0, -1.0, 0)), (DRAW, (0.0, 2.0, 2))]), _same([0, 0])),
    # Two jokers on a 5 stand for 3, 5 or 7 (parity): the 5D never plays.  Best: both jokers,
    # then the dead K, lost with 1 (also the fewest cards).  Drawing the K first: lost with 3.
    Hand("two-jokers-keep-parity", "strict+jokers2", _board("5D JK JK", talon="KH", top="5C"),
         _same((0.0, 1.0)), _same([(0, (0.0, 1.0, 1)), (DRAW, (0.0, 3.0, 3))]), _same([0, 0, DRAW])),
    # The objectives part.  Play 6D, 7H, then draw (c = 3): 4 first, 8 takes the 9: lost
    # with 2; 8 first, 9, then the 4 takes the 5: lost with 1; (0, 3/2).  Draw now (c = 5): 4
    # first: only the 9 plays after the 8, lost with 4; 8 first: 9, then 4, 5H, 6D, 7H, 8C:
    # won with 0; (1/2, 2).  win takes the gamble (1/2, 2); strokes the sure (0, 3/2).
    Hand("objectives-differ", "strict", _board("8C 5H 9C", "7H 6D", talon="4S 8D", top="5S"),
         {"win-strokes": (0.5, 2.0), "strokes": (0.0, 1.5)},
         _same([(1, (0.0, 1.5, 3)), (DRAW, (0.5, 2.0, 5))]),
         {"win-strokes": [DRAW], "strokes": [1, 1, DRAW]}),
    # Information matters: either order wins for a clairvoyant (7C first: 8D, 5C, 6D, 7D, 8C,
    # 9H; 5C first: 7D, 8D, 5C, 6D, 7C, 8C, 9H), but the honest player must commit.  Play
    # 7D, 8D, draw: 5C first wins, 7C first loses with 1: (1/2, 1/2).  Draw now: 7C first
    # wins, 5C first loses with 2: (1/2, 1).  Honest p = 1/2 < clairvoyant 1.
    Hand("information-matters", "strict", _board("-", "8C 7D", "9H 6D 8D", talon="5C 7C", top="6C"),
         _same((0.5, 0.5)), _same([(1, (0.5, 0.5, 3)), (DRAW, (0.5, 1.0, 5))]), _same([1, 2, DRAW])),
    # Terminal positions: cleared with 3 stock cards left; and no stock with a play left.
    Hand("already-won", "strict", _board(talon="4S 8D 2C", top="5S"),
         _same((1.0, -3.0)), _same([]), _same([])),
    Hand("no-stock", "strict", _board("8C 5H 9C", "7H 6D", talon="-", top="5S"),
         _same((0.0, 3.0)), _same([(1, (0.0, 3.0, 3))]), _same([1, 1])),
    # ------------------------------------------------------------ the new win rule
    # Nothing can be won (the 9C never plays: the T must take the JC before the 5H can go,
    # and nothing else takes a 9): win plays the chain leaving the fewest cards,
    # strokes the one with the smallest e.  Play the 4C (c = 3): T first, J on it, the 5
    # takes nothing: lost with 2; 5 first: nothing plays, then T, J: lost with 2; e = 2.
    # Draw now (c = 4): T first, J, then the 5: 4C, 5H: lost with 1; 5 first, 4C (the fewest
    # cards), then T, J: lost with 2; e = 3/2.  win (0, 2) plays the 4C; strokes (0, 3/2)
    # draws; the rule before: (0, 3/2), the draw.
    Hand("nothing-to-win-fewest-cards", "strict", _board("9C 5H JC", "4C", talon="TC 5D", top="5C"),
         {"win-strokes": (0.0, 2.0), "strokes": (0.0, 1.5)},
         _same([(1, (0.0, 2.0, 3)), (DRAW, (0.0, 1.5, 4))]), {"win-strokes": [1, DRAW], "strokes": [DRAW]}),
    # Nothing can be won (neither order of the stock wins for a clairvoyant: the one 6 is
    # wanted by the 5C and by a 7).  Chains on the 8C, breadth-first, with (e, cards)
    # under win: none (5/2, 6); 7H (3/2, 5); 7C (2, 5); 7H 8D (2, 4); 7C 8D (5/2, 4);
    # 7H 8D 9C (2, 3); 7H 8D 7C (3/2, 3).  The two with 3 cards: after 7H 8D 9C (left 7C,
    # 5C 7D): T first takes nothing, the 6 one 7: lost with 2; 6 first, one 7, the T nothing:
    # lost with 2; e = 2.  After 7H 8D 7C (left 5C 7D 9C): T first, 9C, then the 6, 7D: lost
    # with 1; 6 first takes nothing, then T, 9C: lost with 2; e = 3/2.  win: the fewest
    # cards tie, e breaks it: 7H 8D 7C (found after 7H 8D 9C), (0, 3/2).  strokes (and the
    # rule before): 7H alone, then draw, e = 1: T first, 9C 8D 7C, then the 6, 7D: lost with
    # 1 (the 5C); 6 first, 7C, then T: 9C 8D 7D: lost with 1.  (Under win at 7H alone the
    # chains after each draw leave the fewest cards, 9C 8D 7C then the 6, 7D: 1 left, and
    # 7C 8D 9C then the T takes nothing: 2 left: e = 3/2.)
    Hand("nothing-to-win-fewest-cards-tie-by-e", "strict",
         _board("5C 7D 9C 7H", "7C", "8D", talon="TC 6C", top="8C"),
         {"win-strokes": (0.0, 1.5), "strokes": (0.0, 1.0)},
         {"win-strokes": [(0, (0.0, 1.5, 3)), (1, (0.0, 1.5, 3)), (DRAW, (0.0, 2.5, 6))],
          "strokes": [(0, (0.0, 1.0, 5)), (1, (0.0, 1.5, 3)), (DRAW, (0.0, 2.5, 6))]},
         {"win-strokes": [0, 2, 1, DRAW], "strokes": [0, DRAW]}),
    # p > 0, and e is this policy's: the only move is the draw.  5 first: 4C, 5D, then the 6:
    # 7D, 8C: won with 0.  6 first nothing can be won: win plays the fewest cards, 5D 4C
    # (left 7D, 8C), the 5 takes nothing: lost with 2; strokes plays 7D, then the 5: 4C, 5D:
    # lost with 1.  win (1/2, 1) (the rule before: (1/2, 1/2)); strokes (1/2, 1/2).
    Hand("e-of-this-policy", "strict", _board("5D", "7D", "8C 4C", talon="5C 6C", top="7C"),
         {"win-strokes": (0.5, 1.0), "strokes": (0.5, 0.5)},
         {"win-strokes": [(DRAW, (0.5, 1.0, 4))], "strokes": [(DRAW, (0.5, 0.5, 4))]}, _same([DRAW])),
    # A tie in p > 0 broken by e, which counts the fewest-cards play where nothing can be
    # won.  Draw now (c = 6): 5 first: 4C, 5D, then the 6: 7D, 8D, 7H, 8C: won with 0; 6
    # first: 7D, 8D, 7H (3 cards, the fewest), then the 5: 4C, 5D: lost with 1; (1/2, 1/2).
    # Play 8D, then 7D (or 7H), draw (c = 4): 5 first: 4C, 5D, then the 6: the other 7, 8C:
    # won; 6 first: win plays 5D 4C (2 left) and the 5 takes nothing: lost with 2 (strokes:
    # the other 7, then the 5: 4C, 5D: lost with 1); (1/2, 1) (strokes (1/2, 1/2)).  (Play
    # 8D and draw: (1/2, 3/2), strokes (1/2, 1).)  win: p ties, the draw has the smaller e.
    # strokes (and the rule before): e ties too, the fewest cards: 8D 7D, draw.
    Hand("p-tie-broken-by-e", "strict", _board("5D", "7D", "8C 4C", "7H 8D", talon="5C 6C", top="7C"),
         _same((0.5, 0.5)),
         {"win-strokes": [(3, (0.5, 1.0, 4)), (DRAW, (0.5, 0.5, 6))],
          "strokes": [(3, (0.5, 0.5, 4)), (DRAW, (0.5, 0.5, 6))]},
         {"win-strokes": [DRAW], "strokes": [3, 1, DRAW]}),
    # Where something can be won, e comes before the cards.  Draw now (c = 3): 7 first, or 9
    # first: 8C, 9D, TD: won with 1 left; (1, -1).  9D, 8C, then draw (c = 1): 9 first: TD:
    # won with 1; 7 first, then the 9: TD: won with 0; (1, -1/2).  p ties at 1, e: the draw.
    Hand("p-tie-e-before-cards", "strict", _board("9D", "TD 8C", talon="7C 9C", top="TC"),
         _same((1.0, -1.0)), _same([(0, (1.0, -0.5, 1)), (DRAW, (1.0, -1.0, 3))]), _same([DRAW])),
    # ... and the cards break a tie in p and e.  Draw now (c = 4): 7 first: 6C, 5C, 4D, then
    # the J: TC: won with 0; J first takes nothing, then the 7: 6C 5C 4D: lost with 1 (TC);
    # (1/2, 1/2).  5C, 4D, then draw (c = 2): 7 first: 6C, then the J: TC: won with 0; J
    # first, then the 7: 6C: lost with 1; (1/2, 1/2).  The fewer cards: 5C 4D.
    Hand("p-and-e-tie-broken-by-cards", "strict", _board("TC 6C", "4D 5C", talon="JC 7C", top="4C"),
         _same((0.5, 0.5)), _same([(1, (0.5, 0.5, 2)), (DRAW, (0.5, 0.5, 4))]), _same([1, 1, DRAW])),
]
