"""The arguments that travel together through the honest kernels, one named bundle each.

Each field is documented here, once; the kernels take the bundles (numba passes a
namedtuple of arrays as one value, and reading a field costs nothing).  No I/O, no RNG.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

#: The position valued.
#:
#: * ``kt``: the rule set's tables (``rule_tables.KernelTables``);
#: * ``exposed[c, h]``: the card kind a column c of height h exposes;
#: * ``heights``: the position's column heights;
#: * ``top``: its top-state id;
#: * ``m0[r]``: how many cards of kind r its stock holds (the unseen multiset).
Root = namedtuple("Root", "kt exposed heights top m0")

#: The state codes (``space``): a heights vector h is the dense code ``sum h[c] * pw[c]``
#: (``upw`` the same place values unsigned, for kernels that index with them), ``gpk[g]``
#: the heights of dense code g packed a column a digit, and a drawn multiset D the D-code
#: ``sum D[r] * pwd[r]``.
Codes = namedtuple("Codes", "pw upw gpk pwd")

#: The blocks (one drawn multiset D each, ``blocks``) and where their values live:
#:
#: * ``order``: the D-codes layer by layer (|D| = 0, 1, ...), ``layer_start[j]`` where
#:   layer j starts in it (and ``layer_start[n + 1]`` its end, n the stock's size);
#: * ``q[d]``: block d's states of Q as a row of bits over the compact heights codes,
#:   ``words[d]`` which of its words are not 0, ``qcnt[d]`` how many states it holds,
#:   ``hinv`` the dense code of each compact code (increasing);
#: * ``drq = (bits, qoff)``: which states of Q are drawn from (block d's bits from bit
#:   ``qoff[d]``; ``blocks.subset_bits``), ``dcnt[d]`` how many of block d's;
#: * ``off[d]``: where block d's drawn-from values start in its layer's array.
Blocks = namedtuple("Blocks", "order layer_start drq dcnt q words qcnt hinv off")

#: The chain DP's tables of the rule set (``winp.chain_tables``): per card kind x the tops
#: that accept it (``inv[x, :inv_n[x]]``, padded with the spare top), the top a play of it
#: makes (``after_of[x]``, < 0 where it depends on the top), ``wide`` (some card makes
#: different tops from different tops) and ``width`` (the most tops accepting one card).
Chain = namedtuple("Chain", "inv_n inv after_of wide width")

#: One thread's scratch for a block's chain DP: ``ql`` and ``dl`` (int32, a block's
#: length) its Q states and drawn-from states; ``bv[t, i]`` B of top t at its i-th state
#: (a row more than the tops, and a last column of 0: the column of every state outside
#: the block); ``pos[g]`` the column of dense code g (the last column outside the block)
#: and ``vg[g]`` the p of the block's drawn-from states (0 elsewhere), both over the dense
#: codes and left as they were given.
Scratch = namedtuple("Scratch", "ql dl bv pos vg")


#: The states goal strokes' ``forward`` lists: ``keys[i]`` state i (cards left, then the
#: packed heights; sorted within a block), ``masks[i]`` the tops it is reached with, with
#: ``flag_bit`` set where it may draw; layer j's states start at ``layer_lo[j]``, block d's
#: are ``blk_lo[d]:blk_hi[d]`` (-1: unreached).
Listing = namedtuple("Listing", "keys masks flag_bit layer_lo blk_lo blk_hi")

#: The block ``backward`` values: its states ``lo:lo + size`` of the listing, in layer j of
#: the stock's n draws, whose first state is ``base``; per state t its positions' first
#: slot ``pos_off[t]`` in ``bval`` (pairs (p, e), its tops in increasing order).
Block = namedtuple("Block", "lo size n j base pos_off bval")


#: What goal win keeps of its values for the play-outs and later questions
#: (``honest.solve``): ``dr`` the drawn-from table over the compact heights codes, ``cum``
#: its rank index (``blocks.rank_index``), ``off[d]`` where block d's values start in
#: ``vals`` (-1: not kept) and ``hmap[g]`` the compact code of dense code g (-1: no state).
Kept = namedtuple("Kept", "dr cum off vals hmap")

#: What goal strokes keeps for its play-outs (``solve_strokes``): the D-codes' place values
#: ``pwd``; per block d kept its slot ``slot[d]`` (-1: not kept), and slot s's states
#: ``keys[lo[s, 0]:lo[s, 1]]`` with their values (p, e) as pairs in ``vals``.
KeptPath = namedtuple("KeptPath", "pwd slot lo keys vals")

#: What goal strokes counts: the states listed, the (heights, top) positions reached, the
#: look-ups of B, the bytes of the states and what the backward pass allocates beside them
#: (its values alive at once, scratch and kept blocks; also where it was refused), the
#: states with p > 0, and whether the listing was whole (else it stopped at its cap: more
#: states are reachable).
StrokesStats = namedtuple("StrokesStats",
                          "states positions lookups state_bytes value_bytes positive listed")


def scratch(big: int, n_tops: int, g_size: int, bv=None) -> Scratch:
    """Scratch for blocks of at most ``big`` states (``bv`` given: its table, with the last
    column already 0)."""
    if bv is None:
        bv = np.empty((n_tops + 1, big + 1), np.float64)
        bv[:, big] = 0.0
    zero_col = bv.shape[1] - 1
    return Scratch(np.empty(big, np.int32), np.empty(big, np.int32), bv,
                   np.full(g_size, zero_col, np.int32), np.zeros(g_size, np.float64))
