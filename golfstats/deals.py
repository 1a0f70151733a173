"""Deals: seeded deals that depend only on (seed, index), and PySolFC's numbered deals.

Seeded deals are made in blocks of ``BLOCK`` consecutive indices.  Block ``b`` of
seed ``S`` has its own generator, ``PCG64(SeedSequence(S, spawn_key=(b,)))``, which
draws the shuffle uniforms of its deals and then one 63-bit key per deal (the
seed of any randomness a policy uses on that deal).  A run of any size, split into
chunks of any size over any number of workers, therefore sees the same deal ``i``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from golfstats.board import Board, parse_board
from golfstats.cards import CARD_IDS
from golfstats.rules import ACE_OF_SPADES, Game, Rules, RulesError, Start

if TYPE_CHECKING:
    import numpy as np

# numpy is imported inside the functions that use it: the CLI imports this module for its
# constants, and `golfstats --help` must not pay for numpy (tests/test_terminal.py)
BLOCK = 1024
_SWAPS = CARD_IDS - 1  # Fisher-Yates swaps of the base deck (every card id)
#: The seed of every command that deals seeded deals when none is given.
DEFAULT_SEED = 2026
#: Seeds are non-negative int64 values: 0 .. MAX_SEED.
MAX_SEED = 2**63 - 1


@dataclass(frozen=True)
class DealBatch:
    """Deals ``start .. start+len-1`` of a seed: ``cards[d]`` in layout order, ``keys[d]``."""

    start: int
    cards: np.ndarray  # (n, dealt) int8, see kernels.dealing.deal_from_uniforms
    keys: np.ndarray  # (n,) int64


def _keep_mask(rules: Rules) -> np.ndarray:
    import numpy as np

    keep = np.zeros(CARD_IDS, np.bool_)
    keep[list(rules.deck)] = True
    return keep


def _block(seed: int, block: int) -> tuple[np.ndarray, np.ndarray]:
    import numpy as np

    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(block,))))
    uniforms = rng.random((BLOCK, _SWAPS))
    keys = rng.integers(0, 2**63 - 1, size=BLOCK, dtype=np.int64)
    return uniforms, keys


def seeded_deals(rules: Rules, seed: int, start: int, count: int) -> DealBatch:
    """Deals ``start .. start+count-1`` of ``seed`` for ``rules`` (fast: compiled shuffle)."""
    import numpy as np

    from golfstats.kernels.dealing import deal_from_uniforms

    if seed < 0 or start < 0 or count < 0:
        raise ValueError("seed, start and count must be >= 0")
    layout = rules.layout
    keep = _keep_mask(rules)
    cards = np.empty((count, len(rules.deck)), np.int8)
    keys = np.empty(count, np.int64)
    first, last = start // BLOCK, (start + count - 1) // BLOCK
    done = 0
    for block in range(first, last + 1) if count else ():
        lo = max(start, block * BLOCK) - block * BLOCK
        hi = min(start + count, (block + 1) * BLOCK) - block * BLOCK
        uniforms, block_keys = _block(seed, block)
        deal_from_uniforms(uniforms[lo:hi], keep, layout.columns, layout.height,
                           cards[done:done + hi - lo])
        keys[done:done + hi - lo] = block_keys[lo:hi]
        done += hi - lo
    return DealBatch(start, cards, keys)


def board_from_cards(rules: Rules, cards) -> Board:
    """The ``Board`` of one deal given in layout order."""
    layout = rules.layout
    cards = [int(c) for c in cards]
    n_tab = layout.columns * layout.height
    tableau = tuple(tuple(cards[c * layout.height:(c + 1) * layout.height])
                    for c in range(layout.columns))
    rest = cards[n_tab:]
    if layout.start is Start.CARD:
        return Board(tableau, tuple(rest[1:]), rest[0])
    if layout.start is Start.ACE_OF_SPADES:
        return Board(tableau, tuple(rest), ACE_OF_SPADES)
    return Board(tableau, tuple(rest), None)


def seeded_board(rules: Rules, seed: int, index: int) -> Board:
    """Deal ``index`` of ``seed``."""
    return board_from_cards(rules, seeded_deals(rules, seed, index, 1).cards[0])


_PYSOL_GAMES = {Game.GOLF: "golf", Game.BLACK_HOLE: "black_hole", Game.ALL_IN_A_ROW: "all_in_a_row"}
PYSOL_MAX = 2**33 - 1


def pysol_text(rules: Rules, number: int) -> str:
    """PySolFC's board text of deal ``number`` of the rule set's game (via pysol-cards)."""
    from pysol_cards.cards import CardRenderer
    from pysol_cards.deal_game import Game as PysolGame
    from pysol_cards.random_base import RandomBase

    if not 1 <= number <= PYSOL_MAX:
        raise ValueError(f"PySol deal numbers run from 1 to {PYSOL_MAX}, not {number}")
    game = PysolGame(_PYSOL_GAMES[rules.game], number, RandomBase.DEALS_PYSOLFC)
    return game.calc_layout_string(CardRenderer(True))


def pysol_board(rules: Rules, number: int) -> Board:
    """PySolFC deal ``number``.  Under ``empty-start`` the turned card goes back on top of
    the stock.  PySol has no joker deals."""
    if rules.jokers:
        raise RulesError("PySol deals are 52-card deals; jokers need seeded deals (--seed/--index)")
    plain = Rules(game=rules.game, king=rules.king)
    board = parse_board(pysol_text(plain, number), plain)
    if rules.empty_start:
        return Board(board.tableau, (board.foundation, *board.stock), None)
    return board
