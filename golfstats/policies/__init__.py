"""Playing policies by name: ``random``, ``greedy``, ``lookahead``, ``sampling``, ``exact``.

Parameters go in the name: ``lookahead:depth=2``, ``sampling:samples=32``.  Every
policy but ``exact`` decides only from what a player sees (tableau, top, the
number of stock cards left and the multiset of their ranks, never their order);
``exact`` is the clairvoyant solver used as a player.

``play_deals`` plays a batch of seeded deals (compiled, for simulations);
``play_board`` plays one board and ``plan`` gives the decision in one position
(for the CLI and for tests).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from golfstats.board import Board
from golfstats.deals import DealBatch
from golfstats.engine import line_score
from golfstats.rules import Rules

# kernel ids (kept equal to golfstats.kernels.playout's without importing numba here)
_RANDOM, _GREEDY, _LOOKAHEAD, _SAMPLING = 0, 1, 2, 3


class PolicyError(ValueError):
    """An unknown policy name or a bad parameter."""


@dataclass(frozen=True)
class PolicyInfo:
    name: str
    kernel: int | None  # compiled player id; None for the exact solver
    defaults: dict[str, int]
    description: str
    honest: bool = True
    limits: dict[str, tuple[int, int]] = field(default_factory=dict)


REGISTRY: dict[str, PolicyInfo] = {
    "random": PolicyInfo("random", _RANDOM, {}, "a uniformly random legal move"),
    "greedy": PolicyInfo("greedy", _GREEDY, {},
                         "play whenever possible (tallest column first), otherwise draw"),
    "lookahead": PolicyInfo("lookahead", _LOOKAHEAD, {"depth": 1},
                            "best chain now, valued by expectation over the next `depth` draws",
                            limits={"depth": (1, 2)}),
    "sampling": PolicyInfo("sampling", _SAMPLING, {"samples": 32},
                           "per chain, solve `samples` stock orders consistent with what it "
                           "sees; play the best on average", limits={"samples": (1, 4096)}),
    "exact": PolicyInfo("exact", None, {}, "the clairvoyant exact solver (knows the stock order)",
                        honest=False),
}


@dataclass(frozen=True)
class Policy:
    """A registered policy with its parameters (all of them, defaults filled in)."""

    name: str
    params: tuple[tuple[str, int], ...] = ()

    @property
    def info(self) -> PolicyInfo:
        return REGISTRY[self.name]

    @property
    def spec(self) -> str:
        """Canonical name: non-default parameters after a colon, e.g. ``lookahead:depth=2``."""
        extra = [f"{k}={v}" for k, v in self.params if self.info.defaults.get(k) != v]
        return self.name + (":" + ",".join(extra) if extra else "")

    def __str__(self) -> str:
        return self.spec

    def param(self, key: str) -> int:
        return dict(self.params)[key]


def parse_policy(text: str) -> Policy:
    """``greedy``, ``lookahead:depth=2``, ``sampling:samples=32`` ... -> ``Policy``."""
    name, _, rest = text.strip().lower().partition(":")
    if name not in REGISTRY:
        raise PolicyError(f"unknown policy {name!r}; policies are: " + ", ".join(REGISTRY))
    info = REGISTRY[name]
    params = dict(info.defaults)
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = item.partition("=")
        if key not in info.defaults:
            known = ", ".join(info.defaults) or "none"
            raise PolicyError(f"policy {name} has no parameter {key!r} (parameters: {known})")
        if not eq or not value.lstrip("-").isdigit():
            raise PolicyError(f"parameter {key} of {name} needs an integer value, as {key}=2")
        lo, hi = info.limits.get(key, (1, 10**6))
        if not lo <= int(value) <= hi:
            raise PolicyError(f"parameter {key} of {name} must be between {lo} and {hi}")
        params[key] = int(value)
    return Policy(name, tuple(sorted(params.items())))


# ------------------------------------------------------------------ playing

#: Columns of a play-out result, in order (``play_deals`` returns one array each).
RESULT_COLUMNS = ("won", "strokes", "points", "draws", "moves", "longest_chain", "states", "seconds")


def _kernel_params(policy: Policy) -> np.ndarray:
    values = [v for _, v in policy.params] or [0]
    return np.array(values, np.int64)


def play_deals(rules: Rules, policy: Policy, batch: DealBatch, goal: str = "strokes",
               record_moves: bool = False) -> dict[str, np.ndarray]:
    """Play every deal of ``batch``; one array per ``RESULT_COLUMNS`` entry (and ``move_list``,
    a list of int arrays, with ``record_moves``).

    ``states`` counts the solver's positions (0 for honest players).  ``seconds`` is the
    deal's own time for ``exact``; for the compiled players, which run a whole batch
    in one call, it is the batch time divided evenly.
    """
    if policy.info.kernel is None:
        return _exact_deals(rules, batch, goal, record_moves)
    from golfstats.kernels.playout import play_batch
    from golfstats.kernels.tables import kernel_tables, tables_for
    from golfstats.solver import golf_scratch

    tables = tables_for(rules)
    layout = rules.layout
    start = {"card": 0, "empty": 1, "ace-of-spades": 2}[layout.start]
    n = batch.cards.shape[0]
    out = np.zeros((n, 7), np.int64)
    width = batch.cards.shape[1] + 2
    moves = np.zeros((n if record_moves else 1, width), np.int64)
    kv, kb = golf_scratch(tables.stride)
    started = time.perf_counter()
    play_batch(policy.info.kernel, _kernel_params(policy), kernel_tables(tables), batch.cards,
               batch.keys, layout.columns, layout.height, start, max(tables.index_any, 0),
               kv, kb, out, moves, record_moves)
    elapsed = time.perf_counter() - started
    if (out[:, 0] != 0).any():
        raise RuntimeError(f"policy {policy.spec} produced an illegal plan (internal error)")
    result = {
        "won": out[:, 1].astype(bool), "strokes": out[:, 2], "points": out[:, 3],
        "draws": out[:, 4], "moves": out[:, 5], "longest_chain": out[:, 6],
        "states": np.zeros(n, np.int64), "seconds": np.full(n, elapsed / max(n, 1)),
    }
    if record_moves:
        result["move_list"] = [row[:k] for row, k in zip(moves, out[:, 5], strict=True)]
    return result


def _exact_deals(rules: Rules, batch: DealBatch, goal: str, record_moves: bool) -> dict:
    from golfstats.deals import board_from_cards
    from golfstats.solver import solve

    cols: dict[str, list] = {k: [] for k in RESULT_COLUMNS}
    lines = []
    for cards in batch.cards:
        board = board_from_cards(rules, cards)
        sol = solve(board, rules, goal)
        points, draws, longest = line_score(sol.moves, sol.won, sol.stock_left)
        for key, value in zip(RESULT_COLUMNS, (sol.won, sol.strokes, points, draws, len(sol.moves),
                                               longest, sol.states, sol.seconds), strict=True):
            cols[key].append(value)
        if record_moves:
            lines.append(np.array(sol.moves, np.int64))
    result = {k: np.array(v, dtype=bool if k == "won" else float if k == "seconds" else np.int64)
              for k, v in cols.items()}
    if record_moves:
        result["move_list"] = lines
    return result


@dataclass
class PlayResult:
    """One hand played: the RULES.md scores and the moves (``c >= 0`` column c, -1 draw)."""

    won: bool
    strokes: int
    points: int
    draws: int
    moves: list[int]
    longest_chain: int
    states: int = 0


def play_board(rules: Rules, policy: Policy, board: Board, key: int = 0,
               goal: str = "strokes") -> PlayResult:
    """Play ``board`` (a deal or a mid-game position) to the end of the hand."""
    if policy.info.kernel is None:
        from golfstats.solver import solve

        sol = solve(board, rules, goal)
        points, draws, longest = line_score(sol.moves, sol.won, sol.stock_left)
        return PlayResult(sol.won, sol.strokes, points, draws, sol.moves, longest, sol.states)
    from golfstats.kernels.playout import play_hand
    from golfstats.kernels.tables import board_arrays, kernel_tables, tables_for
    from golfstats.solver import golf_scratch

    tables = tables_for(rules, board.foundation is None)
    arrays = board_arrays(board, tables)
    kv, kb = golf_scratch(tables.stride)
    moves = np.empty(int(arrays.heights.sum()) + len(board.stock) + 2, np.int64)
    status, won, strokes, points, draws, n, longest = play_hand(
        policy.info.kernel, _kernel_params(policy), kernel_tables(tables), arrays.exposed,
        arrays.heights, arrays.stock, arrays.top, key, kv, kb, moves)
    if status != 0:
        raise RuntimeError(f"policy {policy.spec} produced an illegal plan (internal error)")
    return PlayResult(bool(won), int(strokes), int(points), int(draws),
                      [int(m) for m in moves[:n]], int(longest))


def plan(rules: Rules, policy: Policy, board: Board, key: int = 0) -> list[int]:
    """What ``policy`` decides to do now in ``board``: a chain of plays, maybe then a draw.

    Honest policies are given only the visible position; the stock order is not passed.
    """
    if policy.info.kernel is None:
        from golfstats.solver import solve

        line = solve(board, rules).moves
        out = []
        for move in line:
            out.append(move)
            if move < 0:
                break
        return out
    from golfstats.kernels.playout import decide
    from golfstats.kernels.rng import new_state
    from golfstats.kernels.tables import board_arrays, kernel_tables, tables_for
    from golfstats.solver import golf_scratch

    tables = tables_for(rules, board.foundation is None)
    arrays = board_arrays(board, tables)
    unseen = np.zeros(16, np.int64)
    for kind in arrays.stock:
        unseen[kind] += 1
    kv, kb = golf_scratch(tables.stride)
    out = np.empty(int(arrays.heights.sum()) + len(board.stock) + 2, np.int64)
    n = decide(policy.info.kernel, _kernel_params(policy), kernel_tables(tables), arrays.exposed,
               arrays.heights.copy(), arrays.top, len(board.stock), unseen, new_state(key),
               kv, kb, out)
    return [int(m) for m in out[:n]]
