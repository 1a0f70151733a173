"""Benchmark: golfstats' exact solver against Shlomi Fish's black-hole-solver, side by side in
one run on the same boards.  Not run in CI; it needs the peer's binary.

    python benchmarks/bench_vs_bhs.py                    # 4 games, PySolFC deals 1-1000
    python benchmarks/bench_vs_bhs.py --n 200 --variant putt-putt
    python benchmarks/bench_vs_bhs.py --code ../wt/solvers-base --code . --rounds 2

black-hole-solver is the batch binary ``bhs`` (``--bhs``; default
``../shared/peers/black-hole-solver/bhs`` from the repository, as its README says): one
process solves every board file given, one board per file (PySolFC's own layout text of
each deal), and prints ``Solved!`` or ``Unsolved!`` for each.  Its golf rules are strict's,
``--queens-on-kings`` for queens-on-kings and ``--wrap-ranks`` for putt-putt (``_BHS``);
black-hole and all-in-a-row are its ``black_hole`` and ``all_in_a_row`` games.  It decides
winnability only; golfstats computes the optimal strokes (``--goal``, default strokes: the
fewest cards left for the stockless games), the harder question.

golfstats is timed in a child Python per ``--code`` directory (default: this repository),
with that directory first on ``PYTHONPATH``: it makes the boards, solves one untimed (the
compiled kernels loaded: golfstats' start-up left out), then solves every board as
``golfstats solve`` on a file of boards does (``solver.solve_boards`` where the code has it,
else ``solver.solve`` board by board) and reports its CPU time (the child's own, the
steadier figure on a loaded machine) and wall time.  ``--rounds`` repeats the whole
comparison; within a round every side runs on the same boards one after another, so two
``--code`` directories (the code before a change and after it) are measured interleaved,
A B A B.  Per deal: milliseconds per deal of each side, the ratio bhs / golfstats (above 1
golfstats is faster), and the deals whose verdicts differ (there must be none).  It asserts
nothing: the figures are for the record (benchmarks/README.md).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_BHS = REPO / ".." / "shared" / "peers" / "black-hole-solver" / "bhs"
_BHS = {
    "strict": ["--game", "golf"],
    "queens-on-kings": ["--game", "golf", "--queens-on-kings"],
    "putt-putt": ["--game", "golf", "--wrap-ranks"],
    "black-hole": ["--game", "black_hole"],
    "all-in-a-row": ["--game", "all_in_a_row"],
}
DEFAULT_VARIANTS = ("strict", "putt-putt", "black-hole", "all-in-a-row")
_VERDICT = re.compile(r"\b(Solved|Unsolved|Intractable)\b")


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _run_bhs(bhs: str, variant: str, files: list[Path], extra: list[str]):
    """(wall s, CPU s, verdicts in file order; None where none could be read)."""
    cpu0, wall0 = _children_cpu(), time.perf_counter()
    done = subprocess.run([bhs, *_BHS[variant], *extra, *map(str, files)], capture_output=True,
                          text=True, check=False)
    wall, cpu = time.perf_counter() - wall0, _children_cpu() - cpu0
    found = _VERDICT.findall(done.stdout)
    return wall, cpu, found if len(found) == len(files) else [None] * len(files)


def _run_golfstats(code: Path, variant: str, first: int, n: int, goal: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(code), NUMBA_NUM_THREADS="1")
    done = subprocess.run([sys.executable, __file__, "--child", variant, str(first), str(n), goal],
                          capture_output=True, text=True, check=False, env=env, cwd=code)
    if done.returncode != 0:
        raise SystemExit(f"golfstats child in {code} failed: {done.stderr.strip()[-400:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _child(variant: str, first: int, n: int, goal: str) -> int:
    """Time golfstats alone on the boards (start-up and one warm-up solve left out)."""
    from golfstats import solver
    from golfstats.deals import pysol_board
    from golfstats.rules import parse_variant

    rules = parse_variant(variant)
    boards = [pysol_board(rules, k) for k in range(first, first + n)]
    batch = getattr(solver, "solve_boards", None)
    if batch is not None:
        batch(boards[:1], rules, goal)
    else:
        solver.solve(boards[0], rules, goal)
    cpu0, wall0 = time.process_time(), time.perf_counter()
    if batch is not None:
        lines = batch(boards, rules, goal)
    else:
        lines = [solver.solve(b, rules, goal) for b in boards]
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    print(json.dumps({"cpu": cpu, "wall": wall, "won": [bool(x.won) for x in lines],
                      "resolved": sum(bool(x.resolved) for x in lines)}))
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        return _child(argv[1], int(argv[2]), int(argv[3]), argv[4])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bhs", default=str(DEFAULT_BHS),
                        help="black-hole-solver's batch binary (default: "
                             "../shared/peers/black-hole-solver/bhs from the repository)")
    parser.add_argument("--bhs-arg", action="append", default=[],
                        help="an extra argument for bhs; repeat for several")
    parser.add_argument("--code", action="append", type=Path, default=None,
                        help="a golfstats checkout to time; repeat to time several side by "
                             "side (default: this repository)")
    parser.add_argument("--variant", action="append", default=None, choices=sorted(_BHS),
                        help="rule set; repeat for several (default: "
                             + ", ".join(DEFAULT_VARIANTS) + ")")
    parser.add_argument("--first", type=int, default=1, help="first PySol deal (default %(default)s)")
    parser.add_argument("--n", type=int, default=1000, help="deals (default %(default)s)")
    parser.add_argument("--goal", choices=("strokes", "win"), default="strokes",
                        help="golfstats' goal (default %(default)s; bhs decides winnability)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="times to repeat the comparison, interleaved (default %(default)s)")
    args = parser.parse_args(argv)
    if args.n <= 0 or args.first <= 0 or args.rounds <= 0:
        parser.error("--n, --first and --rounds must be positive")
    if not os.access(args.bhs, os.X_OK):
        parser.error(f"black-hole-solver not found at {args.bhs} (give --bhs PATH)")
    codes = [c.resolve() for c in (args.code or [REPO])]

    from golfstats.deals import pysol_text
    from golfstats.rules import parse_variant

    first, last = args.first, args.first + args.n - 1
    print("command: " + shlex.join([sys.executable, *sys.argv]))
    print(f"bhs: {args.bhs}; load average {os.getloadavg()[0]:.1f}; PySol deals {first}-{last}; "
          f"golfstats goal {args.goal}; ms per deal (CPU, wall)")
    for code in codes:
        print(f"  golfstats {chr(65 + codes.index(code))}: {code}")
    print(f"{'round':>5} {'variant':<14} {'side':<5} {'cpu ms':>8} {'wall ms':>8} | "
          f"{'bhs/gs cpu':>10} {'wall':>6} | {'won':>5} {'differ':>6}")
    for rnd in range(1, args.rounds + 1):
        for name in args.variant or DEFAULT_VARIANTS:
            rules = parse_variant(name)
            with tempfile.TemporaryDirectory(prefix="bench_vs_bhs_") as tmp:
                files = []
                for number in range(first, last + 1):
                    path = Path(tmp) / f"{number}.board"
                    path.write_text(pysol_text(rules, number))
                    files.append(path)
                b_wall, b_cpu, theirs = _run_bhs(args.bhs, name, files, args.bhs_arg)
            n = args.n
            print(f"{rnd:>5} {name:<14} {'bhs':<5} {1e3 * b_cpu / n:>8.2f} {1e3 * b_wall / n:>8.2f} |"
                  f" {'':>10} {'':>6} | {sum(t == 'Solved' for t in theirs):>5} "
                  f"{sum(t is None for t in theirs):>6}", flush=True)
            for code in codes:
                got = _run_golfstats(code, name, first, n, args.goal)
                ours = got["won"]
                differ = [first + i for i, (o, t) in enumerate(zip(ours, theirs, strict=True))
                          if t not in ("Solved", "Unsolved") or o != (t == "Solved")]
                print(f"{rnd:>5} {name:<14} {chr(65 + codes.index(code)):<5} "
                      f"{1e3 * got['cpu'] / n:>8.2f} {1e3 * got['wall'] / n:>8.2f} | "
                      f"{b_cpu / got['cpu']:>9.1f}x {b_wall / got['wall']:>5.1f}x | "
                      f"{sum(ours):>5} {len(differ):>6}", flush=True)
                if differ or got["resolved"] != n:
                    print(f"  verdicts differ on deals {differ[:20]}; "
                          f"{n - got['resolved']} unresolved")
    print("ratio: bhs's time over golfstats' (above 1: golfstats is faster); differ: deals "
          "whose verdicts differ or that bhs left unknown.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
