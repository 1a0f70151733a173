"""Each registered policy's twin as a play-out, for the tests (``TWINS``, ``twin_of``).

``twin(rules, start, policy, key) -> TwinLine``: the whole hand from a position, by the
policy's slow twin.  Production code never imports this package: the tests pair every
registered policy with its twin here (and check that none is missing).  The clairvoyant
solver's twin is the reference solver, which proves the optimal strokes but does not
name one of the (often many) optimal lines: its ``moves`` are None, and tests compare it
on won and strokes only.
"""

from __future__ import annotations

from dataclasses import dataclass

from golfstats.engine import DRAW, Line, Position, score_moves
from golfstats.reference import expectimax
from golfstats.reference.policies import greedy, lookahead, play_out, random_move
from golfstats.reference.sampling import sampling
from golfstats.reference.solver import reference_solve
from golfstats.rules import Rules


@dataclass(frozen=True)
class TwinLine:
    """What a twin says of a hand: won, strokes and, when it names one, the line; only its
    first ``binding`` moves are the policy's own (None: all of them)."""

    won: bool
    strokes: int
    moves: tuple[int, ...] | None
    binding: int | None = None

    def agrees(self, moves, won: bool, strokes: int) -> bool:
        """Does a play-out (its moves and result) do what this twin says?"""
        if (won, strokes) != (self.won, self.strokes):
            return False
        if self.moves is None:
            return True
        upto = len(self.moves) if self.binding is None else self.binding
        return tuple(moves[:upto]) == tuple(self.moves[:upto]) and (
            self.binding is not None or len(moves) == len(self.moves))


def _twin_line(line: Line) -> TwinLine:
    return TwinLine(line.won, line.strokes, line.moves)


def random_twin(rules: Rules, start: Position, policy, key: int = 0) -> TwinLine:
    return _twin_line(play_out(rules, start, random_move, key))


def greedy_twin(rules: Rules, start: Position, policy, key: int = 0) -> TwinLine:
    return _twin_line(play_out(rules, start, lambda r, view, rng: greedy(r, view), key))


def lookahead_twin(rules: Rules, start: Position, policy, key: int = 0) -> TwinLine:
    """Without a stock nothing is hidden and lookahead plays the exact line: its twin is
    then the reference solver's optimum."""
    if not rules.layout.has_stock:
        return exact_twin(rules, start, policy, key)
    depth = int(policy.param("depth"))
    return _twin_line(play_out(rules, start, lambda r, view, rng: lookahead(r, view, depth), key))


def sampling_twin(rules: Rules, start: Position, policy, key: int = 0) -> TwinLine:
    """Its moves bind while stock remains: once the last card is turned nothing is hidden
    and both it and the kernel play an optimal line, of which there are often many."""
    samples = int(policy.param("samples"))
    line = play_out(rules, start, lambda r, view, rng: sampling(r, view, samples, rng), key)
    binding, drawn = (len(line.moves) if start.stock else 0), 0
    for i, move in enumerate(line.moves):  # up to the draw that empties the stock
        drawn += move == DRAW
        if move == DRAW and drawn == len(start.stock):
            binding = i + 1
            break
    return TwinLine(line.won, line.strokes, line.moves, binding)


def exact_twin(rules: Rules, start: Position, policy, key: int = 0) -> TwinLine:
    """The reference solver's optimum: won and strokes (no line: see the module doc)."""
    from golfstats.board import Board

    won, strokes = reference_solve(Board(start.tableau, start.stock, start.top_card), rules)
    return TwinLine(won, strokes, None)


def optimal_twin(rules: Rules, start: Position, policy, key: int = 0) -> TwinLine:
    """The plain memoised expectimax's play-out (``reference.expectimax``); without a stock,
    nothing is hidden and the optimum is the reference solver's."""
    if not rules.layout.has_stock:
        return exact_twin(rules, start, policy, key)
    line = score_moves(rules, start, expectimax.play_optimal(rules, start, policy.param("goal")))
    return _twin_line(line)


#: The twin of every registered policy, by name.
TWINS = {"random": random_twin, "greedy": greedy_twin, "lookahead": lookahead_twin,
         "sampling": sampling_twin, "optimal": optimal_twin, "exact": exact_twin}


def twin_of(policy):
    """The twin play-out of a ``Policy`` (or a policy name)."""
    name = getattr(policy, "name", policy)
    try:
        return TWINS[name]
    except KeyError:
        raise KeyError(f"policy {name!r} has no twin in golfstats.reference.twins.TWINS") from None
