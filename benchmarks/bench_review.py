"""Benchmark: one deal's table for a whole game (``golfstats review``) and for K stock
orders (``honest.play_orders``), one core.

    python benchmarks/bench_review.py --variant putt-putt --pysol 1 --policy lookahead
    python benchmarks/bench_review.py --variant strict --after 20 --orders 20

``review``: a game (PySolFC deal N played by --policy, from the start or after --after
moves of it) reviewed move by move from one table: the table's time, the walk's time,
the moves and the peak RSS of the process (a fresh process per part: ``ru_maxrss``).
``orders``: the optimal policy (goal win) on K random orders of the same deal's stock,
from one table (``play_orders``) beside K fresh tables, one per order (what it took
before ``play_orders``), and that both play the same moves.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import platform
import resource
import shlex
import sys
import time


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KB


def _board(variant: str, pysol: int, policy: str, after: int):
    from golfstats.board import Board
    from golfstats.deals import pysol_board
    from golfstats.engine import apply
    from golfstats.policies import parse_policy, play_board
    from golfstats.rules import parse_variant

    rules = parse_variant(variant)
    board = pysol_board(rules, pysol)
    if after:
        pos = board.position()
        for move in play_board(rules, parse_policy(policy), board).moves[:after]:
            pos = apply(rules, pos, move)
        board = Board(pos.tableau, pos.stock, pos.top_card)
    return rules, board


def _review(task) -> tuple:
    variant, pysol, policy, after, max_gb = task
    from golfstats.honest import Game, review
    from golfstats.policies import parse_policy, play_board

    rules, board = _board(variant, pysol, policy, after)
    moves = tuple(play_board(rules, parse_policy(policy), board).moves)
    started = time.perf_counter()
    result = review(Game(rules, board, moves), int(max_gb * 1e9))
    total = time.perf_counter() - started
    st = result.odds.stats
    return (len(board.stock), len(moves), st.seconds, total - st.seconds, st.states,
            st.peak_bytes / 1e6, _peak_mb(), result.odds.value.p, result.given_p, result.given_e)


def _orders(task) -> tuple:
    variant, pysol, policy, after, max_gb, k, fresh = task
    import numpy as np

    from golfstats.board import Board
    from golfstats.honest import play_optimal, play_orders

    rules, board = _board(variant, pysol, policy, after)
    rng = np.random.default_rng(k)
    stocks = [tuple(rng.permutation(board.stock).tolist()) for _ in range(k)]
    started = time.perf_counter()
    if fresh:
        plays = [play_optimal(rules, Board(board.tableau, s, board.foundation), "win",
                              max_bytes=int(max_gb * 1e9))[0] for s in stocks]
        moves = [tuple(p.line.moves) for p in plays]
        won = [p.line.won for p in plays]
    else:
        played = play_orders(board, rules, stocks, "win", int(max_gb * 1e9))
        moves, won = list(played.moves), played.won.tolist()
    return time.perf_counter() - started, _peak_mb(), moves, won


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="putt-putt")
    parser.add_argument("--pysol", type=int, default=1, help="PySolFC deal (default %(default)s)")
    parser.add_argument("--policy", default="lookahead", help="who played the game")
    parser.add_argument("--after", type=int, default=0, help="start after this many moves")
    parser.add_argument("--max-memory", type=float, default=12.0, help="GB (default %(default)s)")
    parser.add_argument("--orders", type=int, default=0, help="K stock orders (0: skip)")
    args = parser.parse_args(argv)
    print("command: " + shlex.join([sys.executable, *sys.argv]))
    print(f"machine: {platform.machine()}, python {platform.python_version()}")
    ctx = mp.get_context("spawn")
    base = (args.variant, args.pysol, args.policy, args.after, args.max_memory)
    with ctx.Pool(1, maxtasksperchild=1) as pool:
        (stock, n, table_s, walk_s, states, table_mb, peak, p, gp, ge) = pool.apply(_review, (base,))
    print(f"review {args.variant} pysol {args.pysol} after {args.after} ({stock} stock cards, "
          f"{n} moves by {args.policy}): table {table_s:.2f} s ({states:,} states, "
          f"{table_mb:.0f} MB by the kernel's count), walk {walk_s:.2f} s, peak RSS {peak:.0f} MB; "
          f"win {100 * p:.2f}% at the start, given away {100 * gp:.2f} points, {ge:+.3f} strokes",
          flush=True)
    if args.orders:
        runs = {}
        for fresh in (True, False):
            with ctx.Pool(1, maxtasksperchild=1) as pool:
                runs[fresh] = pool.apply(_orders, (base + (args.orders, fresh),))
        same = runs[True][2] == runs[False][2] and runs[True][3] == runs[False][3]
        print(f"orders K={args.orders} (goal win): {args.orders} fresh tables "
              f"{runs[True][0]:.2f} s (peak RSS {runs[True][1]:.0f} MB); one table "
              f"{runs[False][0]:.2f} s (peak RSS {runs[False][1]:.0f} MB); same moves: {same}",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
