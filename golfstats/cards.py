"""Cards: ids, ranks, text form ("QD", "5C", "TH", "JK"), symbols.

A card is a small int: ``suit * 13 + rank - 1`` for the 52 standard cards
(suits in the order C, D, H, S; ranks 1 = Ace .. 13 = King) and 52, 53 for
the two jokers.  Kernels only ever see a card's *kind*: its rank 1..13, or
``JOKER_KIND`` (0) for a joker.  Suits never matter to the game.
"""

from __future__ import annotations

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
RED_SUITS = frozenset("DH")

ACE, JACK, QUEEN, KING = 1, 11, 12, 13
N_RANKS = 13
#: Ids 0..51 are the standard cards, 52 and 53 the jokers: every card id is below CARD_IDS.
STANDARD_CARDS = 52
CARD_IDS = STANDARD_CARDS + 2
JOKER_KIND = 0
JOKERS = (STANDARD_CARDS, STANDARD_CARDS + 1)
STANDARD_DECK = tuple(range(STANDARD_CARDS))


class CardError(ValueError):
    """A card text that is not a card."""


def card(rank: int, suit: int) -> int:
    """The id of the card of ``rank`` (1..13) and ``suit`` (0..3, C D H S)."""
    return suit * N_RANKS + rank - 1


def is_joker(card_id: int) -> bool:
    return card_id >= STANDARD_CARDS


def kind(card_id: int) -> int:
    """Rank 1..13 of a standard card, ``JOKER_KIND`` (0) for a joker.  Plain arithmetic:
    the kernels compile this same function (``kernels.core.card_kind``)."""
    return JOKER_KIND if card_id >= STANDARD_CARDS else card_id % N_RANKS + 1


def suit_letter(card_id: int) -> str:
    return "" if card_id >= STANDARD_CARDS else SUITS[card_id // N_RANKS]


def format_card(card_id: int) -> str:
    """Board-text form: rank letter then suit letter (``TH``), ``JK`` for a joker."""
    if card_id >= 52:
        return "JK"
    return RANKS[card_id % 13] + SUITS[card_id // 13]


def format_rank(rank: int) -> str:
    return "JK" if rank == JOKER_KIND else RANKS[rank - 1]


def parse_card(text: str) -> int:
    """Parse ``QD``, ``10H``/``TH``, ``JK``; case-insensitive.

    A joker parses to 52; callers that hold two jokers number the second 53.
    """
    t = text.strip().upper()
    if t in ("JK", "JO", "JOKER"):
        return JOKERS[0]
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise CardError(f"{text!r} is not a card (rank A 2-9 T J Q K, suit C D H S, or JK)")
    return card(RANKS.index(t[0]) + 1, SUITS.index(t[1]))


def pretty_card(card_id: int, colour: bool = False) -> str:
    """Terminal form with a suit symbol (``Q\u2666``); ``colour`` adds rich markup for red suits."""
    if card_id >= 52:
        return "[bold magenta]JK[/]" if colour else "JK"
    rank = "10" if card_id % 13 == 9 else RANKS[card_id % 13]
    letter = SUITS[card_id // 13]
    text = rank + SUIT_SYMBOLS[letter]
    if colour and letter in RED_SUITS:
        return f"[red]{text}[/]"
    return text


def deck(jokers: int = 0) -> tuple[int, ...]:
    """The standard 52 cards followed by ``jokers`` jokers."""
    return STANDARD_DECK + JOKERS[:jokers]
