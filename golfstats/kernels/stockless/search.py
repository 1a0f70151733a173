"""One depth-first pass of the stockless search (``kernels.stockless`` runs one or two).

The hash set holds canonical keys; children are generated all at once, checked by the
rules of ``stockless.rules``, their set slots prefetched, then looked up and ordered.
No I/O.
"""

from __future__ import annotations

from collections import namedtuple

import numba as nb

from golfstats.kernels.constants import FINISHED, TRUNCATED
from golfstats.kernels.hashset import grow_in, insert_at, new_set, prefetch, release, slot_of
from golfstats.kernels.stockless.rules import (
    ALL_KINDS,
    card_last,
    card_stuck,
    euler_ok,
    euler_ok_in,
    lowbit,
    popcount,
    stuck_depths,
    stuck_depths_after,
    unreached,
    walk_ok,
)
from golfstats.kernels.stockless.state import buffers, pass_tables, play, start_counts, unplay

LOG2_START = 14  # initial hash set: 2**14 slots (128 KB), doubled at half load
#: Where a search stands between two calls of ``_search``: depth ``d``, the cards ``left``,
#: the kinds left ``nz`` and ``ends`` (``state.start_counts``), ``canon``, the best line's
#: cards ``best`` and length ``best_n``, and the states in the set ``used``.
At = namedtuple("At", "d left nz ends canon best best_n used")
#: ``_search``'s status when the set must grow before its next expansion.
GROW = -1


@nb.njit(cache=True, nogil=True)
def search_pass(kt, exposed, heights0, top0, win_only, bound, max_states, moves_out, opts,
                pool):
    """One depth-first pass.  ``win_only``: prune states proved lost (pass 1); else prune
    states whose cards-left bound is >= the best line's, starting at ``bound`` (pass 2).
    Returns ``(status, won, best_left, n_moves, states)``; ``moves_out[:n_moves]`` leads
    to a state with ``best_left`` cards (not played on), left as it was if none beat
    ``bound``.  ``pool``: every slot EMPTY (``hashset.pool_of``), or empty; the hash set
    lives in it while it fits and it is left all EMPTY again."""
    ps = pass_tables(kt, exposed, heights0, opts)
    st, key, left, nz, ends, canon = start_counts(heights0, top0, ps)
    table = pool[:1 << LOG2_START] if pool.shape[0] >= 1 << LOG2_START else new_set(LOG2_START)
    table[slot_of(key + canon, table.shape[0] - 1)] = key + canon
    ln, ch = buffers(left + 2, heights0.shape[0])
    # the root: lost already?
    dead, root_bound = _root(top0, nz, ends, ps, st, ln)
    if left == 0 or (win_only and dead) or (not win_only and root_bound >= bound):
        release(table, pool)
        return FINISHED, left == 0, 0 if left == 0 else bound, 0, 1
    ln.fkey[0] = key
    ln.ncand[0] = -1
    status, won, at = _search(kt, win_only, max_states, moves_out, table, ps, st, ln, ch,
                              At(0, left, nz, ends, canon, bound, 0, 1))
    while status == GROW:  # the search stopped before an expansion: the set grows, it goes on
        table = grow_in(table, pool, at.used)
        status, won, at = _search(kt, win_only, max_states, moves_out, table, ps, st, ln, ch, at)
    release(table, pool)
    return status, won, at.best, at.best_n, at.used


@nb.njit(cache=True, nogil=True, _nrt=False)
def _search(kt, win_only, max_states, moves_out, table, ps, st, ln, ch, at):
    """The depth-first loop of ``search_pass`` from ``at``, on the hash set ``table``:
    ``(status, won, at)``, status ``GROW`` when the set would pass half load at the next
    expansion.  It allocates nothing, so it is compiled without reference counts: the
    bundles' arrays cost no more than locals."""
    d, left, nz, ends, canon, best, best_n, used = at
    top_kind, fol = ps.rel.top_kind, ps.rel.fol
    kinds = ps.cards.kinds
    ncols = st.h.shape[0]
    won = False
    done = False
    status = FINISHED
    while d >= 0:
        if ln.ncand[d] < 0:  # expand the state at depth d
            if 2 * (used + ncols) > table.shape[0]:  # its children might pass half load
                return GROW, won, At(d, left, nz, ends, canon, best, best_n, used)
            hmask = table.shape[0] - 1
            key = ln.fkey[d]
            top = key & 15
            tk = top_kind[top]
            ng = 0
            acc = kt.accepts[top] & nz
            walk_easy = _walk_easy(st.acnt, ps.use)
            if not win_only and d > 0 and _bound_reaches(d, tk, nz, ends, best, ps, st, ln):
                acc = 0
            while acc:
                x = lowbit(acc)
                acc &= acc - 1
                cols = st.colmask[x]
                while cols:
                    c = lowbit(cols)
                    cols &= cols - 1
                    hc = st.h[c]
                    # the child, in place: column c one lower, one card of kind x fewer
                    _lift(st, kinds, c, x, hc, -1)
                    nzc = nz if st.cnt[x] > 0 else nz & ~(1 << x)
                    lost = False
                    lasts = ln.last[d]
                    if win_only:
                        lost, lasts = _child_lost(x, c, hc, tk, nzc, ends, lasts, walk_easy, ps,
                                                  st)
                    if lost and left - 1 < best:
                        # a lost state is still a reachable one: the best line so far
                        best = left - 1
                        best_n = d + 1
                        _record(moves_out, ln.path, d, c)
                    # plays the child allows (the uncovered card included): 0 makes it a
                    # finished position, recorded as a line and neither stored nor expanded
                    m = _plays_after(x, c, hc, fol, st.colmask, kinds)
                    if m == 0 and not lost and left - 1 < best:
                        best = left - 1
                        best_n = d + 1
                        _record(moves_out, ln.path, d, c)
                        if best == 0 or (best == 1 and not win_only):
                            done = True
                    if not lost and m > 0:
                        ck = _child_key(key, c, x, canon, ps, st)
                        s = slot_of(ck, hmask)
                        prefetch(table, s)
                        _keep_child(ch, ng, c, ck, s, m * 8 + hc if ps.use.order else 0, lasts)
                        ng += 1
                    _lift(st, kinds, c, x, hc, 1)
            used, n = _store_children(d, ng, table, used, ch, ln)
            ln.ncand[d] = n
            ln.icand[d] = 0
            if done:
                won = best == 0
                break
            if used >= max_states:
                status = TRUNCATED
                break
        if ln.icand[d] < ln.ncand[d]:  # play the next candidate
            nz, ends, canon = play(d, nz, ends, canon, ps, st, ln)
            d += 1
            left -= 1
            ln.ncand[d] = -1
            if left < best:
                best = left
                best_n = d
                _record(moves_out, ln.path, d - 1, ln.path[d - 1])
                if left == 0:
                    won = True
                    break
                if left == 1 and not win_only:
                    break  # pass 1 proved that no line clears the tableau: one card is optimal
        else:  # backtrack
            d -= 1
            if d >= 0:
                nz, ends, canon = unplay(d, nz, ends, canon, ps, st, ln)
                left += 1
    return status, won, At(d, left, nz, ends, canon, best, best_n, used)


@nb.njit(nogil=True, inline="always")
def _root(top0, nz, ends, ps, st, ln):
    """The root: lost already?  Returns ``(dead, cards-left bound)``; fills ``ln.sd[0]``
    (stuck depths) and ``ln.last[0]`` (successor rule at the root: every card)."""
    h, cnt = st.h, st.cnt
    rel, cards, use = ps.rel, ps.cards, ps.use
    tk0 = rel.top_kind[top0]
    root_bound = stuck_depths(h, cnt, nz, tk0, cards.kinds, cards.incol, cards.above, rel.pred,
                              rel.fol, rel.wrap, ln.sd[0])
    dead = (use.buried or use.unreached) and root_bound > 0
    if use.walk and tk0 >= 0:
        dead = dead or not euler_ok(cnt, tk0, ends, ps.sig, ps.neg, ps.pos)
    if use.last:
        for c in range(h.shape[0]):
            for i in range(1, h[c] + 1):
                if card_last(c, i, h, cnt, cards.kinds, cards.incol, ps.below, rel.fol):
                    if i > 1:
                        dead = True
                    ln.last[0] |= 1 << c
        if ln.last[0] & (ln.last[0] - 1):
            dead = True
    return dead, root_bound


@nb.njit(nogil=True, inline="always")
def _walk_easy(acnt, use):
    """The children's walk sums are those of this state's cards (the top's visit replaces
    the card played): every child passes the walk rule if all are >= 2."""
    if use.walk:
        for r in range(13):
            if acnt[r] < 2:
                return False
    return True


@nb.njit(nogil=True, inline="always")
def _bound_reaches(d, tk, nz, ends, best, ps, st, ln):
    """Pass 2: does the cards-left bound of the state at depth d (top kind ``tk``) reach
    the best line's?  Such a state is not expanded (checked once per state here, not per
    child when it is generated)."""
    rel = ps.rel
    tkp = rel.top_kind[ln.fkey[d - 1] & 15]
    lb = stuck_depths_after(st.h, st.cnt, nz, tk, tkp, ps.cards, rel, ln.sd[d - 1], ln.sd[d])
    if lb == 0 and best <= 1 and ps.use.walk and tk >= 0:
        if not euler_ok_in(st.cnt, tk, ends, ps.sig, ps.neg, ps.pos, st.av):
            lb = 1
    return lb >= best


@nb.njit(nogil=True, inline="always")
def _lift(st, kinds, c, x, hc, step):
    """Column c (height ``hc``, exposing kind x) one lower (``step`` -1) or back (+1)."""
    st.h[c] = hc - 1 if step < 0 else hc
    st.cnt[x] += step
    if hc == 1:
        st.botcnt[kinds[c, 1]] += step


@nb.njit(nogil=True, inline="always")
def _child_lost(x, c, hc, tk, nzc, ends, lasts, walk_easy, ps, st):
    """Pass 1: is the child (column c, of height ``hc`` before, played: a card of kind x on
    top kind ``tk``; ``nzc`` its kinds left) proved lost?  Returns ``(lost, its
    successor-rule columns)``, from its parent's ``lasts``."""
    rel, cards, use = ps.rel, ps.cards, ps.use
    h, cnt, fol = st.h, st.cnt, rel.fol
    kinds, by_kind, n_kind = cards.kinds, cards.by_kind, cards.n_kind
    lost = False
    if use.unreached and (cnt[x] == 0 or tk < 0 or cnt[tk] == 0):
        lost = unreached(x, nzc, fol) != 0
    ec = ends
    if hc == 1 and st.botcnt[kinds[c, 1]] == 0:
        ec &= ~(1 << (kinds[c, 1] - 1))
    if not lost and use.last:
        # successor rule: only cards after x lost a possible successor
        ks = fol[x] & nzc
        while ks and not lost:
            k = lowbit(ks)
            ks &= ks - 1
            for j in range(n_kind[k]):
                cc = by_kind[k, j] >> 3
                ii = by_kind[k, j] & 7
                if ii <= h[cc] and card_last(cc, ii, h, cnt, kinds, cards.incol, ps.below, fol):
                    if ii > 1:
                        lost = True
                        break
                    lasts |= 1 << cc
        if lasts & (lasts - 1):
            lost = True  # two cards that can only be the last one
        elif lasts:
            ec &= 1 << (kinds[lowbit(lasts), 1] - 1)
    if not lost and use.walk:
        lost = not walk_easy and not walk_ok(st.acnt, x, ec, ps.sig, ps.neg, ps.pos)
    if not lost and use.buried:
        # only cards that just lost a predecessor can become stuck:
        # kinds after x (one x fewer) and, when exposed, after the old top
        ks = (fol[x] | (ALL_KINDS if tk < 0 else fol[tk])) & nzc
        while ks and not lost:
            k = lowbit(ks)
            ks &= ks - 1
            for j in range(n_kind[k]):
                cc = by_kind[k, j] >> 3
                ii = by_kind[k, j] & 7
                if ii <= h[cc] and card_stuck(cc, ii, h, cnt, x, kinds, cards.incol, cards.above,
                                              rel.pred):
                    lost = True
                    break
    return lost, lasts


@nb.njit(nogil=True, inline="always")
def _record(moves_out, path, d, c):
    """The best line so far: the path to depth d, then column c."""
    for i in range(d):
        moves_out[i] = path[i]
    moves_out[d] = c


@nb.njit(nogil=True, inline="always")
def _plays_after(x, c, hc, fol, colmask, kinds):
    """The plays a child allows after column c (height ``hc`` before) played kind x: the
    other columns' exposed cards that may follow x, and the card it uncovered."""
    m = 0
    ff = fol[x]
    while ff:
        m += popcount(colmask[lowbit(ff)] & ~(1 << c))
        ff &= ff - 1
    if hc > 1 and (fol[x] >> kinds[c, hc - 1]) & 1:
        m += 1
    return m


@nb.njit(nogil=True, inline="always")
def _child_key(key, c, x, canon, ps, st):
    """The canonical key of the child of raw key ``key`` that plays column c (kind x); its
    height is already one lower in ``st``."""
    ck = (key & ~15) - (1 << ps.shifts[c]) + ps.rel.kind_top[x] + canon
    g = ps.group[c]
    if ps.use.canon and g >= 0:
        gi = st.gindex[g]
        ck += ps.delta[g, gi - ps.place[c]] - ps.delta[g, gi]
    return ck


@nb.njit(nogil=True, inline="always")
def _keep_child(ch, j, c, ck, slot, score, lasts):
    """Child j of the expansion, waiting for its set lookup."""
    ch.col[j] = c
    ch.key[j] = ck
    ch.slot[j] = slot
    ch.sc[j] = score
    ch.last[j] = lasts


@nb.njit(nogil=True, inline="always")
def _store_children(d, ng, table, used, ch, ln):
    """Second pass: the set lookups of the ``ng`` children, their cache lines already on
    the way; the new ones become the candidates of depth d, best score first.  Returns
    ``(used, candidates)``."""
    n = 0
    for j in range(ng):
        if insert_at(table, ch.key[j], ch.slot[j]):
            used += 1
            sc = ch.sc[j]
            p = n
            while p > 0 and ch.score[p - 1] < sc:
                ln.cand[d, p] = ln.cand[d, p - 1]
                ln.cand_last[d, p] = ln.cand_last[d, p - 1]
                ch.score[p] = ch.score[p - 1]
                p -= 1
            ln.cand[d, p] = ch.col[j]
            ln.cand_last[d, p] = ch.last[j]
            ch.score[p] = sc
            n += 1
    return used, n
