"""How a policy plays (``spec.Strategy``): a compiled honest player, or the clairvoyant
solver.  Honest strategies are handed only the visible position: the stock order never
reaches their decisions.  numpy and the kernels are imported inside the methods: the CLI
imports the registry, and `golfstats --help` must not pay for them."""

from __future__ import annotations

import time

from golfstats.engine import Line
from golfstats.goals import Goal
from golfstats.policies.spec import Policy, Strategy


def _kernel_params(policy: Policy):
    import numpy as np

    return np.array(policy.kernel_params() or [0], np.int64)


def _batch_columns(out, states, elapsed: float, moves=None) -> dict:
    """``play_deals``'s columns from a compiled batch: its ``constants.RESULT_ROW`` rows
    ``out``, the ``states`` per deal, the batch's ``elapsed`` seconds divided evenly, and
    the recorded lines ``moves`` (padded rows; None: not recorded)."""
    import numpy as np

    from golfstats.kernels.constants import R_N_MOVES, RESULT_ROW

    n = out.shape[0]
    result = {name: out[:, i] for i, name in enumerate(RESULT_ROW) if name != "status"}
    result["won"] = result["won"].astype(bool)
    result["truncated"] = result["truncated"].astype(bool)
    result["states"] = states
    result["seconds"] = np.full(n, elapsed / max(n, 1))
    if moves is not None:
        result["move_list"] = [row[:k] for row, k in zip(moves, out[:, R_N_MOVES], strict=True)]
    return result


class CompiledPlayer(Strategy):
    """An honest player compiled in ``kernels.players.playout``: its plan function, named
    ``"package.module:function"`` (the contract is ``playout``'s), and the one it plays in
    a game without a stock (``stockless``; default the same).  The play-out's entries are
    made from the name (``playout.entries``): a new compiled player is its plan function
    and this, nothing else in the kernels."""

    def __init__(self, plan: str, stockless: str | None = None):
        self.plan_name = plan
        self.stockless_name = stockless or plan

    def _player(self, stockless: bool) -> str:
        return self.stockless_name if stockless else self.plan_name

    def play_deals(self, policy, rules, batch, goal: Goal = Goal.STROKES,
                   record_moves=False):
        """``seconds``: the compiled loop plays a whole batch in one call, so the batch
        time is divided evenly."""
        import numpy as np

        from golfstats.kernels.constants import R_STATUS, RESULT_ROW
        from golfstats.kernels.players.playout import play_batch
        from golfstats.kernels.rule_tables import kernel_layout, kernel_tables, tables_for
        from golfstats.solver import solver_scratch

        tables = tables_for(rules)
        n = batch.cards.shape[0]
        out = np.zeros((n, len(RESULT_ROW)), np.int64)
        width = batch.cards.shape[1] + 2
        moves = np.zeros((n if record_moves else 1, width), np.int64)
        kv, kb = solver_scratch(tables.stride)
        started = time.perf_counter()
        kt = kernel_tables(tables)
        play_batch(self._player(kt.stockless), _kernel_params(policy), kt, batch.cards,
                   batch.keys, kernel_layout(tables), kv, kb, out, moves, record_moves)
        elapsed = time.perf_counter() - started
        if (out[:, R_STATUS] != 0).any():
            raise RuntimeError(f"policy {policy.spec} produced an illegal plan (internal error)")
        return _batch_columns(out, np.zeros(n, np.int64), elapsed, moves if record_moves else None)

    def play_board(self, policy, rules, board, key=0, goal: Goal = Goal.STROKES):
        import numpy as np

        from golfstats.kernels.players.playout import play_hand
        from golfstats.kernels.rule_tables import board_arrays, kernel_tables, tables_for
        from golfstats.solver import solver_scratch

        tables = tables_for(rules, board.foundation is None)
        arrays = board_arrays(board, tables)
        kv, kb = solver_scratch(tables.stride)
        moves = np.empty(int(arrays.heights.sum()) + len(board.stock) + 2, np.int64)
        started = time.perf_counter()
        kt = kernel_tables(tables)
        status, won, strokes, points, draws, n, longest, truncated = play_hand(
            self._player(kt.stockless), _kernel_params(policy), kt, arrays.exposed,
            arrays.heights, arrays.stock, arrays.top, key, kv, kb, moves)
        if status != 0:
            raise RuntimeError(f"policy {policy.spec} produced an illegal plan (internal error)")
        stock_left = len(board.stock) - int(draws)
        return Line(tuple(int(m) for m in moves[:n]), bool(won), int(strokes), stock_left,
                    int(points), int(draws), int(longest),
                    seconds=time.perf_counter() - started, resolved=not truncated)

    def kernels(self, policy, rules):
        from golfstats.kernels.dealing import deal_from_uniforms
        from golfstats.kernels.players.playout import entries

        return entries(self._player(not rules.layout.has_stock)).batch, deal_from_uniforms

    def plan(self, policy, rules, board, key=0, goal: Goal = Goal.STROKES):
        """Only the visible position reaches the kernel: the stock as counts of kinds."""
        import numpy as np

        from golfstats.kernels.players.playout import plan_now
        from golfstats.kernels.players.rng import new_state
        from golfstats.kernels.rule_tables import board_arrays, kernel_tables, tables_for, unseen_counts
        from golfstats.solver import solver_scratch

        tables = tables_for(rules, board.foundation is None)
        arrays = board_arrays(board, tables)
        kv, kb = solver_scratch(tables.stride)
        out = np.empty(int(arrays.heights.sum()) + len(board.stock) + 2, np.int64)
        kt = kernel_tables(tables)
        n, _ = plan_now(self._player(kt.stockless), _kernel_params(policy), kt, arrays.exposed,
                        arrays.heights.copy(), arrays.top, len(board.stock),
                        unseen_counts(arrays.stock), new_state(key), kv, kb, out)
        return [int(m) for m in out[:n]]


class ClairvoyantSolver(Strategy):
    """The exact solver as a player: it knows the stock order (``golfstats.solver``); the
    goal is its own (strokes: the best score; win: the first win found)."""

    takes_goal = True

    def play_deals(self, policy, rules, batch, goal: Goal = Goal.STROKES,
                   record_moves=False):
        """The whole batch solved and scored in one compiled call
        (``kernels.players.exact``): the rows of ``play_board`` deal by deal, but for
        ``seconds``, the batch time divided evenly."""
        import numpy as np

        from golfstats.kernels.constants import R_STATUS, RESULT_ROW, STOCKLESS_MAX_STATES
        from golfstats.kernels.players.exact import Ask, Rows, exact_batch
        from golfstats.kernels.rule_tables import kernel_layout, kernel_tables, tables_for
        from golfstats.solver import solver_scratch

        tables = tables_for(rules)
        n = batch.cards.shape[0]
        out = np.zeros((n, len(RESULT_ROW)), np.int64)
        states = np.zeros(n, np.int64)
        moves = np.zeros((n if record_moves else 1, batch.cards.shape[1] + 2), np.int64)
        kv, kb = solver_scratch(tables.stride)
        started = time.perf_counter()
        exact_batch(not rules.layout.has_stock)(
            kernel_tables(tables), batch.cards, kernel_layout(tables),
            Ask(Goal(goal) is Goal.WIN, STOCKLESS_MAX_STATES, kv, kb),
            Rows(out, states, moves, record_moves))
        elapsed = time.perf_counter() - started
        if (out[:, R_STATUS] != 0).any():
            raise RuntimeError("the exact solver's line does not replay (internal error)")
        return _batch_columns(out, states, elapsed, moves if record_moves else None)

    def play_board(self, policy, rules, board, key=0, goal: Goal = Goal.STROKES):
        from golfstats.solver import solve

        return solve(board, rules, goal)

    def kernels(self, policy, rules):
        from golfstats.kernels.dealing import deal_from_uniforms
        from golfstats.kernels.players.exact import exact_batch

        return exact_batch(not rules.layout.has_stock), deal_from_uniforms

    def plan(self, policy, rules, board, key=0, goal: Goal = Goal.STROKES):
        """The optimal line up to and including its first draw."""
        out = []
        for move in self.play_board(policy, rules, board, key, goal).moves:
            out.append(move)
            if move < 0:
                break
        return out


def lines_to_columns(lines: list[Line], record_moves: bool = False, **values) -> dict:
    """``play_deals``'s columns from one ``Line`` per deal (``values``: extra columns)."""
    import numpy as np

    result = {
        "won": np.array([ln.won for ln in lines], bool),
        "strokes": np.array([ln.strokes for ln in lines], np.int64),
        "points": np.array([ln.points for ln in lines], np.int64),
        "draws": np.array([ln.draws for ln in lines], np.int64),
        "n_moves": np.array([ln.n_moves for ln in lines], np.int64),
        "longest_chain": np.array([ln.longest_chain for ln in lines], np.int64),
        "states": np.array([ln.states for ln in lines], np.int64),
        "seconds": np.array([ln.seconds for ln in lines], float),
        "truncated": np.array([not ln.resolved for ln in lines], bool),
        **values,
    }
    if record_moves:
        result["move_list"] = [np.array(ln.moves, np.int64) for ln in lines]
    return result


class HonestOptimum(Strategy):
    """Perfect play without peeking (``golfstats.honest``, docs/honest-play.md): the exact
    optimum for a player who sees everything but the stock order, for the policy's goal
    parameter (a ``goals.Goal``).  Each deal's row carries its exact ``win_p`` and, unless
    the goal is ``win`` (the chance of winning alone), ``expected_strokes`` (of the position at the
    start; they do not depend on the order the stock then comes in).
    In a game without a stock nothing is hidden: it is the exact solver, whose verdict is
    then the win probability.  An unresolved deal (a state budget hit) is played by the
    documented fallback, flagged truncated, and has no values."""

    def _plays(self, policy, rules, boards) -> tuple[list[Line], list, list]:
        if not rules.layout.has_stock:
            from golfstats.solver import solve

            lines = [solve(board, rules) for board in boards]
            return (lines, [float(ln.won) if ln.resolved else None for ln in lines],
                    [float(ln.strokes) if ln.resolved else None for ln in lines])
        from golfstats.honest import play_optimal

        goal = Goal(policy.param("goal"))
        plays = play_optimal(rules, boards, goal)
        return ([p.line for p in plays],
                [p.odds.value.p if p.odds.resolved else None for p in plays],
                [p.odds.value.e if p.odds.resolved and goal.wants_strokes else None
                 for p in plays])

    def play_deals(self, policy, rules, batch, goal: Goal = Goal.STROKES,
                   record_moves=False):
        """``seconds``: each deal's own time (its table and its play)."""
        import numpy as np

        from golfstats.deals import board_from_cards

        boards = [board_from_cards(rules, cards) for cards in batch.cards]
        lines, win_p, expected = self._plays(policy, rules, boards)
        return lines_to_columns(lines, record_moves, win_p=np.array(win_p, dtype=object),
                                expected_strokes=np.array(expected, dtype=object))

    def play_board(self, policy, rules, board, key=0, goal: Goal = Goal.STROKES):
        return self._plays(policy, rules, [board])[0][0]

    def kernels(self, policy, rules):
        """The passes of the value and the play-out of the policy's goal (a game without a
        stock: the exact solver)."""
        from golfstats.kernels.dealing import deal_from_uniforms

        if not rules.layout.has_stock:
            from golfstats.kernels.solve import solver_for

            return solver_for(True), deal_from_uniforms
        from golfstats.honest.optimal import compiled_entries

        return (*compiled_entries(policy.param("goal")), deal_from_uniforms)

    def plan(self, policy, rules, board, key=0, goal: Goal = Goal.STROKES):
        """The first chain of the line it plays, and the draw after it: decided from the
        tableau, the top and the multiset of the stock (the order only turns cards later)."""
        out = []
        for move in self.play_board(policy, rules, board).moves:
            out.append(move)
            if move < 0:
                break
        return out
