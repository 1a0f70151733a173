"""A sufficient test that no order of the stock left wins from a state (h, D) about to
draw, for the direct search (``honest.direct``): by Fact 1 of ``docs/honest-play.md``
such a state is worth p = 0, and so is every state after it, so the search values it by
the fewest-cards rule alone.  No I/O, no RNG.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.kernels.honest.space import BITS, COLUMNS, DIGIT, STOCK_KINDS


@nb.njit(cache=True, nogil=True)
def dead_aux(kt):
    """What ``dead`` reads: per card kind the tops playing it can make (from any top) and
    the tops that accept it; per stock kind the top its turn makes (bit sets); scratch."""
    n_tops, n_kinds = kt.play_next.shape
    makes = np.zeros(n_kinds, np.int64)
    taken_by = np.zeros(n_kinds, np.int64)
    for u in range(n_tops):
        for x in range(n_kinds):
            v = kt.play_next[u, x]
            if v >= 0:
                makes[x] |= np.int64(1) << v
                taken_by[x] |= np.int64(1) << u
    turned = np.zeros(STOCK_KINDS, np.int64)
    for r in range(STOCK_KINDS):
        turned[r] = np.int64(1) << kt.drawn[r]
    return makes, taken_by, turned, np.zeros(COLUMNS, np.int64)


@nb.njit(cache=True, nogil=True)
def dead(aux, exposed, m0, pwd, gp, d):
    """Can no order of the stock left win from a draw at (packed heights gp, D-code d)?  A
    sufficient test (``docs/honest-play.md``, "Small positions"): some tableau card x is
    accepted by none of the tops that may still be made before it is played: by turning a
    kind left in the stock, or by playing a card of another column or one above x in its
    own (from any top); or more cards than the stock has left can follow only a turned
    card (each starts a chain, and a chain starts after one draw).  Cards only leave the
    tableau and the stock, so a dead state's every successor is dead."""
    makes, taken_by, turned, ct = aux
    tops = 0
    left = 0
    for r in range(STOCK_KINDS):
        k = m0[r] - (d // pwd[r]) % (m0[r] + 1)
        if k > 0:
            tops |= turned[r]
            left += k
    for c in range(COLUMNS):
        t = 0
        for k in range(1, ((gp >> (BITS * c)) & DIGIT) + 1):
            t |= makes[exposed[c, k]]
        ct[c] = t
    heads = 0
    for c in range(COLUMNS):
        others = 0
        for c2 in range(COLUMNS):
            if c2 != c:
                others |= ct[c2]
        above = 0
        for k in range((gp >> (BITS * c)) & DIGIT, 0, -1):
            x = exposed[c, k]
            if (others | above) & taken_by[x] == 0:
                if tops & taken_by[x] == 0:
                    return True
                heads += 1  # only a turned card can come just before it: it starts a chain
            above |= makes[x]
    return heads > left
