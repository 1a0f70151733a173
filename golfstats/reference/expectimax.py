"""The honest optimum, slowly: a plain memoised expectimax over the reference engine.

This is the twin of ``golfstats.honest.odds`` (the compiled kernel) and of the ``optimal``
policy.  It computes ``docs/honest-play.md`` word for word, in its *first* formulation
(move by move):

    value(position) = (1, -|M|, 0)                  if the tableau is clear (won)
                      (0, cards left, cards left)   if no move is legal (lost)
                      best over the legal moves m of value(m)
    value(play c)   = value(engine.apply(position, c))
    value(draw)     = (sum over kinds r in M of  M[r]/|M| * (p, e)(position after turning r),
                       cards left now)

A value is ``(p, e, c)``: the win probability, the expected strokes, and the cards c left
at the end of the chain the move plays (a draw's c is the cards now; a play's c is the c of
the position after it, that is of the move chosen there).  ``best`` is the objective's
order (``_choose``; two numbers tie within ``TOL`` = 1e-9):

* ``win-strokes`` (and ``win``, which asks for p alone: the same p): let p* be the best
  p.  If p* > TOL, the moves with p >= p* - TOL compete on the smallest e, then the
  smallest c.  Otherwise (nothing can be won any more) every move
  competes on the smallest c, then the smallest e: the policy plays the chain leaving the
  fewest cards, and e is the exact expected strokes *of this policy*, not the strokes
  optimum.
* ``strokes``: the smallest e, then the largest p, then the smallest c.

Among the moves left after every criterion the first is taken (their values differ by
rounding only).

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

The policy twin ``optimal_plan`` uses the doc's *second* formulation (chain by chain): the
best ``W`` over the endpoints of the chains of plays (``reference.policies.chain_endpoints``),
each endpoint's c being the cards left at it, chosen by the same criteria, then the first
found breadth-first.  The two forms choose the same endpoint because each criterion is a
property of the endpoint alone (p, e and its cards), and a play's value is the best over the
endpoints its chain can still reach.  The tests tie them: the first move of every plan is a
best move of the first form with the position's value, and ``play_optimal`` averaged over
every order of the stock scores exactly ``reference_odds``.

Cost: a memoised position costs one ``legal_moves`` plus one ``apply`` per play and one
``_turn`` per kind in the stock, about 0.1 ms in all.  The positions are the reachable
(heights, top, sub-multiset of the stock) triples: at most the product of (height + 1)
over the columns, times the product of (count + 1) over the kinds in the stock, times the
tops.  The CI positions of tests/test_honest_twin.py (1..8 stock cards, about 7 tableau
cards, that product at most 600 or 1,200) take a few ms per position and goal on average
(at most ~3,000 memoised positions); a fresh deal (16 or more stock cards, 35 tableau
cards) is out of reach.  For tests only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from golfstats.cards import JOKERS, card, kind
from golfstats.engine import DRAW, Position, Top, apply, is_won, legal_moves, playable_columns
from golfstats.goals import TOL, Goal
from golfstats.reference.policies import View, chain_endpoints
from golfstats.rules import Draw, Rules

Value = tuple[float, float]  # (win probability, expected strokes)
Scored = tuple[float, float, int]  # (win probability, expected strokes, cards c at the chain's end)


def _keep_min(values: Sequence[Scored], idx: list[int], part: int, tol: float) -> list[int]:
    low = min(values[i][part] for i in idx)
    return [i for i in idx if values[i][part] <= low + tol]


def choose(goal: Goal | str, values: Sequence[Scored]) -> list[int]:
    """The indices of the best of ``values`` under ``goal`` (docs/honest-play.md "Objectives"),
    in their order: what is left after every criterion (numbers within ``TOL`` tie).

    ``win-strokes`` (and ``win``, whose p is the same), best p > TOL: p >= p* - TOL, then
    the smallest e, then the smallest c; best p <= TOL: the smallest c, then the smallest e;
    ``strokes``: the smallest e, then the largest p, then the smallest c.
    The same order serves moves (c: the cards at the end of the chain the move plays) and
    chain endpoints (c: the cards left at the endpoint).
    """
    idx = list(range(len(values)))
    if not idx:
        return idx
    if Goal(goal) is not Goal.STROKES:
        top = max(values[i][0] for i in idx)
        if top > TOL:
            idx = [i for i in idx if values[i][0] >= top - TOL]
            return _keep_min(values, _keep_min(values, idx, 1, TOL), 2, 0)
        return _keep_min(values, _keep_min(values, idx, 2, 0), 1, TOL)
    idx = _keep_min(values, idx, 1, TOL)
    best_p = max(values[i][0] for i in idx)
    idx = [i for i in idx if values[i][0] >= best_p - TOL]
    return _keep_min(values, idx, 2, 0)


class _Expectimax:
    """The memoised values of the positions of one hand (one start tableau) under one goal."""

    def __init__(self, rules: Rules, goal: Goal | str):
        self.rules = rules
        self.goal = Goal(goal)
        self.memo: dict[tuple, Scored] = {}

    def value(self, pos: Position) -> Scored:
        """Value ``(p, e, c)`` of ``pos``, whose stock must be canonical (``_canonical``)."""
        key = (tuple(len(col) for col in pos.tableau), pos.top, pos.stock)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = self._compute(pos)
        return found

    def _compute(self, pos: Position) -> Scored:
        if is_won(pos):
            return (1.0, -float(len(pos.stock)), 0)
        moves = legal_moves(self.rules, pos)
        if not moves:
            return (0.0, float(pos.cards_left()), pos.cards_left())
        values = [self.move_value(pos, m) for m in moves]
        return values[choose(self.goal, values)[0]]

    def move_value(self, pos: Position, move: int) -> Scored:
        """Value of a legal ``move``: the position after a play, or the draw's expectation."""
        if move == DRAW:
            return self.draw_value(pos)
        return self.value(apply(self.rules, pos, move))

    def draw_value(self, pos: Position) -> Scored:
        """Sum over the kinds r left of M[r]/|M| times (p, e) after turning an r; c is the
        cards now (the draw ends the chain here)."""
        counts = Counter(kind(c) for c in pos.stock)
        n = len(pos.stock)
        p = e = 0.0
        for r in sorted(counts):
            vp, ve, _ = self.value(_turn(pos, r, counts))
            w = counts[r] / n
            p += w * vp
            e += w * ve
        return (p, e, pos.cards_left())


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


def reference_value(board, rules: Rules, goal: Goal | str = Goal.WIN_STROKES) -> Scored:
    """``(win_p, expected_strokes, c)`` of ``board`` under honest optimal play for ``goal``;
    c is the cards left at the end of the chain the policy plays now (0 when it clears)."""
    return _Expectimax(rules, goal).value(_start(board))


def reference_odds(board, rules: Rules, goal: Goal | str = Goal.WIN_STROKES) -> Value:
    """``(win_p, expected_strokes)`` of ``board`` under honest optimal play for ``goal``.

    Depends on the talon only through the multiset of its kinds.
    """
    return reference_value(board, rules, goal)[:2]


def reference_move_values(board, rules: Rules, goal: Goal | str = Goal.WIN_STROKES
                          ) -> list[tuple[int, Scored]]:
    """``(move, (win_p, expected_strokes, c))`` for every legal move now, in
    ``engine.legal_moves`` order (plays in column order, then -1 = draw); c is the cards
    left at the end of the chain the move plays (a draw: the cards now).  The best moves
    are ``choose(goal, [v for _, v in ...])``."""
    solver = _Expectimax(rules, goal)
    pos = _start(board)
    return [(m, solver.move_value(pos, m)) for m in legal_moves(rules, pos)]


# ---------------------------------------------------------------- the policy twin

def _endpoint_value(solver: _Expectimax, end: Position) -> Scored:
    """W of docs/honest-play.md with the endpoint's cards: cleared, nothing left to draw,
    or the draw's value."""
    if is_won(end):
        return (1.0, -float(len(end.stock)), 0)
    if not end.stock:
        return (0.0, float(end.cards_left()), end.cards_left())
    return solver.draw_value(end)


def choose_by_cards(values: Sequence[Scored]) -> list[int]:
    """The indices of the best of ``values`` for the ``optimal`` policy's goal win (the
    chance of winning alone): p >= p* - TOL, then the smallest c; e is not read."""
    if not values:
        return []
    top = max(v[0] for v in values)
    idx = [i for i, v in enumerate(values) if v[0] >= top - TOL]
    return _keep_min(values, idx, 2, 0)


def _plan(solver: _Expectimax, view: View) -> list[int]:
    rules = solver.rules
    pos = Position(view.tableau, _canonical(view.unseen), view.top)
    ends = chain_endpoints(rules, pos)
    if rules.draw is Draw.WHEN_STUCK and pos.stock:
        ends = [(e, line) for e, line in ends if not playable_columns(rules, e)]
    if not ends:
        return []
    values = [_endpoint_value(solver, end) for end, _ in ends]
    pick = choose_by_cards(values) if solver.goal is Goal.WIN else choose(solver.goal, values)
    best_end, best_line = ends[pick[0]]
    return best_line + ([DRAW] if best_end.stock and best_end.cards_left() else [])


def optimal_plan(rules: Rules, view: View, goal: Goal | str = Goal.WIN) -> list[int]:
    """What the ``optimal`` policy does now: the chain of plays to the best chain endpoint,
    then a draw if stock and tableau cards remain.

    Best with the endpoint's cards as c, then the first found breadth-first: under
    ``win`` (the chance of winning alone) p within TOL of p*, then the fewest cards
    (``choose_by_cards``); else by ``choose``: under ``win-strokes`` at p* <= TOL the
    fewest cards, then the
    smallest e, at p* > TOL p within TOL of p*, then the smallest e, then the fewest
    cards; under ``strokes`` the smallest e, then the largest p, then the fewest cards.
    """
    if view.n_left != sum(view.unseen.values()):
        raise ValueError("the view's unseen kinds must number n_left")
    return _plan(_Expectimax(rules, goal), view)


def play_optimal(rules: Rules, start: Position, goal: Goal | str = Goal.WIN) -> list[int]:
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
