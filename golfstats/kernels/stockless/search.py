"""One depth-first pass of the stockless search (``kernels.stockless`` runs one or two).

The hash set holds canonical keys; children are generated all at once, checked by the
rules of ``stockless.rules``, their set slots prefetched, then looked up and ordered.
No I/O.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.constants import FINISHED, TRUNCATED
from golfstats.kernels.hashset import grow_in, insert_at, new_set, prefetch, release, slot_of
from golfstats.kernels.stockless.canon import canonical_tables
from golfstats.kernels.stockless.rules import (
    ALL_KINDS,
    card_data,
    card_last,
    card_stuck,
    euler_ok,
    kind_relations,
    lowbit,
    popcount,
    stuck_depths,
    stuck_depths_after,
    unreached,
    walk_ok,
    walk_sums,
    walk_tables,
)

#: Rules a pass may use (bit flags of ``opts``); ``DEFAULT_RULES`` are those that pay
#: for themselves (``kernels.stockless`` gives the measurements).
USE_WALK, USE_UNREACHED, USE_BURIED, USE_CANONICAL, USE_ORDER, USE_LAST = 1, 2, 4, 8, 16, 32
DEFAULT_RULES = USE_WALK | USE_CANONICAL | USE_ORDER
LOG2_START = 14  # initial hash set: 2**14 slots (128 KB), doubled at half load


@nb.njit(cache=True, nogil=True)
def search_pass(kt, exposed, heights0, top0, win_only, bound, max_states, moves_out, opts,
                pool):
    """One depth-first pass.  ``win_only``: prune states proved lost (pass 1); else prune
    states whose cards-left bound is >= the best line's, starting at ``bound`` (pass 2).
    Returns ``(status, won, best_left, n_moves, states)``; ``moves_out[:n_moves]`` leads
    to a state with ``best_left`` cards (not played on), left as it was if none beat
    ``bound``.  ``pool``: every slot EMPTY (``hashset.pool_of``), or empty; the hash set
    lives in it while it fits and it is left all EMPTY again."""
    top_kind, kind_top, pred, fol, wrap = kind_relations(kt)
    accepts = kt.accepts
    ncols = heights0.shape[0]
    kinds, incol, above, by_kind, n_kind = card_data(exposed, heights0, pred)
    hmax = kinds.shape[1] - 2
    bits = 1
    while (1 << bits) <= hmax:
        bits += 1
    use_walk = wrap and opts & USE_WALK != 0
    use_unreached = wrap and opts & USE_UNREACHED != 0
    use_buried = opts & USE_BURIED != 0
    use_canon = opts & USE_CANONICAL != 0
    use_order = opts & USE_ORDER != 0
    use_last = wrap and opts & USE_LAST != 0
    # below[c, i]: 1 if the card beneath card (c, i) may follow it (successor rule)
    below = np.zeros(above.shape, np.int64)
    for c in range(ncols):
        for i in range(2, heights0[c] + 1):
            if (fol[kinds[c, i]] >> kinds[c, i - 1]) & 1:
                below[c, i] = 1
    sig, neg, pos = walk_tables()

    h = heights0.copy()
    cnt = np.zeros(16, np.int64)
    colmask = np.zeros(16, np.int64)  # columns whose exposed card is of each kind
    botcnt = np.zeros(16, np.int64)  # non-empty columns with each bottom kind
    shifts = np.empty(ncols, np.int64)
    key = top0
    left = 0
    for c in range(ncols):
        shifts[c] = bits * c + 4
        key += h[c] << shifts[c]
        left += h[c]
        for i in range(1, h[c] + 1):
            cnt[kinds[c, i]] += 1
        if h[c] > 0:
            colmask[kinds[c, h[c]]] |= 1 << c
            botcnt[kinds[c, 1]] += 1
    nz = 0
    ends = 0  # bottom kinds of non-empty columns, as ranks 0..12: where the walk may end
    for k in range(1, 14):
        if cnt[k] > 0:
            nz |= 1 << k
        if botcnt[k] > 0:
            ends |= 1 << (k - 1)

    table = pool[:1 << LOG2_START] if pool.shape[0] >= 1 << LOG2_START else new_set(LOG2_START)
    hmask = (1 << LOG2_START) - 1
    # canonical key = raw key + canon (the groups' deltas, kept in step with the heights)
    group, place, delta = canonical_tables(kinds, heights0, shifts)
    gindex = np.zeros(delta.shape[0], np.int64)
    for c in range(ncols):
        if group[c] >= 0:
            gindex[group[c]] += h[c] * place[c]
    canon = 0
    if use_canon:
        for g in range(gindex.shape[0]):
            canon += delta[g, gindex[g]]
    ck = key + canon
    acnt = walk_sums(cnt, sig)  # walk rule sums of the cards left (kept in step)
    table[slot_of(ck, hmask)] = ck
    used = 1

    depth_max = left + 2
    cand = np.zeros((depth_max, ncols), np.int64)
    score = np.zeros(ncols, np.int64)
    g_col = np.zeros(ncols, np.int64)  # children generated at one expansion
    g_key = np.zeros(ncols, np.int64)
    g_slot = np.zeros(ncols, np.int64)
    g_sc = np.zeros(ncols, np.int64)
    g_last = np.zeros(ncols, np.int64)
    cand_last = np.zeros((depth_max, ncols), np.int64)
    last = np.zeros(depth_max, np.int64)  # columns whose bottom card can only be the last card
    ncand = np.zeros(depth_max, np.int64)
    icand = np.zeros(depth_max, np.int64)
    path = np.zeros(depth_max, np.int64)
    fkey = np.zeros(depth_max, np.int64)
    best = bound
    best_n = 0
    won = False
    done = False
    status = FINISHED

    # the root: lost already?
    tk0 = top_kind[top0]
    sd = np.zeros((depth_max, ncols), np.int64)  # pass 2: stuck depths along the line
    root_bound = stuck_depths(h, cnt, nz, tk0, kinds, incol, above, pred, fol, wrap, sd[0])
    dead = (use_buried or use_unreached) and root_bound > 0
    if use_walk and tk0 >= 0:
        dead = dead or not euler_ok(cnt, tk0, ends, sig, neg, pos)
    if use_last:  # successor rule at the root: every card
        for c in range(ncols):
            for i in range(1, h[c] + 1):
                if card_last(c, i, h, cnt, kinds, incol, below, fol):
                    if i > 1:
                        dead = True
                    last[0] |= 1 << c
        if last[0] & (last[0] - 1):
            dead = True
    if left == 0 or (win_only and dead) or (not win_only and root_bound >= best):
        release(table, pool)
        return FINISHED, left == 0, 0 if left == 0 else best, 0, used

    d = 0
    fkey[0] = key
    ncand[0] = -1
    while d >= 0:
        if ncand[d] < 0:  # expand the state at depth d
            key = fkey[d]
            top = key & 15
            tk = top_kind[top]
            n = 0
            ng = 0
            acc = accepts[top] & nz
            # the children's walk sums are those of this state's cards (the top's visit
            # replaces the card played): every child passes the walk rule if all are >= 2
            walk_easy = True
            if use_walk:
                for r in range(13):
                    if acnt[r] < 2:
                        walk_easy = False
                        break
            if not win_only and d > 0:
                # pass 2: a state whose cards-left bound reaches the best line is not expanded
                # (checked once per state here, not per child when it is generated)
                tkp = top_kind[fkey[d - 1] & 15]
                lb = stuck_depths_after(h, cnt, nz, tk, tkp, kinds, incol, above, pred, fol, wrap,
                                        by_kind, n_kind, sd[d - 1], sd[d])
                if lb == 0 and best <= 1 and use_walk and tk >= 0:
                    if not euler_ok(cnt, tk, ends, sig, neg, pos):
                        lb = 1
                if lb >= best:
                    acc = 0
            while acc:
                x = lowbit(acc)
                acc &= acc - 1
                cols = colmask[x]
                while cols:
                    c = lowbit(cols)
                    cols &= cols - 1
                    hc = h[c]
                    # the child, in place: column c one lower, one card of kind x fewer
                    h[c] = hc - 1
                    cnt[x] -= 1
                    if hc == 1:
                        botcnt[kinds[c, 1]] -= 1
                    nzc = nz if cnt[x] > 0 else nz & ~(1 << x)
                    lost = False
                    if win_only:
                        if use_unreached and (cnt[x] == 0 or tk < 0 or cnt[tk] == 0):
                            lost = unreached(x, nzc, fol) != 0
                        ec = ends
                        if hc == 1 and botcnt[kinds[c, 1]] == 0:
                            ec &= ~(1 << (kinds[c, 1] - 1))
                        lasts = last[d]
                        if not lost and use_last:
                            # successor rule: only cards after x lost a possible successor
                            ks = fol[x] & nzc
                            while ks and not lost:
                                k = lowbit(ks)
                                ks &= ks - 1
                                for j in range(n_kind[k]):
                                    cc = by_kind[k, j] >> 3
                                    ii = by_kind[k, j] & 7
                                    if ii <= h[cc] and card_last(cc, ii, h, cnt, kinds, incol, below,
                                                                 fol):
                                        if ii > 1:
                                            lost = True
                                            break
                                        lasts |= 1 << cc
                            if lasts & (lasts - 1):
                                lost = True  # two cards that can only be the last one
                            elif lasts:
                                ec &= 1 << (kinds[lowbit(lasts), 1] - 1)
                        if not lost and use_walk:
                            lost = not walk_easy and not walk_ok(acnt, x, ec, sig, neg, pos)
                        if not lost and use_buried:
                            # only cards that just lost a predecessor can become stuck:
                            # kinds after x (one x fewer) and, when exposed, after the old top
                            ks = (fol[x] | (ALL_KINDS if tk < 0 else fol[tk])) & nzc
                            while ks and not lost:
                                k = lowbit(ks)
                                ks &= ks - 1
                                for j in range(n_kind[k]):
                                    cc = by_kind[k, j] >> 3
                                    ii = by_kind[k, j] & 7
                                    if ii <= h[cc] and card_stuck(cc, ii, h, cnt, x, kinds, incol,
                                                                  above, pred):
                                        lost = True
                                        break
                    if lost and left - 1 < best:
                        # a lost state is still a reachable one: the best line so far
                        best = left - 1
                        best_n = d + 1
                        moves_out[:d] = path[:d]
                        moves_out[d] = c
                    # plays the child allows (the uncovered card included): 0 makes it a
                    # finished position, recorded as a line and neither stored nor expanded
                    m = 0
                    ff = fol[x]
                    while ff:
                        m += popcount(colmask[lowbit(ff)] & ~(1 << c))
                        ff &= ff - 1
                    if hc > 1 and (fol[x] >> kinds[c, hc - 1]) & 1:
                        m += 1
                    if m == 0 and not lost and left - 1 < best:
                        best = left - 1
                        best_n = d + 1
                        moves_out[:d] = path[:d]
                        moves_out[d] = c
                        if best == 0 or (best == 1 and not win_only):
                            done = True
                    if not lost and m > 0:
                        ckey = (key & ~15) - (1 << shifts[c]) + kind_top[x]
                        ck = ckey + canon
                        g = group[c]
                        if use_canon and g >= 0:
                            ck += delta[g, gindex[g] - place[c]] - delta[g, gindex[g]]
                        s = slot_of(ck, hmask)
                        prefetch(table, s)
                        sc = m * 8 + hc if use_order else 0
                        g_col[ng] = c
                        g_key[ng] = ck
                        g_slot[ng] = s
                        g_sc[ng] = sc
                        g_last[ng] = lasts
                        ng += 1
                    h[c] = hc
                    cnt[x] += 1
                    if hc == 1:
                        botcnt[kinds[c, 1]] += 1
            # second pass: the set lookups, their cache lines already on the way
            for j in range(ng):
                if insert_at(table, g_key[j], g_slot[j]):
                    used += 1
                    if 2 * used > table.shape[0]:
                        table = grow_in(table, pool, used)
                        hmask = table.shape[0] - 1
                        for jj in range(j + 1, ng):
                            g_slot[jj] = slot_of(g_key[jj], hmask)
                    sc = g_sc[j]
                    p = n
                    while p > 0 and score[p - 1] < sc:
                        cand[d, p] = cand[d, p - 1]
                        cand_last[d, p] = cand_last[d, p - 1]
                        score[p] = score[p - 1]
                        p -= 1
                    cand[d, p] = g_col[j]
                    cand_last[d, p] = g_last[j]
                    score[p] = sc
                    n += 1
            ncand[d] = n
            icand[d] = 0
            if done:
                won = best == 0
                break
            if used >= max_states:
                status = TRUNCATED
                break
        if icand[d] < ncand[d]:  # play the next candidate
            c = cand[d, icand[d]]
            last[d + 1] = cand_last[d, icand[d]]
            icand[d] += 1
            hc = h[c]
            x = kinds[c, hc]
            colmask[x] &= ~(1 << c)
            h[c] = hc - 1
            g = group[c]
            if use_canon and g >= 0:
                canon += delta[g, gindex[g] - place[c]] - delta[g, gindex[g]]
                gindex[g] -= place[c]
            for r in range(13):
                acnt[r] -= sig[r, x - 1]
            if hc > 1:
                colmask[kinds[c, hc - 1]] |= 1 << c
            else:
                botcnt[kinds[c, 1]] -= 1
                if botcnt[kinds[c, 1]] == 0:
                    ends &= ~(1 << (kinds[c, 1] - 1))
            cnt[x] -= 1
            if cnt[x] == 0:
                nz &= ~(1 << x)
            path[d] = c
            fkey[d + 1] = (fkey[d] & ~15) - (1 << shifts[c]) + kind_top[x]
            d += 1
            left -= 1
            ncand[d] = -1
            if left < best:
                best = left
                best_n = d
                moves_out[:d] = path[:d]
                if left == 0:
                    won = True
                    break
                if left == 1 and not win_only:
                    break  # pass 1 proved that no line clears the tableau: one card is optimal
        else:  # backtrack
            d -= 1
            if d >= 0:
                c = path[d]
                hc = h[c] + 1
                x = kinds[c, hc]
                if hc > 1:
                    colmask[kinds[c, hc - 1]] &= ~(1 << c)
                else:
                    botcnt[kinds[c, 1]] += 1
                    ends |= 1 << (kinds[c, 1] - 1)
                colmask[x] |= 1 << c
                h[c] = hc
                g = group[c]
                if use_canon and g >= 0:
                    canon += delta[g, gindex[g] + place[c]] - delta[g, gindex[g]]
                    gindex[g] += place[c]
                for r in range(13):
                    acnt[r] += sig[r, x - 1]
                cnt[x] += 1
                nz |= 1 << x
                left += 1
    release(table, pool)
    return status, won, best, best_n, used
