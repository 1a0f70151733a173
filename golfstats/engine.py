"""The reference engine: slow, plain and obviously correct.

Everything here follows docs/rules.md line by line, on immutable values, with no
tables and no tricks.  The compiled kernels are tested against it, and their
top-card tables are *generated* from ``Top`` below, so this file is where the
meaning of every rule lives.

A move is an int: ``c >= 0`` plays the exposed card of column ``c``;
``DRAW`` (-1) turns the top stock card.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from golfstats.cards import JOKER_KIND, KING, QUEEN, kind
from golfstats.rules import Draw, Rules
from golfstats.scoring import clear_points, play_points

DRAW = -1
ALL_RANKS = tuple(range(1, 14))


@dataclass(frozen=True)
class Top:
    """What the foundation's top card stands for: a set of (rank, dead) meanings.

    A plain card has one meaning.  A joker may stand for several ranks (the player
    picks the best later).  ``dead`` marks a Queen played on a King under the
    dead-queen house rule: it accepts nothing.  The empty foundation and a joker
    turned from the stock stand for every rank (``Top.any()``).
    """

    meanings: frozenset[tuple[int, bool]]

    @staticmethod
    def any() -> Top:
        return Top(frozenset((r, False) for r in ALL_RANKS))

    @staticmethod
    def of_rank(rank: int) -> Top:
        return Top(frozenset({(rank, False)}))

    @staticmethod
    def drawn(card_kind: int) -> Top:
        """The top after turning a card of ``card_kind`` from the stock (or dealing it there)."""
        return Top.any() if card_kind == JOKER_KIND else Top.of_rank(card_kind)

    def accepts(self, rules: Rules) -> frozenset[int]:
        """Ranks of real cards that may be played on this top."""
        out: set[int] = set()
        for rank, dead in self.meanings:
            if not dead:
                out |= rules.successors(rank)
        return frozenset(out)

    def after(self, rules: Rules, card_kind: int) -> Top | None:
        """The top after playing a card of ``card_kind`` on it, or None if that is illegal."""
        # rank the played card may stand for -> is every way of getting there a dead Queen?
        dead_only: dict[int, bool] = {}
        candidates = ALL_RANKS if card_kind == JOKER_KIND else (card_kind,)
        for rank, dead in self.meanings:
            if dead:
                continue
            for new in rules.successors(rank):
                if new not in candidates:
                    continue
                is_dead = rules.dead_queen and new == QUEEN and rank == KING
                dead_only[new] = dead_only.get(new, True) and is_dead
        if not dead_only:
            return None
        return Top(frozenset(dead_only.items()))

    def label(self) -> str:
        if self == Top.any():
            return "any"
        from golfstats.cards import format_rank
        parts = sorted(self.meanings)
        return "/".join(format_rank(r) + ("(dead)" if d else "") for r, d in parts)


@dataclass(frozen=True)
class Position:
    """A position: tableau columns (last card exposed), stock in draw order, the top.

    ``top_card`` is the card id on the foundation (None if empty), for display only:
    the game reads ``top``.
    """

    tableau: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    top: Top
    top_card: int | None = None

    def cards_left(self) -> int:
        return sum(len(col) for col in self.tableau)


def start_position(tableau: Sequence[Sequence[int]], stock: Sequence[int],
                   foundation: int | None) -> Position:
    """A position with ``foundation`` as the top card (None: empty foundation)."""
    top = Top.any() if foundation is None else Top.drawn(kind(foundation))
    return Position(tuple(tuple(c) for c in tableau), tuple(stock), top, foundation)


def playable_columns(rules: Rules, pos: Position) -> list[int]:
    """Columns whose exposed card may be played now, in column order."""
    out = []
    for c, col in enumerate(pos.tableau):
        if col and pos.top.after(rules, kind(col[-1])) is not None:
            out.append(c)
    return out


def legal_moves(rules: Rules, pos: Position) -> list[int]:
    """Every legal move: plays in column order, then DRAW if allowed.  Empty once the hand ends."""
    if pos.cards_left() == 0:
        return []
    plays = playable_columns(rules, pos)
    may_draw = bool(pos.stock) and (rules.draw is Draw.ANY_TIME or not plays)
    return plays + ([DRAW] if may_draw else [])


def apply(rules: Rules, pos: Position, move: int) -> Position:
    """The position after ``move``; raises ``ValueError`` if it is illegal."""
    if move not in legal_moves(rules, pos):
        raise ValueError(f"illegal move {move} in this position")
    if move == DRAW:
        card = pos.stock[0]
        return Position(pos.tableau, pos.stock[1:], Top.drawn(kind(card)), card)
    col = pos.tableau[move]
    card = col[-1]
    top = pos.top.after(rules, kind(card))
    tableau = pos.tableau[:move] + (col[:-1],) + pos.tableau[move + 1:]
    return Position(tableau, pos.stock, top, card)


def is_over(rules: Rules, pos: Position) -> bool:
    """Won (tableau clear) or lost (stock empty and no play)."""
    return not legal_moves(rules, pos)


def is_won(pos: Position) -> bool:
    return pos.cards_left() == 0


def strokes(pos: Position) -> int:
    """docs/rules.md strokes of a finished hand: cards left, or minus the unturned stock if cleared."""
    left = pos.cards_left()
    return -len(pos.stock) if left == 0 else left


def line_score(moves: Iterable[int], won: bool, stock_left: int) -> tuple[int, int, int]:
    """(points, draws, longest chain) of a hand's line of moves (docs/rules.md "Scoring").

    Each tableau card played scores 10 plus 5 for every earlier card of the current
    streak; a draw ends the streak; clearing the tableau adds 100 plus 5 per stock
    card left unturned.
    """
    points = draws = streak = longest = 0
    for move in moves:
        if move == DRAW:
            draws += 1
            streak = 0
        else:
            points += play_points(streak)
            streak += 1
            longest = max(longest, streak)
    if won:
        points += clear_points(stock_left)
    return points, draws, longest


@dataclass(frozen=True)
class Line:
    """A line of moves from a position and its docs/rules.md scores: a hand played by a
    policy, or a solver's optimal line.  The one result type of a line everywhere.

    ``moves`` is the move list (``c >= 0`` plays column c, ``DRAW`` turns a card);
    ``n_moves`` is its length.  ``stock_left`` counts the stock cards not turned at the
    end.  ``states`` counts the positions a solver examined (0 for a player),
    ``seconds`` the time it took.  ``resolved`` is False when a search budget cut the
    work short (the line is then only the best found, not a proven optimum).
    ``finished`` says whether the hand is over at the end of the line.
    """

    moves: tuple[int, ...]
    won: bool
    strokes: int
    stock_left: int
    points: int
    draws: int
    longest_chain: int
    states: int = 0
    seconds: float = 0.0
    resolved: bool = True
    finished: bool = True

    @classmethod
    def scored(cls, moves: Iterable[int], won: bool, strokes: int, stock_left: int,
               **extra) -> Line:
        """A line with its points, draws and longest chain computed by ``line_score``."""
        moves = tuple(int(m) for m in moves)
        points, draws, longest = line_score(moves, won, stock_left)
        return cls(moves, bool(won), int(strokes), int(stock_left), points, draws, longest, **extra)

    @property
    def n_moves(self) -> int:
        return len(self.moves)

    def to_record(self) -> dict:
        """The scores as a JSON-ready dict (the move list is rendered by the caller, which
        knows the cards: see ``golfstats.render``)."""
        return {"won": self.won, "strokes": self.strokes, "stock_left": self.stock_left,
                "points": self.points, "draws": self.draws, "longest_chain": self.longest_chain,
                "n_moves": self.n_moves, "states": self.states, "seconds": round(self.seconds, 6),
                "resolved": self.resolved}


def score_moves(rules: Rules, start: Position, moves: Iterable[int]) -> Line:
    """Replay ``moves`` from ``start`` (each must be legal; ``ValueError`` otherwise) and
    score the result.  Strokes are counted where the line stops, finished or not."""
    played = list(moves)
    pos = start
    for move in played:
        pos = apply(rules, pos, move)
    return Line.scored(played, is_won(pos), strokes(pos), len(pos.stock),
                       finished=is_over(rules, pos))
