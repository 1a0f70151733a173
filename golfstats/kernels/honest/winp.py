"""Goal win, the chance of winning: p of every drawn-from state, one layer (|D|) at a time.

The value (``docs/honest-play.md``) organised around draws: for a state (h, D) drawn from,

    p(h, D) = sum over kinds r left of P(r | D) * B_{D+r}(h, drawn(r))
    B_D(h, t) = max of ( p(h, D)                    (h, D) drawn from, t may draw there
                         1                          a play clears the tableau
                         B_D(h - e_c, t after x_c)  for the columns c whose card t accepts )

and B is 0 where nothing of the above applies (no order wins from there, Fact 1).  Only
the states of Q (``honest.reach``) can have B > 0 at a position some chain of the block
reaches, so the chain DP of block D runs over Q's states of D, in increasing dense code g
(every play lowers g, so a state's plays are done before it), and keeps B for every top
(``n_tops`` values a state, one array a top: a play's result and a turned card both name a
top).  A state outside Q is worth 0 to every position that reaches it (it is reached from
a listed position only where that position is outside G, which ``reach`` leaves out).

``layer_step`` does the blocks D' of layer j (|D'| = j): their chain DP (reading the p of
their drawn-from states, layer j), then for every kind r in D' and every state (h, D' - r)
drawn from, adds P(r | D' - r) * B_{D'}(h, drawn(r)) to its p (layer j - 1).  Layer j = 0
is the position's own block: it gives the position's value and every legal move's.
Values live in per-layer arrays, block d at ``off[d]``, its states in increasing g.
No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.honest.blocks import adds_with, load_block, unload_block, word_ranks
from golfstats.kernels.honest.inputs import Chain
from golfstats.kernels.honest.memory import release_rows, release_upto, release_values
from golfstats.kernels.honest.space import (
    BITS,
    COLUMNS,
    DIGIT,
    STOCK_KINDS,
    low_bit,
    play_groups,
    popcount,
)

U = np.uint64

#: Accepting tops per card kind the plain rules' inner loop may read at most (padded with
#: the spare top ``n_tops``, so the loop has the rule set's fixed length, the most tops
#: that accept one card, 2 for the plain king rules, and no unpredictable branch).
WIDE = 4


@nb.njit(cache=True, nogil=True)
def accepting_tops(play_next):
    """``(inv_n, inv)``: per card kind x the tops that accept it, ``inv[x, :inv_n[x]]``, the
    rest of the row the spare top ``n_tops`` (written, never read)."""
    n_tops, n_kinds = play_next.shape
    inv_n = np.zeros(n_kinds, np.int64)
    inv = np.full((n_kinds, max(WIDE, n_tops)), n_tops, np.int64)
    for x in range(n_kinds):
        for t in range(n_tops):
            if play_next[t, x] >= 0:
                inv[x, inv_n[x]] = t
                inv_n[x] += 1
    return inv_n, inv


@nb.njit(cache=True, nogil=True)
def chain_tables(play_next):
    """The chain DP's tables of the rule set (``inputs.Chain``): the tops accepting each
    card kind (``accepting_tops``), the top a play of it makes (``play_groups``), whether
    some card makes different tops from different tops, and the most tops accepting one."""
    inv_n, inv = accepting_tops(play_next)
    acc_of, after_of = play_groups(play_next)
    wide = False
    width = 1
    for x in range(acc_of.shape[0]):
        width = max(width, inv_n[x])
        if acc_of[x] and (after_of[x] < 0 or inv_n[x] > WIDE):
            wide = True
    return Chain(inv_n, inv, after_of, wide, width)


@nb.njit(cache=True, nogil=True)
def _block_dp(kt, exposed, upw, gpk, inv_n, inv, after_of, wide, width, ql, nq, vg, bv, pos,
              first=0):
    """B of every top at the ``nq`` states ``ql`` of a block into ``bv`` from column
    ``first`` (``bv[t, first + i]``: top t at state i, one array of the block's states per
    top, so that reading one top's values of many states, as the draws below and most
    plays do, touches a small array), ``pos[g]`` their columns; ``vg`` holds the p of the
    block's drawn-from states.  Where no card makes different tops from different tops
    (``wide`` false), a play reads one value for every accepting top.  The arguments are
    the fields of ``inputs``' bundles (``Root.kt``, ``Root.exposed``, ``Codes.upw``,
    ``Codes.gpk``, the ``Chain``, the ``Scratch``), taken flat: bundled, this loop ran
    6-10% slower (``tests/test_architecture.py``'s exceptions)."""
    play_next = kt.play_next
    accepts = kt.accepts
    n_tops = play_next.shape[0]
    # the indices read from arrays (g, x, ci, t) are unsigned: numba tests a signed index
    # for a negative value (Python's wrap-around) at every access, an unsigned one not
    for i in range(first, first + nq):
        g = U(ql[i - first])
        pos[g] = i
        gp = gpk[g]
        v = vg[g]
        if kt.when_stuck:
            seen = np.int64(0)
            for c in range(COLUMNS):
                seen |= np.int64(1) << exposed[c, (gp >> (BITS * c)) & DIGIT]
            for t in range(n_tops):
                bv[t, i] = v if accepts[t] & seen == 0 else 0.0
        else:
            for t in range(n_tops):
                bv[t, i] = v
        for c in range(COLUMNS):
            hc = (gp >> (BITS * c)) & DIGIT
            if hc == 0:
                continue
            x = U(exposed[c, hc])
            if gp == np.int64(1) << (BITS * c):  # its last card: the play clears the tableau
                for a in range(inv_n[x]):
                    bv[U(inv[x, a]), i] = 1.0
                continue
            ci = U(pos[g - upw[c]])
            if wide:
                for a in range(inv_n[x]):
                    t = U(inv[x, a])
                    bv[t, i] = max(bv[t, i], bv[U(play_next[t, x]), ci])
            else:  # every top accepting x makes the same top
                y = bv[U(after_of[x]), ci]
                for a in range(width):
                    t = U(inv[x, a])
                    bv[t, i] = max(bv[t, i], y)


@nb.njit(cache=True, nogil=True)
def layer_step(root, codes, blocks, j, vals_j, vals_below, sc, moves, release, spill):
    """The blocks of layer j (see the module doc) with the scratch ``sc`` (``inputs``; its
    ``pos`` and ``vg`` are left as they were given); ``vals_j`` holds the p of layer j and
    ``vals_below`` (layer j - 1) must start at 0.  For j = 0 returns the position's p and
    fills ``moves[c]`` (p after playing column c, NaN when illegal) and ``moves[COLUMNS]``
    (after a draw, NaN when illegal); else returns the states valued.  With ``release`` > 0
    the pages of ``vals_j`` are handed back as its blocks are read (each is read once, in
    order; ``release`` values or more at a time), and all of it at the end: it reads 0
    afterwards (``step_bytes``).  The pages of Q's row and of Dr's bits of a block of layer
    j are handed back once it is done (no later step reads them).  ``spill`` (with
    ``release`` > 0; only for layers kept in files, whose pages handed back keep their
    values): the pages of ``vals_below`` that no block to come adds to are handed back
    too, as the step goes and all of them at its end."""
    m0, pwd = root.m0, codes.pwd
    order, layer_start, dcnt, off = blocks.order, blocks.layer_start, blocks.dcnt, blocks.off
    q, in_dr, qoff = blocks.q, blocks.drq[0], blocks.drq[1]
    qcnt, words, bv, drawn = blocks.qcnt, blocks.words, sc.bv, root.kt.drawn
    n = layer_start.shape[0] - 2
    chain = chain_tables(root.kt.play_next)
    zero_col = sc.bv.shape[1] - 1
    sc.bv[:, zero_col] = 0.0
    valued = 0
    full = 0
    for c in range(COLUMNS):
        full += root.heights[c] * codes.pw[c]
    rank = np.empty(q.shape[1], np.int64)  # block dd's states before each word of its Q row
    done = 0
    stride = stride_max(m0, pwd)
    low = layer_start[j - 1] if j > 0 else 0  # the first block below some block to come adds to
    below_done = 0
    for oi in range(layer_start[j], layer_start[j + 1]):
        dd = order[oi]
        if oi > layer_start[j]:  # the block before is done: nothing reads its Q row again
            _release_block(q, in_dr, qoff, order[oi - 1])
        if release > 0 and j > 0:
            done = release_upto(vals_j, done, off[dd], release)  # the blocks before dd are read
            if spill:  # the values below those blocks are final
                while low < layer_start[j] and order[low] + stride < dd:
                    low += 1
                if low < layer_start[j]:
                    below_done = release_upto(vals_below, below_done, off[order[low]], release)
        if qcnt[dd] == 0 and j > 0:
            continue
        if j > 0:
            any_start = False
            for r in range(STOCK_KINDS):
                any_start |= adds_with(dd, r, m0, pwd, dcnt)
            if not any_start:
                continue
        nq, nd = load_block(blocks, dd, vals_j, sc)
        valued += nq
        _block_dp(root.kt, root.exposed, codes.upw, codes.gpk, chain.inv_n, chain.inv,
                  chain.after_of, chain.wide, chain.width, sc.ql, nq, sc.vg, sc.bv, sc.pos)
        if j == 0:
            value = _position(root, codes, full, n, sc, moves)
        else:
            word_ranks(q, dd, rank)
            for r in range(STOCK_KINDS):
                have = (dd // pwd[r]) % (m0[r] + 1)
                if have == 0:
                    continue
                d = dd - pwd[r]
                if dcnt[d] == 0:
                    continue
                prob = (m0[r] - have + 1) / (n - j + 1)
                _add_below(q, words, d, dd, rank, in_dr, qoff[d], off[d], off[d] + dcnt[d],
                           prob, bv[drawn[r]], vals_below)
        unload_block(sc, nq, nd)
        if j == 0:
            return value
    _release_block(q, in_dr, qoff, order[layer_start[j + 1] - 1])
    if release > 0:
        release_values(vals_j, done, vals_j.shape[0])
        if spill:
            release_values(vals_below, below_done, vals_below.shape[0])
    return float(valued)


@nb.njit(cache=True, nogil=True)
def _bits_at(bits, s, n):
    """The ``n`` (1 to 64) bits of the bit array ``bits`` from bit s, as the low bits of a
    uint64 (``bits`` has a word to spare at its end).  Not ``inline="always"``: numba's
    inlining of it into ``_add_below`` compiled to wrong values and writes
    (``tests/test_honest_layer.py`` fails with it)."""
    w = s >> 6
    b = s & 63
    x = bits[w] >> np.uint64(b)
    if b > 0 and n > 64 - b:
        x |= bits[w + 1] << np.uint64(64 - b)
    if n < 64:
        x &= (np.uint64(1) << np.uint64(n)) - np.uint64(1)
    return x


@nb.njit(cache=True, nogil=True)
def _add_below(q, words, d, dd, rank, in_dr, s, k, end, prob, bu, vals_below):
    """For every drawn-from state (h, d) of block d below block dd, add ``prob`` times
    ``bu`` at (h, dd) (``bu[i]``: the i-th of block dd's states; 0 where h has no state in
    dd) to its p, ``vals_below[k]`` (k from the given k, in increasing h, up to ``end``).
    The two blocks' Q rows are walked together, a word at a time over the words of block
    d's row that are not 0 (``words``, ``blocks.nonzero_words``): ``rank[w]`` counts block
    dd's states before word w, and the drawn-from bits of block d's states start at bit s
    of ``in_dr``.  Within a word, the drawn-from states' bits are gathered first (without
    a branch on each), then only the states of both blocks are visited."""
    one = np.uint64(1)
    for sw in range(words.shape[1]):
        z = words[d, sw]
        while z:
            w = sw * 64 + low_bit(z)
            z &= z - one
            x = q[d, w]
            m = popcount(np.int64(x))
            e = _bits_at(in_dr, s, m)  # which of the word's states of d are drawn from
            s += m
            y = q[dd, w]
            if y == 0 or e == 0:
                k += popcount(np.int64(e))
            else:
                dr = np.uint64(0)  # the bits (heights) of the word's drawn-from states of d
                while e:
                    low = x & (~x + one)
                    dr |= low & (np.uint64(0) - (e & one))
                    e >>= one
                    x ^= low
                both = dr & y
                c = rank[w]
                while both:
                    low = both & (~both + one)
                    vals_below[k + popcount(np.int64(dr & (low - one)))] += (
                        prob * bu[c + popcount(np.int64(y & (low - one)))])
                    both ^= low
                k += popcount(np.int64(dr))
            if k == end:
                return


@nb.njit(cache=True, nogil=True, inline="always")
def _release_block(q, in_dr, qoff, d):
    """Hand back the pages wholly inside block d's Q row and its Dr bits."""
    release_rows(q, d, d + 1)
    release_values(in_dr, (qoff[d] + 63) >> 6, qoff[d + 1] >> 6)


@nb.njit(cache=True, nogil=True)
def _position(root, codes, full, n, sc, moves):
    """The position's p and every legal move's, from block {}'s DP (``full``: the
    position's dense code, ``n`` its stock's size)."""
    kt, exposed, top0 = root.kt, root.exposed, root.top
    pw, bv, pos = codes.pw, sc.bv, sc.pos
    play_next = kt.play_next
    gp0 = codes.gpk[full]
    moves[:] = np.nan
    if gp0 == 0:
        return 1.0
    seen = np.int64(0)
    for c in range(COLUMNS):
        hc = (gp0 >> (BITS * c)) & DIGIT
        seen |= np.int64(1) << exposed[c, hc]
        if hc == 0:
            continue
        v = play_next[top0, exposed[c, hc]]
        if v < 0:
            continue
        if gp0 == np.int64(1) << (BITS * c):
            moves[c] = 1.0
        else:
            moves[c] = bv[v, pos[full - pw[c]]]
    if n > 0 and (not kt.when_stuck or kt.accepts[top0] & seen == 0):
        moves[COLUMNS] = sc.vg[full]
    return bv[top0, pos[full]]


@nb.njit(cache=True, nogil=True, inline="always")
def stride_max(m0, pwd):
    """The largest step a card adds to a D-code: block D' adds to blocks D' - r no further
    below than that."""
    stride = 0
    for r in range(m0.shape[0]):
        if m0[r] > 0:
            stride = max(stride, pwd[r])
    return stride


@nb.njit(cache=True, nogil=True)
def step_bytes(order, layer_start, off, dcnt, lsize, m0, pwd, step, held, spill):
    """Per layer j, an upper bound on the bytes its step holds at once in values (8 bytes
    each) when ``layer_step`` hands back what it has read (``release``): while block D' is
    done, the values of layer j from D' on (those before are handed back, but for at most
    ``step`` values: the release's batch and a page), and of layer j - 1 up to the highest
    value written so far, with D''s own writes (a block D' writes to the blocks D' - r,
    every value at or below that mark; ``step`` again for its last page); and what each
    block holds until it is done (``held``: the bytes of the blocks ``order[:i]`` at
    ``held[i]``; its Q row and Dr bits) for the blocks of the layers below j and of layer
    j up to D' (a block's are handed back once it is done; those before D' are counted
    too, an upper bound).  With ``spill`` (the layers in files, ``layer_step``'s) only the
    values of D' itself of layer j (and ``step`` each side) and those of layer j - 1 from
    the first block some block from D' on may still add to (``step`` before it) up to the
    mark.  Layer 0's step: its block's."""
    n = layer_start.shape[0] - 2
    peaks = np.zeros(n + 1, np.int64)
    peaks[0] = held[layer_start[1]]
    stride = stride_max(m0, pwd)
    for j in range(n, 0, -1):
        mark = 0
        peak = 0
        low = layer_start[j - 1]
        for oi in range(layer_start[j], layer_start[j + 1]):
            d2 = order[oi]
            for r in range(m0.shape[0]):
                if (d2 // pwd[r]) % (m0[r] + 1) >= 1:
                    d = d2 - pwd[r]
                    mark = max(mark, off[d] + dcnt[d])
            top = min(mark + step, lsize[j - 1])
            above = lsize[j] - max(off[d2] - step, 0)
            if spill:
                while low < layer_start[j] and order[low] + stride < d2:
                    low += 1
                first = off[order[low]] if low < layer_start[j] else lsize[j - 1]
                above = min(off[d2] + dcnt[d2] + step, lsize[j]) - max(off[d2] - step, 0)
                top = max(top - max(first - step, 0), 0)
            peak = max(peak, 8 * (above + top) + held[oi + 1])
        peaks[j] = peak
    return peaks
