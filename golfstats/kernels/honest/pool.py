"""Where nothing can be won, dead draws vanish: the policy's states pooled by the cards
left that can still be played (``docs/honest-play.md``, Fact 5).

A kind r is *dead* at heights h when no card left in the tableau at h (any depth) can be
played on the top of a turned r (Fact 2).  At a state (h, D) from which no order of the
stock wins, the policy's (p, e) is (0, the expected cards left at the end), and it depends
on D only through the counts left of the kinds alive at h.  So the policy pass keeps one
entry for all of them, under the D-code with the dead kinds' counts set to 0
(``canonical``), and values it from the alive cards alone (the dead ones turn nothing up).
No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.hashset import prefetch
from golfstats.kernels.honest.ends import ENDS
from golfstats.kernels.honest.lost import dead_aux
from golfstats.kernels.honest.memo import GSIZE, find, home, key_of
from golfstats.kernels.honest.space import (
    BITS,
    COLUMNS,
    DIGIT,
    STOCK_KINDS,
    TOL,
    d_digit,
    low_bit,
    packed_codes,
)


@nb.njit(cache=True, nogil=True)
def dead_kinds(kt, exposed, heights0, m0):
    """Per dense heights code g below ``heights0``, the kinds left in the stock at the start
    (``m0[r] > 0``) that are dead at g, as a bit set (bit r)."""
    taken_by = dead_aux(kt)[1]  # per card kind, the tops that accept it
    gpk = packed_codes(heights0)
    dead = np.zeros(gpk.shape[0], np.int64)
    for g in range(gpk.shape[0]):
        gp = gpk[g]
        tops = np.int64(0)  # the tops some card left in the tableau can be played on
        for c in range(COLUMNS):
            for k in range(1, ((gp >> (BITS * c)) & DIGIT) + 1):
                tops |= taken_by[exposed[c, k]]
        for r in range(STOCK_KINDS):
            if m0[r] > 0 and (tops >> kt.drawn[r]) & 1 == 0:
                dead[g] |= np.int64(1) << r
    return dead


@nb.njit(cache=True, nogil=True, inline="always")
def canonical(d, kinds, m0, pwd):
    """The D-code ``d`` with the counts of the kinds in the bit set ``kinds`` set to 0."""
    while kinds:
        r = low_bit(np.uint64(kinds))
        kinds &= kinds - 1
        d -= d_digit(d, r, pwd, m0) * pwd[r]
    return d


@nb.njit(cache=True, nogil=True, inline="always")
def alive_left(d, dead, m0, pwd):
    """The cards left in the stock (D-code ``d`` drawn) of the kinds not in ``dead``."""
    left = 0
    for r in range(STOCK_KINDS):
        if m0[r] > 0 and (dead >> r) & 1 == 0:
            left += m0[r] - d_digit(d, r, pwd, m0)
    return left


@nb.njit(cache=True, nogil=True, inline="always")
def cards_at(g, pw, heights0):
    """The cards left in the tableau at the dense heights code g."""
    cards = 0
    for c in range(COLUMNS):
        cards += (g // pw[c]) % (heights0[c] + 1)
    return cards


@nb.njit(cache=True, nogil=True, inline="always")
def choose_zero(tab, meta, ends, at, cnt, c, was_dead, last, dead, m0, pwd):
    """``choose`` after a draw from a state that cannot be won, pooled: D-code ``c``
    canonical for the kinds ``was_dead`` (those dead before the draw); ``last``: the card
    drawn was the last alive one.  Every endpoint has p = 0 and the fewest cards that may
    draw compete (Fact 5: also when the stock is out), on e; after the last alive card
    nothing more is played, so the value is (0, those cards)."""
    g_size = meta[GSIZE]
    meta[6] += 1
    meta[7] += cnt
    least = -1
    be = np.inf
    best_e = 0.0
    n_comp = 0
    for rnd in range(2):
        bc = -1
        for i in range(cnt):
            o = at + ENDS * i
            if ends[o + 3] == 0:
                continue
            g, cards = ends[o], ends[o + 2]
            if least < 0:
                least = cards
                if last:
                    return 0, 0.0, float(cards), cards, i, -1, 0, True
            if cards > least:
                break  # fewest cards first: no more compete
            code = c
            newly = dead[g] & ~was_dead
            if newly:
                code = canonical(c, newly, m0, pwd)
            s = find(tab, key_of(g, code, True, g_size))
            if tab[3 * s] == -1.0:
                return 1, 0.0, 0.0, 0, -1, g, code, True
            ve = tab[3 * s + 2]
            if rnd == 0:
                be = min(be, ve)
                if n_comp == 0:
                    bc, best_e = i, ve
                n_comp += 1
            elif ve <= be + TOL and bc < 0:
                bc, best_e = i, ve
        if n_comp == 1:
            break  # one competitor: it is the choice
    return 0, 0.0, best_e, least, bc, -1, 0, True


@nb.njit(cache=True, nogil=True, inline="always")
def ask_ahead(tab, ecache, epool, dead, m0, pwd, g, c, g_size, r0):
    """Prefetch the table slots a draw at the pooled state (g, canonical D-code c), nothing
    to win, will read: per alive kind from ``r0`` on that is left and whose endpoints are
    listed, the slots of the endpoints that may draw with the fewest cards (the
    competitors).  The reads then overlap instead of waiting one after another; no effect
    on values."""
    slots = tab.shape[0] // 3
    base = g * STOCK_KINDS
    for r in range(r0, STOCK_KINDS):
        if (dead[g] >> r) & 1 or m0[r] == d_digit(c, r, pwd, m0):
            continue
        eo = ecache[base + r]
        if eo < 0:
            continue
        least = -1
        for i in range(epool[eo]):  # fewest cards first
            o = eo + 1 + ENDS * i
            if epool[o + 3] != 0:
                if least >= 0 and epool[o + 2] != least:
                    break
                least = epool[o + 2]
                g2 = epool[o]
                code = c + pwd[r]
                newly = dead[g2] & ~dead[g]
                if newly:
                    code = canonical(code, newly, m0, pwd)
                prefetch(tab, 3 * home(key_of(g2, code, True, g_size), slots))
