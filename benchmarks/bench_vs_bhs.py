"""Benchmark: `golfstats solve` through the CLI against Shlomi Fish's black-hole-solver on
the same golf deals, in batch.  Not run in CI; it needs the solver installed.

    python benchmarks/bench_vs_bhs.py                          # strict, PySol deals 1-1000
    python benchmarks/bench_vs_bhs.py --bhs /opt/bhs/bin/black-hole-solve --n 100
    python benchmarks/bench_vs_bhs.py --variant strict --variant queens-on-kings --n 100

The solver is the C program ``black-hole-solve`` (found on PATH, or given with ``--bhs``);
the PyPI package ``black-hole-solver`` is only a wrapper of its shared library and does
not ship it.  Without it the script says so and exits 0 without measuring.

The boards (PySolFC deal numbers ``--first`` .. ``--first + n - 1`` of each variant's
game) are written to one file per deal in the interchange format of docs/rules.md, which
is black-hole-solver's; its golf rules are strict's, with ``--queens-on-kings`` for
queens-on-kings and ``--wrap-ranks`` for putt-putt (``_BHS_FLAGS``).  Each side is timed
as a batch of child processes: black-hole-solve once with every board file (``--batch
one``, its several-files mode) or once per board (``--batch each``), and ``golfstats
solve --pysol A-B --goal win --json --no-moves`` once, start-up and compiled-cache loading
included.  It prints wall and CPU seconds (the children's user + system time, the steadier
figure on a loaded machine) of each, their ratio, and the deals whose verdicts (solvable
or not) differ; black-hole-solve's verdict of a deal is the last of "Solved", "Unsolved"
or "Intractable" in its output for that deal.  It asserts nothing: the figures are for
the record (benchmarks/README.md).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_BHS_FLAGS = {"strict": [], "queens-on-kings": ["--queens-on-kings"], "putt-putt": ["--wrap-ranks"]}
_VERDICT = re.compile(r"\b(Solved|Unsolved|Intractable)\b")


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _timed(commands: list[list[str]]) -> tuple[float, float, list[str]]:
    """Run the commands one after another: (wall s, CPU s, their stdouts)."""
    outs = []
    cpu0, wall0 = _children_cpu(), time.perf_counter()
    for cmd in commands:
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        outs.append(done.stdout)
    return time.perf_counter() - wall0, _children_cpu() - cpu0, outs


def _bhs_verdicts(outs: list[str], files: list[Path], batch: str) -> list[str | None]:
    """One verdict per board file: each run's last verdict word (``each``), or the verdict
    words of the one run in file order (``one``; None for all if they do not count up)."""
    if batch == "each":
        return [(m[-1] if (m := _VERDICT.findall(out)) else None) for out in outs]
    found = _VERDICT.findall(outs[0])
    return found if len(found) == len(files) else [None] * len(files)


def _golfstats_command(exe: list[str], variant: str, first: int, last: int) -> list[str]:
    return [*exe, "solve", "--variant", variant, "--pysol", f"{first}-{last}", "--goal", "win",
            "--json", "--no-moves"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bhs", default=None, help="path of black-hole-solve (default: PATH)")
    parser.add_argument("--bhs-arg", action="append", default=[],
                        help="an extra argument for black-hole-solve; repeat for several")
    parser.add_argument("--golfstats", default=None,
                        help="the golfstats command (default: golfstats on PATH, else "
                             "this Python with -m golfstats)")
    parser.add_argument("--variant", action="append", default=None, choices=sorted(_BHS_FLAGS),
                        help="rule set; repeat for several (default strict)")
    parser.add_argument("--first", type=int, default=1, help="first PySol deal (default %(default)s)")
    parser.add_argument("--n", type=int, default=1000, help="deals (default %(default)s)")
    parser.add_argument("--batch", choices=("one", "each"), default="one",
                        help="black-hole-solve once with every board file, or once per board")
    args = parser.parse_args(argv)
    if args.n <= 0 or args.first <= 0:
        parser.error("--n and --first must be positive")
    bhs = args.bhs or shutil.which("black-hole-solve")
    if bhs is None or not os.access(bhs, os.X_OK):
        print("black-hole-solve not found (give --bhs PATH, or put it on PATH; the PyPI package "
              "black-hole-solver is only a wrapper of its library): nothing measured.")
        return 0
    if args.golfstats:
        exe = shlex.split(args.golfstats)
    elif shutil.which("golfstats"):
        exe = [shutil.which("golfstats")]
    else:
        exe = [sys.executable, "-m", "golfstats"]

    from golfstats.board import format_board
    from golfstats.deals import pysol_board
    from golfstats.rules import parse_variant

    first, last = args.first, args.first + args.n - 1
    print("command: " + shlex.join([sys.executable, *sys.argv]))
    print(f"black-hole-solve: {bhs}; golfstats: {shlex.join(exe)}; "
          f"load average {os.getloadavg()[0]:.1f}; PySol deals {first}-{last}")
    print(f"{'variant':<16} {'bhs wall s':>10} {'cpu s':>7} | {'golfstats wall s':>16} {'cpu s':>7} | "
          f"{'ratio wall':>10} {'cpu':>6} | {'won':>5} {'agree':>6} {'unknown':>7}")
    for name in args.variant or ["strict"]:
        rules = parse_variant(name)
        with tempfile.TemporaryDirectory(prefix="bench_vs_bhs_") as tmp:
            files = []
            for number in range(first, last + 1):
                path = Path(tmp) / f"{number}.board"
                path.write_text(format_board(pysol_board(rules, number), rules))
                files.append(path)
            base = [bhs, "--game", "golf", *_BHS_FLAGS[name], *args.bhs_arg]
            if args.batch == "one":
                commands = [[*base, *map(str, files)]]
            else:
                commands = [[*base, str(f)] for f in files]
            b_wall, b_cpu, outs = _timed(commands)
            theirs = _bhs_verdicts(outs, files, args.batch)
        g_wall, g_cpu, g_out = _timed([_golfstats_command(exe, name, first, last)])
        ours = [json.loads(line)["won"] for line in g_out[0].splitlines() if line.startswith("{")]
        if len(ours) != args.n:
            print(f"{name}: golfstats gave {len(ours)} verdicts for {args.n} deals")
            return 1
        known = [(o, t == "Solved") for o, t in zip(ours, theirs, strict=True) if t in ("Solved", "Unsolved")]
        agree = sum(o == t for o, t in known)
        differ = [first + i for i, (o, t) in enumerate(zip(ours, theirs, strict=True))
                  if t in ("Solved", "Unsolved") and o != (t == "Solved")]
        print(f"{name:<16} {b_wall:>10.2f} {b_cpu:>7.2f} | {g_wall:>16.2f} {g_cpu:>7.2f} | "
              f"{b_wall / g_wall:>9.1f}x {b_cpu / max(g_cpu, 1e-9):>5.1f}x | {sum(ours):>5} "
              f"{agree:>6} {args.n - len(known):>7}", flush=True)
        if differ:
            print(f"  verdicts differ on deals {differ[:20]}{' ...' if len(differ) > 20 else ''}")
    print("ratio: black-hole-solve's time over golfstats' (above 1: golfstats is faster).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
