"""The reference solver: plain exhaustive search over the positions of the reference engine.

It answers the question of ``golfstats.solver.solve`` (the clairvoyant optimum of
docs/rules.md "Scoring") straight from the definition:

    optimal strokes = min over every complete legal line of the strokes at its end
                    = min over every *reachable finished position* of its strokes,

because every complete line ends in a reachable position with no legal move, and
every such position ends some complete line.  So the solver enumerates the
positions reachable from the board, keeps the finished ones, and takes the
minimum of ``strokes`` over them: minus the stock left for a cleared tableau,
otherwise the tableau cards left.

None of the fast solver's tricks are used: no draw dominance (positions that
differ only in how many stock cards were turned are all kept), no merging of
tops that play alike (a top is the engine's ``Top`` value, compared by its exact
set of meanings), no tables shared with the kernels.  Two plain economies only:

* A position reached from the board is fixed by (column heights, stock cards
  turned, the engine ``Top``): columns only shrink from the end and the stock is
  turned from the front.  That triple is the key of the visited sets.
* Positions are visited in layers of stock cards turned, 0, 1, 2, ...  A play
  keeps the layer, a draw moves to the next one.  A win in layer k scores
  -(stock - k), better than any win in a later layer and than any loss (>= 1), so
  the search stops at the first layer that holds a cleared tableau.  Only one
  layer's visited set is kept at a time.

What a move does comes from the reference engine: ``Top.after`` (a play),
``Top.drawn`` (a draw) and the draw rule, exactly as ``engine.legal_moves`` and
``engine.apply`` use them; ``tests/test_solver.py`` checks on random positions that
``_Search.moves`` gives the same children as ``engine.legal_moves`` + ``engine.apply``.

Pure Python, a few microseconds per position: about 1-3 s on average per full golf
deal under draw any-time (up to ~10 s; empty-start and jokers make the most
positions), far less under when-stuck.  For tests only, never for simulations.
"""

from __future__ import annotations

from golfstats.board import Board
from golfstats.cards import kind
from golfstats.engine import DRAW, Top
from golfstats.rules import Draw, Rules


class _Search:
    """The positions of one board, encoded for the visited sets.

    A tableau is its vector of heights, coded as the mixed-radix integer
    ``sum(h[c] * pw[c])`` with radix ``len(column c) + 1`` (a play from column c
    subtracts ``pw[c]``).  A top is the index of an engine ``Top`` in ``tops``
    (interned by equality, so two different sets of meanings stay two tops).
    """

    def __init__(self, board: Board, rules: Rules):
        self.rules = rules
        self.columns = [[kind(c) for c in col] for col in board.tableau]
        self.stock = [kind(c) for c in board.stock]
        self.pw: list[int] = []
        p = 1
        for col in self.columns:
            self.pw.append(p)
            p *= len(col) + 1
        self.full = sum(len(col) * w for col, w in zip(self.columns, self.pw, strict=True))
        self.tops: list[Top] = []
        self._ids: dict[Top, int] = {}
        self._after: list[list[int]] = []  # [top][kind]: child top, -1 illegal, -2 not asked yet
        self.top0 = self.top_id(board.position().top)
        self.drawn = [self.top_id(Top.drawn(x)) for x in self.stock]
        self.when_stuck = rules.draw is Draw.WHEN_STUCK

    def top_id(self, top: Top) -> int:
        found = self._ids.get(top)
        if found is None:
            found = self._ids[top] = len(self.tops)
            self.tops.append(top)
            self._after.append([-2] * 14)
        return found

    def after(self, t: int, card_kind: int) -> int:
        """Top id after playing ``card_kind`` on top ``t`` (engine ``Top.after``), -1 if illegal."""
        found = self._after[t][card_kind]
        if found == -2:
            nxt = self.tops[t].after(self.rules, card_kind)
            found = self._after[t][card_kind] = -1 if nxt is None else self.top_id(nxt)
        return found

    def heights(self, code: int) -> list[int]:
        out = []
        for col in self.columns:
            code, h = divmod(code, len(col) + 1)
            out.append(h)
        return out

    def moves(self, code: int, k: int, t: int) -> list[tuple[int, int, int, int]]:
        """Legal moves of the position (heights ``code``, ``k`` stock cards turned, top ``t``)
        as ``(move, code, k, top)`` of the child, plays in column order then the draw:
        the order and meaning of ``engine.legal_moves`` and ``engine.apply``."""
        if code == 0:
            return []  # the tableau is clear: the hand is over
        known = self._after[t]
        out = []
        rest = code
        for c, column in enumerate(self.columns):
            rest, h = divmod(rest, len(column) + 1)
            if h:
                x = column[h - 1]
                u = known[x] if known[x] != -2 else self.after(t, x)
                if u >= 0:
                    out.append((c, code - self.pw[c], k, u))
        if k < len(self.stock) and not (self.when_stuck and out):
            out.append((DRAW, code, k + 1, self.drawn[k]))
        return out


def reference_solve(board: Board, rules: Rules, cap: int | None = None) -> tuple[bool, int]:
    """Optimal ``(won, strokes)`` of ``board`` under ``rules``, knowing the stock order.

    ``strokes`` is the minimum over every complete legal line of docs/rules.md strokes at
    its end (minus the stock left if the tableau is cleared, else the tableau cards
    left); ``won`` says whether that best line clears the tableau.

    ``cap`` (None: no limit) forbids turning more than ``cap`` stock cards: a line
    also ends where its only legal moves are draws past the cap.  This is the meaning
    of ``golfstats.solver.solve(..., cap=...)``.
    """
    search = _Search(board, rules)
    n = len(search.stock)
    limit = n if cap is None else min(cap, n)
    best_loss: int | None = None
    layer = {(search.full, search.top0)}  # positions of layer k not yet expanded
    for k in range(limit + 1):
        seen = set(layer)
        todo = list(layer)
        layer = set()
        while todo:
            code, t = todo.pop()
            if code == 0:
                return True, -(n - k)  # the board itself has a clear tableau
            finished = True
            for move, child, k_child, u in search.moves(code, k, t):
                if move == DRAW:
                    if k_child <= limit:
                        finished = False
                        layer.add((child, u))
                else:
                    finished = False
                    if child == 0:
                        return True, -(n - k)  # first layer with a win: the optimum (module doc)
                    state = (child, u)
                    if state not in seen:
                        seen.add(state)
                        todo.append(state)
            if finished:
                left = sum(search.heights(code))
                best_loss = left if best_loss is None else min(best_loss, left)
    if best_loss is None:
        raise RuntimeError("no finished position was reached (impossible: every line is finite)")
    return False, best_loss
