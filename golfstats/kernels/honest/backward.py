"""Backward pass of the honest expectimax: values layer by layer, from the last draw back.

Layer j's state values V(h, D) are sums over the next kind r of P(r | D) times the best
endpoint of the chains from (h, drawn(r)) with D + r drawn, so they come from layer
j + 1.  The best endpoint is a chain DP (no endpoint enumeration): for a position
(h, t) of block D',

    B(h, t) = best of ( W(h, D')                       [any-time, or t accepts no exposed card]
                        B(h - e_c, t after x_c)  for every column c whose exposed x_c t accepts )

(under when-stuck, W only where t accepts no exposed card: a player who can play must),
with W the state value (1, -stock left) when h is clear, (0, cards left) when no stock
is left, V(h, D') otherwise.  A block is sorted by key (level = cards left, then
heights), so visiting it in order finds every B it needs already done, one level
down; the child through column c of consecutive states of a level come in increasing
order, so one cursor per column walks the level below (a merge, no search, no
random access).  Each B(h, drawn(r)) is then added, weighted, to V(h, D' - r) of layer
j - 1: the block of D' - r is sorted the same way, so one cursor per kind walks it.

Only two layers of values are alive at a time.  No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.honest.inputs import Block
from golfstats.kernels.honest.space import (
    BITS,
    COLUMNS,
    DIGIT,
    LEVEL_SHIFT,
    PACKED,
    better,
    draw_sources,
    find_key,
    play_groups,
    popcount,
    rank_in,
)


@nb.njit(cache=True, nogil=True)
def backward(root, pwd, order, layer_start, goal, listing, path_slot):
    """Values of every state of ``listing`` (``inputs``) from the position ``root``, and of
    what the callers need kept.

    Returns ``(value, moves, path_lo, path_keys, path_val, lookups, peak_values, positive)``:
    ``value`` the (p, e) of the position; ``moves[0][c], moves[1][c]`` the value after
    playing column c (NaN when illegal), index ``COLUMNS`` after a draw (NaN when
    illegal); for every block D kept (``path_slot[D] = s >= 0``: the blocks the stock
    orders of the play-outs visit), ``path_keys[path_lo[s, 0]:path_lo[s, 1]]`` its states
    (keys) with their values W in ``path_val`` (pairs), for the play-outs (empty when
    unreached).  ``lookups`` counts B
    look-ups (plays and draws); ``peak_values`` the most value slots alive at once;
    ``positive`` the states with p > 0 (all a win-only computation without the e
    tie-break would need, Fact 1), for the record.
    """
    n = layer_start.shape[0] - 2
    keys, masks, flag_bit = listing.keys, listing.masks, listing.flag_bit
    layer_lo, blk_lo, blk_hi = listing.layer_lo, listing.blk_lo, listing.blk_hi
    plays = play_groups(root.kt.play_next)
    value = np.full(2, np.nan)
    moves = np.full(COLUMNS + 1, np.nan), np.full(COLUMNS + 1, np.nan)
    slots = 0
    path_total = 0
    for d in range(path_slot.shape[0]):
        if path_slot[d] >= 0:
            slots = max(slots, path_slot[d] + 1)
            if blk_lo[d] >= 0:
                path_total += blk_hi[d] - blk_lo[d]
    path_lo = np.zeros((slots, 2), np.int64)
    path_keys = np.empty(path_total, np.int64)
    path_val = np.empty(2 * path_total, np.float64)
    pos_off = np.zeros(1025, np.int64)
    bval = np.empty(2048, np.float64)
    vcur = np.zeros(2 * (layer_lo[n + 1] - layer_lo[n]), np.float64)
    lookups = 0
    peak_values = 0
    positive = 0
    filled = 0
    for j in range(n, -1, -1):
        base = layer_lo[j]
        vprev = np.zeros(2 * (layer_lo[j] - layer_lo[j - 1]) if j > 0 else 0, np.float64)
        peak_values = max(peak_values, vcur.shape[0] + vprev.shape[0])
        for s in range(0, vcur.shape[0], 2):
            positive += vcur[s] > 0
        for oi in range(layer_start[j], layer_start[j + 1]):
            d = order[oi]
            lo = blk_lo[d]
            if lo < 0:
                continue
            size = blk_hi[d] - lo
            if size + 1 > pos_off.shape[0]:
                pos_off = np.zeros(2 * (size + 1), np.int64)
            for t in range(size):
                pos_off[t + 1] = pos_off[t] + popcount(np.int64(masks[lo + t]) & ~flag_bit)
            if 2 * pos_off[size] > bval.shape[0]:
                bval = np.empty(4 * pos_off[size], np.float64)
            blk = Block(lo, size, n, j, base, pos_off, bval)
            lookups += _block_values(root, plays, goal, listing, blk, vcur)
            if j > 0:
                lookups += _scatter(root, pwd, listing, d, blk, vprev)
            else:
                t = size - 1  # the position itself: the largest key of block {}
                idx = pos_off[t] + rank_in(np.int64(masks[lo + t]) & ~flag_bit, root.top)
                value[0], value[1] = bval[2 * idx], bval[2 * idx + 1]
                _root_moves(root, listing, blk, vcur, moves)
            if path_slot[d] >= 0:
                path_lo[path_slot[d], 0] = filled
                for t in range(size):
                    key = np.int64(keys[lo + t])
                    path_keys[filled] = key
                    path_val[2 * filled], path_val[2 * filled + 1] = _w(key, n, j, vcur,
                                                                        lo + t - base)
                    filled += 1
                path_lo[path_slot[d], 1] = filled
        vcur = vprev
    return value, moves, path_lo, path_keys, path_val, lookups, peak_values, positive


@nb.njit(cache=True, nogil=True, inline="always")
def _w(key, n, j, vcur, s):
    """W of a state: won, out of stock, or its value V (slot s of the layer)."""
    if key & PACKED == 0:
        return 1.0, -float(n - j)
    if j == n:
        return 0.0, float(key >> LEVEL_SHIFT)
    return vcur[2 * s], vcur[2 * s + 1]


@nb.njit(cache=True, nogil=True)
def _block_values(root, plays, goal, listing, blk, vcur):
    """B of every position of the block ``blk`` into ``blk.bval`` (``plays``: the rule
    set's ``space.play_groups``; ``vcur`` the values of the block's layer).  Returns the
    number of look-ups."""
    kt, exposed = root.kt, root.exposed
    acc_of, after_of = plays
    keys, masks, flag_bit = listing.keys, listing.masks, listing.flag_bit
    lo, size, n, j, base, pos_off, bval = blk
    play_next = kt.play_next
    accepts = kt.accepts
    cur = np.zeros(COLUMNS, np.int64)
    cbase = np.zeros(COLUMNS, np.int64)
    cmask = np.zeros(COLUMNS, np.int64)
    ckind = np.zeros(COLUMNS, np.int64)
    cp_ = np.zeros(COLUMNS, np.float64)
    ce_ = np.zeros(COLUMNS, np.float64)
    lookups = 0
    level = -1
    below_lo = lo  # first state of the level below the current one
    level_lo = lo
    for t in range(size):
        i = lo + t
        key = np.int64(keys[i])
        k = key >> LEVEL_SHIFT
        if k != level:
            below_lo = level_lo if k == level + 1 else i
            level_lo = i
            level = k
            cur[:] = below_lo
        gp = key & PACKED
        mask = np.int64(masks[i]) & ~flag_bit
        if gp == 0:
            wp, we = 1.0, -float(n - j)
        elif j == n:
            wp, we = 0.0, float(k)
        else:
            wp, we = vcur[2 * (i - base)], vcur[2 * (i - base) + 1]
        when_stuck = kt.when_stuck
        nc = 0  # columns some top here may play, compacted
        uniform = True  # every one of them makes one top, whatever it is played on
        for c in range(COLUMNS):
            hc = (gp >> (BITS * c)) & DIGIT
            if hc == 0:
                continue
            x = exposed[c, hc]
            if mask & acc_of[x] == 0:
                continue
            child = key - (np.int64(1) << LEVEL_SHIFT) - (np.int64(1) << (BITS * c))
            q = cur[c]
            while np.int64(keys[q]) < child:
                q += 1
            cur[c] = q
            ckind[nc] = x
            cbase[nc] = pos_off[q - lo]
            cmask[nc] = np.int64(masks[q]) & ~flag_bit
            if after_of[x] >= 0:
                idx = cbase[nc] + rank_in(cmask[nc], after_of[x])
                cp_[nc], ce_[nc] = bval[2 * idx], bval[2 * idx + 1]
                lookups += 1
            else:
                uniform = False
            nc += 1
        slot = pos_off[t]
        u = 0
        m = mask
        while m:
            if m & 1:
                have = not when_stuck
                bp, be = wp, we
                acc = accepts[u]
                for a in range(nc):
                    x = ckind[a]
                    if (acc >> x) & 1 == 0:
                        continue
                    if uniform:
                        cp, ce = cp_[a], ce_[a]
                    else:
                        idx = cbase[a] + rank_in(cmask[a], play_next[u, x])
                        cp, ce = bval[2 * idx], bval[2 * idx + 1]
                        lookups += 1
                    if not have or better(goal, cp, ce, bp, be):
                        bp, be = cp, ce
                        have = True
                bval[2 * slot] = bp
                bval[2 * slot + 1] = be
                slot += 1
            m >>= 1
            u += 1
    return lookups


@nb.njit(cache=True, nogil=True)
def _scatter(root, pwd, listing, d, blk, vprev):
    """Add P(r | D - r) * B(h, drawn(r)) to V(h, D - r) for every drawable state of layer
    j - 1 (``vprev``; D = d, the block's code).  Returns the number of look-ups."""
    keys, masks, flag_bit = listing.keys, listing.masks, listing.flag_bit
    lo, size, n, j, _, pos_off, bval = blk
    prev_base = listing.layer_lo[j - 1]
    cur, end, prob, top, na = draw_sources(root.kt, root.m0, pwd, d, n, j, listing.blk_lo,
                                           listing.blk_hi)
    lookups = 0
    for t in range(size):
        key = np.int64(keys[lo + t])
        mask = np.int64(masks[lo + t]) & ~flag_bit
        for a in range(na):
            q = cur[a]
            e = end[a]
            while q < e and np.int64(keys[q]) < key:
                q += 1
            cur[a] = q
            if q < e and np.int64(keys[q]) == key and np.int64(masks[q]) & flag_bit:
                idx = pos_off[t] + rank_in(mask, top[a])
                s = q - prev_base
                vprev[2 * s] += prob[a] * bval[2 * idx]
                vprev[2 * s + 1] += prob[a] * bval[2 * idx + 1]
                lookups += 1
    return lookups


@nb.njit(cache=True, nogil=True)
def _root_moves(root, listing, blk, vcur, moves):
    """The value after each legal move from the position (the last state of block {}):
    ``moves[0][c], moves[1][c]`` after playing column c, index ``COLUMNS`` after a draw."""
    kt, exposed, top0 = root.kt, root.exposed, root.top
    keys, masks, flag_bit = listing.keys, listing.masks, listing.flag_bit
    lo, size, _, _, base, pos_off, bval = blk
    t = size - 1
    key = np.int64(keys[lo + t])
    gp = key & PACKED
    mp, me = moves
    for c in range(COLUMNS):
        hc = (gp >> (BITS * c)) & DIGIT
        if hc == 0:
            continue
        u2 = kt.play_next[top0, exposed[c, hc]]
        if u2 < 0:
            continue
        child = key - (np.int64(1) << LEVEL_SHIFT) - (np.int64(1) << (BITS * c))
        q = find_key(keys, lo, lo + size, child)
        idx = pos_off[q - lo] + rank_in(np.int64(masks[q]) & ~flag_bit, u2)
        mp[c], me[c] = bval[2 * idx], bval[2 * idx + 1]
    if np.int64(masks[lo + t]) & flag_bit:
        mp[COLUMNS], me[COLUMNS] = vcur[2 * (lo + t - base)], vcur[2 * (lo + t - base) + 1]
