"""Backward pass of the honest expectimax: values layer by layer, from the last draw back.

Layer j's state values V(h, D) are sums over the next kind r of P(r | D) times the best
endpoint of the chains from (h, drawn(r)) with D + r drawn, so they come from layer
j + 1.  The best endpoint is a chain DP (no endpoint enumeration): for a position
(h, t) of block D',

    B(h, t) = best of ( W(h, D')                       [any-time, or t accepts no exposed card]
                        B(h - e_c, t after x_c)  for every column c whose exposed x_c t accepts )

(under when-stuck, W only where t accepts no exposed card: a player who can play must),
with W the state value (1, -stock left) when h is clear, (0, cards left) when no stock
is left, V(h, D') otherwise.  A play lowers the heights, so visiting a block's states in
increasing order of heights finds every B it needs already done; those look-ups stay
inside the block (through the dense index ``loc`` and the block's own position array).
Each B(h, drawn(r)) is then added, weighted, to V(h, D' - r) of layer j - 1: the block
of D' - r is sorted like this one, so one cursor per kind walks it (a merge, no search).

Only two layers of values are alive at a time.  No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.honest_space import (
    BITS, COLUMNS, DIGIT, STOCK_KINDS, better, cards_left, dense_of, popcount, rank_in)


@nb.njit(cache=True, nogil=True)
def backward(kt, exposed, heights0, top0, m0, pwd, order, layer_start, pw, goal, keys, masks,
             flag, layer_lo, blk_lo, blk_hi, loc, path_d):
    """Values of every state, and of what the callers need kept.

    Returns ``(root, moves, path_lo, path_keys, path_val, lookups, peak_values)``:
    ``root`` the (p, e) of the position; ``moves[c]`` the value after playing column c
    (NaN when illegal) and ``moves[COLUMNS]`` after a draw (NaN when illegal); for
    k = 0..n, ``path_keys[path_lo[k, 0]:path_lo[k, 1]]`` the states of block ``path_d[k]``
    (packed heights) with their values W in ``path_val`` (pairs), for the play-out
    (empty when ``path_d[k]`` is -1 or unreached).  ``lookups`` counts B look-ups (plays
    and draws); ``peak_values`` the most value slots alive at once.
    """
    n = layer_start.shape[0] - 2
    flag_bit = np.int64(1) << flag
    play_next = kt.play_next
    root = np.full(2, np.nan)
    moves = np.full(COLUMNS + 1, np.nan), np.full(COLUMNS + 1, np.nan)
    path_lo = np.zeros((n + 1, 2), np.int64)
    path_total = 0
    for k in range(n + 1):
        if path_d[k] >= 0 and blk_lo[path_d[k]] >= 0:
            path_total += blk_hi[path_d[k]] - blk_lo[path_d[k]]
    path_keys = np.empty(path_total, np.int64)
    path_val = np.empty(2 * path_total, np.float64)
    pos_off = np.zeros(1025, np.int64)
    bval = np.empty(2048, np.float64)
    cur = np.zeros(STOCK_KINDS, np.int64)
    end = np.zeros(STOCK_KINDS, np.int64)
    prob = np.zeros(STOCK_KINDS, np.float64)
    vcur = np.zeros(2 * (layer_lo[n + 1] - layer_lo[n]), np.float64)
    lookups = 0
    peak_values = 0
    filled = 0
    for j in range(n, -1, -1):
        base = layer_lo[j]
        vprev = np.zeros(2 * (layer_lo[j] - layer_lo[j - 1]) if j > 0 else 0, np.float64)
        peak_values = max(peak_values, vcur.shape[0] + vprev.shape[0])
        for oi in range(layer_start[j], layer_start[j + 1]):
            d = order[oi]
            lo = blk_lo[d]
            if lo < 0:
                continue
            nb_ = blk_hi[d] - lo
            if nb_ + 1 > pos_off.shape[0]:
                pos_off = np.zeros(2 * (nb_ + 1), np.int64)
            for l in range(nb_):
                gp = np.int64(keys[lo + l])
                loc[dense_of(gp, pw)] = l + 1
                pos_off[l + 1] = pos_off[l] + popcount(np.int64(masks[lo + l]) & ~flag_bit)
            if 2 * pos_off[nb_] > bval.shape[0]:
                bval = np.empty(4 * pos_off[nb_], np.float64)
            for l in range(nb_):
                i = lo + l
                gp = np.int64(keys[i])
                g = dense_of(gp, pw)
                mask = np.int64(masks[i]) & ~flag_bit
                if gp == 0:
                    wp, we = 1.0, -float(n - j)
                elif j == n:
                    wp, we = 0.0, float(cards_left(gp))
                else:
                    wp, we = vcur[2 * (i - base)], vcur[2 * (i - base) + 1]
                k = pos_off[l]
                u = 0
                while mask >> u:
                    if (mask >> u) & 1 == 0:
                        u += 1
                        continue
                    have = not kt.when_stuck
                    bp, be = wp, we
                    for c in range(COLUMNS):
                        hc = (gp >> (BITS * c)) & DIGIT
                        if hc == 0:
                            continue
                        u2 = play_next[u, exposed[c, hc]]
                        if u2 < 0:
                            continue
                        l2 = loc[g - pw[c]] - 1
                        idx = pos_off[l2] + rank_in(np.int64(masks[lo + l2]), u2)
                        cp, ce = bval[2 * idx], bval[2 * idx + 1]
                        lookups += 1
                        if not have or better(goal, cp, ce, bp, be):
                            bp, be = cp, ce
                            have = True
                    bval[2 * k] = bp
                    bval[2 * k + 1] = be
                    k += 1
                    u += 1
            if j > 0:
                _scatter(kt, keys, masks, flag_bit, m0, pwd, d, lo, nb_, n, j, blk_lo, blk_hi,
                         layer_lo[j - 1], pos_off, bval, vprev, cur, end, prob)
                lookups += _count_draws(m0, pwd, d)
            else:
                l = nb_ - 1  # the position itself: the largest heights of block {}
                idx = pos_off[l] + rank_in(np.int64(masks[lo + l]), top0)
                root[0], root[1] = bval[2 * idx], bval[2 * idx + 1]
                wp, we = np.nan, np.nan
                if np.int64(masks[lo + l]) & flag_bit:
                    wp, we = vcur[2 * (lo + l - base)], vcur[2 * (lo + l - base) + 1]
                _root_moves(kt, exposed, keys, masks, flag_bit, top0, lo, l, pw, loc, pos_off, bval,
                            wp, we, moves)
            if d == path_d[j]:
                path_lo[j, 0] = filled
                for l in range(nb_):
                    i = lo + l
                    gp = np.int64(keys[i])
                    path_keys[filled] = gp
                    if gp == 0:
                        path_val[2 * filled], path_val[2 * filled + 1] = 1.0, -float(n - j)
                    elif j == n:
                        path_val[2 * filled], path_val[2 * filled + 1] = 0.0, float(cards_left(gp))
                    else:
                        path_val[2 * filled] = vcur[2 * (i - base)]
                        path_val[2 * filled + 1] = vcur[2 * (i - base) + 1]
                    filled += 1
                path_lo[j, 1] = filled
            for l in range(nb_):
                loc[dense_of(np.int64(keys[lo + l]), pw)] = 0
        vcur = vprev
    return root, moves, path_lo, path_keys, path_val, lookups, peak_values


@nb.njit(cache=True, nogil=True)
def _count_draws(m0, pwd, d):
    k = 0
    for r in range(STOCK_KINDS):
        if (d // pwd[r]) % (m0[r] + 1):
            k += 1
    return k


@nb.njit(cache=True, nogil=True)
def _scatter(kt, keys, masks, flag_bit, m0, pwd, d, lo, nb_, n, j, blk_lo, blk_hi, prev_base,
             pos_off, bval, vprev, cur, end, prob):
    """Add P(r | D - r) * B(h, drawn(r)) to V(h, D - r) for every drawable state of layer j - 1."""
    for r in range(STOCK_KINDS):
        have = (d // pwd[r]) % (m0[r] + 1)
        cur[r] = -1
        if have == 0:
            continue
        dm = d - pwd[r]
        if blk_lo[dm] < 0:
            continue
        cur[r] = blk_lo[dm]
        end[r] = blk_hi[dm]
        prob[r] = (m0[r] - have + 1) / (n - j + 1)
    for l in range(nb_):
        gp = np.int64(keys[lo + l])
        mask = np.int64(masks[lo + l]) & ~flag_bit
        for r in range(STOCK_KINDS):
            t = cur[r]
            if t < 0:
                continue
            e = end[r]
            while t < e and np.int64(keys[t]) < gp:
                t += 1
            cur[r] = t
            if t < e and np.int64(keys[t]) == gp and np.int64(masks[t]) & flag_bit:
                idx = pos_off[l] + rank_in(mask, kt.drawn[r])
                s = t - prev_base
                vprev[2 * s] += prob[r] * bval[2 * idx]
                vprev[2 * s + 1] += prob[r] * bval[2 * idx + 1]


@nb.njit(cache=True, nogil=True)
def _root_moves(kt, exposed, keys, masks, flag_bit, top0, lo, l, pw, loc, pos_off, bval, wp, we,
                moves):
    """The value after each legal move from the position (state ``l`` of block {}):
    ``moves[0][c], moves[1][c]`` after playing column c, index ``COLUMNS`` after a draw."""
    gp = np.int64(keys[lo + l])
    g = dense_of(gp, pw)
    mp, me = moves
    for c in range(COLUMNS):
        hc = (gp >> (BITS * c)) & DIGIT
        if hc == 0:
            continue
        u2 = kt.play_next[top0, exposed[c, hc]]
        if u2 < 0:
            continue
        l2 = loc[g - pw[c]] - 1
        idx = pos_off[l2] + rank_in(np.int64(masks[lo + l2]), u2)
        mp[c], me[c] = bval[2 * idx], bval[2 * idx + 1]
    if np.int64(masks[lo + l]) & flag_bit:
        mp[COLUMNS], me[COLUMNS] = wp, we
