"""The honest expectimax's two entries: goal win (``solve_win``) and goal strokes
(``solve_strokes``), each returning one ``Solved``; docs/honest-play.md has the value and
the proofs.  Goal win in compiled passes, which ``solve_win`` sequences (sizing the memory
before the long pass, reporting progress through a callback):

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
   it is done.  Only two layers of values are alive unless the expected strokes are
   wanted (then every p is kept) or a play-out will follow (then the blocks the stock
   order visits are kept).
5. With the expected strokes: ``policy_values`` values the policy's (p, e) along its own
   choices (the doc's rule: ties of p broken by e), from the position and after every move.

Goal strokes is one compiled entry (``forward`` lists every reachable state, ``backward``
values them: the strokes optimum needs the whole space).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from golfstats.honest.value import Stats, Value
from golfstats.kernels.core import powers
from golfstats.kernels.honest import blocks, inputs, reach, reachable, split, win_rows, wins
from golfstats.kernels.honest import solve as compiled
from golfstats.kernels.honest.memory import PAGE, zero_values
from golfstats.kernels.honest.packed import row_bytes
from golfstats.kernels.honest.space import COLUMNS, d_codes, packed_codes
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


@dataclass(frozen=True)
class Solved:
    """What an entry found: the position's ``value``, ``moves`` (the value after playing
    column c, index c, or drawing, index ``COLUMNS``; unresolved where illegal), the named
    ``stats`` (``seconds`` 0: the caller times), and what the play-outs read: ``sol``, goal
    win's chances (Dr, its rank index, offsets, values, the heights' compact index);
    ``pt``, the win-strokes policy's memo of (p, e); ``path``, goal strokes' kept blocks."""

    value: Value
    moves: tuple[Value, ...]
    stats: Stats
    sol: tuple | None = None
    pt: tuple | None = None
    path: tuple | None = None


def by_slot(mp: np.ndarray, me: np.ndarray) -> tuple[Value, ...]:
    """The kernels' per-move arrays (index c: after playing column c; ``COLUMNS``: after a
    draw; NaN where illegal) as values."""
    return tuple(Value(float(p), float(e), not np.isnan(p)) for p, e in zip(mp, me, strict=True))


_NONE = by_slot(np.full(COLUMNS + 1, np.nan), np.full(COLUMNS + 1, np.nan))


class KernelPosition:
    """A position in the kernels' terms, the arguments every pass reads: the kernel tables
    ``kt``, the ``exposed`` kinds, the column heights ``heights0``, the top id ``top0`` and
    the stock multiset ``m0`` (counts per kind); with the codes of its heights (``pw``,
    ``g_size``) and drawn multisets (``pwd``, ``size``, ``order``, ``layer_start``; ``n``
    stock cards)."""

    def __init__(self, kt, exposed, heights0, top0, m0):
        self.kt, self.exposed, self.heights0, self.top0, self.m0 = kt, exposed, heights0, top0, m0
        self.root = inputs.Root(kt, exposed, heights0, top0, m0)
        self.pw, _, self.g_size = powers(heights0)
        self.pwd, self.size, self.order, self.layer_start = d_codes(m0)
        self.n = self.layer_start.shape[0] - 2
        self.n_tops = kt.play_next.shape[0]


@dataclass(frozen=True)
class _Blocks:
    """Q and Dr a drawn multiset at a time (pass 3), with the value pass's layout: the
    layer of each D, its offset in its layer, the layers' sizes and their bases."""

    hinv: np.ndarray
    hmap: np.ndarray
    q: np.ndarray
    qcnt: np.ndarray
    words: np.ndarray
    drq: tuple
    dcnt: np.ndarray
    dr: np.ndarray | None
    made: int
    layer_of: np.ndarray
    lsize: np.ndarray
    off: np.ndarray
    lbase: np.ndarray


@dataclass(frozen=True)
class _Plan:
    """The value pass, sized before it starts: ``second`` its bytes, ``spill`` its layers'
    files' (0: in memory), ``threads``, ``big`` the largest block, ``release`` (0: none)."""

    second: int
    spill: int
    threads: int
    big: int
    release: int


def solve_win(start: KernelPosition, *, keep=KEEP_LAYERS, strokes=False, stock_order=None,
              max_states=None, max_bytes=None, progress=None, layers=None, threads=1) -> Solved:
    """Goal win: the chance of winning of the position ``start``; with ``strokes`` (which
    needs ``keep=KEEP_ALL``) also the win-strokes policy's expected strokes (goal
    win-strokes).  Goal win alone never pays for them, whatever it keeps.

    ``max_states`` bounds the states valued (Q, and with ``strokes`` the policy's own
    states), ``max_bytes`` the memory: the W pass's bit rows as they are made (it stops
    once they are over), reach's after its pass (it may overshoot by its own growth before
    the check), the value pass before it starts (its size is known then), and the policy's
    table as it grows (each doubling, the old and the new table together, within what the
    value pass left: ``memo.put``).  Over any of them the solution is unresolved, with the
    stats so far.  ``layers(n_values)``, when given, makes the value pass's two layers in
    files (an object with ``pair``, two float64 arrays of ``n_values`` zeros whose pages
    handed back keep their values, and ``clear(i)``, which makes ``pair[i]`` read 0 again;
    it may raise ``OSError``); it is used only when the layers in memory are over
    ``max_bytes`` and the part of them a step works on is not (``winp.step_bytes``'s
    ``spill``).  ``progress(pass_name, done, total, info)`` is called between passes and
    layers (the value pass's ``info`` has ``work``, its states, and ``work_done``, those of
    the layers valued so far).  ``threads``: the value pass's threads (``split``; the same
    values bit for bit), fewer where more would not fit in ``max_bytes``
    (``stats.threads``: how many it used), one when its layers are in files.
    """
    if strokes and keep != KEEP_ALL:
        raise ValueError("the expected strokes read every p: they need keep=KEEP_ALL")
    say = progress or (lambda *_: None)
    first = _first_passes(start, max_bytes, say)
    if isinstance(first, Stats):
        return Solved(Value.unresolved(), _NONE, first)
    rows, win_rows, first_bytes = first
    del first
    blk = _blocks(start, rows, keep)
    del rows
    plan = _plan(start, blk, keep, max_bytes, layers, threads)
    states = int(blk.qcnt.sum())
    stats = Stats(states, 0.0, max(first_bytes, plan.second), int(blk.dcnt.sum()),
                  disk_bytes=plan.spill, win_rows=win_rows, first_bytes=first_bytes,
                  value_bytes=plan.second, threads=plan.threads)
    if ((max_states is not None and states > max_states)
            or (max_bytes is not None and plan.second > max_bytes)):
        return Solved(Value.unresolved(), _NONE, stats)
    try:
        p, mp, kept = _value_pass(start, blk, plan, keep, stock_order, layers, say)
    except OSError as err:  # no room or no place for the layers' files: unresolved, say why
        return Solved(Value.unresolved(), _NONE, replace(stats, disk_error=str(err)))
    sol = _kept(start, blk, keep, kept)
    nan = np.full(COLUMNS + 1, np.nan)
    if not strokes:
        return Solved(Value(p, np.nan), by_slot(mp, nan), stats, sol)
    say("strokes", 0, 1, {})
    budget = max_states - states if max_states is not None else 1 << 40
    table = max(max_bytes - plan.second, 0) if max_bytes is not None else 1 << 62
    s = start
    ok, root, mp, me, pt, count = compiled.policy_values(s.kt, s.exposed, s.heights0, s.top0, s.m0,
                                                         sol, budget, table)
    stats = replace(stats, states=states + int(count), policy_states=int(count),
                    policy_bytes=int(pt[0].nbytes + pt[2].nbytes + pt[3].nbytes))
    if not ok:
        return Solved(Value.unresolved(), _NONE, stats, sol)
    return Solved(Value(float(root[0]), float(root[1])), by_slot(mp, me), stats, sol, pt)


def _first_passes(s: KernelPosition, max_bytes, say):
    """Passes 1 and 2: W and G, then Dr and Q; ``(reach's rows, W rows made, the peak
    bytes so far)``, or the ``Stats`` of a refusal: the bit rows are over ``max_bytes``."""
    say("wins", 0, 1, {})
    if s.size <= PRUNE_MAX_DRAWN:  # small: W only at the heights a reachable position plays or draws at
        where = reachable.reachable_heights(s.kt, s.exposed, s.heights0, s.top0, s.m0, s.pwd,
                                            s.size, win_rows.kind_masks(s.m0, s.pwd, s.size)[1])
    else:
        where = np.ones(s.g_size, np.bool_)
    widx, w_rows, gidx, g_rows, wstats = wins.win_sets_within(
        s.kt, s.exposed, s.heights0, s.m0, s.pwd, s.size, where,
        -1 if max_bytes is None else int(max_bytes))
    if max_bytes is not None and wstats.peak_bytes > max_bytes:  # (W and G, and the B rows, packed)
        return _refused(wstats, int(wstats.peak_bytes))
    del where
    say("reach", 0, 1, {})
    rows = reach.reach_sets(s.kt, s.exposed, s.heights0, s.top0, s.m0, s.pwd, s.size, widx,
                            w_rows, gidx, g_rows, True)
    # the W pass's peak (W, G and two levels of B rows), then reach's (W and G rows
    # released a level at a time as Dr and Q grow)
    first = max(int(wstats.peak_bytes), int(rows[4].peak_bytes))
    if max_bytes is not None and first > max_bytes:
        return _refused(wstats, first)
    return rows, int(wstats.w_rows), first


def _refused(wstats, first: int) -> Stats:
    """The first passes' bit rows (``first`` bytes so far) are over the memory budget."""
    return Stats(0, 0.0, first, win_rows=int(wstats.w_rows), first_bytes=first)


def _blocks(s: KernelPosition, rows, keep) -> _Blocks:
    """Pass 3 on reach's ``rows`` (Dr and Q over D), and the value pass's layer layout."""
    ridx, r_rows, qidx, q_rows, rstats = rows
    # the compact heights index: only the heights with a Q row (Dr's are among them)
    hinv = np.flatnonzero(qidx >= 0)
    hmap = np.full(s.g_size, -1, np.int64)
    hmap[hinv] = np.arange(hinv.shape[0])
    ridx, qidx = ridx[hinv], qidx[hinv]
    q = blocks.d_major(qidx, q_rows, s.size, blocks.store_bits(qidx, q_rows))
    qcnt = blocks.row_counts(q)
    words = blocks.nonzero_words(q)
    # Dr as a bit per state of Q (Dr is inside Q): what the value pass reads; a table kept
    # for play-outs keeps Dr's own as well (its rank index finds a state's value)
    bits, qoff, dcnt = blocks.subset_bits(qcnt, qidx, q_rows, ridx, r_rows, s.size)
    drq = (bits, qoff)
    made = (q.nbytes + words.nbytes + drq[0].nbytes + drq[1].nbytes  # all alive here
            + row_bytes(r_rows, 0, rstats.r_rows) + row_bytes(q_rows, 0, rstats.q_rows))
    dr = None
    if keep != KEEP_LAYERS:
        dr = blocks.d_major(ridx, r_rows, s.size, blocks.store_bits(ridx, r_rows))
        made += dr.nbytes
    layer_of = np.empty(s.size, np.int64)
    lsize = np.zeros(s.n + 1, np.int64)
    off = np.zeros(s.size, np.int64)
    for j in range(s.n + 1):
        for d in s.order[s.layer_start[j]:s.layer_start[j + 1]]:
            layer_of[d] = j
            off[d] = lsize[j]
            lsize[j] += dcnt[d]
    lbase = np.concatenate(([0], np.cumsum(lsize)))
    return _Blocks(hinv, hmap, q, qcnt, words, drq, dcnt, dr, int(made), layer_of, lsize, off,
                   lbase)


def _plan(s: KernelPosition, b: _Blocks, keep, max_bytes, layers, threads) -> _Plan:
    """The value pass's bytes, in memory or with its layers in files, and its threads."""
    big = max(int(b.qcnt.max()), 1)
    release = RELEASE_STEP if keep != KEEP_ALL else 0
    # what each layer's step holds (j = n first): its values (every p kept; or two layers,
    # handed back as read and written as needed, ``memory``), and the Q rows and Dr bits of
    # the blocks not yet done (a block's are handed back once it is done: nothing reads
    # them after)
    held = np.zeros(s.size + 1, np.int64)
    held[1:] = np.cumsum(b.q.shape[1] * 8 + (b.qcnt[s.order] // 64 + 2) * 8)
    if release:
        alive = step_bytes(s.order, s.layer_start, b.off, b.dcnt, b.lsize, s.m0, s.pwd,
                           release + PAGE // 8, held, False)
    else:  # every p kept (or two whole layers: ``release`` 0 in the tests)
        alive = [8 * int(b.lbase[-1] if keep == KEEP_ALL else b.lsize[j] + (b.lsize[j - 1] if j else 0))
                 + int(held[s.layer_start[j + 1]])
                 for j in range(s.n + 1)]
    steps = max(int(a) for a in alive)
    dr = b.dr
    second = (steps + b.drq[1].nbytes + big * (s.n_tops * 8 + 16) + s.g_size * 20
              + b.hinv.nbytes + b.q.shape[1] * 8 + b.words.nbytes
              + (dr.nbytes + dr.shape[0] * (dr.shape[1] // blocks.SUPER + 1) * 4 if dr is not None
                 else 0))
    second = max(second, b.made)
    spill = 0  # the bytes of the two layers' files, when they are in files
    if release and layers is not None and max_bytes is not None and second > max_bytes:
        on_disk = max(int(a) for a in step_bytes(s.order, s.layer_start, b.off, b.dcnt, b.lsize,
                                                 s.m0, s.pwd, release + PAGE // 8, held, True))
        if max(second - steps + on_disk, b.made) <= max_bytes:
            second = max(second - steps + on_disk, b.made)
            spill = 8 * int((b.lsize[1:] + b.lsize[:-1]).max(initial=0))
    threads = max(int(threads), 1) if not spill else 1
    width = b.q.shape[1]
    while threads > 1 and max_bytes is not None and second + split.extra_bytes(
            threads, big, s.n_tops, s.g_size, width) > max_bytes:
        threads -= 1
    second += split.extra_bytes(threads, big, s.n_tops, s.g_size, width)
    return _Plan(int(second), spill, threads, big, release)


def _value_pass(s: KernelPosition, b: _Blocks, plan: _Plan, keep, stock_order, layers, say):
    """Pass 4, |D| = n down to 0: ``(the position's p, every move's p, what is kept)``:
    every p (``KEEP_ALL``), the blocks the stock order visits by D (``KEEP_PATH``), or
    nothing.  ``OSError`` when the layers' files cannot be made."""
    n = s.n
    # the work of a layer is about its states (Q), for the progress's ETA
    work = [int(b.qcnt[s.order[s.layer_start[j]:s.layer_start[j + 1]]].sum()) for j in range(n + 1)]
    say("values", 0, n + 1, {"states": int(b.qcnt.sum()), "bytes": plan.second,
                             "work": sum(work), "work_done": 0})
    big = plan.big
    codes = inputs.Codes(s.pw, s.pw.astype(np.uint64), packed_codes(s.heights0), s.pwd)
    value_blocks = inputs.Blocks(s.order, s.layer_start, b.drq, b.dcnt, b.q, b.words, b.qcnt,
                                 b.hinv, b.off)
    sc = inputs.scratch(big, s.n_tops, s.g_size)
    path_d = np.full(n + 1, -1, np.int64)
    if keep == KEEP_PATH and stock_order is not None:
        path_d[0] = 0
        for k in range(min(n, len(stock_order))):
            path_d[k + 1] = path_d[k] + s.pwd[stock_order[k]]
    path_vals = {}
    files = None
    if keep == KEEP_ALL:
        store = np.zeros(max(int(b.lbase[-1]), 1), np.float64)
        layer_vals = [store[b.lbase[j]:b.lbase[j + 1]] for j in range(n + 1)]
    elif plan.spill:
        files = layers(max(int(b.lsize.max()), 1))
        pair = files.pair
    else:
        pair = [np.zeros(max(int(b.lsize.max()), 1), np.float64) for _ in range(2)]
    moves = np.full(COLUMNS + 1, np.nan)
    done = 0
    many = None
    if plan.threads > 1:
        many = split.Split(plan.threads, s.root, codes, value_blocks, big, s.g_size)
    for j in range(n, -1, -1):
        if keep == KEEP_ALL:
            above, below = layer_vals[j], layer_vals[j - 1] if j > 0 else layer_vals[0]
        else:
            above, below = pair[j & 1], pair[(j - 1) & 1]
            if j > 0 and files is not None:
                files.clear((j - 1) & 1)
            elif j > 0:  # (pages the last step handed back read 0 and cost nothing until written)
                zero_values(below, b.lsize[j - 1])
        if many is not None and j > 0:
            result = many.layer(j, above, below, plan.release)
        else:
            result = layer_step(s.root, codes, value_blocks, j, above, below, sc, moves,
                                plan.release, bool(plan.spill))
        if j > 0:
            done += int(result)
            if path_d[j - 1] >= 0:
                d = path_d[j - 1]
                path_vals[d] = below[b.off[d]:b.off[d] + b.dcnt[d]].copy()
        say("values", n - j + 1, n + 1, {"valued": done, "work_done": sum(work[j:])})
    if many is not None:
        many.close()
    kept = store if keep == KEEP_ALL else path_vals
    return float(result), moves, kept


def _kept(s: KernelPosition, b: _Blocks, keep, kept) -> inputs.Kept | None:
    """What a play-out reads of the values (``play``'s ``sol``): Dr with its rank index,
    each D's offset, the values and the heights' compact index; None for ``KEEP_LAYERS``."""
    if keep == KEEP_ALL:
        goff = b.off + b.lbase[b.layer_of]
        return inputs.Kept(b.dr, blocks.rank_index(b.dr), goff, kept, b.hmap)
    if keep != KEEP_PATH:
        return None
    poff = np.full(s.size, -1, np.int64)
    flat = []
    at = 0
    for d, v in kept.items():
        poff[d] = at
        flat.append(v)
        at += len(v)
    return inputs.Kept(b.dr, blocks.rank_index(b.dr), poff,
                       np.concatenate(flat) if flat else np.zeros(1, np.float64), b.hmap)


def solve_strokes(start: KernelPosition, max_states, max_bytes, stock_orders, wide) -> Solved:
    """Goal strokes: every reachable state of ``start`` listed and valued (``kernels.honest.solve``'s
    compiled ``solve_strokes``), keeping the blocks every one of ``stock_orders`` (K x n
    kinds in draw order, K possibly 0) visits.  ``wide``: the per-state top sets need 64
    bits (more than 15 tops).  Unresolved over ``max_states`` (None: none but the budget's),
    or where the listing (its states' bytes, up to ``max_bytes``) and then the backward
    pass's exact need exceed ``max_bytes``."""
    proto = np.zeros(1, np.uint64 if wide else np.uint16)
    cap = max(1, int(max_bytes) // (4 + proto.itemsize))  # the listing's own bytes a state
    if max_states is not None:
        cap = min(cap, max(int(max_states), 1))
    s = start
    resolved, root, moves, path, st = compiled.solve_strokes(
        s.kt, s.exposed, s.heights0, s.top0, s.m0, cap, int(max_bytes), stock_orders, proto,
        62 if wide else 15)
    stats = Stats(int(st.states), 0.0, int(st.state_bytes + st.value_bytes), partial=not st.listed)
    if not resolved:
        return Solved(Value.unresolved(), _NONE, stats)
    return Solved(Value(float(root[0]), float(root[1])), by_slot(moves[0], moves[1]), stats,
                  path=path)
