"""The honest expectimax's two entry points: goal win (``solve_win``) and goal strokes
(``solve_strokes``).  See ``docs/honest-play.md`` for the value and the proofs.

Goal win, in passes (each a compiled function; ``solve_win`` only sequences them, sizes
the memory before the long pass and reports progress through a callback):

1. ``wins.win_sets``: W (some order of the stock left wins from a draw at (h, D); Fact 1:
   exactly where p > 0) and G (some position at (h, D) leads by plays to such a draw),
   for every height vector h, as rows over all D at once.
2. ``reach.reach_sets``: the drawn-from states Dr (reached from the position through
   drawn-from states, W set) and Q (the states where a position some chain reaches may be
   worth more than 0), rows over D, level by level down.
3. ``blocks.d_major``: Q transposed to one row over h per D (a block), h numbered by
   the compact heights index (only the heights with a Q row: ``hmap`` dense to compact,
   ``hinv`` back), so the table's rows are a third or less of the dense codes' width;
   Dr as one bit per state of Q (``blocks.subset_bits``), and as a table of its own only
   when the values are kept for play-outs.  The rows of passes 1 and 2 are kept packed
   (``honest.packed``: their non-zero words only).
4. ``winp.layer_step`` for |D| = n, ..., 0: p of every drawn-from state, then the
   position's p and every legal move's; a block's Q row and Dr bits are handed back once
   it is done.  Only two layers of values are alive unless the
   expected strokes are wanted (then every p is kept) or a play-out will follow (then the
   blocks the stock order visits are kept).
5. With the expected strokes: ``policy`` values the policy's (p, e) along its own choices
   (the doc's rule: ties of p broken by e), from the position and after every move.

Goal strokes: ``forward`` lists every reachable state and ``backward`` values them (the
whole space: the strokes optimum needs it).  No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.core import powers
from golfstats.kernels.honest import blocks, inputs, policy, reach, reachable, split, win_rows, wins
from golfstats.kernels.honest.backward import backward
from golfstats.kernels.honest.forward import forward
from golfstats.kernels.honest.memory import PAGE, zero_values
from golfstats.kernels.honest.packed import row_bytes
from golfstats.kernels.honest.space import (
    BITS,
    COLUMNS,
    STROKES,
    d_codes,
    dense_of,
    packed_codes,
    packed_of,
)
from golfstats.kernels.honest.winp import layer_step, step_bytes

#: Drawn multisets (D-codes) up to which ``solve_win`` first finds the heights reachable
#: positions play or draw at, and computes W there only (``reachable.reachable_heights``,
#: ``wins.win_sets_within``): a mid-game position's W over every height below it costs
#: far more than the reachable part.  Above it, W covers every height (the reach pass
#: without W would cost as much as W).
PRUNE_MAX_DRAWN = 1 << 12

#: Values of the layer read handed back at a time at least (``winp.layer_step``; fewer,
#: larger calls).
RELEASE_STEP = 1 << 16

#: What ``solve_win`` keeps of the values: two layers, every p (for the expected strokes),
#: or two layers and the blocks the stock order visits (for a play-out without e).  Every p
#: serves play-outs on any order (goal win) and, with ``strokes``, the policy's e.
KEEP_LAYERS, KEEP_ALL, KEEP_PATH = 0, 1, 2


@nb.njit(cache=True, nogil=True)
def solve_strokes(kt, exposed, heights0, top0, m0, max_states, stock_orders, mask_proto, flag):
    """Goal strokes: value the position (heights0, top0) with stock multiset ``m0``.

    Every reachable state is listed (forward) and valued (backward).  ``stock_orders``
    (K x n kinds in draw order, K possibly 0) only names the blocks to keep for the
    play-outs: every block one of the orders visits (one table serves them all).
    ``mask_proto`` is a one-element array of the dtype of the per-state top sets (it must
    hold the ``n_tops`` bits and the drawable bit ``flag``).

    Returns ``(resolved, root, moves, path, stats)``: ``path = (pwd, path_slot, path_lo,
    path_keys, path_val)`` for ``play_strokes``, ``stats = [states, positions, lookups,
    state bytes, value bytes, positive states]``.
    """
    pw, full, g_size = powers(heights0)
    pwd, size, order, layer_start = d_codes(m0)
    n = layer_start.shape[0] - 2
    mark = np.zeros(g_size, mask_proto.dtype)
    keys = np.empty(max_states, np.int32)
    masks = np.empty(max_states, mask_proto.dtype)
    position = inputs.Root(kt, exposed, heights0, top0, m0)
    ok, n_states, layer_lo, blk_lo, blk_hi, positions = forward(
        position, pw, pwd, order, layer_start, mark, keys, masks, flag, max_states)
    stats = np.zeros(6, np.int64)
    stats[0] = n_states
    stats[1] = positions
    stats[3] = n_states * (4 + mask_proto.itemsize)
    path_slot = np.full(size, -1, np.int64)
    slots = 0
    for o in range(stock_orders.shape[0]):
        d = 0
        for k in range(min(n, stock_orders.shape[1]) + 1):
            if path_slot[d] < 0:
                path_slot[d] = slots
                slots += 1
            if k < min(n, stock_orders.shape[1]):
                d += pwd[stock_orders[o, k]]
    if not ok:
        return (False, np.full(2, np.nan), (np.full(COLUMNS + 1, np.nan), np.full(COLUMNS + 1, np.nan)),
                (pwd, path_slot, np.zeros((0, 2), np.int64), np.zeros(0, np.int64),
                 np.zeros(0, np.float64)), stats)
    listing = inputs.Listing(keys, masks, np.int64(1) << flag, layer_lo, blk_lo, blk_hi)
    root, moves, path_lo, path_keys, path_val, lookups, peak_values, positive = backward(
        position, pwd, order, layer_start, STROKES, listing, path_slot)
    stats[2] = lookups
    stats[4] = peak_values * 8
    stats[5] = positive
    return True, root, moves, (pwd, path_slot, path_lo, path_keys, path_val), stats


class WinSolution:
    """What ``solve_win`` found (plain attributes; NaN values when not ``resolved``).

    ``p``, ``e``: the position's chance of winning and expected strokes (e NaN unless
    asked for); ``moves_p``, ``moves_e``: after playing column c (index c) or drawing
    (index ``COLUMNS``), NaN when illegal; ``sol``, ``pt``: what ``play`` needs; ``stats``:
    a dict of counts and bytes (see ``golfstats.odds.Odds``)."""

    def __init__(self):
        self.resolved = False
        self.p = np.nan
        self.e = np.nan
        self.moves_p = np.full(COLUMNS + 1, np.nan)
        self.moves_e = np.full(COLUMNS + 1, np.nan)
        self.sol = None
        self.pt = None
        self.stats = {}


def _refused(out, wstats, first: int):
    """``out``, unresolved: the first passes' bit rows (``first`` bytes so far) are over
    the memory budget."""
    out.stats = {"states": 0, "drawn_from": 0, "win_rows": int(wstats.w_rows), "first_bytes": first,
                 "value_bytes": 0, "peak_bytes": first}
    return out


def solve_win(kt, exposed, heights0, top0, m0, *, keep=KEEP_LAYERS, strokes=False,
              stock_order=None, max_states=None, max_bytes=None, progress=None, layers=None,
              threads=1):
    """Goal win: the chance of winning of the position (heights0, top0) with stock
    multiset ``m0``; with ``strokes`` (which needs ``keep=KEEP_ALL``) also the win-strokes
    policy's expected strokes (goal win-strokes).  Goal win alone never pays for them,
    whatever it keeps.

    ``max_states`` bounds the states valued (Q, and with ``strokes`` the policy's own
    states), ``max_bytes`` the memory: the W pass's bit rows as they are made (it stops
    once they are over), reach's after its pass (it may overshoot by its own growth before
    the check), the value
    pass before it starts (its size is known then), and the policy's table as it grows
    (each doubling, the old and the new table together, within what the value pass
    left: ``memo.put``).  Over any of them the solution is unresolved, with the stats so far.
    ``layers(n_values)``, when given, makes the value pass's two layers in files (an object
    with ``pair``, two float64 arrays of ``n_values`` zeros whose pages handed back keep
    their values, and ``clear(i)``, which makes ``pair[i]`` read 0 again; it may raise
    ``OSError``); it is used only when the layers in memory are over ``max_bytes`` and
    the part of them a step works on is not (``winp.step_bytes``'s ``spill``).
    ``progress(pass_name, done, total, info)`` is called between passes and layers (the
    value pass's ``info`` has ``work``, its states, and ``work_done``, those of the layers
    valued so far).  ``threads``: the value pass's threads (``split``; the same values bit
    for bit), fewer where more would not fit in ``max_bytes`` (``stats["threads"]``: how
    many it used), one when its layers are in files.
    """
    if strokes and keep != KEEP_ALL:
        raise ValueError("the expected strokes read every p: they need keep=KEEP_ALL")
    out = WinSolution()
    say = progress or (lambda *_: None)
    pw, full, g_size = powers(heights0)
    pwd, size, order, layer_start = d_codes(m0)
    n = layer_start.shape[0] - 2
    n_tops = kt.play_next.shape[0]
    say("wins", 0, 1, {})
    if size <= PRUNE_MAX_DRAWN:  # small: W only at the heights a reachable position plays or draws at
        where = reachable.reachable_heights(kt, exposed, heights0, top0, m0, pwd, size,
                                            win_rows.kind_masks(m0, pwd, size)[1])
    else:
        where = np.ones(g_size, np.bool_)
    widx, w_rows, gidx, g_rows, wstats = wins.win_sets_within(
        kt, exposed, heights0, m0, pwd, size, where, -1 if max_bytes is None else int(max_bytes))
    if max_bytes is not None and wstats.peak_bytes > max_bytes:  # (W and G, and the B rows, packed)
        return _refused(out, wstats, int(wstats.peak_bytes))
    del where
    say("reach", 0, 1, {})
    ridx, r_rows, qidx, q_rows, rstats = reach.reach_sets(kt, exposed, heights0, top0, m0, pwd,
                                                          size, widx, w_rows, gidx, g_rows, True)
    # the W pass's peak (W, G and two levels of B rows), then reach's (W and G rows
    # released a level at a time as Dr and Q grow)
    first = max(int(wstats.peak_bytes), int(rstats.peak_bytes))
    if max_bytes is not None and first > max_bytes:
        return _refused(out, wstats, first)
    del w_rows, g_rows, widx, gidx
    # the compact heights index: only the heights with a Q row (Dr's are among them)
    hinv = np.flatnonzero(qidx >= 0)
    hmap = np.full(g_size, -1, np.int64)
    hmap[hinv] = np.arange(hinv.shape[0])
    ridx, qidx = ridx[hinv], qidx[hinv]
    q = blocks.d_major(qidx, q_rows, size, blocks.store_bits(qidx, q_rows))
    qcnt = blocks.row_counts(q)
    words = blocks.nonzero_words(q)
    # Dr as a bit per state of Q (Dr is inside Q): what the value pass reads; a table kept
    # for play-outs keeps Dr's own as well (its rank index finds a state's value)
    bits, qoff, dcnt = blocks.subset_bits(qcnt, qidx, q_rows, ridx, r_rows, size)
    drq = (bits, qoff)
    made = (q.nbytes + words.nbytes + drq[0].nbytes + drq[1].nbytes  # all alive here
            + row_bytes(r_rows, 0, rstats.r_rows) + row_bytes(q_rows, 0, rstats.q_rows))
    dr = None
    if keep != KEEP_LAYERS:
        dr = blocks.d_major(ridx, r_rows, size, blocks.store_bits(ridx, r_rows))
        made += dr.nbytes
    del r_rows, ridx, q_rows, qidx
    drawn, states = int(dcnt.sum()), int(qcnt.sum())
    layer_of = np.empty(size, np.int64)
    lsize = np.zeros(n + 1, np.int64)
    off = np.zeros(size, np.int64)
    for j in range(n + 1):
        for d in order[layer_start[j]:layer_start[j + 1]]:
            layer_of[d] = j
            off[d] = lsize[j]
            lsize[j] += dcnt[d]
    lbase = np.concatenate(([0], np.cumsum(lsize)))
    big = max(int(qcnt.max()), 1)
    release = RELEASE_STEP if keep != KEEP_ALL else 0
    # what each layer's step holds (j = n first): its values (every p kept; or two layers,
    # handed back as read and written as needed, ``memory``), and the Q rows and Dr bits of
    # the blocks not yet done (a block's are handed back once it is done: nothing reads
    # them after)
    held = np.zeros(size + 1, np.int64)
    held[1:] = np.cumsum(q.shape[1] * 8 + (qcnt[order] // 64 + 2) * 8)
    if release:
        alive = step_bytes(order, layer_start, off, dcnt, lsize, m0, pwd, release + PAGE // 8, held,
                           False)
    else:  # every p kept (or two whole layers: ``release`` 0 in the tests)
        alive = [8 * int(lbase[-1] if keep == KEEP_ALL else lsize[j] + (lsize[j - 1] if j else 0))
                 + int(held[layer_start[j + 1]])
                 for j in range(n + 1)]
    steps = max(int(a) for a in alive)
    second = (steps + drq[1].nbytes + big * (n_tops * 8 + 16) + g_size * 20
              + hinv.nbytes + q.shape[1] * 8 + words.nbytes
              + (dr.nbytes + dr.shape[0] * (dr.shape[1] // blocks.SUPER + 1) * 4 if dr is not None
                 else 0))
    second = max(second, made)
    spill = 0  # the bytes of the two layers' files, when they are in files
    if release and layers is not None and max_bytes is not None and second > max_bytes:
        on_disk = max(int(a) for a in step_bytes(order, layer_start, off, dcnt, lsize, m0, pwd,
                                                 release + PAGE // 8, held, True))
        if max(second - steps + on_disk, made) <= max_bytes:
            second = max(second - steps + on_disk, made)
            spill = 8 * int((lsize[1:] + lsize[:-1]).max(initial=0))
    threads = max(int(threads), 1) if not spill else 1
    while threads > 1 and max_bytes is not None and second + split.extra_bytes(
            threads, big, n_tops, g_size, q.shape[1]) > max_bytes:
        threads -= 1
    second += split.extra_bytes(threads, big, n_tops, g_size, q.shape[1])
    out.stats = {"states": states, "drawn_from": drawn, "win_rows": int(wstats.w_rows),
                 "first_bytes": first, "value_bytes": second, "peak_bytes": max(first, second),
                 "disk_bytes": spill, "threads": threads}
    if (max_states is not None and states > max_states) or (max_bytes is not None and second > max_bytes):
        return out
    # the work of a layer is about its states (Q), for the progress's ETA
    work = [int(qcnt[order[layer_start[j]:layer_start[j + 1]]].sum()) for j in range(n + 1)]
    say("values", 0, n + 1, {"states": states, "bytes": second, "work": sum(work), "work_done": 0})
    root = inputs.Root(kt, exposed, heights0, top0, m0)
    codes = inputs.Codes(pw, pw.astype(np.uint64), packed_codes(heights0), pwd)
    value_blocks = inputs.Blocks(order, layer_start, drq, dcnt, q, words, qcnt, hinv, off)
    sc = inputs.scratch(big, n_tops, g_size)
    path_d = np.full(n + 1, -1, np.int64)
    if keep == KEEP_PATH and stock_order is not None:
        path_d[0] = 0
        for k in range(min(n, len(stock_order))):
            path_d[k + 1] = path_d[k] + pwd[stock_order[k]]
    path_vals = {}
    if keep == KEEP_ALL:
        store = np.zeros(max(int(lbase[-1]), 1), np.float64)
        layer_vals = [store[lbase[j]:lbase[j + 1]] for j in range(n + 1)]
    elif spill:
        try:
            files = layers(max(int(lsize.max()), 1))
        except OSError as err:  # no room or no place for the files: unresolved, say why
            out.stats["disk_error"] = str(err)
            return out
        pair = files.pair
    else:
        pair = [np.zeros(max(int(lsize.max()), 1), np.float64) for _ in range(2)]
    moves = np.full(COLUMNS + 1, np.nan)
    done = 0
    many = None
    if threads > 1:
        many = split.Split(threads, root, codes, value_blocks, big, g_size)
    for j in range(n, -1, -1):
        if keep == KEEP_ALL:
            above, below = layer_vals[j], layer_vals[j - 1] if j > 0 else layer_vals[0]
        else:
            above, below = pair[j & 1], pair[(j - 1) & 1]
            if j > 0 and spill:
                files.clear((j - 1) & 1)
            elif j > 0:  # (pages the last step handed back read 0 and cost nothing until written)
                zero_values(below, lsize[j - 1])
        if many is not None and j > 0:
            result = many.layer(j, above, below, release)
        else:
            result = layer_step(root, codes, value_blocks, j, above, below, sc, moves, release,
                                bool(spill))
        if j > 0:
            done += int(result)
            if path_d[j - 1] >= 0:
                d = path_d[j - 1]
                path_vals[d] = below[off[d]:off[d] + dcnt[d]].copy()
        say("values", n - j + 1, n + 1, {"valued": done, "work_done": sum(work[j:])})
    if many is not None:
        many.close()
    out.resolved = True
    out.p = float(result)
    out.moves_p = moves
    out.stats["lookups"] = 0
    if keep == KEEP_ALL:
        goff = off + lbase[layer_of]
        out.sol = (dr, blocks.rank_index(dr), goff, store, hmap)
    elif keep == KEEP_PATH:
        poff = np.full(size, -1, np.int64)
        flat = []
        at = 0
        for d, v in path_vals.items():
            poff[d] = at
            flat.append(v)
            at += len(v)
        out.sol = (dr, blocks.rank_index(dr), poff,
                   np.concatenate(flat) if flat else np.zeros(1, np.float64), hmap)
    if strokes:
        say("strokes", 0, 1, {})
        budget = max_states - states if max_states is not None else 1 << 40
        table = max(max_bytes - second, 0) if max_bytes is not None else 1 << 62
        ok, root, mp, me, pt, count = policy_values(kt, exposed, heights0, top0, m0, out.sol,
                                                    budget, table)
        out.stats["policy_states"] = int(count)
        out.stats["policy_bytes"] = int(pt[0].nbytes + pt[2].nbytes + pt[3].nbytes)
        if not ok:
            out.resolved = False
            out.p = np.nan
            out.moves_p = np.full(COLUMNS + 1, np.nan)
            return out
        out.e = float(root[1])
        out.p = float(root[0])
        out.moves_p, out.moves_e = mp, me
        out.pt = pt
    return out


@nb.njit(cache=True, nogil=True)
def policy_values(kt, exposed, heights0, top0, m0, sol, max_states, max_bytes, pooled=True):
    """The policy's (p, e) at the position, after each legal play and after a draw (the
    doc's rule, ``policy``), from the chances ``sol``.  Returns ``(ok, root, moves_p,
    moves_e, pt, states valued)``.  ``max_bytes``, ``pooled``: ``policy.new_policy``'s."""
    pw, full, g_size = powers(heights0)
    pwd, size, order, layer_start = d_codes(m0)
    n = layer_start.shape[0] - 2
    pt = policy.new_policy(kt, exposed, heights0, m0, max_states, max_bytes, pooled)
    gp0 = packed_of(heights0)
    position = inputs.Root(kt, exposed, heights0, top0, m0)
    root = np.full(2, np.nan)
    mp = np.full(COLUMNS + 1, np.nan)
    me = np.full(COLUMNS + 1, np.nan)
    root[0], root[1], pt = policy.position_value(pt, position, pw, pwd, n, sol, gp0, top0, 0, 0)
    for c in range(COLUMNS):
        h = heights0[c]
        if h == 0 or kt.play_next[top0, exposed[c, h]] < 0:
            continue
        mp[c], me[c], pt = policy.position_value(pt, position, pw, pwd, n, sol,
                                                 gp0 - (np.int64(1) << (BITS * c)),
                                                 kt.play_next[top0, exposed[c, h]], 0, 0)
    stuck = True
    for c in range(COLUMNS):
        if heights0[c] and kt.play_next[top0, exposed[c, heights0[c]]] >= 0:
            stuck = False
    if n > 0 and gp0 != 0 and (stuck or not kt.when_stuck):
        mp[COLUMNS], me[COLUMNS], pt = policy.policy_value(pt, kt, exposed, heights0, pw, m0, pwd,
                                                           n, sol, dense_of(gp0, pw), 0, 0)
    return policy.policy_failed(pt) == 0, root, mp, me, pt, policy.policy_count(pt)
