"""The honest optimum, slowly: a plain memoised expectimax over the reference engine.

This is the twin of ``golfstats.honest`` (the compiled kernel) and of the ``optimal``
policy.  It computes ``docs/honest-play.md`` word for word, in its *first* formulation:

    value(position) = (1, -|M|)            if the tableau is clear (won)
                      (0, cards left)      if no move is legal (lost)
                      best over the legal moves m of value(m)
    value(play c)   = value(engine.apply(position, c))
    value(draw)     = sum over kinds r in M of  M[r]/|M| * value(position after turning r)

with ``best`` the objective's order (``win``: largest p, ties by smallest e; ``strokes``:
smallest e, ties by largest p; two numbers tie within ``TOL`` = 1e-9).

Why it is obviously correct:

* Every move comes from the reference engine: ``engine.legal_moves`` (plays in column
  order, the draw when the stock is not empty, under when-stuck only without a play) and
  ``engine.apply`` for a play.  "Turning r" is the engine's draw with an r on top of the
  stock, written out (``_turn``: the top becomes ``Top.drawn(r)``, the stock loses one r;
  the tests check it against ``engine.apply(DRAW)``).  There are no move tables, no
  bounds, no pooling of dead kinds, no dominance and no pruning.
* The only chance move is the draw, and its value is the exact finite sum over the kinds
  left in the stock, each weighted by its count: the player knows the multiset M and
  every order is equally likely.  The stock is held in a canonical form (``_canonical``:
  by kind, the first suits), so its order cannot be read and the value cannot depend on it.
* The memo key is (column heights, engine ``Top``, canonical stock), the canonical stock
  being the multiset of kinds left.  Within one hand the heights fix the tableau (columns
  only shrink from their end), a ``Top`` is compared by its exact set of meanings, and
  suits never matter, so two positions with one key have the same moves, children and value.

The policy twin ``optimal_plan`` uses the doc's *second* formulation (the best ``W`` over
the endpoints of the chains of plays, ``reference.policies.chain_endpoints``).  The tests
tie the two formulations: the first move of every plan has the position's value, and
``play_optimal`` averaged over every order of the stock scores exactly ``reference_odds``.

Cost: a memoised position costs one ``legal_moves`` plus one ``apply`` per play and one
``_turn`` per kind in the stock, about 0.1 ms in all.  The positions are the reachable
(heights, top, sub-multiset of the stock) triples: at most the product of (height + 1)
over the columns, times the product of (count + 1) over the kinds in the stock, times the
tops.  The 2,400 CI positions of tests/test_honest_twin.py (1..8 stock cards, about 7
tableau cards, that product at most 600 or 1,200) take 4 ms per position and goal on
average (median 0.6 ms, worst 0.25 s, at most ~3,000 memoised positions); a fresh deal
(16 or more stock cards, 35 tableau cards) is out of reach.  For tests only.
"""

from __future__ import annotations

from collections import Counter

from golfstats.cards import JOKERS, card, kind
from golfstats.engine import DRAW, Position, Top, apply, is_won, legal_moves, playable_columns
from golfstats.reference.policies import View, chain_endpoints
from golfstats.rules import Draw, Rules
from golfstats.solver import Goal

#: Two numbers tie when they differ by at most this much (docs/honest-play.md, "Objectives").
TOL = 1e-9

Value = tuple[float, float]  # (win probability, expected strokes)


def better(goal: Goal, a: Value, b: Value) -> bool:
    """Is ``a`` strictly better than ``b`` under ``goal`` (docs/honest-play.md "Objectives")?"""
    (pa, ea), (pb, eb) = a, b
    if goal is Goal.WIN:
        return pa > pb + TOL or (abs(pa - pb) <= TOL and ea < eb - TOL)
    return ea < eb - TOL or (abs(ea - eb) <= TOL and pa > pb + TOL)


def ties(a: Value, b: Value) -> bool:
    """Both numbers within ``TOL``."""
    return abs(a[0] - b[0]) <= TOL and abs(a[1] - b[1]) <= TOL


def _best(goal: Goal, values: list[Value]) -> Value:
    """The best of ``values``; among ties the first (they differ by rounding only)."""
    out = values[0]
    for v in values[1:]:
        if better(goal, v, out):
            out = v
    return out


class _Expectimax:
    """The memoised values of the positions of one hand (one start tableau) under one goal."""

    def __init__(self, rules: Rules, goal: Goal | str):
        self.rules = rules
        self.goal = Goal(goal)
        self.memo: dict[tuple, Value] = {}

    def value(self, pos: Position) -> Value:
        """Value of ``pos``, whose stock must be canonical (``_canonical``)."""
        key = (tuple(len(col) for col in pos.tableau), pos.top, pos.stock)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = self._compute(pos)
        return found

    def _compute(self, pos: Position) -> Value:
        if is_won(pos):
            return (1.0, -float(len(pos.stock)))
        moves = legal_moves(self.rules, pos)
        if not moves:
            return (0.0, float(pos.cards_left()))
        return _best(self.goal, [self.move_value(pos, m) for m in moves])

    def move_value(self, pos: Position, move: int) -> Value:
        """Value of a legal ``move``: the position after a play, or the draw's expectation."""
        if move == DRAW:
            return self.draw_value(pos)
        return self.value(apply(self.rules, pos, move))

    def draw_value(self, pos: Position) -> Value:
        """Sum over the kinds r left of M[r]/|M| times the value after turning an r."""
        counts = Counter(kind(c) for c in pos.stock)
        n = len(pos.stock)
        p = e = 0.0
        for r in sorted(counts):
            vp, ve = self.value(_turn(pos, r, counts))
            w = counts[r] / n
            p += w * vp
            e += w * ve
        return (p, e)


def _canonical(counts: Counter) -> tuple[int, ...]:
    """A stock of the kinds ``counts`` (kind -> how many), in canonical form: by kind, each
    with the first suits (jokers: 52, 53).  Suits never matter and a stock's order is never
    read, so it stands for every stock of these kinds, in any order."""
    out: list[int] = []
    for r in sorted(counts):
        out += JOKERS[:counts[r]] if r == 0 else [card(r, s) for s in range(counts[r])]
    return tuple(out)


def _turn(pos: Position, r: int, counts: Counter) -> Position:
    """``engine.apply(DRAW)`` with a card of kind ``r`` first in the stock: the top becomes
    ``Top.drawn(r)`` and the stock loses one r (the canonical form's last one)."""
    drawn = JOKERS[counts[r] - 1] if r == 0 else card(r, counts[r] - 1)
    rest = list(pos.stock)
    rest.remove(drawn)
    return Position(pos.tableau, tuple(rest), Top.drawn(r), drawn)


def _start(board) -> Position:
    """The board's position with its stock in canonical form (its order forgotten)."""
    pos = board.position()
    return Position(pos.tableau, _canonical(Counter(kind(c) for c in pos.stock)), pos.top,
                    pos.top_card)


def reference_odds(board, rules: Rules, goal: Goal | str = "win") -> Value:
    """``(win_p, expected_strokes)`` of ``board`` under honest optimal play for ``goal``.

    Depends on the talon only through the multiset of its kinds.
    """
    return _Expectimax(rules, goal).value(_start(board))


def reference_move_values(board, rules: Rules, goal: Goal | str = "win") -> list[tuple[int, Value]]:
    """``(move, (win_p, expected_strokes))`` for every legal move now, in
    ``engine.legal_moves`` order (plays in column order, then -1 = draw)."""
    solver = _Expectimax(rules, goal)
    pos = _start(board)
    return [(m, solver.move_value(pos, m)) for m in legal_moves(rules, pos)]


# ---------------------------------------------------------------- the policy twin

def _endpoint_value(solver: _Expectimax, end: Position) -> Value:
    """W of docs/honest-play.md: cleared, nothing left to draw, or the draw's value."""
    if is_won(end):
        return (1.0, -float(len(end.stock)))
    if not end.stock:
        return (0.0, float(end.cards_left()))
    return solver.draw_value(end)


def _plan(solver: _Expectimax, view: View) -> list[int]:
    rules = solver.rules
    pos = Position(view.tableau, _canonical(view.unseen), view.top)
    ends = chain_endpoints(rules, pos)
    if rules.draw is Draw.WHEN_STUCK and pos.stock:
        ends = [(e, line) for e, line in ends if not playable_columns(rules, e)]
    best_end, best_line, best_w = None, None, None
    for end, line in ends:
        w = _endpoint_value(solver, end)
        if (best_w is None or better(solver.goal, w, best_w)
                or (ties(w, best_w) and end.cards_left() < best_end.cards_left())):
            best_end, best_line, best_w = end, line, w
    if best_line is None:
        return []
    return best_line + ([DRAW] if best_end.stock and best_end.cards_left() else [])


def optimal_plan(rules: Rules, view: View, goal: Goal | str = "win") -> list[int]:
    """What ``optimal:goal=...`` does now: the chain of plays to the best chain endpoint,
    then a draw if stock and tableau cards remain.  Ties (both numbers within TOL) go to
    the endpoint with the fewest cards left, then to the first found breadth-first."""
    if view.n_left != sum(view.unseen.values()):
        raise ValueError("the view's unseen kinds must number n_left")
    return _plan(_Expectimax(rules, goal), view)


def play_optimal(rules: Rules, start: Position, goal: Goal | str = "win") -> list[int]:
    """Play ``start`` to the end of the hand with ``optimal_plan``, turning the actual stock
    in its order; the moves made (the twin of the compiled play-out)."""
    solver = _Expectimax(rules, goal)  # every position of the hand shares its memo
    pos, moves = start, []
    while legal_moves(rules, pos):
        chosen = _plan(solver, View.of(pos))  # the view forgets the stock order
        if not chosen:
            break
        for move in chosen:
            pos = apply(rules, pos, move)
            moves.append(move)
            if is_won(pos):
                break
    return moves
