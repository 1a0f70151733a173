"""Rules as data: one frozen ``Rules`` value per rule set, and the registry of names.

A rule set is named by a canonical id such as ``putt-putt+jokers2+empty-start``:
a base name (a king rule, or a related game) followed by ``+option`` tokens.
``parse_variant`` accepts the aliases of docs/rules.md and the options in a few
spellings; ``Rules.id`` always gives the one canonical spelling back.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from golfstats.cards import ACE, KING, QUEEN, deck

#: Recorded with every result; bump when the meaning of a rule set changes.
RULES_VERSION = "1"
#: The rule set of every command when none is named (the standard rules, Golf-A).
DEFAULT_VARIANT = "strict"


class Game(StrEnum):
    GOLF = "golf"
    BLACK_HOLE = "black-hole"
    ALL_IN_A_ROW = "all-in-a-row"


class KingRule(StrEnum):
    STRICT = "strict"
    QUEENS_ON_KINGS = "queens-on-kings"
    PUTT_PUTT = "putt-putt"


#: The ids of the three plain king rules (golf with no option), in the order of
#: docs/rules.md: the rule sets the published figures and the study's precise runs are of.
PLAIN_KING_RULES: tuple[str, ...] = tuple(rule.value for rule in KingRule)


class Draw(StrEnum):
    ANY_TIME = "any-time"
    WHEN_STUCK = "when-stuck"


class Start(StrEnum):
    """What lies on the foundation when play begins (docs/rules.md, "The layout")."""

    CARD = "card"  # one card turned from the stock
    EMPTY = "empty"  # nothing: the first play starts the pile
    ACE_OF_SPADES = "ace-of-spades"  # Black Hole's Ace of spades

    @property
    def code(self) -> int:
        """The start as the compiled kernels read it: 0 a card, 1 empty, 2 the Ace of spades."""
        return _START_CODES[self]


_START_CODES = {Start.CARD: 0, Start.EMPTY: 1, Start.ACE_OF_SPADES: 2}


class RulesError(ValueError):
    """An unknown variant name or an impossible combination of options."""


@dataclass(frozen=True)
class Layout:
    """Where the cards go: ``columns`` x ``height`` tableau, then the start, then the stock."""

    columns: int
    height: int
    start: Start
    has_stock: bool


GOLF_LAYOUT = Layout(columns=7, height=5, start=Start.CARD, has_stock=True)
GOLF_EMPTY_LAYOUT = Layout(columns=7, height=5, start=Start.EMPTY, has_stock=True)
BLACK_HOLE_LAYOUT = Layout(columns=17, height=3, start=Start.ACE_OF_SPADES, has_stock=False)
ALL_IN_A_ROW_LAYOUT = Layout(columns=13, height=4, start=Start.EMPTY, has_stock=False)
ACE_OF_SPADES = 3 * 13  # card id of AS


@dataclass(frozen=True)
class Rules:
    """One rule set of docs/rules.md.  Build it with ``parse_variant`` or ``Rules.make``."""

    game: Game = Game.GOLF
    king: KingRule = KingRule.STRICT
    jokers: int = 0
    empty_start: bool = False
    draw: Draw = Draw.ANY_TIME
    dead_queen: bool = False

    @classmethod
    def make(cls, **fields) -> Rules:
        """Construct and validate; raises ``RulesError`` on impossible combinations."""
        rules = cls(**fields)
        rules.validate()
        return rules

    def validate(self) -> None:
        if self.game is not Game.GOLF:
            if (self.king is not KingRule.PUTT_PUTT or self.jokers or self.empty_start
                    or self.draw is not Draw.ANY_TIME or self.dead_queen):
                raise RulesError(
                    f"{self.game.value} has no stock and fixed rules (wrapping ranks); "
                    "the options jokers, empty-start, draw and dead-queen apply to golf only")
            return
        if self.jokers not in (0, 1, 2):
            raise RulesError(f"jokers must be 0, 1 or 2, not {self.jokers}")
        if self.dead_queen and self.king is not KingRule.QUEENS_ON_KINGS:
            raise RulesError("dead-queen is a house rule of queens-on-kings only "
                             f"(a Queen on a King), not of {self.king.value}")

    @property
    def id(self) -> str:
        """Canonical name, e.g. ``queens-on-kings+jokers1+when-stuck+dead-queen``."""
        if self.game is not Game.GOLF:
            return self.game.value
        parts = [self.king.value]
        if self.jokers:
            parts.append(f"jokers{self.jokers}")
        if self.empty_start:
            parts.append("empty-start")
        if self.draw is Draw.WHEN_STUCK:
            parts.append("when-stuck")
        if self.dead_queen:
            parts.append("dead-queen")
        return "+".join(parts)

    def __str__(self) -> str:
        return self.id

    @property
    def layout(self) -> Layout:
        if self.game is Game.BLACK_HOLE:
            return BLACK_HOLE_LAYOUT
        if self.game is Game.ALL_IN_A_ROW:
            return ALL_IN_A_ROW_LAYOUT
        return GOLF_EMPTY_LAYOUT if self.empty_start else GOLF_LAYOUT

    @property
    def deck(self) -> tuple[int, ...]:
        """The cards that are dealt (the Ace of spades is not, in Black Hole)."""
        cards = deck(self.jokers)
        if self.game is Game.BLACK_HOLE:
            return tuple(c for c in cards if c != ACE_OF_SPADES)
        return cards

    @property
    def stock_size(self) -> int:
        layout = self.layout
        if not layout.has_stock:
            return 0
        dealt = len(self.deck) - layout.columns * layout.height
        return dealt - (1 if layout.start is Start.CARD else 0)

    def successors(self, rank: int) -> frozenset[int]:
        """Ranks that may go on a top card of ``rank`` (docs/rules.md "King and Ace rules").

        Before the dead-queen house rule, which depends on what the Queen was played on.
        """
        wrap = self.king is KingRule.PUTT_PUTT
        if rank == KING:
            if self.king is KingRule.STRICT:
                return frozenset()
            return frozenset({QUEEN, ACE} if wrap else {QUEEN})
        if rank == ACE:
            return frozenset({2, KING} if wrap else {2})
        return frozenset({rank - 1, rank + 1})

    def may_follow(self, top: int, rank: int) -> bool:
        """May a card of ``rank`` go on a top card of ``top`` (plain ranks, no house rule)?"""
        return rank in self.successors(top)


# ---------------------------------------------------------------- registry

#: The named rule sets: base names a user types first in a variant id.
VARIANTS: dict[str, Rules] = {
    "strict": Rules(king=KingRule.STRICT),
    "queens-on-kings": Rules(king=KingRule.QUEENS_ON_KINGS),
    "putt-putt": Rules(king=KingRule.PUTT_PUTT),
    "black-hole": Rules(game=Game.BLACK_HOLE, king=KingRule.PUTT_PUTT),
    "all-in-a-row": Rules(game=Game.ALL_IN_A_ROW, king=KingRule.PUTT_PUTT),
}

ALIASES: dict[str, str] = {
    "golf-a": "strict", "dead-king": "strict",
    "golf-b": "queens-on-kings",
    "golf-c": "putt-putt", "wrap": "putt-putt", "relaxed": "putt-putt",
}

#: Aliases no longer read, and the variant each named: ``hard``, ``medium`` and ``easy``
#: are the bands of ``golfstats course --difficulty`` (one meaning per word).
RETIRED_ALIASES: dict[str, str] = {"hard": "strict", "medium": "queens-on-kings",
                                   "easy": "putt-putt"}

DESCRIPTIONS: dict[str, str] = {
    "strict": "nothing goes on a King (it forces a draw); only a 2 on an Ace",
    "queens-on-kings": "a Queen may go on a King; only a 2 on an Ace (PySol's Golf)",
    "putt-putt": "ranks wrap: Q or A on a King, 2 or K on an Ace",
    "black-hole": "17 columns of 3, Ace of spades on the foundation, no stock, ranks wrap",
    "all-in-a-row": "13 columns of 4, empty foundation, no stock, ranks wrap",
}

#: Options that combine with the three golf king rules: token -> description.
OPTIONS: dict[str, str] = {
    "jokers1": "add one joker (wild; the stock holds the extra card)",
    "jokers2": "add two jokers",
    "empty-start": "no card turned at the start: the first move starts the pile",
    "when-stuck": "house rule: draw only when no play is available (default any-time)",
    "dead-queen": "house rule of queens-on-kings: a Queen played on a King accepts nothing",
}


def _apply_option(rules: Rules, token: str) -> Rules:
    key, _, value = token.partition("=")
    if token.startswith("jokers") and not value:
        key, value = "jokers", token[len("jokers"):]
    if key == "jokers":
        if value not in ("0", "1", "2"):
            raise RulesError(f"jokers must be 0, 1 or 2, not {value!r}")
        return replace(rules, jokers=int(value))
    if key == "draw" and value in ("any-time", "when-stuck"):
        return replace(rules, draw=Draw(value))
    if token in ("any-time", "when-stuck"):
        return replace(rules, draw=Draw(token))
    if token == "empty-start":
        return replace(rules, empty_start=True)
    if token == "dead-queen":
        return replace(rules, dead_queen=True)
    raise RulesError(f"unknown option {token!r}; options are: "
                     + ", ".join(["jokers0", *OPTIONS, "any-time"]))


def parse_variant(name: str) -> Rules:
    """Rules for a variant id such as ``golf-c+jokers2`` or ``queens-on-kings+dead-queen``."""
    tokens = [t.strip().lower() for t in name.strip().split("+")]
    base = ALIASES.get(tokens[0], tokens[0])
    if base in RETIRED_ALIASES:
        raise RulesError(f"the variant alias {base!r} is retired (hard, medium and easy are "
                         f"course --difficulty bands); write {RETIRED_ALIASES[base]}")
    if base not in VARIANTS:
        raise RulesError(f"unknown variant {tokens[0]!r}; variants are: "
                         + ", ".join(VARIANTS) + "; aliases: " + ", ".join(ALIASES))
    rules = VARIANTS[base]
    for token in tokens[1:]:
        rules = _apply_option(rules, token)
    rules.validate()
    return rules


def with_options(rules: Rules, *, jokers: int | None = None, empty_start: bool | None = None,
                 draw: str | None = None, dead_queen: bool | None = None) -> Rules:
    """``rules`` with the CLI's rule options laid over it (``None`` keeps a field)."""
    changes: dict = {}
    if jokers is not None:
        changes["jokers"] = jokers
    if empty_start is not None:
        changes["empty_start"] = empty_start
    if draw is not None:
        changes["draw"] = Draw(draw)
    if dead_queen is not None:
        changes["dead_queen"] = dead_queen
    out = replace(rules, **changes)
    out.validate()
    return out


def all_rule_sets() -> list[Rules]:
    """Every valid combination: 3 king rules x jokers x start x draw (+dead-queen), and the games."""
    out = []
    for king in KingRule:
        for jokers in (0, 1, 2):
            for empty_start in (False, True):
                for draw in Draw:
                    dead = (False, True) if king is KingRule.QUEENS_ON_KINGS else (False,)
                    for dead_queen in dead:
                        out.append(Rules.make(king=king, jokers=jokers, empty_start=empty_start,
                                              draw=draw, dead_queen=dead_queen))
    out.append(VARIANTS["black-hole"])
    out.append(VARIANTS["all-in-a-row"])
    return out
