"""One deal's honest table: what the kernel kept, as a handle that answers the engine's
``Position``s of the deal and plays the deal out.

What a table keeps (``Keep``) decides what it can answer without recomputing:

* ``Keep.VALUE``: nothing beyond the values (the cheapest; no ``Table``);
* ``Keep.ORDER``: the values the board's own stock order visits: one play-out;
* ``Keep.ALL``: every chance of winning (goal ``WIN``: every p; ``WIN_STROKES``, which
  always keeps all: every p and the policy's memo of (p, e), which grows as positions are
  asked): every order of the stock and, under ``WIN_STROKES``, the value of every position
  of the deal (``Table.value``, ``Table.draw_value``).  Goal ``STROKES`` keeps the blocks
  of given orders only (the board's own, or further ``orders``: every block one of them
  visits, so one table serves all their play-outs): ``Keep.ALL`` is refused for it.

The table's users speak the engine's terms (positions, cards); the kernels' coordinates
(heights, top ids, drawn multisets) stay inside this module.  Kernels are imported inside
the methods: importing this module stays cheap.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property

import numpy as np

from golfstats.board import Board
from golfstats.cards import kind
from golfstats.engine import Position
from golfstats.goals import Goal
from golfstats.honest.value import Value
from golfstats.kernels.rule_tables import Arrays, KernelTables, Tables


class Keep(StrEnum):
    VALUE = "value"
    ORDER = "order"
    ALL = "all"


class _Memo:
    """The policy's memo of (p, e) (``kernels.honest.policy``): its arrays grow, so the
    frozen ``Table`` holds it through this cell."""

    def __init__(self, pt: tuple[np.ndarray, ...]):
        self.pt = pt


@dataclass(frozen=True, eq=False)
class Table:
    """The handle on a deal's table: the ``board`` it was made from, in the kernels' terms
    (``tables``, ``kt``, ``arrays``, ``top_id``), and what the kernel kept (see the module
    docstring).  ``order``: the stock order (kinds) the table was kept for
    (``Keep.ORDER``), else empty; ``sol``: goal win's chances (Dr, its rank index, offsets,
    values, the heights' compact index); ``path``: goal strokes' kept blocks; ``orders``:
    the further orders (kinds) goal strokes kept the blocks of."""

    goal: Goal
    keep: Keep
    board: Board
    tables: Tables
    kt: KernelTables
    arrays: Arrays
    top_id: int
    order: np.ndarray
    sol: tuple[np.ndarray, ...]
    path: tuple[np.ndarray, ...]
    memo: _Memo | None
    orders: tuple[np.ndarray, ...] = ()

    @cached_property
    def _codes(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The stock multiset (counts per kind) and the kernels' height and drawn-multiset
        place values (``powers``, ``d_codes``) of this deal, computed once."""
        from golfstats.kernels.core import powers
        from golfstats.kernels.honest.space import STOCK_KINDS, d_codes

        m0 = np.bincount(self.arrays.stock, minlength=STOCK_KINDS).astype(np.int64)
        return m0, powers(self.arrays.heights)[0], d_codes(m0)[0]

    def kinds(self, cards: Sequence[int]) -> np.ndarray:
        """A stock order of cards (draw order) as the kinds the table plays."""
        return np.array([kind(c) for c in cards], np.int64)

    def serves(self, order: np.ndarray) -> bool:
        """Whether this table plays the stock ``order`` (kinds in draw order) out."""
        order = np.asarray(order, np.int64)
        if sorted(order.tolist()) != sorted(self.arrays.stock.tolist()):
            return False
        return (self.keep is Keep.ALL or np.array_equal(order, self.order)
                or any(np.array_equal(order, o) for o in self.orders))

    def play(self, order: np.ndarray | None = None) -> tuple[bool, int, list[int]]:
        """The optimal policy's hand on the stock ``order`` (kinds in draw order, a
        permutation of the board's; None: the order the table was kept for): (won,
        strokes, engine moves).  The policy's choices read only the multiset; the order
        only turns the cards."""
        from golfstats.kernels.honest.play import play_strokes, play_win, play_winp

        order = self.order if order is None else np.asarray(order, np.int64)
        if not self.serves(order):
            raise ValueError("this table does not serve that stock order (another multiset, "
                             "or a table kept for one order only)")
        a = self.arrays
        buf = np.empty(int(a.heights.sum()) + len(order) + 1, np.int64)
        status = 0
        if self.goal is Goal.WIN:
            won, strokes, n_moves = play_winp(self.kt, a.exposed, a.heights, self.top_id, order,
                                              self.sol, buf)
        elif self.goal is Goal.WIN_STROKES:
            status, won, strokes, n_moves = play_win(self.kt, a.exposed, a.heights, self.top_id,
                                                     order, self.sol, self.memo.pt, buf)
        else:
            status, won, strokes, n_moves = play_strokes(self.kt, a.exposed, a.heights,
                                                         self.top_id, order, self.path, buf)
        if status != 0:
            raise RuntimeError("optimal play-out met a state without a value (internal error)")
        return bool(won), int(strokes), [int(m) for m in buf[:n_moves]]

    def value(self, position: Position) -> Value:
        """The policy's value at ``position``, a position of this deal (its columns cut
        down from the deal's, its stock a part of the deal's).  Goal ``WIN_STROKES`` with
        ``Keep.ALL`` only: the others keep too little."""
        from golfstats.kernels.honest.policy import position_value
        from golfstats.kernels.honest.space import BITS

        heights, drawn = self._where(position, "positions")
        gp = 0
        for c, h in enumerate(heights):
            gp |= int(h) << (BITS * c)
        return self._asked(position_value, gp, int(self.tables.top_id(position.top)), drawn)

    def draw_value(self, position: Position) -> Value:
        """The policy's value of drawing now at ``position`` (a position of this deal): the
        expectation over the kinds the stock may turn (``Keep.ALL``, win-strokes)."""
        from golfstats.kernels.honest.policy import policy_value

        heights, drawn = self._where(position, "draws")
        pw = self._codes[1]
        return self._asked(policy_value, int(sum(int(h) * int(pw[c]) for c, h in enumerate(heights))),
                           None, drawn)

    def _asked(self, kernel, heights_code: int, top: int | None, drawn: np.ndarray) -> Value:
        """One question to the policy's memo (which grows): ``kernel`` at the heights' code,
        the top (None: a draw) and the kinds drawn so far."""
        from golfstats.kernels.honest.inputs import Root

        a = self.arrays
        m0, pw, pwd = self._codes
        d = int(sum(int(pwd[k]) for k in drawn))
        where = (heights_code,) if top is None else (heights_code, top)
        root = Root(self.kt, a.exposed, a.heights, self.top_id, m0)
        p, e, self.memo.pt = kernel(self.memo.pt, root, pw, pwd, len(a.stock), self.sol, *where, d,
                                    len(drawn))
        if np.isnan(p):
            raise RuntimeError("the policy's memo is over its budget")
        return Value(float(p), float(e))

    def _where(self, position: Position, asked: str) -> tuple[list[int], np.ndarray]:
        """``position``'s column heights and the kinds drawn so far, checked to be of this
        deal; ``ValueError`` when the table cannot value it."""
        if self.goal is not Goal.WIN_STROKES or self.keep is not Keep.ALL:
            raise ValueError(f"{asked} are valued from a win-strokes table that keeps all")
        deal = self.board.tableau
        if len(position.tableau) != len(deal) or any(
                tuple(col) != tuple(full[:len(col)]) for col, full in zip(position.tableau, deal,
                                                                        strict=True)):
            raise ValueError("not a position of this deal: its columns are not the deal's")
        left = np.bincount(self.kinds(position.stock), minlength=len(self._codes[0]))
        gone = self._codes[0] - left
        if len(left) != len(gone) or (gone < 0).any():
            raise ValueError("not a position of this deal: its stock is not part of the deal's")
        return [len(col) for col in position.tableau], np.repeat(np.arange(len(gone)), gone)
