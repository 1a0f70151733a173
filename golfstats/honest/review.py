"""A game's post-mortem: every move of a played game against perfect play without peeking.

``review(board, rules, moves)`` values the deal ONCE (``honest.odds``, goal
``win-strokes`` with ``Keep.ALL``: every chance of winning and the policy's memo of expected
strokes) and then walks the game: at each position the honest value before the move (the
value of perfect play from there, for a player who knows the multiset of the stock but not
its order), the value of the move chosen (a play: the position after it; a draw: the
expectation over the cards it may turn, as the player saw it when choosing), every legal
move's value, the best move (the first legal move whose value is the position's) and the
cost of the choice: the points of win chance and the expected strokes given away, both
measured from the position's own value.  The cost of a move is never negative in win
chance; in expected strokes it can be, where the goal's tie-breaks put a move with fewer
expected strokes second (nothing left to win: the fewest cards first).  The value after a
draw is the new position's, once its card is known: luck, not a choice, and not a cost.

Parsing a game file (``game_from_record``): the JSON object ``golfstats play --json``
writes (``variant``, ``board_text`` and ``moves``, each ``{"play": card, "column": c}``
or ``{"draw": card}``); every move is checked against the reference engine.
"""

from __future__ import annotations

from dataclasses import dataclass

from golfstats.board import Board
from golfstats.cards import format_card
from golfstats.engine import DRAW, Position, apply, is_won, legal_moves
from golfstats.goals import TOL, Goal
from golfstats.honest.odds import Odds, odds
from golfstats.honest.table import Keep, Table
from golfstats.honest.value import Value
from golfstats.rules import Rules


class GameError(ValueError):
    """A game file that cannot be reviewed (the message is one line)."""


@dataclass(frozen=True)
class Game:
    """A played game: the rules, the board at the start and its engine moves."""

    rules: Rules
    board: Board
    moves: tuple[int, ...]


@dataclass(frozen=True)
class MoveReview:
    """One move of the game.  ``before``: the value of the position (perfect play from
    here); ``chosen``: of the move played; ``after``: of the position after it (for a draw,
    once its card is known); ``best``: the best legal move (engine move), ``best_card``
    the card it plays (None for a draw); ``cost_p`` = before p - chosen p, ``cost_e`` =
    chosen e - before e; ``differs``: the chosen move's value is not the position's."""

    number: int
    move: int
    card: int
    before: Value
    chosen: Value
    after: Value
    best: int
    best_card: int | None
    cost_p: float
    cost_e: float

    @property
    def differs(self) -> bool:
        return self.cost_p > TOL or abs(self.cost_e) > TOL


@dataclass(frozen=True)
class Review:
    """The whole game: the deal's ``odds`` at the start (its stats: the one table), each
    move reviewed, the game's result, and the totals given away.  ``finished``: the game
    ends where the hand does (won, or no legal move left); a game that stops while moves
    remain is unfinished, and ``strokes`` is then the cards left where it stopped."""

    odds: Odds
    moves: tuple[MoveReview, ...]
    won: bool
    strokes: int
    finished: bool = True

    @property
    def given_p(self) -> float:
        return sum(m.cost_p for m in self.moves)

    @property
    def given_e(self) -> float:
        return sum(m.cost_e for m in self.moves)

    @property
    def chances(self) -> list[float]:
        """The chance of winning before each move, then after the last."""
        out = [m.before.p for m in self.moves]
        return out + ([self.moves[-1].after.p] if self.moves else [self.odds.value.p])


def game_from_record(record: object, parse_variant, parse_board) -> Game:
    """The game in a ``play --json`` record; ``GameError`` (one line) when it is not one.
    ``parse_variant`` and ``parse_board`` are ``golfstats.rules.parse_variant`` and
    ``golfstats.board.parse_board`` (passed in: this module stays free of the CLI's
    choice of readers)."""
    if not isinstance(record, dict):
        raise GameError("a game is one JSON object, as `golfstats play --json` writes")
    missing = [k for k in ("variant", "board_text", "moves") if k not in record]
    if missing:
        raise GameError(f"the game lacks {', '.join(missing)} (written by `golfstats play --json`)")
    try:
        rules = parse_variant(str(record["variant"]))
    except ValueError as exc:
        raise GameError(f"variant: {exc}") from None
    try:
        board = parse_board(str(record["board_text"]), rules)
    except ValueError as exc:
        raise GameError(f"board_text: {exc}") from None
    if not isinstance(record["moves"], list):
        raise GameError("moves must be a list")
    pos = board.position()
    moves = []
    for i, item in enumerate(record["moves"], 1):
        if not isinstance(item, dict) or not ({"play"} <= set(item) or {"draw"} <= set(item)):
            raise GameError(f"move {i}: not a move ({json_text(item)})")
        if "draw" in item:
            move = DRAW
            card = pos.stock[0] if pos.stock else None
            named = item["draw"]
        else:
            column = item.get("column")
            if not isinstance(column, int) or not 1 <= column <= len(pos.tableau):
                raise GameError(f"move {i}: no column {column!r}")
            move = column - 1
            col = pos.tableau[move]
            card = col[-1] if col else None
            named = item["play"]
        if move not in legal_moves(rules, pos):
            raise GameError(f"move {i}: {json_text(item)} is not legal here")
        if named != format_card(card):
            raise GameError(f"move {i}: {json_text(item)} moves {format_card(card)}, not {named}")
        moves.append(move)
        pos = apply(rules, pos, move)
    return Game(rules, board, tuple(moves))


def json_text(item: object) -> str:
    import json

    return json.dumps(item)


def review(game: Game, max_bytes: int | None = None, progress=None, threads: int = 1) -> Review:
    """Review ``game`` from one table of its deal (goal win-strokes; see the module
    docstring).  An unresolved table raises ``RuntimeError`` naming the memory it needs."""
    rules, board = game.rules, game.board
    if not rules.layout.has_stock:
        raise ValueError(f"{rules.id} has no stock: nothing is hidden, see `golfstats solve`")
    start = odds(board, rules, Goal.WIN_STROKES, max_bytes=max_bytes, keep=Keep.ALL,
                 progress=progress, threads=threads)
    if not start.resolved or start.table is None:
        raise RuntimeError(f"the deal's table is over the memory budget (needs about "
                           f"{start.stats.peak_bytes / 1e9:.2f} GB)")
    table = start.table
    pos = board.position()
    out = []
    before = start.value
    for number, move in enumerate(game.moves, 1):
        values = _move_values(table, rules, pos)
        chosen = values[move]
        best = next((m for m, v in values.items() if v.ties(before)), move)
        card = pos.stock[0] if move == DRAW else pos.tableau[move][-1]
        best_card = None if best == DRAW else pos.tableau[best][-1]
        pos = apply(rules, pos, move)
        after = table.value(pos)
        out.append(MoveReview(number, move, card, before, chosen, after, best, best_card,
                              before.p - chosen.p, chosen.e - before.e))
        before = after
    return Review(start, tuple(out), is_won(pos), _strokes(pos),
                  is_won(pos) or not legal_moves(rules, pos))


def _move_values(table: Table, rules: Rules, pos: Position) -> dict[int, Value]:
    """The value after every legal move: a play's the position after it, a draw's the
    expectation over the kinds it may turn."""
    return {move: table.draw_value(pos) if move == DRAW else table.value(apply(rules, pos, move))
            for move in legal_moves(rules, pos)}


def _strokes(pos: Position) -> int:
    return -len(pos.stock) if is_won(pos) else pos.cards_left()


def chart(result: Review):
    """The chance of winning along the game (a matplotlib ``Figure``): before each move and
    after the last, the moves that gave chance away marked."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(8, 3.2))
    ax = fig.add_subplot()
    ys = [100 * p for p in result.chances]
    ax.step(range(len(ys)), ys, where="post", color="#17becf", label="chance of winning")
    lost = [(m.number - 1, 100 * m.before.p) for m in result.moves if m.cost_p > TOL]
    if lost:
        ax.scatter(*zip(*lost, strict=True), color="#d62728", zorder=3,
                   label="a move that gave chance away")
    ax.set_xlabel("move")
    ax.set_ylabel("chance of winning (%)")
    ax.set_ylim(-3, 103)
    ax.set_title(f"{100 * result.odds.value.p:.1f}% at the start; "
                 f"{100 * result.given_p:.1f} points of win chance given away")
    ax.legend(loc="best", fontsize="small")
    fig.tight_layout()
    return fig

