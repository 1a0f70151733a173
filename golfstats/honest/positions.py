"""Mid-game positions made from a deal: where a player stands after its first N moves.

``position_after(rules, board, policy, moves)`` plays the board with ``policy`` (as
``golfstats play`` does, with the same key) and stops after ``moves`` moves (a play or a
draw each), replayed through the reference engine.  The result is a ``Board``, so it
can be written as board text and read back by every command.

Board text keeps only the foundation's top card, and reads it as a card turned there:
a Queen as live, a joker as standing for any rank.  A position whose top means
something else (a dead Queen under ``dead-queen``; a joker played on a card, which
stands only for the ranks that could follow that card) would be read back as another
position, so it is refused (``PositionError``), never written wrong.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from golfstats.board import Board
from golfstats.cards import format_card
from golfstats.engine import apply, is_over, legal_moves
from golfstats.engine import start_position as _start
from golfstats.goals import Goal

if TYPE_CHECKING:
    from golfstats.policies import Policy
    from golfstats.rules import Rules


class PositionError(ValueError):
    """A position that cannot be made as asked (the hand ends sooner) or that board text
    cannot hold (its top)."""


@dataclass(frozen=True)
class MidGame:
    """The board after ``moves`` of ``policy``'s moves; ``over``: the hand has ended."""

    board: Board
    moves: tuple[int, ...]
    over: bool


def position_after(rules: Rules, board: Board, policy: Policy, moves: int, key: int = 0,
                   goal: Goal = Goal.STROKES) -> MidGame:
    """``board`` after the first ``moves`` moves of ``policy`` (key and goal as in
    ``policies.play_board``).  ``PositionError`` when the hand ends in fewer moves, or
    when board text cannot hold the position's top (module doc)."""
    from golfstats.policies import play_board

    if moves < 0:
        raise PositionError(f"a number of moves is 0 or more, not {moves}")
    line = play_board(rules, policy, board, key, goal)
    if moves > line.n_moves:
        raise PositionError(f"{policy.spec} ends this hand after {line.n_moves} moves, "
                            f"before move {moves}")
    pos = board.position()
    for move in line.moves[:moves]:
        if move not in legal_moves(rules, pos):
            raise RuntimeError(f"{policy.spec} made an illegal move ({move})")
        pos = apply(rules, pos, move)
    held = _start(pos.tableau, pos.stock, pos.top_card)
    if held.top != pos.top:
        card = format_card(pos.top_card)
        raise PositionError(
            f"after {moves} moves the foundation's top {card} stands for {pos.top.label()}, "
            f"which board text cannot hold (it reads {card} there as {held.top.label()}); "
            "choose another number of moves")
    return MidGame(Board(pos.tableau, pos.stock, pos.top_card), tuple(line.moves[:moves]),
                   is_over(rules, pos))
