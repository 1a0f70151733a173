"""Experiment: how many states a search from the top would value, against the value pass.

    python experiments/pruning/pruning.py --variant putt-putt --deals 1 14
    python experiments/pruning/pruning.py --variant strict --deals 3 7 --star1

A design measured and not built (experiments/pruning/README.md): it reaches into the
honest kernel's internals (``play._endpoint_p``, the table's arrays), which a benchmark
of public entries would not.

The value pass (goal win, docs/honest-play.md) values every drawn-from state some order
of the stock can still win from (``Stats.drawn_from``, Dr).  A search from the top that
skips states with bounds values at least the states of one optimal policy, and it pays
for the moves it does not take by bounding them.  Per PySolFC deal, from every p of the
deal (goal win, the table kept for all orders) this prints:

* ``support``: the drawn-from states with p > 0 that the optimal policy visits over every
  order of the stock (after each turned card, the endpoint with the largest p, then the
  fewest cards left, then the first: ``play.play_winp``'s choice; another tie-break
  gives another optimal policy).  ``with ties``: following every endpoint within TOL of
  the best.
* ``star1`` (``--star1``): the drawn-from states an exact search from the top expands when
  its only bounds are the kernel's (p in [0, 1]; p = 0 exactly outside Dr, W), with the
  best ordering the table can give it: at a turned card the best endpoint is valued
  first and every other endpoint is proven no better; a state is proven at most a by
  taking its kinds in decreasing P(r) (1 - best p after r) and cutting once the sum of the
  values proven plus the probability not yet looked at is at most a (Star1, Ballard 1983).
  ``expanded`` counts every expansion (a state proven again under a lower bound counts
  again), ``distinct`` the states.

The figures are counts (the seconds at the end of a line are the whole line's); what they
mean for the design is in docs/honest-play.md, "A search from the top: measured, not
built".  Every p is kept, so a large putt-putt deal needs gigabytes.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

for _var in ("NUMBA_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numba as nb  # noqa: E402
import numpy as np  # noqa: E402
from numba import types  # noqa: E402
from numba.typed import Dict  # noqa: E402

from golfstats.kernels.core import decode, powers  # noqa: E402
from golfstats.kernels.golf.chains import chain_candidates, enumerate_chains  # noqa: E402
from golfstats.kernels.honest.play import _endpoint_p  # noqa: E402
from golfstats.kernels.honest.policy import p_of  # noqa: E402
from golfstats.kernels.honest.space import COLUMNS, STOCK_KINDS, TOL, d_codes  # noqa: E402


@nb.njit(cache=True)
def _ends(kt, exposed, pw, heights, top, sol, d, k, n):
    """The endpoints a draw may follow after turning ``top`` at ``heights`` (D-code d, k
    cards turned of n), in enumeration order: their dense codes, p and cards left.  One is
    a drawn-from state when cards are left in both the tableau and the stock (``k < n``);
    else its p is 1 (cleared) or 0 (out of stock)."""
    n_end, ends_h, ends_top, _, _, _ = enumerate_chains(kt, exposed, heights, top)
    cands, n_c = chain_candidates(kt, exposed, ends_h, ends_top, n_end, n - k)
    vals, left, dense, _ = _endpoint_p(sol, pw, ends_h, cands, n_c, d, k, n)
    return dense, vals, left


@nb.njit(cache=True)
def _heights(g, heights0):
    h = np.empty(COLUMNS, np.int64)
    decode(g, heights0, h)
    return h


@nb.njit(cache=True)
def support(kt, exposed, heights0, top0, m0, sol, ties):
    """The drawn-from states with p > 0 the optimal policy visits over every stock order
    (``ties``: following every endpoint within TOL of the best)."""
    n = m0.sum()
    pw, _, _ = powers(heights0)
    pwd, size, _, _ = d_codes(m0)
    seen = Dict.empty(types.int64, types.int64)
    st_h = np.zeros((1 << 12, COLUMNS), np.int64)
    st_t = np.zeros(1 << 12, np.int64)
    st_d = np.zeros(1 << 12, np.int64)
    st_k = np.zeros(1 << 12, np.int64)
    st_h[0] = heights0
    st_t[0] = top0
    sp = 1
    while sp > 0:
        sp -= 1
        d = st_d[sp]
        k = st_k[sp]
        dense, vals, left = _ends(kt, exposed, pw, st_h[sp].copy(), st_t[sp], sol, d, k, n)
        if vals.shape[0] == 0:
            continue
        best = vals.max()
        if best <= TOL:
            continue
        pick = -1
        for ci in range(vals.shape[0]):
            if vals[ci] >= best - TOL and (pick < 0 or left[ci] < left[pick]):
                pick = ci
        for ci in range(vals.shape[0]):
            if not (ci == pick or (ties and vals[ci] >= best - TOL)) or left[ci] == 0 or k == n:
                continue
            key = dense[ci] * size + d
            if key in seen:
                continue
            seen[key] = 1
            h = _heights(dense[ci], heights0)
            if sp + STOCK_KINDS > st_t.shape[0]:  # room for every kind's push
                st_h = np.concatenate((st_h, np.zeros_like(st_h)))
                st_t = np.concatenate((st_t, np.zeros_like(st_t)))
                st_d = np.concatenate((st_d, np.zeros_like(st_d)))
                st_k = np.concatenate((st_k, np.zeros_like(st_k)))
            for r in range(STOCK_KINDS):
                if m0[r] - (d // pwd[r]) % (m0[r] + 1) > 0:
                    st_h[sp] = h
                    st_t[sp] = kt.drawn[r]
                    st_d[sp] = d + pwd[r]
                    st_k[sp] = k + 1
                    sp += 1
    return len(seen)


@nb.njit(cache=True)
def _star1(kt, exposed, heights0, pw, m0, pwd, size, n, sol, g, d, k, a, exact, upper, count):
    """Star1 at the drawn-from state (g, d), k cards turned: its p (a < 0), or a proven
    upper bound <= a on it (a >= 0, which the table says holds).  ``count[0]``: expansions."""
    key = g * size + d
    if p_of(sol, g, d) == 0.0:  # outside Dr: W says 0
        return 0.0
    if key in exact:
        return exact[key]
    if a >= 0 and key in upper:
        if upper[key] <= a + 1e-12:
            return upper[key]
    count[0] += 1
    heights = _heights(g, heights0)
    kinds = np.zeros(STOCK_KINDS, np.int64)
    probs = np.zeros(STOCK_KINDS)
    nr = 0
    for r in range(STOCK_KINDS):
        rest = m0[r] - (d // pwd[r]) % (m0[r] + 1) if m0[r] > 0 else 0
        if rest > 0:
            kinds[nr] = r
            probs[nr] = rest / (n - k)
            nr += 1
    state = k + 1 < n  # after the turn, an endpoint with cards left is a drawn-from state
    if a < 0:
        total = 0.0
        for i in range(nr):
            r = kinds[i]
            dense, vals, left = _ends(kt, exposed, pw, heights, kt.drawn[r], sol, d + pwd[r],
                                      k + 1, n)
            if vals.shape[0] == 0:
                continue
            b = np.argmax(vals)
            v = vals[b]
            if state and left[b] > 0:
                v = _star1(kt, exposed, heights0, pw, m0, pwd, size, n, sol, dense[b], d + pwd[r],
                           k + 1, -1.0, exact, upper, count)
            for ci in range(vals.shape[0]):
                if ci != b and state and left[ci] > 0:
                    _star1(kt, exposed, heights0, pw, m0, pwd, size, n, sol, dense[ci],
                           d + pwd[r], k + 1, v, exact, upper, count)
            total += probs[i] * v
        exact[key] = total
        return total
    bests = np.zeros(nr)  # the best p after each kind: the order of the proof
    for i in range(nr):
        r = kinds[i]
        vals = _ends(kt, exposed, pw, heights, kt.drawn[r], sol, d + pwd[r], k + 1, n)[1]
        bests[i] = vals.max() if vals.shape[0] > 0 else 0.0
    bound = probs[:nr].sum()
    for i in np.argsort(-(probs[:nr] * (1.0 - bests[:nr])), kind="mergesort"):
        if bound <= a + 1e-12:
            break
        need = (a - (bound - probs[i])) / probs[i]  # what kind i must be proven at most
        if need >= 1.0:
            continue
        need = max(need, bests[i])
        r = kinds[i]
        dense, vals, left = _ends(kt, exposed, pw, heights, kt.drawn[r], sol, d + pwd[r],
                                  k + 1, n)
        b = 0.0
        for ci in range(vals.shape[0]):
            if state and left[ci] > 0:
                b = max(b, _star1(kt, exposed, heights0, pw, m0, pwd, size, n, sol, dense[ci],
                                  d + pwd[r], k + 1, need, exact, upper, count))
            else:
                b = max(b, vals[ci])
        bound -= probs[i] * (1.0 - b)
    upper[key] = min(upper[key], bound) if key in upper else bound
    return bound


def star1(kt, exposed, heights0, top0, m0, sol) -> tuple[float, int, int]:
    """The root's p by Star1, the expansions and the distinct states expanded."""
    n = int(m0.sum())
    pw, _, _ = powers(heights0)
    pwd, size, _, _ = d_codes(m0)
    exact = Dict.empty(types.int64, types.float64)
    upper = Dict.empty(types.int64, types.float64)
    count = np.zeros(1, np.int64)
    dense, vals, left = _ends(kt, exposed, pw, heights0, top0, sol, 0, 0, n)
    state = (left > 0) & (n > 0)  # the endpoints that are drawn-from states
    b = int(np.argmax(vals))
    v = float(vals[b])
    if state[b]:
        v = _star1(kt, exposed, heights0, pw, m0, pwd, size, n, sol, int(dense[b]), 0, 0, -1.0,
                   exact, upper, count)
    for ci in range(len(vals)):
        if ci != b and state[ci]:
            _star1(kt, exposed, heights0, pw, m0, pwd, size, n, sol, int(dense[ci]), 0, 0, v,
                   exact, upper, count)
    return v, int(count[0]), len(set(exact.keys()) | set(upper.keys()))


def main(argv: list[str] | None = None) -> None:
    from golfstats.deals import pysol_board
    from golfstats.goals import Goal
    from golfstats.honest import Keep
    from golfstats.honest.odds import compute
    from golfstats.rules import parse_variant

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="putt-putt", help="a golf rule set (default putt-putt)")
    ap.add_argument("--deals", type=int, nargs="+", default=[1], help="PySolFC deal numbers")
    ap.add_argument("--star1", action="store_true", help="also count Star1's expansions (slow)")
    args = ap.parse_args(argv)
    rules = parse_variant(args.variant)
    for number in args.deals:
        started = time.perf_counter()
        s = compute(pysol_board(rules, number), rules, Goal.WIN, keep=Keep.ALL)
        t, a = s.table, s.table.arrays
        m0 = np.bincount(a.stock, minlength=STOCK_KINDS).astype(np.int64)
        dr = max(s.stats.drawn_from, 1)
        one = support(t.kt, a.exposed, a.heights, t.top_id, m0, t.sol, False)
        tied = support(t.kt, a.exposed, a.heights, t.top_id, m0, t.sol, True)
        line = (f"{args.variant} #{number}: p={s.value.p:.6f}, drawn_from {s.stats.drawn_from:,}, "
                f"support {one:,} ({one / dr:.1%}), with ties {tied:,} ({tied / dr:.1%})")
        if args.star1:
            v, expanded, distinct = star1(t.kt, a.exposed, a.heights, t.top_id, m0, t.sol)
            if abs(v - s.value.p) > 1e-12:
                sys.exit(f"star1 gave p={v!r}, the table {s.value.p!r}")
            line += (f", star1 expanded {expanded:,} ({expanded / dr:.1%}),"
                     f" distinct {distinct:,} ({distinct / dr:.1%})")
        print(f"{line} [{time.perf_counter() - started:.0f} s]", flush=True)


if __name__ == "__main__":
    main()
