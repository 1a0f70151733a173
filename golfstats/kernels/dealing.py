"""Dealing kernel: Fisher-Yates over pre-drawn uniforms, then the layout.  No RNG here."""

from __future__ import annotations

import numba as nb
import numpy as np

from golfstats.cards import CARD_IDS

#: Cards shuffled for every deal: the standard cards and both jokers (every card id).  A
#: rule set keeps the ones in its deck, in shuffled order, so deal i of a seed is the
#: same 52-card order in every variant (jokers interleave, Black Hole drops AS).
BASE_DECK = CARD_IDS


@nb.njit(cache=True, nogil=True)
def deal_from_uniforms(uniforms, keep, columns, height, out):
    """Fill ``out[d]`` with deal ``d`` in layout order.

    ``uniforms[d, s]`` in [0, 1) drives swap ``s`` of a Fisher-Yates shuffle of the
    54 base cards; ``keep[card]`` says which cards this rule set deals.  The kept
    order is dealt like PySol: card ``k < columns*height`` goes to column
    ``k % columns``, row ``k // columns`` (stored at ``column*height + row``); the
    rest (start card, then stock in draw order) follow in order.
    """
    perm = np.empty(BASE_DECK, np.int8)
    n_tab = columns * height
    for d in range(uniforms.shape[0]):
        for i in range(BASE_DECK):
            perm[i] = i
        for s in range(BASE_DECK - 1):
            n = BASE_DECK - 1 - s
            j = int(uniforms[d, s] * (n + 1))
            if j > n:  # guard against a uniform of exactly 1.0 after rounding
                j = n
            tmp = perm[n]
            perm[n] = perm[j]
            perm[j] = tmp
        k = 0
        for i in range(BASE_DECK):
            card = perm[i]
            if not keep[card]:
                continue
            if k < n_tab:
                out[d, (k % columns) * height + k // columns] = card
            else:
                out[d, k] = card
            k += 1
